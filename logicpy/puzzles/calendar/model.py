"""Boards and piece sets as values, and their text format.

A `Board` is a set of cells (row, column) with a label on each; a `Piece` is a named set
of cells, used in any rotation or reflection (`orientations`). Nothing here knows what
the labels mean: the calendar's dates are only labels to leave open.

The text format (files `*.board`, `*.pieces`; one parser for both):

    ; a comment (also after a line's content)
    board NAME            or   piece N   (N: one character, the letter in grids)
    ######.               rows: `#` is a cell, `.` is not
    labels Jan Feb ...    boards only: one word per cell, in reading order (may span lines)

Blocks are separated by their header lines; blank lines are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from ...inputs import read_text

__all__ = ["Cell", "Board", "Piece", "orientations", "parse_board", "parse_pieces", "load_board", "load_pieces",
           "board_text", "pieces_text", "DATA"]

#: The directory of the shipped boards and piece sets.
DATA = Path(__file__).parent / "data"

Cell = tuple[int, int]

#: Characters a piece may not be called: they mean "not on the board" and "open" in grids.
RESERVED = frozenset("x #.;")


@dataclass(frozen=True)
class Piece:
    """A piece: its one-character name and its cells (rows and columns from 0)."""

    name: str
    cells: frozenset[Cell]
    line: int = field(default=0, compare=False)  # where its file defines it (0: not from a file)

    @property
    def area(self) -> int:
        return len(self.cells)

    @classmethod
    def from_rows(cls, name: str, rows: list[str], line: int = 0) -> Piece:
        """A piece from rows of `#` and `.`."""
        return cls(name, frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"), line)

    def rows(self) -> list[str]:
        """The piece as rows of `#` and `.`."""
        return _rows(self.cells)


def _normal(cells) -> tuple[Cell, ...]:
    """Cells moved to touch row 0 and column 0, sorted."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def orientations(piece: Piece) -> list[tuple[Cell, ...]]:
    """Every distinct rotation and reflection of the piece, normalised, in a fixed order."""
    found: dict = {}
    cells = list(piece.cells)
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]  # a quarter turn
            found.setdefault(_normal(cells), None)
        cells = [(r, -c) for r, c in cells]  # a mirror
    return list(found)


def _rows(cells) -> list[str]:
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    return ["".join("#" if (r, c) in cells else "." for c in range(width)).rstrip(".") for r in range(height)]


@dataclass(frozen=True)
class Board:
    """A board: its name, its cells in reading order, and one label per cell."""

    name: str
    cells: tuple[Cell, ...]
    labels: tuple[str, ...]
    _by_label: dict = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.cells):
            raise InputError(f"board {self.name}: {len(self.cells)} cells but {len(self.labels)} labels")
        by_label: dict = {}
        for cell, label in zip(self.cells, self.labels):
            if label in by_label:
                raise InputError(f"board {self.name}: label {label!r} is used twice")
            by_label[label] = cell
        object.__setattr__(self, "_by_label", by_label)

    @classmethod
    def from_rows(cls, name: str, rows: list[str], labels: list[str] | None = None) -> Board:
        """A board from rows of `#` and `.`; labels default to "row,column" (from 1)."""
        cells = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")
        return cls(name, cells, tuple(labels) if labels is not None else tuple(f"{r + 1},{c + 1}" for r, c in cells))

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    def cell(self, label: str) -> Cell:
        """The cell with this label (InputError naming the board otherwise)."""
        try:
            return self._by_label[label]
        except KeyError:
            raise InputError(f"board {self.name} has no cell labelled {label!r}") from None

    def label(self, cell: Cell) -> str:
        return self.labels[self.cells.index(cell)]

    def rows(self) -> list[str]:
        return _rows(set(self.cells))


# -- the text format ---------------------------------------------------------------------------

