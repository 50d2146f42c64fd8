"""Tree search over hidden worlds, with moves deduplicated by how they split them.

A *move* is (position p, question Q). Asked in hidden world h, it can lead to utterance
u iff some free answer of Random makes god p utter u, so a move is fully described by
one set of hidden worlds per utterance (the projection of the utterance bits; the da bits
are exactly the signature of ask(p, Q)). Moves with equal sets are interchangeable, and
at a node only the sets restricted to its live worlds matter.

A node (live set L, questions left q) is a leaf when every live world has one type
assignment. It is pruned when L holds more assignments than base^q can separate (base 2,
or 3 under the silent semantics), or two worlds with different assignments that share a
branch under every move (no tree can ever separate them); so is every move leaving a
branch with more than base^(q-1). Results are memoised on (L, q). Every question must
make progress: a move with a branch equal to L is skipped (its subtree could replace the
node, so this loses no solvable case).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .model import SILENT, WORDS, Puzzle
from .tree import Leaf, Node, Tree
from .universe import Universe

__all__ = ["MoveTable", "SearchStats", "TreeSearch", "move_table", "counting_bound"]


@dataclass(frozen=True)
class MoveTable:
    """Distinct moves: the simplest (position, question id) for each tuple of branch sets."""

    positions: np.ndarray
    qids: np.ndarray
    sets: np.ndarray  # (moves, utterances) uint64 masks of hidden worlds
    words: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.qids)


def _forced(puzzle: Puzzle, god: str, da_means_yes: bool, state: object = None) -> frozenset[str]:
    """The utterances a god of this type gives to EVERY question in some run (e.g. free Random's ja and da).

    A question reaches the god only through its truth, which may depend on his own free
    choice (a question can ask what he would say) and, under self-reference, on the
    hypothesised answer; so this ranges over every function from those to a truth.
    """
    choices = puzzle.god(god).choices

    def answer(truth: bool, da_yes: bool, choice: object) -> str:
        return puzzle.god(god).say(truth, da_yes, choice, state)

    keys = [(c, u) for c in choices for u in (WORDS if puzzle.self_reference else (None,))]
    forced: set[str] | None = None
    for truths in itertools.product((True, False), repeat=len(keys)):
        truth = dict(zip(keys, truths))
        possible: set[str] = set()
        for c in choices:
            if puzzle.self_reference:
                possible |= {u for u in WORDS if answer(truth[(c, u)], da_means_yes, c) == u} or {SILENT}
            else:
                possible.add(answer(truth[(c, None)], da_means_yes, c))
        forced = possible if forced is None else forced & possible
    return frozenset(forced or ())


def counting_bound(puzzle: Puzzle, questions: int) -> str | None:
    """Why no tree of `questions` questions can exist by counting alone, or None if counting allows one.

    Whatever the first question, it is put to one god p. An assignment in which p can give
    the utterance u to every question lands in branch u; the others land in at least one
    branch; each branch can then separate at most base^(questions-1) assignments. This
    holds for every grammar and complexity, so no universe is needed to apply it.
    """
    n = puzzle.n_assignments
    if n <= 1:
        return None
    words = puzzle.utterances
    base = len(words)
    if questions == 0:
        return f"counting bound: {n} assignments and no question to tell them apart"
    if n > base**questions:
        return (f"counting bound: {n} assignments cannot fit in the {base**questions} leaves "
                f"of {questions} question(s) with answers {'/'.join(words)}")
    cap = base ** (questions - 1)
    wild: dict[str, set[str]] = {}
    for p in range(1, puzzle.n_positions + 1):
        mandatory = dict.fromkeys(words, 0)
        rest = 0
        for a in puzzle.assignments:
            forced = set().union(*(_forced(puzzle, a[p - 1], lang, state) for lang in puzzle.languages
                                   for state in puzzle.god(a[p - 1]).states))
            for u in forced:
                mandatory[u] += 1
            rest += not forced
            if forced:
                wild.setdefault(a[p - 1], set()).update(forced)
        if max(mandatory.values()) <= cap and rest <= sum(cap - m for m in mandatory.values()):
            return None
    who = "; ".join(f"where he is {t} he may answer {'/'.join(u for u in words if u in f)} to any question"
                    for t, f in sorted(wild.items()))
    return (f"counting bound: whichever god is asked first, in every assignment {who}, so some branch "
            f"keeps more than the {cap} assignment(s) that {questions - 1} more question(s) can separate")


#: Questions whose moves `move_table` computes at once.
MOVE_CHUNK = 1 << 20


def _row_keys(rows: np.ndarray, bits: int) -> np.ndarray:
    """One sortable key per row of uint64 masks of `bits` bits each."""
    if rows.shape[1] * bits <= 64:
        key = np.zeros(len(rows), dtype=np.uint64)
        for j in range(rows.shape[1]):
            key |= rows[:, j] << np.uint64(j * bits)
        return key
    return np.ascontiguousarray(rows).view(f"V{8 * rows.shape[1]}").ravel()


def move_table(u: Universe, complexity: int) -> MoveTable:
    """The distinct moves using questions of complexity <= `complexity` (cached on `u`)."""
    cache = u.__dict__.setdefault("_move_tables", {})
    if complexity in cache:
        return cache[complexity]
    layout = u.layout
    words = u.puzzle.utterances
    n = len(u.ids_through(complexity))
    positions = range(1, u.puzzle.n_positions + 1)
    # Chunk by chunk of ids (a complexity-3 universe has hundreds of millions), keeping each
    # chunk's first occurrences, then the first overall: sets[i, p, w] is id-major, so the
    # first occurrence is the simplest question.
    firsts, set_parts, key_parts = [], [], []
    for lo in range(0, n, MOVE_CHUNK):
        sigs = u.signatures[lo : min(n, lo + MOVE_CHUNK)]
        sets = np.stack(
            [np.stack([layout.project(layout.utterance(sigs, p, w)) for w in words], axis=1) for p in positions],
            axis=1,
        ).reshape(len(sigs) * len(positions), len(words))
        keys = _row_keys(sets, layout.n_hidden)
        _, first = np.unique(keys, return_index=True)
        first = np.sort(first)
        firsts.append(first + lo * len(positions))
        set_parts.append(sets[first])
        key_parts.append(keys[first])
    _, keep = np.unique(np.concatenate(key_parts), return_index=True)
    keep = np.sort(keep)
    first = np.concatenate(firsts)[keep]
    sets = np.concatenate(set_parts)[keep]
    table = MoveTable(
        positions=(first % len(positions) + 1).astype(np.int64),
        qids=(first // len(positions)).astype(np.int64),
        sets=sets,
        words=words,
    )
    cache[complexity] = table
    return table


class _BitMap:
    """A map from sets of source bits to sets of target bits, one target mask per source bit.

    Applied byte by byte through 256-entry tables, to Python ints and to uint64 arrays.
    """

    def __init__(self, targets: list[int]):
        self.tables: list[np.ndarray] = []
        for byte in range((len(targets) + 7) // 8):
            table = np.zeros(256, dtype=np.uint64)
            for value in range(256):
                mask = 0
                for bit in range(8):
                    i = byte * 8 + bit
                    if value >> bit & 1 and i < len(targets):
                        mask |= targets[i]
                table[value] = mask
            self.tables.append(table)
        self._lists = [[int(x) for x in t] for t in self.tables]

    def of_int(self, bits: int) -> int:
        """The image of one set."""
        out, i = 0, 0
        while bits:
            out |= self._lists[i][bits & 255]
            bits >>= 8
            i += 1
        return out

    def of_array(self, bits: np.ndarray) -> np.ndarray:
        """The image of every set in a uint64 array."""
        out = np.zeros_like(bits)
        for i, table in enumerate(self.tables):
            out |= table[((bits >> np.uint64(8 * i)) & np.uint64(255)).astype(np.intp)]
        return out


@dataclass
class SearchStats:
    """Counters of one search: nodes expanded, moves recursed into, moves pruned by counting."""

    nodes: int = 0
    moves_tried: int = 0
    moves_pruned: int = 0


class TreeSearch:
    """Depth-first search for question trees, memoised on (live hidden worlds, questions left)."""

    def __init__(self, puzzle: Puzzle, universe: Universe, moves: MoveTable):
        self.puzzle = puzzle
        self.universe = universe
        self.moves = moves
        self.base = len(moves.words)
        self.n_assignments = puzzle.n_assignments
        self.all_live = (1 << len(puzzle.hidden_worlds)) - 1
        self.stats = SearchStats()
        self._assignment_of = _BitMap([1 << puzzle.assignments.index(h.assignment) for h in puzzle.hidden_worlds])
        # Gods with a memory move on after each question: the live set is carried along.
        self._moved = {p: _BitMap([1 << j for j in puzzle.transitions[p]]) for p in range(1, puzzle.n_positions + 1)} \
            if puzzle.stateful else {}
        self._together = self._inseparable()
        self._one: dict[tuple[int, int], Tree | None] = {}
        self._options: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}
        self._count: dict[tuple[int, int], int] = {}

    # -- sets of hidden worlds -------------------------------------------------------------
    def assignments(self, live: int) -> int:
        """The set (bit mask) of type assignments among the live hidden worlds."""
        return self._assignment_of.of_int(live)

    def _assignment_counts(self, sets: np.ndarray) -> np.ndarray:
        return np.bitwise_count(self._assignment_of.of_array(sets))

    def _inseparable(self) -> list[int]:
        """Per hidden world h, the worlds that share a branch with h under EVERY move.

        Two such worlds can follow a common path through any tree, so a live set holding
        two of them with different assignments can never be solved. (Not so when gods
        have a memory: a later state may tell them apart, so no pair is assumed.)
        """
        if self._moved:
            return [1 << h for h in range(len(self.puzzle.hidden_worlds))]
        together = []
        one = np.uint64(1)
        for h in range(len(self.puzzle.hidden_worlds)):
            has_h = ((self.moves.sets >> np.uint64(h)) & one).astype(bool)
            partners = np.bitwise_or.reduce(np.where(has_h, self.moves.sets, np.uint64(0)), axis=1)
            together.append(int(np.bitwise_and.reduce(partners)) if len(partners) else self.all_live)
        return together

    def inseparable_pair(self, live: int) -> tuple[int, int] | None:
        """Two live hidden worlds with different assignments that no tree can tell apart, if any."""
        worlds = [h for h in range(live.bit_length()) if live >> h & 1]
        for h in worlds:
            for g in worlds:
                if g > h and self._together[h] >> g & 1 and self.assignments(1 << h) != self.assignments(1 << g):
                    return h, g
        return None

    def hopeless(self, live: int) -> bool:
        """True iff two live worlds with different assignments can never be told apart."""
        return self.inseparable_pair(live) is not None

    def _leaf(self, live: int) -> Leaf | None:
        assignments = self.assignments(live)
        if assignments == 0:
            return Leaf(None)
        if assignments & (assignments - 1) == 0:
            return Leaf(self.puzzle.assignments[assignments.bit_length() - 1])
        return None

    def candidates(self, live: int, left: int, distinct: bool = True) -> list[tuple[int, tuple[int, ...]]]:
        """Moves worth trying at a node: (move index, branch live sets), most promising first;
        one move per distinct branch sets, or with `distinct=False` every fitting move."""
        branches = self.moves.sets & np.uint64(live)
        counts = self._assignment_counts(branches)
        fits = (counts <= self.base ** (left - 1)).all(axis=1)
        for p, moved in self._moved.items():
            rows = self.moves.positions == p
            branches[rows] = moved.of_array(branches[rows])
        progress = (branches != np.uint64(live)).all(axis=1)
        self.stats.moves_pruned += int(np.count_nonzero(~fits))
        index = np.flatnonzero(fits & progress)
        if not len(index):
            return []
        if distinct:
            _, first = np.unique(_row_keys(branches[index], len(self.puzzle.hidden_worlds)), return_index=True)
            index = index[first]
        order = np.lexsort((index, counts[index].sum(axis=1), counts[index].max(axis=1)))
        index = index[order]
        return [(int(m), tuple(int(b) for b in branches[m])) for m in index]

    def _node(self, move: int, subtrees: list[Tree]) -> Node:
        return Node(
            int(self.moves.positions[move]),
            self.universe.term(int(self.moves.qids[move])),
            tuple(zip(self.moves.words, subtrees)),
        )

    # -- one tree ----------------------------------------------------------------------------
    def one(self, live: int, left: int) -> Tree | None:
        """A tree separating the live worlds within `left` questions, or None if none exists."""
        leaf = self._leaf(live)
        if leaf is not None:
            return leaf
        if left == 0 or self.assignments(live).bit_count() > self.base**left:
            return None
        key = (live, left)
        if key in self._one:
            return self._one[key]
        self.stats.nodes += 1
        found: Tree | None = None
        for move, branches in [] if self.hopeless(live) else self.candidates(live, left):
            self.stats.moves_tried += 1
            subtrees = []
            for branch in branches:
                sub = self.one(branch, left - 1)
                if sub is None:
                    break
                subtrees.append(sub)
            else:
                found = self._node(move, subtrees)
                break
        self._one[key] = found
        return found

    # -- all trees ---------------------------------------------------------------------------
    def count(self, live: int, left: int) -> int:
        """How many distinct trees (moves up to their branch sets) separate the live worlds."""
        if self._leaf(live) is not None:
            return 1
        if left == 0 or self.assignments(live).bit_count() > self.base**left:
            return 0
        key = (live, left)
        if key not in self._count:
            self.stats.nodes += 1
            options, total = [], 0
            for move, branches in [] if self.hopeless(live) else self.candidates(live, left):
                self.stats.moves_tried += 1
                product = 1
                for branch in branches:
                    product *= self.count(branch, left - 1)
                    if not product:
                        break
                if product:
                    options.append((move, branches))
                    total += product
            self._options[key], self._count[key] = options, total
        return self._count[key]

    def trees(self, live: int, left: int) -> Iterator[Tree]:
        """Every distinct tree counted by `count`, lazily."""
        leaf = self._leaf(live)
        if leaf is not None:
            yield leaf
            return
        if not self.count(live, left):
            return
        for move, branches in self._options[(live, left)]:
            yield from self._combine(move, branches, left, [])

    def _combine(self, move: int, branches: tuple[int, ...], left: int, done: list[Tree]) -> Iterator[Tree]:
        if len(done) == len(branches):
            yield self._node(move, list(done))
            return
        for sub in self.trees(branches[len(done)], left - 1):
            yield from self._combine(move, branches, left, done + [sub])
