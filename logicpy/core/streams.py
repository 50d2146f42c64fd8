"""logicpy's search: conjunction, disjunction, delayed relation calls and `run`, without
Python recursion and linear in the answers that flow through a conjunction.

A goal is any callable `state -> iterable of states` (every kanren goal and every logicpy
relation is one). These goal classes are not called but *interpreted* by `solve`:

- `Conj(g1, ..., gn)`: all of them, left to right (`lall`/`conj`);
- `Disj(g1, ..., gn)`: any of them, interleaved (`lany`/`disj`; `conde` is a `Disj` of
  `Conj`s);
- `Call(fn, args)`: the goal `fn(*args)`, built only when the search reaches it (`Zzz`);
- `Apply(rel, args)`: a call of a relation, which the search asks how to go on
  (`rel.expand(S, K, args, search)`): the relation decides (`procedures`), the search
  knows nothing of clauses, loops or how terms print.

`solve` keeps the search in explicit data: a *continuation* is a linked list
`(goal, rest)` of the goals still to prove, a *frame* is a leaf goal's answer iterator
with the continuation each of its answers goes on with, and a *task* is a stack of frames
(a depth-first search). A `Conj` pushes its goals onto the continuation and a `Call` is
expanded in place, so user recursion of any depth costs heap, never Python stack, and each
answer of a leaf passes to the next goal in O(1) (kanren's `bind` re-nests an `interleave`
per answer, which is quadratic). A `Disj` keeps its first branch in the running task and
queues one new task per other branch (a disjunction over an iterator queues the rest of it
as one task, pulling one goal per turn, so it may be endless).

In Prolog order (`order="prolog"`), a `Disj` instead pushes its other branches, in order,
as frames onto the running task's stack, below its first branch's work: alternatives are
tried depth first, left to right, as Prolog tries clauses, and a `Cut` truncates the stack
to the depth its `CutBarrier` recorded (discarding the choice points made since). That order
gives Prolog's answer order but is incomplete (a left recursion never returns); the
interleaving default is complete and fair.

Tasks take turns (miniKanren's interleaving; answer order across `conde` branches is
round-robin, as kanren's). A *step* is one `next` on a frame or one goal taken off a
continuation (a `Call` expanded, a `Conj` or `Disj` opened); a turn ends after `SLICE`
steps, at an answer, or when a leaf yields `PAUSE`, and the task keeps its place (a turn
that ends inside a continuation leaves the state and the goals still to prove as a frame).
So no branch starves the others, however it recurses, provided each leaf goal returns or
yields `PAUSE` at a bounded interval (the library's leaves do). The clock is read at the
end of every turn and before every answer: a time limit holds within a turn's work.

A `Scheduled` goal (a tabled call, `onceo`/`conda`/`condu`) is handed the state, its
continuation and the `Search`, and decides itself how the search goes on; a condition it
searches apart runs `stepped` by the caller's search (its own tasks, a `PAUSE` per turn
given back, the caller's deadline). Calling an interpreted goal as a function runs its own
`solve` (with the deadline of the search running at the time, never yielding `PAUSE`), so
these goals still work inside any combinator that calls goals.

`run` starts from an empty `immutables.Map` (a persistent substitution, see `equality`), or
with `occurs_check=True` from an empty `equality.State` that checks occurs.
"""

from __future__ import annotations

import functools
import inspect
import threading
from operator import length_hint
import time
from collections import deque
from collections.abc import Iterable, Iterator
from fractions import Fraction
from itertools import islice
from typing import Any, Callable, Generator, ParamSpec, overload

from cons.core import ConsPair
from immutables import Map
from kanren.core import fail, succeed
from unification import Var

from ..errors import InputError, LogicpyError, shown
from . import equality
from .collector import QuietCollector as _QuietCollector, quiet_collector as _quiet_collector
from .equality import State, unify_subst, reify, unify
from .terms import String, Variable, check_term

__all__ = [
    "Conj", "Disj", "Call", "Apply", "solve", "run", "conj", "disj", "lall", "lany", "conde", "eq", "eq_oc",
    "Zzz", "SearchTimeout", "SLICE", "Scheduled", "Search", "PAUSE", "stepped", "query_states",
    "take_answers", "answers_within", "ORDERS", "Cut", "CutBarrier",
]

P = ParamSpec("P")

