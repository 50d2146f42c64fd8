"""Shared measuring helpers for the benchmarks: CPU time, peak memory, SWI-Prolog runs, tables."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
PROLOG_DIR = ROOT / "logicpy" / "data" / "prolog"


@dataclass
class Measure:
    """Best CPU seconds over the repeats, peak Python heap in bytes (one traced run), and the result."""

    seconds: float
    peak_bytes: int | None
    result: Any


def measure(fn: Callable[[], Any], repeat: int = 3, trace_memory: bool = True) -> Measure:
    """Run `fn` `repeat` times; best process CPU time, and the peak heap of a separate traced run."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    peak = None
    if trace_memory:
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return Measure(best, peak, result)


def swipl_seconds(file: Path, goal: str, repeat: int = 3, cap: float | None = None) -> float | str | None:
    """CPU seconds SWI-Prolog spends on `goal` after consulting `file` (best of `repeat`).

    Timed inside Prolog with statistics(cputime), so start-up and consult are excluded.
    With `cap`, each run is stopped after `cap` seconds and the result is the text
    "> cap s" if any run was stopped. None when swipl is not installed.
    """
    if shutil.which("swipl") is None:
        return None
    run = f"({goal} -> true ; true)"
    if cap is not None:
        run = f"catch(call_with_time_limit({cap}, {run}), time_limit_exceeded, Capped = true)"
    program = (
        f"forall(between(1,{repeat},_), (statistics(cputime,T0), {run}, "
        "statistics(cputime,T1), T is T1-T0, (Capped == true -> Done = capped ; Done = finished), "
        "format('~w ~6f~n',[Done, T])))"
    )
    out = subprocess.run(
        ["swipl", "-q", "-g", program, "-t", "halt", str(file)],
        capture_output=True, text=True, check=True,
        timeout=None if cap is None else repeat * (cap + 60),
    ).stdout
    runs = re.findall(r"^(finished|capped) (\d+\.\d+)$", out, re.M)
    if not runs:
        return None
    if any(done == "capped" for done, _ in runs):
        return f"> {cap:g} s"
    return min(float(t) for _, t in runs)


def fmt_seconds(s: float | str | None) -> str:
    """Seconds in a readable unit (text such as "> 60 s" is passed through)."""
    if s is None:
        return "n/a"
    if isinstance(s, str):
        return s
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_bytes(n: int | None) -> str:
    """Bytes in MB."""
    return "n/a" if n is None else f"{n / 2**20:.1f} MB"


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print an aligned table (rich on a terminal and when piped alike)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for h in header:
        table.add_column(h)
    for row in rows:
        table.add_row(*[str(c) for c in row])
    Console(width=120).print(table)
