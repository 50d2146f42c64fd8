"""onceo, unique_by (the general form of the gods' signature deduplication), conda, condu."""

from __future__ import annotations

import pytest

from logicpy.core import (
    appendo, conda, conde, condu, eq, lall, lengtho, membero, onceo, run, unique_by, var, vars,
)
from logicpy.errors import InputError


def test_onceo_keeps_the_first_answer_of_an_infinite_goal():
    xs, n = var(), var()
    assert run(0, n, onceo(lengtho(xs, n))) == (0,)
    assert run(0, n, onceo(membero(n, []))) == ()


def test_onceo_is_per_entry_state():
    x, y = var(), var()
    # once per x, not once overall
    assert run(0, (x, y), membero(x, [1, 2]), onceo(membero(y, [x, 9]))) == ((1, 1), (2, 2))


def test_unique_by_term_key_keeps_first_per_key():
    x, y = var(), var()
    pairs = [(1, "a"), (2, "b"), (1, "c"), (3, "d"), (2, "e")]
    assert run(0, (x, y), unique_by(x, membero((x, y), pairs))) == ((1, "a"), (2, "b"), (3, "d"))


def test_unique_by_function_key_with_unhashable_values():
    xs = var()
    words = [["a"], ["b", "c"], ["d"], ["e", "f"], []]
    assert run(0, xs, unique_by(len, membero(xs, words), of=xs)) == (["a"], ["b", "c"], [])
    # list-valued keys are fine: keep one list per sorted content
    bags = [[2, 1], [1, 2], [3]]
    assert run(0, xs, unique_by(sorted, membero(xs, bags), of=xs)) == ([2, 1], [3])


def test_unique_by_signature_dedup_over_a_generated_stream():
    """The gods idea: of many generated terms, keep one per 'signature'."""
    x, y = var(), var()
    # splits of [1, 2, 3, 4]; signature = length of the prefix modulo 2
    n = var()
    kept = run(0, x, unique_by(lambda k: k % 2, lall(appendo(x, y, [1, 2, 3, 4]), lengtho(x, n)), of=n))
    assert kept == ([], [1])


def test_unique_by_seen_set_belongs_to_each_entry_state():
    x, y = var(), var()
    got = run(0, (x, y), membero(x, ["p", "q"]), unique_by(y, membero(y, [1, 1, 2])))
    assert sorted(got) == [("p", 1), ("p", 2), ("q", 1), ("q", 2)]


def test_unique_by_rejects_misuse():
    x = var()
    with pytest.raises(InputError, match="of=term"):
        unique_by(len, membero(x, [[1]]))
    with pytest.raises(InputError, match="key function"):
        unique_by(x, membero(x, [1]), of=x)


def test_conda_commits_to_the_first_clause_whose_head_succeeds():
    q = var()
    assert run(0, q, conda([membero(q, [1, 2])], [eq(q, 3)])) == (1, 2)
    assert run(0, q, conda([membero(q, [])], [eq(q, 3)])) == (3,)
    assert run(0, q, conda([membero(q, [])])) == ()
    # body runs over every head answer
    a, b = vars(2)
    assert sorted(run(0, (a, b), conda([membero(a, [1, 2]), membero(b, ["x", "y"])]))) == [
        (1, "x"), (1, "y"), (2, "x"), (2, "y")]


def test_condu_keeps_one_head_answer_unlike_conde():
    q = var()
    assert run(0, q, condu([membero(q, [1, 2])], [eq(q, 3)])) == (1,)
    assert sorted(run(0, q, conde([membero(q, [1, 2])], [eq(q, 3)]))) == [1, 2, 3]


def test_recursion_through_committed_choice_costs_no_python_stack():
    """Prolog's if-then-else in a recursive predicate (issue 12): the body after condu /
    conda / onceo goes on in the caller's search, so 3,000 levels run at the default limit."""
    from logicpy.core import cons, relation

    @relation
    def lasto(xs, x):
        t = var()
        return condu([eq(xs, [x])], [eq(xs, cons(var(), t)), lasto(t, x)])

    @relation
    def counto(n, out):
        return conda([eq(n, 0), eq(out, "done")], [onceo(membero(n, [n])), counto(n - 1, out)])

    q = var()
    assert run(0, q, lasto(list(range(3_000)), q)) == (2_999,)
    assert run(0, q, counto(3_000, q)) == ("done",)


def test_committed_choice_clauses_are_checked():
    with pytest.raises(InputError, match="clause 2 must be a non-empty list"):
        conda([eq(var(), 1)], [])
