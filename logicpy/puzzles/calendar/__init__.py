"""The calendar date puzzle ("A-Puzzle-A-Day"): place every piece on the board so that the
only cells left open show today's date.

Vocabulary (concept -> Python):

- `Board`: cells (row, column) with a label each ("Jan", "6", "Tue"); `Piece`: a named set
  of cells, used in any rotation or reflection (`orientations`). Both are values and
  files in a small text format (`parse_board`, `load_pieces`, ...; see `model`).
- `Puzzle`: a board and its pieces; it leaves `open_count` cells open.
- `Tiling`: one solution (the cells of each piece, the open cells); `.grid()` is its
  letter grid ('x' off the board, ' ' open), and a notebook shows it as an SVG picture.
- `Date`: a month and a day (and a weekday if known) and the labels they leave open
  (`parse_date`): the only place that knows about months.

Use: `solve(puzzle, labels)` -> `Result`, `count(puzzle, labels)`, `count_all(puzzle)` (every
set of open cells in one search), `verify(puzzle, grid, labels)` (the independent check, cell
by cell), `relations.tilingo` (tilings as a relation, for queries in every direction). `STANDARD` is
the A-Puzzle-A-Day board and its eight pieces, `WEEKDAY` the board with weekdays and its ten pieces.
"""

from .dates import Date, parse_date, real_dates
from .model import DATA, Board, Piece, load_board, load_pieces, orientations, parse_board, parse_pieces
from .solve import Puzzle, Result, Tiling, count, count_all, solve, tilings
from .verify import verify

__all__ = [
    "Board", "Piece", "orientations", "parse_board", "parse_pieces", "load_board", "load_pieces",
    "Puzzle", "Tiling", "Result", "solve", "tilings", "count", "count_all",
    "verify", "Date", "parse_date", "real_dates", "load_puzzle",
    "STANDARD", "WEEKDAY", "BOARDS",
]


def load_puzzle(board: str, pieces: str | None = None) -> Puzzle:
    """A puzzle from a board file and a piece file (by default the board's name with `.pieces`)."""
    from pathlib import Path

    pieces = pieces or str(Path(board).with_suffix(".pieces"))
    return Puzzle(load_board(board), load_pieces(pieces), pieces)


#: Shipped boards by name: A-Puzzle-A-Day's and the one with weekdays.
BOARDS = {"standard": DATA / "a-puzzle-a-day.board", "weekday": DATA / "weekday.board"}
#: The A-Puzzle-A-Day board (months and days, 43 cells) and its eight pieces A-H.
STANDARD = load_puzzle(str(BOARDS["standard"]))
#: The board with weekdays (50 cells) and its ten pieces.
WEEKDAY = load_puzzle(str(BOARDS["weekday"]))
