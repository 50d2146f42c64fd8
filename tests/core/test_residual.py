"""Answers with their residual constraints (logicpy.core.residual): the canonical form is the
same constraint (brute force over a box of values), is unchanged by renaming variables and
reordering or reorienting constraints, and reads Prolog's residual goals the same way."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unification import Var, reify, unify

from logicpy.core import (
    abs_diffo, all_differento, domo, eq, eq_offseto, leqo, lto, neq, neq_offseto, sumo, var,
)
from logicpy.core.residual import answers_with_constraints, reify_with_constraints, residual_from_goals

BOX = range(-3, 4)
PL = Path(__file__).resolve().parents[2] / "logicpy" / "data" / "prolog" / "constraints.pl"


def texts(term, *goals):
    return [str(r) for r in answers_with_constraints(term, *goals)]


# ------------------------------------------------------------------ known answers


def test_disequality_and_domain_are_part_of_the_answer():
    x = var()
    assert texts([x], neq(x, 1), domo(x, range(4))) == ["[_0] :- _0 in 0..3, dif(_0,1)"]


def test_a_pending_propagator_between_unlabelled_variables():
    x, y = var(), var()
    assert texts([x, y], lto(x, y)) == ["[_0,_1] :- _0-_1 #=< -1"]


def test_implied_bounds_are_written_out_as_clpfd_writes_them():
    # clpfd: X in 1..3, X #< Y gives X in 1..3, X#=<Y+ -1, Y in 2..sup
    x, y = var(), var()
    assert texts([x, y], domo(x, range(1, 4)), lto(x, y)) == ["[_0,_1] :- _0 in 1..3, _0-_1 #=< -1, _1 in 2..sup"]


def test_entailed_constraints_and_one_value_domains_disappear():
    x, y = var(), var()
    assert texts([x, y], domo(x, [1, 2]), domo(y, [5, 6]), lto(x, y)) == ["[_0,_1] :- _0 in 1..2, _1 in 5..6"]
    assert texts(x, domo(x, range(3)), domo(x, range(2, 5))) == ["2"]


def test_single_variable_inequality_is_a_half_open_domain():
    x = var()
    assert texts([x], leqo(3, x)) == ["[_0] :- _0 in 3..sup"]


def test_variables_only_in_constraints_are_numbered_after_the_term():
    x, y, z = var(), var(), var()
    assert texts([x], lto(x, y), lto(y, z)) == ["[_0] :- _0-_1 #=< -1, _1-_2 #=< -1"]


def test_unrelated_constraints_are_not_part_of_the_answer():
    x, y = var(), var()
    assert texts([x], neq(y, 1), domo(y, range(3))) == ["[_0]"]


def test_disequality_orientation_does_not_matter():
    x, y = var(), var()
    assert texts([x, y], neq(x, y)) == texts([x, y], neq(y, x)) == ["[_0,_1] :- dif(_0,_1)"]


def test_reify_with_constraints_reads_one_state():
    x = var()
    [state] = list(neq(x, 1)({}))
    r = reify_with_constraints(("f", x), state)
    assert r.text == "f(_0) :- dif(_0,1)" and r.names == {x: "_0"} and r.foreign == ()


def test_unknown_constraints_are_kept_as_foreign():
    x = var()
    r = residual_from_goals(("f", x), [("freeze", x, "true")])
    assert r.constraints == () and r.foreign == (("freeze", x, "true"),)
    assert r.text == "f(_0) :- freeze(_0,true)"


def test_prolog_or_node_disequality_reads_as_its_unifier():
    # SWI writes dif([X,Y],[2,1]) as dif(f(X,Y),f(2,1)); the unifier is X=2, Y=1.
    x, y = var(), var()
    r = residual_from_goals([x, y], [("dif", ("f", x, y), ("f", 2, 1))])
    assert r.text == "[_0,_1] :- dif([_0,_1],[2,1])"
    assert r == residual_from_goals([x, y], [("dif", [y, x], [1, 2])])


def test_clpfd_goals_read_into_the_same_form():
    x, y = var(), var()
    assert residual_from_goals([x, y], [(":", "clpfd", ("#=<", x, ("+", y, -1)))]).text == "[_0,_1] :- _0-_1 #=< -1"
    assert residual_from_goals([x, y], [("#>", y, x)]).text == "[_0,_1] :- _0-_1 #=< -1"
    assert residual_from_goals([x, y], [("#=", ("+", y, 2), x)]).text == "[_0,_1] :- _0-_1 #= 2"
    assert residual_from_goals([x], [("in", x, ("\\/", ("\\/", ("..", 1, 3), ("..", 5, 6)), ("..", 8, 9)))]).text \
        == "[_0] :- _0 in 1..3\\/5..6\\/8..9"
    assert residual_from_goals([x, y], [("#\\=", ("abs", ("-", y, x)), 2)]).text == "[_0,_1] :- abs(_0-_1) #\\= 2"
    assert residual_from_goals([x, y], [("#=", ("*", x, y), 6)]).foreign  # non-linear: no common form


# ------------------------------------------------------------------ properties: the same constraint


def holds(goal, env):
    """Whether a canonical constraint goal holds when its variables take the values of env."""
    g = reify(goal, env)
    name = g[0]
    if name == "dif":
        return unify(g[1], g[2], {}) is False
    if name == "in":
        return member(g[1], g[2])
    if name == "all_different":
        return len(set(g[1])) == len(g[1])
    left, right = value(g[1]), value(g[2])
    return {"#=": left == right, "#\\=": left != right, "#=<": left <= right}[name]


def member(v, d):
    if isinstance(d, int):
        return v == d
    if d[0] == "\\/":
        return member(v, d[1]) or member(v, d[2])
    lo, hi = d[1:]
    return (lo == "inf" or lo <= v) and (hi == "sup" or v <= hi)


def value(e):
    if isinstance(e, int):
        return e
    if e[0] == "abs":
        return abs(value(e[1]))
    if len(e) == 2:
        return -value(e[1])
    a, b = value(e[1]), value(e[2])
    return {"+": a + b, "-": a - b, "*": a * b}[e[0]]


def solutions(term, variables, check):
    """The instances of term over every assignment of BOX values to variables that passes check."""
    out = set()
    for values in itertools.product(BOX, repeat=len(variables)):
        env = dict(zip(variables, values))
        if check(env):
            out.add(repr(reify(term, env)))
    return out


# A random constraint: (kind, indices of variables, constants); built into a logicpy goal,
# a clpfd goal and a Python check.
constraint = st.one_of(
    st.tuples(st.sampled_from(["lt", "le", "eq_off", "neq_off"]), st.tuples(st.integers(0, 2), st.integers(0, 2)),
              st.integers(-2, 2)),
    st.tuples(st.just("neq"), st.tuples(st.integers(0, 2)), st.integers(-3, 3)),
    st.tuples(st.just("neq_var"), st.tuples(st.integers(0, 2), st.integers(0, 2)), st.just(0)),
    st.tuples(st.just("abs"), st.tuples(st.integers(0, 2), st.integers(0, 2)), st.integers(0, 3)),
    st.tuples(st.just("sum"), st.tuples(st.integers(0, 2), st.integers(0, 2)), st.integers(-4, 4)),
    st.tuples(st.just("alldiff"), st.just((0, 1, 2)), st.just(0)),
)
domains = st.lists(st.sets(st.sampled_from(list(BOX)), min_size=1), min_size=3, max_size=3)


def check_of(c):
    kind, ix, k = c
    tests = {
        "lt": lambda a, b: a < b + k, "le": lambda a, b: a <= b + k,
        "eq_off": lambda a, b: a == b + k, "neq_off": lambda a, b: a != b + k,
        "neq": lambda a: a != k, "neq_var": lambda a, b: a != b,
        "abs": lambda a, b: abs(a - b) == k, "sum": lambda a, b: a + b == k,
        "alldiff": lambda a, b, c: len({a, b, c}) == 3,
    }
    return lambda values: tests[kind](*(values[i] for i in ix))


def logicpy_goal(c, xs):
    kind, ix, k = c
    a = [xs[i] for i in ix]
    return {
        "lt": lambda: lto(a[0], a[1], k), "le": lambda: leqo(a[0], a[1], k),
        "eq_off": lambda: eq_offseto(a[0], a[1], k), "neq_off": lambda: neq_offseto(a[0], a[1], k),
        "neq": lambda: neq(a[0], k), "neq_var": lambda: neq(a[0], a[1]),
        "abs": lambda: abs_diffo(a[0], a[1], k), "sum": lambda: sumo(a, k),
        "alldiff": lambda: all_differento(a),
    }[kind]()


@settings(max_examples=60)
@given(domains, st.lists(constraint, max_size=4))
def test_logicpy_residual_means_what_the_goals_mean(doms, cs):
    xs = [var() for _ in range(3)]
    goals = [domo(x, sorted(d)) for x, d in zip(xs, doms)] + [logicpy_goal(c, xs) for c in cs]
    checks = [check_of(c) for c in cs]
    expected = solutions(xs, xs, lambda env: all(env[x] in d for x, d in zip(xs, doms))
                         and all(ch([env[x] for x in xs]) for ch in checks))
    answers = list(answers_with_constraints(xs, *goals))
    if not answers:
        assert expected == set()  # propagation only fails when there is no solution
        return
    [r] = answers
    free = list(dict.fromkeys(v for v in xs if v in r.names))
    assert not r.foreign
    assert solutions(r.term, free, lambda env: all(holds(g, env) for g in r.constraints)) == expected


@settings(max_examples=60)
@given(st.permutations(range(4)), st.lists(st.booleans(), min_size=4, max_size=4), domains)
def test_canonical_form_ignores_names_order_and_orientation(order, flips, doms):
    def goals(vs):
        x, y, z = vs
        gs = [("dif", x, y), ("dif", ("f", x, z), ("f", 1, y)), ("#=<", ("+", x, ("*", 2, y)), 3),
              ("in", z, ("..", min(doms[2]), max(doms[2])))]
        return [(g[0], g[2], g[1]) if flip and g[0] == "dif" else g for g, flip in zip(gs, flips)]

    a, b = [var() for _ in range(3)], [var() for _ in range(3)]
    first = residual_from_goals(("t", *a), goals(a))
    second = residual_from_goals(("t", *b), [goals(b)[i] for i in order])
    assert first == second and first.text == second.text


# ------------------------------------------------------------------ Prolog's residual goals, read


@pytest.mark.swi
@settings(max_examples=40)
@given(domains, st.lists(constraint.filter(lambda c: c[0] not in ("neq_var", "neq")), max_size=3))
def test_clpfd_residual_means_what_the_goals_mean(doms, cs):
    from logicpy import swi

    module = swi.consult(PL)
    xs = [var(n) for n in "XYZ"]
    union = " \\/ "
    parts = [f"{n} in {union.join(f'({v})' for v in sorted(d))}" for n, d in zip("XYZ", doms)]
    parts += [clpfd_text(c) for c in cs]
    answers = module.query(", ".join(parts) + ", T = [X, Y, Z]")
    checks = [check_of(c) for c in cs]
    expected = solutions(xs, xs, lambda env: all(env[x] in d for x, d in zip(xs, doms))
                         and all(ch([env[x] for x in xs]) for ch in checks))
    if not answers:
        assert expected == set()
        return
    [answer] = answers
    r = residual_from_goals(answer["T"], answers.residual[0])
    if r.foreign:
        return  # clpfd's own helper goals (reification): no common form, and said so
    free = [v for v in r.names if isinstance(v, Var)]
    assert solutions(r.term, free, lambda env: all(holds(g, env) for g in r.constraints)) == expected


def clpfd_text(c):
    kind, ix, k = c
    a = ["XYZ"[i] for i in ix]
    return {
        "lt": lambda: f"{a[0]} #< {a[1]} + ({k})", "le": lambda: f"{a[0]} #=< {a[1]} + ({k})",
        "eq_off": lambda: f"{a[0]} #= {a[1]} + ({k})", "neq_off": lambda: f"{a[0]} #\\= {a[1]} + ({k})",
        "abs": lambda: f"abs({a[0]} - {a[1]}) #= {k}", "sum": lambda: f"{a[0]} + {a[1]} #= {k}",
        "alldiff": lambda: "all_different([X, Y, Z])",
    }[kind]()


def test_a_false_ground_constraint_stays_visible():
    # An inconsistent state (a propagator that missed a failure) must not read as a plain answer.
    x = var()
    assert residual_from_goals(("f", x), [("dif", 1, 1)]).text == "f(_0) :- dif(1,1)"
    assert residual_from_goals(("f", x), [("#=<", 1, 0)]).text == "f(_0) :- 0 #=< -1"
    assert residual_from_goals(("f", x), [("dif", 1, 2), ("#=<", 0, 1)]).text == "f(_0)"
