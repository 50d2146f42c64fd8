"""Self-referential questions and exploding heads (issue 11, part 1).

Known results checked here (papers cited; logicpy's figures come from exhaustive search
over the exact universe, so a "none" is a proof up to the complexity searched):

- Rabern & Rabern (2008), "A simple solution to the hardest logic puzzle ever":
  with questions a god cannot answer without contradiction (his head explodes), the
  puzzle is solved in 2 questions. Uzquiano (2010), "How to solve the hardest logic
  puzzle ever in two questions", does the same for a Random who answers ja or da at
  random (never silent). logicpy (--semantics explode): a 2-question tree exists at
  complexity 2, none at complexity <= 1.
- Uzquiano (2010) then amends the puzzle so that Random may also stay silent; Wheeler &
  Barahona (2012), "Why the hardest logic puzzle ever cannot be solved in less than three
  questions", show it needs 3. logicpy (--semantics explode-silent): no 2-question tree
  at ANY complexity, by a counting bound (Random's positions reach every branch), and 3
  questions suffice at complexity 1.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.gods import (
    CLASSIC,
    CLASSIC_GRAMMAR,
    Puzzle,
    english,
    render_mermaid,
    render_text,
    solve,
    tree_from_json,
    tree_to_json,
    universe,
    verify,
)
from logicpy.puzzles.gods.grammar import ANSWER
from logicpy.puzzles.gods.model import ConcreteWorld, World
from logicpy.puzzles.gods.search import TreeSearch, counting_bound, move_table
from logicpy.puzzles.gods.verify import utterances

EXPLODE = CLASSIC.with_options(semantics="explode")
EXPLODE_SILENT = CLASSIC.with_options(semantics="explode-silent")
EXPLODE_BOOLOS = CLASSIC.with_options(semantics="explode-boolos")


def _god(types, semantics="explode"):
    return Puzzle.choices([types], semantics=semantics, name="one god")


# -- the fixed point, by hand ---------------------------------------------------------------
@pytest.mark.parametrize("god, da_means_yes, heard", [
    # "Is your answer to this question ja?" If Truly says ja the question is true, so he
    # must say the yes-word: consistent iff ja means yes (da_means_yes False); saying da
    # makes it false, so da must be the no-word: consistent iff da means no. Both or none.
    ("truly", False, {"ja", "da"}),
    ("truly", True, {"silent"}),
    ("falsely", False, {"silent"}),
    ("falsely", True, {"ja", "da"}),
])
def test_your_answer_is_ja_by_fixed_point(god, da_means_yes, heard):
    puzzle = _god(("truly", "falsely"))
    cw = ConcreteWorld(World((god,), da_means_yes), (None,))
    assert utterances(puzzle, 1, ("answer", "ja"), cw) == heard


def test_random_never_silent_under_explode_and_may_be_under_explode_silent():
    q = ("answer", "ja")
    free = _god(("random",))
    assert {u for cw in free.concrete_worlds for u in utterances(free, 1, q, cw)} == {"ja", "da"}
    silent = _god(("random",), "explode-silent")
    assert {u for cw in silent.concrete_worlds for u in utterances(silent, 1, q, cw)} == {"ja", "da", "silent"}


def test_self_reference_is_part_of_the_explode_semantics_only():
    assert "answer" in EXPLODE.grammar.names and "answer" not in CLASSIC.grammar.names
    assert EXPLODE.utterances == ("ja", "da", "silent")
    with pytest.raises(InputError, match="'answer' atom needs a semantics where heads may explode"):
        CLASSIC.with_options(grammar=CLASSIC_GRAMMAR.extend(ANSWER))


def test_english_says_which_question_this_is():
    q = ("xor", ("answer", "ja"), ("ask", 2, ("and", ("answer", "da"), ("is", 1, "random"))))
    assert english(q, EXPLODE.grammar) == (
        "your answer to this question is ja xor god 2 would answer da to "
        "[your answer to the whole question is da and god 1 is Random]")


# -- the bitset engine agrees with the plain fixed point -----------------------------------
positions = st.integers(1, 3)
atoms = st.one_of(
    st.just(("true",)), st.tuples(st.just("is"), positions, st.sampled_from(["truly", "falsely", "random"])),
    st.tuples(st.just("answer"), st.sampled_from(["ja", "da"])),
)
questions = st.recursive(
    atoms,
    lambda sub: st.one_of(st.tuples(st.just("ask"), positions, sub), st.tuples(st.just("not"), sub),
                          st.tuples(st.sampled_from(["and", "or", "xor"]), sub, sub)),
    max_leaves=5,
)


@given(questions, positions, st.sampled_from(["explode", "explode-silent", "explode-boolos"]))
@settings(max_examples=120, deadline=None)
def test_bitset_utterances_equal_the_plain_fixed_point(q, p, semantics):
    puzzle = CLASSIC.with_options(semantics=semantics)
    u = universe(puzzle, 0)
    sig = u.signature(q).reshape(1, -1)
    for word in puzzle.utterances:
        engine = int(u.layout.project(u.layout.utterance(sig, p, word))[0])
        plain = 0
        for h, world in enumerate(puzzle.hidden_worlds):
            if any(word in utterances(puzzle, p, q, cw) for cw in puzzle.concrete_worlds_of(world)):
                plain |= 1 << h
        assert engine == plain, (q, p, word)


# -- the literature --------------------------------------------------------------------------
def test_exploding_heads_solve_the_classic_puzzle_in_two_questions():
    """Rabern & Rabern (2008), Uzquiano (2010): 2 questions; logicpy: at complexity 2, not 1."""
    assert solve(EXPLODE, questions=2, complexity=1).status == "none"  # exhaustive, 235 moves
    result = solve(EXPLODE, questions=2, complexity=2)
    assert result.status == "found" and result.least_complexity == 2
    check = verify(EXPLODE, result.tree, questions=2)
    assert check.ok and "(12 hidden worlds" in str(check)
    assert [w for w, _ in result.tree.branches] == ["ja", "da", "silent"]
    assert "answer" in json.dumps(tree_to_json(result.tree))  # it does ask about its own answer


def test_boolos_random_with_exploding_heads_also_needs_two():
    result = solve(EXPLODE_BOOLOS, questions=2, complexity=2)
    assert result.status == "found" and verify(EXPLODE_BOOLOS, result.tree, 2).ok
    assert solve(EXPLODE_BOOLOS, questions=2, complexity=1).status == "none"


def test_a_random_that_may_be_silent_needs_three_questions():
    """Uzquiano's amended puzzle; Wheeler & Barahona (2012): no 2-question solution."""
    result = solve(EXPLODE_SILENT, questions=2, complexity=9)  # any complexity: no universe is built
    assert result.status == "none" and result.moves == 0 and result.level_counts == ()
    assert "where he is random he may answer ja/da/silent to any question" in result.verdict
    three = solve(EXPLODE_SILENT, questions=3, complexity=1)
    assert three.status == "found" and verify(EXPLODE_SILENT, three.tree, 3).ok


