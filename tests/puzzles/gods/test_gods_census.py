"""The gods census: the puzzle space, known answers per semantics, the store (resume after an
interruption), exports, and the run on a local Dask cluster of 2 workers."""

from __future__ import annotations

import csv
import importlib
import io
import itertools
import json
import sqlite3
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.gods import CLASSIC, solve, verify
from logicpy.puzzles.gods.census.solve import Spec, Task, canonical, examine, puzzle_of_row, puzzle_space, run_census, tasks_for
from logicpy.puzzles.gods.census.cli import heat_map_svg, hardest, summary
from logicpy.puzzles.gods.census.cluster import Engine
from logicpy.puzzles.gods.census.storage import COLUMNS, Store, to_csv
from logicpy.puzzles.gods.tree import tree_from_json

pytest.importorskip("distributed")


def classic_spec() -> Spec:
    (spec,) = [s for s in puzzle_space([3]) if len(s.assignments) == 6]
    return spec


# -- the space ---------------------------------------------------------------------------------
def test_one_god_space_is_truly_falsely_random_alone():
    specs = puzzle_space([1])
    assert sorted(s.key for s in specs) == ["F", "R", "T"]
    assert all(s.raw == 1 for s in specs)


def test_the_classic_puzzle_is_one_canonical_puzzle_with_one_raw_form():
    spec = classic_spec()
    assert set(spec.assignments) == set(CLASSIC.assignments)
    assert spec.raw == 1  # only "TFR, no restriction" yields all six orders
    assert spec.description == "TFR"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_canonical_form_is_invariant_under_renaming_positions(data):
    n = data.draw(st.integers(1, 4))
    rows = data.draw(st.lists(st.tuples(*[st.sampled_from(("truly", "falsely", "random"))] * n),
                              min_size=1, max_size=6, unique=True))
    perm = data.draw(st.permutations(range(n)))
    renamed = [tuple(a[i] for i in perm) for a in rows]
    assert canonical(rows, n) == canonical(renamed, n)
    assert set(canonical(rows, n)) in [{tuple(a[i] for i in p) for a in rows} for p in itertools.permutations(range(n))]


def test_raw_counts_add_up_to_every_raw_form_with_an_assignment():
    # Brute force, independently of puzzle_space: every multiset of 2 gods and every
    # choice of non-empty allowed sets drawn from its types.
    raw = 0
    for multiset in itertools.combinations_with_replacement(("truly", "falsely", "random"), 2):
        present = sorted(set(multiset))
        subsets = [set(c) for k in range(1, len(present) + 1) for c in itertools.combinations(present, k)]
        for a1, a2 in itertools.product(subsets, repeat=2):
            raw += any(p[0] in a1 and p[1] in a2 for p in itertools.permutations(multiset))
    specs = puzzle_space([2])
    assert sum(s.raw for s in specs) == raw
    assert len({s.key for s in specs}) == len(specs)


# -- known answers -------------------------------------------------------------------------------
@pytest.mark.parametrize("semantics, questions, complexity", [
    ("free", 3, 1),        # the seed: three questions; complexity-1 questions suffice
    ("boolos", 3, 1),      # Boolos (1996)
    ("explode", 2, 2),     # Uzquiano (2010): two questions once heads may explode
    ("explode-silent", 3, 1),  # Wheeler & Barahona (2012): Random may be silent -> three again
])
def test_classic_row_matches_the_literature(semantics, questions, complexity):
    row = examine(Task(classic_spec(), semantics, 4, 2))
    assert row["status"] == "solvable"
    assert (row["least_questions"], row["least_complexity"]) == (questions, complexity)
    puzzle = puzzle_of_row(row)
    assert verify(puzzle, tree_from_json(row["tree"], puzzle), questions).ok
    assert int(row["trees"]) >= 1


def test_truly_and_free_random_are_inseparable_and_say_why():
    (spec,) = [s for s in puzzle_space([2]) if s.key == "RT,TR"]
    row = examine(Task(spec, "free", 4, 2))
    assert (row["status"], row["proof"]) == ("unsolvable", "inseparable")
    assert "share a branch under every question" in row["reason"]
    # Boolos' Random is truthful or lying: then one question separates them.
    assert examine(Task(spec, "boolos", 4, 2))["least_questions"] == 1


def test_counting_bound_is_the_proof_when_the_question_bound_is_too_small():
    row = examine(Task(classic_spec(), "free", 2, 2))
    assert (row["status"], row["proof"]) == ("unsolvable", "counting")


# -- on the local Dask cluster, through the store ------------------------------------------------
@pytest.fixture(scope="module")
def engine():
    with Engine(workers=2) as e:
        yield e