@dataclass
class _Block:
    kind: str
    name: str
    line: int
    rows: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def _blocks(text: str, source: str) -> list[_Block]:
    blocks: list[_Block] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        where = f"{source}:{number}"
        words = line.split()
        if words[0] in ("board", "piece"):
            if len(words) != 2:
                raise InputError(f"{where}: expected `{words[0]} NAME`, got {line!r}")
            blocks.append(_Block(words[0], words[1], number))
        elif words[0] == "labels":
            if not blocks or blocks[-1].kind != "board":
                raise InputError(f"{where}: `labels` belongs after a board's rows")
            blocks[-1].labels.extend(words[1:])
        elif set(line) <= {"#", "."}:
            if not blocks:
                raise InputError(f"{where}: rows before any `board NAME` or `piece NAME` line")
            if blocks[-1].labels:
                raise InputError(f"{where}: a row after the labels of board {blocks[-1].name}")
            blocks[-1].rows.append(line)
        else:
            bad = next(ch for ch in line if ch not in "#.")
            raise InputError(f"{where}: unexpected {bad!r} in {line!r} (rows use `#` for a cell and `.` for none; "
                             "other lines start with board, piece or labels)")
    return blocks


def parse_board(text: str, source: str = "<board>") -> Board:
    """The one board of a board file's text; errors name `source` and the line."""
    blocks = _blocks(text, source)
    boards = [b for b in blocks if b.kind == "board"]
    if len(boards) != 1 or len(blocks) != 1:
        line = blocks[1].line if len(blocks) > 1 else 1
        raise InputError(f"{source}:{line}: a board file holds exactly one `board NAME` block")
    block = boards[0]
    if not any("#" in row for row in block.rows):
        raise InputError(f"{source}:{block.line}: board {block.name} has no cell")
    cells = sum(row.count("#") for row in block.rows)
    if block.labels and len(block.labels) != cells:
        raise InputError(f"{source}:{block.line}: board {block.name} has {cells} cells but "
                         f"{len(block.labels)} labels")
    try:
        return Board.from_rows(block.name, block.rows, block.labels or None)
    except InputError as exc:
        raise InputError(f"{source}:{block.line}: {exc}") from None


def parse_pieces(text: str, source: str = "<pieces>") -> tuple[Piece, ...]:
    """The pieces of a piece file's text; errors name `source` and the line."""
    pieces: list[Piece] = []
    blocks = _blocks(text, source)
    if not blocks:
        raise InputError(f"{source}:1: no `piece NAME` block")
    for block in blocks:
        where = f"{source}:{block.line}"
        if block.kind != "piece":
            raise InputError(f"{where}: a piece file holds `piece NAME` blocks only")
        if len(block.name) != 1 or block.name in RESERVED:
            raise InputError(f"{where}: piece name {block.name!r} must be one character other than x # . ;")
        if any(p.name == block.name for p in pieces):
            raise InputError(f"{where}: piece {block.name} is defined twice")
        piece = Piece.from_rows(block.name, block.rows, block.line)
        if not piece.cells:
            raise InputError(f"{where}: piece {block.name} has no cell")
        pieces.append(piece)
    return tuple(pieces)


def load_board(path: str | Path) -> Board:
    """A board from a file (see the module docstring for the format)."""
    return parse_board(read_text(path), str(path))


def load_pieces(path: str | Path) -> tuple[Piece, ...]:
    """A piece set from a file (see the module docstring for the format)."""
    return parse_pieces(read_text(path), str(path))


def board_text(board: Board) -> str:
    """A board in the text format (read back by `parse_board`)."""
    return "\n".join([f"board {board.name}", *board.rows(), "labels " + " ".join(board.labels)]) + "\n"


def pieces_text(pieces: tuple[Piece, ...]) -> str:
    """A piece set in the text format (read back by `parse_pieces`)."""
    return "\n".join("\n".join([f"piece {p.name}", *p.rows()]) + "\n" for p in pieces)
