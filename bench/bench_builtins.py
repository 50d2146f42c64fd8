"""Prolog library built-ins on logicpy's engine beside SWI-Prolog, on lists of 10,000 and 100,000.

    python -m bench builtins

Each goal runs as a query of an empty consulted program (`logicpy.prolog.consult_text`);
times are CPU seconds, best of 3 (SWI: timed inside Prolog); the answers of both are
compared in the run (the goal's `R`, written canonically).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.common import fmt_seconds, measure, print_table, swipl_seconds
from logicpy.core.terms import format_term
from logicpy.prolog import consult_text

SIZES = (10_000, 100_000)

GOALS = [
    "numlist(1, N, L), findall(X-Y, (member(X, L), Y is X mod 7), P), length(P, R)",
    "findall(X, between(1, N, X), L), sum_list(L, R)",
    "numlist(1, N, L), maplist(succ, L, M), last(M, R)",
    "numlist(1, N, L), foldl(plus, L, 0, R)",
    "numlist(1, N, L), include([X]>>(X mod 3 =:= 0), L, I), length(I, R)",
    "numlist(1, N, L), reverse(L, V), msort(V, M), sort(0, @>=, M, [R|_])",
    "findall(K-X, (between(1, N, X), K is X mod 10), P), setof(K, X^member(K-X, P), R)",
]

def _swi_answer(file: Path, goal: str) -> str:
    done = subprocess.run(["swipl", "-q", "-g", f"({goal}), write_canonical(R), nl", "-t", "halt", str(file)],
                          capture_output=True, text=True, timeout=600)
    return done.stdout.strip()


def main() -> None:
    program = consult_text("")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.pl"
        empty.write_text("")
        for goal in GOALS:
            for n in SIZES:
                query = goal.replace("N", str(n))
                m = measure(lambda: program.query(query, 1), repeat=3, trace_memory=False)
                ours = format_term(m.result[0]["R"])
                swi = swipl_seconds(empty, query) if shutil.which("swipl") else None
                same = "yes" if swi is None or _swi_answer(empty, query) == ours else "NO"
                rows.append([goal.replace("N", str(n)) if n == SIZES[0] else f"  N = {n:,}", fmt_seconds(m.seconds),
                             fmt_seconds(swi), same])
    print_table("Prolog built-ins: logicpy vs SWI-Prolog", ["goal", "logicpy", "SWI-Prolog", "same answer"], rows)


if __name__ == "__main__":
    main()
