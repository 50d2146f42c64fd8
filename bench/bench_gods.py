"""The three gods: exact universe builds, the classic solve, the 2-question proof, and each design choice.

    python -m bench gods

CPU seconds (best of the repeats) and the peak Python heap of one run. Beside logicpy's
figures: SWI-Prolog running prolog/gods.pl on the same tasks (bench/gods_prolog.py), and
the same complexity-<=1 evaluations done by plain kanren (`evaluateo`), by the plain
recursive evaluator, and by the bitset engine, so the gain of each layer is visible.
"""

from __future__ import annotations

import importlib

from bench.common import fmt_bytes, fmt_seconds, measure, print_table
from logicpy.core import run, var
from logicpy.puzzles.gods import CLASSIC, Universe, evaluate, evaluateo, questiono, solve
from logicpy.puzzles.gods.search import move_table

universe_module = importlib.import_module("logicpy.puzzles.gods.universe")


def _fresh_solve(questions: int, complexity: int, puzzle=CLASSIC):
    """Solve with no cached universe, so the time includes building it."""
    universe_module._CACHE.clear()
    return solve(puzzle, questions, complexity)


def _swi() -> dict:
    try:
        from bench.gods_prolog import swi_figures
    except ImportError:
        return {}
    try:
        return swi_figures()
    except Exception as exc:  # a missing or failing swipl must not hide logicpy's figures
        print(f"(SWI-Prolog figures unavailable: {exc})")
        return {}


def _swi_cell(figures: dict, key: str) -> str:
    value = figures.get(key)
    return value if isinstance(value, str) else fmt_seconds(value)


def _ns(seconds: float) -> str:
    return f"{seconds * 1e9:,.0f} ns"


def main() -> None:
    swi = _swi()
    rows = []
    for c in (1, 2, 3):
        m = measure(lambda c=c: Universe(CLASSIC, c), repeat=3 if c < 3 else 2)
        counts = m.result.level_counts()
        rows.append([f"exact universe through complexity {c}", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                     f"{sum(counts)} signatures, new per level {counts}", _swi_cell(swi, f"universe_c{c}")])
    for c in (1, 2):
        m = measure(lambda c=c: _fresh_solve(3, c), repeat=3)
        rows.append([f"classic puzzle, 3 questions, complexity {c}", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                     f"{m.result.status}, {m.result.moves} distinct moves", _swi_cell(swi, f"classic_c{c}")])
    m = measure(lambda: _fresh_solve(2, 3), repeat=2)
    rows.append(["proof: 2 questions cannot, complexity <= 3", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                 f"{m.result.status}, {m.result.moves} distinct moves", "n/a"])
    silent = CLASSIC.with_options(semantics="silent")
    m = measure(lambda: _fresh_solve(2, 3, silent), repeat=1)
    rows.append(["silent Random: 2 questions cannot, complexity <= 3", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                 f"{m.result.status}; 36 worlds, hashed dedup", "n/a"])
    print_table("Three gods: logicpy vs SWI-Prolog (prolog/gods.pl)",
                ["task", "logicpy CPU", "peak heap", "result", "SWI gods.pl CPU"], rows)
    if swi.get("universe_sizes"):
        print(f"gods.pl universe sizes through complexity 0, 1, 2: {swi['universe_sizes']}")
    if swi.get("original"):
        print(f"original solver (LOGICPY_3GODS_DIR): {swi['original']}")

    # Each layer on the same work: every complexity-<=1 question in every concrete world.
    q = var()
    questions = run(0, q, questiono(q, 1))
    worlds = CLASSIC.concrete_worlds
    terms = [w.to_term() for w in worlds]
    truth = var()

    def with_kanren():
        return [run(1, truth, evaluateo(x, t, truth)) for x in questions for t in terms]

    def with_plain():
        return [evaluate(x, w, CLASSIC.grammar, CLASSIC.semantics) for x in questions for w in worlds]

    kanren = measure(with_kanren, repeat=1, trace_memory=False)
    plain = measure(with_plain, repeat=3, trace_memory=False)
    bitset = measure(lambda: Universe(CLASSIC, 1), repeat=5, trace_memory=False)
    u3 = Universe(CLASSIC, 3)
    moves = move_table(u3, 3)
    n = len(questions) * len(worlds)
    print_table(
        f"Evaluating all {len(questions)} questions of complexity <= 1 in all {len(worlds)} concrete worlds",
        ["engine", "CPU", "per evaluation"],
        [
            ["plain kanren (evaluateo, fact tables)", fmt_seconds(kanren.seconds), _ns(kanren.seconds / n)],
            ["plain recursive Python evaluator", fmt_seconds(plain.seconds), _ns(plain.seconds / n)],
            ["bitset universe (all candidates, deduplicated)", fmt_seconds(bitset.seconds), _ns(bitset.seconds / n)],
        ],
    )
    print(f"dedup: {len(questions)} terms of complexity <= 1 -> {sum(Universe(CLASSIC, 1).level_counts())} "
          f"signatures; complexity <= 3: {u3.size} signatures x 3 positions -> {len(moves)} distinct moves")


if __name__ == "__main__":
    main()
