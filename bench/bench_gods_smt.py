"""The gods tree search as SAT problems for z3, beside logicpy's own search, in one run.

    python -m bench gods_smt          (needs the `smt` extra: z3-solver)

The seed's third next step. The engine is `logicpy.puzzles.gods.backends.smt` (its docstring has
the encoding): logicpy's exact move table, one Boolean per (node, move) and per (node,
hidden world), cardinality constraints for the counting bound, the last question compiled
into the sets of worlds no move splits; either one z3 problem for the whole tree, or cube
and conquer (each root move that fits the counting bound is a cube, z3 solves each of its
branches). Every tree z3 finds is read back and replayed by `verify`.

Times are process CPU seconds (z3 runs in this process), so a busy machine does not
inflate them; logicpy's `solve` includes its verification, z3's its encoding.
"""

from __future__ import annotations

import time

from bench.common import print_table
from logicpy.puzzles.gods import CLASSIC, FOUR_GODS, solve, verify

#: Wall seconds z3 may take per puzzle and mode before the cell says it did not finish.
TIMEOUT = 600


def _z3_cell(puzzle, questions: int, complexity: int, cubes: bool) -> str:
    from logicpy.puzzles.gods.backends.smt import smt_tree

    start = time.process_time()
    result = smt_tree(puzzle, questions, complexity, cubes=cubes, timeout=TIMEOUT)
    seconds = time.process_time() - start
    if result.verdict == "unknown":
        return f"no answer ({seconds:.1f} s CPU, {TIMEOUT} s wall limit)"
    replay = "" if result.tree is None else (", replayed: ok" if verify(puzzle, result.tree, questions).ok
                                             else ", replay FAILED")
    how = f", {result.cubes} cubes, {result.z3_calls} z3 calls" if cubes else ""
    return f"{seconds:.2f} s, {result.verdict}{replay}{how}"


def main() -> None:
    try:
        import z3  # noqa: F401
    except ImportError:
        print("z3-solver is not installed (pip install 'logicpy[smt]'): no SMT figures")
        return
    from logicpy.puzzles.gods.search import move_table
    from logicpy.puzzles.gods.universe import universe

    cases = [(CLASSIC, 3, 1), (CLASSIC, 2, 1), (CLASSIC, 3, 0),
             (CLASSIC.with_options(semantics="explode"), 2, 2), (FOUR_GODS, 4, 2)]
    rows = []
    for puzzle, questions, complexity in cases:
        start = time.process_time()
        ours = solve(puzzle, questions, complexity)
        logicpy_seconds = time.process_time() - start
        # As one problem the four-god tree is 7.9 million routing clauses: not run (see the README).
        whole = "not run" if puzzle is FOUR_GODS else _z3_cell(puzzle, questions, complexity, cubes=False)
        rows.append([f"{puzzle.name} ({puzzle.semantics.value}), {questions} q, complexity {complexity}",
                     f"{len(move_table(universe(puzzle, complexity), complexity)):,}",
                     f"{logicpy_seconds:.3f} s, {ours.status}", whole,
                     _z3_cell(puzzle, questions, complexity, cubes=True)])
    print_table("gods tree search: logicpy's memoised search vs z3 over the same move table (CPU seconds)",
                ["puzzle", "moves", "logicpy solve", "z3, one problem", "z3, cube and conquer"], rows)
