"""List relations on long lists: logicpy.core vs kanren 1.0.5's own vs SWI-Prolog.

    python -m bench lists

kanren's membero/appendo recurse once per element and raise RecursionError past about
170 elements, so kanren runs only at 150; logicpy and SWI run at 150, 10,000 and 100,000.
Times are CPU seconds, best of 3 (SWI: timed inside Prolog, building the list included);
memory is the peak Python heap of one traced logicpy run.
"""

from __future__ import annotations

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


def main() -> None:
    """Print one row per operation and size."""
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


if __name__ == "__main__":
    main()
