"""The classic Prolog benchmark programs on logicpy's engine beside SWI-Prolog.

    python -m bench prolog              all ten programs
    python -m bench.bench_prolog nrev tak   some of them

Each program of prolog/bench/ is consulted into logicpy's engine (`logicpy.prolog.consult`,
Prolog order) and into SWI-Prolog, and its goal `bench(A)` (a fixed amount of work, with
a checkable answer `A`) is timed on both: CPU seconds, best of 3 after a warm-up run (one
run when it takes over 2 s), SWI timed inside Prolog. On logicpy each program runs in a
fresh process, whose peak resident memory is shown, and each run starts after a full
collection. The answers, written canonically, are compared in the same run. logicpy's
speed is also given in logical inferences per second: SWI's count of inferences for the
goal over logicpy's time.

A predicate whose clauses are those of member/2, append/3, select/3 or nextto/3 (up to
names and argument order) runs as the library's loop for them (`logicpy.core.loops`): the
table's last line names them, and a program that has one is timed again with
`loops.disabled()`, every predicate run as its clauses (column "as clauses").
"""

from __future__ import annotations

import gc
import multiprocessing
import resource
import shutil
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor

from bench.common import PROLOG_DIR, fmt_bytes, fmt_seconds, print_table, swipl_seconds
from logicpy.core import loops
from logicpy.core.terms import format_term
from logicpy.prolog import consult

BENCH_DIR = PROLOG_DIR / "bench"

#: The programs, each with the work its `bench/1` does.
PROGRAMS = {
    "nrev": "reverse of 30 elements ×150",
    "queens": "8 queens, all 92 solutions",
    "crypt": "all solutions ×2",
    "deriv": "four derivatives ×1000",
    "poly": "(1+x+y+z)^10",
    "primes": "sieve up to 98 ×40",
    "qsort": "50 numbers ×100",
    "query": "close densities ×40",
    "tak": "tak(18,12,6): 63,609 calls",
    "zebra": "all solutions ×2",
}

GOAL = "bench(A)"
SLOW = 2.0  # seconds: a run this long ends the repeats (a warm-up this long is the one run timed)


def logicpy_run(name: str, as_clauses: bool = False) -> tuple[float, str, int, list[str]]:
    """Best CPU seconds of `bench(A)` on logicpy's engine, its answer written canonically,
    the process's peak resident memory in bytes (run it in a fresh process), and the
    predicates that ran as a library loop, each as "name/arity (loop)". `as_clauses`: run
    with `loops.disabled()`."""
    program = consult(BENCH_DIR / f"{name}.pl")
    best, answer = float("inf"), ""
    for attempt in range(4):  # a warm-up, then best of 3
        gc.collect()  # each run starts without the last one's garbage
        start = time.process_time()
        if as_clauses:
            with loops.disabled():
                answers = program.query(GOAL, 1)
        else:
            answers = program.query(GOAL, 1)
        seconds = time.process_time() - start
        answer = format_term(answers[0]["A"]) if answers else "no answer"
        if attempt:
            best = min(best, seconds)
        if seconds > SLOW:
            best = min(best, seconds)
            break
    as_loops = sorted(f"{n}/{arity} ({p._runs.name})" for (n, arity), p in program.predicates.items()
                      if isinstance(p._runs, loops.Runs))
    return best, answer, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, as_loops


def logicpy_run_apart(name: str, as_clauses: bool = False) -> tuple[float, str, int, list[str]]:
    """`logicpy_run` in a fresh Python process, so that its memory and garbage are its own."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(logicpy_run, name, as_clauses).result()


def swi_answer(name: str) -> tuple[str, int | None]:
    """SWI-Prolog's answer to `bench(A)`, written canonically, and the inferences it counts."""
    goal = (f"statistics(inferences, I0), ({GOAL} -> write_canonical(A) ; write(no_answer)), nl, "
            "statistics(inferences, I1), I is I1 - I0, write(I), nl")
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(BENCH_DIR / f"{name}.pl")],
                          capture_output=True, text=True, timeout=600)
    lines = done.stdout.split("\n")
    if done.returncode != 0 or len(lines) < 2 or not lines[1].isdigit():
        return f"error: {done.stderr.strip()}", None
    return lines[0], int(lines[1])


def main(argv: list[str] | None = None) -> None:
    names = argv or list(PROGRAMS)
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        sys.exit(f"unknown program(s): {', '.join(unknown)}; available: {', '.join(PROGRAMS)}")
    swi_present = shutil.which("swipl") is not None
    rows, as_loops = [], []
    for name in names:
        ours, answer, peak, looped = logicpy_run_apart(name)
        clauses_text, answers = "-", [answer]
        if looped:
            as_loops.append(f"{name}: {', '.join(looped)}")
            clauses, clauses_answer, _, _ = logicpy_run_apart(name, as_clauses=True)
            clauses_text = fmt_seconds(clauses)
            answers.append(clauses_answer)
        swi = swipl_seconds(BENCH_DIR / f"{name}.pl", GOAL) if swi_present else None
        swi_text, inferences = swi_answer(name) if swi_present else ("", None)
        same = "n/a" if not swi_present else "yes" if all(a == swi_text for a in answers) else "NO"
        ratio = f"{ours / swi:,.0f}x" if isinstance(swi, float) and swi > 0 else "n/a"
        lips = f"{inferences / ours / 1000:,.0f} K" if inferences else "n/a"
        rows.append([name, PROGRAMS[name], fmt_seconds(ours), clauses_text, fmt_bytes(peak), fmt_seconds(swi), ratio,
                     lips, same])
    print_table("Classic Prolog benchmarks: logicpy's engine (Prolog order) vs SWI-Prolog, CPU, best of 3",
                ["program", "work", "logicpy", "as clauses", "peak RSS", "SWI-Prolog", "ratio", "LIPS", "equal"], rows)
    print(textwrap.fill(
        "LIPS: SWI-Prolog's count of inferences for the same goal, per second of logicpy's time. Equal: logicpy's "
        "answers (both columns) and SWI's. Run as a library loop (the clauses of member/2, append/3, select/3 or "
        f"nextto/3): {'; '.join(as_loops) if as_loops else 'no predicate'}. As clauses: the same program with "
        "loops.disabled(), every predicate run as its clauses (-: no predicate runs as a loop).", width=120))


if __name__ == "__main__":
    main(sys.argv[1:])
