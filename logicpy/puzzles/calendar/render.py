"""Renderings: letter grids side by side, the month × day table of counts, and SVG."""

from __future__ import annotations

from ...svgtext import ASCENT, Picture, text_width, wrap
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
    """The tiling as an SVG picture: coloured pieces, their outlines, the open cells labelled;
    a title above, wrapped to the board's width."""
    board = tiling.puzzle.board
    size = 48
    colour = {p.name: PALETTE[i % len(PALETTE)] for i, p in enumerate(tiling.puzzle.pieces)}
    owner = {cell: name for name, cells in tiling.placements for cell in cells}
    pic = Picture(size=17, margin=8)
    top = 0.0
    if title:
        width = max(board.width * size, 240)
        lines = wrap(title, 18, width)
        box = pic.text(board.width * size / 2, ASCENT * 18, lines, size=18, anchor="middle")
        top = box.bottom + 8
    for cell, label in zip(board.cells, board.labels):
        x, y = cell[1] * size, top + cell[0] * size
        name = owner.get(cell)
        pic.open()
        pic.rect(x, y, size, size, fill=colour[name] if name else "#ffffff", stroke="#dddddd")
        if name is None:  # an open cell: its label, shrunk to fit a long one
            fit = min(17.0, 17 * (size - 6) / max(text_width(label, 17, bold=True), 1))
            pic.text(x + size / 2, y + size / 2 + fit * 0.35, label, size=fit, anchor="middle", bold=True)
        pic.close()
    # outlines: a thick line wherever two neighbouring cells belong to different pieces (or the edge)
    on_board = set(board.cells)
    for r, c in board.cells:
        x, y = c * size, top + r * size
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y, x + size, y)), ((1, 0), (x, y + size, x + size, y + size)),
                                           ((0, -1), (x, y, x, y + size)), ((0, 1), (x + size, y, x + size, y + size))):
            other = (r + dr, c + dc)
            if other not in on_board or owner.get(other) != owner.get((r, c)):
                pic.line(x1, y1, x2, y2, stroke="#222222", stroke_width=3, stroke_linecap="round")
    return pic.svg()
