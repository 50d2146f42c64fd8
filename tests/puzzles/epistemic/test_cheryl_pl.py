"""prolog/cheryl.pl against the engine: July 16 with the same intermediate sets, and random samples.

SWI-Prolog runs as a subprocess on the file itself, as a Prolog user would load it.
"""

from __future__ import annotations

import numpy as np
import pytest

from logicpy.puzzles.epistemic import CLASSIC_DATES, COMPLEX_DATES, DATE_POOL, MONTHS, GABE_DATES, birthday, solve
from logicpy.puzzles.epistemic.generate import samples
from tests.swipl import run_goal

pytestmark = pytest.mark.swi


def prolog(goal: str) -> str:
    return run_goal("cheryl.pl", goal)


def term(dates) -> str:
    return "[" + ",".join(f"date({MONTHS[d.month - 1].lower()},{d.day})" for d in dates) + "]"


def engine_steps(kind, dates) -> str:
    """The engine's models after each statement, printed the way Prolog prints them."""
    result = solve(birthday(kind, dates))
    return "[" + ",".join(term([dates[i] for i in step.kept]) for step in result.steps) + "]"


@pytest.mark.parametrize("kind, dates, answer", [
    ("classic", CLASSIC_DATES, "[date(july,16)]"),
    ("classic", GABE_DATES, "[date(july,30)]"),
    ("complex", COMPLEX_DATES, "[date(july,27)]"),
    ("eve", CLASSIC_DATES, "[]"),
])
def test_known_answers_and_the_same_intermediate_sets(kind, dates, answer):
    steps = prolog(f"tell({kind}, {term(dates)}, S), print(S)")
    assert steps.endswith(answer + "]")
    assert steps == engine_steps(kind, dates)


def test_classic_intermediate_sets_are_the_seeds():
    assert prolog("cheryl_dates(Ds), tell(classic, Ds, S), print(S)") == (
        "[[date(july,14),date(july,16),date(august,14),date(august,15),date(august,17)],"
        "[date(july,16),date(august,15),date(august,17)],[date(july,16)]]")


@pytest.mark.parametrize("kind", ["classic", "eve", "complex"])
def test_random_samples_agree(kind):
    rows = samples(len(DATE_POOL), 10, 60, np.random.default_rng(11))
    lists = [[DATE_POOL[i] for i in row] for row in rows]
    goal = "forall(member(Ds, [" + ",".join(term(ds) for ds in lists) + f"]), (tell({kind}, Ds, S), print(S), nl))"
    assert prolog(goal).splitlines() == [engine_steps(kind, ds) for ds in lists]
