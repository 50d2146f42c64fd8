"""Fact tables: lookups by first and second argument, consult and assertz, beside SWI-Prolog.

    python -m bench facts

A table `f(I, J)` of N facts (I = 0..N-1, J = N-1-I) is looked up 10,000 times, by its
first argument (`forall(between(1, 10000, I), (K is I mod N, f(K, _)))`) and by its second
(`f(_, K)`: SWI-Prolog's just-in-time index, logicpy's `core.index`), for N from 10 to
1,000,000; then 100,000 such facts are consulted from a file, and 100,000 are added by
`assertz` in a loop. CPU seconds, best of 3 (SWI timed inside Prolog, its consult of the
table excluded; warm, so its indexes are made). "net" subtracts the same loop without the
work it does (`K is I mod N` alone; `true`): the cost of one lookup or `assertz` itself,
apart from the loop that drives it. logicpy's tables for the lookups are built with
`Program.assertz` from Python (consulting a million facts is timed at 100,000 only).
"""

from __future__ import annotations

import gc
import resource
import tempfile
from pathlib import Path
from typing import Any

from bench.common import (ASSERTZ_100K, CONSULT_100K, LOOKUPS_FIRST, LOOKUPS_MILLION, LOOKUPS_SECOND, LOOKUPS_TEN,
                          fmt_seconds, measure, print_table, record, swipl_seconds)
from logicpy.prolog import Program

SIZES = (10, 1_000, 100_000, 1_000_000)
LOOKUPS = 10_000
ADDED = 100_000


def _facts_text(n: int) -> str:
    return "".join(f"f({i},{n - 1 - i}).\n" for i in range(n))


def _table(n: int) -> Program:
    program = Program()
    for i in range(n):
        program.assertz(("f", i, n - 1 - i))
    return program


def _seconds(program: Program, goal: str) -> float:
    gc.collect()
    return measure(lambda: program.query(goal), repeat=3, trace_memory=False).seconds


def _swi(file: Path, goal: str, repeat: int = 3) -> float | None:
    s = swipl_seconds(file, goal, repeat=repeat)
    return s if isinstance(s, float) else None


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:,.1f}x" if a is not None and b else "n/a"


def _per(seconds: float | None, count: int) -> str:
    if seconds is None:
        return "n/a"
    each = max(seconds, 0.0) / count
    return f"{each * 1e9:.0f} ns" if each < 1e-6 else fmt_seconds(each)


def _row(work: str, mine: float, swi: float | None, mine_net: float | None = None, swi_net: float | None = None,
         count: int = 1) -> list[str]:
    return [work, fmt_seconds(mine), fmt_seconds(swi), _ratio(mine, swi),
            _per(mine_net, count) if mine_net is not None else "", _per(swi_net, count) if swi_net is not None else "",
            _ratio(mine_net, swi_net) if mine_net is not None else ""]


def _lookups(tmp: Path, empty: Path, rows: list[list[str]]) -> None:
    loop = f"forall(between(1, {LOOKUPS}, I), (K is I mod {{n}}{{call}}))"
    by_size: dict[int, float] = {}
    for n in SIZES:
        file = tmp / f"facts_{n}.pl"
        file.write_text(_facts_text(n))
        program = _table(n)
        check = program.query(f"K is 12345 mod {n}, f(K, A), f(B, K).")
        if check != [{"K": 12345 % n, "A": n - 1 - 12345 % n, "B": n - 1 - 12345 % n}]:
            raise SystemExit(f"logicpy's lookups in {n} facts answer {check}")
        bare = _seconds(program, loop.format(n=n, call="") + ".")
        swi_bare = _swi(empty, loop.format(n=n, call=""))
        for label, call, row_name in (("first", ", f(K, _)", LOOKUPS_FIRST), ("second", ", f(_, K)", LOOKUPS_SECOND)):
            mine = _seconds(program, loop.format(n=n, call=call) + ".")
            swi = _swi(file, loop.format(n=n, call=call))
            if n == 100_000:
                record(row_name, mine, swi)
            if label == "first":
                by_size[n] = mine
            rows.append(_row(f"{LOOKUPS:,} lookups, {label} argument, {n:,} facts", mine, swi, mine - bare,
                             None if swi is None or swi_bare is None else swi - swi_bare, LOOKUPS))
        del program
    record(LOOKUPS_MILLION, by_size[1_000_000], None)
    record(LOOKUPS_TEN, by_size[10], None)


def _consult(tmp: Path, empty: Path, rows: list[list[str]]) -> None:
    file = tmp / "consulted.pl"
    file.write_text(_facts_text(ADDED))
    gc.collect()
    mine = measure(lambda: len(Program().consult(file).predicates["f", 2].clauses), repeat=3, trace_memory=False)
    if mine.result != ADDED:
        raise SystemExit(f"consulting {ADDED} facts gave {mine.result} clauses")
    swi = _swi(empty, f"consult('{file}')")
    record(CONSULT_100K, mine.seconds, swi)
    rows.append(_row(f"consult {ADDED:,} facts", mine.seconds, swi))


def _assertz(tmp: Path, rows: list[list[str]]) -> None:
    dynamic = tmp / "dynamic.pl"
    dynamic.write_text(":- dynamic g/2.\n")
    goal = f"forall(between(1, {ADDED}, I), assertz(g(I, I)))"
    bare_goal = f"forall(between(1, {ADDED}, I), true)"

    def fresh(text: str) -> Any:
        program = Program()
        program.query(text + ".")
        return program

    gc.collect()
    mine = measure(lambda: fresh(goal), repeat=3, trace_memory=False)
    if len(mine.result.predicates["g", 2].clauses) != ADDED:
        raise SystemExit("assertz did not add every clause")
    bare = measure(lambda: fresh(bare_goal), repeat=3, trace_memory=False).seconds
    runs = [_swi(dynamic, goal, repeat=1) for _ in range(3)]  # a fresh process each: g/2 empty
    swi = min((s for s in runs if s is not None), default=None)
    swi_bare = _swi(dynamic, bare_goal)
    record(ASSERTZ_100K, mine.seconds, swi)
    rows.append(_row(f"assertz of {ADDED:,} facts", mine.seconds, swi, mine.seconds - bare,
                     None if swi is None or swi_bare is None else swi - swi_bare, ADDED))


def main() -> None:
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        empty = tmp / "empty.pl"
        empty.write_text("")
        _lookups(tmp, empty, rows)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        _consult(tmp, empty, rows)
        _assertz(tmp, rows)
    print_table("Fact tables (CPU time, best of 3; net: less the same loop without the work, per operation)",
                ["work", "logicpy", "SWI-Prolog", "logicpy / SWI", "logicpy net", "SWI net", "net ratio"], rows)
    print(f"logicpy's peak resident memory with {SIZES[-1]:,} facts: {peak:,.0f} MB")


if __name__ == "__main__":
    main()
