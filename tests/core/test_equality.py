"""Unification is Prolog's term identity, not Python's ==: 1, 1.0 and True are three terms.

Issue 7's reproductions, one test each; properties on random mixed terms against a
reference identity written here; and a cross-check against SWI-Prolog's =/2.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from logicpy import swi
from logicpy.core import (
    Table,
    cons,
    distincto,
    eq,
    membero,
    neq,
    permuteo,
    run,
    tabled,
    unify,
    unique_by,
    var,
)
from logicpy.core._spine import hashable_key

# ---------------------------------------------------------------- the reproductions


def test_an_int_and_a_float_are_different_terms():
    x = var()
    assert run(0, x, eq(x, 1), eq(x, 1.0)) == ()  # SWI: X = 1, X = 1.0 fails
    assert run(0, x, eq(x, 1), eq(x, 1)) == (1,)
    assert run(0, x, eq(x, 1.0), eq(x, 1.0)) == (1.0,)


def test_true_is_the_atom_true_never_the_integer_1():
    x = var()
    assert run(0, x, eq(x, 1), eq(x, True)) == ()
    assert run(0, x, eq(x, 0), eq(x, False)) == ()
    assert run(0, x, eq(x, 1.0), eq(x, True)) == ()
    # True and False are the atoms true and false (as the bridge and JSON write them)
    assert run(0, x, eq(x, True), eq(x, "true")) == (True,)
    assert run(0, x, eq(x, "false"), eq(x, False)) == ("false",)
    assert run(0, x, eq(x, True), eq(x, "false")) == ()


def test_membero_fast_path_compares_types():
    q = var()
    assert run(0, q, membero(1.0, [1])) == ()
    assert run(0, q, membero(1, [1.0, True, "1", 1])) == (q,)
    assert run(0, q, membero(q, [1, 1.0, True]), membero(q, [True])) == (True,)


def test_neq_tells_an_int_from_a_float():
    x = var()
    assert run(0, x, neq(x, 1), eq(x, 1.0)) == (1.0,)
    assert run(0, x, neq(x, True), eq(x, 1)) == (1,)
    assert run(0, x, neq(x, True), eq(x, "true")) == ()


def test_table_index_and_rows_tell_1_from_true():
    t = Table.from_rows("t", [(1, "one"), (True, "true"), (1.0, "one point oh")])
    q = var()
    assert len(t) == 3
    assert run(0, q, t(1, q)) == ("one",)
    assert run(0, q, t(True, q)) == ("true",)
    assert run(0, q, t("true", q)) == ("true",)
    assert run(0, q, t(1.0, q)) == ("one point oh",)
    k = var()
    assert run(0, q, eq(k, 1), t(k, q)) == ("one",)  # the index is used after walking k
    assert len(Table.from_rows("u", [(True,), ("true",)])) == 1  # one fact, two spellings


def test_the_two_zeros_are_different_floats():
    x = var()
    assert run(0, x, eq(x, -0.0), eq(x, 0.0)) == ()
    assert run(0, x, eq(x, 0.0), eq(x, 0.0)) == (0.0,)
    assert run(0, x, membero(-0.0, [0.0])) == ()


def test_compound_terms_compare_their_arguments_strictly():
    x = var()
    assert unify((1,), (1.0,), {}) is False
    assert unify([1], [True], {}) is False
    assert run(0, x, eq(x, ("f", 1)), eq(x, ("f", 1.0))) == ()
    assert run(0, x, eq(x, [0.0]), eq([-0.0], x)) == ()


def test_rationals_follow_prolog():
    x = var()
    assert run(0, x, eq(x, Fraction(1, 2)), eq(x, 0.5)) == ()
    assert run(0, x, eq(x, Fraction(2, 1)), eq(x, 2)) == (Fraction(2, 1),)  # 2r1 is 2 in Prolog


def test_keys_of_tables_tabling_and_unique_by_follow_unification():
    calls = []

    @tabled
    def pairo(x, y):
        calls.append(x)
        return eq(y, ("p", x))

    y = var()
    assert run(0, y, pairo(1, y)) == (("p", 1),)
    assert run(0, y, pairo(1.0, y)) == (("p", 1.0),)  # a different call, not a replay of 1's
    assert run(0, y, pairo(True, y)) == (("p", True),)
    assert calls == [1, 1.0, True] and pairo.stats.misses == 3
    q = var()
    assert run(0, q, unique_by(q, membero(q, [1, 1.0, True, "true", 0.0, -0.0]))) == (1, 1.0, True, 0.0, -0.0)
    assert run(0, q, distincto([1, 1.0, True, -0.0, 0.0]))
    assert not run(0, q, distincto([True, "true"]))
    assert run(0, q, permuteo([1, 1.0], [1.0, 1])) and not run(0, q, permuteo([1, 1], [1.0, 1]))


# ---------------------------------------------------------------- properties


def identical(a, b) -> bool:
    """Prolog's ==/2 on ground terms, written from the rules (bools are the atoms true/false)."""
    if isinstance(a, bool):
        a = "true" if a else "false"
    if isinstance(b, bool):
        b = "true" if b else "false"
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


atomics = st.sampled_from([0, 1, 2, 0.0, -0.0, 1.0, 2.5, True, False, "true", "false", "a", "1"])
ground_terms = st.recursive(
    atomics,
    lambda sub: st.one_of(st.lists(sub, max_size=3), st.tuples(st.sampled_from(["f", "g"]), sub, sub)),
    max_leaves=6,
)


