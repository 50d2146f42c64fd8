"""Fact tables: Prolog-style facts as a kanren relation, with one index per argument.

`Table` replaces kanren's `Relation`, which (in miniKanren 1.0.5) turns the state into a
plain dict, dropping the constraints posted by earlier goals (after `neq(x, 2)` a lookup
still returns 2), and picks its index from the arguments as written, before walking them,
so a variable bound by an earlier goal never uses the index. A `Table` goal walks its
arguments in the current state and looks up the most selective index among the ground ones.
In plain bindings (no constraint store) a candidate whose other ground arguments have the
same keys is an answer, made by binding the call's free variables to the row's values, one
copy of the bindings per answer: what unifying the row would give, without the unifier.
When an argument is partly bound, a variable occurs twice, or the state holds constraint
stores, each candidate row is unified against the real state, so every store checks it.
Up to `SLICE` candidates are answered at once, as a tuple; a longer scan is lazy, and one
without a hit gives the search's other tasks their turn (`streams.PAUSE`).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from immutables import Map
from kanren.core import GoalType
from unification.core import isground

from ..errors import InputError, TermError
from ._spine import bindings, hashable_key, walk
from .equality import State, reify_dict, unify
from .streams import PAUSE, SLICE, Named
from .terms import Variable, variables_in

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
        self._row_keys: list[tuple] = []
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
        self._row_keys.append(keys)
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

        index = self._index
        rows = self._rows
        numbered = tuple(enumerate(args))
        pair = len(args) == 2 and args[0].__class__ is Variable and args[1].__class__ is Variable

        def table_goal(S):
            kind = S.__class__
            if kind is Map:
                s = S
            elif kind is State and not S.constraints:
                s = S.data
            else:
                return self._unified(args, S)
            get = s.get
            if pair and kind is Map:  # a binary relation called with one atom or integer bound, the other free
                a, b = args
                bound_a, bound_b = get(a, _UNBOUND), get(b, _UNBOUND)
                if bound_b is _UNBOUND and bound_a.__class__ in _ATOMIC:
                    hits = index[0].get(bound_a, _NO_ROWS)
                    if len(hits) <= SLICE:
                        self.rows_visited += len(hits)
                        return tuple([s.set(b, rows[n][1]) for n in hits])
                elif bound_a is _UNBOUND and bound_b.__class__ in _ATOMIC:
                    hits = index[1].get(bound_b, _NO_ROWS)
                    if len(hits) <= SLICE:
                        self.rows_visited += len(hits)
                        return tuple([s.set(a, rows[n][0]) for n in hits])
            # Walk the arguments: a ground one selects rows by its index, a free variable is bound.
            best: Any = None
            checks: Any = None
            free: Any = None
            for pos, arg in numbered:
                if arg.__class__ is Variable:
                    bound = get(arg, _UNBOUND)
                    while bound is not _UNBOUND:
                        arg = bound
                        bound = get(arg, _UNBOUND) if arg.__class__ is Variable else _UNBOUND
                    if arg.__class__ is Variable:
                        if free is None:
                            free = [(pos, arg)]
                        elif any(seen is arg for _, seen in free):  # a variable met twice: unify each row
                            return self._unified(args, S)
                        else:
                            free.append((pos, arg))
                        continue
                key = _key(arg, s)
                if key is _NO_KEY:  # partly bound (or cyclic): unify each row
                    return self._unified(args, S)
                hits = index[pos].get(key, _NO_ROWS)
                if not hits:
                    return ()
                if best is None:
                    best, best_pos, best_key = hits, pos, key
                elif len(hits) < len(best):
                    checks = [(best_pos, best_key)] if checks is None else [*checks, (best_pos, best_key)]
                    best, best_pos, best_key = hits, pos, key
                else:
                    checks = [(pos, key)] if checks is None else [*checks, (pos, key)]
            numbers = range(len(rows)) if best is None else best
            if len(numbers) > SLICE:
                return self._bound_lazily(S, s, numbers, checks, free)
            self.rows_visited += len(numbers)
            if checks is not None:
                row_keys = self._row_keys
                numbers = [n for n in numbers if all(row_keys[n][at] == key for at, key in checks)]
            if free is None:
                return (S,) if numbers else ()
            if len(free) == 1:  # the common call: one variable to bind, one copy of the bindings per answer
                (pos, v), = free
                if kind is Map:
                    return tuple([s.set(v, rows[n][pos]) for n in numbers])
                return tuple([State(s.set(v, rows[n][pos]), None, S.occurs_check) for n in numbers])
            return tuple([_bind(S, s, free, rows[n]) for n in numbers])

        return Named(table_goal, self.name, args)

    def _bound_lazily(self, S: Any, s: Map, numbers: Any, checks: list | None, free: list | None) -> Iterator[Any]:
        """The answers from candidate rows one at a time; `PAUSE` after `SLICE` misses in a row."""
        rows, row_keys = self._rows, self._row_keys
        numbers = numbers[:]  # rows added during the search are not candidates of this call
        if checks is None and free is not None and len(free) == 2 and S.__class__ is Map:
            (at, v), (at2, v2) = free  # the commonest scan, a pair of free variables: bound inline
            for number in numbers:
                self.rows_visited += 1
                row = rows[number]
                bound = s.mutate()
                bound[v] = row[at]
                bound[v2] = row[at2]
                yield bound.finish()
            return
        misses = 0
        for number in numbers:
            self.rows_visited += 1
            if checks is not None and any(row_keys[number][at] != key for at, key in checks):
                misses += 1
                if misses == SLICE:
                    misses = 0
                    yield PAUSE
                continue
            yield _bind(S, s, free, rows[number])

    def _unified(self, args: tuple, S: Any) -> Iterator[Any]:
        """The answers by unifying each candidate row with the arguments in `S` (any state:
        its constraint stores check every binding); `PAUSE` after `SLICE` misses in a row."""
        found = self._candidates(args, S)
        candidates = range(len(self._rows)) if found is None else found
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

    def _candidates(self, args: tuple, S: Any) -> list[int] | None:
        """Row numbers from the smallest index hit of the ground arguments; None if none is ground."""
        best = None
        s = bindings(S)
        for index, arg in zip(self._index, args):
            key = _key(walk(arg, S), s)
            if key is _NO_KEY:
                continue
            hits = index.get(key, _NO_ROWS)
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


_UNBOUND = object()
_NO_ROWS: list = []
#: Argument types that are their own index key (`atomic_key`).
_ATOMIC = frozenset({str, int})
_NO_KEY = object()


def _key(term: Any, s: Any) -> Any:
    """The index key of `term` (walked) in the bindings `s`, or `_NO_KEY` when it is not
    ground there (a cyclic term is not: it matches no fact)."""
    kind = term.__class__
    if kind is str or kind is int:  # an atom or integer is its own key (atomic_key)
        return term
    try:
        term = reify_dict(term, s)
    except TermError:
        return _NO_KEY
    if next(variables_in(term), None) is not None:
        return _NO_KEY
    return hashable_key(term)


def _bind(S: Any, s: Map, free: list | None, row: tuple) -> Any:
    """`S` with each (position, variable) of `free` bound to the row's value there: the
    unifier's result for a row whose other arguments are known to match, in one copy."""
    if free is None:
        return S
    if len(free) == 1:
        pos, v = free[0]
        s = s.set(v, row[pos])
    else:
        m = s.mutate()
        for pos, v in free:
            m[v] = row[pos]
        s = m.finish()
    return s if S.__class__ is Map else State(s, None, S.occurs_check)
