"""List relations: every mode (forwards, backwards, generatively), partial lists, long lists,
and the kanren 1.0.5 weaknesses they must not inherit."""

from __future__ import annotations

import itertools

import kanren
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import loops
from logicpy.core import (
    adjacento,
    appendo,
    cons,
    disequalities,
    distincto,
    eq,
    isvar,
    lengtho,
    membero,
    neq,
    nth1o,
    permuteo,
    rembero,
    run,
    selecto,
    var,
    vars,
)
from logicpy.errors import ModeError, TermError

small_lists = st.lists(st.integers(0, 3), max_size=5)


# --- membero ------------------------------------------------------------------------------

def test_membero_forwards_backwards():
    x = var()
    assert run(0, x, membero(x, [1, 2, 3])) == (1, 2, 3)
    assert run(0, x, membero(2, [1, x])) == (2,)
    assert run(0, x, membero(4, [1, 2, 3])) == ()
    assert run(0, x, membero(x, [1, 2]), membero(x, [2, 3])) == (2,)


def test_membero_duplicates_give_one_answer_per_position():
    x = var()
    assert run(0, x, membero(x, [1, 1])) == (1, 1)


def test_membero_extends_a_partial_list_like_member():
    tail, x = var(), var()
    answers = run(3, tail, membero(9, cons(1, tail)))
    # [1 | T]: T = [9 | _], then [_, 9 | _], then [_, _, 9 | _]
    for position, answer in enumerate(answers):
        assert run(1, x, nth1o(position + 1, answer, x)) == (9,)
        assert all(isvar(run(1, x, nth1o(k, answer, x))[0]) for k in range(1, position + 1))
    assert len(answers) == 3


def test_membero_on_10000_elements_completes_and_is_right():
    items = list(range(10_000))
    x = var()
    assert run(1, x, membero(9_999, items), eq(x, "found")) == ("found",)
    assert run(0, x, membero(x, items)) == tuple(items)


def test_kanren_membero_has_the_recursion_weakness_ours_fixes():
    """Documents the kanren 1.0.5 bug the previous test guards against."""
    x = kanren.var()
    with pytest.raises(RecursionError):
        kanren.run(1, x, kanren.membero(999, list(range(1000))))
    assert run(1, x, membero(999, list(range(1000))), eq(x, 1)) == (1,)


def test_list_argument_literals_are_checked():
    with pytest.raises(TermError, match="compound"):
        membero(1, (1, 2))
    with pytest.raises(TermError, match="appendo: argument zs"):
        appendo([], [], "abc")


# --- appendo ------------------------------------------------------------------------------

