"""Open god types (issue 11, part 2): a god is a value (name, letter, answer function).

Each type here is a few lines; the grammar's `is` atoms, the universe, the search,
`verify`, JSON, English and the CLI (`--gods-file`) pick it up, and every tree found is
replayed by the independent verifier.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.gods import GodType, Puzzle, english, evaluate, render_text, solve, tree_from_json, tree_to_json, universe, verify
from logicpy.puzzles.gods.model import word_for

ALWAYS_DA = GodType("always_da", "D", lambda truth, da_means_yes, choice: "da", description="always says da")


def _alternating(truth, da_means_yes, choice, state):
    return word_for(truth == (state == "truthful"), da_means_yes)


#: Truthful and lying by turns, each time he is asked; which comes first is hidden.
ALTERNATING = GodType("alternating", "A", _alternating, states=("truthful", "lying"),
                      after=lambda state, asked: {"truthful": "lying", "lying": "truthful"}[state] if asked else state)
#: Truthful about others, lying about himself: statements naming his position, and what he
#: himself would answer, are judged falsely; the rest truly.
SELF_LIAR = GodType("self_liar", "S", lambda truth, da_means_yes, choice: word_for(truth, da_means_yes),
                    lies_about_himself=True)
GODS = (ALWAYS_DA, ALTERNATING, SELF_LIAR)


def test_always_da_is_told_from_truly_by_one_embedded_question():
    puzzle = Puzzle.choices([("truly", "always_da")], gods=GODS, name="T or D")
    assert solve(puzzle, 1, 0).status == "none"
    result = solve(puzzle, 1, 1)
    assert result.status == "found" and verify(puzzle, result.tree, 1).ok
    assert "Always da" in render_text(result.tree, puzzle)


def test_alternating_is_told_from_truly():
    """With atoms only, one answer may come in his truthful turn, but two answers to the
    same question differ; with an embedded question his turn cancels out, so one suffices."""
    puzzle = Puzzle.choices([("truly", "alternating")], gods=GODS, name="T or A")
    assert len(puzzle.hidden_worlds) == 6  # (T | A truthful first | A lying first) x 2 languages
    assert solve(puzzle, 1, 0).status == "none"
    twice = solve(puzzle, 2, 0)
    assert twice.status == "found" and verify(puzzle, twice.tree, 2).ok
    assert {twice.tree.position} == {sub.position for _, sub in twice.tree.branches if hasattr(sub, "position")}
    once = solve(puzzle, 1, 1)
    assert once.status == "found" and once.tree.question == ("ask", 1, ("is", 1, "truly"))
    assert verify(puzzle, once.tree, 1).ok
    # Without his memory the same two atoms could not tell Truly from Falsely-or-Truly.
    forgetful = GodType("forgetful", "G", lambda t, d, c: word_for(t, d) if c == "t" else word_for(not t, d), ("t", "l"))
    assert solve(Puzzle.choices([("truly", "forgetful")], gods=(forgetful,), name="T or G"), 2, 0).status == "none"


def test_a_god_who_lies_about_himself():
    """Asked what he himself would say, he lies about it: Truly and Falsely then both say da."""
    from logicpy.puzzles.gods.verify import utterances

    puzzle = Puzzle.choices([("truly", "falsely", "self_liar")], gods=GODS, name="T, F or S")
    said = {}
    for cw in puzzle.concrete_worlds:
        said.setdefault(cw.type_at(1), set()).update(utterances(puzzle, 1, ("ask", 1, ("true",)), cw))
    assert said == {"truly": {"da"}, "falsely": {"da"}, "self_liar": {"ja"}}
    # About others he tells the truth, about himself he lies.
    pair = Puzzle.permutations(("truly", "self_liar"), gods=GODS, name="TS")
    for cw in pair.concrete_worlds:
        liar = 1 if cw.type_at(1) == "self_liar" else 2
        other = 3 - liar
        for target, lies in ((other, False), (liar, True)):
            truth = (cw.type_at(target) == "truly") != lies
            assert utterances(pair, liar, ("is", target, "truly"), cw) == {word_for(truth, cw.da_means_yes)}
    assert solve(Puzzle.choices([("truly", "self_liar")], gods=GODS, name="T or S"), 1, 0).status == "none"


views_questions = st.recursive(
    st.one_of(st.just(("true",)), st.tuples(st.just("is"), st.integers(1, 3), st.sampled_from(["truly", "falsely", "self_liar"])),
              st.tuples(st.just("answer"), st.sampled_from(["ja", "da"]))),
    lambda sub: st.one_of(st.tuples(st.just("ask"), st.integers(1, 3), sub), st.tuples(st.just("xor"), sub, sub),
                          st.tuples(st.just("not"), sub)),
    max_leaves=4)


@given(views_questions, st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_bitset_utterances_equal_the_plain_ones_with_a_self_liar_and_exploding_heads(q, p):
    from logicpy.puzzles.gods.verify import utterances

    puzzle = Puzzle.permutations(("truly", "falsely", "self_liar"), gods=GODS, semantics="explode", name="TFS!")
    u = universe(puzzle, 0)
    sig = u.signature(q)
    assert u.layout.truths(sig) == [evaluate(q, w, puzzle.grammar, puzzle) for w in u.layout.worlds]
    for word in puzzle.utterances:
        engine = int(u.layout.project(u.layout.utterance(sig.reshape(1, -1), p, word))[0])
        plain = sum(1 << h for h, world in enumerate(puzzle.hidden_worlds)
                    if any(word in utterances(puzzle, p, q, cw) for cw in puzzle.concrete_worlds_of(world)))
        assert engine == plain, (q, p, word)


@pytest.mark.parametrize("types", [("truly", "falsely", "always_da"), ("truly", "falsely", "alternating"),
                                   ("alternating", "falsely", "random"), ("truly", "falsely", "self_liar")])
def test_three_gods_with_a_new_type_in_three_questions(types):
    puzzle = Puzzle.permutations(types, gods=GODS, name="/".join(types))
    result = solve(puzzle, 3, 2)
    assert result.status == "found" and verify(puzzle, result.tree, 3).ok
    assert solve(puzzle, 2, 2).status == "none"


def test_is_atoms_json_and_english_name_the_new_types():
    puzzle = Puzzle.permutations(("truly", "falsely", "always_da"), gods=GODS, name="TFD")
    assert english(("is", 3, "always_da"), puzzle.grammar) == "god 3 is Always da"
    tree = solve(puzzle, 3, 1).tree
    assert tree_from_json(json.loads(json.dumps(tree_to_json(tree))), puzzle) == tree
    assert solve(puzzle, 3, 1).to_json()["puzzle"]["gods"][0]["name"] == "always_da"


@given(st.recursive(
    st.one_of(st.just(("true",)), st.tuples(st.just("is"), st.integers(1, 2), st.sampled_from(["truly", "alternating"]))),
    lambda sub: st.one_of(st.tuples(st.just("ask"), st.integers(1, 2), sub), st.tuples(st.just("xor"), sub, sub)),
    max_leaves=4))
@settings(max_examples=60, deadline=None)
def test_universe_signatures_equal_the_plain_evaluator_with_a_stateful_god(q):
    puzzle = Puzzle.permutations(("truly", "alternating"), gods=GODS, name="TA")
    u = universe(puzzle, 0)
    assert u.layout.truths(u.signature(q)) == [evaluate(q, w, puzzle.grammar, puzzle) for w in u.layout.worlds]


@pytest.mark.parametrize("kwargs, message", [
    (dict(answer=lambda t, d, c: "maybe"), "returned 'maybe'"),
    (dict(answer=lambda t, d, c: 1 / 0), "fails on"),
    (dict(answer=_alternating, states=("truthful", "lying"), after=lambda s, asked: "tired"), "is not one of its states"),
    (dict(answer=_alternating, states=("truthful", "lying")), "need after"),
])
def test_a_bad_god_type_is_named(kwargs, message):
    with pytest.raises(InputError, match=f"god type 'odd'.*{message}"):
        GodType("odd", "O", **kwargs)


def test_type_names_must_be_new():
    with pytest.raises(InputError, match="already taken"):
        Puzzle.permutations(("truly",), gods=(GodType("truly", "T", lambda t, d, c: "da"),))


GODS_FILE = '''
from logicpy.puzzles.gods import GodType
GODS = [GodType("always_da", "D", lambda truth, da_means_yes, choice: "da")]
'''


def test_cli_gods_file(capsys, tmp_path):
    path = tmp_path / "gods.py"
    path.write_text(GODS_FILE)
    assert main(["gods", "--gods-file", str(path), "--types", "truly,falsely,always_da", "--json"]) == 0
    saved = tmp_path / "tree.json"
    saved.write_text(capsys.readouterr().out)
    assert main(["gods", "verify", str(saved), "--gods-file", str(path), "--types", "truly,falsely,always_da"]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["gods", "--types", "truly,always_da"]) == 2
    assert "unknown god type 'always_da'" in capsys.readouterr().err
    bad = tmp_path / "bad.py"
    bad.write_text("GODS = ['always_da']\n")
    assert main(["gods", "--gods-file", str(bad)]) == 2
    assert "GODS[0] is not a GodType" in capsys.readouterr().err
