"""Cross-checks between logicpy's gods solver and Prolog files in the original vocabulary.

The conversions are tested without SWI-Prolog; `crosscheck_file` runs our own
prolog/gods.pl (and broken copies of it) through the bridge. Set LOGICPY_3GODS_DIR to a
checkout of aduriseti/3gods to also check the original `final_solution.pl`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.errors import InputError, PrologSyntaxError
from logicpy.puzzles.gods import (
    CLASSIC,
    KNIGHT_OR_KNAVE,
    RANDOM_NOT_FIRST,
    Leaf,
    Puzzle,
    Node,
    connective,
    evaluate,
    solve,
    tree_from_json,
    universe,
    verify,
)
from logicpy.cli import main
from logicpy.puzzles.gods.backends.prolog import (
    crosscheck_file,
    question_from_prolog,
    question_to_prolog,
    tree_from_prolog,
    tree_to_prolog,
)

GODS_PL = Path(__file__).resolve().parents[3] / "logicpy" / "data" / "prolog" / "gods.pl"

positions = st.integers(1, 3)
types = st.sampled_from(["truly", "falsely", "random"])
atoms = st.one_of(
    st.just(("true",)), st.just(("false",)), st.tuples(st.just("is"), positions, types),
)
questions = st.recursive(
    atoms,
    lambda sub: st.one_of(
        st.tuples(st.just("ask"), positions, sub),
        st.tuples(st.sampled_from(["and", "or", "xor"]), sub, sub),
    ),
    max_leaves=6,
)


# -- conversions (no SWI needed) ---------------------------------------------------------
@given(questions)
@settings(max_examples=200, deadline=None)
def test_question_round_trip(q):
    assert question_from_prolog(question_to_prolog(q)) == q


def test_question_vocabulary():
    q = ("xor", ("or", ("false",), ("is", 3, "random")), ("ask", 2, ("true",)))
    assert question_to_prolog(q) == (
        "xor", (";", "fail", ("at_position_question", 3, "random")), ("query_position_question", 2, "true"),
    )


@given(questions)
@settings(max_examples=50, deadline=None)
def test_not_is_sent_as_xor_true_with_the_same_truth(q):
    negated = ("not", q)
    sent = question_from_prolog(question_to_prolog(negated))
    assert sent == ("xor", q, ("true",))
    for cw in CLASSIC.concrete_worlds:
        assert evaluate(sent, cw, CLASSIC.grammar, CLASSIC.semantics) == evaluate(
            negated, cw, CLASSIC.grammar, CLASSIC.semantics
        )


def test_unknown_functor_is_named_with_its_place():
    term = ("query_position_question", 1, (",", "true", ("implies", "true", "fail")))
    with pytest.raises(InputError, match=r"question\[2\]\[2\]: unknown question functor implies/2"):
        question_from_prolog(term)
    with pytest.raises(InputError, match=r"\$\.ja: unknown tree functor node/2"):
        tree_from_prolog(("tree", ("q", 1, "true"), "leaf", ("node", "a", "b")), CLASSIC)
    with pytest.raises(InputError, match=r"\$: the position .* must be an integer, got x"):
        tree_from_prolog(("tree", ("q", "x", "true"), "leaf", "leaf"), CLASSIC)


def test_user_rule_has_no_counterpart():
    implies = connective("implies", 2, lambda a, b: (not a) or b, "if {0} then {1}")
    with pytest.raises(InputError, match="'implies' has no counterpart"):
        question_to_prolog(("ask", 1, (implies.name, ("true",), ("false",))))


@pytest.mark.parametrize("puzzle, n, c", [(CLASSIC, 3, 1), (KNIGHT_OR_KNAVE, 1, 1), (RANDOM_NOT_FIRST, 3, 1)])
def test_tree_round_trip_recomputes_the_leaves(puzzle, n, c):
    tree = solve(puzzle, n, c).tree
    term = tree_to_prolog(tree)
    assert "leaf" in str(term) and "answer" not in str(term)
    back, problems = tree_from_prolog(term, puzzle)
    assert problems == ()
    assert back == tree
    assert verify(puzzle, back, n).ok


def test_a_leaf_holding_several_assignments_is_reported():
    # "Is true?" to god 1 tells nothing: each branch holds all six assignments.
    tree, problems = tree_from_prolog(("tree", ("q", 1, "true"), "leaf", "leaf"), CLASSIC)
    assert problems == (
        "$.ja: this leaf holds 6 type assignments (TFR, TRF, FTR, FRT, RTF, RFT)",
        "$.da: this leaf holds 6 type assignments (TFR, TRF, FTR, FRT, RTF, RFT)",
    )
    assert not verify(CLASSIC, tree, 1).ok


def test_unreachable_leaf_is_none():
    # Knight or knave: "would you say da to 'true'" is da for both, so ja is unreachable.
    q = ("query_position_question", 1, "true")
    tree, problems = tree_from_prolog(("tree", ("q", 1, q), "leaf", "leaf"), KNIGHT_OR_KNAVE)
    assert tree.branch("ja") == Leaf(None)
    assert problems == ("$.da: this leaf holds 2 type assignments (T, F)",)


def test_ternary_trees_are_random_silent_pl_tree_4():
    """random_silent.pl's tree(q(P, Q), Da, Ja, Silent): read, named by replay, written back."""
    silent_puzzle = CLASSIC.with_options(semantics="silent")
    tree = solve(silent_puzzle, 3, 1).tree
    term = tree_to_prolog(tree)
    assert term[0] == "tree" and len(term) == 5
    back, problems = tree_from_prolog(term, silent_puzzle)
    assert back == tree and problems == ()
    odd = Node(1, ("true",), (("ja", Leaf(None)), ("silent", Leaf(None))))
    with pytest.raises(InputError, match="da/ja or da/ja/silent"):
        tree_to_prolog(odd)


