"""Fact tables: Prolog-style facts as a kanren relation, with one index per argument.

`Table` replaces kanren's `Relation`, which (in miniKanren 1.0.5) turns the state into a
plain dict, dropping the constraints posted by earlier goals (after `neq(x, 2)` a lookup
still returns 2), and picks its index from the arguments as written, before walking them,
so a variable bound by an earlier goal never uses the index. A `Table` goal walks its
arguments in the current state, looks up the most selective index among the ground ones,
and unifies each candidate row against the real state, so every constraint store checks it.
A long scan without a hit gives the search's other tasks their turn (`streams.PAUSE`).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from kanren.core import GoalType
from unification import reify
from unification.core import isground

from ..errors import InputError
from ._spine import hashable_key, walk
from .equality import unify
from .streams import PAUSE, SLICE, Named

__all__ = ["Table"]


class Table:
    """A relation given by ground rows (facts) of a fixed arity, indexed on every argument.

    Invariants: every row is a ground tuple of length `arity`, stored once, in insertion
    order; `_index[pos][key]` lists, in order, the numbers of the rows whose argument `pos`
    has the hashable key `key`.

    >>> from logicpy.core import run, var, neq
    >>> parent = Table("parent", 2)
    >>> parent.add("abe", "homer")
    >>> parent.add("homer", "bart")
    >>> parent.add("homer", "lisa")
    >>> child = var()
    >>> run(0, child, neq(child, "bart"), parent("homer", child))
    ('lisa',)
    >>> who = var()
    >>> run(0, who, parent(who, "bart"))
    ('homer',)
    """

    def __init__(self, name: str, arity: int):
        if not isinstance(arity, int) or arity < 0:
            raise InputError(f"table {name!r}: arity must be a non-negative integer, got {arity!r}")
        self.name = name
        self.arity = arity
        #: Candidate rows the goals of this table have tried to unify: a measure of index use.
        self.rows_visited = 0
        self._rows: list[tuple] = []
        self._keys: set = set()
        self._index: list[dict[Any, list[int]]] = [{} for _ in range(arity)]

    @classmethod
    def from_rows(cls, name: str, rows: Iterable[Iterable[Any]], arity: int | None = None) -> "Table":
        """A table holding `rows`; the arity is taken from the first row unless given."""
        facts = [tuple(row) for row in rows]
        if arity is None:
            if not facts:
                raise InputError(f"table {name!r}: no rows to take the arity from; pass arity=")
            arity = len(facts[0])
        table = cls(name, arity)
        table.extend(facts)
        return table

    def add(self, *row: Any) -> None:
        """Add one fact; a duplicate of a stored fact is ignored (a table is a set of facts)."""
        if len(row) != self.arity:
            raise InputError(f"{self}: fact {row!r} has {len(row)} arguments, expected {self.arity}")
        if not isground(row, {}):
            raise InputError(f"{self}: fact {row!r} holds a logic variable; facts must be ground")
        keys = tuple(hashable_key(value) for value in row)
        if keys in self._keys:
            return
        self._keys.add(keys)
        number = len(self._rows)
        self._rows.append(row)
        for index, key in zip(self._index, keys):
            index.setdefault(key, []).append(number)

    def extend(self, rows: Iterable[Iterable[Any]]) -> None:
        """Add several facts, in order."""
        for row in rows:
            self.add(*row)

    def __call__(self, *args: Any) -> GoalType:
        """table(?a1, ..., ?an): True iff (a1, ..., an) unifies with a fact of the table.

        Answers come in insertion order. Cost: the candidates of the most selective index
        among the arguments that are ground in the current state (all rows when none is).
        """
        if len(args) != self.arity:
            raise InputError(f"{self} called with {len(args)} arguments")

        def table_goal(S):
            candidates = self._candidates(args, S)
            if candidates is None:
                candidates = range(len(self._rows))
            misses = 0
            for number in candidates:
                self.rows_visited += 1
                S_hit = unify(self._rows[number], args, S)
                if S_hit is not False:
                    yield S_hit
                else:
                    misses += 1
                    if misses == SLICE:  # a long scan without a hit gives the other tasks their turn
                        misses = 0
                        yield PAUSE

        return Named(table_goal, self.name, args)

    def _candidates(self, args: tuple, S: Any) -> list[int] | None:
        """Row numbers from the smallest index hit of the ground arguments; None if none is ground."""
        best = None
        for index, arg in zip(self._index, args):
            arg = walk(arg, S)
            kind = type(arg)
            if kind is str or kind is int:  # an atom or integer is its own key (atomic_key)
                hits = index.get(arg, [])
            elif isground(arg, S):
                hits = index.get(hashable_key(reify(arg, S)), [])
            else:
                continue
            if best is None or len(hits) < len(best):
                best = hits
                if not best:
                    break
        return None if best is None else best[:]

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._rows)

    def __str__(self) -> str:
        return f"{self.name}/{self.arity}"

    def __repr__(self) -> str:
        return f"<Table {self.name}/{self.arity}: {len(self._rows)} facts>"
