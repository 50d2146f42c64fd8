"""Designs and arrangements: who walks with whom, day by day, and what a valid one must satisfy.

A `Design` is n people walking in rows of r on d days; a pair *meets* on a day when the two
are cuffed (adjacent in their row, `pairs="cuffed"`, Dudeney's prisoners) or share a row
(`pairs="row"`, Kirkman's schoolgirls). A design is *complete* when d days hold exactly as
many meetings as there are pairs: then every pair meets exactly once; with fewer days every
pair meets at most once (4- and 5-day weeks of the nine prisoners).

An `Arrangement` is the days, each a tuple of rows, each a tuple of people (1..n).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterator

from ...errors import InputError, NoSolution

__all__ = ["Design", "Arrangement", "Symmetry", "PRISONERS", "KIRKMAN", "row_pairs", "canonical_day"]

Row = tuple[int, ...]
Day = tuple[Row, ...]
Pair = tuple[int, int]


class Symmetry(str, Enum):
    """Which arrangements count as different (see `--help` and the README)."""

    CANONICAL = "canonical"  # day 1 = 1-2-3 / 4-5-6 / …; each row first < last; row starts increasing
    PROB = "prob"            # the classic ProB model: day 1 fixed; rows first < last; row 1 before row 2 on first AND last
    NONE = "none"            # every permutation of every day counts


@dataclass(frozen=True)
class Arrangement:
    """Days of rows of people; `days[k][j]` is row j of day k+1, listed as it walks."""

    days: tuple[Day, ...]
    design: Design | None = field(default=None, compare=False)

    def _repr_svg_(self) -> str:
        """A notebook shows an arrangement as its picture."""
        from .render import svg

        return svg(self, self.design)


def row_pairs(row: Row, pairs: str) -> list[Pair]:
    """The pairs that meet in `row`: adjacent ones when cuffed, all of them when sharing a row."""
    if pairs == "row":
        return [(min(a, b), max(a, b)) for a, b in itertools.combinations(row, 2)]
    return [(min(a, b), max(a, b)) for a, b in zip(row, row[1:])]


def canonical_day(day: Day, pairs: str) -> Day:
    """The day with each row read first < last (ascending when `pairs="row"`) and rows by first person."""
    rows = [tuple(sorted(r)) if pairs == "row" else (r if r[0] < r[-1] else r[::-1]) for r in day]
    return tuple(sorted(rows))


@dataclass(frozen=True)
class Design:
    """n people in rows of r for d days (None: as many as a complete design needs), meeting as `pairs` says."""

    people: int = 9
    row: int = 3
    days: int | None = 6
    pairs: str = "cuffed"

    def __post_init__(self) -> None:
        if self.pairs not in ("cuffed", "row"):
            raise InputError(f"--pairs: {self.pairs!r} is not one of cuffed, row")
        if self.people < 2:
            raise InputError(f"--people: {self.people} is too few (a pair needs 2)")
        if self.row < 2:
            raise InputError(f"--row: {self.row} is too short (a row of fewer than 2 holds no pair)")
        if self.people % self.row:
            raise InputError(f"--row: rows of {self.row} do not divide {self.people} people")
        if self.days is not None and self.days < 1:
            raise InputError(f"--days: {self.days} (need at least 1 day)")
        if self.pairs == "row" and self.row == 2:
            object.__setattr__(self, "pairs", "cuffed")  # the same design: a row of 2 is one cuff

    @property
    def rows_per_day(self) -> int:
        return self.people // self.row

    @property
    def pairs_per_day(self) -> int:
        """Meetings on one day."""
        per_row = self.row - 1 if self.pairs == "cuffed" else self.row * (self.row - 1) // 2
        return self.rows_per_day * per_row

    @property
    def all_pairs(self) -> int:
        return self.people * (self.people - 1) // 2

    @property
    def day_count(self) -> int:
        """The number of days (a complete design's when `days` is None; `check()` says if there is none)."""
        return self.days if self.days is not None else self.all_pairs // self.pairs_per_day

    @property
    def complete(self) -> bool:
        """True iff every pair must meet exactly once (else at most once)."""
        return self.day_count * self.pairs_per_day == self.all_pairs

    def describe(self) -> str:
        how = "cuffed to" if self.pairs == "cuffed" else "in a row with"
        each = "exactly once" if self.complete else "at most once"
        return (f"{self.people} people in rows of {self.row} for {self.day_count} days, "
                f"each pair {how} each other {each}")

    def check(self) -> None:
        """Raise `NoSolution` with the reason when counting alone shows the design cannot exist."""
        n, r, ppd, total = self.people, self.row, self.pairs_per_day, self.all_pairs
        how = "cuffed pairs" if self.pairs == "cuffed" else "pairs sharing a row"
        if self.days is None and total % ppd:
            raise NoSolution(f"no such design: {total} pairs of {n} people cannot be split into days of "
                             f"{ppd} {how} ({total} is not a multiple of {ppd})")
        d = self.day_count
        if d * ppd > total:
            raise NoSolution(f"no such design: {d} days of {ppd} {how} make {d * ppd} meetings, "
                             f"but {n} people have only {total} pairs")
        if self.pairs == "row":
            if d * (r - 1) > n - 1:
                raise NoSolution(f"no such design: each person meets {r - 1} others a day, {d * (r - 1)} "
                                 f"in {d} days, but has only {n - 1} others")
            if self.complete and (n - 1) % (r - 1):
                raise NoSolution(f"no such design: each person meets {r - 1} others a day, and "
                                 f"{n - 1} others is not a multiple of {r - 1}")
        else:
            most = 1 if r == 2 else 2
            if d > n - 1:
                raise NoSolution(f"no such design: each person is cuffed to someone new every day, "
                                 f"{d} days need {d} partners, but there are only {n - 1}")
            if self.complete and n - 1 > d * most:
                raise NoSolution(f"no such design: each person is cuffed to at most {most} a day, "
                                 f"{d * most} in {d} days, but must meet {n - 1}")

    def first_day(self) -> Day:
        """Day 1 of the canonical and ProB models: 1-2-…-r, r+1-…-2r, …"""
        return tuple(tuple(range(s, s + self.row)) for s in range(1, self.people + 1, self.row))

    def rows(self) -> Iterator[Row]:
        """Every row up to reading it backwards (cuffed) or in any order (row): the search's row options."""
        for combo in itertools.combinations(range(1, self.people + 1), self.row):
            if self.pairs == "row":
                yield combo
            else:
                yield from _paths(combo)

    def partitions_count(self) -> int:
        """How many different days there are (partitions into rows, rows read either way / in any order)."""
        return math.factorial(self.people) // self.orderings_per_day()

    def orderings_per_day(self) -> int:
        """How many sequences of people walk one unordered day (row orders × readings of each row)."""
        k = self.rows_per_day
        per_row = 2 if self.pairs == "cuffed" else math.factorial(self.row)
        return math.factorial(k) * per_row ** k


def _paths(members: Row) -> Iterator[Row]:
    """Each path through `members` once, read so that its first person is below its last."""
    for perm in itertools.permutations(members):
        if perm[0] < perm[-1]:
            yield perm


PRISONERS = Design(9, 3, 6, "cuffed")
KIRKMAN = Design(15, 3, 7, "row")
