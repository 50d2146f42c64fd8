"""SWI-Prolog figures for the three gods: prolog/gods.pl (and, if given, the original solver).

`swi_figures()` returns SWI-Prolog CPU seconds for the classic puzzle and for building the
deduplicated question universe, measured through `prolog/gods.pl`; `bench/bench_gods.py`
prints them beside logicpy's. Set LOGICPY_3GODS_DIR to a checkout of aduriseti/3gods to
measure its `final_solution.pl` the same way (nothing of it is stored here).

Run alone: `python -m bench.gods_prolog`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from bench.common import PROLOG_DIR, fmt_seconds, print_table, swipl_seconds

GODS_PL = PROLOG_DIR / "gods.pl"
CLASSIC_TYPES = "[truly, falsely, random]"
CLASSIC_CANDIDATES = f"puzzle_candidates(3, {CLASSIC_TYPES}, generate_permutation_families, Cs)"
#: gods.pl keeps its universe between calls; each timed run starts from none.
FRESH = "retractall(universe_for(_, _, _))"
#: Seconds the universe through complexity 3 may take before it is reported as "> cap".
DEFAULT_CAP = 60.0


def classic_goal(complexity: int) -> str:
    """The goal solving the classic puzzle (3 gods, 3 questions) at `complexity`."""
    return (f"is_distinguishing_tree_bounded(3, 3, {complexity}, {CLASSIC_TYPES}, _, "
            "generate_permutation_families)")


def universe_sizes(max_complexity: int = 2) -> list[int]:
    """Distinct questions of complexity <= 0, 1, ... in gods.pl's universe for the classic puzzle."""
    out = subprocess.run(
        ["swipl", "-q", "-g",
         f"{CLASSIC_CANDIDATES}, generate_universe(3, {max_complexity}, Cs), "
         f"forall(between(0, {max_complexity}, C), (universe_size(C, N), format('~w~n', [N])))",
         "-t", "halt", str(GODS_PL)],
        capture_output=True, text=True, timeout=600, check=True,
    ).stdout
    return [int(n) for n in out.split()]


def swi_figures(cap: float = DEFAULT_CAP, repeat: int = 3) -> dict:
    """SWI-Prolog CPU seconds through prolog/gods.pl (None where swipl is missing).

    Keys: "classic_c1", "classic_c2" (the classic puzzle, 3 questions, complexity 1 / 2),
    "universe_c1", "universe_c2", "universe_c3" (the exact universe through that
    complexity; "> cap s" when it did not finish), "universe_sizes" (distinct questions
    through complexity 0, 1, 2), and "original" (the same for aduriseti/3gods'
    final_solution.pl when LOGICPY_3GODS_DIR is set).
    """
    if shutil.which("swipl") is None:
        return {}
    figures: dict = {
        f"classic_c{c}": swipl_seconds(GODS_PL, f"{FRESH}, {classic_goal(c)}", repeat, cap)
        for c in (1, 2)
    }
    for c in (1, 2, 3):
        figures[f"universe_c{c}"] = swipl_seconds(
            GODS_PL, f"{FRESH}, {CLASSIC_CANDIDATES}, generate_universe(3, {c}, Cs)", repeat if c < 3 else 1, cap
        )
    figures["universe_sizes"] = universe_sizes(2)
    original = original_figures(cap)
    if original:
        figures["original"] = original
    return figures


def original_figures(cap: float = DEFAULT_CAP) -> dict:
    """The original final solver's CPU seconds, if LOGICPY_3GODS_DIR names a checkout of it."""
    directory = os.environ.get("LOGICPY_3GODS_DIR")
    if not directory:
        return {}
    final = Path(directory) / "final_solution.pl"
    if not final.is_file():
        return {}
    return {f"classic_c{c}": swipl_seconds(final, classic_goal(c), 1, cap) for c in (1, 2, 3)}


