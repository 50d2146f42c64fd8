"""logicpy's search: conjunction, disjunction, delayed relation calls and `run`, without
Python recursion and linear in the answers that flow through a conjunction.

A goal is any callable `state -> iterable of states` (every kanren goal and every logicpy
relation is one). Three goal classes are not called but *interpreted* by `solve`:

- `Conj(g1, ..., gn)`: all of them, left to right (`lall`/`conj`);
- `Disj(g1, ..., gn)`: any of them, interleaved (`lany`/`disj`; `conde` is a `Disj` of
  `Conj`s);
- `Call(fn, args)`: the goal `fn(*args)`, built only when the search reaches it (what the
  `@relation` decorator returns, and `Zzz`).

`solve` keeps the search in explicit data: a *continuation* is a linked list
`(goal, rest)` of the goals still to prove, a *frame* is a leaf goal's answer iterator
with the continuation each of its answers goes on with, and a *task* is a stack of frames
(a depth-first search). A `Conj` pushes its goals onto the continuation and a `Call` is
expanded in place, so user recursion of any depth costs heap, never Python stack, and each
answer of a leaf passes to the next goal in O(1) (kanren's `bind` re-nests an `interleave`
per answer, which is quadratic). A `Disj` keeps its first branch in the running task and
queues one new task per other branch; tasks take turns, each running until it finds an
answer or has taken `SLICE` steps, so one endless branch cannot starve the others
(miniKanren's interleaving; answer order across `conde` branches is round-robin, as
kanren's). A `Scheduled` goal (a tabled call, `onceo`/`conda`/`condu`) is handed the
state, its continuation and the `Search`, and decides itself how the search goes on.
Calling an interpreted goal as a function runs its own `solve`, so these goals still work
inside any combinator that calls goals.

`run` starts from an empty `immutables.Map` (a persistent substitution, see `equality`).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections import deque
from fractions import Fraction
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from cons.core import ConsPair
from immutables import Map
from kanren.core import fail, succeed
from unification import Var, reify, unify

from ..errors import InputError, LogicpyError
from . import equality
from .terms import String, check_term

__all__ = [
    "Conj", "Disj", "Call", "solve", "run", "conj", "disj", "lall", "lany", "conde", "eq", "eq_oc",
    "relation", "Zzz", "SearchTimeout", "SLICE", "Scheduled", "Search", "PAUSE",
]

#: Steps a task takes before the next task gets its turn (a step: one answer of a frame).
SLICE = 64
#: Steps between two looks at the clock when a run has a time limit.
_CLOCK_EVERY = 256


class _Pause:
    """The type of `PAUSE`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "PAUSE"


#: What a leaf goal's iterator may yield instead of a state: "no answer yet; let the other
#: tasks run, then ask me again". A goal whose loop can run without bound between two
#: answers yields it at a bounded interval, so the scheduler keeps its fairness and its
#: time limit whatever the goal does.
PAUSE = _Pause()


class SearchTimeout(LogicpyError):
    """A `run` reached its time limit; `answers` holds the answers found before it."""

    def __init__(self, message: str, answers: tuple = ()):
        super().__init__(message)
        self.answers = answers


class _Interpreted:
    """A goal `solve` interprets; calling it runs a search of its own from the given state."""

    __slots__ = ()

    def __call__(self, S: Any) -> Iterator[Any]:
        return solve(self, S)


class _Goals(_Interpreted):
    """A combination of `goals`, shown as `functor(goal, ...)`."""

    __slots__ = ("goals",)
    functor = ""

    def __init__(self, goals: tuple):
        self.goals = goals

    def __repr__(self) -> str:
        return f"{self.functor}({', '.join(map(_goal_name, self.goals))})"


class Conj(_Goals):
    """All of `goals`, left to right."""

    __slots__ = ()
    functor = "conj"


class Disj(_Goals):
    """Any of `goals`, their answers interleaved."""

    __slots__ = ()
    functor = "disj"


class Call(_Interpreted):
    """The goal `fn(*args)`, built when the search reaches it."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable[..., Any], args: tuple):
        self.fn = fn
        self.args = args

    def __repr__(self) -> str:
        return goal_text(getattr(self.fn, "__name__", "goal"), self.args)


class Named(_Interpreted):
    """A library relation's goal, shown as the call that made it (`appendo([1],_0,_1)`);
    the search goes straight on to `goal`."""

    __slots__ = ("goal", "name", "args")

    def __init__(self, goal: Any, name: str, args: tuple):
        self.goal, self.name, self.args = goal, name, args

    def __call__(self, S: Any) -> Iterator[Any]:
        return (s for s in self.goal(S) if s is not PAUSE)  # called directly: answers only

    def __repr__(self) -> str:
        return goal_text(self.name, self.args)


def named(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a function that builds a goal so the goal shows the call that made it."""

    @functools.wraps(fn)
    def build(*args: Any, **options: Any) -> Named:
        return Named(fn(*args, **options), fn.__name__, args)

    return build


