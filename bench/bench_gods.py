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


def _search_alone(puzzle, questions: int, complexity: int):
    """The exhaustive search without the counting pre-check, universe built from scratch."""
    from logicpy.puzzles.gods.search import TreeSearch

    universe_module._CACHE.clear()
    u = Universe(puzzle, complexity)
    search = TreeSearch(puzzle, u, move_table(u, complexity))
    return search.one(search.all_live, questions)


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
    rows.append(["proof: 2 questions cannot (counting bound, any complexity)", fmt_seconds(m.seconds),
                 fmt_bytes(m.peak_bytes), f"{m.result.status}, no universe built", "n/a"])
    m = measure(lambda: _search_alone(CLASSIC, 2, 3), repeat=2)
    rows.append(["the same by exhaustive search alone, complexity <= 3", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                 f"{'none' if m.result is None else 'found?!'}, universe + search", "n/a"])
    silent = CLASSIC.with_options(semantics="silent")
    m = measure(lambda: _search_alone(silent, 2, 3), repeat=1)
    rows.append(["silent Random: 2 questions cannot, search alone, complexity <= 3", fmt_seconds(m.seconds),
                 fmt_bytes(m.peak_bytes), f"{'none' if m.result is None else 'found?!'}; 36 worlds, hashed dedup", "n/a"])
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
            ["kanren goal (evaluateo via run; a ground question is evaluated directly)", fmt_seconds(kanren.seconds), _ns(kanren.seconds / n)],
            ["plain recursive Python evaluator", fmt_seconds(plain.seconds), _ns(plain.seconds / n)],
            ["bitset universe (all candidates, deduplicated)", fmt_seconds(bitset.seconds), _ns(bitset.seconds / n)],
        ],
    )
    print(f"dedup: {len(questions)} terms of complexity <= 1 -> {sum(Universe(CLASSIC, 1).level_counts())} "
          f"signatures; complexity <= 3: {u3.size} signatures x 3 positions -> {len(moves)} distinct moves")
    part_two()


def _questiono_conde(q, c, grammar=CLASSIC.grammar, positions=(1, 2, 3), types=CLASSIC.types):
    """The baseline: questiono as nested conde clauses (how logicpy generated questions before)."""
    from kanren.core import Zzz

    from logicpy.core import conde, eq, membero

    domains = {"position": list(positions), "type": list(types)}

    def clause(rule):
        args = [var(kind) for kind in rule.kinds]
        goals = [eq(q, (rule.name, *args))]
        for kind, a in zip(rule.kinds, args):
            goals.append(Zzz(_questiono_conde, a, c - 1) if kind == "question" else membero(a, domains[kind]))
        return goals

    return conde(*[clause(r) for r in grammar.rules if r.role == "atom" or c > 0])


def part_two() -> None:
    """Issue 11: exploding heads, god types, the lower-complexities-first search, and the relations."""
    from logicpy.core import lall
    from logicpy.puzzles.gods import FOUR_GODS, GodType, Puzzle, treeo
    from logicpy.puzzles.gods.model import word_for
    from logicpy.puzzles.gods.relations import _evalo, _tables

    rows = []
    for semantics, questions, complexity in (("explode", 2, 1), ("explode", 2, 2), ("explode-boolos", 2, 2),
                                             ("explode-silent", 2, 9), ("explode-silent", 3, 1)):
        puzzle = CLASSIC.with_options(semantics=semantics)
        m = measure(lambda p=puzzle, k=questions, c=complexity: _fresh_solve(k, c, p), repeat=3)
        r = m.result
        what = (f"{r.status}, least complexity {r.least_complexity}" if r.tree
                else f"none, {'counting bound' if not r.moves else f'exhaustive over {r.moves} moves'}")
        rows.append([f"{semantics}: {questions} questions, complexity <= {complexity}", fmt_seconds(m.seconds),
                     fmt_bytes(m.peak_bytes), what])
    alternating = GodType("alternating", "A", lambda t, d, c, s: word_for(t == (s == "truthful"), d),
                          states=("truthful", "lying"), after=lambda s, asked: ("lying" if s == "truthful" else "truthful") if asked else s)
    tfa = Puzzle.permutations(("truly", "falsely", "alternating"), gods=(alternating,), name="TFA")
    m = measure(lambda: _fresh_solve(3, 2, tfa), repeat=3)
    rows.append(["T, F and an alternating god (memory): 3 questions", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                 f"{m.result.status}, least complexity {m.result.least_complexity}, 24 hidden worlds"])
    m = measure(lambda: _fresh_solve(4, 3, FOUR_GODS), repeat=1)
    rows.append(["four-gods, 4 questions, complexity <= 3 (lower first)", fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes),
                 f"{m.result.status} at complexity {m.result.least_complexity}; level 3 (~38 GiB bound in one process) not built"])
    print_table("Three gods, part 2: paradoxes, god types, least complexity first",
                ["task", "logicpy CPU", "peak heap", "result"], rows)

    t, q, truth = var(), var(), var()
    w1 = ("world", ["truly", "falsely", "random"], "da_yes", ["none", "none", "ja"])
    w2 = ("world", ["random", "falsely", "truly"], "da_no", ["da", "none", "none"])
    questions = run(0, q, questiono(q, 1))
    tables = _tables(CLASSIC)

    def structural(x, w, v):
        return lall(tables.worlds(w), _evalo(x, w, v, tables, CLASSIC.grammar))

    def per_call(goal_of):
        return measure(lambda: [run(1, truth, goal_of(x, w1, truth)) for x in questions], repeat=3, trace_memory=False)

    old, new = per_call(structural), per_call(evaluateo)
    query_old = measure(lambda: run(0, q, _questiono_conde(q, 1), structural(q, w1, True), structural(q, w2, False)),
                        repeat=3, trace_memory=False)
    query_new = measure(lambda: run(0, q, questiono(q, 1), evaluateo(q, w1, True), evaluateo(q, w2, False)),
                        repeat=3, trace_memory=False)
    prefix = 20000
    gen_old = measure(lambda: run(prefix, q, _questiono_conde(q, 2)), repeat=1, trace_memory=False)
    gen_new = measure(lambda: run(prefix, q, questiono(q, 2)), repeat=1, trace_memory=False)
    stream = measure(lambda: sum(1 for _ in questiono(q, 2)({})), repeat=1, trace_memory=False)
    first = measure(lambda: run(1, t, treeo(CLASSIC, t, 3, 1)), repeat=1, trace_memory=False)
    every = measure(lambda: len(run(0, t, treeo(CLASSIC, t, 3, 1))), repeat=1, trace_memory=False)
    print_table(
        "Relational queries: conde clauses (before) vs logicpy now",
        ["query", "before", "now", "note"],
        [
            ["evaluateo, one call (ground question)", _ms(old.seconds / len(questions)), _ms(new.seconds / len(questions)),
             f"{len(questions)} questions of complexity <= 1"],
            ["questions c<=1 true in one world, false in another", fmt_seconds(query_old.seconds),
             fmt_seconds(query_new.seconds), f"{len(query_new.result)} answers"],
            [f"questiono c<=2, first {prefix} through run", fmt_seconds(gen_old.seconds), fmt_seconds(gen_new.seconds),
             f"all {stream.result} as a goal stream: {fmt_seconds(stream.seconds)}"],
            ["treeo: the first classic tree (c<=1), universe built", "n/a", fmt_seconds(first.seconds), "solve: 3 ms"],
            ["treeo: every classic tree (c<=1), tables warm", "n/a", fmt_seconds(every.seconds), f"{every.result} trees = --all"],
        ],
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


if __name__ == "__main__":
    main()
