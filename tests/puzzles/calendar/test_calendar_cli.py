"""`logicpy calendar`: grids then the count, JSON, --first, --count, SVG, bad input, --all."""

from __future__ import annotations

import json

import pytest

from logicpy.cli import main


def run_cli(capsys, *argv):
    code = main(["calendar", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_date_prints_every_grid_then_the_count(capsys):
    code, out, err = run_cli(capsys, "10", "6")
    lines = out.splitlines()
    assert code == 0 and lines[0].count("x") == 7 and len(lines[0].split("  ")) == 7
    assert "October 6: 7 solutions" in out and lines[-1].startswith("verified: each tiling")
    assert "ms (CPU)" in err


@pytest.mark.parametrize("words", [["Oct", "6"], ["october", "6"], ["2026-10-06"]])
def test_date_forms_on_the_command_line(capsys, words):
    code, out, _ = run_cli(capsys, *words, "--count")
    assert code == 0 and "October 6: 7 solutions" in out


def test_json_first_and_count(capsys):
    code, out, _ = run_cli(capsys, "10", "6", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["date"] == "10-06" and doc["count"] == 7 and len(doc["solutions"]) == 7
    assert all(len(grid) == 7 and grid[-1].endswith("xxxx") for grid in doc["solutions"])
    code, out, _ = run_cli(capsys, "Jan", "25", "--first", "--json")
    doc = json.loads(out)
    assert doc["count"] == 216 and len(doc["solutions"]) == 1
    code, out, _ = run_cli(capsys, "Jan", "25", "--count", "--json")
    assert json.loads(out) == {"status": "ok", "command": "calendar", "board": "a-puzzle-a-day", "date": "01-25",
                               "open": ["Jan", "25"], "count": 216, "real": True, "solutions": None}


def test_a_date_not_in_any_calendar_is_solved_and_flagged(capsys):
    code, out, _ = run_cli(capsys, "Feb", "30", "--first")
    assert code == 0 and "February 30: 34 solutions (the first shown)" in out
    assert "not a real date" in out


@pytest.mark.parametrize("words, culprit", [
    (["13", "5"], "month 13"), (["10", "32"], "day 32"), (["Octobr", "6"], "Octobr"), (["0", "5"], "month 0"),
    ([""], "no date given"), (["10", "6", "--board", "nope"], "--board nope"),
    (["10", "6", "--first", "--count"], "choose one"), (["--board", "weekday", "10", "6"], "weekday"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, words, culprit):
    code, out, err = run_cli(capsys, *words)
    assert code == 2 and culprit in err and err.count("\n") == 1 and not out


def test_bad_board_file_names_file_and_line(capsys, tmp_path):
    board = tmp_path / "b.board"
    board.write_text("board b\n###\n#?#\n")
    code, _, err = run_cli(capsys, "--board", str(board), "--open", "1,1")
    assert code == 2 and f"{board}:3:" in err


def test_custom_board_and_open_cells(capsys, tmp_path):
    (tmp_path / "b.board").write_text("board b\n####\n####\n###.\nlabels a b c d e f g h i j k\n")
    (tmp_path / "b.pieces").write_text("piece L\n##\n#.\n#.\n\npiece T\n###\n.#.\n")
    code, out, _ = run_cli(capsys, "--board", str(tmp_path / "b.board"), "--open", "a,b,c")
    assert code == 1 and "no solution" in out
    code, out, _ = run_cli(capsys, "--board", str(tmp_path / "b.board"), "--open", "b,d,h")
    assert code == 0 and "verified" in out


def test_svg_labels_the_open_cells(capsys, tmp_path):
    path = tmp_path / "oct6.svg"
    code, _, _ = run_cli(capsys, "10", "6", "--first", "--svg", str(path))
    svg = path.read_text()
    assert code == 0 and svg.startswith("<svg") and ">Oct</text>" in svg and ">6</text>" in svg
    assert svg.count("<rect") == 43 and "October 6" in svg


def test_weekday_board(capsys):
    code, out, _ = run_cli(capsys, "--board", "weekday", "2026-10-06", "--first")
    assert code == 0 and "Tue October 6" in out and "verified" in out


def test_all_needs_a_two_open_calendar_board(capsys):
    code, _, err = run_cli(capsys, "--all", "--board", "weekday")
    assert code == 2 and "leaves 3" in err


@pytest.mark.slow
def test_all_and_fewest(capsys):
    code, out, _ = run_cli(capsys, "--all", "--json")
    doc = json.loads(out)
    assert code == 0 and len(doc["dates"]) == 366 and doc["total"] == 24405 and doc["any_two_open"] == 59787
    assert doc["fewest"] == {"count": 7, "dates": ["10-06"]} and doc["most"] == {"count": 216, "dates": ["01-25"]}
    assert doc["dates"]["10-06"] == 7 and doc["not_real"]["02-30"] == 34
    code, out, _ = run_cli(capsys, "--fewest")
    assert out.splitlines()[0] == "fewest: 7 (October 6)"


def test_saved_json_reads_back_and_verifies(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "10", "6", "--json")
    path = tmp_path / "oct6.json"
    path.write_text(out)
    code, out, _ = run_cli(capsys, "--verify", str(path))
    assert code == 0 and out.startswith("verified: 7 solutions leaving Oct, 6 open")
    doc = json.loads(path.read_text())
    doc["solutions"][2][0] = doc["solutions"][2][0].replace("A", "G", 1)
    path.write_text(json.dumps(doc))
    code, out, _ = run_cli(capsys, "--verify", str(path))
    assert code == 1 and out.startswith("solution 3: NOT verified")
    path.write_text("{}")
    code, _, err = run_cli(capsys, "--verify", str(path))
    assert code == 2 and "not a `logicpy calendar --json` result" in err


def test_a_tiling_shows_itself_as_svg_in_a_notebook():
    from logicpy.puzzles.calendar import STANDARD, tilings

    svg = next(tilings(STANDARD, ("Feb", "29")))._repr_svg_()
    assert svg.startswith("<svg") and ">Feb</text>" in svg and ">29</text>" in svg
