"""Solving a board and piece set as one exact-cover problem (`logicpy.core.cover`).

Items: every piece (placed exactly once) and every cell (covered once, by a piece or by
an *open marker*). A board with n cells and pieces of total area a leaves k = n - a cells
open; the open markers 1..k are options too, one per cell, and marker j+1 must stand on a
later cell than marker j (secondary "order" items), so each set of open cells is counted
once. Asking for given open cells includes their markers; asking for every set of open
cells at once is one `count_by` over the markers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from ...core.cover import ExactCover
from ...errors import InputError
from .model import Board, Cell, Piece, orientations

__all__ = ["Puzzle", "Tiling", "Result", "solve", "count", "count_all", "colouring_obstruction", "frontier_count",
           "COLOURINGS"]


@dataclass(frozen=True)
class Puzzle:
    """A board and the pieces to place on it, every piece exactly once."""

    board: Board
    pieces: tuple[Piece, ...]
    pieces_source: str = "<pieces>"

    def __post_init__(self) -> None:
        names = [p.name for p in self.pieces]
        if len(set(names)) != len(names):
            raise InputError(f"{self.pieces_source}: two pieces share a name")
        total, cells = 0, len(self.board.cells)
        for piece in self.pieces:
            if not piece.cells:
                raise InputError(f"{self.pieces_source}:{piece.line}: piece {piece.name} has no cell")
            total += piece.area
            if total > cells:
                raise InputError(f"{self.pieces_source}:{piece.line}: the pieces up to {piece.name} cover {total} "
                                 f"cells, more than the {cells} of board {self.board.name}")

    @property
    def open_count(self) -> int:
        """How many cells every solution leaves open."""
        return len(self.board.cells) - sum(p.area for p in self.pieces)


@dataclass(frozen=True)
class Tiling:
    """One solution: the cells of each piece (by name), and the open cells."""

    puzzle: Puzzle
    placements: tuple[tuple[str, frozenset], ...]
    open: tuple[Cell, ...]

    def grid(self) -> list[str]:
        """Rows of letters: a piece's name on its cells, ' ' on open cells, 'x' off the board."""
        board = self.puzzle.board
        rows = [["x"] * board.width for _ in range(board.height)]
        for cell in self.open:
            rows[cell[0]][cell[1]] = " "
        for name, cells in self.placements:
            for r, c in cells:
                rows[r][c] = name
        return ["".join(row) for row in rows]

    def open_labels(self) -> tuple[str, ...]:
        return tuple(self.puzzle.board.label(c) for c in self.open)

    def _repr_svg_(self) -> str:  # a notebook shows a tiling as its picture
        from .render import render_svg

        return render_svg(self)


@dataclass(frozen=True)
class Result:
    """The solutions (all, or the first `limit`) leaving `open` labels uncovered, and how many there are."""

    open: tuple[str, ...]
    tilings: tuple[Tiling, ...]
    count: int

    #: Tilings a notebook draws before "… and N more".
    SHOWN = 6

    def __repr__(self) -> str:
        return (f"Result(open={', '.join(self.open)}: {self.count:,} solution{'s' if self.count != 1 else ''}, "
                f"{len(self.tilings):,} kept)")

    def _repr_html_(self) -> str:
        """The first tilings drawn side by side, and how many more there are."""
        import html

        pictures = "".join(f"<div style='display:inline-block;margin:4px'>{t._repr_svg_()}</div>"
                           for t in self.tilings[:self.SHOWN])
        more = len(self.tilings) - self.SHOWN
        tail = f"<p><em>… and {more:,} more</em></p>" if more > 0 else ""
        title = html.escape(f"open {', '.join(self.open)}: {self.count:,} solution{'s' if self.count != 1 else ''}")
        return f"<p><strong>{title}</strong></p>{pictures}{tail}"


def _piece_item(name: str) -> tuple:
    return ("piece", name)


