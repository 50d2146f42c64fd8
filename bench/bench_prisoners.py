"""Dudeney's nine prisoners and Kirkman's schoolgirls: logicpy beside SWI clpfd and CP-SAT.

    python -m bench prisoners            (LOGICPY_BENCH_DISTINCT=1 adds the 332 and Kirkman's 7 classes, about 15 s)

logicpy: the first arrangement (the (day, row) exact cover, built and cached, then searched
again), the counts (day-level cover), Kirkman, the FD relation on 5 days. SWI-Prolog:
prolog/prisoners.pl (clpfd), capped. CP-SAT (ortools, extra `bench`) when installed.
The seed's and issue 10's figures, from other machines, are printed as stated.
"""

from __future__ import annotations

import os
import time

from bench.common import PROLOG_DIR, fmt_seconds, measure, print_table, swipl_seconds

CAP = 60.0

STATED = [
    ["ProB (seed), first arrangement, 4 / 5 / 6 days", "0.08 s / 0.20 s / 80 s"],
    ["SWI clpfd, direct model (issue)", "138–227 s to a first arrangement"],
    ["plain Python backtracking (issue)", "1.2 s canonical; > 6 min without symmetry breaking"],
    ["CP-SAT (issue) / a SAT solver (issue)", "about 0.2 s / about 0.05 s"],
    ["dxz, C++ (issue): 92,672 completions counted", "5.7 s; plain Python about 124 s"],
    ["aims (issue)", "first < 10 ms; 92,672 < 5 s; 332 classes < 60 s; Kirkman < 10 s"],
]


