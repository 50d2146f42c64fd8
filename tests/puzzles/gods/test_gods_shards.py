"""The universe built sharded by signature (`shards.py`) is the in-process universe exactly.

Known figures: the classic puzzle has 11, 69, 2156 and 844,364 new signatures at
complexity 0..3 (README, "Why it is fast"); the sharded build must find the same ones,
with the same ids and representatives, for any shard count, task size or worker count.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from logicpy.puzzles.gods import CLASSIC, solve, verify
from logicpy.puzzles.gods.census import shards as shards_module
from logicpy.puzzles.gods.census.cluster import Engine
from logicpy.puzzles.gods.search import move_table
from logicpy.puzzles.gods.census.shards import LevelKernel, Sharding, build_level, map_task
from logicpy.puzzles.gods.universe import Universe, UniverseTooBig


def sharded(puzzle, complexity, **options):
    """`puzzle`'s universe with every level above 0 built sharded (in this process unless an engine is given)."""
    u = Universe(puzzle, 0)
    u.extend_to(complexity, sharding=Sharding(min_candidates=0, **options))
    return u


def assert_same(u: Universe, ref: Universe) -> None:
    assert u.level_bounds == ref.level_bounds
    assert np.array_equal(u.signatures, ref.signatures)
    assert np.array_equal(u._rule[: u.size], ref._rule[: ref.size])
    assert np.array_equal(u._args[: u.size], ref._args[: ref.size])
    assert all(u.term(q) == ref.term(q) for q in range(0, u.size, 97))


@pytest.mark.parametrize("semantics, shards", [("free", 1), ("free", 16), ("silent", 3), ("explode", 5)])
def test_sharded_levels_are_the_in_process_levels_exactly(semantics, shards):
    puzzle = CLASSIC.with_options(semantics=semantics)  # explode: 48 worlds, self-reference
    ref = Universe(puzzle, 2)
    u = sharded(puzzle, 2, shards=shards, task_candidates=2999)  # several map tasks per level
    assert_same(u, ref)
    if semantics != "explode":
        assert u.level_counts() == [11, 69, 2156]
    # Every signature is distinct and kept once, in every shard.
    keys = u.signatures[:, 0] if u.layout.n_words == 1 else u.signatures.view(f"V{8 * u.layout.n_words}").ravel()
    assert len(np.unique(keys)) == u.size


def test_the_search_on_a_sharded_universe_finds_verified_trees():
    u = sharded(CLASSIC, 2, shards=5)
    ref = Universe(CLASSIC, 2)
    mine, theirs = move_table(u, 2), move_table(ref, 2)
    assert np.array_equal(mine.qids, theirs.qids) and np.array_equal(mine.sets, theirs.sets)
    result = solve(CLASSIC, 3, 2, find="all", limit=3, sharding=Sharding(min_candidates=0, shards=5))
    assert result.count == 3456  # the classic puzzle's trees at complexity <= 2 (README)
    assert all(verify(CLASSIC, t).ok for t in result.trees)


def test_an_interrupted_build_resumes_with_the_missing_tasks(tmp_path):
    ref = Universe(CLASSIC, 2)
    u = Universe(CLASSIC, 1)
    options = dict(cache_dir=tmp_path, shards=4, task_candidates=500)
    kernel = LevelKernel.of(u, 2)
    tasks = kernel.tasks(500)
    assert len(tasks) > 4
    # The first run is killed after two map tasks (and leaves a half-written file behind).
    level_dir = tmp_path / f"{kernel.digest()}-c2-s4-t500"
    level_dir.mkdir()
    for task in tasks[:2]:
        map_task(kernel, str(level_dir), 4, task)
    (level_dir / f"task-{tasks[2][0]}.sig.npy.123.tmp").write_bytes(b"half")
    sharding = Sharding(min_candidates=0, **options)
    u.extend_to(2, sharding=sharding)
    stats = sharding.stats[-1]
    assert (stats.tasks, stats.tasks_run) == (len(tasks), len(tasks) - 2)
    assert_same(u, ref)
    assert json.loads((level_dir / "level.json").read_text())["candidates"] == 9798
    # A finished level is a cache: the next build runs no task at all.
    again = Sharding(min_candidates=0, **options)
    assert_same(Universe(CLASSIC, 1).extend_to(2, sharding=again), ref)
    assert again.stats[-1].tasks_run == 0 and not list(level_dir.glob("task-*"))


