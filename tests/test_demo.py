"""`logicpy demo`: the tour of the relational core prints real answers, as text and JSON."""

from __future__ import annotations

import json

from logicpy.cli import main
from logicpy.core.terms import from_json
from logicpy.demo import CORE_TOUR, run_step


def test_demo_prints_the_tour(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    for line in [
        "x = 5",
        "x = [], y = [1,2,3]",
        "x = [1], y = [2,3]",
        "x = [1,2], y = [3]",
        "x = [1,2,3], y = []",
        "xs = [_0,_1,_2], n = 3",
        "child = lisa",
        "a = red, b = green",
        "w = [b,c]",
    ]:
        assert line in out, line
    assert "child = bart" not in out
    assert out.count(">>> run(") == len(CORE_TOUR)


def test_demo_solves_the_three_gods_first(capsys):
    """The main job: the classic puzzle solved in 3 questions, the tree replayed in all 12 worlds."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.index("The Hardest Logic Puzzle Ever") < out.index("A tour of logicpy's relational core")
    assert "solution found: a question tree with <= 3 questions of complexity <= 1" in out
    assert "verified: tree replayed in every world (12 hidden worlds" in out
    answers = {line.split("answer ")[1].split()[0] for line in out.splitlines() if ": answer " in line}
    assert answers == {"TFR", "TRF", "FTR", "FRT", "RTF", "RFT"}


def test_demo_json_reads_back(capsys):
    assert main(["demo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gods"]["status"] == "found" and len(data["gods"]["trees"]) == 1
    steps = data["tour"]
    assert [s["query"] for s in steps] == [s.query for s in CORE_TOUR]
    splits = [{name: from_json(v) for name, v in answer.items()} for answer in steps[1]["answers"]]
    assert splits == [{"x": [], "y": [1, 2, 3]}, {"x": [1], "y": [2, 3]}, {"x": [1, 2], "y": [3]}, {"x": [1, 2, 3], "y": []}]


def test_each_step_has_its_known_answer():
    answers = {step.title.split(":")[0]: run_step(step) for step in CORE_TOUR}
    assert answers["kanren's hello world"] == [{"x": 5}]
    assert [a["n"] for a in answers["lengtho generates lists of every length, as Prolog's length/2 does"]] == [0, 1, 2, 3]
    unique = answers["unique_by keeps the first answer per key"]
    assert [a["w"] for a in unique] == [["a"], ["b", "c"], []]