#: The search orders: miniKanren's fair interleaving, Prolog's depth-first clause order.
ORDERS = ("interleaved", "prolog")

#: Steps a task takes before the next task gets its turn (a step: one `next` on a leaf
#: goal's answers, or one goal taken off a continuation: a `Call` expanded, a `Conj` or
#: `Disj` opened).
SLICE = 64


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

    def __call__(self, S: Any) -> Iterable[Any]:
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

    def __call__(self, S: Any) -> Iterable[Any]:
        answers = self.goal(S)
        return answers if type(answers) is tuple else _without_pauses(answers)

    def __repr__(self) -> str:
        return goal_text(self.name, self.args)


def _without_pauses(states: Iterable[Any]) -> Iterator[Any]:
    """`states` without the `PAUSE`s, for a caller that is not the search."""
    for S in states:
        if S is not PAUSE:
            yield S


def named(fn: Callable[P, Any]) -> Callable[P, Named]:
    """Decorate a function that builds a goal so the goal shows the call that made it."""

    signature = inspect.signature(fn)
    params = signature.parameters.values()
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    arity = len(params) if plain else -1

    @functools.wraps(fn)
    def build(*args: P.args, **options: P.kwargs) -> Named:
        if options or len(args) != arity:  # the common call is checked by its length alone
            try:
                signature.bind(*args, **options)
            except TypeError as exc:
                raise InputError(f"{fn.__name__}({', '.join(signature.parameters)}): {exc}") from None
        return Named(fn(*args, **options), fn.__name__, args)

    return build


#: How `goal_text` writes a call as a term: `answers.show`, which `answers` (a module above
#: the search) registers with `show_goals_with` when it is imported.
_goal_printer: Callable[[Any], str] | None = None


def show_goals_with(printer: Callable[[Any], str]) -> None:
    """Have `goal_text` write a call `(name, *args)` with `printer` (`LogicpyError` for a
    value that is no term)."""
    global _goal_printer
    _goal_printer = printer


def goal_text(name: str, args: tuple) -> str:
    """`name(args)` in Prolog syntax, unbound variables `_0, _1, …` (a value that is no term
    is shown by its Python repr)."""
    if _goal_printer is not None:
        try:
            return _goal_printer((name, *args)) if args else name
        except LogicpyError:
            pass
    return f"{name}({', '.join(map(repr, args))})" if args else name


def _goal_name(g: Any) -> str:
    return repr(g) if isinstance(g, _Interpreted) else getattr(g, "__name__", repr(g))


def _check_goal(g: Any, where: str) -> Any:
    if not callable(g):
        raise InputError(f"{where}: {shown(g)} is not a goal (a goal is a function from a state to states, "
                         "such as eq(x, 1) or membero(x, xs))")
    return g


def _combined(goals: tuple, kind: type[_Goals], empty: Any) -> Any:
    """`goals` (or the one iterable of goals given) combined as `kind`: `empty` for none, the
    goal itself for one; each is checked to be a goal, errors naming `kind.functor`. An
    iterator (a generator, say) is taken lazily, one goal when the search reaches it, so it
    may be endless."""
    if len(goals) == 1 and not callable(goals[0]) and isinstance(goals[0], Iterable):
        if isinstance(goals[0], Iterator):
            return _Lazy(_Pulled(goals[0], lambda g, i: _check_goal(g, f"{kind.functor} goal {i}")), 0, kind)
        goals = tuple(goals[0])
    for g in goals:
        _check_goal(g, kind.functor)
    if not goals:
        return empty
    return goals[0] if len(goals) == 1 else kind(goals)


def conj(*goals: Any) -> Any:
    """All of `goals`, left to right (logical and; kanren's `lall`). No goals: `succeed`.
    One iterator of goals is taken lazily, as `disj` takes it.

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(0, x, conj(membero(x, [1, 2, 3]), membero(x, [3, 2])))
    (2, 3)
    """
    return _combined(goals, Conj, succeed)


def disj(*goals: Any) -> Any:
    """Any of `goals`, answers interleaved (logical or; kanren's `lany`). No goals: `fail`.
    One iterator of goals (a generator, say) is taken lazily, each goal when the search
    reaches it, so it may be endless; the goals pulled are kept for the goal's next use.

    >>> from itertools import count
    >>> from logicpy.core import var
    >>> x = var()
    >>> run(0, x, disj(eq(x, 1), eq(x, 2)))
    (1, 2)
    >>> run(3, x, disj(eq(x, i) for i in count()))
    (0, 1, 2)
    """
    return _combined(goals, Disj, fail)


