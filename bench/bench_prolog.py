"""Classic Prolog benchmark programs, consulted unchanged, on logicpy's engine beside SWI-Prolog.

    python -m bench prolog                        every program of prolog/bench/
    python -m bench.bench_prolog nrev tak         some of them
    python -m bench.bench_prolog --suite DIR      every .pl file of DIR (programs of your own)
    python -m bench.bench_prolog --suite DIR --goal top --goal-for chat_parser 'chat_parser'

Each program is consulted into logicpy's engine (`logicpy.prolog.consult`, Prolog order)
and into SWI-Prolog, and its entry goal is timed on both: CPU seconds, best of 3 after a
warm-up run (one run when it takes over 2 s), SWI timed inside Prolog. The programs of
prolog/bench/ each define `bench(A)`: a fixed amount of work with a checkable answer `A`.
On logicpy each program runs in a fresh process, stopped after a cap (`--cap`, default
300 s), whose peak resident memory is shown; each run starts after a full collection. The
answers, written canonically, are compared in the same run (a goal without the variable
`A` is compared by success alone). logicpy's speed is also given in logical inferences per
second: SWI's count of inferences for the goal over logicpy's time.

The table ends with the median and the worst ratio to SWI over the programs that ran and
gave SWI's answer; `python -m bench` sets them beside the aims (bench/common.py `AIMS`).
A program that does not load, raises, fails, differs from SWI or passes the cap is listed
as such after the table and left out of the median. The environment variables LOGICPY_BENCH_SUITE and
LOGICPY_BENCH_GOAL give `--suite` and `--goal` to `python -m bench prolog`.

A predicate whose clauses are those of member/2, append/3, select/3 or nextto/3 (up to
names and argument order) runs as the library's loop for them (`logicpy.core.loops`): the
table's note names them, and a program that has one is timed again with
`loops.disabled()`, every predicate run as its clauses (column "as clauses").
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import PROLOG_DIR, PROLOG_SUITE, fmt_bytes, fmt_seconds, print_table, record_suite, swipl_seconds

BENCH_DIR = PROLOG_DIR / "bench"

#: The programs of prolog/bench/, each with the work its `bench/1` does.
PROGRAMS = {
    "ackermann": "ack(3, 5): 42,438 calls",
    "atoms": "atom/number built-ins ×5000",
    "boyer": "rewrite a 5-link theorem, check it",
    "browse": "8 patterns × 240 lists ×2",
    "chat_parser": "8 sentences, all parses ×80",
    "circuit": "NAND adder, all 5-bit pairs",
    "count": "tail-recursive count to 100,000",
    "crypt": "all solutions ×2",
    "deriv": "four derivatives ×1000",
    "facts": "500 fact lookups ×10",
    "fib": "fib(22): 57,313 calls",
    "findall": "findall over between 1..10000 ×5",
    "flatten": "2048-leaf nested list ×4",
    "hanoi": "13 discs: 8,191 moves, played",
    "meta_qsort": "interpreted quicksort of 50 ×20",
    "mu": "MU puzzle: MUII by deepening ×10",
    "nrev": "reverse of 30 elements ×150",
    "perfect": "perfect numbers up to 1500",
    "poly": "(1+x+y+z)^10",
    "primes": "sieve up to 98 ×40",
    "prover": "9 formulas, pigeonhole 4 in 3",
    "qsort": "50 numbers ×100",
    "queens": "8 queens, all 92 solutions",
    "query": "close densities ×40",
    "reducer": "4 SKI reductions ×4",
    "sendmore": "SEND+MORE=MONEY, all ×2",
    "serialise": "54 items ×150",
    "sieve": "assert/retract sieve to 3000",
    "tak": "tak(18,12,6): 63,609 calls",
    "zebra": "all solutions ×2",
}

GOAL = "bench(A)"
SLOW = 2.0  # seconds: a run this long ends the repeats (a warm-up this long is the one run timed)
CAP = 300.0  # seconds: a program's whole logicpy process is stopped after this


@dataclass
class Run:
    """One program's run on logicpy: best CPU seconds, its answer written canonically (or
    "true"/"false" for a goal without A), peak resident memory in bytes, the predicates
    that ran as a library loop; or the stage where it stopped ("load", "run") and why."""

    seconds: float = 0.0
    answer: str = ""
    peak: int = 0
    as_loops: tuple[str, ...] = ()
    failed: str = ""
    why: str = ""


def _answer_text(answers: list[dict[str, Any]], has_answer: bool) -> str:
    from logicpy.core.terms import format_term

    if not has_answer:
        return "true" if answers else "false"
    return format_term(answers[0]["A"]) if answers else "no answer"


def logicpy_run(file: str, goal: str, as_clauses: bool = False) -> Run:
    """`goal` on logicpy's engine after consulting `file` (run it in a fresh process)."""
    from logicpy.core import loops
    from logicpy.prolog import consult

    has_answer = re.search(r"\bA\b", goal) is not None
    try:
        program = consult(file)
    except Exception as error:  # a program that does not load is a row of the table
        return Run(failed="load", why=f"{type(error).__name__}: {error}")
    best, answer = float("inf"), ""
    try:
        for attempt in range(4):  # a warm-up, then best of 3
            gc.collect()  # each run starts without the last one's garbage
            start = time.process_time()
            if as_clauses:
                with loops.disabled():
                    answers = program.query(goal, 1)
            else:
                answers = program.query(goal, 1)
            seconds = time.process_time() - start
            answer = _answer_text(answers, has_answer)
            if attempt:
                best = min(best, seconds)
            if seconds > SLOW:
                best = min(best, seconds)
                break
    except Exception as error:  # so is one that raises
        return Run(failed="run", why=f"{type(error).__name__}: {error}")
    as_loops = tuple(sorted(f"{n}/{arity} ({p._runs.name})" for (n, arity), p in program.predicates.items()
                            if isinstance(p._runs, loops.Runs)))
    return Run(best, answer, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, as_loops)