def test_a_tree_of_the_wrong_arity_for_the_semantics_is_named():
    with pytest.raises(InputError, match=r"tree/4 \(with a silent branch\) nodes, but the free semantics"):
        tree_from_prolog(("tree", ("q", 1, "true"), "leaf", "leaf", "leaf"), CLASSIC)
    with pytest.raises(InputError, match="tree/3 nodes, but the silent semantics"):
        tree_from_prolog(("tree", ("q", 1, "true"), "leaf", "leaf"), CLASSIC.with_options(semantics="silent"))


def test_semantics_the_original_cannot_express_are_refused():
    with pytest.raises(InputError, match="got semantics explode"):
        crosscheck_file(GODS_PL, CLASSIC.with_options(semantics="explode"))


# -- crosscheck_file through SWI-Prolog --------------------------------------------------
@pytest.mark.swi
@pytest.mark.parametrize("puzzle, n, entry", [
    (CLASSIC, 3, "is_distinguishing_tree_bounded/6"),
    (KNIGHT_OR_KNAVE, 1, "is_distinguishing_tree_bounded/6"),
    (RANDOM_NOT_FIRST, 3, "find_pruning_tree/7"),
])
def test_gods_pl_agrees_with_logicpy(puzzle, n, entry):
    result = crosscheck_file(GODS_PL, puzzle, n, 1)
    assert result.entry == entry
    assert result.file_tree is not None and result.file_problems == ()
    assert verify(puzzle, result.file_tree, n).ok
    # Every hidden world hears n questions along at least one run.
    assert result.queries >= n * len(puzzle.hidden_worlds)
    assert result.disagreement_count == 0
    assert result.ok
    assert f"agree on {result.queries} queries" in result.render()


@pytest.mark.swi
def test_both_find_no_tree_with_two_questions():
    result = crosscheck_file(GODS_PL, CLASSIC, 2, 1)
    assert result.file_tree is None and result.logicpy_tree is None
    assert result.ok and result.queries == 0
    assert "none found" in result.render() and "none exists" in result.render()


@pytest.mark.swi
def test_universe_sizes_agree_with_logicpy():
    from logicpy import swi

    module = swi.consult(GODS_PL)
    goal = ("puzzle_candidates(3, [truly, falsely, random], generate_permutation_families, Cs), "
            "generate_universe(3, 2, Cs), findall(N, (between(0, 2, C), universe_size(C, N)), Ns)")
    cumulative = module.query(goal)[0]["Ns"]
    levels = universe(CLASSIC, 2).level_counts()[:3]
    assert cumulative == [sum(levels[: i + 1]) for i in range(3)] == [11, 80, 2236]


def _broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = GODS_PL.read_text()
    assert old in text
    path = tmp_path / "broken_gods.pl"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.swi
