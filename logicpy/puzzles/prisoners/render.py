"""Arrangements as text, JSON and SVG, and who walks beside whom (`neighbours`)."""

from __future__ import annotations

from typing import Any

from ...svgtext import Picture, text_width
from .model import Arrangement, Design, Symmetry

__all__ = ["text", "to_json", "from_json", "neighbours", "svg"]


def text(arrangement: Arrangement, design: Design) -> str:
    """One line per day: `day 1: 1-2-3  4-5-6  7-8-9`."""
    sep = "-" if design.pairs == "cuffed" else " "
    width = len(str(design.day_count))
    return "\n".join(f"day {k:>{width}}: " + "  ".join(sep.join(map(str, row)) for row in day)
                     for k, day in enumerate(arrangement.days, 1))


def neighbours(arrangement: Arrangement, design: Design, person: int) -> list[list[int]]:
    """For each day, who is cuffed to (or shares a row with) `person`, ascending."""
    out = []
    for day in arrangement.days:
        row = next(r for r in day if person in r)
        at = row.index(person)
        near = row[max(at - 1, 0):at + 2] if design.pairs == "cuffed" else row
        out.append(sorted(p for p in near if p != person))
    return out


def to_json(arrangement: Arrangement, design: Design, symmetry: Symmetry) -> dict[str, Any]:
    """The arrangement with its design and model; `from_json` reads it back."""
    return {
        "design": {"people": design.people, "row": design.row, "days": design.day_count, "pairs": design.pairs},
        "symmetry": symmetry.value,
        "days": [[list(row) for row in day] for day in arrangement.days],
        "complete": design.complete,
    }


def from_json(data: Any) -> tuple[Design, Symmetry, list]:
    """(design, symmetry, days) of an object written by `to_json` (or just {"days": …}: nine prisoners)."""
    from ...errors import InputError

    if not isinstance(data, dict) or not isinstance(data.get("days"), list):
        raise InputError('an arrangement must be a JSON object with a "days" list')
    spec = data.get("design", {})
    try:
        design = Design(int(spec.get("people", 9)), int(spec.get("row", 3)), int(spec.get("days", len(data["days"]))),
                        str(spec.get("pairs", "cuffed")))
        symmetry = Symmetry(data.get("symmetry", "none"))
    except (TypeError, ValueError) as exc:
        raise InputError(f"arrangement: bad design or symmetry: {exc}") from None
    return design, symmetry, data["days"]


def svg(arrangement: Arrangement, design: Design | None = None) -> str:
    """The days as rows of figures, left to right, with a cuff drawn between cuffed neighbours
    (a band round each row, its members' numbers inside, when pairs share a row), like ProB's
    picture of the puzzle."""
    days = arrangement.days
    if design is None:
        rows, row = len(days[0]), len(days[0][0])
        design = Design(rows * row, row, len(days), "cuffed")
    size = 13
    widest = max(text_width(str(p), size) for day in days for r in day for p in r)
    # figures as far apart as the widest number needs; a band reaches past its end numbers
    step, gap, band = max(46.0, widest + 12), 30, design.pairs == "row"
    reach = max(20.0, widest / 2 + 6)
    left = max(text_width(f"day {len(days)}", size, bold=True), 40) + 16
    row_w = (design.row - 1) * step
    pic = Picture(size=size, margin=8)
    for k, day in enumerate(days):
        y = k * 80 + 30
        pic.text(0, y + 5, f"day {k + 1}", bold=True)
        for j, members in enumerate(day):
            x0 = left + reach + j * (row_w + 2 * reach + gap)
            if band:  # the row's band holds its figures and their numbers
                pic.open()
                pic.rect(x0 - reach, y - 26, row_w + 2 * reach, 62, rx=14, fill="#eef3fb", stroke="#7a90b0")
            else:
                for i in range(design.row - 1):
                    pic.line(x0 + i * step + 9, y + 4, x0 + (i + 1) * step - 9, y + 4, stroke="#555",
                             stroke_width=3, stroke_dasharray="5 3")
            for i, person in enumerate(members):
                x = x0 + i * step
                pic.circle(x, y - 12, 7, fill="#c9a27e", stroke="#333")
                pic.rect(x - 8, y - 4, 16, 20, rx=4, fill="#f2f2f2", stroke="#333")
                pic.text(x, y + 30, str(person), anchor="middle")
            if band:
                pic.close()
    return pic.svg(title=design.describe())
