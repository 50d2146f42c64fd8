"""Finite-domain constraints: the zebra puzzle and N-queens, logicpy's FD goals beside other engines.

    python -m bench fd

Zebra (all solutions): logicpy FD, plain kanren (from bench/bench_zebra.py when present),
SWI-Prolog's relational prolog/zebra.pl and its clpfd prolog/zebra_clpfd.pl.
N-queens 8 and 10 (first solution, all solutions): logicpy FD vs SWI clpfd (prolog/queens.pl).
Values of any size: 8-queens with rows numbered from 10^12, a system over 1..10^15 solved
by splitting, and labelling {0, 10^12, 10^40}, beside SWI clpfd.
Times are CPU seconds (best of the repeats); memory is the peak Python heap of one run.
"""

from __future__ import annotations

import importlib.util
from typing import Callable

from bench.common import PROLOG_DIR, ROOT, fmt_bytes, fmt_seconds, measure, print_table, swipl_seconds


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "logicpy" / "data" / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def zebra_fd_houses() -> list[list[tuple]]:
    """All solutions of the FD zebra as house terms (the format of bench/bench_zebra.py's ENGINES)."""
    zebra = _example("zebra_fd")
    return [zebra.as_houses(s) for s in zebra.solve()]


def _plain_kanren_zebra() -> Callable[[], object] | None:
    """The plain-kanren zebra solver of bench/bench_zebra.py (its ENGINES entry naming kanren), if any."""
    try:
        from bench.bench_zebra import ENGINES  # imported here: bench_zebra imports this module
    except ImportError:
        return None
    for name, fn in ENGINES.items():
        if "kanren" in name.lower() and "logicpy" not in name.lower() and "fd" not in name.lower():
            return fn
    return None


def _ratio(seconds: float | None, reference: float) -> str:
    return "n/a" if seconds is None else f"{seconds / reference:.1f}×"


def zebra_rows() -> list[list[str]]:
    zebra = _example("zebra_fd")
    fd = measure(zebra.solve, repeat=5)
    rows = [["logicpy FD (first-fail)", fmt_seconds(fd.seconds), "1.0×", fmt_bytes(fd.peak_bytes), str(len(fd.result))]]
    left = measure(lambda: zebra.solve("leftmost"), repeat=5)
    rows.append(["logicpy FD (leftmost)", fmt_seconds(left.seconds), _ratio(left.seconds, fd.seconds),
                 fmt_bytes(left.peak_bytes), str(len(left.result))])
    plain = _plain_kanren_zebra()
    if plain is None:
        rows.append(["plain kanren (bench_zebra)", "n/a", "n/a", "n/a", "not present"])
    else:
        m = measure(plain, repeat=1, trace_memory=False)
        rows.append(["plain kanren (bench_zebra)", fmt_seconds(m.seconds), _ratio(m.seconds, fd.seconds), "n/a",
                     str(len(list(m.result)))])
    for label, file, goal in [
        ("SWI-Prolog relational (zebra.pl)", PROLOG_DIR / "zebra.pl", "forall(zebra(_), true)"),
        ("SWI-Prolog clpfd (zebra_clpfd.pl)", PROLOG_DIR / "zebra_clpfd.pl", "forall(zebra_clpfd(_), true)"),
    ]:
        s = swipl_seconds(file, goal)
        rows.append([label, fmt_seconds(s), _ratio(s, fd.seconds), "n/a", "-" if s is not None else "not present"])
    return rows


def queens_rows() -> list[list[str]]:
    queens = _example("queens")
    rows = []
    for n in (8, 10):
        for count, what, swi_goal in [(1, "first", f"first_solution({n},_)"), (0, "all", f"count_solutions({n},_)")]:
            repeat = 1 if (n, count) == (10, 0) else 3
            fd = measure(lambda: queens.solve(n, count), repeat=repeat)
            swi = swipl_seconds(PROLOG_DIR / "queens.pl", swi_goal)
            rows.append([f"{n}-queens, {what}", str(len(fd.result)), fmt_seconds(fd.seconds), fmt_seconds(swi),
                         _ratio(fd.seconds, swi) if swi else "n/a", fmt_bytes(fd.peak_bytes)])
    return rows


def big_value_rows() -> list[list[str]]:
    queens = _example("queens")
    from kanren import run

    from logicpy.core.fd import domo, inso, labelo, sumo
    from logicpy.core.terms import var, vars

    n = 10**15

    def halves():
        x, y = vars(2)
        return run(0, (x, y), inso([x, y], range(1, n + 1)), sumo([x, y], n + 1), sumo([x, y], 1, [1, -1]),
                   labelo([x, y]))

    def far_apart():
        x = var()
        return run(0, x, domo(x, [0, 10**12, 10**40]), labelo([x]))

    rows = []
    for label, fn, file, swi_goal, repeat in [
        ("8-queens, all, rows 1..8", lambda: queens.solve(8, 0), "queens.pl", "count_solutions(8, 1, _)", 3),
        ("8-queens, all, rows 10^12+1..10^12+8", lambda: queens.solve(8, 0, first=10**12 + 1), "queens.pl",
         "count_solutions(8, 1000000000001, _)", 3),
        ("x, y in 1..10^15, x+y = 10^15+1, x-y = 1", halves, "fd_values.pl", "halves(1000000000000000, _, _)", 5),
        ("label x in {0, 10^12, 10^40}", far_apart, "fd_values.pl", "far_apart(_)", 5),
    ]:
        fd = measure(fn, repeat=repeat)
        swi = swipl_seconds(PROLOG_DIR / file, swi_goal)
        rows.append([label, str(len(fd.result)), fmt_seconds(fd.seconds), fmt_seconds(swi),
                     _ratio(fd.seconds, swi) if swi else "n/a", fmt_bytes(fd.peak_bytes)])
    return rows


def main() -> None:
    print_table("Zebra puzzle, all solutions", ["engine", "CPU time", "vs logicpy FD", "peak heap", "solutions"],
                zebra_rows())
    print_table("N-queens: logicpy FD vs SWI-Prolog clpfd (first-fail labelling)",
                ["problem", "solutions", "logicpy FD", "SWI clpfd", "FD / clpfd", "peak heap (FD)"], queens_rows())
    print_table("Values of any size: logicpy FD vs SWI-Prolog clpfd",
                ["problem", "solutions", "logicpy FD", "SWI clpfd", "FD / clpfd", "peak heap (FD)"], big_value_rows())


if __name__ == "__main__":
    main()