lall = conj
lany = disj


def conde(*clauses: Iterable[Any]) -> Any:
    """Any of the clauses, each a list of goals that must all hold (miniKanren's conde).
    One iterator of clauses is taken lazily, as `disj` takes it (kanren's form).

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(0, x, conde([membero(x, [1, 2])], [membero(x, [3, 4])]))
    (1, 3, 2, 4)
    >>> conde(eq(x, 1), eq(x, 2))
    Traceback (most recent call last):
    ...
    logicpy.errors.InputError: conde: clause 1 is a goal, not a list of goals; write conde([goal, ...], [goal, ...])
    """
    if len(clauses) == 1 and isinstance(clauses[0], Iterator):
        return _Lazy(_Pulled(clauses[0], _clause), 0, Disj)
    branches = [_clause(clause, i) for i, clause in enumerate(clauses, start=1)]
    if not branches:
        return fail
    return branches[0] if len(branches) == 1 else Disj(tuple(branches))


def _clause(clause: Any, i: int) -> Any:
    """The goal of conde's clause number `i`: all its goals."""
    kind = type(clause)
    if kind is not list and kind is not tuple:  # the usual clause needs no ABC look-up
        if callable(clause) or not isinstance(clause, Iterable) or isinstance(clause, (str, bytes)):
            what = "a goal" if callable(clause) else repr(clause)
            raise InputError(f"conde: clause {i} is {what}, not a list of goals; "
                             "write conde([goal, ...], [goal, ...])")
        clause = tuple(clause)
    for g in clause:
        if not callable(g):
            _check_goal(g, f"conde clause {i}")
    n = len(clause)
    return clause[0] if n == 1 else Conj(tuple(clause)) if n else succeed


_END = object()


class _Pulled:
    """The goals of an iterator, each pulled (and made a goal by `make(item, number)`) when
    first needed and kept, so the goal holding them can run again."""

    __slots__ = ("source", "goals", "make")

    def __init__(self, source: Iterator[Any], make: Callable[[Any, int], Any]):
        self.source: Iterator[Any] | None = source
        self.goals: list = []
        self.make = make

    def get(self, i: int) -> Any:
        """The `i`-th goal (from 0), or None past the end."""
        goals = self.goals
        while len(goals) <= i:
            if self.source is None:
                return None
            item = next(self.source, _END)
            if item is _END:
                self.source = None
                return None
            goals.append(self.make(item, len(goals) + 1))
        return goals[i]


#: Types accepted without a closer look: atoms, numbers, variables, lists, partial lists, tuples.
_SHALLOW_OK = frozenset({str, int, bool, Variable, Var, list, ConsPair, String, Fraction, tuple})


def check_goal_term(value: Any, where: str) -> None:
    """Refuse a value that is not a logicpy term (None, dicts, sets, other objects), naming
    `where` ("eq: left"), looking at the value and at a tuple's elements: O(1) per goal as
    written (a list's elements are not walked, so recursion over a long list never pays for
    it again). Tuples are not held to the compound-term form here: kanren code uses them as pairs."""
    kind = type(value)
    if kind is str or kind is int or kind is Variable or kind is list:
        return
    if kind is tuple:
        for i, item in enumerate(value):
            if type(item) not in _SHALLOW_OK:
                check_term(item, f"{where}[{i}]")
        return
    if kind not in _SHALLOW_OK:
        check_term(value, where)


class Eq:
    """The goal u = v, a leaf of the search (one unification), shown as `eq(u,v)`; as an
    object rather than a `Named` closure, the commonest goal costs no extra search step."""

    __slots__ = ("u", "v")

    def __init__(self, u: Any, v: Any):
        self.u, self.v = u, v

    def __call__(self, S: Any) -> Any:
        S = unify_subst(self.u, self.v, S) if S.__class__ is Map else unify(self.u, self.v, S)
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
    check_goal_term(u, "eq: left")
    check_goal_term(v, "eq: right")
    return Eq(u, v)


