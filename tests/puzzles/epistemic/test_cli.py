"""`logicpy cheryl`: output, JSON, exit statuses and one-line errors naming the culprit."""

from __future__ import annotations

import json

import pytest

from logicpy.cli import main


def run(capsys, *argv):
    code = main(["cheryl", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_classic_prints_steps_verdict_and_check(capsys):
    code, out, _ = run(capsys)
    assert code == 0
    assert "left (5): July 14, July 16, August 14, August 15, August 17" in out
    assert "unique solution: July 16" in out
    assert "verified: the naive evaluator re-told the story" in out


def test_json_and_explanation(capsys):
    code, out, _ = run(capsys, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "ok" and data["outcome"] == "unique" and data["solutions"] == ["July 16"]
    assert data["command"] == "cheryl" and out.count("\n") == 1
    assert [s["left"] for s in data["steps"]] == [5, 3, 1]
    reasons = {w["removed"]: w["reason"] for w in data["steps"][0]["why"]}
    assert reasons["May 19"] == ("Albert, told May, could not rule out May 19, where Bernard, told 19, "
                                 "would have known it was May 19")


def test_other_dates_and_stories(capsys, tmp_path):
    code, out, _ = run(capsys, "--dates", "January 15, January 4, July 13, July 24, July 30, March 13, "
                                "March 24, May 11, May 17, May 30")
    assert code == 0 and "unique solution: July 30" in out
    path = tmp_path / "dates.txt"
    path.write_text("# Cheryl's ten\nMay 15\nMay 16\nMay 19\nJune 17\nJune 18\nJuly 14\nJuly 16\n"
                    "August 14\nAugust 15\nAugust 17\n")
    code, out, _ = run(capsys, "--dates-file", str(path), "--story", "complex")
    assert code == 1 and "no solution: statement 4 (Eve)" in out
    code, out, _ = run(capsys, "--story", "complex")
    assert code == 0 and "unique solution: July 27" in out


@pytest.mark.parametrize("argv, expected", [
    (["sum-product"], "unique solution: (4, 13)"),
    (["age"], "unique solution: Cheryl 9, brothers 4 and 4"),
    (["children"], "unique solution: 2, 2, 9"),
    (["bus"], "unique solution: 08:32"),
    (["pads"], "unique solution: C3"),
    (["sam-pat", "--key", "2"], "4 solutions: (1, 6); (1, 8); (72, 92); (75, 96)"),
    (["muddy", "--children", "5", "--muddy", "5"], "unique solution: ●●●●●"),
    (["what-sum", "--anne", "5"], "unique solution: Anne 5, Bill 2, Cath 3"),
])
def test_each_puzzle_subcommand(capsys, argv, expected):
    code, out, _ = run(capsys, *argv, "--why")
    assert code == 0 and expected in out and "verified" in out and " is out: " in out
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["verified"].startswith("verified") and all("why" in step for step in data["steps"])


def test_puzzle_json(capsys):
    code, out, _ = run(capsys, "muddy", "-n", "3", "-m", "2", "--json")
    data = json.loads(out)
    assert (data["status"], data["command"], data["outcome"], data["count"]) == ("ok", "cheryl muddy", "ambiguous", 3)
    assert [s["left"] for s in data["steps"]] == [7, 4, 3]


@pytest.mark.parametrize("argv, message", [
    (["--dates", "May 15, Febtember 3"], "date 2: 'Febtember 3': unknown month 'Febtember'"),
    (["--dates", "May 15"], "need at least two dates"),
    (["--dates", ""], "need at least two dates"),
    (["--dates", "May 15, June 31"], "June has no day 31"),
    (["--dates", "May 15, May 15"], "duplicate date 'May 15'"),
    (["--story", "tragic"], "unknown story 'tragic'"),
    (["--dates-file", "/no/such/file"], "/no/such/file: cannot read"),
    (["muddy", "-n", "3", "-m", "4"], "--muddy must be between 1 and --children (3), got 4"),
    (["distribution", "--size", "1"], "sample size 1"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_dates_file_errors_name_the_line(capsys, tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("May 15\n\nMay 1x\n")
    code, _, err = run(capsys, "--dates-file", str(path))
    assert code == 2 and f"{path}:3:" in err


def test_generate_is_reproducible_and_verified(capsys):
    code, first, _ = run(capsys, "generate", "--story", "eve", "--seed", "3", "--json")
    code2, second, _ = run(capsys, "generate", "--story", "eve", "--seed", "3", "--json")
    data = json.loads(first)
    assert code == code2 == 0 and first == second and data["verified"].startswith("verified")
    assert len(data["dates"]) == 10


def test_distribution_has_the_seeds_shape(capsys):
    """Norvig: about 6 % unique and 6.5 % two solutions for the classic story."""
    code, out, _ = run(capsys, "distribution", "--seed", "1", "--samples", "4000", "--json")
    counts = json.loads(out)["counts"]
    assert code == 0 and sum(counts.values()) == 4000
    assert 0.045 < counts["1"] / 4000 < 0.075 and 0.05 < counts["2"] / 4000 < 0.08


def test_muddy_answer_and_who_knows_in_the_actual_world(capsys):
    code, out, _ = run(capsys, "muddy", "--children", "4", "--muddy", "3")
    assert code == 0 and "unique answer: the number of muddy children is 3" in out
    assert out.split("before each statement:\n")[1].splitlines()[:4] == [
        "  1. nobody", "  2. nobody", "  3. nobody", "  4. child 1, child 2, child 3"]


def test_generated_json_is_read_back_as_a_dates_file(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "--story", "complex", "--seed", "5", "--json")
    path = tmp_path / "puzzle.json"
    path.write_text(out)
    solution = json.loads(out)["solutions"][0]
    code, out, _ = run(capsys, "--story", "complex", "--dates-file", str(path))
    assert code == 0 and f"unique solution: {solution}" in out


def test_svg_survival_chart(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    path = tmp_path / "classic.svg"
    code, _, _ = run(capsys, "--svg", str(path))
    root = ET.parse(path).getroot()
    rects = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert code == 0 and len(rects) == 10 * 4  # ten dates x (start + three statements)
    assert sum(r.get("fill") == "#2e7d32" for r in rects) == 4  # July 16, possible at every moment


def test_generate_from_a_pool_without_an_answer_is_an_exact_none(capsys, tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("March 15\nMarch 16\nApril 15\nApril 17\nMay 16\nMay 17\nJune 18\nJune 19\nJuly 1\nJuly 19\n")
    code, out, _ = run(capsys, "generate", "--pool", str(pool), "--size", "5")
    assert code == 1 and out.startswith("no solution: none of all 252 samples of 5 from the pool of 10")
    assert "(each re-told by the naive evaluator)" in out
