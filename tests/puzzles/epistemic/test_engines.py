"""The explicit and the symbolic engine tell every built-in story alike; size faults are refused in one line."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.epistemic import (
    BUS, CHERYL_AGE, CLASSIC, COMPLEX, EVE, GABE, LANDING, SUM_PRODUCT, THREE_CHILDREN, Story, Statement, fact,
    knows, knows_whether, knows_which, muddy_children, sam_pat, what_sum,
)
from logicpy.puzzles.epistemic.verify import verify
from logicpy.puzzles.epistemic.propositional import Valuations, atom_fact, sees_all_but
from logicpy.puzzles.epistemic.solve import engine_for, solve
from logicpy.puzzles.epistemic.stories import muddy_knowers

pytest.importorskip("dd")
from logicpy.puzzles.epistemic import symbolic  # noqa: E402

STORIES = [CLASSIC, GABE, EVE, COMPLEX, BUS, LANDING, CHERYL_AGE, THREE_CHILDREN, SUM_PRODUCT, sam_pat(2, 40),
           sam_pat(3, 30), what_sum(3), muddy_children(5, 3), muddy_children(6, 6), muddy_children(4, 1)]


def _who_knows(result, story):
    """(moment, agent) -> the alive worlds where the agent knows the secret, and where it knows whether
    its own atom holds (for stories over valuations)."""
    out = {}
    for k in range(len(story.statements) + 1):
        alive = np.asarray(result.run.mask(k), dtype=bool)
        for i, agent in enumerate(story.agents):
            out[k, agent] = set(np.flatnonzero(alive & np.asarray(result.run.truth(knows_which(agent), k))).tolist())
            if isinstance(story.worlds, Valuations):
                own = knows_whether(agent, atom_fact(i, "own"))
                out[k, agent, "own"] = {w for w in np.flatnonzero(alive).tolist() if result.run.holds_at(own, k, w)}
    return out


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s.name)
def test_both_engines_leave_the_same_worlds_and_the_same_knowers(story):
    explicit, symbolic_result = solve(story, "explicit"), solve(story, "symbolic")
    assert [set(s.kept.tolist()) for s in explicit.steps] == [set(s.kept.tolist()) for s in symbolic_result.steps]
    assert explicit.status == symbolic_result.status and explicit.count == symbolic_result.count
    assert list(explicit.solutions)[:50] == list(symbolic_result.solutions)[:50]
    assert _who_knows(explicit, story) == _who_knows(symbolic_result, story)


def _more_stories():
    """The puzzles beyond public announcements and the shipped story files, every reading."""
    from logicpy.puzzles.epistemic import dynamic
    from logicpy.puzzles.epistemic.storyfile import read_story

    out = [dynamic.russian_cards([(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)]),
           dynamic.consecutive_numbers(5), dynamic.dining_cryptographers(1, (0, 1, 0)), dynamic.coordinated_attack(2),
           dynamic.HATS]
    for name in ("cheryl", "consecutive", "denise", "hats", "muddy", "sum-product"):
        out += list(read_story(name).stories.values())
    return out


@pytest.mark.parametrize("story", _more_stories(), ids=lambda s: s.name)
def test_the_symbolic_engine_tells_the_other_stories_alike_or_leaves_them_to_the_explicit_one(story):
    explicit = solve(story, "explicit")
    try:
        told = symbolic.solve_symbolic(story)
    except symbolic.Unsupported as exc:  # common or distributed knowledge, private actions
        assert "Common" in str(exc) or "Distributed" in str(exc) or "not a public announcement" in str(exc)
        assert [s.count for s in solve(story).steps] == [s.count for s in explicit.steps]
        return
    assert [set(s.kept.tolist()) for s in explicit.steps] == [set(s.kept.tolist()) for s in told.steps]
    assert _who_knows(explicit, story) == _who_knows(told, story)


def test_known_answers_on_the_symbolic_engine():
    assert solve(CLASSIC, "symbolic").solutions[0].month == 7
    assert solve(SUM_PRODUCT, "symbolic").solutions == [(4, 13)]
    assert solve(CHERYL_AGE, "symbolic").solutions == [(9, 4, 4)]
    assert [s.count for s in solve(EVE, "symbolic").steps] == [5, 3, 1, 0]


@pytest.mark.parametrize("story", [CLASSIC, SUM_PRODUCT, muddy_children(5, 2)], ids=lambda s: s.name)
def test_pure_python_bdds_agree_with_cudd(story):
    runs = []
    for prefer in ("cudd", "autoref"):
        structure = symbolic.structure_of(story, prefer)
        run = symbolic.SymbolicRun(structure, story.statements)
        runs.append([structure.count(run.alive_at(k)) for k in range(len(story.statements) + 1)])
    assert runs[0] == runs[1] == [len(story.worlds)] + [s.count for s in solve(story, "explicit").steps]


@pytest.mark.parametrize("n, m", [(40, 40), (40, 20), (60, 30)])
def test_muddy_children_far_beyond_the_explicit_engine(n, m):
    story = muddy_children(n, m)
    assert engine_for(story) == "symbolic"
    result = solve(story)
    assert tuple(step.count for step in result.steps) == story.expected_counts  # exact counts, up to C(60, 30)
    assert result.count == comb(n, m) and result.answers() == [m]
    assert result.solutions[0] == (1 << m) - 1 and bin(result.solutions[-1]).count("1") == m
    knowers = muddy_knowers(result, (1 << m) - 1)
    assert knowers[:-1] == [[]] * (len(knowers) - 1) and knowers[-1] == [f"child {i + 1}" for i in range(m)]
    assert str(verify(story, result)).startswith("verified: the counts follow the closed form")


def test_auto_picks_by_size_and_falls_back_where_the_symbolic_engine_cannot_go():
    assert engine_for(muddy_children(10, 2)) == "explicit" and engine_for(muddy_children(17, 2)) == "symbolic"
    assert engine_for(CLASSIC) == engine_for(SUM_PRODUCT) == "explicit"
    with pytest.raises(InputError, match="unknown engine 'fast'"):
        engine_for(CLASSIC, "fast")
    # a fact written as a plain function over valuations: only the explicit engine can read it
    story = Story("plain", Valuations(17), {"a": sees_all_but((0,)), "b": sees_all_but((1,))},
                  (Statement("a", "x", fact(lambda s: s != 0, "someone", vectorized=True)),
                   Statement("a", "y", knows("a", atom_fact(2, "c")))))
    assert engine_for(story) == "symbolic" and [s.count for s in solve(story).steps] == [2**17 - 1, 2**16]
    with pytest.raises(InputError, match="is not stated over atoms") as info:
        solve(story, "symbolic")
    assert "\n" not in str(info.value)


def test_holds_at_one_world_agrees_with_the_truth_arrays():
    result = solve(COMPLEX, "explicit")
    formulas = [knows_which(a) for a in COMPLEX.agents] + [s.formula for s in COMPLEX.statements]
    for k in range(len(COMPLEX.statements)):
        for f in formulas[:3]:
            assert [result.run.holds_at(f, k, w) for w in range(10)] == result.run.truth(f, k).tolist()
        f = COMPLEX.statements[k].formula
        assert [result.run.holds_at(f, k, w) for w in range(10)] == result.run.truth(f, k).tolist()


def test_a_large_story_is_checked_in_proportion_to_the_solve():
    result = solve(SUM_PRODUCT)
    part = str(verify(SUM_PRODUCT, result, limit=100, budget=0.0))
    assert part.startswith("verified: in part: the naive evaluator, told the story lazily world by world, keeps "
                           "the survivor and agrees on 16 of the 2,352 worlds")
    assert str(verify(SUM_PRODUCT, result, limit=100, budget=None)).startswith(
        "verified: the naive evaluator, told the story lazily")


def run(capsys, *argv):
    code = main(["cheryl", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, message", [
    (["what-sum", "--anne", "200"], "--anne 200: 15,355,200 worlds, about 1.7 GB in memory; the limit is 1.0 GB "
                                    "(--anne 153 at most)"),
    (["what-sum", "--anne", "1000"], "--anne 1000: 383,976,000 worlds"),
    (["what-sum", "--anne", "100000"], "--anne 100000: 3,839,997,600,000 worlds"),
    (["sum-product", "--limit", "100000"], "--limit 100000: 2,500,000,000 worlds, about 425.0 GB"),
    (["sam-pat", "--top", "100000", "--key", "20"], "--top 100000: 4,999,950,000 worlds"),
    (["muddy", "-n", "30", "--engine", "explicit"], "2**30 worlds would need about"),
    (["muddy", "-n", "63"], "--children must be between 1 and 62"),
    (["muddy", "-n", "30", "--why"], "--why and --svg look at every world"),
])
def test_models_too_large_are_refused_at_once_with_an_estimate(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_muddy_children_sixty_on_the_command_line(capsys):
    code, out, err = run(capsys, "muddy", "-n", "60", "-m", "60")
    assert code == 0 and "1,152,921,504,606,846,976 candidates" in out and "unique solution: " + "●" * 60 in out
    assert "(symbolic engine)" in err and "verified: the counts follow the closed form" in out
    code, out, _ = run(capsys, "muddy", "-n", "40", "-m", "20", "--json")
    data = json.loads(out)
    assert (data["count"], data["answers"], data["solutions_listed"]) == (comb(40, 20), [20], 1000)
    assert data["actual_world"]["knowers_before_each_statement"][-1][-1] == "child 20"


def test_engine_option_gives_the_same_story(capsys):
    outs = [run(capsys, "sum-product", "--engine", engine)[1] for engine in ("explicit", "symbolic")]
    assert outs[0] == outs[1] and "unique solution: (4, 13)" in outs[0]


def test_sampling_is_done_in_batches_of_flat_size():
    from logicpy.puzzles.epistemic import DATE_POOL, birthday
    from logicpy.puzzles.epistemic.generate import BATCH, distribution

    seen: list[int] = []
    counts = distribution(birthday("classic"), DATE_POOL, 25_000, seed=1, progress=lambda done, _: seen.append(done))
    assert seen == [BATCH, 2 * BATCH, 25_000] and sum(counts.values()) == 25_000


@pytest.mark.slow
def test_sum_product_to_a_thousand_is_checked_within_seconds(capsys):
    code, out, _ = run(capsys, "sum-product", "--limit", "1000")
    assert code == 0 and "unique solution: (4, 13)" in out and "verified: in part" in out


def test_an_announcement_other_than_a_public_one_is_left_to_the_explicit_engine():
    from dataclasses import dataclass

    @dataclass(frozen=True, eq=False)
    class Whispered(Statement):
        to: str = "Albert"

    story = Story("whisper", CLASSIC.worlds, CLASSIC.agents, (Whispered("Bernard", "psst", knows_which("Bernard")),))
    assert not symbolic._public(story.statements[0]) and symbolic._public(CLASSIC.statements[0])
    with pytest.raises(symbolic.Unsupported, match="'psst' is not a public announcement"):
        symbolic.solve_symbolic(story)


def test_hats_over_atoms_with_counts_and_partial_views_on_both_engines():
    """Four hats, two red (atom true) and two white: hat 1 sees hats 2 and 3, hat 2 sees hat 3, hats 3
    and 4 see none. Hat 1 cannot tell its colour, so hats 2 and 3 differ, and hat 2 knows its own."""
    from logicpy.puzzles.epistemic.propositional import count_fact, count_of, sees_only

    n = 4
    agents = {"hat 1": sees_only((1, 2), n), "hat 2": sees_only((2,), n), "hat 3": sees_only((), n),
              "hat 4": sees_only((), n)}
    own = [atom_fact(i, f"hat {i + 1} is red") for i in range(n)]
    red = count_of(range(n), "how many are red")
    said = (Statement("hat 4", "I don't know how many are red.", ~knows_which("hat 4", red)),
            Statement("host", "Two hats are red.", count_fact(range(n), "two red", 2, 2)),
            Statement("hat 1", "I don't know my colour.", ~knows_whether("hat 1", own[0])),
            Statement("hat 2", "Now I know my colour.", knows_whether("hat 2", own[1])),
            Statement("hat 4", "Now I know how many are red.", knows_which("hat 4", red)))
    story = Story("hats", Valuations(n), agents, said)
    explicit, symbolic_result = solve(story, "explicit"), solve(story, "symbolic")
    assert [set(s.kept.tolist()) for s in explicit.steps] == [set(s.kept.tolist()) for s in symbolic_result.steps]
    assert [s.count for s in explicit.steps] == [16, 6, 4, 4, 4]
    assert all((w >> 1 & 1) != (w >> 2 & 1) for w in explicit.steps[-1].kept.tolist())


def test_common_and_distributed_knowledge_mean_the_same_on_both_engines():
    from logicpy.puzzles.epistemic.model import Common, Distributed

    july = fact(lambda d: d.month == 7, "it is July")
    formulas = [Common(("Albert", "Bernard"), july), Common(("Albert",), ~knows_which("Bernard")),
                Distributed(("Albert", "Bernard"), july), Distributed(("Albert",), july),
                Common(("Albert", "Bernard"), Distributed(("Albert", "Bernard"), july) | ~july)]
    explicit, told = solve(CLASSIC, "explicit"), solve(CLASSIC, "symbolic")
    for k in range(len(CLASSIC.statements) + 1):
        alive = explicit.run.mask(k)
        for f in formulas:
            assert (explicit.run.truth(f, k) & alive).tolist() == (told.run.truth(f, k) & alive).tolist()
    assert (explicit.run.truth(formulas[2], 0) & explicit.run.mask(0)).sum() == 2  # pooled, they know July 14, 16
