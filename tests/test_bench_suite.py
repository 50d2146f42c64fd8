"""`python -m bench.bench_prolog --suite DIR`: every .pl file of a directory run unchanged with
its entry goal, and the report says which load, which run and which fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROGRAMS = {
    "counts.pl": "top :- numlist(1, 200, L), sum_list(L, 20100).\n",
    "answers.pl": "bench(A) :- findall(X-Y, (member(X, [1,2]), member(Y, [a,b])), A).\n",
    "fails.pl": "top :- member(X, [1,2,3]), X > 5.\n",
    "raises.pl": "top :- no_such_predicate(1).\n",
    "broken.pl": "top :- ( .\n",
}


@pytest.mark.skipif(shutil.which("swipl") is None, reason="needs SWI-Prolog")
def test_a_directory_of_programs_is_run_and_each_outcome_reported(tmp_path: Path) -> None:
    for name, text in PROGRAMS.items():
        (tmp_path / name).write_text(text)
    done = subprocess.run([sys.executable, "-m", "bench.bench_prolog", "--suite", str(tmp_path), "--goal", "top",
                           "--goal-for", "answers", "bench(A)", "--cap", "120"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "2 of 5 programs ran and gave SWI's answer" in out  # counts (true) and answers (a list)
    not_counted = out.split("Not counted: ")[1]
    assert "broken: does not load" in not_counted
    assert "raises: raises (PrologError" in not_counted and "no_such_predicate/1" in not_counted
    assert "fails: the goal fails (in SWI too)" in not_counted
    assert "counts:" not in not_counted and "answers:" not in not_counted


def test_a_missing_suite_directory_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bench.bench_prolog", "--suite", str(tmp_path / "none")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == f"--suite: {tmp_path / 'none'} is not a directory"
