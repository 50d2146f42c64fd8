"""The relations the search calls, and the one place that decides how a call of one runs.

A call of a relation is an `Apply` goal (`streams`): when the search reaches it, it asks
`rel.expand(S, K, args, search)` how to go on. Every relation with clauses is a `Procedure`,
whose `expand` is that decision, the same for all: the loop given for the clauses' shape
(`loops`), the compiled clauses indexed on the first argument (a call that selects one
clause going on in the deterministic loop), or, when the clauses cannot be compiled or the
state holds constraints, the clauses as written. A subclass says only what differs between
clause representations: `Relation`, an `@relation` function (what `relation` makes, its
body compiled at the first call by `clauses`), and `logicpy.prolog.Predicate`, consulted or
asserted Prolog clauses. `LoopCall`, `loop_answers` and `EachItsTask` are how a loop's
answers go on in the search.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, ParamSpec

from cons.core import ConsPair
from immutables import Map

from ..errors import InputError, shown
from . import equality, loops
from ._spine import CyclicList
from .clauses import _LIST_KEY, AGAIN, CompiledRelation, NotCompiled, compile_relation, index_key
from .streams import _SCHEDULED, PAUSE, Apply, Cut, CutBarrier, Scheduled, Search, SearchTimeout
from .terms import Suffix, Variable

__all__ = ["relation", "explain", "Procedure", "Relation", "LoopCall", "first_of", "self_call", "loop_answers", "LOOP_LATER"]

P = ParamSpec("P")

def relation(fn: Callable[P, Any]) -> Callable[P, Apply]:
    """Decorate a function that builds a goal: calling it returns a goal that builds the
    body only when the search reaches it (faster-miniKanren's `defrel`). Recursive
    relations need no `Zzz`, and their depth costs no Python stack. A function whose body
    only makes fresh variables and returns goals written out (`conde([...], [...])`) is
    compiled to clauses at its first call (see `logicpy.core.clauses`); any other runs as
    written at every call, with the same answers.

    >>> from logicpy.core import conde, cons, eq, run, var
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
    rel = Relation(fn, arity)

    @functools.wraps(fn)
    def relation_call(*args: P.args, **keywords: P.kwargs) -> Apply:
        if keywords:  # named arguments put in their places
            try:
                args = inspect.signature(fn).bind(*args, **keywords).args  # type: ignore[assignment]
            except TypeError as exc:
                raise InputError(f"relation {fn.__name__}: {exc}") from None
        if arity is not None and len(args) != arity:
            raise InputError(f"relation {fn.__name__} takes {arity} arguments, got {len(args)}")
        return Apply(rel, args) if rel.runs is None else LoopCall(rel, args)

    relation_call.relation = rel  # type: ignore[attr-defined]
    rel.function = relation_call
    return relation_call


def explain(rel: Any) -> str:
    """How a call of `rel` runs, in one line (`Procedure.explain`): `rel` is an `@relation`
    function, a consulted Prolog predicate's relation (`program.name`) or a `Procedure`.

    >>> from logicpy.core import appendo, membero
    >>> explain(appendo)
    "appendo/3: runs as appendo/3's loop; compiled to 2 clauses, indexed on argument 1, deterministic loop"
    >>> explain(membero)
    "membero/2: runs as membero/2's loop; compiled to 2 clauses"
    >>> explain(len)
    Traceback (most recent call last):
    ...
    logicpy.errors.InputError: explain: <built-in function len> is not a relation with clauses (an @relation function or a consulted predicate)
    """
    for candidate in (rel, getattr(rel, "relation", None), getattr(rel, "__self__", None),
                      getattr(getattr(rel, "__wrapped__", None), "__self__", None)):  # a tabled predicate's
        if isinstance(candidate, Procedure):
            return candidate.explain()
    raise InputError(f"explain: {shown(rel)} is not a relation with clauses (an @relation function or a "
                     "consulted predicate)")


_NOT_YET = object()
_FREE = equality._UNBOUND

#: What `Procedure.deterministic_loop` gives for a loop to be made when it is first useful.
LOOP_LATER = object()


class Procedure:
    """A relation with clauses, and the one place that decides how a call of it runs:
    `expand(S, K, args, search)`, what the search asks of an `Apply` of it. A call runs

    - as the loop given for its clauses' shape (`loop_runs`; `loops`) where
      `loops.run_here` allows, in the modes the loop covers;
    - as written (`as_written`) in a state with constraints or the occurs check (each store
      sees every unification), and when its clauses are not compiled (`clauses_for`: None);
    - else as its compiled clauses whose heads may match the call (`clauses_for`, the
      index): with other than one, the first whose head unifies goes on
      and the others are left to the search as alternatives (`run_alternatives`); with one,
      the deterministic loop goes on from the call if it runs that clause (`enters`), else
      the clause runs (`run_clause`) and, when all it leaves is a call of the procedure
      itself, the loop goes round from there (`self_call`); a call the loop hands back
      (`AGAIN`) goes on as `again(args)`.

    What differs between the clause representations is the methods a subclass gives:
    `Relation` (an `@relation` function's body, compiled as a whole at the first call) and
    `logicpy.prolog.Predicate` (consulted or asserted clauses, each compiled by `clauses`
    at its first call and given the call's cut barrier)."""

    __slots__ = ()
    name: str
    arity: int | None
    #: `clauses_for(args, S)`: the clauses whose heads may match `args` in the substitution S
    #: (a `Map`), in order; None when the clauses are not compiled (the call runs as written).
    #: A method, or an attribute holding such a function (one call less).
    clauses_for: Callable[[tuple, Any], Sequence | None]

    def expand(self, S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any] | None:
        """How the search goes on from a call on `args` in state S with continuation K: the
        (state, continuation) of the first way that goes on, the others left to `search`;
        None if none does."""
        runs = self.loop_runs()
        if runs is not None and loops.run_here(S, search):  # clauses given a loop: the loop's goal
            g = runs.goal(S, args)
            if g is not None:
                try:
                    return loop_answers(g, S, K, search)
                except CyclicList:  # a cyclic list, which the clauses go round
                    pass
        candidates = self.clauses_for(args, S) if S.__class__ is Map else None
        if candidates is None:
            return self.as_written(S, K, args, search)
        if len(candidates) != 1:
            return self.run_alternatives(S, K, args, search, candidates)
        loop = self.deterministic_loop()
        went_on = None
        if loop is not None and loop is not LOOP_LATER and self.enters(candidates[0]):
            # a clause the loop runs: the loop goes on from the call itself
            went_on = loop(S.mutate(), K, *args)
            if went_on is None:
                return None
            if went_on[1] is AGAIN and len(went_on[0]) == len(S) and all(a is b for a, b in zip(went_on[2], args)):
                went_on = None  # handed back with nothing done: the clause runs as below
        if went_on is None:
            went_on = self.run_clause(candidates[0], S, K, args, search)
            if went_on is None or loop is None:
                return went_on
            again = self_call(went_on, K, self)
            if again is None:
                return went_on
            if loop is LOOP_LATER:
                loop = self.make_loop()
                if loop is None:
                    return went_on
            went_on = loop(went_on[0].mutate(), K, *again)
            if went_on is None:
                return None
        m, K_on, tail = went_on
        return m.finish(), ((self.again(tail), K) if K_on is AGAIN else K_on)

    def explain(self) -> str:
        """How a call of it runs, in one line: the loop its clauses run as (and the modes it
        leaves to them), then how its clauses run (`describe_clauses`)."""
        ways = []
        runs = self.loop_runs()
        if runs is not None:
            way = f"runs as {runs.name}/{len(runs.order)}'s loop"
            if not runs.as_called:
                way += f" (arguments {','.join(str(i + 1) for i in runs.order)})"
            if not loops.ENABLED:
                way += " when loops are enabled (they are switched off: its clauses run)"
            elif runs.leaves_modes:
                way += ", its clauses in the modes the loop leaves to them"
            ways.append(way)
        ways.append(self.describe_clauses())
        called = self.name if self.arity is None else f"{self.name}/{self.arity}"
        return f"{called}: {'; '.join(ways)}"

    # ---- what a clause representation says

    def describe_clauses(self) -> str:
        """How its clauses run, for `explain`."""
        raise NotImplementedError

    def loop_runs(self) -> Any:
        """The loop its clauses run as (`loops.Runs`), or None."""
        raise NotImplementedError

    def as_written(self, S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any] | None:
        """How a call goes on with its clauses run as written (their heads `eq` goals)."""
        raise NotImplementedError

    def run_clause(self, clause: Any, S: Any, K: Any, args: tuple, search: Search) -> Any:
        """(state, continuation) of `clause` compiled, run on `args`, or None if its head
        does not unify."""
        raise NotImplementedError

    def run_alternatives(self, S: Any, K: Any, args: tuple, search: Search, clauses: Sequence) -> tuple[Any, Any] | None:
        """`first_of` the compiled `clauses` run on `args`."""
        raise NotImplementedError

    def deterministic_loop(self) -> Any:
        """The deterministic loop (`clauses.compile_loop`), None (none), or `LOOP_LATER`
        (made by `make_loop` when first useful)."""
        raise NotImplementedError

    def enters(self, clause: Any) -> bool:
        """Whether a call whose first argument selects `clause` enters the deterministic
        loop at once."""
        raise NotImplementedError

    def make_loop(self) -> Any:
        """The deterministic loop, made now, or None."""
        raise NotImplementedError

    def again(self, args: tuple) -> Any:
        """The goal a call on `args` the deterministic loop handed back goes on as."""
        raise NotImplementedError


class Relation(Procedure):
    """An `@relation` function (`fn`; `function`, what the decorator returned) as a
    procedure: once the search first reaches a call of it, its clauses compiled (None: it
    runs as written; `why` says why), and the loop they run as (`runs`; `loops`)."""

    __slots__ = ("fn", "name", "arity", "compiled", "why", "function", "runs", "_clauses")

    def __init__(self, fn: Callable[..., Any], arity: int | None = None):
        self.fn, self.arity = fn, arity
        self.runs: Any = None  # the loop its clauses run as (`loops.Runs`), once known
        self.function: Callable[..., Any] | None = None  # what `@relation` returned
        self.name = getattr(fn, "__name__", "relation")
        self.compiled: Any = _NOT_YET
        self.why = ""
        self._clauses: Any = _NOT_YET  # the compiled clauses a call runs when not the loop's

    def compile(self) -> Any:
        """The compiled clauses (made now if not yet), or None. A relation given a loop
        (`loops.give`) has its loop at once and its clauses compiled when first needed."""
        if self.compiled is _NOT_YET:
            if self.runs is not None:  # given a loop (`loops.give`): its clauses wait
                self.compiled = CompiledRelation([], [], "", runs=self.runs)
            else:
                try:
                    self.compiled = compile_relation(self.fn, self.name)
                    terms = self.compiled.terms  # a relation with the clauses of one given a loop runs as it
                    self.runs = self.compiled.runs = None if terms is None else \
                        loops.runs_as(terms, self.compiled.still_self)
                except NotCompiled as exc:
                    self.compiled, self.why = None, str(exc)
        return self.compiled

    def describe_clauses(self) -> str:
        compiled = self._clause_set()
        if compiled is None:
            return f"runs as written: {self.why or 'its clauses are not compiled'}"
        n = len(compiled.clauses)
        parts = [f"compiled to {n} clause{'' if n == 1 else 's'}"]
        if compiled.index is not None:
            parts.append("indexed on argument 1")
        if compiled.loop is not None:
            parts.append("deterministic loop")
        return ", ".join(parts)

    def loop_runs(self) -> Any:
        compiled = self.compiled
        if compiled is _NOT_YET:
            compiled = self.compile()
        return None if compiled is None else compiled.runs

    def _clause_set(self) -> Any:
        """The `CompiledRelation` whose clauses a call runs (not as a loop), or None: the
        compiled clauses, or for clauses given a loop those compiled when first needed."""
        made = self._clauses
        if made is _NOT_YET:
            compiled = self.compile()
            if compiled is None or compiled.runs is None:
                made = compiled
            elif compiled.clauses:
                made = compiled.without_loop()
            else:
                try:
                    made = compile_relation(self.fn, self.name).without_loop()
                except NotCompiled:
                    made = None
            self._clauses = made
        return made

    def clauses_for(self, args: tuple, S: Any) -> Sequence | None:
        compiled = self._clauses
        if compiled is _NOT_YET:
            compiled = self._clause_set()
        if compiled is None:
            return None
        index = compiled.index
        if index is None:
            return compiled.clauses
        # the clauses whose head can match the first argument's principal functor
        first = args[0]
        while first.__class__ is Variable:
            bound = S.get(first, _FREE)
            if bound is _FREE:
                break
            first = bound
        kind = first.__class__
        return index[_LIST_KEY if kind is ConsPair or kind is Suffix or kind is list and first
                     else first if kind is str or kind is int else index_key(first)]

    def as_written(self, S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any]:
        return S, (self.fn(*args), K)

    def run_clause(self, clause: Any, S: Any, K: Any, args: tuple, search: Search) -> Any:
        return clause(S, K, *args)

    def run_alternatives(self, S: Any, K: Any, args: tuple, search: Search, clauses: Sequence) -> tuple[Any, Any] | None:
        return first_of(S, K, args, search, clauses)

    def deterministic_loop(self) -> Any:
        return self._clauses.loop

    def enters(self, clause: Any) -> bool:
        return self._clauses.index is not None  # the first argument selected the clause

    def make_loop(self) -> Any:
        return None

    def again(self, args: tuple) -> Any:
        return Apply(self, args)


def self_call(went_on: tuple[Any, Any], K: Any, owner: Any) -> tuple | None:
    """The arguments of the call of `owner` when it is all that a deterministic step
    `went_on` (state, continuation) left to do before K: the relation's loop can go on from
    there. Else None."""
    K_on = went_on[1]
    if K_on is K:
        return None
    g, rest = K_on
    return g.args if rest is K and g.__class__ is Apply and g.rel is owner else None


def first_of(S: Any, K: Any, args: tuple, search: "Search", clauses: Sequence,
             barrier: CutBarrier | None = None) -> tuple[Any, Any] | None:
    """The first of `clauses` (compiled, see `logicpy.core.clauses`) whose head unifies with
    `args` in S, the others whose heads unify left to `search` as alternatives. With the
    `barrier` of the call (Prolog order): none once the first goes on with a cut of this
    call, which no later clause would survive (with none tried the cut has nothing to drop)."""
    first = None
    more: list | None = None
    for clause in clauses:
        went_on = clause(S, K, *args)
        if went_on is None:
            continue
        if first is None:
            first = went_on
            if barrier is not None and went_on[1] is not K:
                cut = went_on[1][0]
                if cut.__class__ is Cut and cut.barrier is barrier:
                    return went_on[0], went_on[1][1]
        elif more is None:
            more = [went_on]
        else:
            more.append(went_on)
    if more is not None:
        search.alternatives(more)
    return first


class LoopCall(Apply):
    """A call of a relation whose clauses run as a loop (`loops`; `rel.runs`), made once
    that is known (an `Apply` that `solve` schedules): the loop's goal is made at the first
    state that reaches it and kept, as a library goal is, so a goal built once and searched
    in many states builds it once. The clauses run (as an `Apply`) in a mode the loop leaves
    to them and where `loops.run_here` says no."""

    __slots__ = ("goal",)

    def __init__(self, rel: Any, args: tuple):
        self.rel, self.args, self.goal = rel, args, None

    def schedule(self, S: Any, K: Any, search: "Search") -> tuple[Iterable[Any], Any] | None:
        runs = self.rel.runs
        if loops.run_here(S, search) and (runs.clauses_when is None or not runs.leaves(S, self.args)):
            goal = self.goal
            if goal is None:
                goal = self.goal = runs.make(self.args)
            try:
                went_on = loop_answers(goal, S, K, search)
            except CyclicList:  # a cyclic list, which the clauses go round
                return (S,), (Apply(self.rel, self.args), K)
            return None if went_on is None else ((went_on[0],), went_on[1])
        return (S,), (Apply(self.rel, self.args), K)


_SCHEDULED.add(LoopCall)  # an `Apply` to everything else; `solve` schedules it as it does `Scheduled` goals


def loop_answers(goal: Any, S: Any, K: Any, search: "Search") -> tuple[Any, Any] | None:
    """How the search goes on from a loop's goal reached in state S (`expand`'s result): its
    answers, in Prolog's order one after another, in the interleaved order each in a task
    of its own (`EachItsTask`), one going on at once. `CyclicList` if the loop met a cyclic
    list (its clauses run then)."""
    states = goal(S)
    if type(states) is tuple and len(states) < 2:
        return (states[0], K) if states else None
    if search.order == "prolog":
        return S, (_Given(states), K)
    return S, (EachItsTask(iter(states)), K)


class _Given:
    """A goal whose answers are already known (`states`), whatever state reaches it."""

    __slots__ = ("states",)

    def __init__(self, states: Iterable[Any]):
        self.states = states

    def __call__(self, S: Any) -> Iterable[Any]:
        return self.states


class EachItsTask(Scheduled):
    """The answers of a loop's goal (`states`, which may hold `PAUSE`s) in the interleaved
    order, each going on in a task of its own, made when the one before it starts, as the
    clauses the loop stands for would make them: a goal after one answer that runs without
    end does not hold back the others."""

    __slots__ = ("states",)

    def __init__(self, states: Iterator[Any]):
        self.states = states

    def schedule(self, S: Any, K: Any, search: "Search") -> tuple[Iterable[Any], Any] | None:
        found = next(self.states, None)
        if found is None:
            return None
        search.alternatives([(S, (self, K))])  # the answers after it: a task of their own
        if found is PAUSE:  # a slice of the loop's work: its turn ends here, the clock is read
            if search.deadline is not None and time.monotonic() > search.deadline:
                raise SearchTimeout("the search ran past its time limit")
            return None
        return (found,), K
