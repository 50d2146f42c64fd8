"""How commands end: Ctrl-C (130, one line), a closed pipe (quiet, the status kept), too-big
requests refused at once, and census workers that never outlive the census."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logicpy.cli import main
from logicpy.puzzles.gods.cli import _order_count
from logicpy.puzzles.gods.model import Puzzle

LOGICPY = [sys.executable, "-m", "logicpy"]


def test_ctrl_c_while_a_command_loads_is_130_and_one_line(capsys, monkeypatch):
    import logicpy.cli as cli

    def interrupted(name):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.importlib, "import_module", interrupted)
    assert main(["gods", "--questions", "2"]) == 130
    assert capsys.readouterr().err == "logicpy: interrupted\n"


def close_stdout(monkeypatch) -> None:
    """Standard output becomes a pipe whose reader is gone (as `| head -1` leaves it)."""
    read, write = os.pipe()
    os.close(read)
    monkeypatch.setattr(sys, "stdout", os.fdopen(write, "w", buffering=1))


@pytest.mark.parametrize("argv, code", [
    (["cheryl", "--dates", "May 15, May 16"], 1),  # no solution: stays 1 under pipefail
    (["gods", "--gods", "5", "--questions", "2"], 1),
    (["gods", "--all", "--limit", "50"], 0),  # a long output cut short: a quiet success
    (["files"], 0),
])
def test_a_closed_pipe_keeps_the_commands_status_and_says_nothing(monkeypatch, capsys, argv, code):
    close_stdout(monkeypatch)
    assert main(argv) == code
    assert "Error" not in capsys.readouterr().err


def test_a_command_that_goes_on_writing_into_a_closed_pipe_is_stopped(monkeypatch):
    import logicpy.puzzles.gods.cli as gods_cli

    close_stdout(monkeypatch)
    def endless(args):
        for i in itertools.count():
            print(i)

    monkeypatch.setattr(gods_cli, "run_solve", endless)
    assert main(["gods"]) == 0


def test_pipefail_sees_no_solution_through_head():
    script = (f"set -o pipefail; {' '.join(LOGICPY)} cheryl --dates 'May 15, May 16' | head -1; echo \"status $?\"")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "status 1" and "Traceback" not in done.stderr


@pytest.mark.parametrize("queries, code", [(["X = 1."], 0), (["fail."], 1), (["X = 1.", "member(X, [])."], 1),
                                           (["foo(."], 2), (["fail.", "foo(."], 2)])
def test_the_repl_exit_status_says_how_its_queries_went(capsys, queries, code):
    argv = ["repl"] + [w for q in queries for w in ("-q", q)]
    assert main(argv) == code


def test_too_many_gods_are_refused_before_their_orders_are_listed(capsys):
    start = time.monotonic()
    assert main(["gods", "--gods", "12"]) == 2
    assert main(["gods", "--gods", "100"]) == 2
    assert main(["gods", "--types", "truly,falsely,random,random,truly,falsely,truly", "--known", "1=falsely"]) == 2
    assert time.monotonic() - start < 5
    assert capsys.readouterr().err.splitlines() == [
        "logicpy: error: 12 gods: 34,650 orders of their types x 2 languages = 69,300 hidden worlds; "
        "at most 64 are supported",
        "logicpy: error: 100 gods: at most 64 hidden worlds are supported, so at most 64 gods",
        "logicpy: error: 7 gods: 60 orders of their types x 2 languages = 120 hidden worlds; "
        "at most 64 are supported"]


TYPES = ["truly", "falsely", "random"]


@given(st.lists(st.sampled_from(TYPES), min_size=1, max_size=6), st.data())
def test_orders_are_counted_as_the_puzzle_lists_them(types, data):
    n = len(types)
    allowed = data.draw(st.dictionaries(st.integers(1, n), st.lists(st.sampled_from(TYPES), min_size=1, unique=True),
                                        max_size=2))
    known = data.draw(st.dictionaries(st.integers(1, n), st.sampled_from(types), max_size=1))
    count = _order_count(types, allowed, known)
    if count == 0 or 2 * count > 64:
        return  # the puzzle refuses it: no assignment satisfies the constraints, or too many worlds
    assert count == Puzzle.permutations(types, allowed=allowed, known=known).n_assignments


def _children(pid: int) -> list[int]:
    """The live processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
@pytest.mark.parametrize("engine", ["processes", "dask"])
def test_census_workers_die_with_a_killed_census(tmp_path, engine):
    if engine == "dask":
        pytest.importorskip("distributed")
    argv = [*LOGICPY, "gods", "census", "--gods", "4", "--max-complexity", "3", "--workers", "2",
            "--engine", engine, "--store", str(tmp_path / "c.sqlite"), "--top", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the census started no workers"
        time.sleep(1)
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(map(_alive, workers)):
            time.sleep(0.2)
        assert not any(map(_alive, workers)), "workers outlived the census"
    finally:
        if _alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["gods", "census", "--gods", "4", "--max-complexity", "3", "--workers", "2", "--top", "0"],
    ["gods", "census", "--gods", "4", "--max-complexity", "3", "--workers", "2", "--top", "0", "--engine", "processes"],
    ["gods", "--puzzle", "four-gods", "--complexity", "3", "--questions", "4", "--all", "--sharded", "--workers", "2"],
], ids=["census dask", "census processes", "gods --sharded"])
@pytest.mark.parametrize("after", [1.5, 4.0])
def test_ctrl_c_to_the_whole_process_group_is_130_and_one_line(tmp_path, argv, after):
    pytest.importorskip("distributed")
    argv = [*argv, "--store" if argv[1] == "census" else "--shard-dir", str(tmp_path / "store")]
    proc = subprocess.Popen([*LOGICPY, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C on a terminal: every process of the group
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "Error" not in err, err[-3000:]
    assert err.splitlines()[-1].startswith(("logicpy: interrupted", "interrupted: "))


def test_a_census_gives_its_estimate_then_progress_lines(tmp_path, capsys, monkeypatch):
    import logicpy.puzzles.gods.census.cli as census_cli

    monkeypatch.setattr(census_cli, "PROGRESS_EVERY", 0.05)
    argv = ["gods", "census", "--gods", "1..2", "--semantics", "free", "--engine", "processes", "--workers", "1",
            "--store", str(tmp_path / "c.sqlite"), "--top", "0"]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("census: 12 rows (12 canonical puzzles x 1 semantics), 0 stored already, 12 to compute on "
                      "process pool, 1 worker")
    lines = census_cli._ProgressLines()  # where no bar is drawn: a line every PROGRESS_EVERY seconds
    lines(3, 12)
    time.sleep(0.3)
    lines.stop()
    err = capsys.readouterr().err.splitlines()
    assert err and all(line.startswith("census: 3 of 12 rows after ") for line in err)