def eq_oc(u: Any, v: Any) -> Any:
    """eq_oc(?u, ?v): unification with the occurs check (Prolog's unify_with_occurs_check/2):
    fails instead of binding a variable to a term that contains it.

    >>> from logicpy.core import var
    >>> x = var()
    >>> run(0, x, eq_oc(x, ("f", x))), run(0, x, eq_oc(x, ("f", 1)))
    ((), (('f', 1),))
    """
    check_goal_term(u, "eq: left")
    check_goal_term(v, "eq: right")

    def eq_oc_goal(S):
        S = unify(u, v, S, occurs_check=True)
        return () if S is False else (S,)

    return eq_oc_goal


class Apply(_Interpreted):
    """A call of relation `rel` on `args`: when the search reaches it, it asks
    `rel.expand(S, K, args, search)` how to go on (a `procedures.Procedure`: anything with
    that method and a `name`)."""

    __slots__ = ("rel", "args")

    def __init__(self, rel: Any, args: tuple):
        self.rel, self.args = rel, args

    def __repr__(self) -> str:
        return goal_text(self.rel.name, self.args)


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
    each with continuation K2 (K, or K with goals pushed in front). `states` may yield
    `PAUSE` (see `stepped`)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _SCHEDULED.add(cls)

    def schedule(self, S: Any, K: Any, search: "Search") -> tuple[Iterable[Any], Any] | None:
        raise NotImplementedError


class _Lazy(Scheduled):
    """The goals of an iterator from the `index`-th on, combined as `kind` (`Conj` or
    `Disj`), each pulled when the search reaches it: a disjunction runs the goal and queues
    the rest as a task, a conjunction runs the goal then the rest."""

    __slots__ = ("pulled", "index", "kind")

    def __init__(self, pulled: _Pulled, index: int, kind: type[_Goals]):
        self.pulled, self.index, self.kind = pulled, index, kind

    def schedule(self, S: Any, K: Any, search: "Search") -> tuple[Iterable[Any], Any] | None:
        g = self.pulled.get(self.index)
        if g is None:
            return ((S,), K) if self.kind is Conj else None
        rest = _Lazy(self.pulled, self.index + 1, self.kind)
        if self.kind is Conj:
            return (S,), (g, (rest, K))
        search.alternative((S,), (rest, K))
        return (S,), (g, K)

    def __repr__(self) -> str:
        pulled = self.pulled.goals[self.index:]
        return f"{self.kind.functor}({', '.join([*map(_goal_name, pulled), '...'])})"


class Search:
    """One run of `solve`: its queue of tasks, its deadline, the search stepping it
    (`parent`, see `stepped`; else None), its `order` (see `ORDERS`), the running task's
    `stack`, and what `Scheduled` goals keep per run.

    `on_finish` and `on_abandon` hold callables run when the search has explored
    everything, or is dropped before that (a `run(n)` that has its n answers, an error).
    """

    __slots__ = ("tasks", "deadline", "parent", "on_finish", "on_abandon", "order", "stack")

    def __init__(self, deadline: float | None = None, parent: "Search | None" = None,
                 order: str = "interleaved") -> None:
        self.tasks: deque = deque()
        self.deadline = deadline
        self.parent = parent
        self.order = order
        self.stack: list = []
        self.on_finish: list[Callable[[], None]] = []
        self.on_abandon: list[Callable[[], None]] = []

    def spawn(self, states: Iterable[Any], K: Any) -> None:
        """Queue a task that goes on with continuation K from each of `states`."""
        self.tasks.append([(iter(states), K)])

    def alternatives(self, went_on: list[tuple[Any, Any]]) -> None:
        """Choice points, in order: for each (state, continuation), `alternative`."""
        if self.order == "prolog":
            for S, K in reversed(went_on):
                self.stack.append((iter((S,)), K))
        else:
            for S, K in went_on:
                self.tasks.append([(iter((S,)), K)])

    def alternative(self, states: Iterable[Any], K: Any) -> None:
        """A choice point: continuation K from each of `states`, tried after the running
        branch in Prolog order (a frame under it), else as a task of its own."""
        if self.order == "prolog":
            self.stack.append((iter(states), K))
        else:
            self.spawn(states, K)


class CutBarrier:
    """Where a cut cuts to: the running task's `stack` and its depth when a predicate call
    started."""

    __slots__ = ("stack", "depth")

    def __init__(self, stack: list):
        self.stack, self.depth = stack, len(stack)


