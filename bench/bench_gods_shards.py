"""The universe built sharded by signature: the classic level 3, and the four-god level 3.

    python -m bench gods_shards                      classic complexity 3, every way
    LOGICPY_BENCH_SHARDS_4=1 python -m bench gods_shards    also four gods, complexity 3 (minutes)
    LOGICPY_BENCH_SHARDS_WORKERS=1,2                 local Dask workers to try (default 1,2)

Wall seconds of one build from scratch (a fresh cache directory), split into the map
round (candidates evaluated, deduplicated by task and split by shard), the reduce round
(one task per shard) and loading the level here; the distinct signatures found; each
worker's peak resident memory and CPU seconds; this process's peak resident memory.
Beside it, the in-process build (`Universe`), or its refusal. The machine's cores are
shared, so wall times vary with its load: CPU seconds are the steadier figure.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time

from bench.common import fmt_bytes, print_table
from logicpy.errors import InputError
from logicpy.puzzles.gods import CLASSIC, FOUR_GODS
from logicpy.puzzles.gods.census.cluster import Engine
from logicpy.puzzles.gods.search import TreeSearch, move_table
from logicpy.puzzles.gods.census.shards import Sharding
from logicpy.puzzles.gods.universe import Universe
from logicpy.puzzles.gods.verify import verify


def _peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _in_process(puzzle, level: int) -> list[str]:
    u = Universe(puzzle, level - 1)
    start = time.perf_counter()
    try:
        u.extend_to(level)
    except InputError as exc:
        return ["in process", "refused", "", "", "", f"{exc}"[:90], "", ""]
    return ["in process", f"{time.perf_counter() - start:.1f} s", "", "", "",
            f"{u.level_counts()[level]:,}", "", fmt_bytes(_peak())]


def _sharded(puzzle, level: int, workers: int | None, shards: int) -> tuple[list[str], Universe]:
    u = Universe(puzzle, level - 1)
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as cache:
        if workers is None:
            sharding = Sharding(cache_dir=cache, shards=shards, min_candidates=0)
            start = time.perf_counter()
            u.extend_to(level, sharding=sharding)
            usage = ""
            where = f"sharded here, {shards} shards"
        else:
            with Engine(workers) as engine:
                sharding = Sharding(engine=engine, cache_dir=cache, shards=shards, min_candidates=0)
                start = time.perf_counter()
                u.extend_to(level, sharding=sharding)
                usage = ", ".join(f"{fmt_bytes(rss)} / {cpu:.0f} s" for rss, cpu in engine.worker_usage())
            where = f"{workers} Dask worker{'s' if workers > 1 else ''}, {shards} shards"
    wall = time.perf_counter() - start
    st = sharding.stats[-1]
    return [where, f"{wall:.1f} s", f"{st.map_seconds:.1f} s", f"{st.reduce_seconds:.1f} s",
            f"{st.load_seconds:.1f} s", f"{st.distinct:,}", usage, fmt_bytes(_peak())], u


HEADER = ["build", "wall", "map", "reduce", "load", "distinct signatures",
          "per worker: peak memory / CPU", "this process peak"]


def main() -> None:
    workers = [int(w) for w in os.environ.get("LOGICPY_BENCH_SHARDS_WORKERS", "1,2").split(",")]
    rows = [_in_process(CLASSIC, 3), _sharded(CLASSIC, 3, None, 16)[0]]
    rows += [_sharded(CLASSIC, 3, w, 16)[0] for w in workers]
    print_table("classic puzzle, complexity 3 (7.5 million candidates)", HEADER, rows)
    if not os.environ.get("LOGICPY_BENCH_SHARDS_4"):
        print("(set LOGICPY_BENCH_SHARDS_4=1 for the four-god universe at complexity 3: minutes per build)")
        return
    puzzle = FOUR_GODS
    rows = [_in_process(puzzle, 3)]
    u = None
    for w in workers:
        row, u = _sharded(puzzle, 3, w, 64)
        rows.append(row)
    print_table(f"four gods ({puzzle.semantics.value}), complexity 3 "
                f"({Universe(puzzle, 2).count_candidates(3):,} candidates)", HEADER, rows)
    assert u is not None
    for c in (2, 3):
        start = time.perf_counter()
        moves = move_table(u, c)
        search = TreeSearch(puzzle, u, moves)
        tree = search.one(search.all_live, 4)
        none3 = search.one(search.all_live, 3)
        ok = tree is not None and verify(puzzle, tree, 4).ok
        print(f"complexity <= {c}: {len(moves):,} distinct moves; 4 questions: "
              f"{'a tree, verified' if ok else 'FAILED'}; 3 questions: "
              f"{'none (exhaustive)' if none3 is None else 'a tree?!'}; {time.perf_counter() - start:.1f} s")
