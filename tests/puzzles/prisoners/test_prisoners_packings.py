"""Shorter weeks counted: sets of disjoint days, by the memoised branching with day 1's orbits,
against brute force on small designs and the plain branching on the nine prisoners."""

from __future__ import annotations

import itertools
import math

import pytest

from logicpy.cli import main
from logicpy.puzzles.prisoners import Design, Symmetry, count
from logicpy.puzzles.prisoners.counting import DayCount, days_of


def brute_packings(design: Design) -> int:
    """Sets of days-1 pairwise disjoint days, all disjoint from day 1 (by enumeration)."""
    days, masks = days_of(design)
    first = masks[days.index(design.first_day())]
    live = [m for m in masks if not m & first]
    return sum(1 for combo in itertools.combinations(live, design.day_count - 1)
               if all(not a & b for a, b in itertools.combinations(combo, 2)))


@pytest.mark.parametrize("design", [Design(8, 2, 4), Design(8, 2, 5), Design(6, 2, 3), Design(9, 3, 3, "row"),
                                    Design(8, 4, 3, "cuffed")])
def test_packings_equal_brute_force_with_and_without_orbits(design):
    counter = DayCount(design, [design.first_day()])
    assert counter.symmetric
    want = brute_packings(design)
    assert counter.count() == want
    plain = counter._count_packing(counter.full ^ counter.used, counter.left, counter.masks, counter.weights, {})
    assert plain == want  # the branching alone, without the orbits
    assert count(design, Symmetry.CANONICAL) == want * math.factorial(design.day_count - 1)


@pytest.mark.slow
def test_five_day_week_of_the_nine_prisoners_is_counted(capsys):
    # 59,789,556 sets of four disjoint days complete day 1 (the plain branching agrees, in ~20 s).
    assert main(["prisoners", "--days", "5", "--count"]) == 0
    out = capsys.readouterr().out
    assert "arrangements: 1,434,949,344" in out and 1_434_949_344 == 59_789_556 * math.factorial(4)


@pytest.mark.parametrize("argv, culprit", [
    (["--timeout", "nan"], "--timeout nan"),
    (["--timeout", "inf"], "--timeout inf"),
    (["--timeout=-inf"], "--timeout -inf"),
    (["--timeout", "-1"], "--timeout -1"),
    (["--timeout", "1e30"], "--timeout 1e+30"),
    (["--days", "5", "--count", "--symmetry", "prob"], "at most 3 with --fix days or the prob model"),
])
def test_bad_numbers_one_line_exit_2(capsys, argv, culprit):
    code = main(["prisoners", *argv])
    err = capsys.readouterr().err
    assert code == 2 and culprit in err and len(err.strip().splitlines()) == 1