class Cut(Scheduled):
    """Prolog's `!`: succeeds once and drops the choice points made since `barrier`; with
    none, or one of another stack (a search run apart, as findall's), since the search began,
    so it is local to that search. Prolog order only."""

    __slots__ = ("barrier",)

    def __init__(self, barrier: CutBarrier | None = None):
        self.barrier = barrier

    def schedule(self, S: Any, K: Any, search: Search) -> tuple[Iterable[Any], Any]:
        if search.order != "prolog":
            raise InputError("cut (!) needs Prolog's search order (order=\"prolog\"; in the toplevel "
                             "set_prolog_flag(search_order, prolog)); the interleaved order has no choice points to cut")
        barrier, stack = self.barrier, search.stack
        del stack[barrier.depth if barrier is not None and barrier.stack is stack else 0:]
        return (S,), K

    def __repr__(self) -> str:
        return "!"


class _Running(threading.local):
    """The search with a deadline whose steps this thread is running (None between steps
    of any such search): where a search started inside one of its steps finds its deadline."""

    search: Search | None = None


_running = _Running()


def solve(goal: Any, S: Any, deadline: float | None = None, pauses: bool = False,
          order: str | None = None) -> Iterator[Any]:
    """The answer states of `goal` from state `S`, searched as the module describes.

    With `deadline` (a `time.monotonic()` value), raises `SearchTimeout` once it passes.
    Called while another search runs a step (a goal calling a goal as a function), it
    keeps that search's deadline when it has none of its own. With `pauses`, it yields
    `PAUSE` at the end of every turn, so a caller stepping it from inside another search
    gets control back at a bounded interval; without, never. `order` is "interleaved" or
    "prolog" (see the module); None: the order of the search running, else interleaved.
    """
    running = _running.search
    if deadline is None and running is not None:
        deadline = running.deadline
    if order is None:
        order = running.order if running is not None else "interleaved"
    elif order not in ORDERS:
        raise InputError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    return _search(Search(deadline, order=order), goal, S, pausing=pauses)


def stepped(goal: Any, S: Any, outer: Search) -> Generator[Any, None, None]:
    """The answer states of `goal` from `S`, searched apart from `outer` (its own tasks)
    but stepped by it: `PAUSE` after each `SLICE` steps without an answer, so an endless
    `goal` costs the outer search one turn at a time, never a hang; `outer`'s deadline
    holds. What `Scheduled` goals return to search a condition (`onceo`, `conda`, ...)."""
    return _search(Search(outer.deadline, outer, outer.order), goal, S, pausing=True)


def _search(search: Search, goal: Any, S: Any, pausing: bool) -> Generator[Any, None, None]:
    """The answer states of `goal` from S, searched by `search` (see `_explore`)."""
    search.tasks.append([(iter((S,)), (goal, None))])
    return _explore(search, pausing)


