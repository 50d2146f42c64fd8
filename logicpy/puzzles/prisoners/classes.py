"""Complete designs up to isomorphism, two fixed days at a time, and the counts that follow.

Every complete design holds some day, and any day can be relabelled into day 1; the
relabellings that keep day 1 then take the design's second day into one *orbit* of the
days that share no pair with day 1. So the designs holding day 1 and one representative
day of each orbit meet every isomorphism class. For each representative the completions
(the remaining days, an exact cover of the free pairs) are listed and sorted into classes
by pynauty's canonical certificate of `graph` (people, days and pairs), whose automorphism
group is the design's. Kirkman's schoolgirls: 132,192 second days in 2 orbits, 172
completions, 7 classes.

The counts follow from the classes: a class with automorphism group A has n!/|A| labelled
designs (days and rows unordered), and each holds d of the possible days, all alike under
relabelling, so day 1 has Σ n!/|A| · d / (possible days) completions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ...errors import InputError
from .model import Day, Design, canonical_day, row_pairs

__all__ = ["DesignClass", "design_classes", "labelled_designs", "completions_from_classes", "graph", "day_one_symmetries"]


@dataclass(frozen=True)
class DesignClass:
    """One isomorphism class of complete designs: a representative's days and the number of
    relabellings of the people that map it onto itself."""

    days: tuple[Day, ...]
    automorphisms: int


class _Days:
    """The days of a design as pair masks (one bit per pair of people), enumerated lazily."""

    def __init__(self, design: Design):
        self.design = design
        n = design.people
        self.bit = {(a, b): 1 << k for k, (a, b) in enumerate((a, b) for a in range(1, n + 1)
                                                               for b in range(a + 1, n + 1))}
        self.pairs = len(self.bit)
        # rows by their least person: (people as a bitmask, pairs as a bitmask, the row)
        self.by_least: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
        self.row_mask: dict[tuple[int, ...], int] = {}
        for row in design.rows():
            pairs = sum(self.bit[p] for p in row_pairs(row, design.pairs))
            self.row_mask[row] = pairs
            self.by_least.setdefault(min(row), []).append((sum(1 << p for p in row), pairs, row))

    def mask(self, day: Day) -> int:
        """The pairs meeting on `day` (rows in any order, read either way)."""
        if self.design.pairs == "row":
            return sum(self.row_mask[tuple(sorted(row))] for row in day)
        return sum(self.row_mask[row if row[0] < row[-1] else row[::-1]] for row in day)

    def avoiding(self, used: int) -> list[tuple[int, Day]]:
        """Every day none of whose pairs is in `used`: (pairs mask, rows)."""
        out: list[tuple[int, Day]] = []
        rows: list[tuple[int, ...]] = []

        def extend(left: int, mask: int) -> None:
            if not left:
                out.append((mask, tuple(rows)))
                return
            least = (left & -left).bit_length() - 1
            for people, pairs, row in self.by_least[least]:
                if people & ~left or pairs & used:
                    continue
                rows.append(row)
                extend(left & ~people, mask | pairs)
                rows.pop()

        extend(sum(1 << p for p in range(1, self.design.people + 1)), 0)
        return out


def day_one_symmetries(design: Design) -> list[list[int]]:
    """Relabellings (image of each person, index 0 unused) generating those that keep day 1:
    its rows permuted, and each row reversed (cuffed) or permuted (sharing a row)."""
    rows, n = design.first_day(), design.people

    def relabel(moves: list[tuple[int, int]]) -> list[int]:
        image = list(range(n + 1))
        for a, b in moves:
            image[a] = b
        return image

    generators = [relabel(list(zip(rows[0], rows[0][::-1])))]
    if len(rows) > 1:
        generators.append(relabel([(a, b) for x, y in ((0, 1), (1, 0)) for a, b in zip(rows[x], rows[y])]))
    if len(rows) > 2:
        generators.append(relabel([(a, b) for i in range(len(rows)) for a, b in zip(rows[i], rows[(i + 1) % len(rows)])]))
    if design.pairs == "row" and design.row > 2:
        generators.append(relabel(list(zip(rows[0], rows[0][1:] + rows[0][:1]))))
    return generators


def _orbit_representatives(days: _Days, second: list[tuple[int, Day]]) -> list[tuple[int, Day]]:
    """One day of each orbit of `second` under the relabellings that keep day 1."""
    design = days.design
    where = {mask: i for i, (mask, _) in enumerate(second)}
    parent = list(range(len(second)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for g in day_one_symmetries(design):
        for i, (_, day) in enumerate(second):
            j = where[days.mask(tuple(tuple(g[p] for p in row) for row in day))]
            a, b = find(i), find(j)
            if a != b:
                parent[a] = b
    return [second[i] for i in sorted({find(i) for i in range(len(second))})]


def _words(masks: list[int], width: int) -> Any:
    """Pair masks as rows of 64-bit words (numpy), for filtering many at once."""
    import numpy as np

    count = -(-width // 64)
    return np.array([[(m >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF for w in range(count)] for m in masks],
                    dtype=np.uint64).reshape(len(masks), count)


def _covers(free: int, candidates: list[int], words: Any, per_day: int) -> Iterator[list[int]]:
    """Every set of `candidates` (pair masks; `words` the same as numpy rows, or None) partitioning
    `free`: branch on the lowest free pair, keeping only the candidates disjoint from each choice
    (by numpy while there are many)."""
    import numpy as np

    if not free:
        yield []
        return
    if len(candidates) * per_day < free.bit_count():
        return
    low = free & -free
    if words is None or len(candidates) < 512:
        for day in [c for c in candidates if c & low]:
            rest = [c for c in candidates if not c & day]
            for cover in _covers(free & ~day, rest, None, per_day):
                yield [day, *cover]
        return
    word, bit = divmod(low.bit_length() - 1, 64)
    holding = np.nonzero((words[:, word] >> np.uint64(bit)) & np.uint64(1))[0]
    for i in holding.tolist():
        day = candidates[i]
        keep = np.nonzero(~(words & words[i]).any(axis=1))[0]
        for cover in _covers(free & ~day, [candidates[j] for j in keep.tolist()], words[keep], per_day):
            yield [day, *cover]


def graph(design: Design, masks: list[int]) -> Any:
    """A coloured graph whose isomorphism class is the design up to relabelling people and days:
    the people, one vertex per day, one per pair joined to its two people and the day it meets
    on (rows are not vertices: a day's meetings determine its rows)."""
    import pynauty

    n = design.people
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    first_pair = n + len(masks)
    adjacency: dict[int, list[int]] = {first_pair + k: [a, b] for k, (a, b) in enumerate(pairs)}
    for slot, mask in enumerate(masks):
        adjacency[n + slot] = [first_pair + k for k in range(len(pairs)) if mask >> k & 1]
    colouring = [set(range(n)), set(range(n, first_pair)), set(range(first_pair, first_pair + len(pairs)))]
    return pynauty.Graph(first_pair + len(pairs), adjacency_dict=adjacency, vertex_coloring=colouring)


def design_classes(design: Design, progress: Callable[[int, int], None] | None = None) -> list[DesignClass]:
    """One representative of each isomorphism class of complete designs (see the module docstring).

    `progress(done, total)` after each orbit of second days."""
    from ...extras import require

    pynauty = require("pynauty", "nauty", "sorting designs into essentially different ones")
    design.check()
    if not design.complete:
        raise InputError("--distinct needs a complete design (every pair meets exactly once)")
    days = _Days(design)
    first = design.first_day()
    first_mask = days.mask(first)
    full = (1 << days.pairs) - 1
    if design.day_count == 1:
        return [DesignClass((first,), _automorphisms(pynauty, graph(design, [first_mask])))]
    second = days.avoiding(first_mask)
    representatives = _orbit_representatives(days, second)
    found: dict[bytes, DesignClass] = {}
    rows_of = {mask: day for mask, day in second}
    for done, (mask, day) in enumerate(representatives, 1):
        used = first_mask | mask
        candidates = [m for m, _ in days.avoiding(used)]
        for cover in _covers(full & ~used, candidates, _words(candidates, days.pairs), design.pairs_per_day):
            masks = [first_mask, mask, *cover]
            g = graph(design, masks)
            key = pynauty.certificate(g)
            if key not in found:
                rows = (first, day, *(rows_of[m] for m in sorted(cover)))
                found[key] = DesignClass(tuple(canonical_day(d, design.pairs) for d in rows), _automorphisms(pynauty, g))
        if progress is not None:
            progress(done, len(representatives))
    return sorted(found.values(), key=lambda c: (-c.automorphisms, c.days))


def _automorphisms(pynauty: Any, g: Any) -> int:
    _, mantissa, exponent, _, _ = pynauty.autgrp(g)
    return round(mantissa * 10 ** exponent)


def labelled_designs(design: Design, classes: list[DesignClass]) -> int:
    """How many complete designs there are on the people 1..n (days and rows unordered)."""
    return sum(math.factorial(design.people) // c.automorphisms for c in classes)


def completions_from_classes(design: Design, classes: list[DesignClass]) -> int:
    """The unordered completions of day 1: each labelled design holds `day_count` of the
    possible days, each as often as any other."""
    total = labelled_designs(design, classes) * design.day_count
    assert total % design.partitions_count() == 0
    return total // design.partitions_count()
