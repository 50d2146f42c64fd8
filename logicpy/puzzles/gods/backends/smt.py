"""The gods tree search as SAT problems for z3, over logicpy's exact move table.

A complete tree of k questions is encoded with one Boolean per (node, hidden world), "the
world is live here", and one per (node, move), "the node asks this move" (exactly one per
node). A world is live in a branch iff it is live at the node and the picked move's
branch holds it. At every node a cardinality constraint says the live worlds hold at most
base^(questions left) type assignments (the counting bound, stated to z3), so a leaf holds
one. Two things keep it small enough for the four-god puzzle:

- **The last question is compiled away.** Instead of a move per last node (half the
  nodes), z3 is told which sets of live worlds no single move splits into pure branches:
  the minimal such sets, found from the move table once, are forbidden there (there are
  none for the classic puzzle at complexity 1 or the four-god one at complexity 2: one
  question splits any two assignments).
- **Cube and conquer** (optional). The root's live set is known, so its moves are cut to
  those whose branches fit the counting bound, most balanced first; each such root move
  is a cube, and z3 solves each branch of it as its own problem, with the branch's moves
  cut the same way and every deeper node's moves deduplicated on the branch's live set.

Each problem goes to z3 as SMT-LIB text (parsed far faster than built through z3's Python
API) and is solved by its QF_FD solver: the SAT core with native cardinality constraints.
z3's model is read back as a `Tree` (question terms from the universe; a last question is
any move splitting its live worlds purely) for `verify` to replay. "unsat" is exact within
the move table: without cubes it is z3's proof; with cubes every root move was refuted,
by the counting bound on a branch or by z3. Gods with a memory (stateful puzzles) are not
encoded.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..model import Puzzle
from ..search import MoveTable, TreeSearch, _row_keys, move_table
from ..tree import Leaf, Node, Tree
from ..universe import universe

__all__ = ["SmtResult", "smt_tree", "unsplittable_sets"]


@dataclass
class SmtResult:
    """z3's verdict ("sat", "unsat" or "unknown"), the tree read from its model, and what it took."""

    verdict: str
    tree: Tree | None
    moves: int  # distinct moves in the table
    cubes: int = 0  # root moves tried as cubes (0: one z3 problem for the whole tree)
    z3_calls: int = 0
    z3_seconds: float = 0.0
    encode_seconds: float = 0.0
    refuted: dict[str, int] = field(default_factory=dict)  # failed cubes by cause: counting, z3 unsat, z3 unknown


def unsplittable_sets(puzzle: Puzzle, moves: MoveTable) -> list[tuple[int, ...]]:
    """The minimal sets of hidden worlds (spanning at most `base` assignments) that no single
    move splits into branches of one assignment each; a last question's live set must hold none."""
    base = len(moves.words)
    by_assignment: dict[tuple, list[int]] = {}
    for h, world in enumerate(puzzle.hidden_worlds):
        by_assignment.setdefault(world.assignment, []).append(h)

    def splittable(groups: Sequence[list[int]]) -> bool:
        pure = np.ones(len(moves), dtype=bool)
        for j in range(base):
            hits = sum(((moves.sets[:, j] & np.uint64(sum(1 << h for h in g))) != 0).astype(np.int8) for g in groups)
            pure &= hits <= 1
        return bool(pure.any())

    found = []
    for k in range(2, base + 1):
        for chosen in itertools.combinations(by_assignment.values(), k):
            subsets = [[list(c) for r in range(1, len(g) + 1) for c in itertools.combinations(g, r)] for g in chosen]
            for groups in itertools.product(*subsets):
                if splittable(groups):
                    continue
                smaller = ([[x for x in other if x != h] for other in groups] for g in groups for h in g)
                if all(splittable([g for g in s if g]) for s in smaller if sum(1 for g in s if g) >= 2):
                    found.append(tuple(sorted(h for g in groups for h in g)))
    return found


