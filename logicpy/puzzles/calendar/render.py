"""Renderings: letter grids side by side, the month × day table of counts, and SVG."""

from __future__ import annotations

from html import escape

from .dates import MONTHS, Date
from .solve import Tiling

__all__ = ["render_grids", "render_table", "render_svg", "PALETTE"]

#: Piece colours in piece order (colour-blind-safe first eight, then repeats darker).
PALETTE = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#ee8866",
           "#332288", "#117733", "#882255", "#999933")


def render_grids(grids: list[list[str]], per_band: int = 8) -> str:
    """Grids (lists of rows) side by side, `per_band` to a band, bands separated by a blank line."""
    bands = []
    for start in range(0, len(grids), per_band):
        band = grids[start:start + per_band]
        bands.append("\n".join("  ".join(rows) for rows in zip(*band)))
    return "\n\n".join(bands)


def render_table(counts: dict[Date, int]) -> str:
    """Solutions per date: a row per month, a column per day; '-' where the board date is not real."""
    lines = ["     " + "".join(f"{d:>4}" for d in range(1, 32))]
    for month in range(1, 13):
        cells = []
        for day in range(1, 32):
            date = Date(month, day)
            cells.append(f"{counts.get(date, 0):>4}" if date.real else "   -")
        lines.append(f"{MONTHS[month - 1]:<5}" + "".join(cells))
    return "\n".join(lines)


def render_svg(tiling: Tiling, title: str | None = None) -> str:
    """The tiling as an SVG picture: coloured pieces, their outlines, the open cells labelled."""
    board = tiling.puzzle.board
    size, margin = 48, 8
    colour = {p.name: PALETTE[i % len(PALETTE)] for i, p in enumerate(tiling.puzzle.pieces)}
    owner = {cell: name for name, cells in tiling.placements for cell in cells}
    width, height = board.width * size + 2 * margin, board.height * size + 2 * margin + (28 if title else 0)
    top = margin + (28 if title else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="18">{escape(title)}</text>')
    for cell, label in zip(board.cells, board.labels):
        x, y = margin + cell[1] * size, top + cell[0] * size
        name = owner.get(cell)
        fill = colour[name] if name else "#ffffff"
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="#dddddd"/>')
        if name is None:
            out.append(f'<text x="{x + size / 2}" y="{y + size / 2 + 6}" text-anchor="middle" font-size="17" '
                       f'font-weight="bold">{escape(label)}</text>')
    # outlines: a thick line wherever two neighbouring cells belong to different pieces (or the edge)
    on_board = set(board.cells)
    for r, c in board.cells:
        x, y = margin + c * size, top + r * size
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y, x + size, y)), ((1, 0), (x, y + size, x + size, y + size)),
                                           ((0, -1), (x, y, x, y + size)), ((0, 1), (x + size, y, x + size, y + size))):
            other = (r + dr, c + dc)
            if other not in on_board or owner.get(other) != owner.get((r, c)):
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#222222" stroke-width="3" '
                           'stroke-linecap="round"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