def test_appendo_backwards_gives_the_four_splits_in_order():
    x, y = var(), var()
    assert run(0, (x, y), appendo(x, y, [1, 2, 3])) == (
        ([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))


def test_appendo_forwards_and_middle():
    x = var()
    assert run(0, x, appendo([1, 2], [3], x)) == ([1, 2, 3],)
    assert run(0, x, appendo([1], x, [1, 2, 3])) == ([2, 3],)
    assert run(0, x, appendo(x, [3], [1, 2, 3])) == ([1, 2],)
    assert run(0, x, appendo(x, [4], [1, 2, 3])) == ()


def test_appendo_generates_with_everything_unbound():
    x, y, z = vars(3)
    answers = run(5, (x, y, z), appendo(x, y, z))
    assert [len(xs) for xs, _, _ in answers] == [0, 1, 2, 3, 4]
    # closing y shows z = x ++ y
    xs, ys, zs = answers[2]
    assert isvar(ys)
    assert run(1, zs, eq(ys, ["end"])) == (xs + ["end"],)


def test_appendo_with_a_known_suffix_keeps_only_splits_that_fit():
    x, y, t = vars(3)
    assert run(0, x, appendo(x, [3], [1, 2, 3])) == ([1, 2],)
    assert run(0, (x, y), appendo(x, cons(2, y), [1, 2, 3])) == (([1], [3]),)
    assert run(0, x, appendo(x, [1, 2, 3, 4], [1, 2, 3])) == ()
    first, second = run(2, (x, t), appendo(x, [9], cons(1, t)))
    assert first == ([1], [9])
    (one, middle), (middle_again, nine) = second[0], second[1]
    assert one == 1 and isvar(middle) and middle_again is middle and nine == 9


def test_appendo_with_partial_lists_fails_finitely_on_a_clash():
    x, y, t = vars(3)
    assert run(0, x, appendo(cons(1, x), y, cons(2, t))) == ()


def test_appendo_on_10000_elements():
    items = list(range(10_000))
    x, y = var(), var()
    assert run(0, x, appendo(items, items, x)) == (items + items,)
    assert run(0, y, appendo(items[:9_998], y, items)) == ([9_998, 9_999],)
    assert run(0, x, appendo(x, [9_999], items)) == (items[:-1],)
    assert run(0, x, appendo(x, cons(9_998, y), items)) == (items[:-2],)


@given(small_lists)
@settings(max_examples=40, deadline=None)
def test_appendo_backwards_agrees_with_python_splits(items):
    x, y = var(), var()
    expected = tuple((items[:i], items[i:]) for i in range(len(items) + 1))
    assert run(0, (x, y), appendo(x, y, items)) == expected


# --- lengtho ------------------------------------------------------------------------------

def test_lengtho_all_modes():
    n, xs = var(), var()
    assert run(0, n, lengtho([1, 2, 3], n)) == (3,)
    (rest,) = run(0, xs, lengtho(cons(1, xs), 3))
    assert len(rest) == 2 and all(isvar(v) for v in rest)
    (three,) = run(0, xs, lengtho(xs, 3))
    assert len(three) == 3 and all(isvar(v) for v in three)
    assert run(0, xs, lengtho(cons(1, 2, xs), 1)) == ()
    assert run(1, n, lengtho(cons(1, xs), n), eq(xs, [2])) == (2,)  # run(0) would search on, as in Prolog


def test_lengtho_generates_lists_of_increasing_length():
    xs, n = var(), var()
    answers = run(5, (xs, n), lengtho(xs, n))
    assert [k for _, k in answers] == [0, 1, 2, 3, 4]
    assert [len(lst) for lst, _ in answers] == [0, 1, 2, 3, 4]


def test_lengtho_rejects_a_non_integer_length():
    with pytest.raises(TermError, match="got three$"):
        run(0, var(), lengtho([1], "three"))


# --- selecto ------------------------------------------------------------------------------

def test_selecto_forwards_backwards_generative():
    x, rest, xs = vars(3)
    assert run(0, (x, rest), selecto(x, [1, 2, 3], rest)) == ((1, [2, 3]), (2, [1, 3]), (3, [1, 2]))
    assert run(0, xs, selecto(0, xs, [1, 2])) == ([0, 1, 2], [1, 0, 2], [1, 2, 0])
    assert run(0, rest, selecto(2, [1, 2, 3, 2], rest)) == ([1, 3, 2], [1, 2, 3])
    assert len(run(4, (x, xs, rest), selecto(x, xs, rest))) == 4


@given(small_lists)
@settings(max_examples=30, deadline=None)
def test_selecto_agrees_with_python(items):
    x, rest = var(), var()
    expected = tuple((v, items[:i] + items[i + 1:]) for i, v in enumerate(items))
    assert run(0, (x, rest), selecto(x, items, rest)) == expected


# --- rembero ------------------------------------------------------------------------------

def test_rembero_removes_the_first_occurrence_only():
    ys = var()
    assert run(0, ys, rembero(2, [1, 2, 3, 2], ys)) == ([1, 3, 2],)
    assert run(0, ys, rembero(5, [1, 2], ys)) == ([1, 2],)


def test_rembero_backwards_and_with_unbound_x():
    x, xs, ys = vars(3)
    assert run(0, xs, rembero(1, xs, [2, 3])) == ([1, 2, 3], [2, 1, 3], [2, 3, 1], [2, 3])
    answers = run(0, (x, ys), rembero(x, [1, 2], ys))
    assert answers[:2] == ((1, [2]), (2, [1]))
    # third answer: x differs from 1 and 2, nothing removed; the residual disequalities show
    x_rf, ys_rf = answers[2]
    assert ys_rf == [1, 2] and isvar(x_rf)
    S_absent = list(rembero(x, [1, 2], ys)({}))[2]
    assert sorted(disequalities(S_absent), key=repr) == [(x, 1), (x, 2)]
    assert run(0, x, rembero(x, [1, 2], [1, 2]), membero(x, [1, 2, 3])) == (3,)


def test_rembero_matches_kanrens_meaning_on_ground_lists():
    ys = kanren.var()
    for items in ([1, 2, 3], [2, 2], []):
        assert run(0, ys, rembero(2, items, ys)) == kanren.run(0, ys, kanren.rembero(2, items, ys))


# --- permuteo -----------------------------------------------------------------------------

def test_permuteo_backwards_in_lexicographic_order():
    xs = var()
    expected = tuple(list(p) for p in itertools.permutations([1, 2, 3]))
    assert run(0, xs, permuteo(xs, [1, 2, 3])) == expected
    assert run(0, xs, permuteo([1, 2, 3], xs)) == expected


def test_permuteo_checks_ground_lists_once():
    q = var()
    assert run(0, q, permuteo([1, 2, 2], [2, 1, 2])) == (q,)
    assert run(0, q, permuteo([1, 2, 2], [2, 1, 1])) == ()
    assert run(0, q, permuteo([1, 2], [1, 2, 3])) == ()


def test_permuteo_fills_in_partial_knowledge():
    a, b = var(), var()
    assert run(0, (a, b), permuteo([1, 2, 3], [3, a, b])) == ((1, 2), (2, 1))


def test_permuteo_generates_lengths_in_order():
    xs, ys = var(), var()
    answers = run(5, (xs, ys), permuteo(xs, ys))
    assert [len(x) for x, _ in answers] == [0, 1, 2, 2, 3]


@given(st.lists(st.integers(0, 9), max_size=4, unique=True))
@settings(max_examples=30, deadline=None)
def test_permuteo_agrees_with_itertools(items):
    xs = var()
    assert run(0, xs, permuteo(items, xs)) == tuple(list(p) for p in itertools.permutations(items))


# --- distincto ----------------------------------------------------------------------------

def test_distincto_ground_and_constrained():
    q, r = var(), var()
    assert run(0, q, distincto([1, 2, 3])) == (q,)
    assert run(0, q, distincto([1, 2, 1])) == ()
    assert run(0, q, distincto([1, q]), membero(q, [1, 2, 3])) == (2, 3)
    # the constraints compose with goals that come later: in Prolog's order as SWI's
    # dif(Q, R), member(Q, [1,2]), member(R, [1,2]); in the interleaved order as member's
    # clauses interleave in a state with constraints (each alternative a task of its own)
    goals = (distincto([q, r]), membero(q, [1, 2]), membero(r, [1, 2]))
    assert run(0, (q, r), *goals, order="prolog") == ((1, 2), (2, 1))
    assert run(0, (q, r), *goals) == ((2, 1), (1, 2))
    with loops.disabled():
        assert run(0, (q, r), *goals) == ((2, 1), (1, 2))


def test_distincto_keeps_earlier_constraints():
    q = var()
    assert run(0, q, neq(q, 2), distincto([1, q]), membero(q, [1, 2, 3])) == (3,)


def test_distincto_on_a_partial_list_raises_mode_error():
    t = var()
    with pytest.raises(ModeError, match="partial list"):
        run(1, t, distincto(cons(1, t)))


def test_distincto_on_10000_ground_elements():
    q = var()
    assert run(0, q, distincto(list(range(10_000)))) == (q,)
    assert run(0, q, distincto(list(range(10_000)) + [5])) == ()


# --- nth1o and adjacento ------------------------------------------------------------------

def test_nth1o_all_modes():
    n, x, xs = vars(3)
    assert run(0, x, nth1o(2, ["a", "b", "c"], x)) == ("b",)
    assert run(0, n, nth1o(n, ["a", "b", "a"], "a")) == (1, 3)
    assert run(0, x, nth1o(4, ["a"], x)) == ()
    (grown,) = run(0, xs, nth1o(3, cons("a", xs), "z"))
    assert run(1, x, eq(cons(x, "z", var()), grown)) != ()
    assert [k for k, _ in run(3, (n, x), nth1o(n, xs, x))] == [1, 2, 3]


def test_adjacento_all_modes():
    x, y, t = vars(3)
    assert run(0, (x, y), adjacento(x, y, [1, 2, 3])) == ((1, 2), (2, 3))
    assert run(0, x, adjacento(x, 3, [1, 2, 3])) == (2,)
    assert run(0, x, adjacento(3, x, [1, 2, 3])) == ()
    assert len(run(3, (x, y), adjacento(x, y, cons(1, t)))) == 3
