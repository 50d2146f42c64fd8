"""The SMT engine (z3 over logicpy's move table): its trees replay, its "none"s agree with the search."""

from __future__ import annotations

import pytest

from logicpy.puzzles.gods import (
    CLASSIC,
    FOUR_GODS,
    KNIGHT_OR_KNAVE,
    KNOWN_TRULY_FIRST,
    RANDOM_NOT_FIRST,
    solve,
    verify,
)
from logicpy.puzzles.gods.search import move_table
from logicpy.puzzles.gods.backends.smt import smt_tree, unsplittable_sets
from logicpy.puzzles.gods.universe import universe

pytest.importorskip("z3")


@pytest.mark.parametrize("cubes", [False, True])
def test_classic_three_questions_of_complexity_1_found_and_replayed(cubes):
    # Boolos (1996): three questions suffice; logicpy finds them at complexity 1.
    result = smt_tree(CLASSIC, 3, 1, cubes=cubes)
    assert result.verdict == "sat" and result.moves == 90
    assert verify(CLASSIC, result.tree, 3).ok


def test_z3_proves_two_questions_impossible_for_the_classic_at_complexity_1():
    # Six assignments, four leaves: known impossible. Here z3 proves it from the encoding
    # alone (one problem for the whole tree, no counting done in Python).
    result = smt_tree(CLASSIC, 2, 1, cubes=False)
    assert result.verdict == "unsat" and result.tree is None and result.z3_calls == 1


def test_z3_proves_three_questions_of_complexity_0_impossible_for_the_classic():
    # Counting allows it (6 assignments, 8 leaves); no tree of atoms exists, as logicpy's search says.
    assert solve(CLASSIC, 3, 0).status == "none"
    assert smt_tree(CLASSIC, 3, 0, cubes=False).verdict == "unsat"


def test_two_questions_for_exploding_gods():
    # Rabern & Rabern (2008): with self-referential questions, two questions suffice.
    puzzle = CLASSIC.with_options(semantics="explode")
    result = smt_tree(puzzle, 2, 2)
    assert result.verdict == "sat" and verify(puzzle, result.tree, 2).ok


@pytest.mark.parametrize("puzzle", [KNIGHT_OR_KNAVE, CLASSIC, RANDOM_NOT_FIRST, KNOWN_TRULY_FIRST], ids=lambda p: p.name)
def test_z3_agrees_with_the_tree_search_on_small_puzzles(puzzle):
    for questions in (1, 2, 3):
        for complexity in (0, 1):
            found = solve(puzzle, questions, complexity).status == "found"
            for cubes in (False, True):
                result = smt_tree(puzzle, questions, complexity, cubes=cubes)
                assert result.verdict == ("sat" if found else "unsat"), (questions, complexity, cubes)
                assert result.tree is None or verify(puzzle, result.tree, questions).ok


def test_unsplittable_sets_are_exactly_those_no_move_splits():
    # Every pair of classic assignments is split by one question of complexity 1: nothing is
    # forbidden at a last question. At complexity 0 (atoms only) language hides the answer.
    puzzle = CLASSIC
    assert unsplittable_sets(puzzle, move_table(universe(puzzle, 1), 1)) == []
    at_atoms = unsplittable_sets(puzzle, move_table(universe(puzzle, 0), 0))
    assert at_atoms and all(len({puzzle.hidden_worlds[h].assignment for h in s}) >= 2 for s in at_atoms)


def test_gods_with_a_memory_are_refused():
    from logicpy.puzzles.gods import GodType, Puzzle
    from logicpy.puzzles.gods.model import word_for

    alternating = GodType("alternating", "A", lambda truth, da_means_yes, choice, state: word_for(
        truth == (state == "truthful"), da_means_yes), states=("truthful", "lying"),
        after=lambda state, asked: {"truthful": "lying", "lying": "truthful"}[state] if asked else state)
    puzzle = Puzzle.choices([("truly", "alternating")], gods=(alternating,), name="T or A")
    with pytest.raises(ValueError, match="memory"):
        smt_tree(puzzle, 2, 0)


@pytest.mark.slow
def test_four_gods_found_by_z3_and_replayed():
    # Four gods (two Trulys, Falsely, Random) need 4 questions of complexity 2 (logicpy's census).
    result = smt_tree(FOUR_GODS, 4, 2)
    assert result.verdict == "sat" and verify(FOUR_GODS, result.tree, 4).ok
