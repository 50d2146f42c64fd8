"""Dudeney's nine prisoners and kin: arrangements pass the independent verifier, and counts
match the known ones (seed 001 and issue 10; 1-factorisations of K6 and K8; the affine plane
of order 3)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from logicpy.errors import InputError, NoSolution
from logicpy.puzzles.prisoners import KIRKMAN, PRISONERS, Design, Symmetry, completions, count, distinct, solve, verify
from logicpy.puzzles.prisoners.solve import day_problem

DAY2 = ((1, 3, 4), (2, 5, 7), (8, 6, 9))  # issue 10's day 2


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_six_days_solve_and_verify(symmetry):
    found = solve(PRISONERS, symmetry)
    assert found is not None and verify(PRISONERS, found.days, symmetry).ok
    assert len(found.days) == 6


@pytest.mark.parametrize("days", [4, 5])
def test_shorter_weeks_of_the_seed(days):
    design = Design(9, 3, days)
    found = solve(design, Symmetry.PROB)
    assert not design.complete and verify(design, found.days, Symmetry.PROB).ok


def test_kirkman_schoolgirls():
    found = solve(KIRKMAN)
    assert verify(KIRKMAN, found.days, Symmetry.CANONICAL).ok
    assert all(len(day) == 5 for day in found.days) and len(found.days) == 7


def test_fixed_days_192_completions():
    """Issue 10: day 1 and day 2 fixed leave 192 unordered completions (4! orders each)."""
    assert completions(PRISONERS, {2: DAY2}) == 192
    assert count(PRISONERS, Symmetry.CANONICAL, {2: DAY2}) == 192 * math.factorial(4)
    found = solve(PRISONERS, fixed={2: DAY2})
    assert found.days[1] == ((1, 3, 4), (2, 5, 7), (8, 6, 9))


def test_partial_week_count_agrees_with_the_core_exact_cover():
    """Days as options (counting) and rows as options (the core's ExactCover.count) agree."""
    for design in (Design(9, 3, 2), Design(6, 2, 3), Design(9, 3, 3, "row")):
        include = [(1, row) for row in design.first_day()]
        assert count(design) == day_problem(design).count(include=include)


@pytest.mark.parametrize("design, unordered, classes", [
    (Design(4, 2, None), 1, 1),     # K4 has one 1-factorisation
    (Design(6, 2, None), 2, 1),     # K6: 6 one-factorisations, all isomorphic; 6·5/15 contain a given matching
    (Design(8, 2, None), 416, 6),   # K8: 6,240 one-factorisations (6 up to isomorphism); 6240·7/105
    (Design(9, 3, None, "row"), 12, 1),  # the affine plane of order 3, unique: 840 labelled, 4 classes each / 280 days
])
def test_known_small_designs(design, unordered, classes):
    assert completions(design) == unordered
    assert len(distinct(design)) == classes


def test_none_counts_every_sequence_by_brute_force():
    """The 'none' count (possible days × completions × orderings) against brute force on K4: 3 days of 2 rows of 2."""
    design = Design(4, 2, None)
    perms = list(itertools.permutations(range(1, 5)))
    days = [[p[0:2], p[2:4]] for p in perms]
    brute = sum(1 for week in itertools.product(days, repeat=3) if verify(design, week).ok)
    assert count(design, Symmetry.NONE) == brute == 3072


def test_92672_completions_of_day_1():
    """Issue 10: day 1 fixed, 92,672 unordered completions (about 0.8 s CPU)."""
    assert completions(PRISONERS) == 92_672


@pytest.mark.slow
def test_seed_counts():
    """Issue 10: 11,120,640 canonical (92,672 × 5!); 348,686,880 in ProB's literal model."""
    assert count(PRISONERS, Symmetry.CANONICAL) == 11_120_640
    assert count(PRISONERS, Symmetry.PROB) == 348_686_880


def test_impossible_designs_say_why():
    with pytest.raises(NoSolution, match="15 is not a multiple of 4"):
        Design(6, 3, None).check()
    with pytest.raises(NoSolution, match="only 36 pairs"):
        Design(9, 3, 7).check()
    with pytest.raises(NoSolution, match="15 is not a multiple of 6"):
        Design(6, 3, None, "row").check()


def test_exhaustive_none():
    """6 people in rows of 3 for 2 days, sharing a row at most once: the arithmetic allows it
    (12 meetings, 15 pairs) but each day-2 row would need two of a day-1 row; the search says none."""
    design = Design(6, 3, 2, "row")
    design.check()
    assert solve(design) is None and count(design) == 0
    assert solve(Design(4, 4, None)) is not None  # two Hamiltonian paths of K4 cover its 6 edges
    with pytest.raises(InputError, match="share a pair"):
        count(Design(6, 2, 2), fixed={2: ((1, 2), (3, 4), (5, 6))})
    with pytest.raises(InputError, match="options, more than"):
        solve(Design(9, 9, 1))


@pytest.mark.parametrize("people, row, days", [(9, 3, 0), (10, 3, 3), (9, 1, 3), (1, 1, 1)])
def test_bad_designs_are_input_errors(people, row, days):
    with pytest.raises(InputError):
        Design(people, row, days)


WEEK = solve(PRISONERS).days


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 5), st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))
def test_verifier_rejects_a_swap_across_rows(day, row_a, row_b, i, j):
    """Swapping two prisoners of different rows in a valid week always breaks it (cuffs repeat or go missing)."""
    good = [list(map(list, d)) for d in WEEK]
    if row_a == row_b:
        return
    good[day][row_a][i], good[day][row_b][j] = good[day][row_b][j], good[day][row_a][i]
    check = verify(PRISONERS, good)
    assert not check.ok and any("meets" in problem for problem in check.problems)
