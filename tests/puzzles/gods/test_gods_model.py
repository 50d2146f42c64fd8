"""The gods' model: puzzles, semantics, and the grammar's terms, English and JSON."""

from __future__ import annotations

import itertools

import pytest

from logicpy.errors import InputError
from logicpy.puzzles.gods import (
    CLASSIC,
    CLASSIC_GRAMMAR,
    FOUR_GODS,
    KNIGHT_OR_KNAVE,
    KNOWN_TRULY_FIRST,
    RANDOM_NOT_FIRST,
    Puzzle,
    Semantics,
    atom,
    complexity,
    connective,
    english,
    evaluate,
    question_from_json,
    question_to_json,
)


def test_classic_has_six_orders_twelve_hidden_and_24_concrete_worlds():
    assert CLASSIC.n_assignments == 6
    assert len(CLASSIC.hidden_worlds) == 12
    assert len(CLASSIC.concrete_worlds) == 24  # one Random, two free answers each


def test_variants_have_the_expected_assignments():
    assert KNIGHT_OR_KNAVE.assignments == (("truly",), ("falsely",))
    assert RANDOM_NOT_FIRST.n_assignments == 4
    assert all(a[0] == "truly" for a in KNOWN_TRULY_FIRST.assignments)
    assert KNOWN_TRULY_FIRST.n_assignments == 2
    assert FOUR_GODS.n_assignments == 12  # 4! / 2! orders of T, T, F, R


def test_silent_semantics_gives_random_three_free_answers():
    silent = CLASSIC.with_options(semantics="silent")
    assert len(silent.concrete_worlds) == 36


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Puzzle.permutations(("truly", "wizard")), "wizard"),
        (lambda: Puzzle.permutations(allowed={4: ["truly"]}), "position 4"),
        (lambda: Puzzle.permutations(known={1: "truly", 2: "truly"}), "no type assignment"),
        (lambda: CLASSIC.with_options(semantics="chatty"), "chatty"),
    ],
)
def test_bad_puzzles_are_rejected_naming_the_culprit(build, message):
    with pytest.raises(InputError, match=message):
        build()


def test_utterances_follow_the_seed_table():
    # The seed's get_utterance: (true, da_yes) -> da, (fail, da_yes) -> ja, (true, da_no) -> ja.
    free = Semantics.FREE
    assert free.utter("truly", True, True, None) == "da"
    assert free.utter("truly", False, True, None) == "ja"
    assert free.utter("truly", True, False, None) == "ja"
    assert free.utter("falsely", True, True, None) == "ja"
    assert free.utter("random", True, True, "ja") == "ja"
    assert Semantics.BOOLOS.utter("random", True, True, "lying") == "ja"
    assert Semantics.SILENT.utter("random", False, False, "silent") == "silent"


def test_embedded_question_lemma_holds_for_truly_and_falsely():
    """Asking a non-random god "would you answer Q with da" yields da iff Q (all languages)."""
    for q in [("is", 2, "random"), ("true",), ("xor", ("is", 1, "truly"), ("is", 3, "falsely"))]:
        for w in CLASSIC.concrete_worlds:
            for p in (1, 2, 3):
                if w.type_at(p) == "random":
                    continue
                truth = evaluate(("ask", p, q), w, CLASSIC_GRAMMAR, CLASSIC.semantics)
                said = CLASSIC.semantics.utter(w.type_at(p), truth, w.da_means_yes, None)
                assert (said == "da") == evaluate(q, w, CLASSIC_GRAMMAR, CLASSIC.semantics)


def test_boolos_and_free_differ_on_a_nested_question():
    """Boolos' Random asked about itself reports truthfully-or-lying consistently; free Random does not."""
    q = ("ask", 1, ("true",))
    boolos = CLASSIC.with_options(semantics="boolos")
    for puzzle, expect_constant in ((boolos, True), (CLASSIC, False)):
        said = {
            puzzle.semantics.utter("random", evaluate(q, w, CLASSIC_GRAMMAR, puzzle.semantics), w.da_means_yes, w.free_at(1))
            for w in puzzle.concrete_worlds if w.type_at(1) == "random"
        }
        assert (said == {"da"}) is expect_constant


def test_english_complexity_and_json_of_questions():
    q = ("ask", 1, ("and", ("is", 2, "random"), ("not", ("true",))))
    assert english(q, CLASSIC_GRAMMAR) == "god 1 would answer da to [god 2 is Random and not true]"
    assert english(("and", ("or", ("true",), ("false",)), ("true",)), CLASSIC_GRAMMAR) == "(true or false) and true"
    assert complexity(q, CLASSIC_GRAMMAR) == 3
    data = question_to_json(q)
    assert data == ["ask", 1, ["and", ["is", 2, "random"], ["not", ["true"]]]]
    assert question_from_json(data, CLASSIC_GRAMMAR, 3, CLASSIC.types) == q


@pytest.mark.parametrize(
    "data, path",
    [
        (["ask", 4, ["true"]], r"question\[1\]"),
        (["ask", 1, ["is", 2, "wizard"]], r"question\[2\]\[2\]"),
        (["maybe", ["true"]], "maybe"),
        (["and", ["true"]], "takes 2"),
        ("true", "expected a question list"),
    ],
)
def test_bad_question_json_names_the_path(data, path):
    with pytest.raises(InputError, match=path):
        question_from_json(data, CLASSIC_GRAMMAR, 3, CLASSIC.types)


def test_rule_constructors_validate():
    with pytest.raises(InputError, match="template"):
        connective("implies", 2, lambda a, b: (not a) or b, "if {0} then {2}")
    with pytest.raises(InputError, match="twice"):
        CLASSIC_GRAMMAR.extend(connective("and", 2, lambda a, b: a and b, "{0} & {1}"))
    with pytest.raises(InputError, match="kind"):
        atom("near", ["place"], lambda w, p: True, "near {0}")
    assert connective("nand", 2, lambda a, b: not (a and b), "nand").truth_table == tuple(
        not (a and b) for a, b in itertools.product((False, True), repeat=2)
    )
