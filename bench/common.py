"""Shared measuring helpers for the benchmarks: CPU time, peak memory, SWI-Prolog runs, tables."""

from __future__ import annotations

import re
import shutil
import statistics
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


# The aims of the relational core, checked in every run that measures them. A benchmark
# reports each figure it measures with `record`; `python -m bench` prints `aims_rows()`
# after the runs, so the table's ratios all come from that one run.

#: logicpy and SWI-Prolog CPU seconds measured in this run, by row name.
FIGURES: dict[str, tuple[float, float | None]] = {}


def record(row: str, logicpy_seconds: float, swi_seconds: float | str | None) -> None:
    """Keep a row's figures for the summary (SWI's only when it gave a time)."""
    FIGURES[row] = (logicpy_seconds, swi_seconds if isinstance(swi_seconds, float) and swi_seconds > 0 else None)


#: Ratios to SWI-Prolog that sum up a suite of programs measured in this run, by row name
#: (`suite_rows`: "<suite>: median", "<suite>: worst").
SUITE_RATIOS: dict[str, float] = {}


def suite_rows(suite: str) -> tuple[str, str]:
    """The row names of a suite's median and worst ratio."""
    return f"{suite}: median", f"{suite}: worst"


def record_suite(suite: str, ratios: list[float]) -> tuple[float, float] | None:
    """Keep the median and the worst of a suite's logicpy / SWI ratios for the summary, and
    return them (None when no program of the suite was measured)."""
    if not ratios:
        return None
    median, worst = suite_rows(suite)
    SUITE_RATIOS[median] = statistics.median(ratios)
    SUITE_RATIOS[worst] = max(ratios)
    return SUITE_RATIOS[median], SUITE_RATIOS[worst]


@dataclass(frozen=True)
class Aim:
    """At most `limit` for a row's time over SWI-Prolog's, or over the logicpy time of row
    `over`; for a suite's row (`suite_rows`), at most `limit` for the ratio it records."""

    text: str
    row: str
    limit: float
    over: str | None = None

    def ratio(self, figures: dict[str, tuple[float, float | None]],
              suites: dict[str, float] | None = None) -> float | None:
        """The measured ratio, or None when this run did not measure it."""
        if suites is not None and self.row in suites:
            return suites[self.row]
        if self.row not in figures:
            return None
        mine, swi = figures[self.row]
        base = swi if self.over is None else figures.get(self.over, (None,))[0]
        return mine / base if base else None


NREV_USER = "naive reverse 100, user append (runs as appendo's loop)"
NREV_CLAUSES = "naive reverse 100, user clauses run as clauses"
NREV_APPENDO = "naive reverse 100 (logicpy appendo)"
ZEBRA = "zebra, relational (membero/adjacento)"
JOIN = "two-hop join over 20,000 facts"
CLOSURE_ONE = "tabled left-recursive closure, 1,000 edges: from one node"
CLOSURE_ALL = "… all pairs (once)"
IN_A_FILE = "five relation works, defined in a file"
AT_A_PROMPT = "the same five, typed at a prompt (<stdin>)"
PROLOG_SUITE = "classic Prolog programs"
SHAPES_SUITE = "relations of varied shapes"
SHAPES_SUITE_CLAUSES = "relations of varied shapes, loops.disabled()"
LOOKUPS_FIRST = "10,000 first-argument lookups in 100,000 facts"
LOOKUPS_SECOND = "10,000 second-argument lookups in 100,000 facts"
LOOKUPS_MILLION = "10,000 first-argument lookups in 1,000,000 facts"
LOOKUPS_TEN = "10,000 first-argument lookups in 10 facts"
CONSULT_100K = "consult 100,000 facts"
ASSERTZ_100K = "assertz of 100,000 facts"

AIMS = [
    Aim("naive reverse of 100, user-written (its append runs as appendo's loop) / SWI", NREV_USER, 40),
    Aim("… / the same with the built-in appendo (logicpy both)", NREV_USER, 1.5, over=NREV_APPENDO),
    Aim("… the same, its clauses run as clauses (loops.disabled()) / SWI", NREV_CLAUSES, 40),
    Aim("naive reverse of 100 with the built-in appendo / SWI", NREV_APPENDO, 15),
    Aim("relational zebra, all solutions / SWI", ZEBRA, 20),
    Aim("two-hop join over 20,000 facts / SWI", JOIN, 10),
    Aim("tabled closure from one node / SWI", CLOSURE_ONE, 10),
    Aim("tabled closure, all pairs / SWI", CLOSURE_ALL, 10),
    Aim("relations typed at a prompt / the same text in a file (logicpy both)", AT_A_PROMPT, 1.2, over=IN_A_FILE),
    Aim("classic Prolog programs consulted unchanged: median / SWI", suite_rows(PROLOG_SUITE)[0], 30),
    Aim("… worst / SWI", suite_rows(PROLOG_SUITE)[1], 100),
    Aim("relations of varied shapes in Python: median / SWI", suite_rows(SHAPES_SUITE)[0], 10),
    Aim("… each (the worst) / SWI", suite_rows(SHAPES_SUITE)[1], 25),
    Aim("… the same with loops.disabled(): median / SWI", suite_rows(SHAPES_SUITE_CLAUSES)[0], 10),
    Aim("… each (the worst) / SWI", suite_rows(SHAPES_SUITE_CLAUSES)[1], 25),
    Aim("10,000 first-argument lookups in 100,000 facts / SWI", LOOKUPS_FIRST, 20),
    Aim("… second-argument lookups (just-in-time index) / SWI", LOOKUPS_SECOND, 20),
    Aim("… first-argument lookups in 1,000,000 facts / the same in 10 (logicpy both)", LOOKUPS_MILLION, 1.5,
        over=LOOKUPS_TEN),
    Aim("consult 100,000 facts / SWI", CONSULT_100K, 20),
    Aim("assertz of 100,000 facts / SWI", ASSERTZ_100K, 20),
]


def aims_rows(figures: dict[str, tuple[float, float | None]] | None = None,
              suites: dict[str, float] | None = None) -> list[list[str]]:
    """One row per aim: the aim, its limit, the ratio measured, met or not (or not run)."""
    figures = FIGURES if figures is None else figures
    suites = SUITE_RATIOS if suites is None else suites
    rows = []
    for aim in AIMS:
        ratio = aim.ratio(figures, suites)
        measured = "not run" if ratio is None else f"{ratio:,.1f}x"
        verdict = "" if ratio is None else "met" if ratio <= aim.limit else "not met"
        rows.append([aim.text, f"<= {aim.limit:g}x", measured, verdict])
    return rows
