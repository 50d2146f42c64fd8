"""Independent verification: replay a tree in every hidden world and every run of Random.

This uses only the plain recursive evaluator (`grammar.evaluate`), never the bitset
engine: at each node, for every free choice the gods may make at that step, the asked
god's utterances are computed and their branches followed; every leaf reached must name
the true assignment. Under self-reference the utterances come from the fixed point,
tried answer by answer: the god may say u iff his answer to the question's truth given
u is u, and is silent if no word qualifies.
"""

from __future__ import annotations

from ...errors import InputError
from ..verification import Verification
from .grammar import check_question, evaluate
from .grammar import Question
from .model import SILENT, WORDS, ConcreteWorld, Puzzle, World, type_letters
from .tree import Leaf, Tree

__all__ = ["verify", "utterances"]


def verify(puzzle: Puzzle, tree: Tree, questions: int | None = None) -> Verification:
    """Replay `tree` in every hidden world of `puzzle`; at most `questions` per branch if given.
    Every world must reach the leaf naming its assignment, whatever the gods' free choices.

    >>> from logicpy.puzzles.gods import KNIGHT_OR_KNAVE, Leaf
    >>> verify(KNIGHT_OR_KNAVE, Leaf(("truly",))).problems[0]
    '$: world F/da=yes ends at answer T'
    """
    problems: list[str] = []
    arrivals = 0

    def replay(t: Tree, world: World, path: str, asked: int) -> None:
        nonlocal arrivals
        if isinstance(t, Leaf):
            arrivals += 1
            if t.answer is None:
                problems.append(f"{path}: world {world} reaches a leaf marked unreachable")
            elif tuple(t.answer) != tuple(world.assignment):
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
        heard: set[str] = set()
        for cw in puzzle.concrete_worlds_of(world):
            heard |= utterances(puzzle, t.position, t.question, cw)
        for word in sorted(heard):
            try:
                sub = t.branch(word)
            except KeyError:
                problems.append(f"{path}: world {world} can hear {word!r} but the node has no such branch")
                continue
            replay(sub, puzzle.after(world, t.position), f"{path}.{word}", asked + 1)

    for world in puzzle.hidden_worlds:
        replay(tree, world, "$", 0)
    worlds = len(puzzle.hidden_worlds)
    return Verification.of(problems, f"tree replayed in every world ({worlds} hidden worlds, {arrivals} paths)")


def utterances(puzzle: Puzzle, position: int, question: Question, cw: ConcreteWorld) -> set[str]:
    """What the god at `position`, asked `question` in the concrete world `cw`, may utter."""
    god, lang, free, state = cw.type_at(position), cw.da_means_yes, cw.free_at(position), cw.state_at(position)
    cw = cw.with_view(puzzle.view_of(position, cw))  # the truth as he judges it
    if not puzzle.self_reference:
        return {puzzle.utter(god, evaluate(question, cw, puzzle.grammar, puzzle), lang, free, state)}
    consistent = {
        u for u in WORDS
        if puzzle.utter(god, evaluate(question, cw.with_answer(u), puzzle.grammar, puzzle), lang, free, state) == u
    }
    return consistent or {SILENT}
