"""Explanation mode: the deduction trace is sound, ends in the solution, and says where it guessed."""

from __future__ import annotations

from pathlib import Path

import pytest

from logicpy.puzzles.einstein import explain, load_game, parse_text, render_explanation, solve

ROOT = Path(__file__).resolve().parents[3]
#: the peer's games, in the shared folder beside the checkout (or beside its worktree folder)
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
UNIQUE_GAMES = sorted(EXAMPLES.glob("*.json")) + sorted(
    p for p in PEERS.glob("*.json") if p.name != "expected_solutions.json"
)


@pytest.mark.parametrize("path", UNIQUE_GAMES, ids=lambda p: p.name)
def test_every_step_agrees_with_the_solution(path):
    game = load_game(path)
    (solution,) = solve(game).solutions
    assert_sound(game, solution, explain(game, solution))


def assert_sound(game, solution, explanation) -> None:
    """Every step agrees with the solution, and every link of the solution is stated."""
    same_row = {frozenset((a, b)) for row in solution for a in row for b in row if a != b}
    assert explanation.solved
    for step in explanation.steps:
        assert (frozenset(step.pair) in same_row) == step.linked, step.text
    assert {frozenset(s.pair) for s in explanation.steps if s.linked} == same_row


@pytest.mark.parametrize("path", UNIQUE_GAMES, ids=lambda p: p.name)
def test_the_agenda_gives_the_trace_of_whole_grid_sweeps(path):
    from bench.einstein_explain_sweep import explain_by_sweeps

    game = load_game(path)
    (solution,) = solve(game).solutions
    assert _outline(explain(game, solution)) == _outline(explain_by_sweeps(game, solution))


def _outline(explanation) -> list:
    """The steps, each as its fact and text (a failed assumption's text without its chain)."""
    return [(s.kind, s.pair, s.linked, s.clue, s.text if s.kind != "try" else "") for s in explanation.steps]


@pytest.mark.slow
@pytest.mark.parametrize("kinds, things, seed", [(4, 5, s) for s in range(12)] + [(6, 6, s) for s in range(4)]
                         + [(7, 6, 1), (5, 8, 2)])
def test_the_agenda_gives_the_trace_of_sweeps_on_generated_games(kinds, things, seed):
    from bench.einstein_explain_sweep import explain_by_sweeps
    from logicpy.puzzles.einstein.generate import generate

    g = generate(kinds=kinds, things=things, seed=seed)
    explanation = explain(g.game, g.solution)
    assert_sound(g.game, g.solution, explanation)
    assert _outline(explanation) == _outline(explain_by_sweeps(g.game, g.solution))


@pytest.mark.slow
def test_the_largest_generated_grid_is_explained_soundly():
    game = load_game(ROOT / "bench" / "einstein_games" / "generated_8x10.txt")
    (solution,) = solve(game).solutions
    explanation = explain(game, solution)
    assert_sound(game, solution, explanation)
    tries = [s for s in explanation.steps if s.kind == "try"]
    assert (len(tries), explanation.guesses) == (73, 2)
    assert all(" is ruled out" in s.text and "; so " in s.text for s in tries)  # each with its chain


@pytest.mark.skipif(not PEERS.exists(), reason="../shared/peers/einstein-solver is not present")
def test_time_to_quit_in_grid_terms_without_guessing():
    game = load_game(PEERS / "time_to_quit.json")
    explanation = explain(game, solve(game).solutions[0])
    texts = [s.text for s in explanation.steps]
    assert "clue 3 (“Time !link Guavas”) rules out Time–Guavas" in texts  # a clue is quoted when first cited
    assert "clue 11 (“US Weekly link Bianca”): Bianca–US Weekly" in texts  # a link clue states its link
    assert "so US Weekly–07-08 (the only Last Day left for US Weekly)" in texts
    assert explanation.guesses == 0
    assert render_explanation(explanation).endswith("solved by propagation alone, no guesses")


def test_the_zebra_needs_no_guess():
    game = load_game(EXAMPLES / "zebra.txt")
    assert explain(game, solve(game).solutions[0]).guesses == 0


AMBIGUOUS = """
kind Person: Al, Bo, Cy
kind Pet: cat, dog, eel
1. Al link cat
"""


def test_ambiguous_game_says_where_it_guessed():
    game = parse_text(AMBIGUOUS)
    result = solve(game)
    assert result.count == 2
    explanation = explain(game, result.solutions[0])
    guesses = [s for s in explanation.steps if s.kind == "guess"]
    assert explanation.guesses == len(guesses) == 1 and explanation.solved
    assert guesses[0].text == "propagation stops; guess Bo–dog (1 of 2 candidates for Bo)"
    assert "solved with 1 guess" in render_explanation(explanation)
    stuck = explain(game)  # without a known solution it stops and says so
    assert not stuck.solved and stuck.steps[-1].kind == "stuck"


def test_no_solution_ends_in_a_contradiction():
    game = parse_text(AMBIGUOUS + "2. Bo link cat\n")
    assert solve(game).status == "none"
    explanation = explain(game)
    assert not explanation.solved
    assert explanation.steps[-1].kind == "stuck"
    assert "the game has no solution" in explanation.steps[-1].text


def test_assumptions_that_fail_are_ruled_out():
    game = load_game(EXAMPLES / "bake_sale.txt")
    explanation = explain(game, solve(game).solutions[0])
    tries = [s for s in explanation.steps if s.kind == "try"]
    assert tries and all(s.text.startswith("assume ") and s.text.endswith(" is ruled out") for s in tries)
    assert explanation.guesses == 0


def test_a_failed_assumption_says_why_as_a_chain():
    game = load_game(EXAMPLES / "bake_sale.txt")
    (step,) = [s for s in explain(game, solve(game).solutions[0]).steps if s.kind == "try"]
    assert step.text == (
        "assume Ada–B: then by clue 9, Ben is not with D; Ben–A (the only Stall left for Ben); "
        "Cookies is not with Cleo or Dev (no Stall fits both); so no Baker is left for Cookies; so Ada–B is ruled out"
    )


def test_generated_clues_are_quoted_in_english_and_grids_follow_each_step():
    from logicpy.puzzles.einstein.generate import generate

    g = generate(kinds=3, things=3, seed=4)
    explanation = explain(g.game, g.solution, grids=True)
    first = explanation.steps[0]
    assert first.clue is not None and f"(“{g.game.clues[first.clue - 1].text}”)" in first.text
    assert all(s.grid is not None for s in explanation.steps)
    last = explanation.steps[-1].grid
    assert all(len(v) == 1 for v in last.values())  # solved: one candidate per cell
    text = render_explanation(explanation, grids=True)
    person, *_ = g.game.kinds
    assert text.count(f"     {person.name}") == len(explanation.steps)  # one table per step


def test_explain_grids_on_the_command_line(capsys):
    from logicpy.cli import main

    assert main(["einstein", str(EXAMPLES / "bake_sale.txt"), "--explain", "--grids"]) == 0
    out = capsys.readouterr().out
    trace = out[out.index("  1. "):]
    assert trace.count("     Baker  Treat") == len(explain(load_game(EXAMPLES / "bake_sale.txt"),
                                                            solve(load_game(EXAMPLES / "bake_sale.txt")).solutions[0]).steps)
    assert "     Ada    Muffins   $4     C" in trace  # the last grid is the solution
