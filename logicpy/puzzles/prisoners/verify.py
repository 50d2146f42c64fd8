"""An arrangement checked from scratch: it shares no code with the search (only the `Design` numbers).

Every day must be the people 1..n once each in rows of r; every pair must meet at most once,
and in a complete design exactly once; the symmetry model's own conditions are checked too.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..verification import Verification
from .model import Design, Symmetry

__all__ = ["verify", "pair_meetings"]


def pair_meetings(days: Any, pairs: str) -> Counter:
    """{(a, b) with a < b: how many days a and b meet}, recounted from the rows as given."""
    met: Counter = Counter()
    for day in days:
        for row in day:
            for i, a in enumerate(row):
                partners = row[i + 1:i + 2] if pairs == "cuffed" else row[i + 1:]
                for b in partners:
                    met[(a, b) if a < b else (b, a)] += 1
    return met


def verify(design: Design, days: Any, symmetry: Symmetry | str = Symmetry.NONE) -> Verification:
    """Check `days` (lists of rows of people 1..n) as an arrangement of `design` under `symmetry`.

    >>> from logicpy.puzzles.prisoners import PRISONERS
    >>> verify(PRISONERS, [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]] * 6).problems[0]
    'pair 1-2 meets 6 times'
    """
    symmetry = Symmetry(symmetry)
    problems = _problems(design, days, symmetry)
    if problems:
        return Verification.of(problems, f"the days and every pair's meetings recounted ({symmetry.value} model)")
    how = "cuffed together" if design.pairs == "cuffed" else "in a row together"
    if design.complete:
        return Verification.of([], f"all {design.all_pairs} pairs of the {design.people} are {how} exactly once "
                                   f"({symmetry.value} model)")
    once = sum(1 for times in pair_meetings(days, design.pairs).values() if times == 1)
    return Verification.of([], f"{once} of the {design.all_pairs} pairs are {how} once, none twice "
                               f"({design.day_count} days of {design.pairs_per_day}; {symmetry.value} model)")


def _problems(design: Design, days: Any, symmetry: Symmetry) -> list[str]:
    """What is wrong with `days` as an arrangement of `design` under `symmetry` (empty: it is valid)."""
    n, r = design.people, design.row
    found: list[str] = []
    try:
        days = [[[int(p) for p in row] for row in day] for day in days]
    except (TypeError, ValueError):
        return ["days must be lists of rows of people numbers"]
    if len(days) != design.day_count:
        found.append(f"{len(days)} days, expected {design.day_count}")
    for k, day in enumerate(days, 1):
        if any(len(row) != r for row in day) or len(day) != n // r:
            found.append(f"day {k}: not {n // r} rows of {r}")
        walkers = sorted(p for row in day for p in row)
        if walkers != list(range(1, n + 1)):
            found.append(f"day {k}: walkers are not 1..{n} once each")
    met = pair_meetings(days, design.pairs)
    for pair, times in sorted(met.items()):
        if times > 1:
            found.append(f"pair {pair[0]}-{pair[1]} meets {times} times")
    if design.complete:
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                if met[(a, b)] == 0:
                    found.append(f"pair {a}-{b} never meets")
    if symmetry is not Symmetry.NONE and days:
        first = [list(range(s, s + r)) for s in range(1, n + 1, r)]
        if days[0] != first:
            found.append("day 1 is not 1..r, r+1..2r, … in order")
        for k, day in enumerate(days, 1):
            if any(row[0] > row[-1] for row in day):
                found.append(f"day {k}: a row's first is above its last")
            if design.pairs == "row" and any(row != sorted(row) for row in day):
                found.append(f"day {k}: a row is not in increasing order")
            if symmetry is Symmetry.CANONICAL and [row[0] for row in day] != sorted(row[0] for row in day):
                found.append(f"day {k}: row starts are not increasing")
            if symmetry is Symmetry.PROB and len(day) > 1 and not (
                    day[0][0] < day[1][0] and day[0][-1] < day[1][-1]):
                found.append(f"day {k}: row 1 is not before row 2 on both first and last (the B model's c:{{1,3}})")
    return found