def _distinct_on(moves: MoveTable, live: int, n_hidden: int) -> np.ndarray:
    """Indices of moves, one per distinct tuple of branches restricted to the live worlds."""
    _, first = np.unique(_row_keys(moves.sets & np.uint64(live), n_hidden), return_index=True)
    return np.sort(first)


class _Encoding:
    """One z3 problem: a complete tree below a node whose live worlds are known."""

    def __init__(self, puzzle: Puzzle, moves: MoveTable, forbidden: list[tuple[int, ...]],
                 live: int, questions: int, first_moves: np.ndarray, later_moves: np.ndarray):
        self.moves = moves
        self.n_hidden = len(puzzle.hidden_worlds)
        self.assignment = [puzzle.assignments.index(h.assignment) for h in puzzle.hidden_worlds]
        self.n_assignments = puzzle.n_assignments
        self.forbidden = forbidden
        self.picks: dict[tuple, np.ndarray] = {}  # path -> move indices offered there
        self.lines: list[str] = []
        self.names: list[str] = []
        root = self._node((), questions, first_moves, later_moves)
        self.lines += [f"(assert {x})" if live >> h & 1 else f"(assert (not {x}))" for h, x in enumerate(root)]

    def _node(self, path: tuple, left: int, offered: np.ndarray, later: np.ndarray) -> list[str]:
        tag = "_".join(path) or "root"
        live = [f"live_{tag}_{h}" for h in range(self.n_hidden)]
        held = [f"has_{tag}_{a}" for a in range(self.n_assignments)]
        self.names += live + held
        base = len(self.moves.words)
        self.lines += [f"(assert (=> {live[h]} {held[self.assignment[h]]}))" for h in range(self.n_hidden)]
        self.lines.append(f"(assert ((_ at-most {min(base**left, self.n_assignments)}) {' '.join(held)}))")
        if left == 0:
            return live
        if left == 1:  # the last question: only the sets no move can split are ruled out
            self.lines += [f"(assert (not (and {' '.join(live[h] for h in s)})))" for s in self.forbidden]
            return live
        self.picks[path] = offered
        pick = np.array([f"pick_{tag}_{m}" for m in offered])
        self.names += pick.tolist()
        self.lines.append(f"(assert ((_ pbeq 1 {' '.join('1' * len(pick))}) {' '.join(pick)}))"
                          if len(pick) else "(assert false)")
        for j, word in enumerate(self.moves.words):
            child = self._node(path + (word,), left - 1, later, later)
            holds = ((self.moves.sets[offered, j][:, None] >> np.arange(self.n_hidden, dtype=np.uint64))
                     & np.uint64(1)).astype(bool)
            for h in range(self.n_hidden):  # child[h] <=> live[h] and the picked move's branch j holds h
                self.lines.append(f"(assert (=> {child[h]} {live[h]}))")
                self.lines.append(f"(assert (or (not {child[h]}) {' '.join(pick[holds[:, h]])}))")
                # One clause per holder, so that a world ruled out of the branch (by the
                # counting bound) rules out at once every move that would put it there.
                self.lines += [f"(assert (or (not {m}) (not {live[h]}) {child[h]}))" for m in pick[holds[:, h]]]
        return live

    def text(self) -> str:
        """The problem in SMT-LIB 2."""
        return "\n".join([f"(declare-const {n} Bool)" for n in self.names] + self.lines)


class _Reader:
    """Reads trees back from z3 models: the picked moves, and a pure split for each last question."""

    def __init__(self, moves: MoveTable, search: TreeSearch):
        self.moves, self.search, self.universe = moves, search, search.universe

    def tree(self, picked: dict[tuple, int], path: tuple, live: int) -> Tree:
        """The tree below `path`, whose live worlds are `live`, from the moves z3 picked."""
        leaf = self.search._leaf(live)
        if leaf is not None:
            return leaf
        move = picked[path] if path in picked else self._last(live)
        subtrees = [self.tree(picked, path + (w,), live & int(self.moves.sets[move, j]))
                    for j, w in enumerate(self.moves.words)]
        return Node(int(self.moves.positions[move]), self.universe.term(int(self.moves.qids[move])),
                    tuple(zip(self.moves.words, subtrees)))

    def _last(self, live: int) -> int:
        counts = self.search._assignment_counts(self.moves.sets & np.uint64(live))
        return int(np.flatnonzero((counts <= 1).all(axis=1))[0])


