"""Counting arguments and the frontier count: the mutilated chessboard at once, pieces of one
shape counted by dynamic programming and checked against the exact cover; dates a year lacks;
--verify checking distinct grids and the count."""

from __future__ import annotations

import json
import math
import string

import pytest
from hypothesis import given, settings, strategies as st

from logicpy.cli import main
from logicpy.puzzles.calendar import Board, Piece, Puzzle, count, parse_date, solve
from logicpy.puzzles.calendar.solve import _problem, _markers, colouring_obstruction, frontier_count

DOMINO = ["##"]
NAMES = string.ascii_uppercase + string.ascii_lowercase.replace("x", "")


def rect(height: int, width: int) -> Board:
    return Board.from_rows(f"{height}x{width}", ["#" * width] * height,
                           [f"c{r * width + c}" for r in range(height) for c in range(width)])


def pieces(*shapes: list[str]) -> tuple[Piece, ...]:
    return tuple(Piece.from_rows(NAMES[i], rows) for i, rows in enumerate(shapes))


def exact_cover_count(puzzle: Puzzle, labels: tuple[str, ...]) -> int:
    return _problem(puzzle).count(include=_markers(puzzle, labels))


def test_the_mutilated_chessboard_has_no_tiling_by_the_colouring_argument():
    puzzle = Puzzle(rect(8, 8), pieces(*[DOMINO] * 31))
    corners = [puzzle.board.cell("c0"), puzzle.board.cell("c63")]
    assert "chessboard colouring" in colouring_obstruction(puzzle, corners)
    assert count(puzzle, ("c0", "c63")) == 0
    assert solve(puzzle, ("c0", "c63"), limit=1).count == 0
    # Two cells of opposite colours open: 12,988,816 / 2 tilings hold the corner domino flat,
    # each named in 31! ways.
    assert count(puzzle, ("c0", "c1")) == 12_988_816 // 2 * math.factorial(31)


@pytest.mark.parametrize("height, width, shapes, labels", [
    (4, 4, [DOMINO] * 7, ("c0", "c5")),
    (4, 4, [DOMINO] * 7, ("c0", "c1")),
    (3, 4, [["##", "#"], ["##", "#"], DOMINO, DOMINO], ("c0", "c11")),
    (3, 5, [["###"], ["###"], ["##", "#"], ["##", "#"]], ("c0", "c7", "c14")),
    (4, 4, [["##", "##"], DOMINO, DOMINO, DOMINO, ["###"], ["#"]], ("c3", "c12")),
])
def test_frontier_count_equals_the_exact_cover(height, width, shapes, labels):
    puzzle = Puzzle(rect(height, width), pieces(*shapes))
    cells = [puzzle.board.cell(label) for label in labels]
    want = exact_cover_count(puzzle, labels)
    assert frontier_count(puzzle, cells) == want
    assert count(puzzle, labels) == want


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_colouring_argument_never_refuses_a_tileable_board(data):
    height, width = data.draw(st.integers(2, 4)), data.draw(st.integers(2, 4))
    shapes = data.draw(st.lists(st.sampled_from([DOMINO, ["#"], ["###"], ["##", "#"], ["##", "##"]]),
                                min_size=1, max_size=6))
    area = sum(sum(row.count("#") for row in s) for s in shapes)
    if area > height * width:
        return
    open_count = height * width - area
    labels = tuple(data.draw(st.lists(st.sampled_from([f"c{i}" for i in range(height * width)]),
                                      min_size=open_count, max_size=open_count, unique=True)))
    puzzle = Puzzle(rect(height, width), pieces(*shapes))
    why = colouring_obstruction(puzzle, [puzzle.board.cell(label) for label in labels])
    if why is not None:
        assert exact_cover_count(puzzle, labels) == 0, why


def board_files(tmp_path, n: int):
    (tmp_path / "big8.board").write_text("board big8\n" + "########\n" * 8 + "labels " +
                                         " ".join(f"c{i}" for i in range(64)) + "\n")
    (tmp_path / "dominoes.pieces").write_text("".join(f"piece {NAMES[i]}\n##\n" for i in range(n)))
    return ["--board", str(tmp_path / "big8.board"), "--pieces", str(tmp_path / "dominoes.pieces")]


def test_the_mutilated_chessboard_command_answers_at_once(capsys, tmp_path):
    files = board_files(tmp_path, 31)
    assert main(["calendar", *files, "--open", "c0,c63", "--count"]) == 1
    assert "no solution (chessboard colouring" in capsys.readouterr().out
    assert main(["calendar", *files, "--open", "c0,c1", "--count", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 12_988_816 // 2 * math.factorial(31)
    assert main(["calendar", *files, "--open", "c0,c1"]) == 2  # too many to list
    assert "more than the 10,000 a listing prints; use --count or --first" in capsys.readouterr().err
    assert main(["calendar", *files, "--open", "c0,c1", "--first"]) == 0


def test_a_date_its_year_lacks_is_not_real(capsys):
    assert not parse_date("2023-02-29").real and parse_date("2024-02-29").real
    assert not parse_date("2026-04-31").real and parse_date("Feb 29").real
    assert main(["calendar", "2023-02-29", "--count", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["date"], doc["real"], doc["count"]) == ("02-29", False, 64)
    assert main(["calendar", "2023-02-29", "--count"]) == 0
    assert "2023 has no February 29" in capsys.readouterr().out
    assert main(["calendar", "--board", "weekday", "2023-02-29"]) == 2
    err = capsys.readouterr().err
    assert "2023-02-29: not a real date, so it has no weekday" in err and "give a full date" not in err


@pytest.mark.parametrize("words, culprit", [
    (["2", "30x"], "day '30x': not a number"), (["30x", "2"], "month '30x'"), (["0000-01-01"], "year 0"),
])
def test_bad_dates_name_the_culprit(capsys, words, culprit):
    assert main(["calendar", *words]) == 2
    assert culprit in capsys.readouterr().err


def test_verify_checks_distinct_grids_and_the_count(capsys, tmp_path):
    assert main(["calendar", "10", "6", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["count"] == 7 and len(doc["solutions"]) == 7
    cases = {
        "repeated": ({**doc, "count": 8, "solutions": doc["solutions"] + doc["solutions"][:1]},
                     "the same grid as solution 1"),
        "overcounted": ({**doc, "count": 9}, '"count" says 9, but leaving Oct, 6 open has 7'),
        "too many listed": ({**doc, "count": 6}, '7 solutions listed, but "count" says 6'),
    }
    for name, (bad, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad))
        assert main(["calendar", "--verify", str(path)]) == 1, name
        assert message in capsys.readouterr().out, name
    first = tmp_path / "first.json"
    assert main(["calendar", "Jan", "25", "--first", "--json"]) == 0
    first.write_text(capsys.readouterr().out)  # one grid of 216: a --first result verifies
    assert main(["calendar", "--verify", str(first)]) == 0
    assert "the count 216 checked" in capsys.readouterr().out


@pytest.mark.parametrize("doc, message", [
    ({"open": "Oct", "count": 0, "solutions": []}, '"open" is not a list of labels'),
    ({"open": ["Oct", "6"], "count": 0, "solutions": {"a": 1}}, '"solutions" is not a list of grids'),
    ({"open": ["Oct", "6"], "count": float("inf"), "solutions": []}, '"count" is inf'),
    ({"open": ["Oct", "6"], "count": True, "solutions": []}, '"count" is True'),
])
def test_verify_refuses_a_file_of_the_wrong_shape(capsys, tmp_path, doc, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["calendar", "--verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
