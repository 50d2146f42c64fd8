"""A plain filter-per-statement Cheryl solver in the seed's style (Norvig 2015), written here.

Each statement is a predicate on one date that filters sets of dates; "told X" is the set
of dates whose part equals X (a real projection, never substring matching). This is the
baseline `bench_cheryl.py` times beside logicpy's engine, and the tests compare the two
sample by sample. Statement for statement it follows the seed's functions, including the
seed's reading of the complex story's last line (Albert's month intersected with Eve's
statement alone).
"""

from __future__ import annotations

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")


def month(d):
    return d[0]


def day(d):
    return d[1]


def firsts(d):
    return (MONTH_NAMES[d[0] - 1][0], str(d[1])[0])


def nothing(d):
    return ()


class Puzzle:
    """The candidate dates and the statements, as predicates on a date."""

    def __init__(self, dates):
        self.dates = set(dates)

    def told(self, part, value):
        """The dates someone told `value` for `part` would still consider."""
        return {d for d in self.dates if part(d) == value}

    def where(self, candidates, *statements):
        return {d for d in candidates if all(s(d) for s in statements)}

    @staticmethod
    def knows(candidates):
        return len(candidates) == 1

    def albert1(self, d):
        told = self.told(month, month(d))
        return not self.knows(told) and all(not self.knows(self.told(day, day(e))) for e in told)

    def bernard1(self, d):
        told = self.told(day, day(d))
        return not self.knows(told) and self.knows(self.where(told, self.albert1))

    def albert2(self, d):
        return self.knows(self.where(self.told(month, month(d)), self.bernard1))

    def albert2c(self, d):
        return not self.knows(self.where(self.told(month, month(d)), self.bernard1))

    def _eve(self, d, earlier):
        peeked = self.told(firsts, firsts(d))
        return (not self.knows(peeked) and self.knows(self.where(peeked, *earlier))
                and not self.knows(self.where(self.told(nothing, ()), *earlier)))

    def eve1(self, d):
        return self._eve(d, (self.albert1, self.bernard1, self.albert2))

    def eve1c(self, d):
        return self._eve(d, (self.albert1, self.bernard1, self.albert2c))

    def albert3c(self, d):
        return self.knows(self.where(self.told(month, month(d)), self.eve1c))

    def solve(self, story):
        statements = {
            "classic": (self.albert1, self.bernard1, self.albert2),
            "eve": (self.albert1, self.bernard1, self.albert2, self.eve1),
            "complex": (self.albert1, self.bernard1, self.albert2c, self.eve1c, self.albert3c),
        }[story]
        return self.where(self.dates, *statements)


def solutions(dates, story="classic"):
    """The dates for which every statement of the story is true, as (month, day) pairs."""
    return Puzzle((d.month, d.day) if hasattr(d, "month") else tuple(d) for d in dates).solve(story)
