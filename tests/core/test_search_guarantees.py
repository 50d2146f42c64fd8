"""What the search promises whatever the goals: completeness (every branch gets turns,
however it recurses), time limits kept, nested searches stepped by the outer one,
endless goal sequences taken lazily, PAUSE kept inside the search, and one search path
for run, answers and answers_with_constraints."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import count, islice

import kanren
import kanren.core
import pytest
from immutables import Map

from logicpy.core import (
    ExactCover, SearchTimeout, Table, answers, answers_with_constraints, appendo, conda, conde, condu, conj, disj, eq, lall,
    exact_covero, ifa, lany, membero, neq, onceo, relation, run, succeed, unique_by, var,
)
from logicpy.core.answers import Answer
from logicpy.core import streams
from logicpy.core.streams import PAUSE, SLICE, named
from logicpy.errors import InputError

#: How late past its time limit a search may stop, with room for a loaded machine.
LATE = 1.0


@relation
def nevero():
    """Never succeeds, never fails: a call that only calls itself (no leaf goal, ever)."""
    return nevero()


@relation
def loopo(x):
    return loopo(x)


@relation
def nato(n):
    m = var()
    return conde([eq(n, "z")], [eq(n, ("s", m)), nato(m)])


def spino(S):
    """A leaf goal that runs forever without an answer, giving its turn back each time."""
    while True:
        yield PAUSE


def stops_in_time(goal_args, timeout):
    """run(1, *goal_args, timeout=timeout) raises SearchTimeout; the seconds it took."""
    start = time.monotonic()
    with pytest.raises(SearchTimeout, match="0 found"):
        run(1, *goal_args, timeout=timeout)
    return time.monotonic() - start


# ---------------------------------------------------------------- completeness


def test_a_branch_that_only_recurses_does_not_starve_the_other():
    q = var()
    assert run(1, q, conde([nevero()], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([eq(q, 1)], [nevero()])) == (1,)
    assert run(2, q, disj(nevero(), eq(q, 1), nevero(), eq(q, 2))) == (1, 2)


def test_left_recursion_with_the_recursive_clause_first_answers_as_microkanren():
    """path(X,Y) :- path(X,Z), edge(Z,Y).  path(X,Y) :- edge(X,Y).  (untabled)"""
    edge = Table.from_rows("edge", [("a", "b"), ("b", "c"), ("c", "d")])

    @relation
    def patho(x, y):
        z = var()
        return conde([patho(x, z), edge(z, y)], [edge(x, y)])

    y = var()
    assert run(3, y, patho("a", y)) == ("b", "c", "d")
    assert run(1, y, patho("c", y)) == ("d",)


def test_a_left_recursive_conjunction_with_no_leaf_still_gives_turns():
    @relation
    def deepo(x):
        return conj(deepo(x), eq(x, 0))  # the goals still to prove grow, none is ever a leaf

    q = var()
    assert run(1, q, disj(deepo(q), eq(q, 7))) == (7,)


def test_a_spinning_leaf_goal_does_not_starve_the_other_branch():
    q = var()
    assert run(2, q, conde([spino], [membero(q, [1, 2])])) == (1, 2)


# ---------------------------------------------------------------- time limits


def test_a_relation_that_never_reaches_a_leaf_keeps_the_time_limit():
    x = var()
    assert stops_in_time((x, loopo(x)), 0.5) < 0.5 + LATE
    assert stops_in_time((x, nevero()), 0.2) < 0.2 + LATE


def test_a_spinning_leaf_goal_keeps_the_time_limit():
    x = var()
    assert stops_in_time((x, spino), 0.3) < 0.3 + LATE


def test_committed_choice_and_nested_conditions_keep_the_time_limit():
    x = var()
    assert stops_in_time((x, onceo(loopo(x))), 0.3) < 0.3 + LATE
    assert stops_in_time((x, condu([onceo(conda([spino, eq(x, 1)]))], [eq(x, 2)])), 0.3) < 0.3 + LATE
    assert stops_in_time((x, unique_by(x, nevero())), 0.3) < 0.3 + LATE


def test_a_goal_that_calls_a_goal_as_a_function_keeps_the_callers_time_limit():
    x = var()

    def calls_a_search(S):
        yield from conj(loopo(x), succeed)(S)  # a private search, inside one leaf step

    assert stops_in_time((x, calls_a_search), 0.3) < 0.3 + LATE


def test_endless_iterators_of_short_goals_keep_the_time_limit():
    """Each clause a short task of its own, or each goal a step that succeeds: the clock is
    read however short the turns are."""
    x = var()
    assert stops_in_time((x, conde([eq(1, 2)] for _ in count())), 0.2) < 0.2 + LATE
    assert stops_in_time((x, lall(succeed for _ in count())), 0.2) < 0.2 + LATE
    assert stops_in_time((x, disj(conj(eq(x, 1), eq(x, 2)) for _ in count())), 0.2) < 0.2 + LATE


def test_a_time_limit_stays_with_its_own_search():
    """A search without a limit, run between the answers of one with a limit (or after it
    stopped), does not inherit that limit."""
    x, y = var(), var()
    timed = run(None, x, nato(x), timeout=0.2)
    assert next(timed) == "z"
    time.sleep(0.3)
    assert len(run(200, y, nato(y))) == 200  # past the other's deadline: no SearchTimeout here
    with pytest.raises(SearchTimeout):
        for _ in timed:
            pass
    assert stops_in_time((x, onceo(nevero())), 0.1) < 0.1 + LATE
    assert len(run(300, y, nato(y))) == 300
    assert streams._running.search is None


def test_the_answers_before_the_limit_come_with_it():
    x = var()
    with pytest.raises(SearchTimeout) as caught:
        run(0, x, conde([loopo(x)], [nato(x)]), timeout=0.2)
    got = caught.value.answers
    assert got and got[:2] == ("z", ("s", "z"))


# ---------------------------------------------------------------- nested searches


def test_an_endless_condition_takes_turns_with_the_other_branch():
    q, x = var(), var()
    assert run(1, q, conde([onceo(loopo(x))], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([condu([spino, eq(q, 3)], [eq(q, 4)])], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([conda([nevero()], [eq(q, 4)])], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([unique_by(q, nevero())], [eq(q, 1)])) == (1,)


def test_committed_choice_commits_to_the_first_head_with_an_answer():
    q = var()
    # the first head fails only after many steps; the second clause is then taken
    slow_failure = membero(q, list(range(10 * SLICE))), eq(q, -1)
    assert run(0, q, conda([conj(*slow_failure), eq(q, 0)], [membero(q, [1, 2])])) == (1, 2)
    assert run(0, q, condu([conj(*slow_failure)], [membero(q, [1, 2])])) == (1,)
    assert run(0, q, conda([membero(q, [5, 6])], [eq(q, 0)])) == (5, 6)


def test_an_endless_list_relation_as_a_condition_takes_turns():
    q, x = var(), var()
    assert run(1, q, conde([appendo(x, [1], x)], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([onceo(appendo(x, [1], x))], [eq(q, 1)])) == (1,)
    assert stops_in_time((x, appendo(x, [1], x)), 0.3) < 0.3 + LATE


# ---------------------------------------------------------------- PAUSE stays inside the search


@named
def pauseo(x):
    """x = 1, after a PAUSE."""
    def pauseo_goal(S):
        yield PAUSE
        yield from eq(x, 1)(S)
    return pauseo_goal


def test_pause_never_reaches_a_caller_that_is_not_the_search():
    x = var()
    for goal in (pauseo(x), conj(pauseo(x), succeed), onceo(pauseo(x)), conde([pauseo(x)], [spino, eq(x, 1)])):
        states = list(islice(goal({}), 1))
        assert len(states) == 1 and PAUSE not in states
    # kanren's own combinators call logicpy's goals as functions
    assert kanren.run(0, x, kanren.lall(pauseo(x), kanren.eq(x, 1))) == (1,)
    assert run(0, x, kanren.core.ifa(onceo(pauseo(x)), eq(x, 2))) == (1,)


def test_long_scans_and_long_cover_searches_give_their_turn():
    """Driven by the search (`.goal`), a fact scan pauses once per SLICE rows without a hit
    and an exact-cover search once per SLICE nodes; called as functions, neither does."""
    x, q = var(), var()
    pairs = Table.from_rows("pairs", [(i, i + 1) for i in range(10 * SLICE)])
    assert list(pairs(x, x).goal(Map())).count(PAUSE) == 10 and list(pairs(x, x)(Map())) == []
    assert PAUSE not in list(pairs(x, q).goal(Map()))  # every row a hit
    assert run(1, q, conde([pairs(x, x)], [eq(q, 1)])) == (1,)
    queens = ExactCover({(r, c): [("row", r), ("col", c), ("d", r + c), ("a", r - c)] for r in range(8) for c in range(8)},
                        secondary=[(k, v) for k in "da" for v in range(-7, 15)])
    direct = list(exact_covero(q, queens).goal(Map()))
    assert PAUSE in direct and len([s for s in direct if s is not PAUSE]) == 92
    assert len(list(exact_covero(q, queens)(Map()))) == 92 == len(run(0, q, exact_covero(q, queens)))


# ---------------------------------------------------------------- endless goal sequences


def test_conde_over_an_endless_iterator_of_clauses_takes_one_clause_at_a_time():
    x = var()
    clauses = ([eq(x, i)] for i in count())
    assert run(1, x, conde(clauses)) == (0,)
    assert run(1, x, conde(clauses)) == (1,)  # the first run took one clause only
    assert run(4, x, conde([eq(x, i), succeed] for i in count(10))) == (10, 11, 12, 13)


def test_disj_and_lany_over_an_endless_generator():
    x = var()
    assert set(run(3, x, lany(eq(x, i) for i in count()))) == {0, 1, 2}
    assert run(3, x, disj(conj(eq(x, i), nevero()) if i % 2 else eq(x, i) for i in count())) == (0, 2, 4)


def test_a_goal_over_a_generator_can_run_again():
    x = var()
    g = lany(eq(x, i) for i in range(3))
    assert run(0, x, g) == (0, 1, 2)
    assert run(0, x, g) == (0, 1, 2)
    assert [s[x] for s in g({})] == [0, 1, 2]


def test_conj_and_lall_over_a_generator():
    x, y = var(), var()
    assert run(0, (x, y), lall(g for g in (membero(x, [1, 2]), eq(y, 3)))) == ((1, 3), (2, 3))
    assert run(0, x, conj(eq(x, i) for i in count())) == ()  # 0, then 1 fails
    assert run(0, x, lall(iter(()))) == (x,)
    assert run(0, x, lany(iter(()))) == ()


def test_a_bad_item_of_a_generator_is_named_when_reached():
    x = var()
    with pytest.raises(InputError, match="disj goal 2: 5 is not a goal"):
        run(0, x, disj(g for g in (eq(x, 1), 5)))
    with pytest.raises(InputError, match="conde: clause 2 is a goal"):
        run(0, x, conde(c for c in ([eq(x, 1)], eq(x, 2))))


# ---------------------------------------------------------------- one search path


def test_answers_is_lazy_for_none_and_takes_a_time_limit():
    x = var()
    lazy = answers(None, x, nato(x))
    assert isinstance(lazy, Iterator)
    assert [a.text for a in islice(lazy, 3)] == ["z", "s(z)", "s(s(z))"]
    with pytest.raises(SearchTimeout) as caught:
        answers(0, x, conde([nato(x)], [loopo(x)]), timeout=0.2)
    found = caught.value.answers
    assert found and all(isinstance(a, Answer) for a in found) and found[0].text == "z"
    with pytest.raises(InputError, match="answers: timeout must be a positive number"):
        answers(0, x, eq(x, 1), timeout=-1)


def test_answers_with_constraints_takes_a_time_limit():
    x = var()
    got = answers_with_constraints(x, conde([neq(x, 1), nato(x)], [loopo(x)]), timeout=0.2)
    with pytest.raises(SearchTimeout) as caught:
        list(got)
    assert [str(r) for r in caught.value.answers[:2]] == ["z", "s(z)"]
    assert [str(r) for r in answers_with_constraints(x, nato(x), n=2)] == ["z", "s(z)"]


def test_answers_follow_the_search_of_run():
    """Same answers in the same order, through the interleaving and the nested searches."""
    x, y = var(), var()
    goals = (conde([membero(x, [1, 2, 3])], [onceo(membero(x, [7, 8]))], [nato(y), eq(x, y)]),)
    assert answers(6, x, *goals).values == run(6, x, *goals)
    assert [r.term for r in answers_with_constraints(x, *goals, n=6)] == list(run(6, x, *goals))


def test_ifa_steps_its_first_goal_in_the_callers_search():
    # logicpy's ifa is conda([g1], [g2]): an endless g1 takes turns with other branches
    x, q = var(), var()
    assert run(1, q, conde([ifa(appendo(x, [1], x), eq(q, 0)), eq(q, "never")], [eq(q, 1)])) == (1,)
    with pytest.raises(SearchTimeout):
        run(1, q, ifa(appendo(x, [1], x), eq(q, 0)), timeout=0.3)
