"""Independent verification: replay a tree in every hidden world and every run of Random.

This uses only the plain recursive evaluator (`grammar.evaluate`), never the bitset
engine: at each node, for every free answer Random may give at that step, the god's
utterance is computed and its branch followed; every leaf reached must name the true
assignment.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError
from .grammar import check_question, evaluate
from .model import Puzzle, World, type_letters
from .tree import Leaf, Tree

__all__ = ["Verification", "verify"]


@dataclass(frozen=True)
class Verification:
    """The outcome of a replay: ok iff no problem; how many worlds and leaf arrivals were checked."""

    ok: bool
    worlds: int
    arrivals: int
    problems: tuple[str, ...]

    def __str__(self) -> str:
        if self.ok:
            return f"verified: tree replayed in every world ({self.worlds} hidden worlds, {self.arrivals} paths)"
        return "NOT verified:\n  " + "\n  ".join(self.problems[:20])


def verify(puzzle: Puzzle, tree: Tree, questions: int | None = None) -> Verification:
    """Replay `tree` in every hidden world of `puzzle`; at most `questions` per branch if given.

    >>> from logicpy.puzzles.gods import KNIGHT_OR_KNAVE, Leaf
    >>> verify(KNIGHT_OR_KNAVE, Leaf(("truly",))).ok
    False
    """
    problems: list[str] = []
    arrivals = 0

    def replay(t: Tree, world: World, path: str, asked: int) -> None:
        nonlocal arrivals
        if isinstance(t, Leaf):
            arrivals += 1
            if t.answer is None:
                problems.append(f"{path}: world {world} reaches a leaf marked unreachable")
            elif tuple(t.answer) != world.assignment:
                problems.append(f"{path}: world {world} ends at answer {type_letters(t.answer)}")
            return
        if questions is not None and asked >= questions:
            problems.append(f"{path}: more than {questions} question(s) on this branch")
            return
        try:
            check_question(t.question, puzzle.grammar, puzzle.n_positions, puzzle.types, f"{path}.question")
        except InputError as exc:
            problems.append(str(exc))
            return
        if not 1 <= t.position <= puzzle.n_positions:
            problems.append(f"{path}.ask: no god at position {t.position}")
            return
        heard = set()
        for cw in puzzle.concrete_worlds_of(world):
            truth = evaluate(t.question, cw, puzzle.grammar, puzzle.semantics)
            heard.add(puzzle.semantics.utter(cw.type_at(t.position), truth, cw.da_means_yes, cw.free_at(t.position)))
        for word in sorted(heard):
            try:
                sub = t.branch(word)
            except KeyError:
                problems.append(f"{path}: world {world} can hear {word!r} but the node has no such branch")
                continue
            replay(sub, world, f"{path}.{word}", asked + 1)

    for world in puzzle.hidden_worlds:
        replay(tree, world, "$", 0)
    return Verification(not problems, len(puzzle.hidden_worlds), arrivals, tuple(problems))
