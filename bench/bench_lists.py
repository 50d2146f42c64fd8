"""List relations on long lists: logicpy.core vs kanren 1.0.5's own vs SWI-Prolog.

    python -m bench lists

kanren's membero/appendo recurse once per element and raise RecursionError past about
170 elements, so kanren runs only at 150; logicpy and SWI run at 150, 10,000 and 100,000.
Times are CPU seconds, best of 3 (SWI: timed inside Prolog, building the list included);
memory is the peak Python heap of one traced logicpy run.

A second table reverses 100,000 and 1,000,000 elements with the accumulator `reverseo`
(a user's relation: `eq(xs, cons(h, t))` on a Python list) beside SWI's reverse/2 (an
accumulator over numlist): each run in a child process of its own, CPU seconds of the
reversal and the child's peak resident memory, the reversed lists compared.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import Any, Callable

import kanren
from rich.markup import escape

from bench.common import PROLOG_DIR, fmt_bytes, fmt_seconds, measure, print_table, swipl_seconds
from logicpy import core

SIZES = (150, 10_000, 100_000)
KANREN_SIZE = 150
SWI_FILE = PROLOG_DIR / "lists.pl"


def _member_last(lib: Any, items: list) -> Callable[[], Any]:
    q = lib.var()
    return lambda: lib.run(1, q, lib.membero(items[-1], items), lib.eq(q, True))


def _append_forward(lib: Any, items: list) -> Callable[[], Any]:
    z = lib.var()
    return lambda: lib.run(1, z, lib.appendo(items, items, z))


def _append_backward(lib: Any, items: list) -> Callable[[], Any]:
    x = lib.var()
    return lambda: lib.run(1, x, lib.appendo(x, [items[-1]], items))


#: operation name -> (query builder for logicpy or kanren, SWI goal with N for the size, expected answer check)
OPERATIONS: dict[str, tuple[Callable, str, Callable[[tuple, list], bool]]] = {
    "membero(last, xs)": (_member_last, "numlist(1,N,L), once(member(N,L))", lambda r, xs: r == (True,)),
    "appendo(xs, xs, Z)": (_append_forward, "numlist(1,N,L), append(L,L,_)", lambda r, xs: r == (xs + xs,)),
    "appendo(X, [last], xs)": (_append_backward, "numlist(1,N,L), once(append(_,[N],L))", lambda r, xs: r == (xs[:-1],)),
}


def _time(build: Callable, lib: Any, items: list, check: Callable, memory: bool) -> tuple[str, str]:
    try:
        m = measure(build(lib, items), repeat=3, trace_memory=memory)
    except RecursionError:
        return "RecursionError", "n/a"
    ok = "" if check(m.result, items) else " (wrong answer!)"
    return fmt_seconds(m.seconds) + ok, fmt_bytes(m.peak_bytes)


REVERSE_SIZES = (100_000, 1_000_000)

#: A child process: reverse range(N) with the README's accumulator relation; print JSON.
_LOGICPY_REVERSE = """
import json, resource, sys, time
from logicpy.core import conde, cons, eq, relation, run, var, vars

@relation
def reverseo(xs, acc, ys):
    h, t = vars(2)
    return conde([eq(xs, []), eq(acc, ys)], [eq(xs, cons(h, t)), reverseo(t, cons(h, acc), ys)])

n = int(sys.argv[1])
items, q = list(range(1, n + 1)), var()
start = time.process_time()
(answer,) = run(1, q, reverseo(items, [], q))
seconds = time.process_time() - start
try:  # this process's own peak: ru_maxrss would also count the parent's, from before the exec
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_kib": peak,
                  "answer": [len(answer), answer[:3], answer[-3:], sum(answer)]}))
"""

#: A child process: run swipl on reverse/2 of numlist(1, N) and report its peak memory.
_SWI_REVERSE = """
import json, resource, subprocess, sys
goal = ("numlist(1,{n},L), statistics(cputime,T0), reverse(L,R), statistics(cputime,T1), T is T1-T0, "
        "length(R,Len), R=[A,B,C|_], append(_,[X,Y,Z],R), sum_list(R,S), "
        "format('~w ~w ~w ~w ~w ~w ~w ~w~n',[T,Len,A,B,C,X,Y,Z]), format('~w~n',[S])").format(n=sys.argv[1])
out = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt"], capture_output=True, text=True, check=True).stdout
first, second = out.split()[:8], out.split()[8]
t, length, *ends = first
print(json.dumps({"seconds": float(t), "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "answer": [int(length), [int(e) for e in ends[:3]], [int(e) for e in ends[3:]], int(second)]}))
"""


def _child(program: str, n: int) -> dict | str:
    """The JSON a child process prints for size `n`, or why it gave none."""
    try:
        done = subprocess.run([sys.executable, "-c", program, str(n)], capture_output=True, text=True, timeout=1800)
    except subprocess.TimeoutExpired:
        return "> 1800 s"
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["failed"])[-1][:60]
    return json.loads(done.stdout)


def reverse_rows() -> list[list[str]]:
    """One row per size: logicpy's and SWI's reversal, time and peak memory, answers compared."""
    rows = []
    for n in REVERSE_SIZES:
        mine = _child(_LOGICPY_REVERSE, n)
        swi = _child(_SWI_REVERSE, n) if shutil.which("swipl") else "no swipl"
        expected = [n, [n, n - 1, n - 2], [3, 2, 1], n * (n + 1) // 2]
        cells = []
        for got in (mine, swi):
            if isinstance(got, str):
                cells += [escape(got), "n/a"]
            else:
                ok = "" if got["answer"] == expected else " (wrong answer!)"
                cells += [fmt_seconds(got["seconds"]) + ok, fmt_bytes(got["peak_kib"] * 1024)]
        same = "yes" if not isinstance(mine, str) and not isinstance(swi, str) and mine["answer"] == swi["answer"] else "-"
        rows.append([f"{n:,}", *cells, same])
    return rows


def main() -> None:
    """Print one row per operation and size, then the accumulator reversal."""
    rows = []
    for name, (build, swi_goal, check) in OPERATIONS.items():
        for size in SIZES:
            items = list(range(1, size + 1))
            logicpy_time, logicpy_heap = _time(build, core, items, check, memory=True)
            kanren_time = _time(build, kanren, items, check, memory=False)[0] if size <= KANREN_SIZE else "not run"
            swi = swipl_seconds(SWI_FILE, swi_goal.replace("N", str(size)))
            rows.append([escape(name), f"{size:,}", logicpy_time, logicpy_heap, kanren_time, fmt_seconds(swi)])
    print_table("List relations on long lists (CPU time, best of 3)",
                ["query", "length", "logicpy", "logicpy peak heap", "kanren 1.0.5", "SWI-Prolog"], rows)
    print_table("Accumulator reverse, one child process per run (CPU time of the reversal, peak resident memory)",
                ["length", "logicpy reverseo", "logicpy peak RSS", "SWI reverse/2", "SWI peak RSS", "same answer"],
                reverse_rows())


if __name__ == "__main__":
    main()
