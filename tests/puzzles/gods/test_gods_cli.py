"""`logicpy gods`: verdict, tree, verification line; options; verify; errors."""

from __future__ import annotations

import json

import pytest

from logicpy.cli import main


def run_cli(capsys, *argv):
    code = main(["gods", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_solves_the_classic_puzzle(capsys):
    code, out, err = run_cli(capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("solution found")
    assert any(line.startswith("ask god ") for line in lines) and "term: ['ask'," in out
    assert lines[-1].startswith("verified: tree replayed in every world")
    assert err.startswith("time: universe")


def test_two_questions_is_a_proven_no(capsys):
    code, out, _ = run_cli(capsys, "--questions", "2", "--complexity", "1")
    assert code == 1 and out.startswith("no solution: no question tree with <= 2 questions")


def test_options_before_and_after_the_action_both_count(capsys):
    code, out, _ = run_cli(capsys, "--questions", "2", "solve", "--complexity", "1")
    assert code == 1 and "<= 2 questions of complexity <= 1" in out
    code, out, _ = run_cli(capsys, "solve")
    assert code == 0 and "<= 3 questions of complexity <= 2" in out


def test_json_output_verifies_from_a_file(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "solve", "--complexity", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "ok" and data["outcome"] == "found"
    assert data["universe"]["level_counts"] == [11, 69]
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(data["trees"][0]))
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 0 and "verified: tree replayed in every world" in out
    data["trees"][0]["ja"], data["trees"][0]["da"] = data["trees"][0]["da"], data["trees"][0]["ja"]
    path.write_text(json.dumps(data))
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 1 and "NOT verified" in out
    code, out, _ = run_cli(capsys, "verify", "--json", str(path))  # --json among the action's arguments
    checked = json.loads(out)
    assert (code, checked["status"], checked["command"]) == (1, "none", "gods verify")
    assert not checked["trees"][0]["ok"] and checked["trees"][0]["problems"]
    code, _, err = run_cli(capsys, "--semantics", "silent", "verify", str(path))
    assert code == 2 and "silent" in err  # the puzzle option before the action is used


def test_verify_reports_bad_files_in_one_line(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"ask": 1,\n "question": ["is", 9, "random"], "ja": {"answer": null}, "da": {"answer": null}}')
    code, _, err = run_cli(capsys, "verify", str(path))
    assert code == 2 and "$.question[1]" in err and "bad.json" in err
    path.write_text("{nope")
    code, _, err = run_cli(capsys, "verify", str(path))
    assert code == 2 and "bad.json:1:2" in err


def test_variants_from_options(capsys):
    code, out, _ = run_cli(capsys, "--semantics", "silent", "--complexity", "1", "--mermaid")
    assert code == 0 and out.startswith("flowchart TD") and "-->|silent|" in out
    code, out, _ = run_cli(capsys, "--allow", "1:truly,falsely", "--questions", "2", "--complexity", "1")
    assert code == 0 and "4 assignments" in out
    code, out, _ = run_cli(capsys, "--known", "2=random", "--questions", "1", "--complexity", "1")
    assert code == 0 and "2 assignments" in out
    code, out, _ = run_cli(capsys, "--gods", "4", "--questions", "4", "--complexity", "2", "--stats")
    assert code == 0 and "12 assignments" in out and "distinct moves" in out


def test_all_and_report(capsys):
    code, out, _ = run_cli(capsys, "--all", "--complexity", "1", "--limit", "2")
    assert code == 0 and out.startswith("1536 solutions") and sum(line.startswith("tree ") for line in out.splitlines()) == 2
    assert out.count("verified: tree replayed in every world") == 2
    code, out, _ = run_cli(capsys, "--report", "--complexity", "2")
    assert code == 0 and out.strip() == "classic: least questions 3 (complexity <= 2); with 3 questions the least complexity is 1"


def test_rules_from_a_python_file(capsys, tmp_path):
    rules = tmp_path / "myrules.py"
    rules.write_text(
        "from logicpy.puzzles.gods import connective\n"
        "RULES = [connective('implies', 2, lambda a, b: (not a) or b, 'if {0} then {1}')]\n"
    )
    code, out, _ = run_cli(capsys, "--rules", str(rules), "--complexity", "1", "--json")
    assert code == 0 and "implies" in json.loads(out)["puzzle"]["grammar"]
    rules.write_text("RULES = [42]\n")
    code, _, err = run_cli(capsys, "--rules", str(rules))
    assert code == 2 and "RULES[0] is not a Rule" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--known", "1=wizard"], "wizard"),
        (["--allow", "7:truly"], "position 7"),
        (["--types", "truly,falsely", "--gods", "3"], "--gods 3"),
        (["--puzzle", "classic", "--gods", "4"], "--puzzle cannot"),
    ],
)
def test_bad_options_give_one_line(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_the_guide_shows_the_real_output_of_logicpy_gods(capsys):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "docs" / "gods.md").read_text(encoding="utf-8")
    shown = readme.split("```text\n$ logicpy gods\n", 1)[1].split("```", 1)[0]
    _, out, _ = run_cli(capsys)
    assert shown == out
