"""The tree search as relations: `signatureo`, `distinguishingo`, `treeo`.

These are kanren goals over the exact universe (built once per puzzle and complexity and
kept: tabled), so relational answers are the same questions and trees the fast search
finds, and they run in the directions that terminate:

- `signatureo(q, sig)`: sig is q's truth in every concrete world (a tuple of booleans in
  `puzzle.concrete_worlds` order, doubled under self-reference as in the universe). With q
  unbound (complexity= given) q ranges over one representative question per behaviour.
- `distinguishingo(p, q, w1, w2)`: asked of god p, q separates the hidden worlds w1 and
  w2 (no utterance is possible in both). A hidden world is ("hidden", [type, ...],
  "da_yes" | "da_no").
- `treeo(puzzle, tree, questions, complexity)`: tree is a question tree that names every
  assignment within `questions` questions of complexity <= `complexity`. Trees are terms:
  ("node", p, q, ((word, subtree), ...)) with the branches in `puzzle.utterances` order,
  and ("leaf", (type, ...)) or ("leaf", "none") for a branch no world reaches. Any part
  may be bound: a fixed first question (any question, not only a representative), a
  fixed god at the root, a required leaf. Moves at a node are deduplicated by the hidden
  worlds each branch keeps (the core's `unique_by`), after the tree's bound parts are
  matched, and subtrees are tabled per (live worlds, questions left).

`tree_to_term` and `tree_from_term` convert between terms and `Tree` values.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np
from kanren.core import GoalType
from unification import reify, unify

from ...core import eq, fail, lall, tabled, unique_by, var
from ...errors import ModeError
from .grammar import check_question
from .model import Puzzle, World
from .relations import _ground, _puzzle
from .search import TreeSearch, move_table
from .tree import Leaf, Node, Tree
from .universe import Universe, universe
from ...core.terms import is_var

__all__ = ["signatureo", "distinguishingo", "treeo", "tree_to_term", "tree_from_term", "hidden_term"]


# -- terms ---------------------------------------------------------------------------------
def hidden_term(world: World) -> tuple:
    """A hidden world as a term: ("hidden", [type, ...], "da_yes" | "da_no")."""
    return ("hidden", list(world.assignment), "da_yes" if world.da_means_yes else "da_no")


def tree_to_term(tree: Tree) -> tuple:
    """A `Tree` as a logicpy term (see the module docstring)."""
    if isinstance(tree, Leaf):
        return ("leaf", "none" if tree.answer is None else tuple(tree.answer))
    return ("node", tree.position, tree.question, tuple((w, tree_to_term(t)) for w, t in tree.branches))


def tree_from_term(term: Any) -> Tree:
    """The `Tree` a ground tree term stands for."""
    if term[0] == "leaf":
        return Leaf(None if term[1] == "none" else tuple(term[1]))
    _, position, question, branches = term
    return Node(position, question, tuple((w, tree_from_term(t)) for w, t in branches))


# -- the exact universe, once per puzzle and complexity ----------------------------------------
@dataclass(eq=False)
class _Context:
    """The universe, distinct moves and search helpers of one (puzzle, complexity)."""

    puzzle: Puzzle
    complexity: int
    universe: Universe
    search: TreeSearch

    def truths(self, signature: np.ndarray) -> tuple[bool, ...]:
        return tuple(self.universe.layout.truths(signature))

    def branch_sets(self, position: int, signature: np.ndarray) -> tuple[int, ...]:
        """Per utterance, the hidden worlds in which god `position` may utter it."""
        layout = self.universe.layout
        sig = signature.reshape(1, -1)
        return tuple(int(layout.project(layout.utterance(sig, position, w))[0]) for w in self.puzzle.utterances)


#: Contexts kept, most recently used last; evicting one also empties the subtree tables.
_CONTEXTS: dict[tuple[Puzzle, int], _Context] = {}
CONTEXTS_KEPT = 4


def _context(puzzle: Puzzle, complexity: Any) -> _Context:
    if isinstance(complexity, bool) or not isinstance(complexity, int) or complexity < 0:
        raise ModeError(f"the complexity bound must be a non-negative integer, got {complexity!r}")
    key = (puzzle, complexity)
    ctx = _CONTEXTS.pop(key, None)
    if ctx is None:
        u = universe(puzzle, complexity)
        ctx = _Context(puzzle, complexity, u, TreeSearch(puzzle, u, move_table(u, complexity)))
    _CONTEXTS[key] = ctx
    if len(_CONTEXTS) > CONTEXTS_KEPT:
        del _CONTEXTS[next(iter(_CONTEXTS))]
        _subtreeo.clear()  # type: ignore[attr-defined]  # `tabled` adds clear()
    return ctx


def _ground_question(q: Any, puzzle: Puzzle, relation: str) -> tuple:
    """q as a tuple term, checked against the puzzle's grammar (InputError naming the bad part)."""
    q = _tuples(q)
    check_question(q, puzzle.grammar, puzzle.n_positions, puzzle.types, f"{relation}: question")
    return q


