"""The gods' kanren relations, run forwards, backwards and generatively."""

from __future__ import annotations

import pytest

from logicpy.core import lall, membero, run, var
from logicpy.errors import ModeError
from logicpy.puzzles.gods import (
    CLASSIC,
    CLASSIC_GRAMMAR,
    KNIGHT_OR_KNAVE,
    ConcreteWorld,
    evaluate,
    evaluateo,
    godo,
    questiono,
    replyo,
    worldo,
)

TFR_YES = ("world", ["truly", "falsely", "random"], "da_yes", ["none", "none", "ja"])


def test_worldo_enumerates_the_24_concrete_worlds_and_checks_one():
    w = var()
    worlds = run(0, w, worldo(w))
    assert len(worlds) == 24 and len(set(map(repr, worlds))) == 24
    assert run(0, w, worldo(TFR_YES)) == (w,)
    assert run(0, w, worldo(("world", ["truly", "truly", "random"], "da_yes", ["none", "none", "ja"]))) == ()


def test_godo_in_every_direction():
    p, t = var(), var()
    assert run(0, t, godo(2, t, TFR_YES)) == ("falsely",)
    assert run(0, p, godo(p, "random", TFR_YES)) == (3,)
    w = var()
    assert len(run(0, w, godo(1, "random", w))) == 8  # 2 orders x 2 languages x 2 free answers


def test_questiono_generates_exactly_the_terms_up_to_the_bound():
    q = var()
    atoms = run(0, q, questiono(q, 0))
    assert set(atoms) == {("true",), ("false",)} | {("is", p, t) for p in (1, 2, 3) for t in ("truly", "falsely", "random")}
    assert len(run(0, q, questiono(q, 1))) == 11 + 11 + 3 * 121 + 3 * 11
    assert run(0, q, questiono(("ask", 2, ("not", ("true",))), 1)) == ()   # complexity 2 > 1
    assert run(0, q, questiono(("ask", 2, ("not", ("true",))), 2)) == (q,)
    assert len(run(5, q, questiono(q, 3))) == 5


def test_questiono_needs_an_integer_bound():
    with pytest.raises(ModeError, match="integer bound"):
        questiono(var(), var())


def test_evaluateo_forwards_agrees_with_the_plain_evaluator():
    q, t = var(), var()
    questions = run(0, q, questiono(q, 1))
    for w in CLASSIC.concrete_worlds[::5]:
        term = w.to_term()
        for question in questions[::7]:
            assert run(0, t, evaluateo(question, term, t)) == (evaluate(question, w, CLASSIC_GRAMMAR, CLASSIC.semantics),)


def test_evaluateo_backwards_finds_the_worlds_where_a_question_is_true():
    w = var()
    # "god 1 would answer da to [god 2 is Random]": true in world w iff god 1's utterance is da.
    worlds = run(0, w, evaluateo(("ask", 1, ("is", 2, "random")), w, True))
    expected = [
        cw.to_term() for cw in CLASSIC.concrete_worlds
        if evaluate(("ask", 1, ("is", 2, "random")), cw, CLASSIC_GRAMMAR, CLASSIC.semantics)
    ]
    assert sorted(map(repr, worlds)) == sorted(map(repr, expected))
    assert len(worlds) == 12


def test_embedded_question_lemma_run_backwards():
    """Worlds where god 1, asked "would you answer da to [god 2 is Random]", says da: exactly
    those where god 2 is Random (either language), plus Random's own free da."""
    w = var()
    worlds = [ConcreteWorld.from_term(t) for t in run(0, w, replyo(1, ("ask", 1, ("is", 2, "random")), w, "da"))]
    for cw in worlds:
        assert cw.type_at(2) == "random" or (cw.type_at(1) == "random" and cw.free_at(1) == "da")
    assert sum(cw.type_at(2) == "random" for cw in worlds) == 8  # 2 orders x 2 languages x 2 free answers


def test_questions_true_in_a_given_world():
    q = var()
    true_atoms = run(0, q, questiono(q, 0), evaluateo(q, TFR_YES, True))
    assert set(true_atoms) == {("true",), ("is", 1, "truly"), ("is", 2, "falsely"), ("is", 3, "random")}


def test_replyo_who_says_what():
    p, word = var(), var()
    assert run(0, word, replyo(1, ("true",), TFR_YES, word)) == ("da",)
    assert run(0, word, replyo(2, ("true",), TFR_YES, word)) == ("ja",)
    assert run(0, word, replyo(3, ("true",), TFR_YES, word)) == ("ja",)  # Random's free answer this step
    assert set(run(0, p, replyo(p, ("true",), TFR_YES, "ja"))) == {2, 3}


def test_knight_or_knave_question_found_relationally():
    """The smallest instance, solved by a relational query: a complexity-1 question that the
    god answers da exactly when it is Truly, in both languages."""
    q = var()
    worlds = [w.to_term() for w in KNIGHT_OR_KNAVE.concrete_worlds]

    def distinguishes(q):
        goals = []
        for w in worlds:
            said = "da" if w[1][0] == "truly" else "ja"
            goals.append(replyo(1, q, w, said, puzzle=KNIGHT_OR_KNAVE))
        return lall(*goals)

    found = run(0, q, questiono(q, 1, n_positions=1, types=["truly", "falsely"]), distinguishes(q))
    assert ("ask", 1, ("is", 1, "truly")) in found
    assert all(q[0] == "ask" or "ask" in repr(q) for q in found)
    assert run(0, q, membero(q, [("true",), ("is", 1, "truly")]), distinguishes(q)) == ()
