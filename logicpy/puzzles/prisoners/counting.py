"""Counting arrangements: the day-level exact cover, with pairs of days met in the middle.

Every day (a partition of the people into rows) is one option; its items are the pairs that
meet on it, as bits of an int. A complete design is a set of days whose pair sets partition
all pairs, so the days are unordered and a state is just the set of pairs still free.
`DayCount` counts those sets for given fixed days:

- one day left: the free pairs must themselves be a day (a dict lookup);
- two days left: `pairs_of[free]`, every union of two disjoint days, built once with numpy;
- four days left: split in the middle, Σ pairs_of[U] · pairs_of[G − U] over the unions U
  that hold G's lowest pair (each 4-set is met 3 times), one vectorised pass per G;
- otherwise: branch on the days holding the lowest free pair, memoised on the free pairs.

Days may carry integer weights (the number of ways the ProB model may write a day); the
count is then Σ over covers of the product of their days' weights. Designs that are not
complete (days meet each pair at most once) count sets of pairwise-disjoint days instead.

The core's `ExactCover.count` finds the same 92,672 in about 24 s on the 7,560 day options
(its memo key is the live options, which rarely repeat); this one keys on the free pairs.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any, Iterator, Sequence

import numpy as np

from ...errors import InputError
from .classes import DesignClass, completions_from_classes, day_one_symmetries, design_classes
from .model import Day, Design, Symmetry, canonical_day, row_pairs

__all__ = ["DayCount", "days_of", "count", "completions", "distinct", "PARTITION_LIMIT",
           "PACKING_DAYS_LIMIT", "WEIGHTED_PACKING_DAYS_LIMIT"]

#: Designs with more possible days than this are not counted (the day options would not fit).
PARTITION_LIMIT = 200_000

#: Free days a week that need not meet every pair may leave: sets of disjoint days are counted
#: by branching on the lowest free pair (used by a day, or left free), memoised on the free
#: pairs; with unit weights and only day 1 fixed, the first day is taken one orbit of day 1's
#: symmetries at a time. Nine prisoners: 4 free days in about 2 s (23 s without the orbits).
PACKING_DAYS_LIMIT = 4
#: The same with weights (the ProB model), where the orbits do not apply.
WEIGHTED_PACKING_DAYS_LIMIT = 3


def _partitions(people: tuple[int, ...], design: Design) -> Iterator[Day]:
    """Every day of `people` as canonical rows, each once."""
    if not people:
        yield ()
        return
    first, rest = people[0], people[1:]
    for others in itertools.combinations(rest, design.row - 1):
        remaining = tuple(p for p in rest if p not in others)
        for row in sorted({canonical_day((perm,), design.pairs)[0]
                           for perm in itertools.permutations((first, *others))}):
            for tail in _partitions(remaining, design):
                yield canonical_day((row, *tail), design.pairs)


@functools.lru_cache(maxsize=4)
def days_of(design: Design) -> tuple[tuple[Day, ...], tuple[int, ...]]:
    """(every possible day, and each one's pairs as a bitmask) of `design`."""
    if design.partitions_count() > PARTITION_LIMIT:
        raise InputError(f"counting: {design.describe()} has {design.partitions_count():,} possible days, "
                         f"more than the {PARTITION_LIMIT:,} the counter holds")
    if design.all_pairs > 64:
        raise InputError(f"counting: {design.describe()} has {design.all_pairs} pairs; the counter keeps a "
                         "day's pairs in 64 bits")
    n = design.people
    bit = {(a, b): 1 << k for k, (a, b) in enumerate((a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1))}
    days = tuple(_partitions(tuple(range(1, n + 1)), design))
    masks = tuple(sum(bit[p] for row in day for p in row_pairs(row, design.pairs)) for day in days)
    return days, masks


def _mask(design: Design, day: Day) -> int:
    """The bitmask of the pairs meeting on `day`."""
    return days_of(design)[1][_day_index(design)[canonical_day(day, design.pairs)]]


@functools.lru_cache(maxsize=4)
def _day_index(design: Design) -> dict[Day, int]:
    return {day: i for i, day in enumerate(days_of(design)[0])}


class DayCount:
    """The sets of days that complete `fixed` (pairwise disjoint; covering every pair when complete).

    `weights`: an int per day of the design (default 1). `count()` is Σ over the sets of the
    product of their weights; `covers()` lists the sets as tuples of day indices.
    """

    def __init__(self, design: Design, fixed: Sequence[Day], weights: Sequence[int] | None = None):
        self.design = design
        self.symmetric = weights is None and [canonical_day(d, design.pairs) for d in fixed] == [design.first_day()]
        days, masks = days_of(design)
        self.used = 0
        for day in fixed:
            m = _mask(design, day)
            if m & self.used:
                raise InputError(f"fixed days share a pair (day {canonical_day(day, design.pairs)})")
            self.used |= m
        self.left = design.day_count - len(fixed)
        if self.left < 0:
            raise InputError(f"{len(fixed)} fixed days, but the design has {design.day_count}")
        all_masks = np.array(masks, dtype=np.uint64)
        w = np.ones(len(masks), dtype=np.int64) if weights is None else np.array(weights, dtype=np.int64)
        live = ((all_masks & np.uint64(self.used)) == 0) & (w > 0)
        self.index = np.nonzero(live)[0]          # day indices of the live days
        self.masks = all_masks[live]
        self.weights = w[live]
        self.weight_of = dict(zip(self.masks.tolist(), self.weights.tolist()))
        self.local = {m: i for i, m in enumerate(self.masks.tolist())}
        self.full = (1 << design.all_pairs) - 1
        self.ppd = design.pairs_per_day
        self._by_low: dict[int, np.ndarray] = {}
        self._pairs: tuple | None = None
        self._lows: dict[int, np.ndarray] = {}

    # -- the days holding a pair, and the unions of two days --------------------------------

    def holding(self, bit: int) -> np.ndarray:
        """Local indices of the live days holding pair number `bit`."""
        got = self._by_low.get(bit)
        if got is None:
            got = np.nonzero((self.masks >> np.uint64(bit)) & np.uint64(1))[0]
            self._by_low[bit] = got
        return got

    def _inside(self, candidates: np.ndarray, free: int) -> np.ndarray:
        """Those of `candidates` (local indices) whose pairs are all free."""
        return candidates[(self.masks[candidates] & np.uint64(self.full ^ free)) == 0]

    def pairs(self) -> tuple:
        """(unique unions, weighted counts, start offsets, i, j, lowest pair of each union): every two disjoint live days."""
        if self._pairs is None:
            masks, firsts, seconds = self.masks, [], []
            for k in range(len(masks) - 1):
                rest = masks[k + 1:]
                js = np.nonzero((rest & masks[k]) == 0)[0] + k + 1
                firsts.append(np.full(len(js), k, dtype=np.int64))
                seconds.append(js)
            i = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
            j = np.concatenate(seconds) if seconds else np.zeros(0, dtype=np.int64)
            unions = masks[i] | masks[j]
            order = np.argsort(unions, kind="stable")
            unions, i, j = unions[order], i[order], j[order]
            keys, starts = np.unique(unions, return_index=True)
            products = self.weights[i] * self.weights[j]
            sums = np.add.reduceat(products, starts) if len(products) else np.zeros(0, dtype=np.int64)
            low = np.zeros(len(keys), dtype=np.int64)
            if len(keys):
                low = np.log2((keys & (~keys + np.uint64(1))).astype(np.float64)).astype(np.int64)
            self._pairs = (keys, sums, np.append(starts, len(i)), i, j, low)
        return self._pairs

    def _pair_count(self, free: int) -> int:
        keys, sums, *_ = self.pairs()
        k = np.searchsorted(keys, np.uint64(free))
        return int(sums[k]) if k < len(keys) and int(keys[k]) == free else 0

    def _halves(self, free: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions (into the unions) of U ∋ lowest pair of `free`, U ⊆ free, with free − U a union too."""
        keys, *_ = self.pairs()
        bit = (free & -free).bit_length() - 1
        cands = self._low_positions(bit)
        cands = cands[(keys[cands] & np.uint64(self.full ^ free)) == 0]
        rest = np.uint64(free) ^ keys[cands]
        at = np.searchsorted(keys, rest)
        at[at >= len(keys)] = 0
        ok = keys[at] == rest
        return cands[ok], at[ok]

    def _low_positions(self, bit: int) -> np.ndarray:
        """Positions of the unions whose lowest pair is number `bit`."""
        got = self._lows.get(bit)
        if got is None:
            got = np.nonzero(self.pairs()[5] == bit)[0]
            self._lows[bit] = got
        return got

    # -- counting --------------------------------------------------------------------------

    def count(self) -> int:
        """Σ over the completing sets of days of the product of their weights."""
        if self.design.complete:
            return self._count_cover(self.full ^ self.used, {})
        limit = PACKING_DAYS_LIMIT if self.symmetric else WEIGHTED_PACKING_DAYS_LIMIT
        if self.left > limit:
            raise InputError(f"counting: {self.design.describe()}: {self.left} free days of a week that need not "
                             f"meet every pair; this counter takes at most {limit}"
                             f"{'' if self.symmetric else ' with --fix days or the prob model'} (fix more days "
                             "with --fix, or count a complete design)")
        free, m = self.full ^ self.used, self.left
        if not self.symmetric or m < 2:
            return self._count_packing(free, m, self.masks, self.weights, {})
        # Every packing is counted once per day in it, m times in all, first day by first day;
        # days of one orbit of day 1's symmetries have equally many packings of the rest.
        memo: dict[tuple[int, int], int] = {}
        total = 0
        for day, size in self._orbits():
            keep = (self.masks & np.uint64(day)) == 0
            total += size * self._count_packing(free ^ day, m - 1, self.masks[keep], self.weights[keep], memo)
        assert total % m == 0
        return total // m

    def _count_cover(self, free: int, memo: dict) -> int:
        m = free.bit_count() // self.ppd
        if m == 0:
            return 1
        if m == 1:
            return self.weight_of.get(free, 0)
        if m == 2:
            return self._pair_count(free)
        if m == 4:
            _, sums, *_ = self.pairs()
            u, v = self._halves(free)
            total = int((sums[u] * sums[v]).sum())
            return total // 3
        known = memo.get(free)
        if known is not None:
            return known
        bit = (free & -free).bit_length() - 1
        total = 0
        for a in self._inside(self.holding(bit), free).tolist():
            total += int(self.weights[a]) * self._count_cover(free ^ int(self.masks[a]), memo)
        memo[free] = total
        return total

    def _count_packing(self, free: int, m: int, masks: np.ndarray, weights: np.ndarray, memo: dict) -> int:
        """Σ over the sets of m disjoint days among `masks` (the live days inside `free`) of their weights' product."""
        if m == 0:
            return 1
        if free.bit_count() < self.ppd * m or len(masks) < m:
            return 0
        if m == 1:
            return int(weights.sum())
        if m == 2:
            apart = (masks[:, None] & masks[None, :]) == 0
            return int((weights[:, None] * weights[None, :])[apart].sum()) // 2
        known = memo.get((free, m))
        if known is not None:
            return known
        low = free & -free
        holds = (masks & np.uint64(low)) != 0
        total = self._count_packing(free ^ low, m, masks[~holds], weights[~holds], memo)  # the pair stays free
        for day, weight in zip(masks[holds].tolist(), weights[holds].tolist()):
            keep = (masks & np.uint64(day)) == 0
            total += weight * self._count_packing(free ^ day, m - 1, masks[keep], weights[keep], memo)
        memo[(free, m)] = total
        return total

    def _orbits(self) -> list[tuple[int, int]]:
        """(pairs of one live day, size of its orbit) per orbit of the live days under the
        relabellings that keep day 1: its rows permuted, each row reversed (cuffed) or permuted (row)."""
        design = self.design
        days, masks = days_of(design)
        index = _day_index(design)
        generators = day_one_symmetries(design)
        parent = {int(i): int(i) for i in self.index}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for g in generators:
            for i in list(parent):
                j = index[canonical_day(tuple(tuple(g[p] for p in row) for row in days[i]), design.pairs)]
                a, b = find(i), find(j)
                if a != b:
                    parent[a] = b
        sizes: dict[int, int] = {}
        for i in parent:
            root = find(i)
            sizes[root] = sizes.get(root, 0) + 1
        return [(int(masks[root]), size) for root, size in sizes.items()]


def count(design: Design, symmetry: Symmetry = Symmetry.CANONICAL, fixed: dict[int, Day] | None = None) -> int:
    """The number of arrangements of `design` in the model `symmetry`, with `fixed` days pinned.

    canonical: day 1 fixed, rows written one way, later days in any order: completions × (days left)!.
    prob: the same, each day counted as many times as the B model may order its rows.
    none: every sequence of days, rows and readings; by relabelling, every day has as many
    completions as day 1, so (possible days) × completions of day 1 × orderings.
    """
    from .solve import check_fixed, prob_orders

    design.check()
    fixed = check_fixed(design, fixed or {})
    d = design.day_count
    everything = symmetry is Symmetry.NONE and not fixed
    if symmetry is not Symmetry.NONE or everything:
        first = design.first_day()
        if fixed.get(1, first) != first:
            raise InputError(f"fixed day 1: the {symmetry.value} model fixes day 1 to {first}")
        fixed = {1: first, **fixed}
    weights = None
    if symmetry is Symmetry.PROB and _too_many_days(design):
        raise InputError(f"counting: {design.describe()}: the prob model weighs each of its "
                         f"{design.partitions_count():,} possible days, more than the {PARTITION_LIMIT:,} the counter "
                         "holds (--symmetry canonical or none count it from its isomorphism classes)")
    if symmetry is Symmetry.PROB:
        weights = [len(prob_orders(day)) for day in days_of(design)[0]]
    left = d - len(fixed)
    if len(fixed) == 1 and symmetry is not Symmetry.PROB and _too_many_days(design):
        ordered = completions(design) * math.factorial(left)
    else:
        ordered = DayCount(design, list(fixed.values()), weights).count() * math.factorial(left)
    if symmetry is not Symmetry.NONE:
        return ordered
    if everything:
        return design.partitions_count() * ordered * design.orderings_per_day() ** d
    return ordered * design.orderings_per_day() ** left


def completions(design: Design, fixed: dict[int, Day] | None = None) -> int:
    """The unordered completions of the fixed days (day 1 = `design.first_day()` when not given)."""
    from .solve import check_fixed

    design.check()
    fixed = {1: design.first_day(), **check_fixed(design, fixed or {})}
    if len(fixed) == 1 and _too_many_days(design):
        return completions_from_classes(design, design_classes(design))
    return DayCount(design, list(fixed.values())).count()


def _too_many_days(design: Design) -> bool:
    """Whether a complete design has too many possible days for `DayCount`, so that the
    completions of day 1 are counted from its isomorphism classes instead (needs pynauty)."""
    return design.complete and design.partitions_count() > PARTITION_LIMIT


def distinct(design: Design, progress: Any = None) -> list[DesignClass]:
    """One representative of each essentially different complete design, with its automorphisms.

    Essentially different: not equal up to relabelling people, reordering days and rows and
    reversing rows (`classes.design_classes`: two fixed days at a time, pynauty's canonical
    certificates). `progress(done, total)` is called as it goes."""
    return design_classes(design, progress)
