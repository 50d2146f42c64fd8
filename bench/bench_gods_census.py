"""The gods census on Dask: wall time on 1 and 2 local workers, and a projection for 32.

    python -m bench gods_census                      the 3-god census (every semantics), c <= 2
    LOGICPY_BENCH_CENSUS_4=1 python -m bench gods_census   also the 4-god census at c <= 1 (~7 min)

Each run uses a fresh store, so every row is computed. Beside the wall time: the seconds
every task took on its worker, summed (the work), and the longest task. A cluster of N workers cannot
beat max(work / N, longest task); that bound is the projection printed for 32 workers.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.common import print_table
from logicpy.puzzles.gods.census import puzzle_space, run_census, tasks_for
from logicpy.puzzles.gods.engine import Engine
from logicpy.puzzles.gods.model import Semantics
from logicpy.puzzles.gods.store import Store

SEMANTICS = [s.value for s in Semantics]


def census_figures(gods: list[int], max_complexity: int, workers: int) -> dict[str, float]:
    """Run one census from scratch on a local cluster; wall, work and longest task in seconds."""
    tasks = tasks_for(puzzle_space(gods), SEMANTICS, 4, max_complexity)
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        with Engine(workers) as engine:
            stats = run_census(tasks, store, engine)
        seconds = [r["seconds"] for r in store.rows()]
    return {"rows": len(tasks), "wall": stats.wall, "work": sum(seconds), "longest": max(seconds)}


def main() -> None:
    cases = [([3], 2)]
    if os.environ.get("LOGICPY_BENCH_CENSUS_4"):
        cases.append(([4], 1))
    rows = []
    for gods, c in cases:
        for workers in (1, 2):
            if gods == [4] and workers == 1:
                continue  # about 15 minutes; the 2-worker run shows the work
            f = census_figures(gods, c, workers)
            projected = max(f["work"] / 32, f["longest"])
            rows.append([f"{gods[0]} gods, every semantics, c <= {c}", str(workers), f"{int(f['rows'])}",
                         f"{f['wall']:.1f} s", f"{f['work']:.1f} s", f"{f['longest']:.1f} s", f"{projected:.1f} s"])
    print_table("gods census on a Dask local cluster (wall seconds; work = the tasks' own seconds)",
                ["census", "workers", "rows", "wall", "work", "longest task", "32 workers (bound)"], rows)