def _explore(search: Search, pausing: bool) -> Generator[Any, None, None]:
    """The loop of `solve`: run the tasks of `search` in turns until none is left, then run
    its `on_finish` hooks (its `on_abandon` hooks when it is closed or fails before).

    A step is one `next` on a frame's iterator or one goal taken off a continuation; a
    task's turn ends after `SLICE` steps, at a `PAUSE`, or at an answer (when other tasks
    wait). The clock is read at the end of every full turn, once per `SLICE` steps of
    shorter turns, and before every answer. With `pausing`, the end of a turn yields
    `PAUSE` (the caller is a search stepping this one), and short turns share one count of
    `SLICE` steps between two pauses. A leaf goal that returns a tuple of
    at most one state (as `eq` does) is deterministic: the task goes straight on with that
    state, leaving no frame behind.
    """
    tasks = search.tasks
    deadline = search.deadline
    timed = deadline is not None
    prolog = search.order == "prolog"
    tracked = timed or prolog  # a search with a deadline or an order to pass on is `_running`
    outer = _running.search
    if tracked:
        _running.search = search
    clock = SLICE  # steps of short turns left before the clock is read
    steps = SLICE
    quiet = False  # whether this search holds the collector quiet (`_QuietCollector`)
    turns = 0  # full turns since the last answer
    finished = False
    try:
        while tasks:
            stack = search.stack = tasks.popleft()
            if not pausing or steps <= 0:  # a stepped search pauses every SLICE steps, across its tasks
                steps = SLICE
            while stack:
                if steps <= 0:  # the turn is over
                    if timed and time.monotonic() > deadline:  # type: ignore[operator]
                        raise SearchTimeout("the search ran past its time limit")
                    turns += 1
                    if turns == _QuietCollector.AFTER_TURNS:
                        _quiet_collector.enter()
                        quiet = True
                    if pausing:
                        tasks.append(stack)
                        if tracked:
                            _running.search = outer
                        if quiet:
                            _quiet_collector.leave()
                            quiet, turns = False, 0
                        yield PAUSE
                        if tracked:
                            _running.search = search
                        break
                    if tasks:
                        tasks.append(stack)
                        break
                    steps = SLICE
                steps -= 1
                frame = stack[-1]
                S = next(frame[0], None)
                if S is None:
                    stack.pop()
                    continue
                if S is PAUSE:
                    steps = 0
                    continue
                K = frame[1]
                if not length_hint(frame[0], 1):  # its last state: no choice point is left behind
                    stack.pop()
                while K is not None:
                    if steps <= 0:  # keep the place: this state, the goals still to prove
                        stack.append((iter((S,)), K))
                        break
                    steps -= 1
                    g, K = K
                    kind = type(g)
                    if kind is Apply:
                        went_on = g.rel.expand(S, K, g.args, search)
                        if went_on is None:
                            break
                        S, K = went_on
                    elif kind is Conj:
                        for sub in reversed(g.goals):
                            K = (sub, K)
                    elif kind is Named:
                        K = (g.goal, K)
                    elif kind is Call:
                        K = (g.fn(*g.args), K)
                    elif kind is Disj:
                        first, *others = g.goals
                        if prolog:
                            for other in reversed(others):
                                stack.append((iter((S,)), (other, K)))
                        else:
                            for other in others:
                                tasks.append([(iter((S,)), (other, K))])
                        K = (first, K)
                    elif g is succeed:
                        pass
                    else:
                        if kind in _SCHEDULED:
                            went_on = g.schedule(S, K, search)
                            if went_on is None:
                                break
                            states, K = went_on
                        else:
                            states = g(S)
                        if type(states) is tuple and len(states) < 2:
                            if not states:
                                break
                            S = states[0]
                        else:
                            stack.append((iter(states), K))
                            break
                else:
                    if timed and time.monotonic() > deadline:  # type: ignore[operator]
                        raise SearchTimeout("the search ran past its time limit")
                    if tracked:
                        _running.search = outer
                    if quiet:
                        _quiet_collector.leave()
                        quiet = False
                    turns = 0
                    yield S
                    if tracked:
                        _running.search = search
                    if tasks:  # let the other tasks have their turn
                        tasks.append(stack)
                        break
            if timed:  # a turn that ended early counts its steps towards the next look at the clock
                clock -= SLICE - steps
                if clock <= 0:
                    clock = SLICE
                    if time.monotonic() > deadline:  # type: ignore[operator]
                        raise SearchTimeout("the search ran past its time limit")
        finished = True
    finally:
        if tracked and _running.search is search:  # stopped by an error, not closed while suspended
            _running.search = outer
        if quiet:  # stopped by an error, not closed while suspended at an answer
            # drop the search's states first: the collection the restored thresholds may start
            # would otherwise walk all of them (0.5 s after a 2 s search that timed out)
            if not finished:
                tasks.clear()
                search.stack = []
            stack = frame = S = K = states = went_on = g = None
            _quiet_collector.leave()
        for hook in (search.on_finish if finished else search.on_abandon):
            hook()




@overload
def run(n: None, x: Any, *goals: Any, timeout: float | None = None, occurs_check: bool = False,
        results_filter: Callable[[Iterator[Any]], Any] | None = None, order: str = "interleaved") -> Iterator[Any]: ...


@overload
def run(n: int, x: Any, *goals: Any, timeout: float | None = None, occurs_check: bool = False,
        results_filter: Callable[[Iterator[Any]], Any] | None = None, order: str = "interleaved") -> tuple[Any, ...]: ...