@functools.lru_cache(maxsize=8)
def _problem(puzzle: Puzzle) -> ExactCover:
    """The exact-cover problem of a puzzle, with open markers (built once per puzzle)."""
    board = puzzle.board
    on_board = set(board.cells)
    options: dict = {}
    for piece in puzzle.pieces:
        for k, shape in enumerate(orientations(piece)):
            for top in range(board.height):
                for left in range(board.width):
                    cells = [(top + r, left + c) for r, c in shape]
                    if all(cell in on_board for cell in cells):
                        options[("place", piece.name, k, top, left)] = [_piece_item(piece.name), *cells]
    k = puzzle.open_count
    order: list[tuple[str, int, int]] = []
    for j in range(1, k + 1):
        for i, cell in enumerate(board.cells):
            items: list[Any] = [("open", j), cell]
            if j > 1:
                items.append(("after", j - 1, i))  # clashes with marker j-1 on cell i or later
            if j < k:
                items.extend(("after", j, e) for e in range(i + 1))
            options[("open", j, cell)] = items
        if j < k:
            order.extend(("after", j, i) for i in range(len(board.cells)))
    primary = [_piece_item(p.name) for p in puzzle.pieces] + list(board.cells) + [("open", j) for j in range(1, k + 1)]
    return ExactCover(options, secondary=order, primary=primary)


def _markers(puzzle: Puzzle, labels: Iterable[str]) -> list[tuple]:
    """The open markers that leave exactly these labelled cells open."""
    board = puzzle.board
    cells = sorted({board.cell(label) for label in labels}, key=board.cells.index)
    if len(cells) != puzzle.open_count:
        raise InputError(f"board {board.name} with these pieces leaves {puzzle.open_count} cells open; "
                         f"{len(cells)} given ({', '.join(labels) or 'none'})")
    return [("open", j, cell) for j, cell in enumerate(cells, 1)]


def _tiling(puzzle: Puzzle, cover: tuple) -> Tiling:
    placements, open_cells = [], []
    for name in cover:
        if name[0] == "place":
            placements.append((name[1], frozenset(_problem(puzzle).items_of(name)[1:])))
        else:
            open_cells.append(name[2])
    return Tiling(puzzle, tuple(placements), tuple(open_cells))


def tilings(puzzle: Puzzle, open_labels: Iterable[str]) -> Iterator[Tiling]:
    """Every solution leaving these labelled cells open, lazily."""
    markers = _markers(puzzle, open_labels)
    if colouring_obstruction(puzzle, [m[2] for m in markers]) is not None:
        return
    for cover in _problem(puzzle).covers(include=markers):
        yield _tiling(puzzle, cover)


def solve(puzzle: Puzzle, open_labels: Iterable[str], limit: int | None = None) -> Result:
    """The solutions leaving these labelled cells open (the first `limit` only, if given) and their count.

    A piece set with pieces of one shape is counted first (by `count`): when it has no
    solution the search for one is not started."""
    open_labels = tuple(open_labels)
    if _has_twins(puzzle) and count(puzzle, open_labels) == 0:
        return Result(open_labels, (), 0)
    found = []
    for tiling in tilings(puzzle, open_labels):
        found.append(tiling)
        if limit is not None and len(found) >= limit:
            break
    n = len(found) if limit is None or len(found) < limit else count(puzzle, open_labels)
    return Result(open_labels, tuple(found), n)


def count(puzzle: Puzzle, open_labels: Iterable[str], progress: Callable[[float], None] | None = None) -> int:
    """How many solutions leave these labelled cells open (counted, not built).

    First the colouring check (`colouring_obstruction`: no solution when it fails). A piece
    set with pieces of one shape (31 dominoes) is counted by `frontier_count`, once per
    arrangement of shapes, times the ways to name the pieces of each shape; the others by
    the exact cover's memoised count, `progress(fraction)` as it goes."""
    markers = _markers(puzzle, open_labels)
    open_cells = [m[2] for m in markers]
    if colouring_obstruction(puzzle, open_cells) is not None:
        return 0
    if _has_twins(puzzle):
        return frontier_count(puzzle, open_cells)
    if progress is None:
        return _problem(puzzle).count(include=markers)
    groups = _problem(puzzle).count_by([("open", 1)], include=markers, progress=progress)
    return sum(groups.values())


#: Colourings of the cells for the parity check: the chessboard, alternate rows, alternate columns.
COLOURINGS = {"chessboard": lambda r, c: (r + c) % 2, "row": lambda r, c: r % 2, "column": lambda r, c: c % 2}


def _placements(puzzle: Puzzle, piece: Piece) -> list[tuple[Cell, ...]]:
    """Every placement of `piece` on the board (cells), any rotation or reflection."""
    board, on_board = puzzle.board, set(puzzle.board.cells)
    out = []
    for shape in orientations(piece):
        for top in range(board.height):
            for left in range(board.width):
                cells = tuple((top + r, left + c) for r, c in shape)
                if all(cell in on_board for cell in cells):
                    out.append(cells)
    return out


