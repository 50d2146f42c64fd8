"""Tree search over hidden worlds, with moves deduplicated by how they split them.

A *move* is (position p, question Q). Asked in hidden world h, it can lead to utterance
u iff some free answer of Random makes god p utter u, so a move is fully described by
one set of hidden worlds per utterance (the projection of the utterance bits; the da bits
are exactly the signature of ask(p, Q)). Moves with equal sets are interchangeable, and
at a node only the sets restricted to its live worlds matter.

A node (live set L, questions left q) is a leaf when every live world has one type
assignment. It is pruned when L holds more assignments than width^q can separate (width:
the fewest branches of a question that hold every world, at most the number of
utterances; 2 even under the silent semantics, see `TreeSearch._width`), or two worlds
with different assignments that share a branch under every move (no tree can ever
separate them); so is every move leaving a branch with more than width^(q-1). Every
question must make progress: a move with a branch equal to L is skipped (its subtree
could replace the node, so this loses no solvable case).

What makes proofs of impossibility (which visit every node) affordable:
- each node hands its children its own moves restricted to L, deduplicated by branch
  sets when a child first expands (the moves distinct on a subset of L are among them),
  so below the root a node scans its parent's distinct rows, not the whole table; a
  last question's trees are counted without building its rows;
- trees found are memoised on (L, q); failures on L alone, as the most questions known
  to fail (no tree with q questions means none with fewer), and up to the puzzle's
  symmetries: renamings of positions, and swapping what ja and da mean, that map the
  assignments and the move table onto themselves (checked on the table, not assumed)
  take a live set to one exactly as (un)solvable;
- one search object serves every question count of a complexity level (`searcher`), so
  the failures proved for q questions are reused when q+1 are tried.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ...core.streams import SearchTimeout  # the core's: one class for every search's deadline
from .model import SILENT, WORDS, Puzzle
from .tree import Leaf, Node, Tree
from .universe import Universe

__all__ = ["MoveTable", "SearchStats", "SearchTimeout", "TreeSearch", "move_table", "searcher", "counting_bound"]


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


def _first_of_each(rows: np.ndarray) -> np.ndarray:
    """Ascending indices of the first occurrence of each distinct row."""
    if len(rows) <= 1:
        return np.arange(len(rows))
    # By hash (one sort of uint64), checked exactly: every row must equal its class's first.
    _, first, inverse = np.unique(_row_hashes(rows), return_index=True, return_inverse=True)
    if (rows[first[inverse]] == rows).all():
        return np.sort(first)
    order = np.lexsort(rows.T[::-1])  # a collision: sort the rows themselves (stable)
    ordered = rows[order]
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return np.sort(order[starts])


def _row_hashes(rows: np.ndarray) -> np.ndarray:
    """A 64-bit hash per row (equal rows, equal hashes)."""
    h = np.zeros(len(rows), dtype=np.uint64)
    for j in range(rows.shape[1]):
        h = (h ^ rows[:, j]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return h


class _BitMap:
    """A map from sets of source bits to sets of target bits, one target mask per source bit.

    Applied byte by byte through 256-entry tables, to Python ints and to uint64 arrays.
    """

    def __init__(self, targets: list[int]):
        self.tables: list[np.ndarray] = []
        values = np.arange(256)
        for byte in range((len(targets) + 7) // 8):
            table = np.zeros(256, dtype=np.uint64)
            for bit, target in enumerate(targets[8 * byte : 8 * byte + 8]):
                table[(values >> bit) & 1 == 1] |= np.uint64(target)
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


class _Table:
    """The moves a node starts from: move indices (ascending) and their branch sets on the
    parent's live set. Reduced to one row per distinct branch sets (`distinct`) only when
    first used: most nodes are answered from the memo and never look at it."""

    def __init__(self, moves: np.ndarray, sets: np.ndarray, distinct: bool = False):
        self.moves, self.sets, self._distinct = moves, sets, distinct

    def distinct(self) -> "_Table":
        if not self._distinct:
            first = _first_of_each(self.sets)
            self.moves, self.sets, self._distinct = self.moves[first], self.sets[first], True
        return self


#: A search looks for the puzzle's symmetries once it has expanded this many nodes.
SYMMETRY_AFTER = 64


class TreeSearch:
    """Depth-first search for question trees, memoised on (live hidden worlds, questions left).

    `deadline` (a `time.monotonic()` value, or None) makes `one` and `count` raise
    `SearchTimeout` once passed; it may be changed between calls.
    """

    def __init__(self, puzzle: Puzzle, universe: Universe, moves: MoveTable, deadline: float | None = None):
        self.puzzle = puzzle
        self.universe = universe
        self.moves = moves
        self.deadline = deadline
        self.base = len(moves.words)
        self.n_assignments = puzzle.n_assignments
        self.n_hidden = len(puzzle.hidden_worlds)
        self.all_live = (1 << self.n_hidden) - 1
        self.width = self._width()
        self.stats = SearchStats()
        self._assignment_of = _BitMap([1 << puzzle.assignments.index(h.assignment) for h in puzzle.hidden_worlds])
        # Without memories world i has assignment i mod n_assignments: fold the languages' bit blocks.
        self._blocks = len(puzzle.languages) if not puzzle.stateful else 0
        # Gods with a memory move on after each question: the live set is carried along.
        self._moved = {p: _BitMap([1 << j for j in puzzle.transitions[p]]) for p in range(1, puzzle.n_positions + 1)} \
            if puzzle.stateful else {}
        self._together = self._inseparable()
        self._root = _Table(np.arange(len(moves), dtype=np.int64), moves.sets, distinct=True)
        self._found: dict[tuple[int, int], Tree] = {}
        self._failed: dict[int, int] = {}  # canonical live set -> most questions known not to suffice
        self._options: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}
        self._count: dict[tuple[int, int], int] = {}  # on canonical live sets
        self._count_exact: dict[tuple[int, int], int] = {}  # the same on live sets as met (a faster first look)
        self._canon: dict[int, int] = {}
        self._symmetries: list[_BitMap] | None = None
        self._expanded = 0  # nodes expanded by every call so far

    def _width(self) -> int:
        """How many branches a question needs to hold every world it is put to: at most that many
        assignments per question can be told apart, so no tree of q questions separates more
        than width^q (at most `base`; 2 under the silent semantics, whose Random is silent only
        in worlds where he could also say ja and da).

        Why: let every world follow, at each node, the first branch of a fixed least cover
        of the move's branches that holds it. Each assignment then reaches a leaf of its own
        (its world is live there), and these paths use at most width branches per node.
        """
        sets = self.moves.sets
        if not len(sets) or self.base <= 2:
            return self.base
        everything = np.bitwise_or.reduce(sets, axis=1)
        if (everything != np.uint64(self.all_live)).any():  # a world no branch holds: no argument
            return self.base
        cover = np.ones(len(sets), dtype=np.int64) * self.base
        for k in range(self.base - 1, 0, -1):
            for chosen in itertools.combinations(range(self.base), k):
                covered = np.bitwise_or.reduce(sets[:, list(chosen)], axis=1) == everything
                cover[covered] = np.minimum(cover[covered], k)
        return int(cover.max())

    # -- sets of hidden worlds -------------------------------------------------------------
    def assignments(self, live: int) -> int:
        """The set (bit mask) of type assignments among the live hidden worlds."""
        return self._assignment_of.of_int(live)

    def _assignment_counts(self, sets: np.ndarray) -> np.ndarray:
        if not self._blocks:
            return np.bitwise_count(self._assignment_of.of_array(sets))
        n, low = np.uint64(self.n_assignments), np.uint64((1 << self.n_assignments) - 1)
        folded = sets & low
        for _ in range(1, self._blocks):
            sets = sets >> n
            folded |= sets & low
        return np.bitwise_count(folded)

    def _inseparable(self) -> list[int]:
        """Per hidden world h, the worlds that share a branch with h under EVERY move.

        Two such worlds can follow a common path through any tree, so a live set holding
        two of them with different assignments can never be solved. (Not so when gods
        have a memory: a later state may tell them apart, so no pair is assumed.)
        """
        if self._moved:
            return [1 << h for h in range(self.n_hidden)]
        together = []
        one = np.uint64(1)
        for h in range(self.n_hidden):
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

    # -- symmetries ----------------------------------------------------------------------------
    @property
    def symmetries(self) -> list[_BitMap]:
        """Maps of hidden worlds (other than the identity) under which solvability is unchanged.

        Candidates: a renaming of positions that maps the assignments onto themselves,
        optionally with ja and da swapping meanings (each world goes to the one of the
        other language, and the ja and da branches trade places). A candidate is kept only
        if it maps the move table onto itself (every move's image, with the branches
        traded when the words are, is a move): then it maps every tree for L to a tree
        for its image. None when gods have a memory (their states are not mapped).
        """
        if self._symmetries is None:
            self._symmetries = [] if self._moved else self._find_symmetries()
        return self._symmetries

    def _find_symmetries(self) -> list[_BitMap]:
        worlds = self.puzzle.hidden_worlds
        index = {(h.assignment, h.da_means_yes): i for i, h in enumerate(worlds)}
        words = list(self.moves.words)
        swaps = [False] + ([True] if len(self.puzzle.languages) == 2 and {"ja", "da"} <= set(words) else [])
        sets = self.moves.sets  # distinct rows
        hashes = _row_hashes(sets)
        by_hash = np.argsort(hashes)
        sorted_hashes = hashes[by_hash]

        def maps_table_onto_itself(element: tuple[tuple[int, ...], bool]) -> bool:
            image_of, swap = element
            order = [words.index({"ja": "da", "da": "ja"}.get(w, w)) if swap else j for j, w in enumerate(words)]
            mapping = _BitMap([1 << g for g in image_of])
            for rows in (sets[:: max(1, len(sets) // 256)], sets):  # most maps that fail do so on a sample
                images = mapping.of_array(rows)[:, order]
                at = np.minimum(np.searchsorted(sorted_hashes, _row_hashes(images)), len(sets) - 1)
                # Exact: each image must equal the row its hash points to (a collision can
                # only reject a true symmetry, never admit a false one).
                if not len(sets) or not (sets[by_hash[at]] == images).all():
                    return False
            return True

        def compose(a: tuple[tuple[int, ...], bool], b: tuple[tuple[int, ...], bool]) -> tuple[tuple[int, ...], bool]:
            return tuple(a[0][g] for g in b[0]), a[1] != b[1]

        # Verified maps form a group: what the checked ones generate needs no check.
        identity = (tuple(range(len(worlds))), False)
        group = {identity}
        n = self.puzzle.n_positions
        for perm in itertools.permutations(range(n)):
            for swap in swaps:
                image_of = []
                for h in worlds:
                    image = (tuple(h.assignment[perm.index(i)] for i in range(n)), h.da_means_yes != swap)
                    if image not in index:
                        break
                    image_of.append(index[image])
                else:
                    element = (tuple(image_of), swap)
                    if element in group or not maps_table_onto_itself(element):
                        continue
                    frontier = [element]
                    while frontier:
                        new = frontier.pop()
                        if new not in group:
                            group.add(new)
                            frontier += [compose(new, g) for g in group] + [compose(g, new) for g in group]
        return [_BitMap([1 << g for g in image_of]) for image_of, _ in sorted(group - {identity})]

    def _canonical(self, live: int) -> int:
        """The least image of `live` under the symmetries (a key shared by equally solvable sets).

        Small searches do without: `live` itself is the key until this search has expanded
        SYMMETRY_AFTER nodes (a key met before is still sound: it stands for its own set)."""
        if self._symmetries is None and self._expanded < SYMMETRY_AFTER:
            return live
        key = self._canon.get(live)
        if key is None:
            key = self._canon[live] = min([live, *(s.of_int(live) for s in self.symmetries)])
        return key

    def _known_to_fail(self, live: int, left: int) -> bool:
        return self._failed.get(self._canonical(live), -1) >= left

    def _record_failure(self, live: int, left: int) -> None:
        key = self._canonical(live)
        if self._failed.get(key, -1) < left:
            self._failed[key] = left

    def _tick(self) -> None:
        self.stats.nodes += 1
        self._expanded += 1
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchTimeout("the search passed its deadline")  # what it proved stays memoised

    # -- moves at a node -------------------------------------------------------------------------
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
        if distinct:
            return self._expand(live, left, self._root)[0]
        branches = self.moves.sets & np.uint64(live)
        self._move_on(branches, self._root.moves)
        progress = (branches != np.uint64(live)).all(axis=1)
        index = np.flatnonzero(progress)
        counts = self._assignment_counts(branches[index])
        keep = (counts <= self.width ** (left - 1)).all(axis=1)
        index, counts = index[keep], counts[keep]
        order = np.lexsort((index, counts.sum(axis=1), counts.max(axis=1)))
        return [(int(m), tuple(int(b) for b in branches[m])) for m in index[order]]

    def _move_on(self, branches: np.ndarray, moves: np.ndarray) -> None:
        """Carry the branch sets of these moves through the states of gods with a memory (in place)."""
        positions = self.moves.positions[moves]
        for p, moved in self._moved.items():
            rows = positions == p
            branches[rows] = moved.of_array(branches[rows])

    def _fitting(self, live: int, left: int, table: _Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """At a node: its moves that make progress and their branch sets and assignment counts,
        and the indices among them of the fitting ones, one per distinct branch sets."""
        table = table.distinct()
        moves, branches = table.moves, table.sets & np.uint64(live)
        if self._moved:
            self._move_on(branches, moves)
        # Column by column: much faster than reducing along an axis of length 2 or 3.
        whole = np.uint64(live)
        progress = branches[:, 0] != whole
        for j in range(1, branches.shape[1]):
            progress &= branches[:, j] != whole
        moves, branches = moves[progress], branches[progress]
        counts = self._assignment_counts(branches)
        cap = self.width ** (left - 1)
        fits = counts[:, 0] <= cap
        for j in range(1, counts.shape[1]):
            fits &= counts[:, j] <= cap
        self.stats.moves_pruned += len(fits) - int(np.count_nonzero(fits))
        index = np.flatnonzero(fits)
        return moves, branches, counts, index[_first_of_each(branches[index])]

    def _expand(self, live: int, left: int, table: _Table) -> tuple[list[tuple[int, tuple[int, ...]]], _Table]:
        """The fitting moves at a node, most promising first (fewest assignments in the biggest
        branch, then in all, then the simplest move), one per distinct branch sets; and the
        table its children start from: this node's moves that make progress."""
        moves, branches, counts, index = self._fitting(live, left, table)
        order = index[np.lexsort((moves[index], counts[index].sum(axis=1), counts[index].max(axis=1)))]
        rows = list(zip(moves[order].tolist(), map(tuple, branches[order].tolist())))
        # With memories, branch sets are states after the move: children restart from the root.
        return rows, self._root if self._moved else _Table(moves, branches)

    def _node(self, move: int, subtrees: list[Tree]) -> Node:
        return Node(
            int(self.moves.positions[move]),
            self.universe.term(int(self.moves.qids[move])),
            tuple(zip(self.moves.words, subtrees)),
        )

    def _cut(self, live: int, left: int) -> bool:
        """True iff counting alone shows no tree with `left` questions (live not a leaf)."""
        return left == 0 or self.assignments(live).bit_count() > self.width**left

    # -- one tree ----------------------------------------------------------------------------
    def one(self, live: int, left: int) -> Tree | None:
        """A tree separating the live worlds within `left` questions, or None if none exists."""
        return self._one(live, left, self._root)

    def _one(self, live: int, left: int, table: _Table) -> Tree | None:
        leaf = self._leaf(live)
        if leaf is not None:
            return leaf
        if self._cut(live, left):
            return None
        found = self._found.get((live, left))
        if found is not None:
            return found
        if self._known_to_fail(live, left):
            return None
        self._tick()
        if not self.hopeless(live):
            rows, below = self._expand(live, left, table)
            for move, branches in rows:
                self.stats.moves_tried += 1
                subtrees = []
                for branch in branches:
                    sub = self._one(branch, left - 1, below)
                    if sub is None:
                        break
                    subtrees.append(sub)
                else:
                    found = self._node(move, subtrees)
                    break
        if found is None:
            self._record_failure(live, left)
        else:
            self._found[(live, left)] = found
        return found

    # -- all trees ---------------------------------------------------------------------------
    def count(self, live: int, left: int) -> int:
        """How many distinct trees (moves up to their branch sets) separate the live worlds."""
        return self._counted(live, left, self._root)

    def _counted(self, live: int, left: int, table: _Table) -> int:
        """`count`, memoised on the canonical live set (a symmetry maps trees one to one)."""
        total = self._count_exact.get((live, left))
        if total is not None:
            return total
        if self._leaf(live) is not None:
            total = 1
        elif self._cut(live, left) or self._known_to_fail(live, left):
            total = 0
        else:
            key = (self._canonical(live), left)
            total = self._count.get(key)
            if total is None:
                if left == 1:  # every fitting last question ends in leaves: one tree each
                    self._tick()
                    total = 0 if self.hopeless(live) else len(self._fitting(live, left, table)[3])
                    self.stats.moves_tried += total
                else:
                    total = sum(product for _, _, product in self._counted_options(live, left, table))
                if not total:
                    self._record_failure(live, left)
                self._count[key] = total
        self._count_exact[(live, left)] = total
        return total

    def _counted_options(self, live: int, left: int, table: _Table) -> list[tuple[int, tuple[int, ...], int]]:
        """The moves at a node that lead to some tree: (move, branch sets, how many trees)."""
        self._tick()
        options = []
        if not self.hopeless(live):
            rows, below = self._expand(live, left, table)
            for move, branches in rows:
                self.stats.moves_tried += 1
                product = 1
                for branch in branches:
                    product *= self._counted(branch, left - 1, below)
                    if not product:
                        break
                if product:
                    options.append((move, branches, product))
        return options

    def trees(self, live: int, left: int) -> Iterator[Tree]:
        """Every distinct tree counted by `count`, lazily."""
        leaf = self._leaf(live)
        if leaf is not None:
            yield leaf
            return
        if not self.count(live, left):
            return
        key = (live, left)
        if key not in self._options:
            self._options[key] = [(m, b) for m, b, _ in self._counted_options(live, left, self._root)]
        for move, branches in self._options[key]:
            yield from self._combine(move, branches, left, [])

    def _combine(self, move: int, branches: tuple[int, ...], left: int, done: list[Tree]) -> Iterator[Tree]:
        if len(done) == len(branches):
            yield self._node(move, list(done))
            return
        for sub in self.trees(branches[len(done)], left - 1):
            yield from self._combine(move, branches, left, done + [sub])


def searcher(u: Universe, complexity: int) -> TreeSearch:
    """The search over the moves of complexity <= `complexity` of universe `u`, kept on `u`
    so that every question count tried reuses what the others proved."""
    cache = u.__dict__.setdefault("_searches", {})
    if complexity not in cache:
        cache[complexity] = TreeSearch(u.puzzle, u, move_table(u, complexity))
    return cache[complexity]
