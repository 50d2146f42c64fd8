"""The relations the search calls, and the one place that decides how a call of one runs.

A call of a relation is an `Apply` goal (`streams`): when the search reaches it, it asks
`rel.expand(S, K, args, search)` how to go on. `relation` makes the relation of an
`@relation` function (`Relation`): at the first call the search reaches, its clauses are
compiled (`clauses`) and its `expand` made for them (`_expander`): a loop given for the
clauses' shape (`loops`), the compiled clauses indexed on the first argument (a call that
selects one clause goes on in the relation's deterministic loop), or, when the body cannot
be compiled or the state holds constraints, the function as written. `LoopCall`,
`loop_answers` and `EachItsTask` are how a loop's answers go on in the search.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Iterable, Iterator
from typing import Any, Callable, ParamSpec

from cons.core import ConsPair
from immutables import Map

from ..errors import InputError
from . import equality, loops
from ._spine import CyclicList
from .clauses import _LIST_KEY, AGAIN, CompiledRelation, NotCompiled, compile_relation, index_key
from .streams import _SCHEDULED, PAUSE, Apply, Scheduled, Search, SearchTimeout
from .terms import Suffix, Variable

__all__ = ["relation", "Relation", "Apply", "LoopCall", "first_of", "self_call", "loop_answers"]

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


_NOT_YET = object()
_FREE = equality._UNBOUND


class Relation:
    """An `@relation` function (`fn`; `function`, what the decorator returned) and, once the
    search first reaches a call of it, its clauses compiled (None: it runs as written; `why`
    says why). `expand(S, K, args, search)` is
    how the search goes on from a call (see `Apply`): made for the compiled clauses at the
    first call."""

    __slots__ = ("fn", "name", "arity", "compiled", "why", "expand", "function", "runs")

    def __init__(self, fn: Callable[..., Any], arity: int | None = None):
        self.fn, self.arity = fn, arity
        self.runs: Any = None  # the loop its clauses run as (`loops.Runs`), once known
        self.function: Callable[..., Any] | None = None  # what `@relation` returned
        self.name = getattr(fn, "__name__", "relation")
        self.compiled: Any = _NOT_YET
        self.why = ""
        self.expand: Callable[[Any, Any, tuple, Search], tuple[Any, Any] | None] = self._first_expand

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
        self.expand = _expander(self.fn, self.compiled, self)
        return self.compiled

    def _first_expand(self, S: Any, K: Any, args: tuple, search: "Search") -> tuple[Any, Any] | None:
        self.compile()
        return self.expand(S, K, args, search)


def _expander(fn: Callable[..., Any], compiled: Any, owner: Any = None) -> Callable[..., tuple[Any, Any] | None]:
    """`expand` for a relation: from a call `fn(*args)` in state S with continuation K, the
    (state, continuation) of the first clause whose head unifies, the others left to
    `search` as alternatives; None if none does. Run as written when not compiled, and in a
    state with constraints."""

    def as_written(S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any]:
        return S, (fn(*args), K)

    if compiled is None:
        return as_written
    if compiled.runs is not None:
        return _loop_expander(fn, compiled, owner)
    clauses, index, loop = compiled.clauses, compiled.index, compiled.loop

    def expand(S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any] | None:
        if S.__class__ is not Map:
            return as_written(S, K, args, search)
        if index is None:
            candidates = clauses
        else:  # the clauses whose head can match the first argument's principal functor
            first = args[0]
            while first.__class__ is Variable:
                bound = S.get(first, _FREE)
                if bound is _FREE:
                    break
                first = bound
            kind = first.__class__
            candidates = index[_LIST_KEY if kind is ConsPair or kind is Suffix or kind is list and first
                               else first if kind is str or kind is int else index_key(first)]
        if len(candidates) != 1:
            return first_of(S, K, args, search, candidates)
        if loop is not None and index is not None:
            # the first argument selects one clause: the deterministic loop runs it from here
            went_on = loop(S.mutate(), K, *args)
        else:
            went_on = candidates[0](S, K, *args)
            if loop is None or went_on is None:
                return went_on
            again = self_call(went_on, K, owner)
            if again is None:
                return went_on
            went_on = loop(went_on[0].mutate(), K, *again)
        if went_on is None:
            return None
        m, K_on, tail = went_on
        return m.finish(), ((Apply(owner, tail), K) if K_on is AGAIN else K_on)

    return expand


def _loop_expander(fn: Callable[..., Any], compiled: Any, owner: Any) -> Callable[..., tuple[Any, Any] | None]:
    """`expand` for clauses given a loop (`loops`): the loop's goal; the clauses (compiled
    when first needed) in a mode the loop leaves to them or where `loops.run_here` says no."""
    goal = compiled.runs.goal
    clauses: Any = _expander(fn, compiled.without_loop(), owner) if compiled.clauses else None

    def run_loop(S: Any, K: Any, args: tuple, search: Search) -> tuple[Any, Any] | None:
        nonlocal clauses
        if loops.run_here(S, search):
            g = goal(S, args)
            if g is not None:
                try:
                    return loop_answers(g, S, K, search)
                except CyclicList:  # a cyclic list, which the clauses go round
                    pass
        if clauses is None:
            try:
                made = compile_relation(fn, owner.name).without_loop()
            except NotCompiled:
                made = None
            clauses = _expander(fn, made, owner)
        return clauses(S, K, args, search)

    return run_loop


def self_call(went_on: tuple[Any, Any], K: Any, owner: Any) -> tuple | None:
    """The arguments of the call of `owner` when it is all that a deterministic step
    `went_on` (state, continuation) left to do before K: the relation's loop can go on from
    there. Else None."""
    K_on = went_on[1]
    if K_on is K:
        return None
    g, rest = K_on
    return g.args if rest is K and g.__class__ is Apply and g.rel is owner else None


def first_of(S: Any, K: Any, args: tuple, search: "Search", clauses: list) -> tuple[Any, Any] | None:
    """The first of `clauses` (compiled, see `logicpy.core.clauses`) whose head unifies with
    `args` in S, the others whose heads unify left to `search` as alternatives."""
    first = None
    more: list | None = None
    for clause in clauses:
        went_on = clause(S, K, *args)
        if went_on is None:
            continue
        if first is None:
            first = went_on
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
