"""The months, for the puzzles whose secrets or boards are dates (Cheryl's birthday, the calendar)."""

from __future__ import annotations

__all__ = ["MONTH_NAMES", "MONTH_DAYS", "month_number"]

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
#: Days in each month of a leap year (every day some year has).
MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def month_number(word: str) -> int | None:
    """1-12 for a month's name or a prefix of at least three letters ("Oct", "october",
    "Sept."), in any case; None for anything else.

    >>> month_number("Oct"), month_number("SEPT."), month_number("Ma")
    (10, 9, None)
    """
    word = word.lower().rstrip(".")
    if len(word) < 3:
        return None
    return next((n for n, name in enumerate(MONTH_NAMES, 1) if name.lower().startswith(word)), None)
