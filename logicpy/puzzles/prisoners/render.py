"""Arrangements as text, JSON and SVG, and who walks beside whom (`neighbours`)."""

from __future__ import annotations

from html import escape
from typing import Any

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
    (a band round each row when pairs share a row), like ProB's picture of the puzzle."""
    days = arrangement.days
    if design is None:
        rows, row = len(days[0]), len(days[0][0])
        design = Design(rows * row, row, len(days), "cuffed")
    step, gap, top, left = 46, 30, 30, 70
    row_w = design.row * step
    width = left + design.rows_per_day * (row_w + gap)
    height = top + len(days) * 80
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           f'<title>{escape(design.describe())}</title>']
    for k, day in enumerate(days):
        y = top + k * 80 + 30
        out.append(f'<text x="8" y="{y + 5}" font-weight="bold">day {k + 1}</text>')
        for j, members in enumerate(day):
            x0 = left + j * (row_w + gap) + step // 2
            if design.pairs == "row":
                out.append(f'<rect x="{x0 - 20}" y="{y - 26}" width="{(design.row - 1) * step + 40}" height="52" '
                           f'rx="14" fill="#eef3fb" stroke="#7a90b0"/>')
            for i in range(design.row - 1):
                if design.pairs == "cuffed":
                    xa, xb = x0 + i * step + 9, x0 + (i + 1) * step - 9
                    out.append(f'<line x1="{xa}" y1="{y + 4}" x2="{xb}" y2="{y + 4}" stroke="#555" '
                               f'stroke-width="3" stroke-dasharray="5 3"/>')
            for i, person in enumerate(members):
                x = x0 + i * step
                out.append(f'<circle cx="{x}" cy="{y - 12}" r="7" fill="#c9a27e" stroke="#333"/>'
                           f'<rect x="{x - 8}" y="{y - 4}" width="16" height="20" rx="4" '
                           f'fill="#f2f2f2" stroke="#333"/>'
                           f'<text x="{x}" y="{y + 28}" text-anchor="middle">{person}</text>')
    out.append("</svg>")
    return "\n".join(out)
