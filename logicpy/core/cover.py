"""Exact cover: Knuth's Algorithm X over bitsets, as a problem value and as a kanren goal.

An `ExactCover` names items and options (each option a set of items). A cover is a set
of options that holds every *primary* item exactly once and every *secondary* item at
most once. `covers()` enumerates covers lazily, `count()` counts them without building
them, `count_by(items)` counts them grouped by the options chosen for some items, and
`exact_covero(chosen, problem)` is the relational face: a goal whose answers bind
`chosen` to covers, restricted by whatever earlier goals bound.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Set
from typing import Any, cast

from kanren.core import GoalType
from unification.core import isground

from ..errors import InputError
from ._spine import spine, walk
from .equality import reify, unify
from .streams import PAUSE, SLICE, named
from .terms import is_var

__all__ = ["ExactCover", "exact_covero"]

#: Subproblems remembered by one `count()`; past this the count goes on without storing more.
MEMO_LIMIT = 2_000_000


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class ExactCover:
    """An exact-cover problem compiled to bitsets (Algorithm X with Knuth's MRV choice).

    `options` maps each option's name (any hashable term: a str, an int, a tuple) to the
    items it holds, or is an iterable of (name, items) pairs. Items are hashable. Items
    listed in `secondary` may stay uncovered; every other item an option holds is primary,
    and so is every item listed in `primary` (one that no option holds makes the problem
    unsolvable). Every option must hold a primary item (as in Knuth's definition). Covers
    list their options in the problem's option order.

    The search picks the uncovered primary item with the fewest live options (ties: the
    item listed first) and tries its options in order. Options are bits of one int, so
    "the live options of an item" is one AND and one popcount, and choosing an option
    kills every option that shares an item with it in one AND.

    Invariants: `_holders[i]` is the bitset of options holding item i; `_conflicts[o]` the
    options sharing an item with o (o included); `_items[o]` o's items as a bitset with
    primary items in the low `len(primary)` bits.

    Knuth's example from "Dancing Links" (2000): items A-G, six options, one cover.

    >>> knuth = ExactCover({1: "CEF", 2: "ADG", 3: "BCF", 4: "AD", 5: "BG", 6: "DEG"})
    >>> list(knuth.covers()), knuth.count()
    ([(1, 4, 5)], 1)
    """

    __slots__ = ("names", "primary", "secondary", "_index", "_option", "_options", "_items",
                 "_holders", "_conflicts", "_primary_mask", "_all")

    def __init__(self, options: Mapping[Hashable, Iterable[Hashable]] | Iterable[tuple[Hashable, Iterable[Hashable]]],
                 secondary: Iterable[Hashable] = (), primary: Iterable[Hashable] = ()):
        pairs = list(options.items()) if isinstance(options, Mapping) else list(options)
        secondary = list(dict.fromkeys(secondary))
        second = set(secondary)
        ordered = list(dict.fromkeys(primary))
        for item in ordered:
            if item in second:
                raise InputError(f"exact cover: item {item!r} is listed as primary and as secondary")
        seen = set(ordered)
        names: list = []
        contents: list[tuple] = []
        for pair in pairs:
            try:
                name, items = pair
                items = tuple(dict.fromkeys(items))
                hash(name)
            except (TypeError, ValueError):
                raise InputError(f"exact cover: an option must be a (name, items) pair with a hashable name, "
                                 f"got {pair!r}") from None
            if not items:
                raise InputError(f"exact cover: option {name!r} holds no item")
            names.append(name)
            contents.append(items)
            for item in items:
                if item not in seen and item not in second:
                    seen.add(item)
                    ordered.append(item)
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise InputError(f"exact cover: option name {dup!r} is used twice")
        self.names: tuple = tuple(names)
        self.primary: tuple = tuple(ordered)
        self.secondary: tuple = tuple(secondary)
        self._index = {item: k for k, item in enumerate(self.primary + self.secondary)}
        self._option = {name: o for o, name in enumerate(names)}
        self._options = tuple(contents)
        holders = [0] * len(self._index)
        masks = []
        for o, items in enumerate(contents):
            mask = 0
            for item in items:
                k = self._index.get(item)
                if k is None:
                    raise InputError(f"exact cover: option {names[o]!r} holds {item!r}, which is not an item")
                mask |= 1 << k
                holders[k] |= 1 << o
            masks.append(mask)
        for o, mask in enumerate(masks):
            if not mask & ((1 << len(self.primary)) - 1):
                raise InputError(f"exact cover: option {names[o]!r} holds no primary item "
                                 "(Algorithm X would never choose it)")
        self._items = tuple(masks)
        self._holders = tuple(holders)
        self._conflicts = tuple(self._conflicts_of(mask) for mask in masks)
        self._primary_mask = (1 << len(self.primary)) - 1
        self._all = (1 << len(names)) - 1

    def _conflicts_of(self, mask: int) -> int:
        conflicts = 0
        for k in _bits(mask):
            conflicts |= self._holders[k]
        return conflicts

    def __repr__(self) -> str:
        return (f"ExactCover({len(self.names)} options, {len(self.primary)} primary items, "
                f"{len(self.secondary)} secondary)")

    def items_of(self, name: Hashable) -> tuple:
        """The items of the option called `name`."""
        return self._options[self._lookup(name)]

    def option_covering(self, item: Hashable, cover: Iterable[Hashable]) -> Hashable | None:
        """The option of `cover` that holds `item` (None when none does)."""
        for name in cover:
            if item in self._options[self._lookup(name)]:
                return name
        return None

    def _lookup(self, name: Hashable) -> int:
        try:
            return self._option[name]
        except (KeyError, TypeError):
            raise InputError(f"exact cover: no option named {name!r}") from None

    def _start(self, include: Iterable[Hashable], allowed: Iterable[Hashable] | None) -> tuple[int, int, int] | None:
        """(uncovered primary items, live options, chosen options) after `include`; None if they clash."""
        alive = self._all
        if allowed is not None:
            alive = 0
            for name in allowed:
                o = self._option.get(name) if isinstance(name, Hashable) else None
                if o is not None:
                    alive |= 1 << o
        free, chosen = self._primary_mask, 0
        for name in include:
            o = self._lookup(name)
            if not alive >> o & 1:
                if chosen >> o & 1:
                    continue  # named twice
                return None
            chosen |= 1 << o
            free &= ~self._items[o]
            alive &= ~self._conflicts[o]
        return free, alive, chosen

    def _choose(self, free: int, alive: int) -> int:
        """The live options of the uncovered primary item with the fewest (Knuth's MRV); 0 if one has none."""
        holders = self._holders
        best_options, best_n = 0, 1 << 62
        while free:
            low = free & -free
            free ^= low
            options = holders[low.bit_length() - 1] & alive
            n = options.bit_count()
            if n < best_n:
                best_options, best_n = options, n
                if n <= 1:
                    break
        return best_options

    def covers(self, include: Iterable[Hashable] = (), allowed: Iterable[Hashable] | None = None) -> Iterator[tuple]:
        """Every cover, lazily, each a tuple of option names in option order.

        `include`: options every cover must hold; `allowed`: when given, only these
        options may be used (unknown names in it are ignored).

        >>> queens4 = ExactCover({(r, c): [("row", r), ("col", c), ("d", r + c), ("a", r - c)]
        ...                       for r in range(4) for c in range(4)},
        ...                      secondary=[(k, v) for k in "da" for v in range(-3, 7)])
        >>> [[c for r, c in cover] for cover in queens4.covers()]
        [[1, 3, 0, 2], [2, 0, 3, 1]]
        """
        return cast(Iterator[tuple], self._covers(include, allowed, 0))  # no Nones without `every`

    def _covers(self, include: Iterable[Hashable], allowed: Iterable[Hashable] | None,
                every: int) -> Iterator[tuple | None]:
        """`covers`, with a None after each `every` nodes of the search (none for 0)."""
        start = self._start(include, allowed)
        if start is None:
            return
        free, alive, chosen = start
        names, items, conflicts, choose = self.names, self._items, self._conflicts, self._choose
        budget = [every]

        def search(free: int, alive: int, chosen: int) -> Iterator[int]:
            if not free:
                yield chosen
                return
            if every:
                budget[0] -= 1
                if not budget[0]:
                    budget[0] = every
                    yield -1
            options = choose(free, alive)
            while options:
                low = options & -options
                options ^= low
                o = low.bit_length() - 1
                yield from search(free & ~items[o], alive & ~conflicts[o], chosen | low)

        for cover in search(free, alive & ~chosen, chosen):
            yield None if cover < 0 else tuple(names[o] for o in _bits(cover))

    def count(self, include: Iterable[Hashable] = (), allowed: Iterable[Hashable] | None = None) -> int:
        """The number of covers, without building them (subproblems met twice are counted once).

        Two partial covers that leave the same items uncovered and the same options live
        have the same completions, so their count is remembered (up to `MEMO_LIMIT`).
        """
        start = self._start(include, allowed)
        if start is None:
            return 0
        free, alive, chosen = start
        return self._counter()(free, alive & ~chosen)

    def _counter(self):
        """A memoised count of the completions of (uncovered primary items, live options)."""
        items, conflicts, choose = self._items, self._conflicts, self._choose
        width = len(self.primary)
        memo: dict = {}  # (live options, uncovered primary items) as one int

        def count(free: int, alive: int) -> int:
            if not free:
                return 1
            key = alive << width | free
            known = memo.get(key)
            if known is not None:
                return known
            options = choose(free, alive)
            total = 0
            while options:
                low = options & -options
                options ^= low
                o = low.bit_length() - 1
                total += count(free & ~items[o], alive & ~conflicts[o])
            if len(memo) < MEMO_LIMIT:
                memo[key] = total
            return total

        return count

    def count_by(self, items: Iterable[Hashable], include: Iterable[Hashable] = (),
                 allowed: Iterable[Hashable] | None = None,
                 progress: Callable[[float], None] | None = None) -> dict[tuple, int]:
        """Covers counted by the options they choose for `items` (primary items).

        Returns {options (in option order) covering `items`: number of covers}; groups
        with no cover are left out. One search serves every group: below the point where
        all of `items` are covered, completions are counted as `count()` counts them,
        with one memo shared by all groups. `progress(fraction)` is called as the first
        two levels of the search are done (for a progress bar on long counts).

        >>> ExactCover({1: "ab", 2: "b", 3: "a", 4: "c", 5: "bc"}).count_by(["a"])
        {(1,): 1, (3,): 2}
        """
        key_items = 0
        for item in items:
            k = self._index.get(item)
            if k is None or k >= len(self.primary):
                raise InputError(f"exact cover: count_by needs primary items; {item!r} is not one")
            key_items |= 1 << k
        key_options = 0
        for k in _bits(key_items):
            key_options |= self._holders[k]
        start = self._start(include, allowed)
        if start is None:
            return {}
        free, alive, chosen = start
        opts, conflicts, choose, count = self._items, self._conflicts, self._choose, self._counter()
        width = len(self.primary)
        groups: dict = {}

        def grouped(free: int, alive: int, done: float = 0.0, share: float = 0.0) -> dict[int, int]:
            if not free & key_items:
                n = count(free, alive)
                return {0: n} if n else {}
            key = alive << width | free
            known = groups.get(key)
            if known is not None:
                return known
            options = choose(free, alive)
            total: dict[int, int] = {}
            step = share / max(options.bit_count(), 1)
            while options:
                low = options & -options
                options ^= low
                o = low.bit_length() - 1
                tag = low if key_options & low else 0
                child = grouped(free & ~opts[o], alive & ~conflicts[o], done, step if step > 0.002 else 0.0)
                for k, n in child.items():
                    total[k | tag] = total.get(k | tag, 0) + n
                done += step
                if step and progress is not None:
                    progress(done)
            if len(groups) < MEMO_LIMIT:
                groups[key] = total
            return total

        result = grouped(free, alive & ~chosen, 0.0, 1.0)
        fixed = chosen & key_options
        return {tuple(self.names[o] for o in _bits(k | fixed)): n for k, n in sorted(result.items())}

    def is_cover(self, names: Iterable[Hashable]) -> bool:
        """True iff `names` are distinct options of this problem that form a cover (checked item by item)."""
        names = list(names)
        if len(set(map(_key, names))) != len(names) or any(_key(n) not in self._option for n in names):
            return False
        counts: dict = {}
        for name in names:
            for item in self._options[self._option[name]]:
                counts[item] = counts.get(item, 0) + 1
        return all(counts.get(item) == 1 for item in self.primary) and all(
            counts.get(item, 0) <= 1 for item in self.secondary)


def _key(name: Any) -> Any:
    """A hashable stand-in for an option name as a term may give it (lists become tuples)."""
    return tuple(map(_key, name)) if isinstance(name, (list, tuple)) else name


def _fd_values(term: Any, S: Any) -> Set | None:
    """The values of a walked variable's FD domain in state S (a `Domain`), or None when it has none."""
    from .fd.store import FDStore

    store = getattr(S, "constraints", {}).get(FDStore)
    if store is None or term not in store.domains:
        return None
    return store.as_domain(store.domains[term])


@named
def exact_covero(chosen: Any, problem: ExactCover, at: Mapping[Hashable, Any] | None = None) -> GoalType:
    """exact_covero(?chosen, +problem, ?at): True iff chosen lists (in option order) the options
    of a cover of `problem`; with `at` ({primary item: term}), each term is also the name of
    the option that covers that item.

    Terminates always (finitely many covers), yielding covers lazily, one per answer.
    Earlier goals restrict the search when the goal runs: every ground element already
    known in `chosen` (a list or partial list) and every ground term of `at` must be in
    the cover, and a term of `at` that is an FD variable keeps only the options named by
    its domain's values. Other FD constraints on those variables are checked by the FD
    store as each answer binds them.

    Run backwards: from part of a cover to the rest, and to the option holding an item.

    >>> from logicpy.core import run, var
    >>> knuth = ExactCover({1: "CEF", 2: "ADG", 3: "BCF", 4: "AD", 5: "BG", 6: "DEG"})
    >>> q, r = var(), var()
    >>> run(0, (q, r), exact_covero([q, 4, var()], knuth, at={"G": r}))
    ((1, 5),)
    """
    if not isinstance(problem, ExactCover):
        raise InputError(f"exact_covero: problem must be an ExactCover, got {type(problem).__name__}")
    at = dict(at or {})
    primary = set(problem.primary)
    for item in at:
        if item not in primary:
            raise InputError(f"exact_covero: at: {item!r} is not a primary item of the problem")

    def exact_covero_goal(S):
        include = []
        known = walk(chosen, S)
        if not is_var(known):
            elements, _ = spine(known, S)
            include.extend(_key(e) for e in (reify(e, S) for e in elements) if isground(e, {}))
        allowed = None
        for item, term in at.items():
            term_rf = reify(term, S)
            if isground(term_rf, {}):
                include.append(_key(term_rf))
                continue
            values = _fd_values(walk(term, S), S)
            if values is not None:
                holding = {name for name in problem.names if item in problem.items_of(name)}
                narrowed = (set(problem.names) - holding) | (holding & values)
                allowed = narrowed if allowed is None else allowed & narrowed
        if any(n not in problem._option for n in include if isinstance(n, Hashable)):
            return
        for cover in problem._covers(include, allowed, SLICE):
            if cover is None:  # no cover yet: the search's other tasks get their turn
                yield PAUSE
                continue
            S_cover = unify(chosen, list(cover), S)
            for item, term in at.items():
                if S_cover is False:
                    break
                S_cover = unify(term, problem.option_covering(item, cover), S_cover)
            if S_cover is not False:
                yield S_cover

    return exact_covero_goal