SMALL = dict(semantics=["free", "boolos"], max_questions=3, max_complexity=1)


def small_tasks():
    return tasks_for(puzzle_space([1, 2]), SMALL["semantics"], SMALL["max_questions"], SMALL["max_complexity"])


def test_census_on_two_local_workers_matches_examine_in_process(engine, tmp_path):
    assert engine.workers == 2 and engine.name == "dask local cluster, 2 workers"
    tasks = small_tasks()
    with Store(tmp_path / "c.sqlite") as store:
        stats = run_census(tasks, store, engine)
        rows = store.rows()
    assert (stats.tasks, stats.done, stats.stored_before) == (len(tasks), len(tasks), 0)
    local = {t.key: examine(t) for t in tasks}
    for row in rows:
        want = local[row["key"]]
        assert {k: row[k] for k in COLUMNS if k != "seconds"} == {k: want[k] for k in COLUMNS if k != "seconds"}


def test_interrupted_census_keeps_finished_rows_and_resumes(engine, tmp_path):
    tasks = small_tasks()
    path = tmp_path / "c.sqlite"

    def stop_after_five(done, total):
        if done >= 5:
            raise KeyboardInterrupt

    with Store(path) as store, pytest.raises(KeyboardInterrupt):
        run_census(tasks, store, engine, stop_after_five)
    with Store(path) as store:
        assert len(store.rows()) == 5
        stats = run_census(tasks, store, engine)
        assert (stats.stored_before, stats.done) == (5, len(tasks) - 5)
        assert sorted(r["key"] for r in store.rows()) == sorted(t.key for t in tasks)


def test_a_lost_worker_costs_only_its_task(engine, tmp_path):
    marker = tmp_path / "died"
    results = sorted((value, error) for _, value, error in engine.map_unordered(_die_once, [(str(marker), i) for i in range(6)]))
    assert marker.exists()  # one worker process really died mid-task
    assert results == [(i, None) for i in range(6)]  # and its task was run again elsewhere


def test_a_task_that_always_fails_is_reported_and_the_others_finish(engine):
    outcomes = {item: (value, error) for item, value, error in engine.map_unordered(_fail_on_two, range(4))}
    assert {i: v for i, (v, e) in outcomes.items() if e is None} == {0: 0, 1: 1, 3: 3}
    assert isinstance(outcomes[2][1], ValueError) and "two is bad" in str(outcomes[2][1])


def _fail_on_two(i):
    if i == 2:
        raise ValueError("two is bad")
    return i


def _die_once(item):
    import os

    path, i = item
    if i == 3 and not os.path.exists(path):
        open(path, "w").close()
        os._exit(1)
    return i


