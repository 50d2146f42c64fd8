"""The check behind every printed answer: the story re-told by the naive evaluator.

Up to `NAIVE_LIMIT` worlds the naive evaluator re-tells the whole story and must leave the
same worlds after every statement. Above it, a story that knows its counts in closed form
(the muddy children) is checked against them. Any other story is re-told lazily, world by
world: every final survivor must survive, then worlds taken in a fixed random order must
survive exactly when the engine says so, until all are done or the time given runs out
(proportionate to the solve: a check that re-told all 248,502 worlds of Sum and Product up
to 1,000 took minutes for a 0.2 s solve).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...errors import LogicpyError
from ...progress import terminal_progress
from .verify import NAIVE_LIMIT, Telling, replay

__all__ = ["check", "NAIVE_LIMIT", "BUDGET"]

#: CPU seconds the lazy re-telling may take at least (`check`'s default budget): what sum's
#: 958,800 worlds are all re-told within it.
BUDGET = 10.0
#: The most worlds the lazy re-telling takes on (its random order is a permutation of them).
LAZY_LIMIT = 2**26


def _disagree() -> LogicpyError:
    return LogicpyError("internal error: the naive evaluator disagrees with the engine; please report it")


def check(result: Any, limit: int = NAIVE_LIMIT, budget: float | None = BUDGET) -> str:
    """Check `result` independently; the sentence saying what was checked (raises if it fails).

    `budget`: CPU seconds the lazy re-telling of a large story may take (None: every world).
    """
    story = result.story
    counts = [step.count for step in result.steps]
    if len(story.worlds) <= limit:
        if replay(story)[1:] != [set(step.kept.tolist()) for step in result.steps]:
            raise _disagree()
        return ("verified: the naive evaluator re-told the story statement by statement and left the same "
                f"candidates after each ({', '.join(map(str, counts))})")
    if story.expected_counts is not None:
        if tuple(counts) != story.expected_counts:
            raise LogicpyError(f"internal error: the counts {counts} break the closed form; please report it")
        return (f"verified by the closed form: {story.expected_because} (the naive evaluator stops at "
                f"{limit:,} worlds)")
    if len(story.worlds) > LAZY_LIMIT:
        return (f"not checked: {len(story.worlds):,} worlds are too many for the naive evaluator (at most "
                f"{LAZY_LIMIT:,} lazily) and the story has no closed form")
    return _lazy(result, budget)


def _lazy(result: Any, budget: float | None) -> str:
    """The final survivors re-told lazily, then other worlds in a fixed random order within `budget` seconds."""
    story = result.story
    n, last = len(story.worlds), len(story.statements)
    final = result.steps[-1].after if result.steps else np.ones(n, dtype=bool)
    survivors = np.flatnonzero(final)
    telling = Telling(story)
    deadline = None if budget is None else time.process_time() + budget
    order = np.random.default_rng(0).permutation(n)
    done = 0
    with terminal_progress() as bar:
        task = None if bar is None else bar.add_task("checking (naive evaluator)", total=n)
        for w in survivors.tolist():
            if not telling.alive(w, last):
                raise _disagree()
        for w in order.tolist():
            if telling.alive(w, last) != bool(final[w]):
                raise _disagree()
            done += 1
            if task is not None and done % 256 == 0:
                bar.update(task, completed=done)
            if deadline is not None and done % 16 == 0 and time.process_time() > deadline:
                break
    if done == n:
        return (f"verified: the naive evaluator, told the story lazily world by world, leaves the same "
                f"{len(survivors):,} (intermediate sets not re-checked above {NAIVE_LIMIT:,} worlds)")
    kept = f"the survivor" if len(survivors) == 1 else f"all {len(survivors):,} survivors"
    return (f"verified in part: the naive evaluator, told the story lazily world by world, keeps {kept} and "
            f"agrees on {done:,} of the {n:,} worlds taken in random order (stopped after {budget:.1f} s of "
            "CPU, a check in proportion to the solve)")