def test_falsely_answering_like_truly_is_reported(tmp_path):
    broken = _broken_copy(
        tmp_path,
        "query(falsely, Q, Path, World, _) :-\n    \\+ evaluate(Q, Path, World).",
        "query(falsely, Q, Path, World, _) :-\n    evaluate(Q, Path, World).",
    )
    result = crosscheck_file(broken, CLASSIC, 3, 1)
    assert not result.ok
    assert result.disagreement_count > 0
    assert any("is fail for logicpy, true for the file" in d or "is true for logicpy, fail for the file" in d
               for d in result.disagreements)
    # Its utterances to embedded questions are still right (truly and falsely both say da
    # iff the embedded question is true), so its own tree even verifies: only the
    # truth of the questions themselves exposes the fault.
    assert result.file_problems == ()
    text = result.render()
    assert "DISAGREE on" in text and text.endswith("result: DISAGREE")


@pytest.mark.swi
def test_a_wrong_tree_from_the_file_is_refuted(tmp_path):
    head = "is_distinguishing_tree_bounded(NumPos, NumQs, MaxC, GodTypes, Tree, Generator) :-"
    broken = _broken_copy(
        tmp_path, head, "is_distinguishing_tree_bounded(_, _, _, _, tree(q(1, true), leaf, leaf), _) :- !.\n" + head,
    )
    result = crosscheck_file(broken, CLASSIC, 3, 1)
    assert result.disagreement_count == 0  # its evaluator is still right
    assert any("holds 6 type assignments" in p for p in result.file_problems)
    assert any("ends at answer" in p for p in result.file_problems)
    assert not result.ok
    assert "REFUTED" in result.render()


@pytest.mark.swi
def test_a_file_without_entry_points_is_named(tmp_path):
    path = tmp_path / "empty.pl"
    path.write_text("evaluate(true, _, _).\n")
    with pytest.raises(InputError, match=r"empty\.pl: defines neither is_distinguishing_tree_bounded/6"):
        crosscheck_file(path)


@pytest.mark.swi
def test_command_prints_agreement_and_json(capsys):
    assert main(["gods", "crosscheck", str(GODS_PL), "--puzzle", "knight-or-knave", "--questions", "1"]) == 0
    out = capsys.readouterr().out
    # 4 hidden worlds x (the utterance + the truth of the question and of its sub-question)
    assert "agree on 12 queries" in out and out.rstrip().endswith("result: agree")
    assert main(["gods", "crosscheck", str(GODS_PL), "--json"]) == 0
    [data] = json.loads(capsys.readouterr().out)["results"]
    assert data["ok"] and data["file_tree"]["problems"] == [] and data["logicpy_tree"]["disagreements"] == 0
    # The trees in the JSON read back in the documented tree format.
    for key in ("file_tree", "logicpy_tree"):
        assert verify(CLASSIC, tree_from_json(data[key]["tree"], CLASSIC), 3).ok


@pytest.mark.swi
def test_a_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "typo.pl"
    path.write_text("evaluate(true, _, _).\nevaluate(fail, _, _ :- fail.\n")
    with pytest.raises(PrologSyntaxError, match=r"typo\.pl:2"):
        crosscheck_file(path)


@pytest.mark.swi
@pytest.mark.skipif(not os.environ.get("LOGICPY_3GODS_DIR"), reason="set LOGICPY_3GODS_DIR to a checkout of aduriseti/3gods")
def test_original_final_solution_agrees():
    original = Path(os.environ["LOGICPY_3GODS_DIR"]) / "final_solution.pl"
    result = crosscheck_file(original, CLASSIC, 3, 1, timeout=120)
    assert result.ok, result.render()


# -- knight_or_knave.pl's is_distinguishing_question/3 -------------------------------------
#: A file in knight_or_knave.pl's vocabulary, written here: one god at position `a`, whose
#: world is his type; success of query_position/3 means he says yes.
KNIGHT_OR_KNAVE_PL = """
is_god(truly). is_god(falsely).
query(truly, Q, W) :- evaluate(Q, W).
query(falsely, Q, W) :- \\+ evaluate(Q, W).
query_position(a, Q, W) :- query(W, Q, W).
evaluate((A, B), W) :- evaluate(A, W), evaluate(B, W).
evaluate((A ; B), W) :- ( evaluate(A, W) ; evaluate(B, W) ).
evaluate(at_position_question(a, G), W) :- G == W.
evaluate(query_position_question(a, Q), W) :- query_position(a, Q, W).
evaluate(true, _).
is_question(true). is_question(fail).
is_question(at_position_question(a, G)) :- is_god(G).
is_question(query_position_question(a, Q)) :- is_question(Q).
is_distinguishing_question(Q, T, F) :-
    is_question(Q),
    ( query_position(a, Q, truly) -> T = true ; T = fail ),
    ( query_position(a, Q, falsely) -> F = true ; F = fail ),
    T \\= F.
"""