def cpsat_first(days: int = 6) -> float | None:
    """CPU-ish wall seconds for CP-SAT to find a first six-day arrangement (None: ortools missing)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    from logicpy.puzzles.prisoners import Design, verify

    n, r = 9, 3
    start = time.process_time()
    model = cp_model.CpModel()
    x = {(d, p, s): model.NewBoolVar(f"x{d}_{p}_{s}") for d in range(days) for p in range(n) for s in range(n)}
    for d in range(days):
        for s in range(n):
            model.AddExactlyOne(x[d, p, s] for p in range(n))
        for p in range(n):
            model.AddExactlyOne(x[d, p, s] for s in range(n))
    for p in range(n):
        model.Add(x[0, p, p] == 1)
    met: dict = {}
    for d in range(days):
        for s in range(n):
            if s % r == r - 1:
                continue
            for a in range(n):
                for b in range(n):
                    if a != b:
                        z = model.NewBoolVar("")
                        model.AddBoolAnd([x[d, a, s], x[d, b, s + 1]]).OnlyEnforceIf(z)
                        model.AddBoolOr([x[d, a, s].Not(), x[d, b, s + 1].Not()]).OnlyEnforceIf(z.Not())
                        met.setdefault((min(a, b), max(a, b)), []).append(z)
    for zs in met.values():
        model.Add(sum(zs) == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.Solve(model)
    seconds = time.process_time() - start
    week = [[[next(p + 1 for p in range(n) if solver.Value(x[d, p, s])) for s in range(k, k + r)]
             for k in range(0, n, r)] for d in range(days)]
    assert verify(Design(9, 3, days), week).ok, "CP-SAT's arrangement fails logicpy's verifier"
    return seconds


def main() -> None:
    from logicpy.core import run, var
    from logicpy.puzzles.prisoners import KIRKMAN, PRISONERS, Design, Symmetry, completions, count, distinct, solve
    from logicpy.puzzles.prisoners.counting import days_of
    from logicpy.puzzles.prisoners.relations import arrangemento
    from logicpy.puzzles.prisoners.solve import day_problem

    pl = PROLOG_DIR / "prisoners.pl"
    rows = []

    def cold(design: Design) -> float:
        day_problem.cache_clear()
        start = time.process_time()
        solve(design)
        return time.process_time() - start

    for days in (4, 5, 6):
        design = Design(9, 3, days)
        first = cold(design)
        warm = measure(lambda: solve(design), repeat=3, trace_memory=False).seconds
        swi = swipl_seconds(pl, f"arrangement(9, 3, {days}, cuffed, _)", repeat=1, cap=CAP)
        rows.append([f"first arrangement, {days} days", f"{fmt_seconds(first)} (search alone {fmt_seconds(warm)})",
                     f"SWI clpfd {fmt_seconds(swi)}"])
    sat = cpsat_first()
    rows.append(["first arrangement, 6 days, CP-SAT (1 worker, model build included)",
                 "—", "ortools not installed" if sat is None else f"CP-SAT {fmt_seconds(sat)}"])
    swi_k = swipl_seconds(pl, "arrangement(15, 3, 7, row, _)", repeat=1, cap=CAP)
    rows.append(["Kirkman's schoolgirls, first", fmt_seconds(cold(KIRKMAN)), f"SWI clpfd {fmt_seconds(swi_k)}"])

    days_of.cache_clear()
    m = measure(lambda: completions(PRISONERS), repeat=1, trace_memory=False)
    rows.append(["92,672 completions of day 1 (possible days built too)", f"{fmt_seconds(m.seconds)} ({m.result:,})", "dxz 5.7 s (issue)"])
    for sym in (Symmetry.CANONICAL, Symmetry.PROB):
        m = measure(lambda: count(PRISONERS, sym), repeat=1, trace_memory=False)
        rows.append([f"count, {sym.value} model", f"{fmt_seconds(m.seconds)} ({m.result:,})", "—"])
    fixed = {2: ((1, 3, 4), (2, 5, 7), (8, 6, 9))}
    m = measure(lambda: completions(PRISONERS, fixed), repeat=3, trace_memory=False)
    rows.append(["192 completions of days 1 and 2", fmt_seconds(m.seconds), "—"])
    m = measure(lambda: count(Design(9, 3, 5)), repeat=1, trace_memory=False)
    rows.append(["5-day week counted (sets of 4 disjoint days, by orbits)", f"{fmt_seconds(m.seconds)} ({m.result:,})", "—"])
    twenty_one = Design(21, 3, None, "row")
    m = measure(lambda: solve(twenty_one), repeat=1, trace_memory=False)
    swi_21 = swipl_seconds(pl, "arrangement(21, 3, 10, row, _)", repeat=1, cap=CAP)
    rows.append(["21 schoolgirls, first (rotational design)", fmt_seconds(m.seconds), f"SWI clpfd {fmt_seconds(swi_21)}"])
    if os.environ.get("LOGICPY_BENCH_DISTINCT"):
        m = measure(lambda: len(distinct(PRISONERS)), repeat=1, trace_memory=False)
        rows.append(["332 essentially different (pynauty)", f"{fmt_seconds(m.seconds)} ({m.result})", "—"])
        m = measure(lambda: len(distinct(KIRKMAN)), repeat=1, trace_memory=False)
        rows.append(["Kirkman: 7 essentially different (pynauty)", f"{fmt_seconds(m.seconds)} ({m.result})", "—"])
    five = Design(9, 3, 5)

    def fd_five() -> object:
        days = [[var() for _ in range(9)] for _ in range(5)]
        return run(1, days, arrangemento(days, five))

    rows.append(["FD relation arrangemento, 5 days, first", fmt_seconds(measure(fd_five, repeat=1, trace_memory=False).seconds),
                 f"SWI clpfd {fmt_seconds(swipl_seconds(pl, 'arrangement(9, 3, 5, cuffed, _)', repeat=1, cap=CAP))}"])
    print_table("nine prisoners (CPU time)", ["what", "logicpy", "other engines, same run"], rows)
    print_table("stated elsewhere (other machines)", ["what", "figure"], STATED)


if __name__ == "__main__":
    main()
