"""The independent check of a printed solution: reads the letter grid cell by cell.

It shares no code with the solver: it recomputes each piece's shapes itself and looks only
at the grid's characters, the board's cells and the labels that must stay open.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Board, Piece

__all__ = ["Verification", "verify_grid"]


@dataclass
class Verification:
    """Whether a grid is a solution, and every problem found."""

    ok: bool
    problems: list[str] = field(default_factory=list)


def _shape(cells) -> frozenset:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def _shapes(cells) -> set:
    """The piece's cells under the 8 symmetries of the square, each moved to the origin."""
    result = set()
    for flip in (1, -1):
        for turns in range(4):
            moved = []
            for r, c in cells:
                c *= flip
                for _ in range(turns):
                    r, c = c, -r
                moved.append((r, c))
            result.add(_shape(moved))
    return result


def verify_grid(board: Board, pieces: tuple[Piece, ...], grid: list[str], open_labels: tuple[str, ...]) -> Verification:
    """Check a letter grid: 'x' exactly off the board, ' ' exactly on the open labels' cells, and each
    piece's letter on a set of cells that is one rotation or reflection of that piece."""
    problems: list[str] = []
    cells = set(board.cells)
    open_cells = {cell for cell, label in zip(board.cells, board.labels) if label in open_labels}
    if len(open_cells) != len(set(open_labels)):
        problems.append(f"labels {', '.join(open_labels)} are not all on the board")
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    if len(grid) != height or any(len(row) != width for row in grid):
        return Verification(False, [f"the grid is not {height} rows of {width} characters"])
    where: dict[str, set] = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            cell = (r, c)
            if cell not in cells:
                if ch != "x":
                    problems.append(f"row {r + 1}, column {c + 1}: {ch!r} off the board")
            elif cell in open_cells:
                if ch != " ":
                    problems.append(f"row {r + 1}, column {c + 1}: {ch!r} on an open cell")
            elif ch in (" ", "x"):
                problems.append(f"row {r + 1}, column {c + 1}: board cell left uncovered")
            else:
                where.setdefault(ch, set()).add(cell)
    names = {p.name: p for p in pieces}
    for letter in sorted(set(where) - set(names)):
        problems.append(f"letter {letter!r} is not a piece")
    for name, piece in names.items():
        placed = where.get(name)
        if not placed:
            problems.append(f"piece {name} is not placed")
        elif _shape(placed) not in _shapes(piece.cells):
            problems.append(f"piece {name}'s cells are not the piece in any rotation or reflection")
    return Verification(not problems, problems)
