"""tabled: answers equal the untabled relation's, each variant solved once, constraints respected."""

from __future__ import annotations

import pytest

from logicpy.core import appendo, conde, eq, lall, membero, neq, run, tabled, var, vars
from logicpy.errors import ModeError


def make_counted():
    calls = []

    def splito(xs, a, b):
        calls.append(1)
        return appendo(a, b, xs)

    return splito, tabled(splito), calls


def test_answers_match_the_untabled_relation_and_variants_share_a_table():
    plain, memo, calls = make_counted()
    a, b, c, d = vars(4)
    expected = run(0, (a, b), plain([1, 2, 3], a, b))
    assert run(0, (a, b), memo([1, 2, 3], a, b)) == expected
    assert run(0, (c, d), memo([1, 2, 3], c, d)) == expected  # a variant: replayed
    assert memo.stats.misses == 1 and memo.stats.hits == 1
    assert len(calls) == 2  # one by `plain`, one by the tabled miss


def test_different_calls_get_different_entries():
    _, memo, _ = make_counted()
    a, b = vars(2)
    assert run(0, a, memo([1, 2], a, [2])) == ([1],)
    assert run(0, a, memo([1, 2], a, [1])) == ()
    assert memo.stats.misses == 2


def test_replay_respects_the_callers_constraints_and_bindings():
    _, memo, _ = make_counted()
    a, b = vars(2)
    assert run(0, a, neq(a, []), memo([1, 2], a, b), neq(b, [])) == ([1],)
    assert run(0, b, eq(a, [1]), memo([1, 2], a, b)) == ([2],)


def test_answers_with_unbound_variables_are_renamed_apart_on_each_replay():
    memo = tabled(lambda x, y: eq(x, ("pair", y, var())))
    p, q = vars(2)
    first, second = run(1, (p, q), memo(p, "k"), memo(q, "k"))[0]
    assert first[1] == second[1] == "k"
    assert first[2] is not second[2]  # two uses do not share the answer's inner variable


def test_answers_with_constraints_are_refused():
    memo = tabled(lambda x: neq(x, 1))
    with pytest.raises(ModeError, match="constraints"):
        run(0, var(), memo(var()))


def test_recursive_call_of_an_unfinished_variant_is_refused():
    @tabled
    def patho(x, y):
        return conde([eq((x, y), ("a", "b"))], [lall(patho(x, var()), eq(y, "c"))])

    with pytest.raises(ModeError, match="recursive"):
        run(1, var(), patho("a", var()))


def test_clear_empties_the_table():
    _, memo, calls = make_counted()
    a, b = vars(2)
    run(0, a, memo([1], a, b))
    memo.clear()
    run(0, a, memo([1], a, b))
    assert memo.stats.misses == 1 and len(calls) == 2


def test_ground_call_with_membero_counts_successes():
    memo = tabled(lambda x: membero(x, [1, 2, 1]))
    q = var()
    assert run(0, q, memo(1)) == (q, q)
    assert run(0, q, memo(5)) == ()
