"""Tilings as a relation of logicpy's core, for queries in every direction.

`tilingo(open, grid, puzzle)` holds when `grid` (rows of letters: a piece's name on its
cells, ' ' on open cells, 'x' off the board, as `Tiling.grid()` writes them) is a tiling of
`puzzle` (the A-Puzzle-A-Day board by default) leaving open exactly the cells labelled
`open` (a list in the board's reading order). Open labels given: their tilings, lazily. A
grid given: it is checked as a cover of the puzzle's exact-cover problem and its open labels
read off. Neither: every tiling of the board, whatever it leaves open. The search is the
core's `exact_covero` on the puzzle's own problem, so it takes turns with other goals.

    >>> from logicpy.core import run, var
    >>> g = var()
    >>> run(1, g, tilingo(["Oct", "6"], g))
    (['GGAAAAx', 'GGA DDx', 'GGDDD C', 'HEEECCC', 'HFFECBB', 'HHFEBBB', 'HFFxxxx'],)
    >>> d = var()
    >>> run(0, d, tilingo(d, ['GGAAAAx', 'GGA DDx', 'GGDDD C', 'HEEECCC', 'HFFECBB', 'HHFEBBB', 'HFFxxxx']))
    (['Oct', '6'],)

From the toplevel: `use_module('logicpy.puzzles.calendar.relations').`, then
`tilingo(['Oct', '6'], G).` or `tilingo(['Apr', '8', 'Thu'], G, weekday).`
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kanren.core import GoalType

from ...core import exact_covero, reify, unify, var
from ...core.streams import PAUSE
from ...core.terms import variables_in
from ...errors import InputError, shown
from .model import orientations
from .solve import Puzzle, _problem, _tiling

__all__ = ["tilingo"]


def _puzzle(puzzle: Puzzle | None) -> Puzzle:
    """The puzzle a relation is about: `puzzle`, or the A-Puzzle-A-Day board for None."""
    if puzzle is None:
        from . import STANDARD

        return STANDARD
    if not isinstance(puzzle, Puzzle):
        raise InputError(f"tilingo: the puzzle must be a calendar Puzzle (standard, weekday, or one loaded with "
                         f"load_puzzle), got {shown(puzzle)}")
    return puzzle


def _ground(term: Any) -> bool:
    """True iff `term` (reified) holds no variable."""
    return next(variables_in(term), None) is None


def _open_markers(puzzle: Puzzle, labels: Any) -> dict | None:
    """{("open", j): option} pinning the open markers that leave exactly `labels` open, in the
    board's reading order; None if no tiling can leave them open."""
    board = puzzle.board
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        return None
    where = dict(zip(board.labels, board.cells))
    if len(labels) != puzzle.open_count or any(label not in where for label in labels):
        return None
    cells = [where[label] for label in labels]
    if [board.cells.index(c) for c in cells] != sorted({board.cells.index(c) for c in cells}):
        return None  # not in reading order, or a label twice
    return {("open", j): ("open", j, cell) for j, cell in enumerate(cells, 1)}


def _cover_of(puzzle: Puzzle, grid: Any) -> list | None:
    """The options of the puzzle's exact-cover problem that a letter grid shows, if it shows a cover."""
    board = puzzle.board
    if not isinstance(grid, list) or len(grid) != board.height or not all(
            isinstance(row, str) and len(row) == board.width for row in grid):
        return None
    cells: dict[str, list] = {}
    for r, row in enumerate(grid):
        for c, letter in enumerate(row):
            cells.setdefault(letter, []).append((r, c))
    chosen: list[Any] = []
    for piece in puzzle.pieces:
        placed = cells.pop(piece.name, [])
        if not placed:
            return None
        top, left = min(r for r, _ in placed), min(c for _, c in placed)
        for k, shape in enumerate(orientations(piece)):
            t, l = top - min(r for r, _ in shape), left - min(c for _, c in shape)
            if {(t + r, l + c) for r, c in shape} == set(placed):
                chosen.append(("place", piece.name, k, t, l))
    blank = set(cells.pop(" ", []))
    open_cells = [cell for cell in board.cells if cell in blank]
    chosen += [("open", j, cell) for j, cell in enumerate(open_cells, 1)]
    return chosen if set(cells) <= {"x"} and _problem(puzzle).is_cover(chosen) else None


def tilingo(open: Any, grid: Any, puzzle: Puzzle | None = None) -> GoalType:
    """tilingo(?open, ?grid, +puzzle): True iff `grid` is a tiling of `puzzle` leaving open exactly
    the cells labelled `open` (in reading order). Terminates always (finitely many tilings)."""
    puzzle = _puzzle(puzzle)
    problem = _problem(puzzle)

    def tilingo_goal(S: Any) -> Iterator[Any]:
        known_grid = reify(grid, S)
        if _ground(known_grid):  # check mode: one cover or none
            cover = _cover_of(puzzle, known_grid)
            if cover is not None:
                S = unify(open, list(_tiling(puzzle, tuple(cover)).open_labels()), S)
                if S is not False:
                    yield S
            return
        known_open = reify(open, S)
        at: dict = {}
        if _ground(known_open):
            markers = _open_markers(puzzle, known_open)
            if markers is None:
                return
            at = markers
        chosen = var()
        for state in exact_covero(chosen, problem, at=at)(S):
            if state is PAUSE:
                yield PAUSE
                continue
            tiling = _tiling(puzzle, tuple(reify(chosen, state)))
            state = unify(open, list(tiling.open_labels()), state)
            if state is not False:
                state = unify(grid, tiling.grid(), state)
            if state is not False:
                yield state

    return tilingo_goal
