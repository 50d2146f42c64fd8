"""`storyo` run backwards: date lists from a pool on which a story has one answer."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from logicpy.core import SearchTimeout, conde, eq, membero, run, var
from logicpy.errors import InputError
from logicpy.puzzles.epistemic import CLASSIC, CLASSIC_DATES, DATE_POOL, EVE, MonthDay, Statement, fact, solve
from logicpy.puzzles.epistemic.relations import storyo
from logicpy.puzzles.epistemic.verify import survivors


def test_generates_lists_whose_unique_answer_the_naive_evaluator_confirms():
    worlds, date = var(), var()
    found = run(5, (worlds, date), storyo(CLASSIC, date, worlds, pool=DATE_POOL, size=10))
    assert len(found) == 5 and len({w for w, _ in found}) == 5
    for dates, answer in found:
        assert len(dates) == 10 and set(dates) <= set(DATE_POOL)
        story = CLASSIC.on(dates)
        assert [dates[i] for i in survivors(story)] == [answer]


def test_checks_a_given_list_and_asks_for_a_given_answer():
    date, worlds = var(), var()
    assert run(0, date, storyo(CLASSIC, date, CLASSIC_DATES)) == (MonthDay(7, 16),)
    assert run(0, date, storyo(CLASSIC, date, CLASSIC_DATES[:4])) == ()  # no unique answer there
    (dates,) = run(1, worlds, storyo(EVE, MonthDay(7, 16), worlds, pool=DATE_POOL, size=10))
    assert MonthDay(7, 16) in dates and solve(EVE.on(dates)).solutions == [MonthDay(7, 16)]


def test_composes_with_other_goals_fairly():
    worlds, date = var(), var()
    june = [MonthDay(6, 17), MonthDay(6, 26)]
    (pair,) = run(1, (worlds, date), membero(date, june), storyo(CLASSIC, date, worlds, pool=DATE_POOL, size=8))
    assert pair[1] in june and solve(CLASSIC.on(pair[0])).solutions == [pair[1]]
    never = replace(CLASSIC, statements=CLASSIC.statements + (Statement("x", "no", fact(lambda d: False, "never")),))
    # a branch that never answers does not starve the other one
    answers = run(1, date, conde([storyo(never, date, worlds, pool=DATE_POOL)], [eq(date, "other")]))
    assert answers == ("other",)


def test_a_search_that_finds_nothing_stops_at_its_time_limit():
    never = replace(CLASSIC, statements=CLASSIC.statements + (Statement("x", "no", fact(lambda d: False, "never")),))
    worlds, date = var(), var()
    start = time.perf_counter()
    with pytest.raises(SearchTimeout):
        run(1, worlds, storyo(never, date, worlds, pool=DATE_POOL), timeout=0.3)
    assert time.perf_counter() - start < 3


def test_mistakes_name_the_argument():
    worlds, date = var(), var()
    with pytest.raises(InputError, match="storyo: story must be a Story"):
        storyo("classic", date)
    with pytest.raises(InputError, match="storyo: size must be an integer"):
        storyo(CLASSIC, date, worlds, pool=DATE_POOL, size=1)
    with pytest.raises(InputError, match="give pool="):
        run(1, worlds, storyo(CLASSIC, date, worlds))


def test_generates_from_a_pool_of_number_pairs():
    from logicpy.puzzles.epistemic import sam_pat
    pat_knows = sam_pat(1, top=6)  # "Pat: now I know the numbers" (told their product)
    pairs = [(x, y) for x in range(1, 7) for y in range(x + 1, 7)]
    worlds, pair = var(), var()
    found = run(3, (worlds, pair), storyo(pat_knows, pair, worlds, pool=pairs, size=5))
    assert len(found) == 3
    for chosen, answer in found:
        products = [x * y for x, y in chosen]
        assert [p for p in chosen if products.count(p[0] * p[1]) == 1] == [answer]


def test_every_relation_names_a_story_that_is_not_one():
    from logicpy.puzzles.epistemic.relations import knowso, survivo
    with pytest.raises(InputError, match="survivo: story must be a Story, got str"):
        survivo("classic", 0, var())
    with pytest.raises(InputError, match="knowso: story must be a Story, got list"):
        knowso([], 0, var(), var())
