"""New instances: random samples of secrets from a pool, solved many at a time.

Ten thousand ten-date samples are one model: the disjoint union of the samples
(`Model.batch`), every agent's view refined by the sample it belongs to, so the story is
told once over 100,000 worlds and each sample's survivors are counted with one bincount.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ...errors import InputError, LogicpyError, NoSolution
from .solve import Model, Run, solve
from .model import Story

__all__ = ["samples", "solution_counts", "distribution", "pick", "BATCH"]

#: Samples told together as one batched model.
BATCH = 10_000
#: Up to this many samples, an exhaustive "none" is re-checked sample by sample by the naive evaluator.
NAIVE_RECHECK = 5_000


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
    """How many of `count` random samples have 0, 1, 2, … solutions.

    `progress(done, count)` is called after each batch.
    """
    rng, tally, done = np.random.default_rng(seed), Counter[int](), 0
    while done < count:  # in batches of at most 10,000 samples, so memory stays flat
        rows = samples(len(pool), size, min(BATCH, count - done), rng)
        tally.update(solution_counts(story, pool, rows).tolist())
        done += len(rows)
        if progress is not None:
            progress(done, count)
    return dict(sorted(tally.items()))


def pick(story: Story, pool: Sequence[Any], size: int = 10, seed: int | None = 0,
         tries: int = 100_000) -> tuple[tuple[Any, ...], Any]:
    """A random sample with exactly one solution, and that solution.

    When the pool has at most `tries` samples of this size, all of them are tried (in a
    random order), so "none" is exact; otherwise `tries` random samples are.
    Raises `NoSolution` saying which.
    """
    rng = np.random.default_rng(seed)
    total = comb(len(pool), size) if 2 <= size <= len(pool) else 0
    exhaustive = 0 < total <= tries
    if exhaustive:
        every = np.array(list(combinations(range(len(pool)), size)), dtype=np.int64)
        batches: Iterable[np.ndarray] = np.array_split(every[rng.permutation(total)], max(1, total // 1000))
    else:
        batches = (samples(len(pool), size, 1000, rng) for _ in range(tries // 1000))
    for rows in batches:  # small batches: a hit usually comes early
        hits = np.flatnonzero(solution_counts(story, pool, rows) == 1)
        if len(hits):
            chosen = tuple(pool[i] for i in rows[hits[0]])
            return chosen, solve(story.on(chosen)).solutions[0]
    how = (f"none of all {total:,} samples" if exhaustive else f"none of {tries:,} random samples")
    checked = ""
    if exhaustive and total <= NAIVE_RECHECK:
        from .verify import survivors

        if any(len(survivors(story.on(tuple(pool[i] for i in row)))) == 1 for row in every):
            raise LogicpyError("internal error: the naive evaluator finds a unique answer the engine missed")
        checked = " (each re-told by the naive evaluator)"
    raise NoSolution(f"{how} of {size} from the pool of {len(pool)} has a unique answer under the "
                     f"{story.name} story{checked}")
