"""Regression tests for the faults found in issue 11 (three gods, part 2), one per fault."""

from __future__ import annotations

import importlib
import io
import json
import os
from pathlib import Path

import pytest

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.gods import (
    CLASSIC, FOUR_GODS, KNOWN_TRULY_FIRST, RANDOM_NOT_FIRST, Puzzle, Universe, report, solve, tree_to_json, verify,
)

GODS_PL = Path(__file__).resolve().parents[3] / "logicpy" / "data" / "prolog" / "gods.pl"
universe_module = importlib.import_module("logicpy.puzzles.gods.universe")


class _ClosedPipe(io.StringIO):
    """A stdout whose reader went away (`| head -c 10` after it read enough)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_failed_verify_keeps_its_status_when_the_pipe_closes(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"answer": ["truly", "falsely", "random"]}))  # a leaf: wrong in 10 of 12 worlds
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"trees": [tree_to_json(solve(CLASSIC, 3, 1).tree)]}))
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert main(["gods", "verify", str(bad)]) == 1
    assert main(["gods", "verify", str(good)]) == 0
    assert main(["gods", "--questions", "2", "--complexity", "1"]) == 1


def test_json_respects_a_limit_below_100(capsys):
    assert main(["gods", "--all", "--complexity", "1", "--json", "--limit", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 1536 and len(data["trees"]) == 2
    assert main(["gods", "--all", "--complexity", "1", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["trees"]) == 100  # the JSON default


def test_too_few_leaves_is_said_without_building_the_universe(capsys):
    assert main(["gods", "--questions", "2", "--complexity", "3", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["universe"] == {"level_counts": [], "moves": 0}
    assert "6 assignments cannot fit in the 4 leaves" in data["reason"]
    assert main(["gods", "--questions", "2", "--complexity", "3", "--stats"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("no solution") and "counting bound" in out and "exhaustive" not in out


def test_two_randoms_are_told_apart_under_boolos_only():
    """The README's 'never told apart' holds for the free Random, not for Boolos' Random."""
    free = Puzzle.permutations(("truly", "falsely", "random", "random"))
    boolos = free.with_options(semantics="boolos")
    assert "more questions cannot help" in solve(free, 8, 2).verdict
    result = solve(boolos, 4, 2)
    assert result.status == "found" and verify(boolos, result.tree, 4).ok


def test_reprs_are_a_line():
    result = solve(CLASSIC, 3, 1)
    assert repr(result) == "<gods result: solution found: a question tree with <= 3 questions of complexity <= 1; classic>"
    assert repr(report(RANDOM_NOT_FIRST, 2)).count("\n") == 0 and "random-not-first" in repr(report(RANDOM_NOT_FIRST, 2))


def test_lower_complexities_are_tried_first():
    """four-gods at complexity <= 3: the complexity-2 tree is returned, level 3 never built."""
    result = solve(FOUR_GODS, questions=4, complexity=3)
    assert result.status == "found" and result.least_complexity == 2
    assert len(result.level_counts) == 3  # levels 0..2 only
    assert "the least complexity that works is 2" in result.verdict
    assert verify(FOUR_GODS, result.tree, 4).ok


def test_a_level_that_cannot_fit_in_memory_is_refused_with_the_estimate(monkeypatch):
    u = Universe(FOUR_GODS, 2)
    assert u.count_candidates(3) == 783_125_730  # commutative rules: each unordered pair once
    assert u.estimate_bytes(3) > 30 * 2**30  # if every one of them were new (48 worlds)
    monkeypatch.setattr(universe_module, "MAX_LEVEL_BYTES", 8 * 2**30)
    with pytest.raises(InputError, match=r"complexity 3 would mean about 7.8e\+08 candidate questions and up to "
                                         r"\d+\.\d GiB .* through complexity 2, and beyond it sharded"):
        u.extend_to(3)
    assert u.max_complexity == 2


def test_progress_reports_the_search_as_well_as_the_universe():
    seen = []
    solve(CLASSIC, 3, 2, progress=lambda label, done, total: seen.append(label))
    assert "search complexity 0" in seen and "search complexity 1" in seen
    assert "search complexity 2" not in seen  # a tree was found at complexity 1


@pytest.mark.swi
def test_a_prolog_side_past_the_timeout_is_inconclusive(capsys):
    code = main(["gods", "crosscheck", str(GODS_PL), "--complexity", "2", "--timeout", "0.05"])
    out = capsys.readouterr().out
    assert code == 4  # a time limit ran out: no answer either way
    assert out.rstrip().endswith("result: INCONCLUSIVE") and "DISAGREE" not in out
    code = main(["gods", "crosscheck", "--json", str(GODS_PL), "--complexity", "2", "--timeout", "0.05"])
    data = json.loads(capsys.readouterr().out)
    assert code == 4 and data["status"] == "timeout" and data["command"] == "gods crosscheck"
    assert len(data["results"]) == 1


@pytest.mark.swi
@pytest.mark.skipif(not os.environ.get("LOGICPY_3GODS_DIR"), reason="set LOGICPY_3GODS_DIR to a checkout of aduriseti/3gods")
@pytest.mark.parametrize("puzzle", [RANDOM_NOT_FIRST, KNOWN_TRULY_FIRST])
def test_the_originals_find_pruning_tree_gets_its_universe(puzzle):
    from logicpy.puzzles.gods.backends.prolog import crosscheck_file

    original = Path(os.environ["LOGICPY_3GODS_DIR"]) / "final_solution.pl"
    result = crosscheck_file(original, puzzle, 3, 1, timeout=120)
    assert result.entry == "find_pruning_tree/7" and result.ok, result.render()
