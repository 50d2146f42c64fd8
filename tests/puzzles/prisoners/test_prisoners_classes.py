"""Designs up to isomorphism (two fixed days at a time) and the counts they give, against the
day-level counter; Kirkman's fifteen schoolgirls (7 classes); 21 schoolgirls and more found
by their rotational symmetry, checked by the independent verifier."""

from __future__ import annotations

import json
import math

import pytest

from logicpy.cli import main
from logicpy.puzzles.prisoners import KIRKMAN, PRISONERS, Design, Symmetry, completions, distinct, solve, verify
from logicpy.puzzles.prisoners.classes import completions_from_classes, labelled_designs
from logicpy.puzzles.prisoners.solve import rotational_days

pytest.importorskip("pynauty")


@pytest.mark.parametrize("design, classes, automorphisms, labelled", [
    (Design(4, 2, None), 1, [24], 1),
    (Design(6, 2, None), 1, [120], 6),             # K6: 6 one-factorisations, one up to isomorphism
    (Design(8, 2, None), 6, [1344, 96, 64, 42, 24, 16], 6240),  # K8: 6,240 labelled, 6 classes
    (Design(9, 3, None, "row"), 1, [432], 840),     # the affine plane of order 3: 9!/432 = 840
])
def test_known_small_designs_and_their_counts(design, classes, automorphisms, labelled):
    found = distinct(design)
    assert len(found) == classes and sorted(c.automorphisms for c in found) == sorted(automorphisms)
    assert labelled_designs(design, found) == labelled
    # the completions of day 1, from the classes, equal the day-level counter's
    assert completions_from_classes(design, found) == completions(design)
    for c in found:
        assert verify(design, c.days).ok


@pytest.mark.slow
def test_the_nine_prisoners_332_classes_give_the_92672_completions():
    found = distinct(PRISONERS)
    assert len(found) == 332
    assert completions_from_classes(PRISONERS, found) == completions(PRISONERS) == 92_672


@pytest.mark.slow
def test_kirkman_schoolgirls_seven_classes(capsys):
    """The literature: 7 non-isomorphic solutions, 404,756,352,000 on 15 labelled girls."""
    found = distinct(KIRKMAN)
    assert sorted(c.automorphisms for c in found) == [12, 12, 21, 24, 24, 168, 168]
    assert all(verify(KIRKMAN, c.days).ok for c in found)
    assert labelled_designs(KIRKMAN, found) == 404_756_352_000
    assert completions_from_classes(KIRKMAN, found) == 404_756_352_000 * 7 // 1_401_400 == 2_021_760
    assert main(["prisoners", "--kirkman", "--count", "--distinct", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["distinct"], data["completions"], data["arrangements"]) == (7, 2_021_760, 2_021_760 * math.factorial(6))


@pytest.mark.parametrize("people, symmetry", [(21, s) for s in Symmetry] + [(27, Symmetry.CANONICAL)])
def test_larger_kirkman_designs_by_rotation(people, symmetry):
    design = Design(people, 3, None, "row")
    found = solve(design, symmetry)
    assert found is not None and verify(design, found.days, symmetry).ok
    assert found.days[0] == design.first_day() or symmetry is Symmetry.NONE


def test_rotational_days_form_a_design_before_relabelling():
    design = Design(21, 3, None, "row")
    days = rotational_days(design)
    assert days is not None and verify(design, days, Symmetry.NONE).ok
    assert rotational_days(Design(18, 3, None, "row")) is None  # 6 groups of 3: q even, no such form


def test_twenty_one_schoolgirls_with_no_time_limit_finish(capsys):
    assert main(["prisoners", "--people", "21", "--pairs", "row", "--timeout", "0"]) == 0
    assert "verified: all 210 pairs of the 21 are in a row together exactly once" in capsys.readouterr().out
