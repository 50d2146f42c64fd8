"""The first arrangement: Algorithm X (the core's `ExactCover`) over (day, row) options.

Items: (day, person) for every day and person, and every pair (primary when the design is
complete, so covered exactly once; secondary otherwise, so at most once). Options: a row
on a day, holding its people on that day and the pairs that meet in it. Day 1 is fixed by
`include` under the canonical and ProB models; `fixed` pins further days.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Iterator, Mapping

from ...core.cover import ExactCover
from ...errors import InputError
from .model import Arrangement, Day, Design, Symmetry, canonical_day, row_pairs

__all__ = ["solve", "arrangements", "day_problem", "present", "check_fixed", "OPTION_LIMIT"]

#: The most (day, row) options the search builds (8 people in one cuffed row over 2 days: 40,320).
OPTION_LIMIT = 50_000


@functools.lru_cache(maxsize=8)
def day_problem(design: Design) -> ExactCover:
    """The (day, row) exact-cover problem of `design` (built once per design)."""
    d, n = design.day_count, design.people
    per_row = 1 if design.pairs == "row" else max(math.factorial(design.row) // 2, 1)
    size = math.comb(n, design.row) * per_row * d
    if size > OPTION_LIMIT:
        raise InputError(f"{design.describe()}: {size:,} (day, row) options, more than the "
                         f"{OPTION_LIMIT:,} this search builds (long cuffed rows grow factorially)")
    rows = list(design.rows())
    options = {(k, row): [("on", k, p) for p in row] + row_pairs(row, design.pairs)
               for k in range(1, d + 1) for row in rows}
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    if design.complete:
        return ExactCover(options, primary=pairs)
    return ExactCover(options, secondary=pairs)


def check_fixed(design: Design, fixed: Mapping[int, Day]) -> dict[int, Day]:
    """`fixed` ({day number: rows}) with each day validated and read canonically."""
    out = {}
    for k, day in fixed.items():
        if not 1 <= k <= design.day_count:
            raise InputError(f"fixed day {k}: days run 1..{design.day_count}")
        rows = tuple(tuple(int(p) for p in row) for row in day)
        if (sorted(p for row in rows for p in row) != list(range(1, design.people + 1))
                or any(len(row) != design.row for row in rows)):
            raise InputError(f"fixed day {k}: {rows} is not the people 1..{design.people} in rows of {design.row}")
        out[k] = canonical_day(rows, design.pairs)
    return out


def arrangements(design: Design, symmetry: Symmetry = Symmetry.CANONICAL,
                 fixed: Mapping[int, Day] | None = None) -> Iterator[Arrangement]:
    """Arrangements of `design` in the model `symmetry`, lazily (each unordered cover once)."""
    design.check()
    fixed = check_fixed(design, fixed or {})
    if symmetry is not Symmetry.NONE:
        if 1 in fixed and fixed[1] != design.first_day():
            raise InputError(f"fixed day 1: the {symmetry.value} model fixes day 1 to {design.first_day()}")
        fixed = {1: design.first_day(), **fixed}
    include = [(k, row) for k, day in fixed.items() for row in day]
    for cover in day_problem(design).covers(include=include):
        days: list[list] = [[] for _ in range(design.day_count)]
        for k, row in cover:
            days[k - 1].append(row)
        arrangement = present(design, [tuple(day) for day in days], symmetry)
        if arrangement is not None:
            yield arrangement


def present(design: Design, days: list[Day], symmetry: Symmetry) -> Arrangement | None:
    """The days written as `symmetry` wants them (None: the ProB model admits no order of some day)."""
    days = [canonical_day(day, design.pairs) for day in days]
    if symmetry is Symmetry.PROB:
        ordered = [prob_orders(day)[:1] for day in days]
        if not all(ordered):
            return None
        days = [o[0] for o in ordered]
    return Arrangement(tuple(days), design)


def prob_orders(day: Day) -> list[Day]:
    """The orders of a canonical day's rows that the B model admits: row 1 before row 2 on first and on last."""
    if len(day) < 2:
        return [day]
    return [order for order in itertools.permutations(day)
            if order[0][0] < order[1][0] and order[0][-1] < order[1][-1]]


def solve(design: Design = Design(), symmetry: Symmetry = Symmetry.CANONICAL,
          fixed: Mapping[int, Day] | None = None) -> Arrangement | None:
    """The first arrangement of `design` (None when none exists: the search was exhaustive)."""
    return next(arrangements(design, Symmetry(symmetry), fixed), None)