@pytest.mark.parametrize("semantics, t_or_r, f_or_r, t_f_or_r", [
    ("free", None, None, None),
    ("boolos", 1, 1, None),
    ("silent", None, None, None),
    ("explode", 1, 1, None),
    ("explode-silent", None, None, None),
    ("explode-boolos", 1, 1, 2),
])
def test_one_question_against_random(semantics, t_or_r, f_or_r, t_f_or_r):
    """Can one question tell Truly (or Falsely) from Random? The least complexity, or None:
    every None is a counting proof (no universe built), so it holds at any complexity."""
    for types, expected in ((("truly", "random"), t_or_r), (("falsely", "random"), f_or_r),
                            (("truly", "falsely", "random"), t_f_or_r)):
        puzzle = _god(types, semantics)
        result = solve(puzzle, questions=1, complexity=2)
        assert result.least_complexity == expected, (semantics, types)
        if expected is None:
            assert result.moves == 0 and result.reason.startswith("counting bound")
        if result.tree is not None:
            assert verify(puzzle, result.tree, 1).ok


# -- outputs carry the third branch ------------------------------------------------------------
def test_json_mermaid_and_text_carry_the_silent_branch():
    tree = solve(EXPLODE, 2, 2).tree
    data = json.loads(json.dumps(tree_to_json(tree)))
    assert set(data) == {"ask", "question", "ja", "da", "silent"}
    assert tree_from_json(data, EXPLODE) == tree
    with pytest.raises(InputError, match="unexpected \\['silent'\\]"):
        tree_from_json(data, CLASSIC)
    assert "-->|silent|" in render_mermaid(tree, EXPLODE)
    assert "your answer to this question is" in render_text(tree, EXPLODE)


