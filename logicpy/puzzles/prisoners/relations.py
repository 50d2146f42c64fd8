"""The arrangement as a relation: an FD model over the days' sequences, for REPL queries.

`arrangemento(days, design, symmetry)` holds when `days` (a list of days, each a flat list
of the people in walking order, rows of r after one another) is a valid arrangement. Any
entry may be an int or a variable, so a user fixes some days or some prisoners and asks for
the rest. The model: each entry in 1..n, `all_differento` per day; each meeting (a cuff,
or a pair sharing a row) is an FD variable tied to its two people by `tableo` over the pair
numbers, and all meetings of all days are `all_differento` (every pair meets at most once;
in a complete design the meetings are then every pair exactly once). The symmetry model
adds `lto` between entries. Answers come from `labelo` (first-fail).
"""

from __future__ import annotations

import itertools
from typing import Any

from kanren.core import GoalType

from ...core import conj, var
from ...core.fd import all_differento, domo, labelo, lto, tableo
from ...errors import InputError
from .model import PRISONERS, Design, Symmetry

__all__ = ["arrangemento", "pair_number"]
#: What the toplevel loads from this module (`pair_number` computes a number, not a goal).
RELATIONS = ("arrangemento",)


def pair_number(a: int, b: int, people: int) -> int:
    """The number (0..n(n-1)/2 - 1) of the unordered pair {a, b} of people 1..n."""
    a, b = min(a, b), max(a, b)
    return (a - 1) * people - (a - 1) * a // 2 + (b - a - 1)


def arrangemento(days: Any, design: Design = PRISONERS, symmetry: Symmetry | str = Symmetry.CANONICAL) -> GoalType:
    """arrangemento(?days, +design, +symmetry): True iff days (d lists of n people in walking
    order) is an arrangement of `design` in the model `symmetry`. Terminates (finite domains)."""
    design.check()
    symmetry = Symmetry(symmetry)
    n, r, d = design.people, design.row, design.day_count
    if not isinstance(days, (list, tuple)) or len(days) != d or any(
            not isinstance(day, (list, tuple)) or len(day) != n for day in days):
        raise InputError(f"arrangemento: days must be {d} lists of {n} people (ints or variables)")
    pair_table = [(a, b, pair_number(a, b, n)) for a, b in itertools.permutations(range(1, n + 1), 2)]
    goals = []
    meetings = []
    for day in days:
        goals += [domo(x, range(1, n + 1)) for x in day]
        goals.append(all_differento(list(day)))
        for start in range(0, n, r):
            row = day[start:start + r]
            links = zip(row, row[1:]) if design.pairs == "cuffed" else itertools.combinations(row, 2)
            for x, y in links:
                m = var()
                meetings.append(m)
                goals.append(tableo([x, y, m], pair_table))
    goals.append(all_differento(meetings))
    if symmetry is not Symmetry.NONE:
        goals += [domo(x, [v]) for x, v in zip(days[0], range(1, n + 1))]
        for day in days:
            for start in range(0, n, r):
                goals.append(lto(day[start], day[start + r - 1]))
                if design.pairs == "row":
                    goals += [lto(day[start + i], day[start + i + 1]) for i in range(r - 1)]
            if symmetry is Symmetry.CANONICAL:
                goals += [lto(day[s], day[s + r]) for s in range(0, n - r, r)]
            elif n > r:
                goals += [lto(day[0], day[r]), lto(day[r - 1], day[2 * r - 1])]
    goals.append(labelo([x for day in days for x in day]))
    return conj(*goals)
