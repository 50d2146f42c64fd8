"""logicpy's search (logicpy.core.streams): @relation, recursion without Python stack,
linear conjunction, interleaving, time limits, the occurs check, misuse errors (issue 12)."""

from __future__ import annotations

import sys

import kanren
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import loops
from logicpy.core import (
    SearchTimeout, Table, conde, conj, cons, disj, eq, eq_oc, lall, membero, neq, permuteo, relation, run, succeed,
    var, vars,
)
from logicpy.errors import InputError, TermError


@relation
def reverseo(xs, acc, ys):
    """ys is xs reversed onto acc: the accumulator reverse a Prolog user writes first."""
    h, t = vars(2)
    return conde([eq(xs, []), eq(acc, ys)],
                 [eq(xs, cons(h, t)), reverseo(t, cons(h, acc), ys)])


@relation
def pluso(n, m, s):
    """Peano addition: n + m = s, numbers as "z", ("s", "z"), ..."""
    a, b = vars(2)
    return conde([eq(n, "z"), eq(m, s)], [eq(n, ("s", a)), eq(s, ("s", b)), pluso(a, m, b)])


@relation
def multo(n, m, p):
    """Peano multiplication: n * m = p (the textbook definition; it diverges on some branches)."""
    a, q = vars(2)
    return conde([eq(n, "z"), eq(p, "z")], [eq(n, ("s", a)), pluso(m, q, p), multo(a, m, q)])


@relation
def nato(n):
    """n is a Peano natural: endless."""
    m = var()
    return conde([eq(n, "z")], [eq(n, ("s", m)), nato(m)])


def peano(k):
    t = "z"
    for _ in range(k):
        t = ("s", t)
    return t


def from_peano(t):
    k = 0
    while t != "z":
        t, k = t[1], k + 1
    return k


def chain_table(n):
    parent = Table("parent", 2)
    parent.extend((f"p{i}", f"p{i + 1}") for i in range(n))

    @relation
    def ancestoro(a, d):
        z = var()
        return conde([parent(a, d)], [parent(a, z), ancestoro(z, d)])

    return ancestoro


def test_recursion_deeper_than_the_python_stack_at_the_default_limit():
    n = sys.getrecursionlimit() + 500
    q = var()
    assert run(0, q, reverseo(list(range(n)), [], q)) == (list(range(n))[::-1],)
    ancestoro = chain_table(n)
    got = run(0, q, ancestoro("p0", q))
    assert got == tuple(f"p{i}" for i in range(1, n + 1))


@pytest.mark.slow
def test_reverse_and_ancestor_chain_of_10000():
    q = var()
    assert run(1, q, reverseo(list(range(10_000)), [], q)) == (list(range(9_999, -1, -1)),)
    assert len(run(0, q, chain_table(10_000)("p0", q))) == 10_000


def test_reverse_runs_backwards_too():
    q = var()
    assert run(1, q, reverseo(q, [], [1, 2, 3])) == ([3, 2, 1],)


def test_a_diverging_branch_does_not_kill_the_run():
    """The miniKanren interleaving: multo(x, y, 6) has an endless branch (x * 0 = 6)."""
    x, y = vars(2)
    got = run(4, (x, y), multo(x, y, peano(6)))
    assert sorted((from_peano(a), from_peano(b)) for a, b in got) == [(1, 6), (2, 3), (3, 2), (6, 1)]


def test_run_n_over_an_endless_relation():
    x = var()
    assert [from_peano(t) for t in run(5, x, nato(x))] == [0, 1, 2, 3, 4]


def test_an_endless_search_under_a_time_limit_stops_cleanly():
    x = var()

    @relation
    def loopo(v):
        return loopo(v)

    with pytest.raises(SearchTimeout, match="0 found") as caught:
        run(1, x, loopo(x), timeout=0.2)
    assert caught.value.answers == ()
    with pytest.raises(SearchTimeout) as caught:
        run(0, x, nato(x), timeout=0.2)
    got = [from_peano(t) for t in caught.value.answers]
    assert got == list(range(len(got))) and got  # the answers before the limit, in order


def test_conjunction_after_a_long_stream_is_linear_and_exact():
    x = var()
    n = 8_000
    assert run(0, x, membero(x, list(range(n))), succeed) == tuple(range(n))
    # permutations of 6, then succeed: every permutation once
    xs = var()
    assert len(set(map(tuple, run(0, xs, permuteo([1, 2, 3, 4, 5, 6], xs), succeed)))) == 720


def test_a_conjunction_of_ten_thousand_goals():
    x = var()
    goals = [membero(x, [1, 2, 3])] + [membero(x, [3, 2])] * 10_000
    assert run(0, x, *goals) == (2, 3)
    assert run(0, x, membero(x, [1, 2, 3]), *[disj(eq(x, 2), eq(x, 3))] * 1_000) == (2, 3)
    assert run(0, x, conj(*goals), eq(x, 3)) == (3,)


def test_two_hop_join_over_facts():
    e = Table("e", 2)
    e.extend((i, (i * 7 + 3) % 2_000) for i in range(2_000))
    x, y, z = vars(3)
    got = run(0, (x, z), e(x, y), e(y, z))
    expected = [(i, ((i * 7 + 3) % 2_000 * 7 + 3) % 2_000) for i in range(2_000)]
    assert sorted(got) == sorted(expected)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=6), st.lists(st.integers(0, 5), max_size=6),
       st.lists(st.integers(0, 5), max_size=4))
