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
from typing import Any, Iterator, Mapping

from ...core.cover import ExactCover
from ...errors import InputError
from .model import Arrangement, Day, Design, Row, Symmetry, canonical_day, row_pairs

__all__ = ["solve", "arrangements", "day_problem", "present", "check_fixed", "rotational_days", "OPTION_LIMIT"]

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
    """The first arrangement of `design` (None when none exists: the search was exhaustive).

    Kirkman designs of 21 people or more (rows of 3 sharing a row) are first tried with a
    rotational symmetry (`rotational_days`), which the search over (day, row) options
    would take far longer to find."""
    symmetry = Symmetry(symmetry)
    if not fixed and design.pairs == "row" and design.row == 3 and design.complete and design.people >= 21:
        days = rotational_days(design)
        if days is not None:
            found = present(design, _relabelled(design, days), symmetry)
            if found is not None:
                return found
    return next(arrangements(design, symmetry, fixed), None)


def rotational_days(design: Design) -> list[Day] | None:
    """A Kirkman design of n = 3q people (q odd) with the symmetry x -> x + 1 (mod q) on three
    groups of q, or None when there is none of this form.

    Pairs fall into 3q + 3(q-1)/2 orbits of size q under the symmetry. (q-1)/2 days are each
    the orbit of one triple with a person from each group (x, 0), (x + b, 1), (x + c, 2) and take
    the orbits of differences b, c, c - b; the other q days are the images of one base day
    whose 3q pairs meet every remaining orbit once: an exact cover over its people and those
    orbits. 21 people: found in about 0.1 s."""
    q, n = design.people // 3, design.people
    if q % 2 == 0 or q < 3:
        return None
    people = [(x, g) for g in range(3) for x in range(q)]

    def orbit(a: tuple[int, int], b: tuple[int, int]) -> tuple:
        (x, g), (y, h) = sorted((a, b), key=lambda p: (p[1], p[0]))
        if g == h:
            d = (y - x) % q
            return ("same", g, min(d, q - d))
        return ("across", g, h, (y - x) % q)

    every = {orbit(a, b) for a, b in itertools.combinations(people, 2)}
    triples = list(itertools.combinations(people, 3))
    for choice in itertools.combinations([(b, c) for b in range(q) for c in range(q)], (q - 1) // 2):
        taken = [o for b, c in choice for o in (("across", 0, 1, b), ("across", 0, 2, c), ("across", 1, 2, (c - b) % q))]
        if len(set(taken)) != len(taken):
            continue
        rest = every - set(taken)
        options: dict[Any, list[Any]] = {}
        for t in triples:
            meets = [orbit(a, b) for a, b in itertools.combinations(t, 2)]
            if len(set(meets)) == 3 and rest.issuperset(meets):
                options[t] = [*t, *meets]
        base = next(ExactCover(options, primary=[*people, *sorted(rest)]).covers(), None)
        if base is None:
            continue
        number = {p: k + 1 for k, p in enumerate(people)}

        def shifted(row: tuple, k: int) -> Row:
            return tuple(number[((x + k) % q, g)] for x, g in row)

        fixed_days = [tuple(shifted(((0, 0), (b, 1), (c, 2)), k) for k in range(q)) for b, c in choice]
        turning = [tuple(shifted(row, k) for row in base) for k in range(q)]
        days = fixed_days + turning
        assert len(days) == design.day_count and all(sorted(p for r in d for p in r) == list(range(1, n + 1))
                                                      for d in days)
        return days
    return None


def _relabelled(design: Design, days: list[Day]) -> list[Day]:
    """The days relabelled so that the first is `design.first_day()` (1-2-3, 4-5-6, ...)."""
    order = [p for row in days[0] for p in row]
    new = {p: k + 1 for k, p in enumerate(order)}
    return [tuple(tuple(new[p] for p in row) for row in day) for day in days]