def test_a_level_too_big_to_load_is_refused_with_its_exact_count_and_stays_on_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(shards_module, "MAX_LEVEL_BYTES", 1 << 10)
    u = Universe(CLASSIC, 1)
    with pytest.raises(UniverseTooBig, match="has 2,156 distinct signatures"):
        build_level(u, Sharding(cache_dir=tmp_path, shards=2))
    assert u.max_complexity == 1 and len(list(tmp_path.glob("*/shard-*.sig.npy"))) == 2


def test_a_level_too_big_for_the_workers_is_refused_with_the_workers_it_needs(monkeypatch):
    monkeypatch.setattr(shards_module, "MAX_WORKER_CANDIDATES", 100)  # pretend a worker evaluates 100
    u = Universe(CLASSIC, 1)  # complexity 2: 9798 candidates
    with pytest.raises(UniverseTooBig, match=r"it needs 98 workers") as caught:
        build_level(u, Sharding())
    assert caught.value.candidates == 9798 and u.max_complexity == 1


def test_candidates_are_counted_exactly():
    u = Universe(CLASSIC, 2)
    assert [s.candidates for s in u.stats[1:]] == [u.count_candidates(1), u.count_candidates(2)] == [242, 9798]


def test_two_local_dask_workers_build_the_same_level():
    ref = Universe(CLASSIC, 2)
    with Engine(workers=2) as engine:
        u = sharded(CLASSIC, 2, engine=engine, shards=7, task_candidates=2000)
    assert_same(u, ref)


@pytest.mark.slow
@pytest.mark.parametrize("shards", [1, 16])
def test_classic_complexity_3_sharded_on_two_workers_is_the_in_process_universe(shards):
    ref = Universe(CLASSIC, 3)
    with Engine(workers=2) as engine:
        u = sharded(CLASSIC, 3, engine=engine, shards=shards, task_candidates=1 << 20)
    assert u.level_counts() == [11, 69, 2156, 844364]
    assert_same(u, ref)


def test_cli_sharding_options_need_sharded(capsys):
    from logicpy.cli import main

    assert main(["gods", "--workers", "2"]) == 2
    assert "--workers, --cluster and --shard-dir need --sharded" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_sharded_on_one_local_worker_answers_like_in_process(capsys, tmp_path, monkeypatch):
    from logicpy.cli import main

    monkeypatch.setattr(shards_module, "MIN_CANDIDATES", 0)  # shard even the small levels
    code = main(["gods", "--questions", "3", "--complexity", "1", "--sharded", "--workers", "1",
                 "--shard-dir", str(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "ok" and out["outcome"] == "found"
    assert len(list(tmp_path.glob("*-c1-*/shard-*.sig.npy"))) == shards_module.SHARDS  # level 1 was sharded


def test_the_move_table_in_small_chunks_is_the_move_table(monkeypatch):
    from logicpy.puzzles.gods import search

    u = Universe(CLASSIC.with_options(semantics="silent"), 2)
    whole = move_table(u, 2)
    u.__dict__.pop("_move_tables")
    monkeypatch.setattr(search, "MOVE_CHUNK", 97)  # 24 chunks of ids
    chunked = move_table(u, 2)
    assert len(whole.qids) == 1203
    for field in ("positions", "qids", "sets"):
        assert np.array_equal(getattr(whole, field), getattr(chunked, field))
