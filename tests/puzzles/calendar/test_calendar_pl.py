"""prolog/calendar.pl (written here, plain SWI-Prolog) against logicpy's calendar solver.

The Prolog program fills cells in reading order with its own placements; logicpy runs
Algorithm X on bitsets. Their counts and grids must agree.
"""

from __future__ import annotations

import pytest

from logicpy.puzzles.calendar import STANDARD, count, parse_date, solve
from tests.swipl import run_goal

pytestmark = pytest.mark.swi


def prolog(goal: str) -> str:
    return run_goal("calendar.pl", goal, timeout=120)


def test_counts_agree_on_several_dates():
    dates = ["Oct 6", "Jan 1", "Feb 29", "Feb 30", "Jul 4", "Dec 31"]
    goal = "forall(member(M-D, [{}]), (date_count(M, D, N), writeln(N)))".format(
        ", ".join(f"{d.month}-{d.day}" for d in map(parse_date, dates)))
    prolog_counts = [int(line) for line in prolog(goal).split()]
    assert prolog_counts == [count(STANDARD, parse_date(d).labels()) for d in dates]
    assert prolog_counts[0] == 7


def test_october_6_grids_agree():
    out = prolog("forall(date_solution(10, 6, G), (atomic_list_concat(G, '|', A), writeln(A)))")
    prolog_grids = sorted(line.split("|") for line in out.splitlines())
    assert prolog_grids == sorted(t.grid() for t in solve(STANDARD, ("Oct", "6")).tilings)
