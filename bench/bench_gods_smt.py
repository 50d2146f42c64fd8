"""The gods tree search as an SMT problem (z3), beside logicpy's own search, in one run.

    python -m bench gods_smt                          (needs the `smt` extra: z3-solver)
    LOGICPY_BENCH_SMT_4=1 python -m bench gods_smt    also the four-god puzzle (~8 minutes)

The seed's third next step. The encoding uses logicpy's exact move table (the distinct
(position, question) moves of the signature universe, each a set of hidden worlds per
utterance) and nothing else of logicpy's search:

- a complete tree of depth k with 2 or 3 branches per node; each internal node picks
  exactly one of the M moves (M Booleans, a pseudo-Boolean "exactly one");
- a Boolean per (node, branch, hidden world): the world is live there iff it is live at
  the node and the picked move's branch holds it (an Or over the moves that do);
- at every leaf, no two live worlds have different type assignments.

(A first encoding with the move as an integer and the table as uninterpreted functions
into bit vectors was 12x slower on the classic puzzle and did not finish the others.)

A model is read back as a tree (question terms from the universe) and replayed by
`verify`, like any other tree; "unsat" would be a proof of none within the move table.
"""

from __future__ import annotations

import os
import time

import numpy as np

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
    words, n_hidden = moves.words, len(puzzle.hidden_worlds)
    assignment = [puzzle.assignments.index(h.assignment) for h in puzzle.hidden_worlds]
    # holders[j][h]: the moves whose branch j holds hidden world h.
    holders = [[np.flatnonzero((moves.sets[:, j] >> np.uint64(h)) & np.uint64(1)).tolist() for h in range(n_hidden)]
               for j in range(len(words))]
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    choices: dict[tuple, list] = {}

    def build(path: tuple, live: list, left: int) -> None:
        if left == 0:  # no two live worlds of different assignments
            solver.add(*[z3.Not(z3.And(live[h], live[g])) for h in range(n_hidden) for g in range(h + 1, n_hidden)
                         if assignment[h] != assignment[g] and live[h] is not False and live[g] is not False])
            return
        pick = [z3.Bool(f"pick{'_'.join(path)}_{m}") for m in range(len(moves))]
        choices[path] = pick
        solver.add(z3.PbEq([(x, 1) for x in pick], 1))
        for j, w in enumerate(words):
            child: list = []
            for h in range(n_hidden):
                if live[h] is False or not holders[j][h]:
                    child.append(False)
                    continue
                b = z3.Bool(f"live{'_'.join(path)}_{w}_{h}")
                solver.add(b == z3.And(live[h], z3.Or([pick[m] for m in holders[j][h]])))
                child.append(b)
            build(path + (w,), child, left - 1)

    build((), [True] * n_hidden, questions)
    verdict = str(solver.check())
    if verdict != "sat":
        return verdict, None, len(moves)
    model = solver.model()

    def read(path: tuple, live: int, left: int) -> Tree:
        assignments = {puzzle.hidden_worlds[h].assignment for h in range(n_hidden) if live >> h & 1}
        if len(assignments) <= 1:
            return Leaf(next(iter(assignments)) if assignments else None)
        move = next(m for m, x in enumerate(choices[path]) if z3.is_true(model.eval(x)))
        subtrees = [read(path + (w,), live & int(moves.sets[move, j]), left - 1) for j, w in enumerate(words)]
        return Node(int(moves.positions[move]), u.term(int(moves.qids[move])), tuple(zip(words, subtrees)))

    return verdict, read((), (1 << n_hidden) - 1, questions), len(moves)


def main() -> None:
    try:
        import z3  # noqa: F401
    except ImportError:
        print("z3-solver is not installed (pip install 'logicpy[smt]'): no SMT figures")
        return
    rows = []
    cases = [(CLASSIC, 3, 1), (CLASSIC.with_options(semantics="explode"), 2, 2)]
    if os.environ.get("LOGICPY_BENCH_SMT_4"):
        cases.append((FOUR_GODS, 4, 2))  # about 6 minutes to encode, then the time limit
    else:
        print("(four gods skipped: set LOGICPY_BENCH_SMT_4=1; encoding its 34,808 moves takes minutes)")
    for puzzle, questions, complexity in cases:
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
