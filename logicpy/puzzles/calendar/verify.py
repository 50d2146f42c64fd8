"""The independent check of a printed solution: reads the letter grid cell by cell.

It shares no code with the solver: it recomputes each piece's shapes itself and looks only
at the grid's characters, the board's cells and the labels that must stay open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from ..verification import Verification

if TYPE_CHECKING:
    from .solve import Puzzle

__all__ = ["verify"]


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


def verify(puzzle: "Puzzle", grid: Sequence[str], open_labels: Iterable[str]) -> Verification:
    """Check a letter grid (as `Tiling.grid()` and `--json` write it) against `puzzle` with
    `open_labels` open: 'x' exactly off the board, ' ' exactly on the open labels' cells, and
    each piece's letter on a set of cells that is one rotation or reflection of that piece.

    >>> from logicpy.puzzles.calendar import STANDARD
    >>> verify(STANDARD, ["x" * 7] * 6, ("Oct", "6")).problems
    ('the grid is not 7 rows of 7 characters',)
    """
    board, pieces, open_labels = puzzle.board, puzzle.pieces, tuple(open_labels)
    checked = f"the tiling checked cell by cell ({', '.join(open_labels)} open)"
    problems: list[str] = []
    cells = set(board.cells)
    open_cells = {cell for cell, label in zip(board.cells, board.labels) if label in open_labels}
    if len(open_cells) != len(set(open_labels)):
        problems.append(f"labels {', '.join(open_labels)} are not all on the board")
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    if not all(isinstance(row, str) for row in grid) or len(grid) != height or any(len(row) != width for row in grid):
        return Verification.of([*problems, f"the grid is not {height} rows of {width} characters"], checked)
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
    return Verification.of(problems, checked)