def goal_text(name: str, args: tuple) -> str:
    """`name(args)` in Prolog syntax, unbound variables `_0, _1, …` (a value that is no term
    is shown by its Python repr)."""
    from .answers import show  # answers reads residuals, which import the FD package

    try:
        return show((name, *args)) if args else name
    except LogicpyError:
        return f"{name}({', '.join(map(repr, args))})"


def _goal_name(g: Any) -> str:
    return repr(g) if isinstance(g, _Interpreted) else getattr(g, "__name__", repr(g))


def _check_goal(g: Any, where: str) -> Any:
    if not callable(g):
        raise InputError(f"{where}: {g!r} is not a goal (a goal is a function from a state to states, "
                         "such as eq(x, 1) or membero(x, xs))")
    return g


def _combined(goals: tuple, kind: type[_Goals], empty: Any) -> Any:
    """`goals` (or the one iterable of goals given) combined as `kind`: `empty` for none, the
    goal itself for one; each is checked to be a goal, errors naming `kind.functor`."""
    if len(goals) == 1 and not callable(goals[0]) and isinstance(goals[0], Iterable):
        goals = tuple(goals[0])
    for g in goals:
        _check_goal(g, kind.functor)
    if not goals:
        return empty
    return goals[0] if len(goals) == 1 else kind(goals)


def conj(*goals: Any) -> Any:
    """All of `goals`, left to right (logical and; kanren's `lall`). No goals: `succeed`.

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(0, x, conj(membero(x, [1, 2, 3]), membero(x, [3, 2])))
    (2, 3)
    """
    return _combined(goals, Conj, succeed)


def disj(*goals: Any) -> Any:
    """Any of `goals`, answers interleaved (logical or; kanren's `lany`). No goals: `fail`.

    >>> from logicpy.core import var
    >>> x = var()
    >>> run(0, x, disj(eq(x, 1), eq(x, 2)))
    (1, 2)
    """
    return _combined(goals, Disj, fail)


lall = conj
lany = disj


def conde(*clauses: Iterable[Any]) -> Any:
    """Any of the clauses, each a list of goals that must all hold (miniKanren's conde).

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(0, x, conde([membero(x, [1, 2])], [membero(x, [3, 4])]))
    (1, 3, 2, 4)
    >>> conde(eq(x, 1), eq(x, 2))
    Traceback (most recent call last):
    ...
    logicpy.errors.InputError: conde: clause 1 is a goal, not a list of goals; write conde([goal, ...], [goal, ...])
    """
    branches = []
    for i, clause in enumerate(clauses, start=1):
        if callable(clause) or not isinstance(clause, Iterable) or isinstance(clause, (str, bytes)):
            what = "a goal" if callable(clause) else repr(clause)
            raise InputError(f"conde: clause {i} is {what}, not a list of goals; "
                             "write conde([goal, ...], [goal, ...])")
        goals = tuple(clause)
        for g in goals:
            _check_goal(g, f"conde clause {i}")
        branches.append(goals[0] if len(goals) == 1 else Conj(goals) if goals else succeed)
    if not branches:
        return fail
    return branches[0] if len(branches) == 1 else Disj(tuple(branches))


#: Types accepted without a closer look: atoms, numbers, variables, lists, partial lists, tuples.
_SHALLOW_OK = frozenset({str, int, bool, Var, list, ConsPair, String, Fraction, tuple})


def _check_eq_term(value: Any, side: str) -> None:
    """Refuse a value that is not a logicpy term (None, dicts, sets, other objects),
    looking at the value and at a tuple's elements: O(1) per goal as written (a list's
    elements are not walked, so recursion over a long list never pays for it again).
    Tuples are not held to the compound-term form here: kanren code uses them as pairs."""
    kind = type(value)
    if kind is str or kind is int or kind is Var or kind is list:
        return
    if kind is tuple:
        for i, item in enumerate(value):
            if type(item) not in _SHALLOW_OK:
                check_term(item, f"eq: {side}[{i}]")
        return
    if kind not in _SHALLOW_OK:
        check_term(value, f"eq: {side}")


