"""Tree search, independent verification, least-k reports, and the tree renderings."""

from __future__ import annotations

import json

import pytest

from logicpy.errors import InputError
from logicpy.puzzles.gods import (
    CLASSIC,
    FOUR_GODS,
    KNIGHT_OR_KNAVE,
    KNOWN_TRULY_FIRST,
    RANDOM_NOT_FIRST,
    Leaf,
    Node,
    Puzzle,
    least_complexity,
    least_questions,
    render_mermaid,
    render_text,
    report,
    solve,
    tree_depth,
    tree_from_json,
    tree_to_json,
    verify,
)


def answers(tree):
    if isinstance(tree, Leaf):
        return [tree.answer]
    return [a for _, sub in tree.branches for a in answers(sub)]


def test_classic_solved_in_three_questions_of_complexity_1_and_verified():
    result = solve(CLASSIC, questions=3, complexity=1)
    assert result.status == "found"
    tree = result.tree
    assert tree_depth(tree) == 3
    assert set(answers(tree)) == set(CLASSIC.assignments)  # every order is named by some leaf
    check = verify(CLASSIC, tree, questions=3)
    assert check.ok and "(12 hidden worlds" in str(check)


def test_classic_needs_complexity_1():
    """Atoms alone cannot beat the unknown language: proven by exhausting complexity 0."""
    result = solve(CLASSIC, questions=3, complexity=0)
    assert result.status == "none" and result.trees == ()
    assert "no solution" in result.verdict


def test_two_questions_cannot_solve_the_classic_puzzle_up_to_complexity_3():
    """6 assignments > 4 leaves: said at once, and the complexity-3 universe is not built."""
    result = solve(CLASSIC, questions=2, complexity=3)
    assert result.status == "none" and result.moves == 0 and result.level_counts == ()
    assert "6 assignments cannot fit in the 4 leaves" in result.verdict
    assert "exhaustive" not in result.verdict


def _search_alone(puzzle, questions, complexity):
    """The tree search without the counting pre-check (to confirm it agrees)."""
    from logicpy.puzzles.gods import universe
    from logicpy.puzzles.gods.search import TreeSearch, move_table

    u = universe(puzzle, complexity)
    search = TreeSearch(puzzle, u, move_table(u, complexity))
    return search.one(search.all_live, questions)


def test_the_exhaustive_search_agrees_with_the_counting_bound():
    assert _search_alone(CLASSIC, 2, 2) is None
    assert _search_alone(CLASSIC.with_options(semantics="silent"), 2, 2) is None


@pytest.mark.slow
def test_the_exhaustive_search_agrees_with_the_counting_bound_at_complexity_3():
    assert _search_alone(CLASSIC, 2, 3) is None


def test_knight_or_knave_one_question():
    result = solve(KNIGHT_OR_KNAVE, questions=1, complexity=1, find="all")
    # "would you answer da to [you are Truly]" and its twin "[you are Falsely]".
    assert result.count == 2
    asked = {t.question for t in result.trees}
    assert asked == {("ask", 1, ("is", 1, "truly")), ("ask", 1, ("is", 1, "falsely"))}
    assert solve(KNIGHT_OR_KNAVE, questions=1, complexity=0).status == "none"
    known_language = KNIGHT_OR_KNAVE.with_options(languages=(True,))
    assert solve(known_language, questions=1, complexity=0).status == "found"


def test_all_trees_are_counted_and_each_verified():
    result = solve(CLASSIC, questions=3, complexity=1, find="all", limit=30)
    assert result.status == "found" and result.count == 1536
    assert len(result.trees) == 30 and len({repr(t) for t in result.trees}) == 30
    assert all(verify(CLASSIC, t, 3).ok for t in result.trees)
    assert solve(CLASSIC, questions=3, complexity=2, find="all", limit=1).count == 3456


@pytest.mark.parametrize("semantics", ["boolos", "silent"])
def test_variant_semantics_solved_in_three_not_two(semantics):
    puzzle = CLASSIC.with_options(semantics=semantics)
    assert solve(puzzle, questions=2, complexity=2).status == "none"
    result = solve(puzzle, questions=3, complexity=1)
    assert result.status == "found" and verify(puzzle, result.tree, 3).ok


def test_silent_random_does_not_allow_two_questions_at_any_complexity():
    """Three answers per question are not enough when Random may give all three: a counting proof."""
    puzzle = CLASSIC.with_options(semantics="silent")
    result = solve(puzzle, questions=2, complexity=3)
    assert result.status == "none" and result.moves == 0
    assert "where he is random he may answer ja/da/silent to any question" in result.reason


