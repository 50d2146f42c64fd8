"""The calendar puzzle: the seed's answers, counts, the verifier, dates, the text format."""

from __future__ import annotations

import datetime
import itertools

import pytest

from logicpy.errors import InputError
from logicpy.puzzles.calendar import (
    STANDARD,
    WEEKDAY,
    Board,
    Piece,
    Puzzle,
    count,
    count_all,
    orientations,
    parse_board,
    parse_date,
    parse_pieces,
    real_dates,
    solve,
    tilings,
    verify,
)
from logicpy.puzzles.calendar.model import board_text, pieces_text

#: The seed (002, the APL program): `Date 10 6` prints these 7 solutions.
SEED_OCTOBER_6 = [
    ["HHHHBBx", "DDH BBx", "CDDDB A", "CCCAAAA", "EFCFGGG", "EFFFGGG", "EEExxxx"],
    ["GGAAAAx", "GGF FAx", "GGFFF H", "EEECBHH", "ECCCBBH", "ECDDBBH", "DDDxxxx"],
    ["GGAAAAx", "GGF FAx", "GGFFF H", "EEEDBHH", "ECCDBBH", "ECDDBBH", "CCDxxxx"],
    ["GGAAAAx", "GGA DDx", "GGDDD C", "HHHHCCC", "EFHFCBB", "EFFFBBB", "EEExxxx"],
    ["GGAAAAx", "GGA DDx", "GGDDD C", "HEEECCC", "HFFECBB", "HHFEBBB", "HFFxxxx"],
    ["GGAAAAx", "GGA DDx", "GGDDD H", "CEEEFFH", "CCCEFHH", "BBCEFFH", "BBBxxxx"],
    ["GGAAAAx", "GGA DDx", "GGDDD H", "CCBBFFH", "ECBBFHH", "ECCBFFH", "EEExxxx"],
]


def test_october_6_has_the_seeds_seven_solutions():
    result = solve(STANDARD, ("Oct", "6"))
    assert result.count == 7 == count(STANDARD, ("Oct", "6"))
    assert sorted(t.grid() for t in result.tilings) == sorted(SEED_OCTOBER_6)
    assert all(verify(STANDARD, g, ("Oct", "6")).ok for g in SEED_OCTOBER_6)


@pytest.mark.parametrize("labels", [("Jan", "1"), ("Feb", "29"), ("Jun", "24"), ("Dec", "31"), ("Feb", "30")])
def test_enumeration_count_and_verification_agree(labels):
    result = solve(STANDARD, labels)
    grids = [t.grid() for t in result.tilings]
    assert len(set(map(tuple, grids))) == len(grids) == result.count == count(STANDARD, labels) > 0
    assert all(verify(STANDARD, g, labels).ok for g in grids)


def test_first_solution_keeps_the_exact_count():
    result = solve(STANDARD, ("Jan", "25"), limit=1)
    assert len(result.tilings) == 1 and result.count == 216


def test_count_all_matches_per_pair_counts_on_a_small_board():
    board = Board.from_rows("small", ["####", "####", "###."])
    pieces = (Piece.from_rows("L", ["##", "#.", "#."]), Piece.from_rows("T", ["###", ".#."]))
    puzzle = Puzzle(board, pieces)
    assert puzzle.open_count == 3
    groups = count_all(puzzle)
    for labels in itertools.combinations(board.labels, 3):
        assert groups.get(labels, 0) == count(puzzle, labels), labels
    assert sum(groups.values()) > 0


@pytest.mark.slow
def test_every_date_in_one_search():
    groups = count_all(STANDARD)
    assert sum(groups.values()) == 59787 and len(groups) == 896
    real = {d: groups[d.labels()] for d in real_dates()}
    assert sum(real.values()) == 24405 and len(real) == 366
    assert min(real.values()) == 7 and max(real.values()) == 216
    assert [d for d, n in real.items() if n == 7] == [parse_date("Oct 6")]


# --- the verifier rejects what is not a solution --------------------------------------------

def test_verifier_rejects_corrupted_grids():
    good = SEED_OCTOBER_6[0]
    labels = ("Oct", "6")
    swapped = [good[0].replace("HHHH", "HHHB", 1), *good[1:]]
    moved_hole = [good[0], "DDHB Bx", *good[2:]]
    off_board = [good[0][:6] + "A", *good[1:]]
    for grid in (swapped, moved_hole, off_board, good[:-1]):
        assert not verify(STANDARD, grid, labels).ok
    assert not verify(STANDARD, good, ("Oct", "7")).ok
    check = verify(STANDARD, swapped, labels)
    assert any("piece H" in p for p in check.problems)


# --- pieces and their orientations --------------------------------------------------------