def _tuples(term: Any) -> Any:
    return tuple(_tuples(t) for t in term) if isinstance(term, (tuple, list)) else term


# -- signatureo ------------------------------------------------------------------------------
def signatureo(q: Any, sig: Any, puzzle: Puzzle | None = None, complexity: int | None = None) -> GoalType:
    """signatureo(?q, ?sig): sig is q's truth in every concrete world of one step.

    With q ground, any complexity; with q unbound, `complexity` bounds it and q ranges
    over one representative per distinct signature (a bound sig finds its representative).

    >>> from logicpy.core import run, var
    >>> s, q = var(), var()
    >>> run(0, s, signatureo(("true",), s))[0][:4]
    (True, True, True, True)
    >>> run(0, q, signatureo(q, run(0, s, signatureo(("not", ("false",)), s))[0], complexity=1))
    (('true',),)
    """
    p = _puzzle(puzzle)

    def signatureo_goal(S):
        q_now = reify(q, S)
        if _ground(q_now):
            u = universe(p, 0)
            truths = tuple(u.layout.truths(u.signature(_ground_question(q_now, p, "signatureo"))))
            S_next = unify(sig, truths, S)
            if S_next is not False:
                yield S_next
            return
        if complexity is None:
            raise ModeError("signatureo: with q unbound, give complexity= (the bound on the questions enumerated)")
        ctx = _context(p, complexity)
        u = ctx.universe
        for qid in u.ids_through(complexity):
            S_next = unify((q, sig), (u.term(qid), ctx.truths(u.signatures[qid])), S)
            if S_next is not False:
                yield S_next

    return signatureo_goal


# -- distinguishingo ---------------------------------------------------------------------------
def distinguishingo(position: Any, q: Any, world1: Any, world2: Any, puzzle: Puzzle | None = None,
                    complexity: int | None = None) -> GoalType:
    """distinguishingo(?p, ?q, ?w1, ?w2): asked of god p, q separates hidden worlds w1 and w2.

    No utterance of god p to q is possible in both worlds, whatever the gods' free
    choices. With q unbound, `complexity` bounds it (one question per behaviour).

    >>> from logicpy.core import run, var
    >>> w = var()
    >>> tfr = ("hidden", ["truly", "falsely", "random"], "da_yes")
    >>> sorted(run(0, w, distinguishingo(1, ("ask", 1, ("is", 1, "truly")), tfr, w)))[0]
    ('hidden', ['falsely', 'random', 'truly'], 'da_no')
    """
    p = _puzzle(puzzle)
    hidden = [hidden_term(h) for h in p.hidden_worlds]

    def pairs(ctx: _Context, sets: tuple[int, ...]) -> Iterator[tuple[int, int]]:
        n = len(hidden)
        for a, b in itertools.permutations(range(n), 2):
            if not any(s >> a & 1 and s >> b & 1 for s in sets):
                yield a, b

    def distinguishingo_goal(S):
        q_now, p_now = reify(q, S), reify(position, S)
        positions = [p_now] if not is_var(p_now) else range(1, p.n_positions + 1)
        if _ground(q_now):
            ctx = _context(p, 0)
            sig = ctx.universe.signature(_ground_question(q_now, p, "distinguishingo"))
            moves: Iterator[tuple[int, Any, Any]] = ((pos, q_now, sig) for pos in positions)
        else:
            if complexity is None:
                raise ModeError("distinguishingo: with q unbound, give complexity=")
            ctx = _context(p, complexity)
            u = ctx.universe
            moves = ((pos, u.term(qid), u.signatures[qid]) for qid in u.ids_through(complexity) for pos in positions)
        for pos, term, sig in moves:
            if not isinstance(pos, int) or not 1 <= pos <= p.n_positions:
                return
            for a, b in pairs(ctx, ctx.branch_sets(pos, sig)):
                S_next = unify((position, q, world1, world2), (pos, term, hidden[a], hidden[b]), S)
                if S_next is not False:
                    yield S_next

    return distinguishingo_goal


