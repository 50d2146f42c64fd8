"""A predicate's clauses in order, indexed on their arguments as SWI-Prolog indexes them.

`ClauseIndex` holds the clauses of one predicate. A call asks it for the clauses whose
head can match the call's arguments (`matching`), and gets them in clause order as a
sequence that is never changed afterwards (a list made for it, or a tuple kept while the
clauses it holds stay the same): clauses added or removed later are not in it (Prolog's
logical update view).

The clauses are kept by the principal functor of their first argument (`index_key`: the
name and arity of a compound, an atomic term by its identity, 1 and 1.0 apart), a clause
whose first argument is a variable under every key. A call with a bound first argument
takes that key's clauses and the variable ones, merged in clause order: its cost depends
on how many clauses can match, not on how many the predicate has. When the first argument
is unbound (or many clauses share its key) and another argument is bound, an index on that
argument is made at that call (SWI's just-in-time indexing) and kept up to date from then
on. Adding a clause at either end costs one step per index; a removed clause is marked and
left in place until half of a key's entries are removed ones, when that key's entries are
rebuilt without them (amortised constant time).

Stored clauses need three attributes: `head` (the tuple of head arguments, never bound:
their bindings live in substitutions), `order` and `erased` (set here).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any

from .clauses import index_key
from .terms import Variable

#: A just-in-time index is made only for predicates with more clauses than this; a call
#: of a smaller one scans them.
FEW = 8

_by_order = attrgetter("order")
_FREE = object()
_NO_KEY = object()


def _key(term: Any, s: Mapping) -> Any:
    """The `index_key` of `term` walked in the substitution s."""
    while term.__class__ is Variable:
        bound = s.get(term, _FREE)
        if bound is _FREE:
            return None
        term = bound
    kind = term.__class__
    return term if kind is str or kind is int else index_key(term)


class _Entries(deque):
    """Clauses in order, with the number of removed ones still among them."""

    __slots__ = ("dead",)

    def __init__(self, clauses: Any = ()):
        super().__init__(clauses)
        self.dead = 0

    def live(self) -> list:
        """The clauses not removed, in order (a new list)."""
        return list(self) if not self.dead else [c for c in self if not c.erased]

    def forget(self) -> bool:
        """Count one of the entries as removed; drop the removed ones once they are half.
        True when no entry is left."""
        self.dead += 1
        if self.dead * 2 >= len(self):
            kept = [c for c in self if not c.erased]
            self.clear()
            self.extend(kept)
            self.dead = 0
        return not self


class _ArgumentIndex:
    """The clauses by the index key of argument `position` of their head: `by_key` holds a
    key's one clause itself, or `_Entries` once there are two; `open` those where it is a
    variable, which match every key; `merged`, a key's clauses and the open ones in order
    (a tuple, made when first asked, dropped when either changes; `_NO_KEY`: a key no clause
    has)."""

    __slots__ = ("position", "by_key", "open", "merged")

    def __init__(self, position: int, clauses: list):
        self.position = position
        self.by_key: dict[Any, Any] = {}
        self.open = _Entries()
        self.merged: dict[Any, tuple] = {}
        for clause in clauses:
            self.add(clause, at_end=True)

    def add(self, clause: Any, at_end: bool) -> None:
        key = index_key(clause.head[self.position])
        self._forget_merged(key)
        entries: Any
        if key is None:
            entries = self.open
        else:
            entries = self.by_key.get(key)
            if entries is None:
                self.by_key[key] = clause
                return
            if entries.__class__ is not _Entries:
                entries = self.by_key[key] = _Entries((entries,))
        entries.append(clause) if at_end else entries.appendleft(clause)

    def remove(self, clause: Any) -> None:
        key = index_key(clause.head[self.position])
        self._forget_merged(key)
        if key is None:
            self.open.forget()
            return
        entries = self.by_key[key]
        if entries.__class__ is not _Entries or entries.forget():
            del self.by_key[key]

    def size(self, key: Any) -> int:
        """How many entries a call with this key looks at (removed ones included)."""
        entries = self.by_key.get(key)
        return len(self.open) + (0 if entries is None else len(entries) if entries.__class__ is _Entries else 1)

    def _forget_merged(self, key: Any) -> None:
        """A clause of this key (None: an open one) comes or goes."""
        if self.merged:
            if key is None:
                self.merged.clear()
            else:
                self.merged.pop(key, None)

    def matching(self, key: Any) -> Sequence:
        """The clauses whose argument can match a bound argument of this key, in order."""
        entries = self.by_key.get(key)
        if not self.open:
            if entries is None:
                return ()
            return entries.live() if entries.__class__ is _Entries else [entries]
        cached = key if entries is not None else _NO_KEY
        found = self.merged.get(cached)
        if found is None:
            found = self.merged[cached] = tuple(self._merge(entries))
        return found

    def _merge(self, entries: Any) -> list:
        """The clauses of `entries` (a key's: one, several or None) and the open ones, in order."""
        open_ = self.open.live()
        keyed = [] if entries is None else entries.live() if entries.__class__ is _Entries else [entries]
        if not keyed or not open_:
            return keyed or open_
        if keyed[-1].order < open_[0].order:
            return keyed + open_
        if open_[-1].order < keyed[0].order:
            return open_ + keyed
        return sorted(keyed + open_, key=_by_order)  # two runs in order: merged in linear time


class ClauseIndex:
    """The clauses of a predicate of `arity` arguments, in order (see the module)."""

    __slots__ = ("arity", "every", "count", "indexes", "_by_first", "_first", "_last")

    def __init__(self, arity: int):
        self.arity = arity
        self.every = _Entries()
        self.count = 0
        """How many clauses there are (removed ones not counted)."""
        self.indexes: list[_ArgumentIndex | None] = [None] * arity
        """By argument position: its index, None until one is made (the first's at once)."""
        self._by_first = _ArgumentIndex(0, [])  # (unused when there are no arguments)
        if arity:
            self.indexes[0] = self._by_first
        self._first = self._last = 0  # the least and greatest `order` given so far

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        return iter(self.every.live())

    def all(self) -> list:
        """Every clause, in order (a new list)."""
        return self.every.live()

    def add(self, clause: Any, at_end: bool = True) -> None:
        """Add `clause` after the others (`assertz`) or before them (`asserta`)."""
        if at_end:
            self._last += 1
            clause.order = self._last
            self.every.append(clause)
        else:
            self._first -= 1
            clause.order = self._first
            self.every.appendleft(clause)
        clause.erased = False
        self.count += 1
        for index in self.indexes:
            if index is not None:
                index.add(clause, at_end)

    def remove(self, clause: Any) -> None:
        """Remove `clause` (one of these, not removed yet); lists already given keep it."""
        clause.erased = True
        self.count -= 1
        self.every.forget()
        for index in self.indexes:
            if index is not None:
                index.remove(clause)

    def matching(self, args: tuple, s: Mapping) -> Sequence:
        """The clauses, in order, whose head can match a call's arguments `args` in the
        substitution `s` (their principal functors are looked up, never hashed whole): by
        the first argument's index when it is bound and selects a few clauses, else by the
        bound argument whose index selects the fewest (each made at the first such call)."""
        count = self.count
        if count < 2 or not self.arity:
            return self.every.live()
        key = _key(args[0], s)
        first = self._by_first
        if key is not None:
            # the common cases first: a key's clauses merged before, or its one clause alone
            if first.open:
                found = first.merged.get(key)
                if found is not None and (len(found) <= FEW or count <= FEW or self.arity == 1):
                    return found
            else:
                entries = first.by_key.get(key)
                if entries is None:
                    return ()
                if entries.__class__ is not _Entries:
                    return [entries]
            if count <= FEW or self.arity == 1:
                return first.matching(key)
            size = first.size(key)
            if size <= FEW:
                return first.matching(key)
            best, best_key, best_size = first, key, size
        else:
            if count <= FEW or self.arity == 1:
                return self.every.live()
            best, best_key, best_size = None, None, len(self.every)
        for position in range(1, self.arity):
            key = _key(args[position], s)
            if key is None:
                continue
            index = self.indexes[position]
            if index is None:
                index = self.indexes[position] = _ArgumentIndex(position, self.every.live())
            size = index.size(key)
            if size < best_size:
                best, best_key, best_size = index, key, size
        return self.every.live() if best is None else best.matching(best_key)