def smt_tree(puzzle: Puzzle, questions: int, complexity: int, *, cubes: bool = True,
             timeout: float = 600.0) -> SmtResult:
    """Ask z3 for a tree of `questions` questions of complexity <= `complexity` (see the module doc).

    `timeout` bounds the whole run (seconds); past it the verdict is "unknown".
    """
    import z3  # type: ignore[import-untyped]

    if puzzle.stateful:
        raise ValueError("the SMT encoding covers gods without a memory; this puzzle's gods change state")
    deadline = time.perf_counter() + timeout
    u = universe(puzzle, complexity)
    moves = move_table(u, complexity)
    search = TreeSearch(puzzle, u, moves)
    reader = _Reader(moves, search)
    n_hidden = len(puzzle.hidden_worlds)
    everyone = (1 << n_hidden) - 1
    started = time.perf_counter()
    forbidden = unsplittable_sets(puzzle, moves) if questions >= 1 else []
    result = SmtResult("unknown", None, len(moves), encode_seconds=time.perf_counter() - started)

    def solve(live: int, left: int, first: np.ndarray) -> tuple[str, dict[tuple, int]]:
        """z3 on the tree below one node; (verdict, picked move per path)."""
        started = time.perf_counter()
        problem = _Encoding(puzzle, moves, forbidden, live, left, first, _distinct_on(moves, live, n_hidden))
        solver = z3.SolverFor("QF_FD")  # z3's SAT core with native cardinality constraints
        solver.set("timeout", max(1, int((deadline - time.perf_counter()) * 1000)))
        solver.from_string(problem.text())
        result.encode_seconds += time.perf_counter() - started
        started = time.perf_counter()
        verdict = str(solver.check())
        result.z3_seconds += time.perf_counter() - started
        result.z3_calls += 1
        if verdict != "sat":
            return verdict, {}
        model = solver.model()
        chosen = {d.name() for d in model.decls() if z3.is_true(model[d])}
        picked = {path: next(int(m) for m in offered if f"pick_{'_'.join(path) or 'root'}_{m}" in chosen)
                  for path, offered in problem.picks.items()}
        return verdict, picked

    if not cubes or questions <= 1:
        result.verdict, picked = solve(everyone, questions, _distinct_on(moves, everyone, n_hidden))
        if result.verdict == "sat":
            result.tree = reader.tree(picked, (), everyone)
        return result

    if search._leaf(everyone) is not None:
        result.verdict, result.tree = "sat", search._leaf(everyone)
        return result
    unknown = False
    for move, branches in search.candidates(everyone, questions):
        result.cubes += 1
        # Branches the counting bound already refutes cost no z3 call.
        leaves = [search._leaf(b) for b in branches]
        offered = [np.array([m for m, _ in search.candidates(b, questions - 1)], dtype=np.int64) if leaf is None
                   else None for b, leaf in zip(branches, leaves)]
        if any(o is not None and not len(o) for o in offered):
            result.refuted["counting"] = result.refuted.get("counting", 0) + 1
            continue
        subtrees: list[Tree] = []
        for branch, leaf, first in zip(branches, leaves, offered):
            if leaf is not None:
                subtrees.append(leaf)
                continue
            assert first is not None
            verdict, picked = solve(branch, questions - 1, first)
            if verdict != "sat":
                unknown |= verdict == "unknown"
                result.refuted[f"z3 {verdict}"] = result.refuted.get(f"z3 {verdict}", 0) + 1
                break
            subtrees.append(reader.tree(picked, (), branch))
        else:
            result.verdict = "sat"
            result.tree = Node(int(moves.positions[move]), u.term(int(moves.qids[move])),
                               tuple(zip(moves.words, subtrees)))
            return result
        if time.perf_counter() > deadline:
            return result
    result.verdict = "unknown" if unknown else "unsat"
    return result
