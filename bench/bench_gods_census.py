"""The gods census on Dask: wall time on 1 and 2 local workers, and a projection for 32.

    python -m bench gods_census                          the 3-god census (every semantics), c <= 2
    LOGICPY_BENCH_CENSUS_4=1 python -m bench gods_census     also the 4-god census at c <= 2 on 2 workers
    LOGICPY_BENCH_CENSUS_4=all python -m bench gods_census   ... and on 1 worker

Each run uses a fresh store, so every row is computed, with no time limit (every task must
finish). Beside the wall time: the seconds every task took on its worker, summed (the
work; wall and CPU), and the longest task. A cluster of N workers cannot beat
max(work / N, longest task); that bound, from CPU seconds (what an unshared core would
take), is the projection printed for 32 workers. The longest tasks are listed. The
machine's cores may be shared: the load average before each run is printed with it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.common import print_table
from logicpy.puzzles.gods.census.solve import puzzle_space, run_census, tasks_for
from logicpy.puzzles.gods.census.cluster import Engine
from logicpy.puzzles.gods.model import Semantics
from logicpy.puzzles.gods.census.storage import Store

SEMANTICS = [s.value for s in Semantics]


def census_figures(gods: list[int], max_complexity: int, workers: int) -> dict:
    """Run one census from scratch on a local cluster; wall, work and longest tasks in seconds."""
    tasks = tasks_for(puzzle_space(gods), SEMANTICS, 4, max_complexity)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        with Engine(workers) as engine:
            stats = run_census(tasks, store, engine)
        rows = store.rows()
    seconds = [r["seconds"] for r in rows]
    cpu = stats.cpu
    slowest = sorted(rows, key=lambda r: -cpu[r["key"]])[:3]
    return {"rows": len(rows), "wall": stats.wall, "work": sum(seconds), "longest": max(seconds), "load": load,
            "cpu": sum(cpu.values()), "cpu_longest": max(cpu.values()), "failed": len(stats.failed),
            "slowest": [(r["description"], r["semantics"], cpu[r["key"]], r["seconds"]) for r in slowest]}


def main() -> None:
    four = os.environ.get("LOGICPY_BENCH_CENSUS_4", "")
    cases = [([3], 2, 1), ([3], 2, 2)]
    if four:
        cases.append(([4], 2, 2))
        if four == "all":
            cases.append(([4], 2, 1))
    rows, notes = [], []
    for gods, c, workers in cases:
        f = census_figures(gods, c, workers)
        projected = max(f["cpu"] / 32, f["cpu_longest"])
        name = f"{gods[0]} gods, every semantics, c <= {c}"
        rows.append([name, str(workers), f"{f['rows']}" + (f" ({f['failed']} failed)" if f["failed"] else ""),
                     f"{f['wall']:.1f} s", f"{f['work']:.1f} s / {f['cpu']:.1f} s",
                     f"{f['longest']:.1f} s / {f['cpu_longest']:.1f} s", f"{projected:.1f} s", f"{f['load']:.1f}"])
        notes.append(f"{name}, {workers} worker(s), longest tasks (CPU / wall): "
                     + "; ".join(f"{d} {s} {c:.1f} s / {t:.1f} s" for d, s, c, t in f["slowest"]))
    print_table("gods census on a Dask local cluster (work = the tasks' own seconds summed, wall / CPU; "
                "the 32-worker bound from CPU seconds: max(CPU / 32, longest task's CPU))",
                ["census", "workers", "rows", "wall", "work", "longest task", "32 workers (bound)", "load before"], rows)
    print("\n".join(notes))