def test_silent_random_gives_ternary_trees():
    puzzle = CLASSIC.with_options(semantics="silent")
    tree = solve(puzzle, questions=3, complexity=1).tree
    assert [w for w, _ in tree.branches] == ["ja", "da", "silent"]
    assert "silent" in tree_to_json(tree)


def test_least_questions_and_complexity_reports():
    assert least_questions(CLASSIC, max_complexity=2) == 3
    assert least_complexity(CLASSIC, questions=3) == 1
    assert str(report(RANDOM_NOT_FIRST, 2)).startswith("random-not-first: least questions 2")
    assert (report(KNOWN_TRULY_FIRST, 2).least_questions, report(KNOWN_TRULY_FIRST, 2).least_complexity) == (1, 1)


def test_four_gods_need_four_questions_and_complexity_2():
    assert solve(FOUR_GODS, questions=3, complexity=2).status == "none"  # 12 orders > 2^3 ... by search
    assert solve(FOUR_GODS, questions=4, complexity=1).status == "none"
    result = solve(FOUR_GODS, questions=4, complexity=2)
    assert result.status == "found" and verify(FOUR_GODS, result.tree, 4).ok


def test_two_randoms_among_four_cannot_be_told_apart_by_any_number_of_questions():
    """T,F,R,R vs R,R,T,F: each position holds a Random in one of them, so Randoms can mimic."""
    puzzle = Puzzle.permutations(("truly", "falsely", "random", "random"))
    result = solve(puzzle, questions=8, complexity=2)
    assert result.status == "none" and result.search.moves_tried == 0  # refuted at the root
    assert "more questions cannot help" in result.verdict
    assert "cannot help" not in solve(CLASSIC, questions=2, complexity=1).verdict


# -- verify rejects corrupted trees -------------------------------------------------------
def _replace_first_leaf(tree, leaf):
    if isinstance(tree, Leaf):
        return leaf
    (word, sub), *rest = tree.branches
    return Node(tree.position, tree.question, ((word, _replace_first_leaf(sub, leaf)), *rest))


def test_verify_rejects_a_wrong_answer():
    tree = solve(CLASSIC, 3, 1).tree
    wrong = _replace_first_leaf(tree, Leaf(("random", "truly", "falsely")))
    check = verify(CLASSIC, wrong)
    assert not check.ok and "ends at answer RTF" in check.problems[0]


def test_verify_rejects_swapped_branches_and_a_changed_question():
    tree = solve(CLASSIC, 3, 1).tree
    (ja, ja_tree), (da, da_tree) = tree.branches
    swapped = Node(tree.position, tree.question, ((ja, da_tree), (da, ja_tree)))
    assert not verify(CLASSIC, swapped).ok
    other = Node(tree.position, ("is", 2, "random"), tree.branches)
    assert not verify(CLASSIC, other).ok


def test_verify_rejects_too_many_questions_and_bad_terms():
    tree = solve(CLASSIC, 3, 1).tree
    assert not verify(CLASSIC, tree, questions=2).ok
    bad = Node(1, ("maybe", ("true",)), tree.branches)
    check = verify(CLASSIC, bad)
    assert not check.ok and "maybe" in check.problems[0]
    assert not verify(CLASSIC, _replace_first_leaf(tree, Leaf(None))).ok


# -- renderings -----------------------------------------------------------------------------
def test_json_round_trip_and_format():
    tree = solve(CLASSIC, 3, 1).tree
    data = json.loads(json.dumps(tree_to_json(tree)))
    assert set(data) == {"ask", "question", "ja", "da"}
    assert data["question"][0] == "ask"
    assert tree_from_json(data, CLASSIC) == tree


@pytest.mark.parametrize(
    "mutate, path",
    [
        (lambda d: d["da"].update(ask=7), r"\$\.da\.ask"),
        (lambda d: d["ja"].pop("da"), r"\$\.ja: a node needs"),
        (lambda d: d["ja"]["ja"].update(question=["is", 1, "wizard"]), r"\$\.ja\.ja\.question\[2\]"),
        (lambda d: d["da"]["da"].update(ja={"answer": ["truly", "truly"]}), r"\$\.da\.da\.ja\.answer"),
    ],
)
def test_tree_from_json_names_the_bad_field(mutate, path):
    data = tree_to_json(solve(CLASSIC, 3, 1).tree)
    mutate(data)
    with pytest.raises(InputError, match=path):
        tree_from_json(data, CLASSIC)


def test_text_and_mermaid_show_english_terms_and_answers():
    tree = solve(CLASSIC, 3, 1).tree
    text = render_text(tree, CLASSIC)
    assert text.startswith("ask god ") and "term: ['ask'," in text and "answer TFR" in text
    mermaid = render_mermaid(tree, CLASSIC)
    assert mermaid.startswith("flowchart TD") and "-->|da|" in mermaid and "Solved: TFR" in mermaid
    assert mermaid.count("[/") == 7


