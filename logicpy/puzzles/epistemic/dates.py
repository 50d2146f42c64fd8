"""Dates as secrets: `MonthDay(month, day)`, parsed from "July 16" with errors naming the culprit."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ...errors import InputError
from ...inputs import read_text, read_json
from ..months import MONTH_DAYS, MONTH_NAMES, month_number

__all__ = ["MonthDay", "MONTHS", "parse_date", "parse_dates", "dates_from_text", "read_dates"]

MONTHS = MONTH_NAMES
_DATE = re.compile(r"^\s*([A-Za-z]+)\.?\s+(\d{1,2})\s*$")


@dataclass(frozen=True, order=True)
class MonthDay:
    """A day of the year: month number 1-12 and day of the month (one term for kanren, not a tuple)."""

    month: int
    day: int

    def __str__(self) -> str:
        return f"{MONTHS[self.month - 1]} {self.day}"

    def __repr__(self) -> str:
        return f"MonthDay({self.month}, {self.day})"


def parse_date(text: str, where: str = "") -> MonthDay:
    """'July 16' (or 'Jul 16') as a MonthDay; anything else is an InputError naming it and `where`."""
    at = f"{where}: " if where else ""
    match = _DATE.match(text)
    if not match:
        raise InputError(f"{at}{text.strip()!r} is not a date like 'July 16'")
    month, day = month_number(match.group(1)), int(match.group(2))
    if month is None:
        raise InputError(f"{at}{text.strip()!r}: unknown month {match.group(1)!r}")
    if not 1 <= day <= MONTH_DAYS[month - 1]:
        raise InputError(f"{at}{text.strip()!r}: {MONTHS[month - 1]} has no day {day}")
    return MonthDay(month, day)


def parse_dates(items: Iterable[tuple[str, str]]) -> tuple[MonthDay, ...]:
    """Dates from (text, where) pairs: at least two, no duplicates (each error names the date)."""
    dates: list[MonthDay] = []
    seen: dict[MonthDay, str] = {}
    for text, where in items:
        date = parse_date(text, where)
        if date in seen:
            raise InputError(f"{where + ': ' if where else ''}duplicate date {str(date)!r} (also {seen[date] or 'earlier'})")
        seen[date] = where
        dates.append(date)
    if len(dates) < 2:
        raise InputError(f"need at least two dates to make a puzzle, got {len(dates)}")
    return tuple(dates)


def dates_from_text(text: str) -> tuple[MonthDay, ...]:
    """'April 17, April 18, …' as Dates (commas or semicolons between them)."""
    parts = [p for p in re.split(r"[,;]", text) if p.strip()]
    return parse_dates((p, f"date {i}") for i, p in enumerate(parts, 1))


def read_dates(path: str) -> tuple[MonthDay, ...]:
    """Dates from a file: one a line (blank lines and # comments skipped), or a .json file holding
    a list of dates or an object with "dates" (what `logicpy cheryl generate --json` writes)."""
    if str(path).lower().endswith(".json"):
        data = read_json(path)
        items = data.get("dates") if isinstance(data, dict) else data
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise InputError(f'{path}: expected a list of dates or {{"dates": [...]}} as strings')
        return parse_dates((item, f"{path}: date {n}") for n, item in enumerate(items, 1))
    lines = read_text(path).splitlines()
    return parse_dates((line, f"{path}:{n}") for n, line in enumerate(lines, 1)
                       if line.strip() and not line.lstrip().startswith("#"))