class Eq:
    """The goal u = v, a leaf of the search (one unification), shown as `eq(u,v)`; as an
    object rather than a `Named` closure, the commonest goal costs no extra search step."""

    __slots__ = ("u", "v")

    def __init__(self, u: Any, v: Any):
        self.u, self.v = u, v

    def __call__(self, S: Any) -> Any:
        S = unify(self.u, self.v, S)
        return () if S is False else (S,)

    def __repr__(self) -> str:
        return goal_text("eq", (self.u, self.v))


def eq(u: Any, v: Any) -> Eq:
    """eq(?u, ?v): True iff u and v unify. Both must be logicpy terms (`None`, dicts and
    sets are refused, naming the culprit).

    >>> from logicpy.core import var
    >>> x = var()
    >>> run(0, x, eq((\"f\", x), (\"f\", 1)))
    (1,)
    >>> eq(x, None)
    Traceback (most recent call last):
    ...
    logicpy.errors.TermError: eq: right: None is not a logicpy term (atoms are str, compounds are tuples ("f", arg, ...))
    """
    _check_eq_term(u, "left")
    _check_eq_term(v, "right")
    return Eq(u, v)


def eq_oc(u: Any, v: Any) -> Any:
    """eq_oc(?u, ?v): unification with the occurs check (Prolog's unify_with_occurs_check/2):
    fails instead of binding a variable to a term that contains it.

    >>> from logicpy.core import var
    >>> x = var()
    >>> run(0, x, eq_oc(x, ("f", x))), run(0, x, eq_oc(x, ("f", 1)))
    ((), (('f', 1),))
    """
    _check_eq_term(u, "left")
    _check_eq_term(v, "right")

    def eq_oc_goal(S):
        with equality.occurs_check(True):
            S = unify(u, v, S)
        return () if S is False else (S,)

    return eq_oc_goal