def colouring_obstruction(puzzle: Puzzle, open_cells: Iterable[Cell]) -> str | None:
    """Why no solution leaves `open_cells` open by a counting argument, or None.

    For each two-colouring of `COLOURINGS`, a placement covers some number of dark cells
    minus light ones; the pieces' placements must add up to the cells to cover. When no
    choice of one placement per piece reaches that sum (a subset-sum over the pieces), no
    tiling exists: the mutilated chessboard (two opposite corners open, 31 dominoes, each
    covering one dark and one light cell, 30 dark and 32 light to cover) fails at once."""
    open_set = set(open_cells)
    covered = [cell for cell in puzzle.board.cells if cell not in open_set]
    places = {p.name: _placements(puzzle, p) for p in puzzle.pieces}
    for name, colour in COLOURINGS.items():
        def excess(cells: Iterable[Cell]) -> int:
            return sum(1 if colour(r, c) else -1 for r, c in cells)

        target = excess(covered)
        reachable = {0}
        for piece in puzzle.pieces:
            values = {excess(cells) for cells in places[piece.name] if not open_set.intersection(cells)}
            reachable = {a + b for a in reachable for b in values}
        if target not in reachable:
            return (f"{name} colouring: the cells to cover have {target:+d} dark over light, which no placement "
                    "of the pieces adds up to")
    return None


def _shape_key(piece: Piece) -> tuple:
    return min(orientations(piece))


def _has_twins(puzzle: Puzzle) -> bool:
    """Whether two pieces have one shape (up to rotation and reflection)."""
    return len({_shape_key(p) for p in puzzle.pieces}) < len(puzzle.pieces)


def frontier_count(puzzle: Puzzle, open_cells: Iterable[Cell]) -> int:
    """The number of solutions leaving `open_cells` open, by dynamic programming on the frontier.

    Cells are filled in reading order: the first uncovered cell must be the first cell (in
    reading order) of some placement; a state is the set of covered cells (everything before
    the first uncovered cell is covered, so it is a frontier) and how many pieces of each shape
    are left, and its count is remembered. Pieces of one shape are placed as one kind; each
    arrangement of shapes is then named in Π (pieces of a shape)! ways."""
    board = puzzle.board
    order = sorted(board.cells)
    bit = {cell: 1 << i for i, cell in enumerate(order)}
    full = (1 << len(order)) - 1
    kinds: dict[tuple, list[Piece]] = {}
    for piece in puzzle.pieces:
        kinds.setdefault(_shape_key(piece), []).append(piece)
    groups = list(kinds.values())
    # anchored[k][i]: masks of the placements of shape k whose first cell is order[i]
    anchored: list[dict[int, list[int]]] = []
    for group in groups:
        by_first: dict[int, list[int]] = {}
        for cells in _placements(puzzle, group[0]):
            first = min(cells)
            by_first.setdefault(order.index(first), []).append(sum(bit[c] for c in cells))
        anchored.append(by_first)
    start = sum(bit[c] for c in open_cells)
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def fill(covered: int, left: tuple[int, ...]) -> int:
        if covered == full:
            return 1 if not any(left) else 0
        key = (covered, left)
        known = memo.get(key)
        if known is not None:
            return known
        free = ~covered & full
        i = (free & -free).bit_length() - 1
        total = 0
        for k, n in enumerate(left):
            if n:
                rest = left[:k] + (n - 1,) + left[k + 1:]
                for mask in anchored[k].get(i, ()):
                    if not mask & covered:
                        total += fill(covered | mask, rest)
        memo[key] = total
        return total

    ways = fill(start, tuple(len(g) for g in groups))
    return ways * math.prod(math.factorial(len(g)) for g in groups)


def count_all(puzzle: Puzzle, progress: Callable[[float], None] | None = None) -> dict[tuple[str, ...], int]:
    """{open labels: number of solutions} for every set of open cells that has a solution, in one
    search (`ExactCover.count_by` over the open markers); `progress(fraction)` as it goes."""
    board = puzzle.board
    markers = [("open", j) for j in range(1, puzzle.open_count + 1)]
    groups = _problem(puzzle).count_by(markers, progress=progress)
    return {tuple(board.label(name[2]) for name in names): n for names, n in groups.items()}
