"""A survival chart as SVG: one row per candidate, one column per moment, filled while possible."""

from __future__ import annotations

import math

import numpy as np

from ...svgtext import ASCENT, DESCENT, Picture, text_width
from .solve import Result, secret_at

__all__ = ["render_svg"]

#: A cell's side, and the gap between a label and the grid (px).
CELL, GAP = 26, 8


def render_svg(result: Result, limit: int = 40) -> str:
    """The candidates that lasted longest (at most `limit`), and at which statement each fell."""
    story, steps = result.story, result.steps
    size = 12
    lasted = np.zeros(len(story.worlds), dtype=np.int32)
    for step in steps:
        lasted += step.after
    order = np.argsort(-lasted, kind="stable")[:limit]
    columns = ["start"] + [f"{k}. {step.statement.speaker}" for k, step in enumerate(steps, 1)]
    labels = [story.show(secret_at(story.worlds, world)) for world in order]
    pic = Picture(size=size)
    pic.text(0, ASCENT * size, story.name, bold=True)
    # column titles rise at 45° from above their column: the grid starts below the tallest
    rise = max(text_width(title, size) for title in columns) * math.sqrt(0.5) + size
    head = (ASCENT + DESCENT) * size + GAP + rise + GAP
    left = max([text_width(label, size) for label in labels] + [0]) + GAP
    for c, title in enumerate(columns):
        pic.text(left + CELL * c + CELL / 2 - 2, head - GAP, title, angle=-45)
    for r, (world, label) in enumerate(zip(order, labels)):
        y = head + CELL * r
        pic.text(left - GAP, y + CELL / 2 + 3, label, anchor="end")
        for c in range(len(columns)):
            alive = c <= lasted[world]
            solution = lasted[world] == len(steps)
            fill = ("#2e7d32" if solution else "#81c784") if alive else "#eeeeee"
            pic.rect(left + CELL * c, y, CELL - 2, CELL - 2, fill=fill,
                     title=f"{label}: {'possible' if alive else 'ruled out'} at {columns[c]}")
    hidden = len(story.worlds) - len(order)
    if hidden > 0:
        pic.text(0, head + CELL * len(order) + 8 + ASCENT * size, f"… and {hidden:,} candidates that fell earlier")
    return pic.svg()
