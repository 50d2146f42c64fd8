"""Every census row names one puzzle: its description, its assignments and its tree agree.

The description ("TFR; 1 in T/F; 3 = R") is read here by a parser of its own, not by the
census code, and every stored tree is replayed on the puzzle so read."""

from __future__ import annotations

import itertools
import json
import sqlite3

import pytest

from logicpy.cli import main
from logicpy.puzzles.gods import verify
from logicpy.puzzles.gods.census.solve import examine, puzzle_space, tasks_for
from logicpy.puzzles.gods.model import Puzzle, Semantics
from logicpy.puzzles.gods.tree import tree_from_json

NAMES = {"T": "truly", "F": "falsely", "R": "random"}


def described(description: str) -> tuple[tuple[str, ...], ...]:
    """The assignments a description names: every order of its gods that its position rules allow."""
    gods, *rules = [part.strip() for part in description.split(";")]
    n = len(gods)
    allowed = [set(gods) for _ in range(n)]
    for rule in rules:
        if " = " in rule:
            position, letters = rule.split(" = ")
            allowed[int(position) - 1] = {letters}
        else:
            position, letters = rule.split(" in ")
            allowed[int(position) - 1] = set(letters.split("/"))
    orders = {o for o in itertools.permutations(gods) if all(o[i] in allowed[i] for i in range(n))}
    return tuple(sorted(tuple(NAMES[c] for c in o) for o in orders))


def test_the_parser_reads_a_description():
    def letters(forms):
        return sorted("".join(t[0].upper() for t in form) for form in forms)

    assert letters(described("TFR; 1 = T")) == ["TFR", "TRF"]
    assert letters(described("TFR; 3 in F/R")) == ["FTR", "RTF", "TFR", "TRF"]
    assert letters(described("TTF; 1 in T/F; 3 = T")) == ["FTT", "TFT"]


@pytest.mark.parametrize("gods", [1, 2, 3, 4])
def test_every_description_names_the_canonical_assignments_it_stands_for(gods):
    for spec in puzzle_space([gods]):
        assert described(spec.description) == spec.assignments, spec.description


def test_every_three_god_row_replays_its_tree_on_the_puzzle_its_description_names():
    rows = [examine(task) for task in tasks_for(puzzle_space([3]), [s.value for s in Semantics], 4, 2)]
    assert len(rows) == 198
    solved = 0
    for row in rows:
        assignments = described(row["description"])
        assert ",".join("".join(a[0].upper() for a in form) for form in assignments) == row["puzzle"]
        if row["status"] != "solvable":
            continue
        puzzle = Puzzle(3, assignments, semantics=Semantics.parse(row["semantics"]), name=row["description"])
        check = verify(puzzle, tree_from_json(row["tree"], puzzle), row["least_questions"])
        assert check.ok, (row["description"], row["semantics"], check.problems[:1])
        solved += 1
    assert solved > 100


def test_a_stored_row_with_a_renamed_description_is_printed_with_its_own(capsys, tmp_path):
    store = tmp_path / "c.sqlite"
    argv = ["gods", "census", "--gods", "3", "--semantics", "boolos", "--max-questions", "3",
            "--max-complexity", "1", "--engine", "processes", "--workers", "1", "--store", str(store), "--json"]
    assert main(argv) == 0
    first = {r["key"]: r["description"] for r in json.loads(capsys.readouterr().out)["rows"]}
    # A store written when "FRT,FTR,RFT,RTF" was described as a renamed form of it.
    with sqlite3.connect(store) as db:
        db.execute("UPDATE census SET description = 'TFR; 3 in F/R' WHERE puzzle = 'FRT,FTR,RFT,RTF'")
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["key"]: r["description"] for r in rows} == first
    (row,) = [r for r in rows if r["puzzle"] == "FRT,FTR,RFT,RTF"]
    assert described(row["description"]) == tuple(tuple(NAMES[c] for c in form) for form in row["puzzle"].split(","))
