"""prolog/calendar.pl (written here, plain SWI-Prolog) against logicpy's calendar solver.

The Prolog program fills cells in reading order with its own placements; logicpy runs
Algorithm X on bitsets. Their counts and grids must agree.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from logicpy.puzzles.calendar import STANDARD, count, parse_date, solve

pytestmark = pytest.mark.swi

CALENDAR_PL = Path(__file__).resolve().parents[3] / "prolog" / "calendar.pl"


def prolog(goal: str) -> str:
    result = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(CALENDAR_PL)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Warning" not in result.stderr, result.stderr
    return result.stdout


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
