"""The FD relation `arrangemento` and `prolog/prisoners.pl` (SWI clpfd): both find arrangements
that logicpy's independent verifier accepts; capped in time."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from logicpy.core import run, var
from logicpy.puzzles.prisoners import PRISONERS, Design, solve, verify
from logicpy.puzzles.prisoners.relations import arrangemento, pair_number

PRISONERS_PL = Path(__file__).resolve().parents[3] / "logicpy" / "data" / "prolog" / "prisoners.pl"


def rows(flat, r):
    return [list(flat[i:i + r]) for i in range(0, len(flat), r)]


def test_pair_numbers_are_a_bijection():
    assert sorted(pair_number(a, b, 9) for a in range(1, 10) for b in range(a + 1, 10)) == list(range(36))


def test_four_day_week_relationally():
    design = Design(9, 3, 4)
    days = [[var() for _ in range(9)] for _ in range(4)]
    (week,) = run(1, days, arrangemento(days, design))
    assert verify(design, [rows(day, 3) for day in week], "canonical").ok


def test_six_days_with_four_fixed_ask_for_the_rest():
    """A REPL query: days 1-4 of logicpy's arrangement fixed, the FD model finds days 5 and 6 (as it must, uniquely)."""
    known = solve(PRISONERS)
    flat = [[p for row in day for p in row] for day in known.days]
    days = flat[:4] + [[var() for _ in range(9)] for _ in range(2)]
    answers = run(0, days, arrangemento(days, PRISONERS))
    assert answers and all(verify(PRISONERS, [rows(day, 3) for day in a], "canonical").ok for a in answers)
    assert sorted(map(tuple, flat[4:])) in [sorted(map(tuple, a[4:])) for a in answers]


def test_a_prisoner_fixed():
    """Prisoners fixed: 5 cannot start day 2 (the canonical model's row starts increase from 1): no answer;
    1 in the middle of day 2's first row: an answer."""
    design = Design(9, 3, 4)
    days = [[var() for _ in range(9)] for _ in range(4)]
    assert run(1, days, arrangemento([days[0], [5] + days[1][1:], days[2], days[3]], design)) == ()
    days[1][1] = 1
    (week,) = run(1, days, arrangemento(days, design))
    assert week[1][1] == 1 and verify(design, [rows(day, 3) for day in week], "canonical").ok


def prolog(goal: str, cap: int = 60) -> list:
    program = f"call_with_time_limit({cap}, ({goal})), print(W), nl"
    result = subprocess.run(["swipl", "-q", "-g", program, "-t", "halt", str(PRISONERS_PL)],
                            capture_output=True, text=True, timeout=cap + 30)
    assert result.returncode == 0 and "Warning" not in result.stderr, result.stderr
    return json.loads(result.stdout.strip())


@pytest.mark.swi
@pytest.mark.parametrize("design, goal", [  # the whole week from scratch takes clpfd over 300 s: days 2-4 given
    (Design(9, 3, 4), "arrangement(9, 3, 4, cuffed, W)"),
    pytest.param(Design(9, 3, 5), "arrangement(9, 3, 5, cuffed, W)", marks=pytest.mark.slow),
    (Design(9, 3, 4, "row"), "arrangement(9, 3, 4, row, W)"),  # Kirkman 15: clpfd > 30 s
    pytest.param(PRISONERS, "W = [_, [1,4,2,3,5,8,6,7,9], [2,6,9,3,1,5,7,4,8], [1,7,5,2,9,3,4,6,8], _, _], "
                            "prisoners(W)", marks=pytest.mark.slow),
])
def test_prolog_arrangements_pass_logicpy_verifier(design, goal):
    week = prolog(goal)
    assert verify(design, [rows(day, design.row) for day in week], "canonical").ok


@pytest.mark.swi
def test_prolog_neighbours_agree():
    known = solve(PRISONERS)
    flat = [[p for row in day for p in row] for day in known.days]
    out = prolog(f"neighbours({json.dumps(flat)}, 5, W)")
    from logicpy.puzzles.prisoners.render import neighbours

    assert out == neighbours(known, PRISONERS, 5)


def test_prob_model_relationally():
    design = Design(9, 3, 4)
    days = [[var() for _ in range(9)] for _ in range(4)]
    (week,) = run(1, days, arrangemento(days, design, "prob"))
    assert verify(design, [rows(day, 3) for day in week], "prob").ok
