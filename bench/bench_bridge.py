"""The SWI-Prolog bridge: cost per query and per term crossing it, in both directions.

    python -m bench bridge

Every answer crosses the bridge as canonical text (written by Prolog, parsed in Python;
written by `format_term`, read by Prolog), so the figures are the price of that choice:
a trivial query, lists of growing length sent and received, terms 10,000 and 50,000 deep,
refusing one deeper than `MAX_DEPTH`, and one integer of 2^200.
"""

from __future__ import annotations

from bench.common import fmt_bytes, fmt_seconds, measure, print_table
from logicpy import swi
from logicpy.core.terms import var
from logicpy.errors import TermError


def main() -> None:
    if not swi.available():
        print("SWI-Prolog is not available here: " + swi.INSTALL_HINT)
        return
    x = var("x")
    rows = []
    m = measure(lambda: swi.query("true"), repeat=20)
    rows.append(["query 'true' (fixed cost)", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
    for n in (1_000, 10_000, 100_000):
        items = list(range(n))
        m = measure(lambda: swi.query(("=", x, items)), repeat=3)
        assert m.result[0][x] == items
        rows.append([f"send and receive a {n:,}-int list", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
        m = measure(lambda: swi.query(f"numlist(1, {n}, L)"), repeat=3)
        assert len(m.result[0]["L"]) == n
        rows.append([f"receive numlist(1, {n:,}, L)", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
    m = measure(lambda: swi.query("between(1, 10000, X)"), repeat=3)
    assert len(m.result) == 10_000
    rows.append(["10,000 answers of between/3", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
    swi.query("assertz((bench_nest(0, z) :- !)), assertz((bench_nest(N, f(T)) :- M is N - 1, bench_nest(M, T)))")
    for depth in (10_000, 50_000):
        deep = "z"
        for _ in range(depth):
            deep = ("f", deep)
        m = measure(lambda: swi.query(("=", x, deep)), repeat=3)
        rows.append([f"send and receive a {depth:,}-deep f(f(...))", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
        m = measure(lambda: swi.query(f"bench_nest({depth}, T)"), repeat=3)
        rows.append([f"receive a {depth:,}-deep f(f(...)) built in Prolog", fmt_seconds(m.seconds),
                     fmt_bytes(m.peak_bytes)])
    m = measure(lambda: _refused(f"bench_nest({2 * swi.MAX_DEPTH}, T)"), repeat=3)
    assert "do not cross the bridge" in m.result
    rows.append([f"refuse a {2 * swi.MAX_DEPTH:,}-deep answer (built, measured)", fmt_seconds(m.seconds),
                 fmt_bytes(m.peak_bytes)])
    m = measure(lambda: swi.query(("is", x, ("*", 2**200, 3))), repeat=20)
    assert m.result[0][x] == 3 * 2**200
    rows.append(["X is 2^200 * 3 (big integer both ways)", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes)])
    print_table("SWI-Prolog bridge (CPU time, best of repeats; peak Python heap)", ["what", "time", "peak heap"], rows)


def _refused(goal: str) -> str:
    """The TermError message of a query whose answer is too deep to cross."""
    try:
        swi.query(goal)
    except TermError as exc:
        return str(exc)
    raise AssertionError(f"{goal} was not refused")


if __name__ == "__main__":
    main()
