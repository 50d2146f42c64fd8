"""New instances: random samples of secrets from a pool, solved many at a time.

Ten thousand ten-date samples are one model: the disjoint union of the samples
(`Model.batch`), every agent's view refined by the sample it belongs to, so the story is
told once over 100,000 worlds and each sample's survivors are counted with one bincount.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Sequence

import numpy as np

from ...errors import InputError
from .engine import Model, Run
from .formulas import Story

__all__ = ["samples", "solution_counts", "distribution", "pick", "BATCH"]

#: Samples told together as one batched model.
BATCH = 10_000


def samples(pool_size: int, size: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` random samples of `size` distinct pool indices (one row each, in pool order)."""
    if not 2 <= size <= pool_size:
        raise InputError(f"sample size {size} must be between 2 and the pool's {pool_size} secrets")
    return np.sort(np.argsort(rng.random((count, pool_size)), axis=1)[:, :size], axis=1)


def solution_counts(story: Story, pool: Sequence[Any], rows: np.ndarray) -> np.ndarray:
    """How many secrets survive the story in each sample (each row: indices into `pool`)."""
    model = Model.batch(pool, story.agents, rows)
    alive = Run(model, story.statements).mask(len(story.statements))
    return np.bincount(model.base[alive], minlength=len(rows))


def distribution(story: Story, pool: Sequence[Any], count: int = 10_000, size: int = 10,
                 seed: int | None = 0, progress: Callable[[int, int], None] | None = None) -> dict[int, int]:
    """The seed's `counter`: how many of `count` random samples have 0, 1, 2, … solutions.

    `progress(done, count)` is called after each batch.
    """
    rng, tally, done = np.random.default_rng(seed), Counter(), 0
    while done < count:  # in batches of at most 10,000 samples, so memory stays flat
        rows = samples(len(pool), size, min(BATCH, count - done), rng)
        tally.update(solution_counts(story, pool, rows).tolist())
        done += len(rows)
        if progress is not None:
            progress(done, count)
    return dict(sorted(tally.items()))


def pick(story: Story, pool: Sequence[Any], size: int = 10, seed: int | None = 0,
         tries: int = 100_000) -> tuple[tuple[Any, ...], Any]:
    """The seed's `pick_dates`: the first random sample with exactly one solution, and that solution."""
    rng = np.random.default_rng(seed)
    done = 0
    while done < tries:
        rows = samples(len(pool), size, min(1000, tries - done), rng)  # small batches: a hit comes early
        counts = solution_counts(story, pool, rows)
        hits = np.flatnonzero(counts == 1)
        if len(hits):
            chosen = tuple(pool[i] for i in rows[hits[0]])
            from .engine import solve
            return chosen, solve(story.on(chosen)).solutions[0]
        done += len(rows)
    raise InputError(f"no sample of {size} from the pool of {len(pool)} has a unique answer in {tries} tries")