# -- treeo ---------------------------------------------------------------------------------------
def treeo(puzzle: Puzzle, tree: Any, questions: int, complexity: int) -> GoalType:
    """treeo(+puzzle, ?tree, +questions, +complexity): tree names every assignment of the puzzle.

    Answers are the distinct trees `solve(..., find="all")` counts (moves up to the
    hidden worlds each branch keeps), best-first in the same order; a partly bound tree
    constrains them.

    >>> from logicpy.core import run, var
    >>> from logicpy.puzzles.gods import KNIGHT_OR_KNAVE
    >>> t = var()
    >>> [tree[2] for tree in run(0, t, treeo(KNIGHT_OR_KNAVE, t, 1, 1))]
    [('ask', 1, ('is', 1, 'truly')), ('ask', 1, ('is', 1, 'falsely'))]
    """
    if isinstance(questions, bool) or not isinstance(questions, int) or questions < 0:
        raise ModeError(f"treeo: questions must be a non-negative integer, got {questions!r}")
    ctx = _context(puzzle, complexity)
    return _tree_of(ctx, ctx.search.all_live, questions, tree)


def _leaf_term(leaf: Leaf) -> tuple:
    return ("leaf", "none" if leaf.answer is None else tuple(leaf.answer))


@tabled
def _subtreeo(ctx: _Context, live: int, left: int, tree: Any) -> GoalType:
    """Tabled per (live worlds, questions left) and the tree's bound parts."""
    return _tree_of(ctx, live, left, tree)


def _tree_of(ctx: _Context, live: int, left: int, tree: Any) -> GoalType:
    search = ctx.search
    leaf = search._leaf(live)
    if leaf is not None:
        return eq(tree, _leaf_term(leaf))
    if left == 0 or search.assignments(live).bit_count() > search.base ** left or search.hopeless(live):
        return fail
    words = ctx.puzzle.utterances
    key, subs = var("branches"), [var(w) for w in words]

    def moveso(S):
        """Every move that fits (as the search's candidates), matched with the tree's head."""
        head = reify(tree, S)
        q_bound = head[2] if isinstance(head, tuple) and len(head) == 4 and _ground(head[2]) else None
        if q_bound is not None:
            sig = ctx.universe.signature(_ground_question(q_bound, ctx.puzzle, "treeo"))
            moves = [(pos, q_bound, ctx.branch_sets(pos, sig)) for pos in range(1, ctx.puzzle.n_positions + 1)]
            moves = [(pos, q, _after(ctx, pos, tuple(b & live for b in sets))) for pos, q, sets in moves]
            moves = [m for m in moves if _fits(ctx, live, left, m[2])]
        else:
            moves = ((int(search.moves.positions[m]), ctx.universe.term(int(search.moves.qids[m])), branches)
                     for m, branches in _rows(search, live, left))
        for pos, q, branches in moves:
            node = ("node", pos, q, tuple(zip(words, subs)))
            S_next = unify((tree, key), (node, branches), S)
            if S_next is not False:
                yield S_next

    def subtreeso(S):
        branches = reify(key, S)
        yield from lall(*(_subtreeo(ctx, b, left - 1, t) for b, t in zip(branches, subs)))(S)

    return lall(unique_by(key, moveso), subtreeso)


def _rows(search: TreeSearch, live: int, left: int) -> list[tuple[int, tuple[int, ...]]]:
    """The fitting moves at a node in the search's order, NOT yet deduplicated (unique_by does it)."""
    cache = search.__dict__.setdefault("_relational_rows", {})
    if (live, left) not in cache:
        cache[(live, left)] = search.candidates(live, left, distinct=False)
    return cache[(live, left)]


def _after(ctx: _Context, position: int, branches: tuple[int, ...]) -> tuple[int, ...]:
    moved = ctx.search._moved.get(position)
    return branches if moved is None else tuple(moved.of_int(b) for b in branches)


def _fits(ctx: _Context, live: int, left: int, branches: tuple[int, ...]) -> bool:
    search = ctx.search
    return all(search.assignments(b).bit_count() <= search.base ** (left - 1) and b != live for b in branches)
