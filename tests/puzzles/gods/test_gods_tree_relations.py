"""The tree search as a relation (issue 11, part 3), and the relations' fixes."""

from __future__ import annotations

import pytest

from logicpy.core import eq, run, var
from logicpy.errors import InputError, ModeError
from logicpy.puzzles.gods import (
    CLASSIC,
    FOUR_GODS,
    KNIGHT_OR_KNAVE,
    evaluate,
    evaluateo,
    questiono,
    solve,
    universe,
    verify,
)
from logicpy.puzzles.gods.search import TreeSearch, move_table
from logicpy.puzzles.gods.tree_relations import distinguishingo, signatureo, tree_from_term, tree_to_term, treeo


@pytest.fixture(scope="module")
def classic_trees():
    t = var()
    return run(0, t, treeo(CLASSIC, t, 3, 1))


def test_treeo_answers_are_exactly_the_trees_solve_counts(classic_trees):
    """--all counts 1,536 distinct trees at complexity 1; treeo gives the same trees."""
    t = var()
    assert len(classic_trees) == len(set(classic_trees)) == 1536 == solve(CLASSIC, 3, 1, find="all", limit=0).count
    u = universe(CLASSIC, 1)
    search = TreeSearch(CLASSIC, u, move_table(u, 1))
    assert set(classic_trees) == {tree_to_term(tree) for tree in search.trees(search.all_live, 3)}
    assert run(1, t, treeo(CLASSIC, t, 3, 1))[0] == tree_to_term(solve(CLASSIC, 3, 1).tree)
    assert run(0, t, treeo(CLASSIC, t, 2, 3)) == ()  # 6 assignments, 4 leaves


def test_treeo_with_a_fixed_first_question_that_is_no_representative():
    t, branches = var(), var()
    first = ("ask", 1, ("not", ("not", ("is", 2, "random"))))  # same behaviour as ask(1, is(2, random))
    trees = run(0, t, eq(t, ("node", 1, first, branches)), treeo(CLASSIC, t, 3, 1))
    assert len(trees) == 256 and all(tree[2] == first for tree in trees)
    assert all(verify(CLASSIC, tree_from_term(tree), 3).ok for tree in trees[::17])


def test_treeo_with_a_fixed_god_at_the_root(classic_trees):
    t, q, branches = var(), var(), var()
    bound = run(0, t, eq(t, ("node", 2, q, branches)), treeo(CLASSIC, t, 3, 1))
    assert set(bound) == {tree for tree in classic_trees if tree[1] == 2} and len(bound) == 512


@pytest.mark.slow
def test_treeo_gives_every_tree_of_the_search_at_complexity_2():
    t = var()
    trees = run(0, t, treeo(CLASSIC, t, 3, 2))
    u = universe(CLASSIC, 2)
    search = TreeSearch(CLASSIC, u, move_table(u, 2))
    assert set(trees) == {tree_to_term(tree) for tree in search.trees(search.all_live, 3)} and len(trees) == 3456


def test_treeo_with_a_required_leaf_equals_filtering(classic_trees):
    t = var()
    everything = classic_trees
    leaf = everything[0][3][0][1][3][0][1][3][0][1]  # the first tree's ja.ja.ja leaf
    assert leaf[0] == "leaf"
    pattern = ("node", var(), var(), (("ja", ("node", var(), var(), (("ja", ("node", var(), var(), (("ja", leaf), var()))),
                                                                    var()))), var()))
    bound = run(0, t, eq(t, pattern), treeo(CLASSIC, t, 3, 1))
    filtered = [tree for tree in everything if tree[3][0][1][3][0][1][3][0][1] == leaf]
    assert set(bound) == set(filtered) and 0 < len(bound) < 1536


def test_treeo_under_exploding_heads_gives_ternary_trees():
    puzzle = CLASSIC.with_options(semantics="explode")
    t = var()
    (tree,) = run(1, t, treeo(puzzle, t, 2, 2))
    assert [w for w, _ in tree[3]] == ["ja", "da", "silent"]
    assert verify(puzzle, tree_from_term(tree), 2).ok


def test_signatureo_both_ways():
    s, q = var(), var()
    (sig,) = run(0, s, signatureo(("ask", 1, ("is", 2, "random")), s))
    assert sig == tuple(evaluate(("ask", 1, ("is", 2, "random")), w, CLASSIC.grammar, CLASSIC) for w in CLASSIC.concrete_worlds)
    assert run(0, q, signatureo(q, sig, complexity=1)) == (("ask", 1, ("is", 2, "random")),)
    assert len(run(0, q, signatureo(q, s, complexity=1))) == 11 + 69 == len(universe(CLASSIC, 1).ids_through(1))
    with pytest.raises(ModeError, match="complexity="):
        run(1, q, signatureo(q, s))


def test_distinguishingo_finds_the_knight_or_knave_question():
    q, w1, w2 = var(), var(), var()
    truly_yes = ("hidden", ["truly"], "da_yes")
    found = run(0, q, distinguishingo(1, q, truly_yes, ("hidden", ["falsely"], "da_no"), KNIGHT_OR_KNAVE, complexity=1))
    assert ("ask", 1, ("is", 1, "truly")) in found and ("true",) not in found
    # "true": Truly says the yes-word; separated from Falsely in the same language, or from
    # Truly in the other.
    assert set(map(repr, run(0, w2, distinguishingo(1, ("true",), truly_yes, w2, KNIGHT_OR_KNAVE)))) == {
        repr(("hidden", ["falsely"], "da_yes")), repr(("hidden", ["truly"], "da_no"))}


def test_questiono_takes_the_puzzle():
    q = var()
    atoms = run(0, q, questiono(q, 0, puzzle=FOUR_GODS))
    assert ("is", 4, "truly") in atoms and len(atoms) == 2 + 4 * 3
    assert ("is", 4, "truly") not in run(0, q, questiono(q, 0))


def test_evaluateo_names_an_unknown_operator_and_a_foreign_world():
    t = var()
    world = ("world", ["truly", "falsely", "random"], "da_yes", ["none", "none", "ja"])
    with pytest.raises(InputError, match="unknown question operator 'implies'"):
        run(0, t, evaluateo(("not", ("implies", ("true",), ("false",))), world, t))
    four = ("world", ["truly", "truly", "falsely", "random"], "da_yes", ["none", "none", "none", "ja"])
    with pytest.raises(InputError, match="is not a concrete world of puzzle classic"):
        run(0, t, evaluateo(("true",), four, t))
    assert run(0, t, evaluateo(("is", 4, "random"), four, t, FOUR_GODS)) == (True,)