@pytest.mark.swi
def test_distinguishing_questions_are_compared_both_ways(tmp_path, capsys):
    path = tmp_path / "knight_or_knave.pl"
    path.write_text(KNIGHT_OR_KNAVE_PL)
    result = crosscheck_file(path)
    assert result.ok and result.file_questions == 25 and result.logicpy_questions == 2
    assert main(["gods", "crosscheck", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("result: agree")
    # A Falsely who tells the truth about himself: caught on the file's own questions.
    broken = tmp_path / "broken.pl"
    broken.write_text(KNIGHT_OR_KNAVE_PL.replace("query(falsely, Q, W) :- \\+ evaluate(Q, W).",
                                                 "query(falsely, Q, W) :- \\+ evaluate(Q, W), Q \\= at_position_question(a, _)."
                                                 "\nquery(falsely, at_position_question(a, G), W) :- G == W."))
    bad = crosscheck_file(broken)
    assert not bad.ok and bad.disagreement_count > 0 and "DISAGREE" in bad.render()


@pytest.mark.swi
@pytest.mark.skipif(not os.environ.get("LOGICPY_3GODS_DIR"), reason="set LOGICPY_3GODS_DIR to a checkout of aduriseti/3gods")
def test_original_random_silent_and_knight_or_knave_agree():
    original = Path(os.environ["LOGICPY_3GODS_DIR"])
    silent = crosscheck_file(original / "random_silent.pl", CLASSIC.with_options(semantics="silent"), 3, 1, timeout=300)
    assert silent.ok and silent.entry == "is_distinguishing_tree_bounded/6", silent.render()
    assert [w for w, _ in silent.file_tree.branches] == ["ja", "da", "silent"]
    knights = crosscheck_file(original / "knight_or_knave.pl")
    assert knights.ok and knights.file_questions == 25, knights.render()


# -- prolog/gods_silent.pl: Random may stay silent, ternary tree/4 ------------------------------
GODS_SILENT_PL = GODS_PL.with_name("gods_silent.pl")
SILENT = CLASSIC.with_options(semantics="silent")


#: Two Trulys and a Random who may be silent: 2 questions (1 cannot), cheap for Prolog too.
TTR_SILENT = Puzzle.permutations(("truly", "truly", "random"), semantics="silent", name="TTR silent")


@pytest.mark.swi
def test_gods_silent_pl_agrees_with_logicpy_on_ternary_trees():
    result = crosscheck_file(GODS_SILENT_PL, TTR_SILENT, 2, 1)
    assert result.ok, result.render()
    assert [w for w, _ in result.file_tree.branches] == ["ja", "da", "silent"]
    one = crosscheck_file(GODS_SILENT_PL, TTR_SILENT, 1, 1)
    assert one.ok and one.file_tree is None and one.logicpy_tree is None


@pytest.mark.slow
@pytest.mark.swi
def test_gods_silent_pl_agrees_on_the_classic_puzzle():
    result = crosscheck_file(GODS_SILENT_PL, SILENT, 3, 1, timeout=300)
    assert result.ok and result.queries > 3 * 36, result.render()


@pytest.mark.swi
def test_a_silent_random_that_speaks_is_caught(tmp_path):
    text = GODS_PL.read_text().replace(
        "    (   God == random, length(Path, Heard), Step is Heard + 1, nth1(Step, RandomAnswers, silent)",
        "    (   fail")
    (tmp_path / "gods.pl").write_text(text)
    (tmp_path / "gods_silent.pl").write_text(GODS_SILENT_PL.read_text())
    result = crosscheck_file(tmp_path / "gods_silent.pl", TTR_SILENT, 2, 1)
    assert not result.ok and result.disagreement_count > 0
    assert any("silent for logicpy" in d for d in result.disagreements)
