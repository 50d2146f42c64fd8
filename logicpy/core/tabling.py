"""Tabled relations: each distinct call is solved once, to a fixpoint, and its answers
are shared by every call of the same variant, recursive calls included (SLG resolution's
answer tables, on logicpy's search).

A call is identified by its arguments up to variable renaming (a *variant*), so
`patho(a, Y)` and `patho(a, Z)` share one table entry. The first call of a variant is its
*producer*: it runs the relation's body from a fresh state as a task of the same search,
and each answer that reaches the end of the body is added to the entry's answer table if
it is new (up to renaming). Every call of the variant, the first included, is a
*consumer*: it is kept as (state, continuation) -- logicpy's search holds continuations
as data, so a suspended call is just that pair -- and goes on once with each answer
already in the table, and with each new answer as it arrives (a new task per consumer and
answer). A recursive call of an unfinished variant is simply one more consumer, so
left-recursive and mutually recursive relations end with all their answers whenever the
set of answers is finite (answers are a set, as in SWI-Prolog's tabling).

An entry is *complete* when the search that made it has explored everything; later runs
replay it without search. A search stopped early (`run(n)` with its n answers) discards
the entries it left incomplete. A tabled call reached from a nested search (inside
`onceo`, `conda`, ...) while another search is still filling its entry is refused with
`ModeError`, as are answers that carry constraints (`neq`, domains), which a table
cannot replay.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from cons.core import ConsPair
from unification import isvar

from ..errors import ModeError
from ._spine import hashable_key
from .equality import reify, unify
from .streams import Scheduled, Search
from .terms import var

__all__ = ["tabled", "TableStats"]


@dataclass(frozen=True)
class _Slot:
    """The i-th distinct variable of a call, in a variant key."""

    number: int


@dataclass
class TableStats:
    """How a tabled relation's table was used: variants evaluated (misses) and calls
    answered from an existing entry, complete or still filling (hits)."""

    misses: int = 0
    hits: int = 0


@dataclass(eq=False)
class _Entry:
    """The answer table of one call variant.

    Invariants: `answers` are the distinct answers (reified argument tuples, each with its
    list of variables) in the order found, `keys` their variant keys; `consumers` are (args, state, continuation) of the
    calls waiting for answers; `owner` is the search filling it, None once complete.
    """

    answers: list = field(default_factory=list)
    keys: set = field(default_factory=set)
    consumers: list = field(default_factory=list)
    owner: Search | None = None


def _variables(term: Any) -> list:
    """The distinct logic variables of a reified term, in order of first appearance."""
    seen: dict = {}
    stack = [term]
    while stack:
        t = stack.pop()
        if isvar(t):
            seen.setdefault(t, None)
        elif type(t) in (list, tuple):
            stack.extend(reversed(t))
        elif issubclass(type(t), ConsPair):
            stack.extend((t.cdr, t.car))
    return list(seen)


def _renamed(term: Any, variables: list, new: Callable[[int], Any]) -> Any:
    """`term` with its i-th variable replaced by `new(i)`."""
    return reify(term, {v: new(i) for i, v in enumerate(variables)}) if variables else term


def tabled(relation: Callable[..., Any]) -> Callable[..., Any]:
    """Table `relation` (a function returning a goal) per call variant (see module).

    Every call's answers are the distinct answers of the relation for that variant,
    unified with the caller's arguments in the caller's own state (so its constraints
    still apply); recursion through the tabled relation, left recursion included, ends
    whenever that set is finite. The wrapper has `.stats` (a `TableStats`) and `.clear()`.

    >>> from logicpy.core import conde, eq, run, var, Table
    >>> edge = Table.from_rows("edge", [(1, 2), (2, 3), (3, 1)])
    >>> @tabled
    ... def patho(x, y):
    ...     z = var()
    ...     return conde([patho(x, z), edge(z, y)], [edge(x, y)])
    >>> q = var()
    >>> sorted(run(0, q, patho(1, q)))
    [1, 2, 3]
    """
    tabling = _Tabling(relation)

    @functools.wraps(relation)
    def tabled_relation(*args: Any) -> _TabledCall:
        return _TabledCall(tabling, args)

    tabled_relation.stats = tabling.stats  # type: ignore[attr-defined]
    tabled_relation.clear = tabling.clear  # type: ignore[attr-defined]
    return tabled_relation


def _variant_key(term: Any, variables: list) -> Any:
    """A hashable key equal for two terms iff they are variants (equal up to renaming);
    `variables` are the term's own (`_variables(term)`)."""
    return hashable_key(_renamed(term, variables, _Slot))