def test_orientations_of_the_seed_pieces():
    counts = {p.name: len(orientations(p)) for p in STANDARD.pieces}
    assert counts == {"A": 8, "B": 8, "C": 4, "D": 8, "E": 4, "F": 4, "G": 2, "H": 8}
    assert sum(p.area for p in STANDARD.pieces) == 41 and STANDARD.open_count == 2


# --- the weekday board ---------------------------------------------------------------------

#: A published solution for Thu Apr 8 (the Daily-Calendar-Puzzle README by Ankitsrn, pieces
#: 0-9 renamed to this piece set's letters: 0 N, 1 Z, 2 P, 3 U, 4 J, 5 S, 6 L, 7 V, 8 T, 9 I).
PUBLISHED_APR_8_THU = ["NNN ZZx", "PPNNJZx", "PPUUJZZ", " PUJJSS", "VLUUSSI", "VLLLLTI", "VVVTTTI", "xxxx TI"]


def test_weekday_board_accepts_a_published_solution_and_solves_it():
    labels = ("Apr", "8", "Thu")
    assert verify(WEEKDAY, PUBLISHED_APR_8_THU, labels).ok
    assert WEEKDAY.open_count == 3 and len(WEEKDAY.board.cells) == 50
    first = next(tilings(WEEKDAY, labels))
    assert verify(WEEKDAY, first.grid(), labels).ok


# --- dates ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["10 6", "Oct 6", "october 6", "OCT. 6", "6 Oct", "2026-10-06", "10, 6"])
def test_date_forms(text):
    date = parse_date(text)
    assert (date.month, date.day) == (10, 6) and date.labels() == ("Oct", "6")


def test_today_and_weekdays():
    date = parse_date("today", today=datetime.date(2026, 10, 6))
    assert (date.month, date.day, date.weekday) == (10, 6, 1)
    assert date.labels(weekday=True) == ("Oct", "6", "Tue")
    with pytest.raises(InputError, match="weekday"):
        parse_date("10 6").labels(weekday=True)


@pytest.mark.parametrize("text, culprit", [
    ("13 5", "month 13"), ("10 32", "day 32"), ("Octobr 6", "month 'Octobr'"), ("0 5", "month 0"),
    ("", "no date given"), ("2026-13-01", "month 13"), ("Oct six", "day 'six'"), ("1 2 3", "give a month"),
])
def test_bad_dates_name_the_culprit(text, culprit):
    with pytest.raises(InputError, match=culprit):
        parse_date(text)


def test_dates_that_are_not_real():
    assert not parse_date("Feb 30").real and not parse_date("April 31").real
    assert parse_date("Feb 29").real and parse_date("2026-02-30").weekday is None


# --- the text format -----------------------------------------------------------------------

def test_text_format_round_trips():
    assert parse_board(board_text(STANDARD.board)) == STANDARD.board
    assert parse_pieces(pieces_text(STANDARD.pieces)) == STANDARD.pieces


@pytest.mark.parametrize("text, message", [
    ("board b\n##\n#x\n", "b.board:3: unexpected 'x'"),
    ("##\n", "b.board:1: rows before any"),
    ("board b\n##\nlabels a b c\n", "b.board:1: board b has 2 cells but 3 labels"),
    ("board b\n##\nlabels a a\n", "label 'a' is used twice"),
    ("board b\n..\n", "b.board:1: board b has no cell"),
    ("board b c\n##\n", "b.board:1: expected `board NAME`"),
])
def test_board_errors_name_file_and_line(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        parse_board(text, "b.board")


@pytest.mark.parametrize("text, message", [
    ("piece A\n##\n\npiece B\n", "p.pieces:4: piece B has no cell"),
    ("piece AB\n#\n", "p.pieces:1: piece name 'AB'"),
    ("piece x\n#\n", "p.pieces:1: piece name 'x'"),
    ("piece A\n#\npiece A\n#\n", "p.pieces:3: piece A is defined twice"),
    ("; nothing\n", "p.pieces:1: no `piece NAME` block"),
    ("piece A\n#?\n", "p.pieces:2: unexpected '\\?'"),
])
def test_piece_errors_name_file_and_line(text, message):
    with pytest.raises(InputError, match=message):
        parse_pieces(text, "p.pieces")


def test_pieces_that_cannot_fit_are_refused_at_their_line():
    pieces = parse_pieces("piece A\n###\n###\n\npiece B\n####\n", "p.pieces")
    with pytest.raises(InputError, match=r"p.pieces:5: the pieces up to B cover 10 cells, more than the 9"):
        Puzzle(Board.from_rows("b", ["###"] * 3), pieces, "p.pieces")