def test_same_answers_as_kanrens_lall_and_conde(a, b, c):
    x, y = vars(2)
    mine = run(0, (x, y), membero(x, a), conde([membero(y, b)], [membero(y, c), eq(x, y)]))
    theirs = kanren.run(0, (x, y), kanren.lall(membero(x, a), kanren.conde([membero(y, b)],
                                                                           [membero(y, c), eq(x, y)])))
    assert sorted(mine) == sorted(theirs)
    # in Prolog's order all answers of the first goal's first answer come first
    assert run(0, (x, y), membero(x, a), membero(y, b), order="prolog") == tuple((p, q) for p in a for q in b)
    # interleaved, each answer of membero goes on in a task of its own, as member/2's clauses do
    with loops.disabled():
        as_clauses = run(0, (x, y), membero(x, a), membero(y, b))
    assert run(0, (x, y), membero(x, a), membero(y, b)) == as_clauses


def test_lall_and_conj_are_one_goal_and_disj_interleaves():
    x = var()
    assert lall is conj
    assert run(0, x, disj(membero(x, [1, 2]), membero(x, [3, 4]))) == (1, 3, 2, 4)
    assert run(0, x, conj()) == (x,) and run(0, x, disj()) == ()


def test_occurs_check_fails_the_cyclic_binding():
    x, y, t = vars(3)
    assert run(0, x, eq_oc(x, ("f", x))) == ()
    assert run(0, x, eq_oc(x, ("f", y))) == (("f", y),)
    assert run(0, x, eq(x, ("f", x)), occurs_check=True) == ()
    assert run(0, x, eq(x, [1, cons(2, x)]), occurs_check=True) == ()
    # typing λx. x x: x : t must be t -> b; with the check there is no type
    b = var()
    assert run(0, t, eq(t, ("->", t, b)), occurs_check=True) == ()


def test_without_the_check_a_cyclic_binding_never_hangs():
    x, y, q = vars(3)
    # unifying two cyclic terms terminates (rational trees), and printing one is refused
    assert run(0, q, eq(x, ("f", x)), eq(y, ("f", y)), eq(x, y), eq(q, 1)) == (1,)
    assert run(0, q, eq(x, ("f", x)), eq(y, ("f", ("f", y))), eq(x, y), eq(q, 1)) == (1,)
    assert run(0, q, eq(x, ("f", x)), eq(x, ("f", ("g",))), eq(q, 1)) == ()
    with pytest.raises(TermError, match="cyclic"):
        run(0, x, eq(x, ("f", x)))


def test_misuse_is_named():
    x = var()
    with pytest.raises(InputError, match="clause 1 is a goal, not a list of goals"):
        conde(eq(x, 1), eq(x, 2))
    with pytest.raises(InputError, match="not a goal"):
        conde([eq(x, 1), 3])
    with pytest.raises(TermError, match="None is not a logicpy term"):
        eq(x, None)
    with pytest.raises(TermError, match=r"\{'a': 1\}"):
        eq(x, {"a": 1})
    with pytest.raises(TermError, match=r"eq: left\[1\]"):
        eq(("f", None), x)
    assert run(0, x, eq((x, 2), (1, 2))) == (1,)  # tuples as pairs, as kanren code writes them
    with pytest.raises(InputError, match="got -1"):
        run(-1, x, eq(x, 1))
    with pytest.raises(InputError, match="timeout"):
        run(1, x, eq(x, 1), timeout=0)
    with pytest.raises(InputError, match="takes 3 arguments, got 2"):
        reverseo([1], [])


@relation
def lookupo(gamma, x, t):
    y, ty, rest = vars(3)
    return conde([eq(gamma, cons((x, t), rest))],
                 [eq(gamma, cons((y, ty), rest)), neq(x, y), lookupo(rest, x, t)])


@relation
def typeo(gamma, expr, t):
    """The simply typed λ-calculus: ("var", x), ("lam", x, body), ("app", f, a)."""
    x, body, targ, tres, f, a = vars(6)
    return conde(
        [eq(expr, ("var", x)), lookupo(gamma, x, t)],
        [eq(expr, ("lam", x, body)), eq(t, ("->", targ, tres)), typeo(cons((x, targ), gamma), body, tres)],
        [eq(expr, ("app", f, a)), typeo(gamma, f, ("->", targ, t)), typeo(gamma, a, targ)],
    )


def test_typing_self_application_never_hangs():
    """λx. x x has no simple type: with the occurs check there is no answer; without it the
    answer would be a cyclic type, which `run` refuses instead of looping (issue 12, §3)."""
    omega = ("lam", "x", ("app", ("var", "x"), ("var", "x")))
    t = var()
    assert run(0, t, typeo([], omega, t), occurs_check=True) == ()
    with pytest.raises(TermError, match="cyclic"):
        run(1, t, typeo([], omega, t))
    # the checker itself is right: λx. λy. x y has type (a -> b) -> a -> b
    got = run(1, t, typeo([], ("lam", "x", ("lam", "y", ("app", ("var", "x"), ("var", "y")))), t), occurs_check=True)
    [(arrow, (arrow1, a, b), (arrow2, a2, b2))] = got
    assert arrow == arrow1 == arrow2 == "->"
    assert a is a2 and b is b2 and a is not b


def test_generating_typed_terms_with_the_type_open_runs_on():
    """Term generation with the type left open: answers come, none is cyclic."""
    e, t = vars(2)
    got = run(5, (e, t), typeo([], e, t), occurs_check=True)
    assert len(got) == 5 and all(term[0] in ("lam", "app") for term, _ in got)
