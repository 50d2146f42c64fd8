"""Known answers of every epistemic puzzle, with the intermediate sets the sources give.

Sources: Norvig, "When Cheryl Met Eve" (2015, the seed) for the Cheryl stories, Gabe
Gaster's dates (July 30), the bus (08:32) and landing pads (C3); Freudenthal (1969) for
Sum and Product, (4, 13) with 145 and 86 pairs left; Norvig's iterated Sam/Pat (key 2:
(1,6), (1,8), (72,92), (75,96)); Cheryl's age (9); the census taker's children (2, 2, 9);
the muddy children (Fagin et al., "Reasoning about Knowledge"); "what sum" (van
Ditmarsch et al.: Anne 50, Bill 20, Cath 30).
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from logicpy.errors import InputError
from logicpy.puzzles.epistemic import (
    BUS, CHERYL_AGE, CLASSIC, CLASSIC_DATES, COMPLEX, DATE_POOL, GABE, LANDING, NOTHING, SUM_PRODUCT,
    THREE_CHILDREN, MonthDay, Projection, Statement, Story, birthday, knows_which, muddy_children, parse_date,
    replay, sam_pat, seeing, solve, verify, what_sum,
)


def names(worlds):
    return sorted(str(w) for w in worlds)


def survivors(result, step):
    return names(result.story.worlds[i] for i in result.steps[step].kept)


def test_classic_is_july_16_with_the_seeds_intermediate_sets():
    result = solve(CLASSIC)
    assert result.status == "unique" and names(result.solutions) == ["July 16"]
    assert survivors(result, 0) == names([MonthDay(8, 14), MonthDay(8, 15), MonthDay(8, 17), MonthDay(7, 14), MonthDay(7, 16)])
    assert survivors(result, 1) == names([MonthDay(8, 15), MonthDay(8, 17), MonthDay(7, 16)])
    assert verify(CLASSIC, result).ok


def test_gabes_dates_give_july_30():
    assert names(solve(GABE).solutions) == ["July 30"]


def test_complex_story_gives_july_27_and_replays_the_seeds_walk_through():
    result = solve(COMPLEX)
    assert names(result.solutions) == ["July 27"]
    # Albert, told July, knows Bernard does not know: each July day appears twice.
    assert survivors(result, 0) == ["July 15", "July 16", "July 27"]
    # Bernard, told 27, keeps July 27 only (May 27 fails Albert's statement); Albert still does not know.
    assert survivors(result, 1) == ["July 15", "July 16", "July 27"]
    assert survivors(result, 2) == ["July 15", "July 16", "July 27"]
    # Eve saw J and 2: June 29 or July 27 before; only July 27 is left after the three statements.
    assert survivors(result, 3) == ["July 27"]
    assert verify(COMPLEX, result).ok


def test_classic_dates_through_the_eve_and_complex_stories_have_no_solution():
    for kind in ("eve", "complex"):
        result = solve(birthday(kind, CLASSIC_DATES))
        assert result.status == "none" and result.solutions == []
        assert verify(result.story, result).ok


def test_eve_story_on_a_picked_instance_has_its_answer_checked_by_the_baseline():
    from bench.cheryl_baseline import solutions

    dates = [MonthDay(3, 16), MonthDay(3, 28), MonthDay(4, 16), MonthDay(4, 18), MonthDay(4, 27), MonthDay(4, 29), MonthDay(5, 27),
             MonthDay(5, 28), MonthDay(7, 18), MonthDay(7, 26)]
    result = solve(birthday("eve", dates))
    assert names(result.solutions) == ["May 27"]
    assert {MonthDay(*d) for d in solutions(dates, "eve")} == {MonthDay(5, 27)}
    assert verify(result.story, result).ok


def test_bus_and_landing_pads():
    assert solve(BUS).solutions == ["08:32"]
    assert solve(LANDING).solutions == ["C3"]


def test_day_1_and_day_15_are_told_apart():
    """Substring matching would let Bernard, told 1, 'see' day 15 too; real projections do not.

    Here substring matching would leave Bernard, told 15, with May 15, June 15 and May 1/July 1
    ('1' is in '15'); with projections May 15 and June 15 share a day and July 1 pairs with May 1.
    """
    from bench.cheryl_baseline import solutions

    dates = [parse_date(t) for t in ("May 1", "May 15", "June 15", "June 2", "July 1", "July 2", "July 15")]
    result = solve(birthday("classic", dates))
    assert names(result.cell("Bernard", MonthDay(5, 1), 0)) == ["July 1", "May 1"]
    assert names(result.cell("Bernard", MonthDay(5, 15), 0)) == ["July 15", "June 15", "May 15"]
    eve = solve(birthday("eve", dates))
    assert names(eve.cell("Eve", MonthDay(5, 1), 0)) == ["May 1", "May 15"]  # first digit of 1 and of 15
    assert {MonthDay(*d) for d in solutions(dates, "classic")} == set(result.solutions)
    assert verify(result.story, result).ok


def test_sum_and_product():
    result = solve(SUM_PRODUCT)
    assert result.solutions == [(4, 13)]
    assert [step.count for step in result.steps] == [145, 86, 1]
    assert verify(SUM_PRODUCT, result).ok


def test_norvigs_iterated_sam_and_pat_key_2():
    result = solve(sam_pat(2))
    assert result.solutions == [(1, 6), (1, 8), (72, 92), (75, 96)]
    assert verify(result.story, result).ok


def test_cheryls_age_and_the_three_children():
    age = solve(CHERYL_AGE)
    assert age.solutions == [(9, 4, 4)]
    assert [step.count for step in age.steps] == [16, 4, 1, 1]  # sums 17 and 19 stay ambiguous
    children = solve(THREE_CHILDREN)
    assert children.solutions == [(2, 2, 9)]
    assert names(children.story.worlds[i] for i in children.steps[0].kept) == ["(1, 6, 6)", "(2, 2, 9)"]
    assert verify(CHERYL_AGE, age).ok and verify(THREE_CHILDREN, children).ok


@pytest.mark.parametrize("n, m", [(1, 1), (3, 1), (3, 2), (4, 4), (6, 3), (9, 5)])
def test_muddy_children_any_n_and_m(n, m):
    result = solve(muddy_children(n, m))
    # After the father and r rounds of "nobody knows", exactly the worlds with more than r muddy children are left;
    # the last statement leaves the worlds with exactly m muddy children.
    counts = [step.count for step in result.steps]
    assert counts[:-1] == [sum(comb(n, k) for k in range(r + 1, n + 1)) for r in range(m)]
    assert counts[-1] == comb(n, m)
    assert all(bin(s).count("1") == m for s in result.solutions)
    assert verify(result.story, result).ok


def test_what_sum_anne_5_is_bill_2_cath_3():
    result = solve(what_sum(5))
    assert result.solutions == [(5, 2, 3)]
    assert verify(result.story, result).ok


@pytest.mark.slow
def test_what_sum_anne_50_is_bill_20_cath_30():
    assert solve(what_sum(50)).solutions == [(50, 20, 30)]


def test_the_verifier_rejects_a_corrupted_answer():
    from dataclasses import replace

    result = solve(CLASSIC)
    last = result.steps[-1]
    after = last.after.copy()
    after[0] = True  # the first date kept as well as July 16
    corrupted = replace(result, steps=[*result.steps[:-1], replace(last, after=after)])
    check = verify(CLASSIC, corrupted)
    assert not check.ok and check.problems == (
        "after statement 3 (Albert): the answer keeps May 15, which the re-telling drops",)


def test_unknown_agent_and_failing_projection_are_input_errors():
    bad = Story("bad", CLASSIC_DATES, CLASSIC.agents, (Statement("Bernrd", "I know.", knows_which("Bernrd")),))
    with pytest.raises(InputError, match="statement 1.*unknown agent 'Bernrd'"):
        solve(bad)
    broken = Story("broken", ("a", "bb"), {"X": Projection(lambda s: s[1], "the second letter")},
                   (Statement("X", "I know.", knows_which("X")),))
    with pytest.raises(InputError, match="agent X's view.*fails on world 'a'"):
        solve(broken)
    with pytest.raises(InputError, match="the world 'July 16' is listed twice"):
        solve(CLASSIC.on(CLASSIC_DATES + (MonthDay(7, 16),)))


def test_seeing_nothing_is_not_knowing_unless_one_world_is_left():
    story = Story("blind", (1, 2), {"A": Projection(lambda s: s)},
                  (Statement("A", "I know, but would not have without looking.",
                             knows_which("A") & seeing("A", NOTHING, ~knows_which("A"))),))
    assert solve(story).solutions == [1, 2]


@settings(max_examples=40)
@given(st.lists(st.sampled_from(DATE_POOL), min_size=2, max_size=12, unique=True),
       st.sampled_from(["classic", "eve", "complex"]))
def test_engine_and_naive_evaluator_agree_on_random_dates(dates, kind):
    story = birthday(kind, dates)
    result = solve(story)
    assert [set(step.kept.tolist()) for step in result.steps] == replay(story)[1:]


def test_batched_counts_match_the_seed_style_baseline_sample_by_sample():
    from bench.cheryl_baseline import solutions
    from logicpy.puzzles.epistemic.generate import samples, solution_counts

    rows = samples(len(DATE_POOL), 10, 300, np.random.default_rng(7))
    for kind in ("classic", "eve"):
        counts = solution_counts(birthday(kind), DATE_POOL, rows)
        assert counts.tolist() == [len(solutions([DATE_POOL[i] for i in row], kind)) for row in rows]


def test_storyo_forwards_backwards_and_combined():
    from logicpy.core import conde, membero, run, var
    from logicpy.puzzles.epistemic.relations import storyo, survivo

    d, k = var(), var()
    assert run(0, d, storyo(CLASSIC, d)) == (MonthDay(7, 16),)
    assert run(0, d, storyo(CLASSIC, MonthDay(7, 16))) and not run(0, d, storyo(CLASSIC, MonthDay(5, 19)))
    assert set(run(0, d, survivo(CLASSIC, 1, d))) == {MonthDay(7, 14), MonthDay(7, 16), MonthDay(8, 14), MonthDay(8, 15), MonthDay(8, 17)}
    assert run(0, k, survivo(CLASSIC, k, MonthDay(8, 15))) == (0, 1, 2)
    # combined with another goal: which of Gabe's candidates in July or May survive Albert's first statement?
    x = var()
    assert set(run(0, x, membero(x, [MonthDay(7, 13), MonthDay(5, 11), MonthDay(7, 30)]), survivo(GABE, 1, x))) == {
        MonthDay(7, 13), MonthDay(7, 30)}
    assert run(2, x, storyo(SUM_PRODUCT, x)) == ((4, 13),)
    assert run(0, x, conde([storyo(CHERYL_AGE, x)], [storyo(THREE_CHILDREN, x)])) in (
        ((9, 4, 4), (2, 2, 9)), ((2, 2, 9), (9, 4, 4)))


def test_the_seeds_complex_walk_through_cell_by_cell():
    """Norvig's In [21]-[29]: what each agent considers possible at each moment, on the seed's dates."""
    result = solve(COMPLEX)
    july27 = MonthDay(7, 27)
    assert names(result.cell("Albert", july27, 0)) == ["July 15", "July 16", "July 27"]   # tell('July')
    assert names(result.cell("Bernard", july27, 0)) == ["July 27", "May 27"]              # tell('27')
    assert names(result.cell("Bernard", july27, 1)) == ["July 27"]                        # satisfy(tell('27'), albert1)
    assert names(result.cell("Albert", july27, 2)) == ["July 15", "July 16", "July 27"]   # still doesn't know
    assert names(result.cell("Eve", july27, 0)) == ["July 27", "June 29"]                 # tell('J') & tell('2')
    assert names(result.cell("Eve", july27, 3)) == ["July 27"]                            # after three statements
    assert survivors(result, 2) == ["July 15", "July 16", "July 27"]                    # satisfy(tell(''), …)
    assert names(result.cell("Albert", july27, 4)) == ["July 27"]                         # satisfy(tell('July'), eve1c)


@pytest.mark.parametrize("kind, unique", [("eve", (0.02, 0.045)), ("complex", (0.075, 0.11))])
def test_distribution_shape_of_the_other_stories(kind, unique):
    """Norvig: about 3 % unique for the Eve story, about 9 % for the complex one."""
    from logicpy.puzzles.epistemic.generate import distribution

    counts = distribution(birthday(kind), DATE_POOL, 4000, 10, seed=2)
    assert sum(counts.values()) == 4000 and unique[0] < counts[1] / 4000 < unique[1]


def test_verify_picks_the_closed_form_above_the_naive_limit_and_rejects_a_wrong_count():
    from dataclasses import replace

    story = muddy_children(6, 3)
    assert str(verify(story, solve(story), limit=10)).startswith("verified: the counts follow the closed form (after r")
    assert str(verify(story, solve(story))).startswith("verified: the naive evaluator re-told")
    wrong = replace(story, expected_counts=(63, 57, 42, 21))
    check = verify(wrong, solve(wrong), limit=10)
    assert not check.ok and "break the closed form" in check.problems[0]
    assert str(verify(SUM_PRODUCT, solve(SUM_PRODUCT), limit=100)).startswith(
        "verified: the naive evaluator, told the story lazily")


def test_knowso_who_knows_when():
    from logicpy.core import run, var
    from logicpy.puzzles.epistemic.relations import knowso

    k, a, d = var(), var(), var()
    # At the start of Gabe's story only Bernard knows, and only for the days no other date has.
    assert set(run(0, (a, d), knowso(GABE, 0, a, d))) == {
        ("Bernard", MonthDay(1, 15)), ("Bernard", MonthDay(1, 4)), ("Bernard", MonthDay(5, 11)), ("Bernard", MonthDay(5, 17))}
    # Bernard told 30 knows once Albert has spoken.
    assert (1, "Bernard") in run(0, (k, a), knowso(GABE, k, a, MonthDay(7, 30)))
    # After the whole classic story both know, and only July 16 is left to know.
    assert set(run(0, (a, d), knowso(CLASSIC, 3, a, d))) == {("Albert", MonthDay(7, 16)), ("Bernard", MonthDay(7, 16))}