def _answers_for(args: Any, answers: list, S: Any, stop: int | None = None):
    """States of `S` where `args` unify with each answer, renamed apart, up to `stop`.

    `answers` holds (answer, its variables) pairs; a ground answer is used as it is."""
    for i, (answer, variables) in enumerate(answers):
        if stop is not None and i >= stop:
            return
        if variables:
            answer = _renamed(answer, variables, lambda _: var())
        S_hit = unify(args, answer, S)
        if S_hit is not False:
            yield S_hit


class _TabledCall(Scheduled):
    """A call of a tabled relation: consumes (and, for a new variant, produces) its entry."""

    __slots__ = ("tabling", "args")

    def __init__(self, tabling: "_Tabling", args: tuple):
        self.tabling = tabling
        self.args = args

    def schedule(self, S: Any, K: Any, search: Search):
        return self.tabling.call(self.args, S, K, search)

    def __repr__(self) -> str:
        return f"{self.tabling.name}{self.args!r}"


class _NewAnswer(Scheduled):
    """The end of a producer's body: record the answer; feed it to the waiting consumers."""

    __slots__ = ("tabling", "entry", "fresh_args")

    def __init__(self, tabling: "_Tabling", entry: _Entry, fresh_args: tuple):
        self.tabling = tabling
        self.entry = entry
        self.fresh_args = fresh_args

    def schedule(self, S: Any, K: Any, search: Search):
        self.tabling.add_answer(self.entry, self.fresh_args, S, search)
        return None


class _Tabling:
    """The table of one tabled relation: entries by variant key, and the evaluation rules."""

    def __init__(self, relation: Callable[..., Any]):
        self.relation = relation
        self.name = relation.__name__
        self.entries: dict[Any, _Entry] = {}
        self.stats = TableStats()

    def call(self, args: tuple, S: Any, K: Any, search: Search):
        args_rf = reify(args, S)
        arg_variables = _variables(args_rf)
        key = _variant_key(args_rf, arg_variables)
        entry = self.entries.get(key)
        if entry is not None and entry.owner is None:
            self.stats.hits += 1
            return _answers_for(args, entry.answers, S), K
        if entry is None:
            self.stats.misses += 1
            entry = self.entries[key] = _Entry(owner=search)
            search.on_finish.append(functools.partial(self._complete, entry))
            search.on_abandon.append(functools.partial(self._discard, key, entry))
            fresh_args = _renamed(args_rf, arg_variables, lambda _: var())
            producer = (self.relation(*fresh_args), (_NewAnswer(self, entry, fresh_args), None))
            search.spawn(({},), producer)
        elif entry.owner is not search:
            raise ModeError(f"tabled {self.name}: the variant {args_rf!r} is still being evaluated by another "
                            "search (a tabled call inside onceo/conda/... of its own evaluation)")
        else:
            self.stats.hits += 1
        entry.consumers.append((args, S, K))
        return _answers_for(args, entry.answers, S, stop=len(entry.answers)), K

    def add_answer(self, entry: _Entry, fresh_args: tuple, S: Any, search: Search) -> None:
        if any(getattr(store, "lvar_constraints", None) for store in getattr(S, "constraints", {}).values()):
            raise ModeError(f"tabled {self.name}: an answer to {reify(fresh_args, {})!r} carries constraints, "
                            "which a table cannot replay")
        answer = reify(fresh_args, S)
        variables = _variables(answer)
        key = _variant_key(answer, variables)
        if key in entry.keys:
            return
        entry.keys.add(key)
        answered = [(answer, variables)]
        entry.answers.append(answered[0])
        for args, S_consumer, K in entry.consumers:
            search.spawn(_answers_for(args, answered, S_consumer), K)

    @staticmethod
    def _complete(entry: _Entry) -> None:
        entry.owner = None
        entry.consumers.clear()

    def _discard(self, key: Any, entry: _Entry) -> None:
        if self.entries.get(key) is entry and entry.owner is not None:
            del self.entries[key]

    def clear(self) -> None:
        self.entries.clear()
        self.stats.misses = self.stats.hits = 0
