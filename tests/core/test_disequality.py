"""Disequality (dif/2): a neq is the negation of the whole unifier, never of each binding.

kanren 1.0.5's store splits the unifier of neq([x, y], [2, 1]) into x != 2 *and* y != 1
(issue 7); these tests pin the reproductions, check random disequalities against brute
force over a small universe, and against SWI-Prolog's dif/2 on the same random terms.
"""

from __future__ import annotations

import itertools

import kanren
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy import swi
from logicpy.core import (
    Table,
    conde,
    distincto,
    domo,
    eq,
    labelo,
    membero,
    neq,
    rembero,
    run,
    var,
    vars,
)
from logicpy.core.disequality import DisequalityStore, disequalities
from logicpy.core.fd import FDStore

# ---------------------------------------------------------------- the reproductions


def test_neq_on_a_compound_is_one_disequality_as_dif_in_prolog():
    x, y = vars(2)
    goal = (neq([x, y], [2, 1]), membero(x, [1, 2]), membero(y, [1, 2]))
    # SWI: dif([X,Y],[2,1]), member(X,[1,2]), member(Y,[1,2]) has these three answers
    assert sorted(run(0, (x, y), *goal)) == [(1, 1), (1, 2), (2, 2)]
    # kanren 1.0.5's store keeps only (1, 2): it reads the unifier as x != 2 and y != 1
    kx, ky = kanren.var(), kanren.var()
    assert kanren.run(0, (kx, ky), kanren.constraints.neq([kx, ky], [2, 1]),
                      membero(kx, [1, 2]), membero(ky, [1, 2])) == ((1, 2),)


def test_neq_posted_after_the_bindings_and_between_them():
    x, y = vars(2)
    assert sorted(run(0, (x, y), membero(x, [1, 2]), neq([x, y], [2, 1]), membero(y, [1, 2]))) == [
        (1, 1), (1, 2), (2, 2)]
    assert sorted(run(0, (x, y), membero(x, [1, 2]), membero(y, [1, 2]), neq([x, y], [2, 1]))) == [
        (1, 1), (1, 2), (2, 2)]


def test_distincto_with_compound_elements():
    x, y = vars(2)
    answers = run(0, (x, y), distincto([[x, 1], [2, y]]), membero(x, [1, 2]), membero(y, [1, 2]))
    assert sorted(answers) == [(1, 1), (1, 2), (2, 2)]  # only [2, 1] = [2, 1] is excluded


def test_rembero_with_compound_elements_keeps_every_answer():
    x, y = vars(2)
    # [x, y] absent from [[1, 2]] means not (x = 1 and y = 2): three of the four pairs
    answers = run(0, (x, y), rembero([x, y], [[1, 2]], [[1, 2]]), membero(x, [1, 2]), membero(y, [2, 3]))
    assert sorted(answers) == [(1, 3), (2, 2), (2, 3)]
    ys = var()
    got = run(0, (x, ys), rembero([x, 1], [[2, 1], [1, 1]], ys), membero(x, [1, 2, 3]))
    assert sorted(got) == [(1, [[2, 1]]), (2, [[1, 1]]), (3, [[2, 1], [1, 1]])]


def test_table_lookups_keep_a_compound_disequality():
    t = Table.from_rows("t", [(1, 2), (1, 3), (2, 1), (2, 2)])
    x, y = vars(2)
    assert run(0, (x, y), neq([x, y], [2, 1]), t(x, y)) == ((1, 2), (1, 3), (2, 2))
    assert run(0, (x, y), t(x, y), neq([x, y], [2, 1])) == ((1, 2), (1, 3), (2, 2))


# ---------------------------------------------------------------- the store's semantics


def test_aliasing_variables_entails_a_pending_disequality():
    x, y, z = vars(3)
    assert run(0, x, neq(x, y), eq(x, z), eq(y, z)) == ()
    assert run(0, x, neq(x, y), eq(y, x)) == ()
    assert run(0, x, neq(("f", x, 1), ("f", y, 1)), eq(x, 3), eq(y, 3)) == ()
    assert len(run(0, x, neq(("f", x, 1), ("f", y, 2)), eq(x, y))) == 1  # can never be equal


def test_identical_terms_fail_at_once_and_non_unifiable_ones_leave_no_constraint():
    x = var()
    assert run(0, x, neq(("f", x), ("f", x))) == ()
    [S] = list(neq(("f", x), ("g", x))({}))
    assert disequalities(S) == [] and not isinstance(S, kanren.constraints.ConstrainedState)


def test_neq_does_not_leak_across_conde_branches():
    x, y = vars(2)
    answers = run(0, (x, y), conde([neq([x, y], [1, 1])], [eq(x, 1)]), eq(y, 1), membero(x, [1, 2]))
    assert sorted(answers) == [(1, 1), (2, 1)]


