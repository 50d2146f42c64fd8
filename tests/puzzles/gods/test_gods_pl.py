"""prolog/gods.pl run directly by SWI-Prolog: semantics, grammar, universe, trees.

These tests drive `swipl` as a subprocess, so they exercise the file exactly as a
user of the original solver would load it (no bridge in between).
"""

from __future__ import annotations

import pytest

from tests.swipl import run_goal

pytestmark = pytest.mark.swi

CLASSIC = "3, 3, 1, [truly, falsely, random], T, generate_permutation_families"
CLASSIC_CANDIDATES = "puzzle_candidates(3, [truly, falsely, random], generate_permutation_families, Cs)"


def prolog(goal: str, timeout: float = 60) -> str:
    """Stdout of `goal` run once in a fresh SWI-Prolog that consulted gods.pl."""
    return run_goal("gods.pl", goal, timeout)


def holds(goal: str) -> bool:
    """Whether `goal` succeeds in gods.pl."""
    return prolog(f"(({goal}) -> write(yes) ; write(no))") == "yes"


@pytest.mark.parametrize(
    "god, language, random_answers, utterance",
    [
        ("truly", "da_yes", "[]", "da"),      # truly says yes to `true`; da means yes
        ("truly", "da_no", "[]", "ja"),
        ("falsely", "da_yes", "[]", "ja"),    # falsely says no
        ("random", "da_yes", "[fail]", "ja"),  # random's first answer means no
        ("random", "da_no", "[fail]", "da"),
    ],
)
def test_utterances_to_true(god, language, random_answers, utterance):
    world = f"w([pos(1, {god}, {random_answers})], {language})"
    assert prolog(f"query_position(1, true, [], {world}, U), write(U)") == utterance


def test_random_reads_the_answer_of_the_current_step():
    # Random's second answer means yes: asked at step 2 (one answer heard) it says da.
    world = "w([pos(1, random, [fail, true])], da_yes)"
    assert prolog(f"query_position(1, fail, [ja], {world}, U), write(U)") == "da"
    # A nested question about what random would say reads the same free answer.
    nested = "query_position_question(1, fail)"
    assert prolog(f"query_position(1, {nested}, [ja], {world}, U), write(U)") == "da"


def test_embedded_question_lemma():
    # Asked "would you answer Q with da?", truly and falsely both say da iff Q is true,
    # whatever the language (the key to the classic solution).
    for god in ("truly", "falsely"):
        for language in ("da_yes", "da_no"):
            world = f"w([pos(1, {god}, []), pos(2, random, [true])], {language})"
            q = "query_position_question(1, at_position_question(2, random))"
            assert prolog(f"query_position(1, {q}, [], {world}, U), write(U)") == "da"


def test_xor_is_declared_right_associative():
    assert holds("X = (a xor b xor c), X == xor(a, xor(b, c))")


def test_grammar_counts_and_complexity():
    # 2 trivial questions + 3 positions x 3 types at complexity 0.
    assert prolog("aggregate_all(count, is_question(3, 0, _), N), write(N)") == "11"
    # Complexity 1 adds 3 x 11 queries and 3 x 11^2 connectives (the seed's count).
    assert prolog("aggregate_all(count, is_question(3, 1, _), N), write(N)") == str(11 + 3 * 11 + 3 * 11**2)
    assert prolog("complexity(query_position_question(1, (true ; fail xor true)), C), write(C)") == "3"
    assert holds("is_question(3, 2, query_position_question(2, (true, at_position_question(3, random))))")
    assert not holds("is_question(3, 1, query_position_question(2, (true, at_position_question(3, random))))")


def test_level_by_level_universe_equals_deduplicating_the_whole_grammar():
    # Deduplication is exact: building level by level keeps one question for every
    # signature that the unreduced grammar of complexity =< 1 has.
    goal = (
        f"{CLASSIC_CANDIDATES}, generate_universe(3, 1, Cs), universe_size(1, Kept), "
        "findall(W, (member(candidate(F, _), Cs), candidate_world(1, candidate(F, [da_yes, da_no]), W)), Ws), "
        "findall(S, (is_question(3, 1, Q), signature(Ws, Q, S)), Sigs), sort(Sigs, Distinct), "
        "length(Distinct, All), format('~w ~w', [Kept, All])"
    )
    kept, distinct = prolog(goal).split()
    assert kept == distinct == "80"


def test_universe_counts_per_level():
    goal = f"{CLASSIC_CANDIDATES}, generate_universe(3, 2, Cs), forall(between(0, 2, C), (universe_size(C, N), format('~w ', [N])))"
    assert prolog(goal).split() == ["11", "80", "2236"]


def test_classic_puzzle_solved_and_tree_replays():
    goal = (
        f"is_distinguishing_tree_bounded({CLASSIC}), !, {CLASSIC_CANDIDATES}, "
        "(verify_tree(T, 3, Cs) -> write(verified) ; write(refuted))"
    )
    assert prolog(goal) == "verified"


def test_verify_tree_rejects_a_corrupted_tree():
    # Replace the root question of the found tree by a useless one: the replay must fail.
    goal = (
        f"is_distinguishing_tree_bounded({CLASSIC}), !, {CLASSIC_CANDIDATES}, "
        "T = tree(_, Da, Ja), Bad = tree(q(1, true), Da, Ja), "
        "(verify_tree(Bad, 3, Cs) -> write(verified) ; write(refuted))"
    )
    assert prolog(goal) == "refuted"


def test_find_pruning_tree_called_directly_like_the_original():
    goal = (
        f"{CLASSIC_CANDIDATES}, find_pruning_tree(3, 3, 1, 3, Cs, Cs, T), !, "
        "(verify_tree(T, 3, Cs) -> write(verified) ; write(refuted))"
    )
    assert prolog(goal) == "verified"


def test_knight_or_knave():
    # One god, truly or falsely, language unknown: one embedded question of complexity 1
    # suffices, and no question of complexity 0 does.
    one = "1, 1, {c}, [truly, falsely], T, generate_uniform_families"
    assert prolog(f"is_distinguishing_tree_bounded({one.format(c=1)}), !, write(T)") == (
        "tree(q(1,query_position_question(1,at_position_question(1,truly))),leaf,leaf)"
    )
    assert not holds(f"is_distinguishing_tree_bounded({one.format(c=0)})")


def test_truly_and_random_are_indistinguishable():
    # The original's test: no single question of complexity =< 2 tells [truly] from [random].
    assert not holds("is_distinguishing_tree_bounded(1, 1, 2, [truly, random], _, generate_uniform_families)")


def test_two_questions_never_suffice_for_six_families():
    assert not holds("is_distinguishing_tree_bounded(3, 2, 1, [truly, falsely, random], _, generate_permutation_families)")


def test_solve_and_print_riddle():
    out = prolog("solve_and_print_riddle")
    assert out.startswith("A tree of 3 questions that names all three gods:")
    assert out.count("the gods are known") <= 8
    assert "tree(q(" in out