def run(n: int | None, x: Any, *goals: Any, timeout: float | None = None, occurs_check: bool = False,
        results_filter: Callable[[Iterator[Any]], Any] | None = None,
        order: str = "interleaved") -> tuple[Any, ...] | Iterator[Any]:
    """The first `n` answers (all for `n=0`, a lazy iterator for `n=None`): `x` reified in
    each state where all `goals` hold.

    `timeout` (seconds) stops a search that runs past it with `SearchTimeout`, whose
    `answers` are those found before; `occurs_check=True` makes every unification of the
    run check occurs (as `eq_oc`); `order="prolog"` searches depth first in clause order
    (Prolog's answer order, needed by cut; a left recursion never ends) instead of the
    complete, fair interleaving. kanren's `run`, on logicpy's search (see module).

    >>> from logicpy.core import var, membero
    >>> x = var()
    >>> run(2, x, membero(x, [1, 2, 3]))
    (1, 2)
    >>> run(0, x, conde([membero(x, [1, 2])], [membero(x, [3, 4])]), order="prolog")
    (1, 2, 3, 4)
    >>> run(-1, x, membero(x, [1]))
    Traceback (most recent call last):
    ...
    logicpy.errors.InputError: run: the number of answers must be None (lazy), 0 (all) or a positive integer, got -1
    """
    states = query_states("run", n, goals, timeout, occurs_check, order)
    results: Iterator[Any] = map(_answer_reifier(x), states)
    if results_filter is not None:
        results = results_filter(results)
    return take_answers("run", n, results, timeout)


def query_states(who: str, n: int | None, goals: tuple, timeout: float | None,
                 occurs_check: bool = False, order: str = "interleaved") -> Iterator[Any]:
    """The answer states of a query's `goals` (a search from the empty state, one that checks
    occurs if asked), after checking the `n` and `timeout` given to `who` (`run`, `answers`,
    ...) as `run` takes them."""
    if n is not None and (type(n) is not int or n < 0):
        raise InputError(f"{who}: the number of answers must be None (lazy), 0 (all) or a positive integer, "
                         f"got {n!r}")
    if timeout is not None and (type(timeout) is bool or not (isinstance(timeout, (int, float)) and timeout > 0)):
        raise InputError(f"{who}: timeout must be a positive number of seconds, got {timeout!r}")
    if order not in ORDERS:
        raise InputError(f"{who}: order must be one of {', '.join(ORDERS)}, got {order!r}")
    deadline = None if timeout is None else time.monotonic() + timeout
    return solve(conj(*goals), State(occurs_check=True) if occurs_check else Map(), deadline, order=order)


def take_answers(who: str, n: int | None, results: Iterator[Any], timeout: float | None) -> Any:
    """The first `n` of `results` as a tuple (all for 0), or `results` itself for None; a
    `SearchTimeout` names `who` and carries the answers found before it."""
    if n is None:
        return results
    if timeout is None:  # no answers to keep for the error (an outer search's deadline may still pass)
        try:
            return tuple(results if not n else islice(results, n))
        except SearchTimeout:
            raise SearchTimeout(_no_more(who, timeout, 0)) from None
    return tuple(answers_within(who, n, results, timeout))


def answers_within(who: str, n: int | None, results: Iterator[Any], timeout: float | None) -> Iterator[Any]:
    """The first `n` of `results` (all for None or 0), lazily; a `SearchTimeout` names `who`
    and carries the answers given before it (kept only when there is a `timeout`)."""
    found: list = []
    try:
        for answer in (results if not n else islice(results, n)):
            if timeout is not None:
                found.append(answer)
            yield answer
    except SearchTimeout:
        raise SearchTimeout(_no_more(who, timeout, len(found)), tuple(found)) from None


def _no_more(who: str, timeout: float | None, found: int) -> str:
    return f"{who}: no more answers within {timeout} s ({found} found); exc.answers holds them"


def _answer_reifier(x: Any) -> Callable[[Any], Any]:
    """`_reify_answer` for `x`, with the commonest case (plain bindings) first."""
    fast: Callable[[Any, Any, int], Any] = equality._reify_fast
    not_fast = equality._NotFast

    def reified(S: Any) -> Any:
        if S.__class__ is Map:
            try:
                return fast(x, S, 0)
            except not_fast:
                pass
        return _reify_answer(x, S)

    return reified


def _reify_answer(x: Any, S: Any) -> Any:
    """`x` reified in `S`; a cyclic answer (possible without the occurs check) is an error."""
    s = getattr(S, "data", S)
    if type(S) is Map or type(S) is State or type(S) is dict:  # (an FDState shows domains)
        try:
            return equality._reify_fast(x, s, 0)
        except equality._NotFast:
            pass
    equality.check_acyclic(x, S)
    return reify(x, S)