def relation(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a function that builds a goal: calling it returns a goal that builds the
    body only when the search reaches it (faster-miniKanren's `defrel`). Recursive
    relations need no `Zzz`, and their depth costs no Python stack.

    >>> from logicpy.core import var, cons
    >>> @relation
    ... def reverseo(xs, acc, ys):
    ...     h, t = var(), var()
    ...     return conde([eq(xs, []), eq(acc, ys)],
    ...                  [eq(xs, cons(h, t)), reverseo(t, cons(h, acc), ys)])
    >>> q = var()
    >>> run(1, q, reverseo(list(range(3_000)), [], q))[0][:3]
    [2999, 2998, 2997]
    """
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin: no check possible
        params = None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    arity = None
    if params is not None and all(p.kind in positional and p.default is p.empty for p in params):
        arity = len(params)

    @functools.wraps(fn)
    def relation_call(*args: Any) -> Call:
        if arity is not None and len(args) != arity:
            raise InputError(f"relation {fn.__name__} takes {arity} arguments, got {len(args)}")
        return Call(fn, args)

    return relation_call


def Zzz(gctor: Callable[..., Any], *args: Any) -> Call:
    """The goal `gctor(*args)`, built when the search reaches it (kanren's `Zzz`, without
    Python recursion; `@relation` makes it unnecessary)."""
    return Call(gctor, args)


#: The `Scheduled` goal classes (each subclass adds itself).
_SCHEDULED: set = set()


class Scheduled(_Interpreted):
    """A goal that takes part in the scheduling itself (tabled calls, committed choice): on
    reaching it, `solve` calls `schedule(S, K, search)`, which may queue tasks with
    `search.spawn` and returns None or (states, K2): the states to go on with from here,
    each with continuation K2 (K, or K with goals pushed in front)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _SCHEDULED.add(cls)

    def schedule(self, S: Any, K: Any, search: "Search") -> tuple[Iterable[Any], Any] | None:
        raise NotImplementedError


class Search:
    """One run of `solve`: its queue of tasks, and what `Scheduled` goals keep per run.

    `on_finish` and `on_abandon` hold callables run when the search has explored
    everything, or is dropped before that (a `run(n)` that has its n answers, an error).
    """

    __slots__ = ("tasks", "on_finish", "on_abandon")

    def __init__(self) -> None:
        self.tasks: deque = deque()
        self.on_finish: list[Callable[[], None]] = []
        self.on_abandon: list[Callable[[], None]] = []

    def spawn(self, states: Iterable[Any], K: Any) -> None:
        """Queue a task that goes on with continuation K from each of `states`."""
        self.tasks.append([(iter(states), K)])


def solve(goal: Any, S: Any, deadline: float | None = None) -> Iterator[Any]:
    """The answer states of `goal` from state `S`, searched as the module describes.

    With `deadline` (a `time.monotonic()` value), raises `SearchTimeout` once it passes.
    """
    search = Search()
    tasks = search.tasks
    tasks.append([(iter((S,)), (goal, None))])
    finished = False
    try:
        yield from _explore(search, deadline)
        finished = True
    finally:
        for hook in (search.on_finish if finished else search.on_abandon):
            hook()


def _explore(search: Search, deadline: float | None) -> Iterator[Any]:
    """The loop of `solve`: run the tasks of `search` in turns until none is left."""
    tasks = search.tasks
    clock = _CLOCK_EVERY
    while tasks:
        stack = tasks.popleft()
        steps = SLICE
        while stack:
            if steps == 0:
                tasks.append(stack)
                break
            steps -= 1
            if deadline is not None:
                clock -= 1
                if clock == 0:
                    clock = _CLOCK_EVERY
                    if time.monotonic() > deadline:
                        raise SearchTimeout("the search ran past its time limit")
            frame = stack[-1]
            S = next(frame[0], None)
            if S is None:
                stack.pop()
                continue
            if S is PAUSE:
                continue
            K = frame[1]
            while K is not None:
                g, K = K
                kind = type(g)
                if kind is Conj:
                    for sub in reversed(g.goals):
                        K = (sub, K)
                elif kind is Named:
                    K = (g.goal, K)
                elif kind is Call:
                    K = (g.fn(*g.args), K)
                    if deadline is not None:
                        clock -= 1
                        if clock == 0:
                            clock = _CLOCK_EVERY
                            if time.monotonic() > deadline:
                                raise SearchTimeout("the search ran past its time limit")
                elif kind is Disj:
                    first, *others = g.goals
                    for other in others:
                        tasks.append([(iter((S,)), (other, K))])
                    K = (first, K)
                elif kind in _SCHEDULED:
                    went_on = g.schedule(S, K, search)
                    if went_on is not None:
                        stack.append((iter(went_on[0]), went_on[1]))
                    break
                else:
                    stack.append((iter(g(S)), K))
                    break
            else:
                yield S
                if tasks:  # let the other tasks have their turn
                    tasks.append(stack)
                    break


def run(n: int | None, x: Any, *goals: Any, timeout: float | None = None, occurs_check: bool = False,
        results_filter: Callable[[Iterator[Any]], Any] | None = None) -> Any:
    """The first `n` answers (all for `n=0`, a lazy iterator for `n=None`): `x` reified in
    each state where all `goals` hold.

    `timeout` (seconds) stops a search that runs past it with `SearchTimeout`, whose
    `answers` are those found before; `occurs_check=True` makes every unification of the
    run check occurs (as `eq_oc`). kanren's `run`, on logicpy's search (see module).

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(2, x, membero(x, [1, 2, 3]))
    (1, 2)
    >>> run(-1, x, membero(x, [1]))
    Traceback (most recent call last):
    ...
    logicpy.errors.InputError: run: the number of answers must be None (lazy), 0 (all) or a positive integer, got -1
    """
    if n is not None and (type(n) is not int or n < 0):
        raise InputError("run: the number of answers must be None (lazy), 0 (all) or a positive integer, "
                         f"got {n!r}")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise InputError(f"run: timeout must be a positive number of seconds, got {timeout!r}")
    goal = conj(*goals)
    deadline = None if timeout is None else time.monotonic() + timeout
    states = solve(goal, Map(), deadline)
    if occurs_check:
        states = _with_occurs_check(states)
    results = (_reify_answer(x, s) for s in states)
    if results_filter is not None:
        results = results_filter(results)
    if n is None:
        return results
    found: list = []
    try:
        for answer in (results if n == 0 else islice(results, n)):
            found.append(answer)
    except SearchTimeout as exc:
        raise SearchTimeout(f"run: no more answers within {timeout} s ({len(found)} found); "
                            "exc.answers holds them", tuple(found)) from None
    return tuple(found)


def _with_occurs_check(states: Iterator[Any]) -> Iterator[Any]:
    """`states`, with the occurs check on while each is being searched for."""
    while True:
        with equality.occurs_check(True):
            S = next(states, None)
        if S is None:
            return
        yield S


def _reify_answer(x: Any, S: Any) -> Any:
    """`x` reified in `S`; a cyclic answer (possible without the occurs check) is an error."""
    s = getattr(S, "data", S)
    if type(S) is Map or type(S) is dict:
        try:
            return equality._reify_fast(x, s, 0)
        except equality._NotFast:
            pass
    equality.check_acyclic(x, S)
    return reify(x, S)
