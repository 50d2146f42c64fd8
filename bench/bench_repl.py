"""What showing answers costs: `run` against `answers` (Prolog text, `_0` names, residual
constraints) against the toplevel (reading the query, translating it, printing every line).

    python -m bench repl

SWI-Prolog's column is the same search inside Prolog (forall/2, nothing printed), for scale.
"""

from __future__ import annotations

import io
from pathlib import Path

from bench.common import fmt_seconds, measure, print_table, swipl_seconds
from logicpy.core import domo, lengtho, lto, neq, permuteo, run, var
from logicpy.core.answers import answers
from logicpy.repl import Toplevel

ROOT = Path(__file__).resolve().parent.parent


def _toplevel(top: Toplevel, query: str, limit: int) -> int:
    """Lines the session prints for `query` (the session, its relations loaded, is reused)."""
    top.out, top.limit = io.StringIO(), limit
    top.query(query)
    return top.out.getvalue().count("\n")


def main() -> None:
    p, xs, n, x, y = var(), var(), var(), var(), var()
    rows = []
    cases = [
        ("720 permutations of [1..6]", lambda: run(0, p, permuteo([1, 2, 3, 4, 5, 6], p)),
         lambda: answers(0, p, permuteo([1, 2, 3, 4, 5, 6], p)), "permuteo([1,2,3,4,5,6], P).",
         "forall(permutation([1,2,3,4,5,6], P), true)", 100_000),
        ("500 lists of fresh variables (lengtho)", lambda: run(500, xs, lengtho(xs, n)),
         lambda: answers(500, xs, lengtho(xs, n)), "lengtho(L, N).",
         "forall(limit(500, length(L, N)), true)", 500),
        ("one FD answer with residuals", lambda: run(0, [x, y], domo(x, range(1, 4)), lto(x, y), neq(y, 5)),
         lambda: answers(0, [x, y], domo(x, range(1, 4)), lto(x, y), neq(y, 5)), "X in 1..3, X #< Y, dif(Y, 5).",
         None, 100_000),
    ]
    top = Toplevel()
    for name, plain, shown, query, prolog, limit in cases:
        a = measure(plain, repeat=5, trace_memory=False)
        b = measure(shown, repeat=5, trace_memory=False)
        c = measure(lambda: _toplevel(top, query, limit), repeat=5, trace_memory=False)
        assert len(a.result) == len(b.result) == c.result  # every answer a line, the last ending with '.'
        s = swipl_seconds(ROOT / "logicpy" / "data" / "prolog" / "lists.pl", prolog) if prolog else None
        rows.append([name, fmt_seconds(a.seconds), fmt_seconds(b.seconds), fmt_seconds(c.seconds), fmt_seconds(s)])
    print_table("Showing answers (CPU time, best of 5)", ["query", "run", "answers()", "toplevel", "SWI (no output)"],
                rows)


if __name__ == "__main__":
    main()