@st.composite
def near_pairs(draw):
    """Two ground terms, often of one shape, so that they differ only in leaves."""
    u = draw(ground_terms)
    if draw(st.booleans()):
        return u, draw(ground_terms)

    def reshape(t):
        if isinstance(t, list):
            return [reshape(x) for x in t]
        if isinstance(t, tuple):
            return (t[0], *map(reshape, t[1:]))
        return draw(atomics)

    return u, reshape(u)


@given(near_pairs())
@settings(max_examples=300)
def test_unify_succeeds_iff_the_terms_are_identical(pair):
    u, v = pair
    expected = identical(u, v)
    assert (unify(u, v, {}) is not False) == expected
    x = var()
    assert bool(run(0, x, eq(x, u), eq(x, v))) == expected  # through a bound variable
    assert bool(run(0, x, eq(x, [u]), eq([v], x))) == expected
    assert (hashable_key(u) == hashable_key(v)) == expected  # Table, tabling and unique_by keys
    assert bool(run(0, x, membero(u, [v]))) == expected


@pytest.mark.swi
@given(near_pairs())
@settings(max_examples=60)
def test_unify_agrees_with_swi(pair):
    u, v = pair
    assert bool(swi.query(("=", u, v))) == (unify(u, v, {}) is not False)


def test_kanrens_permuteq_is_not_offered_it_counts_by_python_hashing():
    import kanren

    import logicpy.core as core

    q = var()
    assert kanren.run(0, q, kanren.permuteq((1, 2), (2.0, 1)))  # 1 and 1.0 cancel in its Counter
    assert not hasattr(core, "permuteq")
    assert run(0, q, permuteo([1, 2], [2.0, 1])) == ()


# ---------------------------------------------------------------- the dict fast path (issue 12)

from cons import cons as _cons  # noqa: E402
from unification import reify as _reify  # noqa: E402


def _terms(variables):
    leaves = st.one_of(st.sampled_from(variables), st.sampled_from([0, 1, 1.0, -0.0, 0.0, True, "a", "true", "b"]))
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(st.sampled_from(["f", "g"]), inner, inner),
        st.builds(lambda h, t: __import__("cons").cons(h, t), inner, st.one_of(st.sampled_from(variables),
                                                                                 st.lists(inner, max_size=2))),
        # a list ending in a compound: logicpy's cons keeps the cell (the cons package's would make a tuple)
        st.builds(cons, inner, st.tuples(st.sampled_from(["f", "g"]), inner)),
    ), max_leaves=8)


_VARS = [var(f"v{i}") for i in range(4)]


@settings(max_examples=300, deadline=None)
@given(_terms(_VARS), _terms(_VARS), st.lists(st.tuples(st.sampled_from(_VARS[:2]), _terms(_VARS[2:])), max_size=2))
def test_the_fast_path_agrees_with_the_general_unifier(u, v, bindings):
    from immutables import Map
    from unification.core import _reify as _reify_dispatching
    from unification.core import stream_eval

    from logicpy.core.equality import reify_dict

    from logicpy.core.equality import _FALL_BACK, _unify_dict_fast, _unify_general, check_acyclic
    from logicpy.errors import TermError

    s: dict = {}
    for x, t in bindings:
        if x not in s:
            s[x] = t
    fast = _unify_dict_fast(u, v, s)
    slow = _unify_general(u, v, s)
    if fast is _FALL_BACK:
        return

    persistent = _unify_dict_fast(u, v, Map(s))  # run's substitution: the same answer
    assert (persistent is False) == (fast is False)
    if persistent is not False:
        assert type(persistent) is Map and dict(persistent) == fast
    assert (fast is False) == (slow is False)
    if fast is not False:
        cyclic = []
        for s_ in (slow, fast):  # a cyclic binding (no occurs check) can be printed by neither
            try:
                check_acyclic(_VARS, s_)
                cyclic.append(False)
            except TermError:
                cyclic.append(True)
        assert cyclic[0] == cyclic[1]  # and both made it; never reified below (that would not end)
        if cyclic[0]:
            return
        assert _reify((u, v, _VARS), fast) == _reify((u, v, _VARS), slow)
        # the fast reifier (the (object, dict) dispatch of reify) agrees with the dispatching one
        # in a logicpy state (there a list cell stays a cell whatever its tail)
        term = ("t", u, v, _VARS)
        expected = stream_eval(_reify_dispatching(term, Map(slow)))
        got = reify_dict(term, slow)
        assert repr(got) == repr(expected)  # repr tells 1, 1.0 and True, tuples and cons pairs apart


def test_a_variable_hashes_like_what_shows_it():
    """A variable is equal only to itself and hashes by identity; a reified variable with a
    residual domain (`FDVar`) stays equal to it and finds it in a dict; an unbound variable
    of a state with other constraints (`neq`) is shown as itself."""
    import copy
    import pickle

    from logicpy.core import domo, neq, run, var
    from logicpy.core.terms import Variable

    x, y, z = var("x"), var("y"), var("z")
    assert type(x) is Variable and hash(x) == object.__hash__(x)
    (shown,) = run(0, x, domo(x, [1, 2]))
    assert shown == x and x == shown and hash(shown) == hash(x) and {x: 1}[shown] == 1
    assert shown != y and y != shown
    ((a, (_, b)),) = run(0, (x, y), neq(x, 1), eq(y, ("f", z)))
    assert a is x and b is z
    assert len({x, y, var("x")}) == 3  # names are for display: fresh variables stay apart
    assert copy.copy(x) is x and copy.deepcopy([x, x])[0] is x
    back = pickle.loads(pickle.dumps(("f", x, x)))
    assert back[1] is back[2] and back[1] is not x and str(back[1]).startswith("~x_")