def test_disequalities_reports_the_residual_as_swi_writes_it():
    x, y = var("x"), var("y")
    [S] = list(neq([x, y], [2, 1])({}))
    assert disequalities(S) == [(("f", x, y), ("f", 2, 1))]
    [S_x2] = list(eq(x, 2)(S))
    assert disequalities(S_x2) == [(y, 1)]
    [S_x1] = list(eq(x, 1)(S))
    assert disequalities(S_x1) == []  # satisfied, so dropped
    assert disequalities({}) == []


def test_neq_and_the_fd_store_share_one_state():
    x, y = vars(2)
    goal = (domo(x, [1, 2]), domo(y, [1, 2]), neq([x, y], [2, 1]))
    [S] = list(kanren.lall(*goal)({}))
    assert set(S.constraints) == {FDStore, DisequalityStore}
    assert sorted(run(0, (x, y), *goal, labelo([x, y]))) == [(1, 1), (1, 2), (2, 2)]
    assert sorted(run(0, (x, y), neq([x, y], [2, 1]), domo(x, [1, 2]), domo(y, [1, 2]), labelo([x, y]))) == [
        (1, 1), (1, 2), (2, 2)]


# ---------------------------------------------------------------- properties against brute force

A, B, C = var("a"), var("b"), var("c")
UNIVERSE = [0, 1, "a"]
leaves = st.sampled_from([A, B, C, *UNIVERSE])
terms = st.recursive(
    leaves,
    lambda sub: st.one_of(
        st.lists(sub, max_size=3),
        st.tuples(st.sampled_from(["f", "g"]), sub),
        st.tuples(st.just("f"), sub, sub),
    ),
    max_leaves=6,
)


@st.composite
def term_pairs(draw):
    """Two random terms; half the time of one shape with random leaves, so they often unify."""
    u = draw(terms)
    if draw(st.booleans()):
        return u, draw(terms)

    def reshape(t):
        if isinstance(t, list):
            return [reshape(x) for x in t]
        if isinstance(t, tuple):
            return (t[0], *map(reshape, t[1:]))
        return draw(leaves)

    return u, reshape(u)


def _substitute(term, assignment):
    if isinstance(term, list):
        return [_substitute(t, assignment) for t in term]
    if isinstance(term, tuple):
        return tuple(_substitute(t, assignment) for t in term)
    return assignment.get(term, term) if isinstance(term, kanren.Var) else term


def _brute_force(pairs):
    """Assignments of a, b, c over UNIVERSE under which every pair (u, v) differs."""
    out = set()
    for values in itertools.product(UNIVERSE, repeat=3):
        assignment = dict(zip((A, B, C), values))
        # ints and strs only: Python's structural == is Prolog's identity on these terms
        if all(_substitute(u, assignment) != _substitute(v, assignment) for u, v in pairs):
            out.add(values)
    return out


def _enumerate():
    return [membero(v, UNIVERSE) for v in (A, B, C)]


@given(term_pairs(), st.integers(0, 3))
@settings(max_examples=150)
def test_neq_keeps_exactly_the_assignments_brute_force_keeps(pair, when):
    u, v = pair
    goals = _enumerate()
    goals.insert(when, neq(u, v))  # posted before, between and after the bindings
    assert set(run(0, (A, B, C), *goals)) == _brute_force([(u, v)])


@given(st.lists(term_pairs(), min_size=2, max_size=3))
@settings(max_examples=60)
def test_several_disequalities_hold_together(pairs):
    goals = [neq(u, v) for u, v in pairs] + _enumerate()
    assert set(run(0, (A, B, C), *goals)) == _brute_force(pairs)


goal_specs = st.one_of(
    st.tuples(st.just("neq"), term_pairs()),
    st.tuples(st.just("eq"), st.tuples(st.sampled_from([A, B, C]), leaves)),  # aliasing or binding
)


@given(st.lists(goal_specs, min_size=1, max_size=5))
@settings(max_examples=100)
def test_disequalities_mixed_with_aliasing_and_bindings_in_any_order(specs):
    goals = [neq(*pair) if kind == "neq" else eq(*pair) for kind, pair in specs]
    expected = set()
    for values in itertools.product(UNIVERSE, repeat=3):
        assignment = dict(zip((A, B, C), values))
        holds = [_substitute(u, assignment) == _substitute(v, assignment) for _, (u, v) in specs]
        if all(h == (kind == "eq") for h, (kind, _) in zip(holds, specs)):
            expected.add(values)
    assert set(run(0, (A, B, C), *goals, *_enumerate())) == expected


@pytest.mark.swi
@given(term_pairs())
@settings(max_examples=40)
def test_neq_agrees_with_swi_dif(pair):
    u, v = pair
    goal = ("dif", u, v)
    for x in (A, B, C):
        goal = (",", goal, ("member", x, UNIVERSE))
    swi_answers = {(a[A], a[B], a[C]) for a in swi.query(goal)}
    assert set(run(0, (A, B, C), neq(u, v), *_enumerate())) == swi_answers


def test_a_one_value_domain_meets_a_pending_disequality():
    x = var()
    assert run(0, x, domo(x, [3, 4]), neq(x, 3), domo(x, [3])) == ()
