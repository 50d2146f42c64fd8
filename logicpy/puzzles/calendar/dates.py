"""Dates as the calendar puzzle reads them: a month and a day, turned into the two labels to
leave open ("Oct", "6"). The only place that knows about months."""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from dataclasses import dataclass

from ...errors import InputError
from ..months import MONTH_DAYS, MONTH_NAMES, month_number

__all__ = ["Date", "parse_date", "MONTHS", "WEEKDAYS", "real_dates", "board_dates"]

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True, order=True)
class Date:
    """A month (1-12) and a day (1-31) as the board shows them, with a weekday (0 = Monday) if known,
    and the year when one was given."""

    month: int
    day: int
    weekday: int | None = None
    year: int | None = None

    @property
    def real(self) -> bool:
        """True iff the date exists: in its year when one was given (2023-02-29 does not), else in
        some year (February 29 counts; February 30 does not)."""
        if self.year is not None:
            return self.day <= calendar.monthrange(self.year, self.month)[1]
        return self.day <= MONTH_DAYS[self.month - 1]

    def labels(self, weekday: bool = False) -> tuple[str, ...]:
        """The board labels to leave open: month and day, and the weekday when asked."""
        if not weekday:
            return (MONTHS[self.month - 1], str(self.day))
        if self.weekday is None and self.year is not None:
            raise InputError(f"{self.year}-{self.month:02d}-{self.day:02d}: not a real date, so it has no weekday; "
                             f"give --weekday to solve the weekday board's {self} anyway")
        if self.weekday is None:
            raise InputError(f"{self}: the weekday board needs a weekday: give a full date (2026-10-06), "
                             "`today`, or --weekday")
        return (MONTHS[self.month - 1], str(self.day), WEEKDAYS[self.weekday])

    def key(self) -> str:
        """MM-DD, the date's key in JSON."""
        return f"{self.month:02d}-{self.day:02d}"

    def __str__(self) -> str:
        text = f"{MONTH_NAMES[self.month - 1]} {self.day}"
        return f"{WEEKDAYS[self.weekday]} {text}" if self.weekday is not None else text


def _month(word: str) -> int:
    if word.isdigit():
        month = int(word)
        if not 1 <= month <= 12:
            raise InputError(f"month {word}: months are 1-12")
        return month
    number = month_number(word)
    if number is not None:
        return number
    raise InputError(f"month {word!r}: not a month (a number 1-12, or a name such as Oct or October)")


def _day(word: str) -> int:
    if not word.isdigit():
        raise InputError(f"day {word!r}: not a number")
    day = int(word)
    if not 1 <= day <= 31:
        raise InputError(f"day {word}: days are 1-31")
    return day


def parse_date(text: str, today: _dt.date | None = None) -> Date:
    """A date from `10 6`, `Oct 6`, `october 6`, `6 Oct`, `2026-10-06` or `today`.

    Dates the board shows but no calendar has (February 30), and full dates their year lacks
    (2023-02-29), are accepted (`real` is False); anything else that is not a date is an
    InputError naming the culprit.

    >>> parse_date("october 6"), parse_date("Feb 30").real
    (Date(month=10, day=6, weekday=None, year=None), False)
    >>> str(parse_date("2026-10-06")), parse_date("2023-02-29").real
    ('Tue October 6', False)
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("no date given (try `10 6`, `Oct 6`, `2026-10-06` or `today`)")
    if len(words) == 1 and words[0].lower() == "today":
        now = today or _dt.date.today()
        return Date(now.month, now.day, now.weekday())
    if len(words) == 1:
        iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", words[0])
        if not iso:
            raise InputError(f"date {text!r}: give a month and a day (`10 6`, `Oct 6`) or YYYY-MM-DD")
        year, month, day = int(iso[1]), _month(iso[2]), _day(iso[3])
        if not 1 <= year:
            raise InputError(f"date {text!r}: year {year} is out of range (1-9999)")
        date = Date(month, day, None, year)
        # February 30, or February 29 of a common year: solved, flagged as not real
        return Date(month, day, _dt.date(year, month, day).weekday(), year) if date.real else date
    if len(words) != 2:
        raise InputError(f"date {text!r}: give a month and a day (`10 6`, `Oct 6`) or YYYY-MM-DD")
    first, second = words
    if not first.isdigit() and second.isdigit():
        return Date(_month(first), _day(second))
    if first.isdigit() and not second.isdigit() and month_number(second) is not None:
        return Date(_month(second), _day(first))  # 6 Oct
    return Date(_month(first), _day(second))


def board_dates() -> list[Date]:
    """Every month-day pair the standard board shows (12 × 31, real or not), in calendar order."""
    return [Date(m, d) for m in range(1, 13) for d in range(1, 32)]


def real_dates() -> list[Date]:
    """The 366 real dates (a leap year's)."""
    return [d for d in board_dates() if d.real]
