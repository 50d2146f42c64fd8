"""`python -m bench`: its help lists every benchmark, and a wrong name is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_help_lists_every_benchmark_with_its_summary() -> None:
    out = bench("--help")
    assert out.returncode == 0, out.stderr
    names = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "bench").glob("bench_*.py"))
    for name in names:
        assert f"  {name} " in out.stdout
    assert "The relational core on programs a Prolog user writes" in out.stdout


def test_an_unknown_benchmark_is_refused_with_exit_2() -> None:
    out = bench("no_such_bench")
    assert out.returncode == 2
    assert "unknown benchmark(s): no_such_bench" in out.stderr
    assert out.stdout == ""
