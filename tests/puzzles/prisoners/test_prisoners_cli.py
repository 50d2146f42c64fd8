"""`logicpy prisoners`: printed days and check, JSON read back by --verify, neighbours, SVG,
exit statuses 1 (no such design) and 2 (bad input, one line)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from logicpy.cli import main
from logicpy.puzzles.prisoners import PRISONERS, verify


def run(capsys, *argv):
    code = main(["prisoners", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_prints_six_days_and_the_check(capsys):
    code, out, _ = run(capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "day 1: 1-2-3  4-5-6  7-8-9"
    assert [line.split(":")[0] for line in lines[:6]] == [f"day {k}" for k in range(1, 7)]
    assert lines[6] == "verified: all 36 pairs of the 9 are cuffed together exactly once (canonical model)"
    days = [[[int(p) for p in row.split("-")] for row in line.split(": ")[1].split()] for line in lines[:6]]
    assert verify(PRISONERS, days, "canonical").ok


def test_json_round_trip_and_verify(capsys, tmp_path):
    code, out, _ = run(capsys, "--json", "--symmetry", "prob")
    data = json.loads(out)
    assert code == 0 and len(data["days"]) == 6 and data["symmetry"] == "prob"
    saved = tmp_path / "week.json"
    saved.write_text(out)
    assert run(capsys, "--verify", str(saved))[0] == 0
    data["days"][3][0][0], data["days"][3][1][0] = data["days"][3][1][0], data["days"][3][0][0]
    saved.write_text(json.dumps(data))
    code, out, _ = run(capsys, "--verify", str(saved))
    assert code == 1 and "meets 2 times" in out


def test_neighbours_of_5(capsys):
    code, out, _ = run(capsys, "--neighbours", "5")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "day 1: 5 is cuffed to 4, 6" and len(lines) == 6
    met = sorted(int(p) for line in lines for p in line.split(" to ")[1].split(", "))
    assert met == [1, 2, 3, 4, 6, 7, 8, 9]  # 5 meets everyone else once: twice in the middle


def test_kirkman_and_svg(capsys, tmp_path):
    picture = tmp_path / "k.svg"
    code, out, _ = run(capsys, "--kirkman", "--svg", str(picture))
    assert code == 0 and "all 105 pairs of the 15 are in a row together exactly once" in out
    root = ET.parse(picture).getroot()
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 15 * 7


def test_count_with_two_days_fixed(capsys):
    code, out, _ = run(capsys, "--fix", "2:1-3-4/2-5-7/8-6-9", "--count", "--json")
    data = json.loads(out)
    assert code == 0 and data["completions"] == 192 and data["arrangements"] == 4608 and data["fixed_days"] == [2]
    assert data["design"]["people"] == 9 and data["distinct"] is None
    code, out, _ = run(capsys, "--fix", "2:1-3-4/2-5-7/8-6-9", "--count")
    assert "unordered completions of the fixed days: 192" in out and "arrangements: 4,608" in out


def test_no_such_design_exit_1(capsys):
    code, _, err = run(capsys, "--people", "6", "--row", "3")
    assert code == 1 and "15 is not a multiple of 4" in err
    code, _, err = run(capsys, "--people", "6", "--row", "3", "--days", "2", "--pairs", "row")
    assert code == 1 and "exhaustive" in err


@pytest.mark.parametrize("argv, culprit", [
    (["--days", "0"], "--days: 0"),
    (["--neighbours", "10"], "--neighbours 10"),
    (["--people", "10"], "rows of 3 do not divide 10 people"),
    (["--fix", "2:1-2"], "fixed day 2"),
    (["--fix", "x"], "--fix 'x'"),
    (["--verify", "/nonexistent.json"], "/nonexistent.json: cannot read"),
    (["--days", "5", "--count", "--symmetry", "prob"], "at most 3"),
    (["--kirkman", "--count", "--symmetry", "prob"], "1,401,400 possible days"),
    (["--people", "12", "--row", "2", "--count"], "66 pairs; the counter keeps a day's pairs in 64 bits"),
])
def test_bad_input_one_line_exit_2(capsys, argv, culprit):
    code, out, err = run(capsys, *argv)
    assert code == 2 and culprit in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_notebook_picture():
    """In a notebook an arrangement shows itself as the SVG: one figure per prisoner per day, a cuff per pair."""
    from logicpy.puzzles.prisoners import solve

    root = ET.fromstring(solve(PRISONERS)._repr_svg_())
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 54
    assert len(root.findall("{http://www.w3.org/2000/svg}line")) == 36


def test_timeout_is_inconclusive_exit_4(capsys):
    """21 schoolgirls with day 2 pinned (no rotational design then: the (day, row) search) run past
    a short limit: exit 4, said plainly."""
    pinned = ["--people", "21", "--pairs", "row", "--fix", "2:1-4-7/2-5-8/3-6-10/9-13-16/11-14-19/12-17-20/15-18-21"]
    code, out, err = run(capsys, *pinned, "--timeout", "0.5")
    assert code == 4 and "gave up after 0.5 s" in err and out == ""
    code, out, err = run(capsys, *pinned, "--timeout", "0.5", "--json")
    assert code == 4 and json.loads(out)["status"] == "timeout" and err == ""
