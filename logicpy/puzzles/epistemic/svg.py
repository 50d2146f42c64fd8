"""A survival chart as SVG: one row per candidate, one column per moment, filled while possible."""

from __future__ import annotations

from html import escape

import numpy as np

from .solve import Result, secret_at

__all__ = ["render_svg"]

CELL, LABEL, HEAD = 26, 190, 60


def render_svg(result: Result, limit: int = 40) -> str:
    """The candidates that lasted longest (at most `limit`), and at which statement each fell."""
    story, steps = result.story, result.steps
    lasted = np.zeros(len(story.worlds), dtype=np.int32)
    for step in steps:
        lasted += step.after
    order = np.argsort(-lasted, kind="stable")[:limit]
    width = LABEL + CELL * (len(steps) + 1) + 10
    height = HEAD + CELL * len(order) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           'font-size="12">',
           f'<text x="6" y="18" font-weight="bold">{escape(story.name)}</text>']
    columns = ["start"] + [f"{k}. {step.statement.speaker}" for k, step in enumerate(steps, 1)]
    for c, title in enumerate(columns):
        x = LABEL + CELL * c + CELL // 2
        out.append(f'<text transform="translate({x},{HEAD - 6}) rotate(-45)">{escape(title[:16])}</text>')
    for r, world in enumerate(order):
        y = HEAD + CELL * r
        label = story.show(secret_at(story.worlds, world))
        out.append(f'<text x="{LABEL - 6}" y="{y + 17}" text-anchor="end">{escape(label[:28])}</text>')
        for c in range(len(steps) + 1):
            alive = c <= lasted[world]
            solution = lasted[world] == len(steps)
            fill = ("#2e7d32" if solution else "#81c784") if alive else "#eeeeee"
            title = f"{label}: {'possible' if alive else 'ruled out'} at {columns[c]}"
            out.append(f'<rect x="{LABEL + CELL * c}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'fill="{fill}"><title>{escape(title)}</title></rect>')
    hidden = len(story.worlds) - len(order)
    if hidden > 0:
        out.append(f'<text x="6" y="{height - 10}">… and {hidden:,} candidates that fell earlier</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