def test_bad_bounds_are_rejected():
    with pytest.raises(InputError, match="questions"):
        solve(CLASSIC, questions=-1)
    with pytest.raises(InputError, match="find"):
        solve(CLASSIC, find="some")


# -- what makes proofs of impossibility affordable (issue 15) -------------------------------------
def _fresh_search(puzzle, complexity):
    from logicpy.puzzles.gods import universe
    from logicpy.puzzles.gods.search import TreeSearch, move_table

    u = universe(puzzle, complexity)
    return TreeSearch(puzzle, u, move_table(u, complexity))


THREE_GODS = [Puzzle.permutations(types) for types in (("truly", "falsely", "random"), ("truly", "random", "random"),
                                                       ("truly", "truly", "random"), ("falsely", "random", "random"))]


def test_width_two_under_silent_agrees_with_the_search_that_uses_all_three_branches():
    """Silent Random is silent only where he could also say ja or da, so a question holds every
    world in ja or da: at most 2^q assignments for q questions. The search that counts with 3
    branches (and so proves the same thing the long way) finds the same answers."""
    assert _fresh_search(CLASSIC, 1).width == 2
    assert _fresh_search(CLASSIC.with_options(semantics="silent"), 1).width == 2
    assert _fresh_search(CLASSIC.with_options(semantics="explode"), 1).width == 3  # Truly's head may explode
    for puzzle in THREE_GODS:
        puzzle = puzzle.with_options(semantics="silent")
        for questions in (2, 3):
            narrow, wide = _fresh_search(puzzle, 1), _fresh_search(puzzle, 1)
            wide.width = wide.base
            assert (narrow.one(narrow.all_live, questions) is None) == (wide.one(wide.all_live, questions) is None)
            assert narrow.count(narrow.all_live, questions) == wide.count(wide.all_live, questions)


def test_symmetries_map_the_move_table_onto_itself_and_keep_counts():
    """The classic puzzle's symmetries are the 5 renamings of positions other than the identity
    (swapping ja and da needs "da means yes" negated, one complexity more); each maps every move
    to a move (checked here on Python sets), and counting with them equals counting without."""
    from logicpy.puzzles.gods.search import TreeSearch

    search = _fresh_search(CLASSIC, 1)
    assert len(search.symmetries) == 5
    rows = {tuple(int(b) for b in row) for row in search.moves.sets}
    for mapping in search.symmetries:
        assert {tuple(mapping.of_int(b) for b in row) for row in rows} == rows
    plain = TreeSearch(CLASSIC, search.universe, search.moves)
    plain._symmetries = []
    assert search.count(search.all_live, 3) == plain.count(plain.all_live, 3) == 1536


def test_assignment_counts_by_folding_languages_equal_the_bit_table():
    import numpy as np

    search = _fresh_search(FOUR_GODS, 1)
    rows = np.random.default_rng(15).integers(0, 1 << 24, (500, 2)).astype(np.uint64)
    assert np.array_equal(search._assignment_counts(rows), np.bitwise_count(search._assignment_of.of_array(rows)))


def test_one_search_per_level_reuses_failures_across_question_counts():
    from logicpy.puzzles.gods import universe
    from logicpy.puzzles.gods.search import searcher

    puzzle = Puzzle.permutations(("truly", "truly", "falsely", "random"))
    search = searcher(universe(puzzle, 1), 1)
    assert search is searcher(universe(puzzle, 1), 1)
    first = solve(puzzle, 4, 1, lowest_first=False)  # 12 assignments, 16 leaves: refuted by search
    assert first.status == "none" and first.search.nodes > 0 and first.least_complexity is None
    proved = dict(search._failed)
    again = solve(puzzle, 4, 1, lowest_first=False)
    assert again.status == "none" and again.search.nodes == 0 and search._failed == proved  # all from the memo


def test_distinct_rows_by_hash_fall_back_to_sorting_on_a_collision(monkeypatch):
    import numpy as np

    from logicpy.puzzles.gods import search

    rows = np.random.default_rng(7).integers(0, 4, (300, 3)).astype(np.uint64)
    want = np.sort(np.unique(rows, axis=0, return_index=True)[1])
    assert np.array_equal(search._first_of_each(rows), want)
    monkeypatch.setattr(search, "_row_hashes", lambda r: np.zeros(len(r), dtype=np.uint64))  # every row collides
    assert np.array_equal(search._first_of_each(rows), want)
