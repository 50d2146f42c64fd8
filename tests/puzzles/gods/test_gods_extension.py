"""Extending the grammar: one new rule is picked up by relations, universe, search, JSON, English."""

from __future__ import annotations

import json

from logicpy.core import run, var
from logicpy.puzzles.gods import (
    CLASSIC,
    CLASSIC_GRAMMAR,
    Universe,
    atom,
    connective,
    english,
    evaluate,
    evaluateo,
    questiono,
    solve,
    tree_from_json,
    tree_to_json,
    verify,
)

IMPLIES = connective("implies", 2, lambda a, b: (not a) or b, "if {0} then {1}")
#: "The god at p is lying": Falsely always; Random when it lies at this step (Boolos' reading).
LYING = atom("lying", ["position"], lambda w, p: w.type_at(p) == "falsely" or w.free_at(p) == "lying", "god {0} is lying")


def test_implies_in_questiono_evaluateo_and_english():
    grammar = CLASSIC_GRAMMAR.extend(IMPLIES)
    puzzle = CLASSIC.with_options(grammar=grammar)
    q = var()
    generated = run(0, q, questiono(("implies", ("is", 1, "random"), q), 1, grammar))
    assert len(generated) == 11
    question = ("implies", ("is", 1, "random"), ("false",))
    t, w = var(), var()
    for cw in puzzle.concrete_worlds[::3]:
        assert run(0, t, evaluateo(question, cw.to_term(), t, puzzle)) == (cw.type_at(1) != "random",)
    assert len(run(0, w, evaluateo(question, w, True, puzzle))) == 16  # god 1 is not Random
    assert english(question, grammar) == "if god 1 is Random then false"


def test_implies_in_the_universe_agrees_with_the_plain_evaluator():
    puzzle = CLASSIC.with_options(grammar=CLASSIC_GRAMMAR.extend(IMPLIES))
    u = Universe(puzzle, 2)
    classic = Universe(CLASSIC, 2)
    # implies(a, b) = or(not a, b) costs one level less than in the classic grammar, so
    # the extended universe through level c lies between the classic ones through c and c + 1.
    assert u.level_counts() == [11, 75, 3389]
    assert all(u.contains(sig) for sig in classic.signatures)
    classic3 = Universe(CLASSIC, 3)
    assert all(classic3.contains(sig) for sig in u.signatures)
    implies_ids = [i for i in range(u.size) if u.term(i)[0] == "implies"]
    assert implies_ids
    for i in implies_ids[:50]:
        truths = [evaluate(u.term(i), w, puzzle.grammar, puzzle.semantics) for w in puzzle.concrete_worlds]
        assert truths == u.layout.truths(u.signatures[i])


def test_search_and_json_use_a_new_rule():
    puzzle = CLASSIC.with_options(grammar=CLASSIC_GRAMMAR.without("and", "or", "xor", "not").extend(IMPLIES))
    result = solve(puzzle, questions=3, complexity=2)
    assert result.status == "found" and verify(puzzle, result.tree, 3).ok
    data = json.loads(json.dumps(tree_to_json(result.tree)))
    assert tree_from_json(data, puzzle) == result.tree


def test_a_world_predicate_atom_under_boolos_semantics():
    boolos = CLASSIC.with_options(semantics="boolos", grammar=CLASSIC_GRAMMAR.extend(LYING))
    w = var()
    lying_worlds = run(0, w, evaluateo(("lying", 3), w, True, boolos))
    # God 3 is Falsely (2 orders x 2 languages x 2 Random bits) or a lying Random (2 x 2).
    assert len(lying_worlds) == 12
    result = solve(boolos, questions=3, complexity=1)
    assert result.status == "found" and verify(boolos, result.tree, 3).ok
    u = Universe(boolos, 1)
    assert any(u.term(i)[0] == "lying" for i in range(u.level_bounds[1]))