# -- the command ---------------------------------------------------------------------------------
def census(capsys, tmp_path, *extra):
    code = main(["gods", "census", "--gods", "1..2", "--semantics", "free,boolos", "--max-questions", "3",
                 "--max-complexity", "1", "--engine", "processes", "--workers", "2",
                 "--store", str(tmp_path / "c.sqlite"), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_csv_svg_and_resume(capsys, tmp_path):
    code, out, err = census(capsys, tmp_path, "--json", "--csv", str(tmp_path / "c.csv"), "--svg", str(tmp_path / "c.svg"))
    assert code == 0 and out.count("\n") == 1
    data = json.loads(out)
    assert (data["status"], data["command"], data["failed"]) == ("ok", "gods census", [])
    assert data["space"]["canonical"] == 12 and data["space"]["raw"] == 27
    assert len(data["rows"]) == 24
    assert all(h["verified"]["ok"] for h in data["hardest"])
    assert sum(sum(v.values()) for v in data["summary"].values()) == 24
    table = list(csv.DictReader(io.StringIO((tmp_path / "c.csv").read_text())))
    assert len(table) == 24 and set(table[0]) == set(COLUMNS)
    svg = ET.fromstring((tmp_path / "c.svg").read_text())
    assert svg.tag.endswith("svg") and len(list(svg.iter("{http://www.w3.org/2000/svg}rect"))) >= 2 * 5
    code, out, err = census(capsys, tmp_path)
    assert code == 0 and "0 computed now" in err and "24 already in" in err
    assert "q1 c1" in out and "none: inseparable" in out and "verified: tree replayed" in out


@pytest.mark.parametrize("argv, message", [
    (["--gods", "0..2"], "--gods: 0 is out of range"),
    (["--gods", "x"], "expected a range like 1..4"),
    (["--semantics", "nope"], "unknown semantics 'nope'"),
    (["--types", "truly,ghost"], "unknown god type 'ghost'"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--time-limit", "-1"], "argument --time-limit: -1 is out of range"),
])
def test_bad_census_options_exit_2_naming_the_option(capsys, tmp_path, argv, message):
    code = main(["gods", "census", "--store", str(tmp_path / "c.sqlite"), *argv])
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_file_that_is_not_a_store_is_refused(capsys, tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("hello, not a database\n" * 100)
    code = main(["gods", "census", "--gods", "1", "--store", str(bad)])
    assert code == 2 and "not a logicpy census store" in capsys.readouterr().err


def test_hardest_refuses_a_tampered_tree(tmp_path):
    row = examine(Task(classic_spec(), "free", 3, 1))
    assert [r["key"] for r, check in hardest([row], 1) if check.ok] == [row["key"]]
    row["tree"] = {**row["tree"], "ja": row["tree"]["da"], "da": row["tree"]["ja"]}  # swap the root's branches
    with pytest.raises(InputError, match="fails replay"):
        hardest([row], 1)
    assert heat_map_svg([examine(Task(classic_spec(), "free", 3, 1))]).startswith("<svg")
    assert to_csv([]).strip() == ",".join(COLUMNS)
    assert sqlite3.sqlite_version  # the standard library's SQLite is the store


def test_a_universe_too_big_is_refused_with_its_estimate_and_the_workers_it_would_need(monkeypatch):
    universe_module = importlib.import_module("logicpy.puzzles.gods.universe")

    monkeypatch.setattr(universe_module, "MAX_LEVEL_BYTES", 1 << 10)  # pretend a worker has 1 KiB
    universe_module._CACHE.clear()
    row = examine(Task(classic_spec(), "free", 2, 3, worker_memory=1 << 10))
    assert row["proof"] == "counting"  # 2 questions: refuted by counting, no universe needed
    # Truly and free Random cannot be told apart at complexity <= 2; complexity 3 is refused.
    (spec,) = [s for s in puzzle_space([2]) if s.key == "RT,TR"]
    row = examine(Task(spec, "free", 2, 3, worker_memory=1 << 10))
    assert (row["status"], row["proof"]) == ("unsolvable", "refused")
    assert "would mean about" in row["reason"] and "GiB" in row["reason"]
    needed = int(row["reason"].split("would need ")[1].split()[0])
    assert needed > 1
    universe_module._CACHE.clear()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGINT", "SIGKILL"])
def test_the_command_stopped_or_killed_resumes_without_losing_rows(tmp_path, how):
    import os
    import signal
    import subprocess
    import sys
    import time

    store = tmp_path / "c.sqlite"
    argv = [sys.executable, "-m", "logicpy", "gods", "census", "--gods", "3", "--semantics", "explode,silent",
            "--max-complexity", "3", "--workers", "2", "--store", str(store), "--top", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.5)
        if store.exists():
            with Store(store) as polled:
                if len(polled.done_keys()) >= 3:
                    break
    os.killpg(proc.pid, getattr(signal, how)) if how == "SIGKILL" else proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=60)
    with Store(store) as s:
        kept = s.done_keys()
    assert len(kept) >= 3
    if how == "SIGINT":
        assert code == 130 and b"run the same command again to resume" in proc.stderr.read()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0
    assert f"{len(kept)} already in" in done.stderr
    with Store(store) as s:
        assert len(s.done_keys()) == 66 and kept <= s.done_keys()


GODS_FILE = '''
from logicpy.puzzles.gods import GodType
GODS = [GodType("always_da", "D", lambda truth, da_means_yes, choice: "da", description="says da to everything")]
'''


def test_open_god_types_from_a_gods_file_on_the_workers(engine, tmp_path):
    source = tmp_path / "mygods.py"
    source.write_text(GODS_FILE)
    specs = puzzle_space([2], ["truly", "always_da"], str(source))
    assert sorted(s.key for s in specs) == ["DD", "DT", "DT,TD", "TT"]  # DT: both positions known
    tasks = tasks_for(specs, ["free"], 3, 2)
    with Store(tmp_path / "c.sqlite") as store:
        run_census(tasks, store, engine)
        rows = {r["puzzle"]: r for r in store.rows()}
    # Truly says ja to "would you answer da to: god 2 is Truly?" when god 2 says da to all: one question.
    mixed = rows["DT,TD"]
    assert (mixed["least_questions"], mixed["least_complexity"], mixed["gods_file"]) == (1, 1, str(source))
    assert [r["key"] for r, check in hardest(list(rows.values()), 3) if check.ok] == [mixed["key"]]
    with pytest.raises(InputError, match="unknown god type 'ghost'"):
        puzzle_space([1], ["ghost"], str(source))


def test_cli_on_a_running_scheduler_with_cluster_address(engine, capsys, tmp_path):
    address = engine._cluster.scheduler_address  # a real scheduler with 2 workers, started by the fixture
    engine._client.wait_for_workers(2, timeout=120)  # the nanny may still be restarting the worker killed above
    code = main(["gods", "census", "--gods", "1..2", "--semantics", "boolos", "--max-questions", "2",
                 "--max-complexity", "1", "--cluster", address, "--store", str(tmp_path / "c.sqlite"), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and f"dask scheduler {address}, 2 workers" in err
    rows = json.loads(out)["rows"]
    assert len(rows) == 12 and {r["least_questions"] for r in rows} == {0, 1}
    # the census closed only its own client: the cluster still runs tasks
    assert [v for _, v, _ in engine.map_unordered(abs, [-3])] == [3]


# -- the 4-god census at complexity 2 (issue 15: tasks that ran for more than 9 minutes) ----------
def four_god_spec(letters: str) -> Spec:
    """The 4-god puzzle of this multiset with no position restricted (e.g. "TTFR")."""
    names = {"T": "truly", "F": "falsely", "R": "random"}
    gods = sorted(names[c] for c in letters)
    (spec,) = [s for s in puzzle_space([4]) if sorted(s.gods) == gods and all(len(a) == len(set(gods)) for a in s.allowed)]
    return spec


def test_boolos_tttr_needs_two_questions_of_complexity_2():
    """Known answer of the previous census run: under boolos T,T,T,R and T,R,R,R need 2 questions, complexity 2."""
    for letters in ("TTTR", "TRRR"):
        row = examine(Task(four_god_spec(letters), "boolos", 4, 2))
        assert (row["status"], row["least_questions"], row["least_complexity"]) == ("solvable", 2, 2)
        puzzle = puzzle_of_row(row)
        assert verify(puzzle, tree_from_json(row["tree"], puzzle), 2).ok


@pytest.mark.slow
def test_free_ttfr_needs_four_questions_of_complexity_2():
    """Known answer of the previous census run: under free T,T,F,R needs 4 questions, complexity 2 (about 5 s)."""
    row = examine(Task(four_god_spec("TTFR"), "free", 4, 2))
    assert (row["status"], row["least_questions"], row["least_complexity"]) == ("solvable", 4, 2)
    puzzle = puzzle_of_row(row)
    assert verify(puzzle, tree_from_json(row["tree"], puzzle), 4).ok


@pytest.mark.slow
@pytest.mark.parametrize("semantics, questions", [("silent", 4), ("explode", 3)])
def test_the_four_god_tasks_that_ran_over_9_minutes_now_finish(semantics, questions):
    """F,F,R,T under silent and explode at complexity <= 2 (the census stopped there before; now
    under a minute each): solvable, with a verified tree, and 3 questions refuted by counting
    under silent (12 assignments, and a question holds each world in ja or da)."""
    row = examine(Task(four_god_spec("FFRT"), semantics, 4, 2))
    assert (row["status"], row["least_questions"], row["least_complexity"]) == ("solvable", questions, 2)
    puzzle = puzzle_of_row(row)
    assert verify(puzzle, tree_from_json(row["tree"], puzzle), questions).ok
    if semantics == "silent":
        assert solve(puzzle, 3, 2).reason.startswith("counting bound: 12 assignments cannot fit in the 8 leaves")


# -- the time limit --------------------------------------------------------------------------------
def test_a_task_over_its_time_limit_is_stored_as_timeout_and_retried_with_a_larger_limit(engine, tmp_path):
    quick = Task(classic_spec(), "free", 3, 1, time_limit=1e-9)
    row = examine(quick)
    assert row["status"] == "timeout" and row["tree"] is None and row["proof"] is None
    assert "time limit" in row["reason"]
    with Store(tmp_path / "c.sqlite") as store:
        stats = run_census([quick], store, engine)
        assert stats.done == 1 and store.rows()[0]["status"] == "timeout"
        assert store.done_keys({quick.key: 1e-9}) == {quick.key}  # the same limit: not again
        stats = run_census([quick], store, engine)
        assert stats.done == 0
        stats = run_census([replace(quick, time_limit=0)], store, engine)  # no limit: computed again
        assert stats.done == 1
        (row,) = store.rows()
    assert (row["status"], row["least_questions"], row["least_complexity"]) == ("solvable", 3, 1)
    assert summary([row, {**row, "status": "timeout", "semantics": "boolos"}]) == {
        "q3 c1": {"free": 1}, "timeout": {"boolos": 1}}