def original_coverage(max_complexity: int = 2) -> dict:
    """How much of the exact question universe the original's capped universe reaches.

    A *move* is a question put to one god, known by which utterances each hidden world
    can give (a move and its ja/da mirror count once): this is all the tree search can
    use. Returns the original's kept questions and the moves they reach, beside the
    exact universe's questions and moves through `max_complexity` ({} without
    LOGICPY_3GODS_DIR).
    """
    directory = os.environ.get("LOGICPY_3GODS_DIR")
    final = Path(directory) / "final_solution.pl" if directory else None
    if final is None or not final.is_file():
        return {}
    from logicpy import swi
    from logicpy.puzzles.gods import CLASSIC
    from logicpy.puzzles.gods.backends.prolog import question_from_prolog

    families = "[" + ", ".join(
        "candidate([" + ", ".join(f"pos({p}, {t}, _)" for p, t in enumerate(a, 1)) + "], [da_yes, da_no])"
        for a in CLASSIC.assignments
    ) + "]"
    original = swi.consult(final).query(
        f"generate_universe(3, {max_complexity}, {families}, 3), findall(Q, distinct_q(Q, _, _), Qs)",
        capture_output=True,
    )[0]["Qs"]
    exact = swi.consult(GODS_PL).query(
        f"{CLASSIC_CANDIDATES}, generate_universe(3, {max_complexity}, Cs), findall(Q, distinct_q(_, Q, _, _), Qs)"
    )[0]["Qs"]
    kept, every = (_moves([question_from_prolog(q) for q in qs]) for qs in (original, exact))
    return {
        "complexity": max_complexity,
        "original_questions": len(original),
        "original_moves": len(kept),
        "exact_questions": len(exact),
        "exact_moves": len(every),
        "original_moves_all_exact": kept <= every,
    }


def _moves(questions: list) -> set:
    """The distinct moves (up to the ja/da mirror) of `questions` put to each god of the classic puzzle."""
    from logicpy.puzzles.gods import CLASSIC, evaluate

    mirror = {"ja": "da", "da": "ja"}
    moves = set()
    for q in questions:
        for p in range(1, CLASSIC.n_positions + 1):
            heard = tuple(
                "".join(sorted({
                    CLASSIC.semantics.utter(cw.type_at(p), evaluate(q, cw, CLASSIC.grammar, CLASSIC.semantics),
                                            cw.da_means_yes, cw.free_at(p))
                    for cw in CLASSIC.concrete_worlds_of(world)
                }))
                for world in CLASSIC.hidden_worlds
            )
            mirrored = tuple(mirror.get(h, h) for h in heard)
            moves.add(min(heard, mirrored))
    return moves


def _shown(value: float | str | None) -> str:
    return value if isinstance(value, str) else fmt_seconds(value)


def main() -> None:
    """Print the figures as a table."""
    figures = swi_figures()
    if not figures:
        print("swipl is not installed: no SWI-Prolog figures")
        return
    sizes = figures["universe_sizes"]
    rows = [
        ["classic puzzle, complexity 1", _shown(figures["classic_c1"])],
        ["classic puzzle, complexity 2", _shown(figures["classic_c2"])],
        [f"universe through complexity 1 ({sizes[1]} questions)", _shown(figures["universe_c1"])],
        [f"universe through complexity 2 ({sizes[2]} questions)", _shown(figures["universe_c2"])],
        ["universe through complexity 3", _shown(figures["universe_c3"])],
    ]
    for key, value in figures.get("original", {}).items():
        rows.append([f"original final_solution.pl: {key.replace('_c', ' puzzle, complexity ')}", _shown(value)])
    print_table("Three gods in SWI-Prolog (CPU time inside Prolog)", ["task", "time"], rows)
    coverage = original_coverage()
    if coverage:
        print(f"original universe through complexity {coverage['complexity']}: {coverage['original_questions']} "
              f"questions reaching {coverage['original_moves']} of the {coverage['exact_moves']} distinct moves "
              f"of the exact universe ({coverage['exact_questions']} questions)")


if __name__ == "__main__":
    main()