def test_cli_prints_and_verifies_a_two_question_tree(capsys, tmp_path):
    assert main(["gods", "--semantics", "explode", "--questions", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("solution found") and "└─ silent:" in out and "your answer to this question is" in out
    assert out.rstrip().endswith("verified: tree replayed in every world (12 hidden worlds, 16 paths)")
    assert main(["gods", "--semantics", "explode", "--questions", "2", "--json"]) == 0
    saved = tmp_path / "explode.json"
    saved.write_text(capsys.readouterr().out)
    assert main(["gods", "verify", str(saved)]) == 0  # the semantics is read from the file
    assert "verified" in capsys.readouterr().out
    assert main(["gods", "--semantics", "explode-silent", "--questions", "2"]) == 1
    assert "counting bound" in capsys.readouterr().out


# -- the counting bound is sound: where it says no, the search agrees --------------------------
@given(st.lists(st.sampled_from(["truly", "falsely", "random"]), min_size=1, max_size=3, unique=True),
       st.sampled_from(["free", "boolos", "silent", "explode", "explode-silent", "explode-boolos"]),
       st.integers(0, 2), st.booleans())
@settings(max_examples=40, deadline=None)
def test_the_counting_bound_never_refuses_a_solvable_puzzle(types, semantics, questions, two):
    puzzle = Puzzle.choices([types] * (2 if two else 1), semantics=semantics, name="p")
    if counting_bound(puzzle, questions) is None:
        return
    u = universe(puzzle, 1)
    search = TreeSearch(puzzle, u, move_table(u, 1))
    assert search.one(search.all_live, questions) is None


def test_the_guide_shows_the_real_two_question_tree(capsys):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "docs" / "gods.md").read_text(encoding="utf-8")
    command = "$ logicpy gods --semantics explode --questions 2\n"
    shown = readme.split(f"```text\n{command}", 1)[1].split("```", 1)[0]
    assert main(command.split()[2:]) == 0
    assert shown == capsys.readouterr().out


# -- a second engine: prolog/gods_paradox.pl, written independently ---------------------------
def _prolog_world(cw) -> tuple:
    return ("w", [("pos", p, t, "none" if cw.free_at(p) is None else cw.free_at(p))
                  for p, t in enumerate(cw.world.assignment, 1)], "da_yes" if cw.da_means_yes else "da_no")


def _node_questions(tree):
    if hasattr(tree, "question"):
        yield tree.position, tree.question
        for _, sub in tree.branches:
            yield from _node_questions(sub)


@pytest.mark.swi
@pytest.mark.parametrize("semantics", ["explode", "explode-silent"])
def test_gods_paradox_pl_hears_what_logicpy_hears(semantics):
    """Every question of logicpy's trees, and a few others, in every concrete world: the same utterances."""
    from pathlib import Path

    from logicpy import swi
    from logicpy.core.terms import format_term
    from logicpy.puzzles.gods.backends.prolog import question_to_prolog

    puzzle = CLASSIC.with_options(semantics=semantics)
    asked = list(_node_questions(solve(EXPLODE, 2, 2).tree)) + list(_node_questions(solve(puzzle, 3, 1).tree)) + [
        (1, ("answer", "ja")), (2, ("not", ("answer", "da"))),
        (3, ("ask", 1, ("xor", ("answer", "ja"), ("is", 1, "truly")))),
        (1, ("or", ("answer", "da"), ("ask", 1, ("answer", "ja")))),
    ]
    tasks = [(p, question_to_prolog(q), _prolog_world(cw)) for p, q in asked for cw in puzzle.concrete_worlds]
    module = swi.consult(Path(__file__).resolve().parents[3] / "logicpy" / "data" / "prolog" / "gods_paradox.pl")
    goal = (f"findall(Us, (member(t(P, Q, W), {format_term([('t', *t) for t in tasks])}), "
            "findall(U, utterance(P, Q, W, U), Us0), sort(Us0, Us)), All)")
    heard = module.query(goal, limit=1)[0]["All"]
    expected = [sorted(utterances(puzzle, p, q, cw)) for p, q in asked for cw in puzzle.concrete_worlds]
    assert len(heard) == len(expected) > 300
    assert [sorted(h) for h in heard] == expected
