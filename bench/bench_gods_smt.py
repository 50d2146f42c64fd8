"""The gods tree search as an SMT problem (z3), beside logicpy's own search, in one run.

    python -m bench gods_smt        (needs the `smt` extra: z3-solver)

The seed's third next step. The encoding uses logicpy's exact move table (the distinct
(position, question) moves of the signature universe, each a set of hidden worlds per
utterance) and nothing else of logicpy's search:

- a complete tree of depth k with base = 2 or 3 branches per node; each internal node v
  picks a move `sel_v` in [0, M) (an integer);
- per utterance w, an uninterpreted function `branch_w : Int -> BitVec(H)` fixed by the M
  table rows (H = hidden worlds, one bit each);
- the live set of a child is `live_v & branch_w(sel_v)` (the root's: every world);
- every leaf's live set lies inside the worlds of one type assignment (or is empty).

A model is read back as a tree (question terms from the universe) and replayed by
`verify`, like any other tree; "unsat" would be a proof of none within the move table.
"""

from __future__ import annotations

import time

from bench.common import print_table
from logicpy.puzzles.gods import CLASSIC, FOUR_GODS, Leaf, Node, Tree, solve, universe, verify
from logicpy.puzzles.gods.search import move_table

#: Seconds z3 may take per puzzle before the row says it did not finish.
TIMEOUT = 120


def smt_tree(puzzle, questions: int, complexity: int, timeout: float = TIMEOUT) -> tuple[str, Tree | None, int]:
    """(z3's verdict, the tree it found or None, number of moves) for the puzzle within the bounds."""
    import z3

    u = universe(puzzle, complexity)
    moves = move_table(u, complexity)
    n_moves, words = len(moves), moves.words
    hidden = puzzle.hidden_worlds
    width = len(hidden)
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    branch = {w: z3.Function(f"branch_{w}", z3.IntSort(), z3.BitVecSort(width)) for w in words}
    for i in range(n_moves):
        for j, w in enumerate(words):
            solver.add(branch[w](i) == z3.BitVecVal(int(moves.sets[i, j]), width))
    worlds_of = [sum(1 << h for h, world in enumerate(hidden) if world.assignment == a) for a in puzzle.assignments]
    choices: dict[tuple, z3.ArithRef] = {}

    def build(path: tuple, live: z3.BitVecRef, left: int) -> None:
        if left == 0:
            solver.add(z3.Or([live & z3.BitVecVal(~m & ((1 << width) - 1), width) == 0 for m in worlds_of]))
            return
        sel = z3.Int("sel_" + "_".join(map(str, path)))
        choices[path] = sel
        solver.add(sel >= 0, sel < n_moves)
        for w in words:
            build(path + (w,), live & branch[w](sel), left - 1)

    build((), z3.BitVecVal((1 << width) - 1, width), questions)
    verdict = str(solver.check())
    if verdict != "sat":
        return verdict, None, n_moves
    model = solver.model()

    def read(path: tuple, live: int, left: int) -> Tree:
        assignments = {hidden[h].assignment for h in range(width) if live >> h & 1}
        if len(assignments) <= 1:
            return Leaf(next(iter(assignments)) if assignments else None)
        move = model.eval(choices[path]).as_long()
        subtrees = [read(path + (w,), live & int(moves.sets[move, j]), left - 1) for j, w in enumerate(words)]
        return Node(int(moves.positions[move]), u.term(int(moves.qids[move])), tuple(zip(words, subtrees)))

    return verdict, read((), (1 << width) - 1, questions), n_moves


def main() -> None:
    try:
        import z3  # noqa: F401
    except ImportError:
        print("z3-solver is not installed (pip install 'logicpy[smt]'): no SMT figures")
        return
    rows = []
    for puzzle, questions, complexity in ((CLASSIC, 3, 1), (CLASSIC.with_options(semantics="explode"), 2, 2),
                                          (FOUR_GODS, 4, 2)):
        start = time.perf_counter()
        ours = solve(puzzle, questions, complexity)
        logicpy_seconds = time.perf_counter() - start  # universe (cached for z3 below) + search + verify
        start = time.perf_counter()
        verdict, tree, n_moves = smt_tree(puzzle, questions, complexity)
        smt_seconds = time.perf_counter() - start
        check = "" if tree is None else ("replayed: ok" if verify(puzzle, tree, questions).ok else "replay FAILED")
        shown = verdict if verdict != "unknown" else f"did not finish in {TIMEOUT} s"
        rows.append([f"{puzzle.name} ({puzzle.semantics.value}), {questions} questions, complexity {complexity}",
                     f"{n_moves} moves", f"{logicpy_seconds:.3f} s ({ours.status})", f"{smt_seconds:.2f} s",
                     f"{shown}; {check}".rstrip("; ")])
    print_table("gods tree search: logicpy's memoised search vs z3 over the same move table (wall seconds)",
                ["puzzle", "move table", "logicpy solve", "z3 (encode + solve)", "z3 verdict, tree"], rows)
