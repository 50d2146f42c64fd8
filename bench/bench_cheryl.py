"""Public-announcement puzzles: Cheryl samples, Sum and Product, muddy children, what sum.

    python -m bench cheryl

Cheryl: 10,000 random ten-date samples from the seed's 50-date pool, per story (classic,
eve, complex), timed for logicpy's engine (all samples as one batched model), the same
engine one story at a time, the plain filter-per-statement baseline written here in the
seed's style (`bench/cheryl_baseline.py`), and SWI-Prolog running `prolog/cheryl.pl`'s
`counter/4`. The seed's own code, run by the issue's author on this machine, took
0.7 s (classic), 0.8 s (Eve) and 2.1 s (complex) for 10,000 samples; the aim is 5x
faster. Then Sum and Product (aim < 0.5 s), the muddy children with every child muddy
(n = 16 aim < 1 s, n = 20 aim < 10 s; peak heap traced) and "what sum" for Anne's 50.
CPU seconds, best of the repeats.
"""

from __future__ import annotations

import numpy as np

from bench.cheryl_baseline import solutions as baseline_solutions
from bench.common import PROLOG_DIR, fmt_bytes, fmt_seconds, measure, print_table, swipl_seconds
from logicpy.puzzles.epistemic import DATE_POOL, SUM_PRODUCT, birthday, muddy_children, solve, what_sum
from logicpy.puzzles.epistemic.generate import samples, solution_counts

SEED_FIGURES = {"classic": 0.7, "eve": 0.8, "complex": 2.1}
SAMPLES = 10_000


def _shape(counts: np.ndarray) -> str:
    total = len(counts)
    return " / ".join(f"{100 * np.count_nonzero(counts == k) / total:.1f} %" for k in (1, 2))


def cheryl_rows() -> list[list[str]]:
    rows = samples(len(DATE_POOL), 10, SAMPLES, np.random.default_rng(2015))
    date_lists = [[DATE_POOL[i] for i in row] for row in rows]
    table = []
    for kind, seed_seconds in SEED_FIGURES.items():
        story = birthday(kind)
        batched = measure(lambda: solution_counts(story, DATE_POOL, rows), repeat=3, trace_memory=False)
        one_by_one = measure(lambda: [solve(story.on(ds)).count for ds in date_lists[:1000]], repeat=1,
                             trace_memory=False)
        baseline = measure(lambda: [len(baseline_solutions(ds, kind)) for ds in date_lists], repeat=1,
                           trace_memory=False)
        swi = swipl_seconds(PROLOG_DIR / "cheryl.pl", f"counter({kind}, {SAMPLES}, 1, _)", repeat=1)
        differ = int(np.count_nonzero(batched.result != np.array(baseline.result)))
        table.append([
            kind, fmt_seconds(batched.seconds), fmt_seconds(one_by_one.seconds * SAMPLES / 1000),
            fmt_seconds(baseline.seconds), fmt_seconds(swi), f"{seed_seconds} s",
            f"{seed_seconds / batched.seconds:.0f}x", _shape(batched.result), str(differ),
        ])
    return table


def puzzle_rows() -> list[list[str]]:
    table = []
    sp = measure(lambda: solve(SUM_PRODUCT.on(SUM_PRODUCT.worlds)), repeat=3)
    table.append(["Sum and Product (x + y <= 100)", f"{len(SUM_PRODUCT.worlds):,}", fmt_seconds(sp.seconds),
                  fmt_bytes(sp.peak_bytes), str(sp.result.solutions), "< 0.5 s"])
    for n, aim in ((16, "< 1 s"), (20, "< 10 s")):
        story = muddy_children(n, n)
        m = measure(lambda: solve(story), repeat=1 if n == 20 else 3)
        table.append([f"muddy children n = m = {n}", f"{2 ** n:,}", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                      f"{m.result.count} world left after {n - 1} rounds", aim])
    ws = measure(lambda: solve(what_sum(50)), repeat=1)
    table.append(["what sum, Anne 50 (cut at 800)", "958,800", fmt_seconds(ws.seconds), fmt_bytes(ws.peak_bytes),
                  str(ws.result.solutions), "—"])
    return table


def main() -> None:
    print_table(
        f"Cheryl's birthday: {SAMPLES:,} random ten-date samples (CPU)",
        ["story", "logicpy batched", "logicpy one at a time", "seed-style baseline", "SWI cheryl.pl",
         "seed's own (stated)", "vs seed", "unique / two", "samples ≠ baseline"],
        cheryl_rows(),
    )
    print_table("Other public-announcement puzzles (CPU, peak heap traced)",
                ["puzzle", "worlds", "logicpy", "peak heap", "answer", "aim"], puzzle_rows())


if __name__ == "__main__":
    main()