def _child(connection: Any, file: str, goal: str, as_clauses: bool) -> None:
    connection.send(logicpy_run(file, goal, as_clauses))


def logicpy_run_apart(file: Path, goal: str, as_clauses: bool = False, cap: float = CAP) -> Run:
    """`logicpy_run` in a fresh Python process, so that its memory and garbage are its own;
    stopped after `cap` seconds."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(theirs, str(file), goal, as_clauses), daemon=True)
    process.start()
    theirs.close()
    try:
        if mine.poll(cap):
            try:
                return mine.recv()
            except EOFError:
                pass
        else:
            return Run(failed="cap", why=f"stopped after {cap:g} s")
    finally:
        process.kill()
        process.join()
    return Run(failed="run", why=f"the process ended without an answer (exit {process.exitcode})")


def swi_answer(file: Path, goal: str) -> tuple[str, int | None]:
    """SWI-Prolog's answer to `goal` (written canonically, or true/false for a goal without A)
    and the inferences it counts in a second run (the first loads what the goal autoloads);
    the answer is "error: ..." when SWI fails to run it."""
    shown = "write_canonical(A)" if re.search(r"\bA\b", goal) else "write(true)"
    run = (f"\\+ \\+ ({goal} -> true ; true), statistics(inferences, I0), ({goal} -> {shown} ; write(false)), nl, "
           "statistics(inferences, I1), I is I1 - I0, write(I), nl")
    try:
        done = subprocess.run(["swipl", "-q", "-g", run, "-t", "halt", str(file)],
                              capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "error: SWI-Prolog ran over 600 s", None
    lines = done.stdout.split("\n")
    if done.returncode != 0 or len(lines) < 2 or not lines[1].isdigit():
        return f"error: {(done.stderr.strip() or done.stdout.strip())[:200]}", None
    return lines[0], int(lines[1])


def measure_programs(programs: list[tuple[str, str, Path, str]],
                     cap: float) -> tuple[list[list[str]], dict[str, float], list[str], list[str]]:
    """Run each (name, work, file, goal) on logicpy and SWI: the table's rows, the ratios of
    the programs that ran and gave SWI's answer, the predicates run as loops, and the
    programs that did not run, each with why."""
    swi_present = shutil.which("swipl") is not None
    rows: list[list[str]] = []
    ratios: dict[str, float] = {}
    as_loops: list[str] = []
    stopped: list[str] = []
    for name, work, file, goal in programs:
        mine = logicpy_run_apart(file, goal, cap=cap)
        swi_text, inferences = swi_answer(file, goal) if swi_present else ("", None)
        swi = swipl_seconds(file, goal, cap=cap) if swi_present and not swi_text.startswith("error") else None
        if mine.failed:
            status = {"load": "does not load", "run": "raises", "cap": f"over {cap:g} s"}[mine.failed]
            stopped.append(f"{name}: {status} ({mine.why[:160]})")
            rows.append([name, work, status, "-", "-", fmt_seconds(swi), "-", "-", "-"])
            continue
        clauses_text, answers = "-", [mine.answer]
        if mine.as_loops:
            as_loops.append(f"{name}: {', '.join(mine.as_loops)}")
            clauses = logicpy_run_apart(file, goal, as_clauses=True, cap=cap)
            clauses_text = clauses.failed or fmt_seconds(clauses.seconds)
            answers.append(clauses.answer)
        if not swi_present:
            same = "n/a"
        elif swi_text.startswith("error"):
            same = "SWI error"
            stopped.append(f"{name}: SWI-Prolog does not run it ({swi_text[7:160]})")
        elif all(a == swi_text for a in answers):
            same = "yes"
        else:
            same = "NO"
            stopped.append(f"{name}: answers {answers[0][:60]!r}, SWI {swi_text[:60]!r}")
        ratio = mine.seconds / swi if isinstance(swi, float) and swi > 0 else None
        fails = mine.answer in ("false", "no answer")
        if fails:
            stopped.append(f"{name}: the goal fails" + (" (in SWI too)" if same == "yes" else ""))
        elif ratio is not None and same == "yes":
            ratios[name] = ratio
        lips = f"{inferences / mine.seconds / 1000:,.0f} K" if inferences and mine.seconds else "n/a"
        rows.append([name, work, fmt_seconds(mine.seconds), clauses_text, fmt_bytes(mine.peak), fmt_seconds(swi),
                     "n/a" if ratio is None else f"{ratio:,.0f}x", lips, same])
    return rows, ratios, as_loops, stopped


def suite_programs(directory: Path, goal: str, goal_for: dict[str, str]) -> list[tuple[str, str, Path, str]]:
    """The .pl files of `directory`, each with its entry goal."""
    files = sorted(directory.glob("*.pl"))
    return [(f.stem, "", f, goal_for.get(f.stem, goal)) for f in files]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_prolog",
        description="Time Prolog programs, consulted unchanged, on logicpy's engine beside SWI-Prolog.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="programs to run (default: all)")
    parser.add_argument("--suite", metavar="DIR", type=Path,
                        help="run every .pl file of DIR instead of logicpy's own programs")
    parser.add_argument("--goal", metavar="GOAL",
                        help=f"the entry goal of each program (default: {GOAL}); the variable A, if any, is "
                             "the answer compared with SWI's")
    parser.add_argument("--goal-for", nargs=2, action="append", default=[], metavar=("NAME", "GOAL"),
                        help="the entry goal of one program of the suite (repeatable)")
    parser.add_argument("--cap", type=float, default=CAP, metavar="SECONDS",
                        help=f"stop a program's logicpy process after this many seconds (default: {CAP:g})")
    args = parser.parse_args(argv or [])
    if argv is None:  # through python -m bench: the options come from the environment
        args.suite = args.suite or (Path(os.environ["LOGICPY_BENCH_SUITE"])
                                    if os.environ.get("LOGICPY_BENCH_SUITE") else None)
        args.goal = args.goal or os.environ.get("LOGICPY_BENCH_GOAL")
    goal = args.goal or GOAL
    if args.suite is not None:
        if not args.suite.is_dir():
            sys.exit(f"--suite: {args.suite} is not a directory")
        programs = suite_programs(args.suite, goal, dict(args.goal_for))
        if args.names:
            programs = [p for p in programs if p[0] in args.names]
        if not programs:
            sys.exit(f"--suite: no .pl program to run in {args.suite}")
        title, suite = f"Prolog programs of {args.suite}", None
    else:
        unknown = [n for n in args.names if n not in PROGRAMS]
        if unknown:
            sys.exit(f"unknown program(s): {', '.join(unknown)}; available: {', '.join(PROGRAMS)}")
        programs = [(n, PROGRAMS[n], BENCH_DIR / f"{n}.pl", goal) for n in args.names or PROGRAMS]
        title, suite = "Classic Prolog benchmarks", PROLOG_SUITE
    rows, ratios, as_loops, stopped = measure_programs(programs, args.cap)
    print_table(f"{title}: logicpy's engine (Prolog order) vs SWI-Prolog, CPU, best of 3",
                ["program", "work", "logicpy", "as clauses", "peak RSS", "SWI-Prolog", "ratio", "LIPS", "equal"], rows)
    if ratios:
        # the suite's aims are judged on a run of the whole suite only
        if suite is not None and not args.names:
            record_suite(suite, list(ratios.values()))
        worst = max(ratios, key=ratios.__getitem__)
        print(f"{len(ratios)} of {len(programs)} programs ran and gave SWI's answer: median "
              f"{statistics.median(ratios.values()):,.1f}x SWI, worst {ratios[worst]:,.1f}x ({worst})."
              + (" Aims: median <= 30x, worst <= 100x." if suite is not None else ""))
    else:
        print(f"none of the {len(programs)} programs ran and gave SWI's answer.")
    if stopped:
        print("Not counted: " + "; ".join(stopped))
    print(textwrap.fill(
        "LIPS: SWI-Prolog's count of inferences for the same goal, per second of logicpy's time. Equal: logicpy's "
        "answers (both columns) and SWI's. Run as a library loop (the clauses of member/2, append/3, select/3 or "
        f"nextto/3): {'; '.join(as_loops) if as_loops else 'no predicate'}. As clauses: the same program with "
        "loops.disabled(), every predicate run as its clauses (-: no predicate runs as a loop).", width=120))


if __name__ == "__main__":
    main(sys.argv[1:])
