"""Tests of logicpy.core.fd: each constraint forwards, backwards and with residual domains,
composition with kanren, labelling, errors, known puzzles, and brute-force cross-checks."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from kanren import conde, eq, lall, run

from logicpy.core.fd import (
    Domain,
    FDVar,
    Inconsistent,
    Propagator,
    abs_diffo,
    all_differento,
    domo,
    elemento,
    eq_offseto,
    inso,
    labelo,
    leqo,
    lto,
    neq_offseto,
    not_abs_diffo,
    post,
    sumo,
    tableo,
)
from logicpy.core import neq  # logicpy's copying neq (kanren's leaks across conde branches)
from logicpy.core.terms import var, vars
from logicpy.errors import InputError, ModeError, TermError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def values(answer) -> set[int]:
    """The values a reified answer allows: itself for an int, its domain for an FDVar."""
    return set(answer.domain) if isinstance(answer, FDVar) else {answer}


# -- domo and residual domains --------------------------------------------------------------


def test_domo_forwards_backwards_and_residual():
    x = var("x")
    assert run(0, x, domo(x, [1, 2, 3]), eq(x, 2)) == (2,)
    assert run(0, x, domo(x, [1, 2, 3]), eq(x, 4)) == ()
    assert run(0, x, eq(x, 4), domo(x, [1, 2, 3])) == ()
    assert run(0, x, domo(x, range(1, 4)), labelo([x])) == (1, 2, 3)
    (r,) = run(0, x, domo(x, range(1, 4)), lto(x, 3))
    assert isinstance(r, FDVar) and r.domain == {1, 2}
    assert repr(r) == f"~{x.token} in {{1, 2}}"


def test_one_value_domain_reifies_to_the_value():
    x = var()
    assert run(0, x, domo(x, range(1, 10)), lto(x, 2)) == (1,)


def test_domains_intersect_and_empty_intersection_fails():
    x = var()
    (r,) = run(0, x, domo(x, range(0, 10)), domo(x, [2, 4, 11]))
    assert r.domain == {2, 4}
    assert run(0, x, domo(x, [1, 2]), domo(x, [3])) == ()


def test_negative_values_and_rebasing():
    x, y = var(), var()
    assert run(0, x, domo(x, range(-5, 4)), lto(x, -2), labelo([x])) == (-5, -4, -3)
    # y gets a domain below every earlier one: the store rebases
    (r,) = run(0, y, domo(x, range(0, 3)), eq_offseto(y, x, -10))
    assert r.domain == {-10, -9, -8}


def test_residual_stands_for_its_variable():
    """An FDVar equals and hashes like its variable, so kanren can use reified terms as keys."""
    x = var("x")
    (r,) = run(0, x, domo(x, [1, 5]))
    assert r == x and x == r and hash(r) == hash(x) and {x: 1}[r] == 1
    assert 5 in r.domain and 3 not in r.domain and len(r.domain) == 2


def test_domain_repr_is_compact():
    assert repr(Domain.of([1, 2, 3, 4, 7, 9, 10])) == "{1..4, 7, 9, 10}"
    assert Domain.of([5]).min == Domain.of([5]).max == 5


# -- composition with kanren --------------------------------------------------------------


def test_eq_aliasing_merges_domains():
    x, y = var(), var()
    ((rx, ry),) = run(0, (x, y), domo(x, range(1, 4)), domo(y, range(2, 6)), eq(x, y))
    assert rx.domain == ry.domain == {2, 3}
    assert run(0, (x, y), domo(x, [1, 2]), domo(y, [3, 4]), eq(x, y)) == ()


def test_eq_wakes_propagators():
    x, y = var(), var()
    assert run(0, y, domo(x, range(10)), domo(y, range(10)), eq_offseto(y, x, 3), eq(x, 4)) == (7,)


def test_binding_to_a_non_integer_fails():
    x = var()
    assert run(0, x, domo(x, range(3)), eq(x, "a")) == ()


def test_conde_branches_do_not_see_each_others_domains():
    x = var()
    answers = run(0, x, domo(x, range(1, 4)), conde([lto(x, 2)], [lto(2, x)], [eq(x, 2)]))
    assert sorted(answers) == [1, 2, 3]


def test_neq_and_fd_compose():
    x = var()
    assert run(0, x, domo(x, range(1, 4)), neq(x, 2), labelo([x])) == (1, 3)
    (r,) = run(0, x, domo(x, range(1, 4)), neq(x, 2))
    assert r.domain == {1, 2, 3} and f"dif({x!r}, 2)" in repr(r)


def test_fd_goals_inside_lall_and_conde_with_labelling():
    x, y = var(), var()
    goal = lall(inso([x, y], range(1, 4)), conde([abs_diffo(x, y, 2)], [eq_offseto(x, y, 1)]), labelo([x, y]))
    assert sorted(run(0, (x, y), goal)) == [(1, 3), (2, 1), (3, 1), (3, 2)]


# -- each constraint: forwards (ground check), backwards (solve), residual ------------------


def test_lto_leqo():
    x, y = var(), var()
    assert run(0, x, lto(1, 2)) and not run(0, x, lto(2, 2))
    assert run(0, x, leqo(2, 2)) and not run(0, x, leqo(3, 2))
    assert run(0, x, lto(3, 2, 2)) and not run(0, x, lto(4, 2, 2))  # x < y + c
    ((rx, ry),) = run(0, (x, y), inso([x, y], range(0, 10)), lto(x, y, -3))
    assert rx.domain == set(range(0, 6)) and ry.domain == set(range(4, 10))
    ((rx, ry),) = run(0, (x, y), inso([x, y], range(0, 10)), leqo(y, x, -9))
    assert (rx, ry) == (9, 0)


def test_eq_offseto_and_neq_offseto():
    x, y = var(), var()
    assert run(0, x, eq_offseto(5, 3, 2)) and not run(0, x, eq_offseto(5, 3, 1))
    assert run(0, y, eq_offseto(5, y, 2)) == (3,)  # y gets its domain from the constant
    assert run(0, x, neq_offseto(5, 3, 1)) and not run(0, x, neq_offseto(5, 3, 2))
    (r,) = run(0, x, domo(x, range(0, 5)), neq_offseto(x, 2, 1))
    assert r.domain == {0, 1, 2, 4}
    (r,) = run(0, y, domo(y, range(0, 5)), neq_offseto(3, y, 1))
    assert r.domain == {0, 1, 3, 4}


def test_abs_diffo():
    x, y, d = var(), var(), var()
    assert run(0, x, abs_diffo(2, 5, 3)) and not run(0, x, abs_diffo(2, 5, 2))
    assert run(0, d, abs_diffo(2, 5, d)) == (3,)
    (r,) = run(0, x, domo(x, range(1, 6)), abs_diffo(x, 3, 1))
    assert r.domain == {2, 4}
    ((rx, rd),) = run(0, (x, d), domo(x, [1, 9]), domo(y, [2, 3]), domo(d, range(0, 10)), abs_diffo(x, y, d))
    assert rx.domain == {1, 9} and rd.domain == {1, 2, 6, 7}
    assert run(0, x, domo(x, range(5)), abs_diffo(x, 2, -1)) == ()


def test_not_abs_diffo():
    x = var()
    assert run(0, x, not_abs_diffo(2, 5, 2)) and not run(0, x, not_abs_diffo(2, 5, 3))
    (r,) = run(0, x, domo(x, range(1, 6)), not_abs_diffo(x, 3, 1))
    assert r.domain == {1, 3, 5}


def test_all_differento_matching_pruning():
    a, b, c, d = vars(4)
    # Hall set {a, b} on {1, 2}: c and d lose 1 and 2 (pairwise neq would not see it)
    ((rc, rd),) = run(0, (c, d), inso([a, b], [1, 2]), inso([c, d], range(1, 5)), all_differento([a, b, c, d]))
    assert rc.domain == rd.domain == {3, 4}
    # pigeonhole: three variables, two values
    assert run(0, a, inso([a, b, c], [1, 2]), all_differento([a, b, c])) == ()
    assert run(0, a, all_differento([1, 2, 1])) == ()
    assert len(run(0, (a, b, c), inso([a, b, c], range(3)), all_differento([a, b, c]), labelo([a, b, c]))) == 6


def test_sumo():
    x, y, t = var(), var(), var()
    assert run(0, x, sumo([1, 2, 3], 6)) and not run(0, x, sumo([1, 2, 3], 7))
    assert run(0, t, sumo([1, 2, 3], t, [1, 10, 100])) == (321,)
    (r,) = run(0, t, inso([x, y], range(0, 10)), sumo([x, y], t))
    assert r.domain == set(range(0, 19))  # the total takes the interval the sum allows
    (r,) = run(0, x, inso([x, y], range(0, 10)), sumo([x, y], 15, [2, 1]))
    assert r.domain == set(range(3, 8))
    assert sorted(run(0, (x, y), inso([x, y], range(0, 10)), sumo([x, y], 3, [1, -1]), labelo([x, y])))[:2] == [
        (3, 0), (4, 1)]


def test_elemento():
    i, v = var(), var()
    assert run(0, v, elemento(2, [7, 8, 9], v)) == (8,)
    (r,) = run(0, i, elemento(i, [7, 3, 7], 7))
    assert r.domain == {1, 3}
    (r,) = run(0, v, domo(i, [1, 3]), elemento(i, [4, 5, 6], v))
    assert r.domain == {4, 6}
    assert run(0, i, elemento(i, [1, 2], 3)) == ()


def test_tableo():
    x, y = var(), var()
    rows = [(1, 2), (2, 3), (1, 4)]
    assert run(0, x, tableo([1, 4], rows)) and not run(0, x, tableo([2, 2], rows))
    ((rx, ry),) = run(0, (x, y), tableo([x, y], rows))
    assert rx.domain == {1, 2} and ry.domain == {2, 3, 4}
    assert run(0, y, tableo([x, y], rows), eq(x, 2)) == (3,)


# -- labelling ----------------------------------------------------------------------------


def test_labelo_strategies_agree_and_order_values_ascending():
    x, y, z = vars(3)
    goals = [inso([x, y], range(1, 5)), domo(z, [5, 6]), lto(x, y)]
    leftmost = run(0, (x, y, z), *goals, labelo([x, y, z], "leftmost"))
    assert list(leftmost) == sorted(leftmost)  # leftmost + ascending = lexicographic order
    # first-fail labels z first (two values), so z varies slowest
    ff = run(0, (x, y, z), *goals, labelo([x, y, z], "ff"))
    assert [s[2] for s in ff] == [5] * 6 + [6] * 6
    assert sorted(ff) == sorted(leftmost)


def test_labelo_propagates_each_choice():
    calls = []

    class Counting(Propagator):
        __slots__ = ("x",)

        def __init__(self, x):
            self.x = x

        def terms(self):
            return (self.x,)

        def propagate(self, store):
            calls.append(store.walk(self.x))

    x = var()
    assert run(0, x, domo(x, [1, 2]), post(Counting(x)), labelo([x])) == (1, 2)
    assert calls[1:] == [1, 2]  # woken once when posted, then once per labelled value


def test_custom_propagator_can_fail():
    class Even(Propagator):
        __slots__ = ("x",)

        def __init__(self, x):
            self.x = x

        def terms(self):
            return (self.x,)

        def propagate(self, store):
            x = store.walk(self.x)
            store.restrict(x, store.mask(v for v in store.members(x) if v % 2 == 0))

    x = var()
    assert run(0, x, domo(x, range(1, 8)), post(Even(x)), labelo([x])) == (2, 4, 6)
    assert issubclass(Inconsistent, Exception)


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, error, words",
    [
        (lambda x: domo(x, []), InputError, "domo: argument values is empty"),
        (lambda x: domo(x, range(3, 3)), InputError, "empty"),
        (lambda x: domo(x, [1, "a"]), TermError, "'a'"),
        (lambda x: domo(x, 5), TermError, "iterable"),
        (lambda x: domo("a", [1]), TermError, "argument x"),
        (lambda x: lto(x, "b"), TermError, "lto: argument y"),
        (lambda x: lto(x, 1, 1.5), TermError, "argument c"),
        (lambda x: all_differento(x), TermError, "all_differento: argument xs"),
        (lambda x: sumo([x, 1], 3, [1]), InputError, "coeffs has 1 entries"),
        (lambda x: tableo([x], [(1,), (1, 2)]), InputError, "row 1"),
        (lambda x: tableo([x], []), InputError, "rows is empty"),
        (lambda x: elemento(x, [], 1), InputError, "xs is empty"),
        (lambda x: labelo([x], "random"), InputError, "unknown strategy 'random'"),
    ],
)
def test_bad_arguments_are_named(build, error, words):
    with pytest.raises(error, match=words):
        build(var("x"))


def test_labelling_a_variable_without_domain_is_a_mode_error():
    x, y = var("x"), var("y")
    with pytest.raises(ModeError, match="no finite domain"):
        run(0, (x, y), domo(x, [1]), labelo([x, y]))


def test_fd_constraint_on_a_bound_atom_is_a_term_error():
    x = var("x")
    with pytest.raises(TermError, match="'a'"):
        run(0, x, eq(x, "a"), lto(x, 3))


# -- known puzzles -------------------------------------------------------------------------


def test_send_more_money():
    letters = S, E, N, D, M, O, R, Y = vars(8)
    send_more_money = sumo(
        [S, E, N, D, M, O, R, E, M, O, N, E, Y],
        0,
        [1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1],
    )
    answers = run(0, tuple(letters), inso(letters, range(10)), all_differento(letters), neq_offseto(S, 0),
                  neq_offseto(M, 0), send_more_money, labelo(letters))
    assert answers == ((9, 5, 6, 7, 1, 0, 8, 2),)  # 9567 + 1085 = 10652, the only solution


@pytest.mark.parametrize("n, count", [(4, 2), (6, 4), (8, 92)])  # OEIS A000170
def test_queens_counts(n, count):
    queens = load_example("queens")
    solutions = queens.solve(n)
    assert len(solutions) == count == len(set(solutions))
    for s in solutions:  # each really is safe
        assert sorted(s) == list(range(1, n + 1))
        assert all(abs(s[i] - s[j]) != j - i for i in range(n) for j in range(i + 1, n))


def test_queens_first_solution_matches_clpfd_first_fail():
    queens = load_example("queens")
    assert queens.solve(8, 1) == ((1, 5, 8, 6, 3, 7, 2, 4),)  # SWI clpfd labeling([ff]) gives the same
    assert queens.solve(8, 1, "leftmost") == ((1, 5, 8, 6, 3, 7, 2, 4),)  # the first in lexicographic order


def test_zebra_has_exactly_one_solution():
    zebra = load_example("zebra_fd")
    (s,) = zebra.solve()
    # Known answer: the Norwegian drinks water, the Japanese owns the zebra.
    assert s["Norwegian"] == s["water"] == 1
    assert s["Japanese"] == s["zebra"] == 5
    assert zebra.solve("leftmost") == [s]
    assert "Norwegian" in zebra.render(s).splitlines()[1]


# -- cross-check against brute-force enumeration -------------------------------------------

VALUES = range(-2, 5)
N_VARS = 4

domains_st = st.lists(st.sets(st.sampled_from(VALUES), min_size=1, max_size=5), min_size=N_VARS, max_size=N_VARS)
index_st = st.integers(0, N_VARS - 1)
arg_st = st.one_of(index_st.map(lambda i: ("v", i)), st.sampled_from(VALUES).map(lambda c: ("c", c)))
offset_st = st.integers(-3, 3)

CONSTRAINT_STRATEGIES = {
    "eq": st.tuples(st.just("eq"), arg_st, arg_st),  # kanren's eq: bindings and aliasing reach the store
    "neq": st.tuples(st.just("neq"), arg_st, arg_st),  # neq's own store beside the FD store
    "lt": st.tuples(st.just("lt"), arg_st, arg_st, offset_st),
    "leq": st.tuples(st.just("leq"), arg_st, arg_st, offset_st),
    "eq_offset": st.tuples(st.just("eq_offset"), arg_st, arg_st, offset_st),
    "neq_offset": st.tuples(st.just("neq_offset"), arg_st, arg_st, offset_st),
    "abs_diff": st.tuples(st.just("abs_diff"), arg_st, arg_st, arg_st),
    "not_abs_diff": st.tuples(st.just("not_abs_diff"), arg_st, arg_st, arg_st),
    "all_different": st.tuples(st.just("all_different"), st.lists(arg_st, min_size=2, max_size=4)),
    "sum": st.tuples(st.just("sum"), st.lists(st.tuples(arg_st, st.integers(-3, 3)), min_size=1, max_size=4),
                     arg_st),
    "element": st.tuples(st.just("element"), arg_st, st.lists(arg_st, min_size=1, max_size=4), arg_st),
    "table": st.tuples(st.just("table"), st.lists(arg_st, min_size=1, max_size=3),
                       st.lists(st.lists(st.sampled_from(VALUES), min_size=3, max_size=3), min_size=1, max_size=6)),
}
constraint_st = st.one_of(*CONSTRAINT_STRATEGIES.values())
DOMAIN_CONSISTENT = ("all_different", "eq_offset", "abs_diff", "table")


def holds(c, val) -> bool:
    """The constraint `c` evaluated on concrete values (the brute-force oracle)."""
    kind = c[0]
    if kind == "eq":
        return val(c[1]) == val(c[2])
    if kind == "neq":
        return val(c[1]) != val(c[2])
    if kind == "lt":
        return val(c[1]) < val(c[2]) + c[3]
    if kind == "leq":
        return val(c[1]) <= val(c[2]) + c[3]
    if kind == "eq_offset":
        return val(c[1]) == val(c[2]) + c[3]
    if kind == "neq_offset":
        return val(c[1]) != val(c[2]) + c[3]
    if kind == "abs_diff":
        return abs(val(c[1]) - val(c[2])) == val(c[3])
    if kind == "not_abs_diff":
        return abs(val(c[1]) - val(c[2])) != val(c[3])
    if kind == "all_different":
        vs = [val(a) for a in c[1]]
        return len(set(vs)) == len(vs)
    if kind == "sum":
        return sum(k * val(a) for a, k in c[1]) == val(c[2])
    if kind == "element":
        i = val(c[1])
        return 1 <= i <= len(c[2]) and val(c[2][i - 1]) == val(c[3])
    if kind == "table":
        return tuple(val(a) for a in c[1]) in {tuple(r[: len(c[1])]) for r in c[2]}
    raise AssertionError(kind)


def goal_of(c, term):
    """The FD goal for the constraint `c`."""
    kind = c[0]
    if kind == "eq":
        return eq(term(c[1]), term(c[2]))
    if kind == "neq":
        return neq(term(c[1]), term(c[2]))
    if kind == "lt":
        return lto(term(c[1]), term(c[2]), c[3])
    if kind == "leq":
        return leqo(term(c[1]), term(c[2]), c[3])
    if kind == "eq_offset":
        return eq_offseto(term(c[1]), term(c[2]), c[3])
    if kind == "neq_offset":
        return neq_offseto(term(c[1]), term(c[2]), c[3])
    if kind == "abs_diff":
        return abs_diffo(term(c[1]), term(c[2]), term(c[3]))
    if kind == "not_abs_diff":
        return not_abs_diffo(term(c[1]), term(c[2]), term(c[3]))
    if kind == "all_different":
        return all_differento([term(a) for a in c[1]])
    if kind == "sum":
        return sumo([term(a) for a, _ in c[1]], term(c[2]), [k for _, k in c[1]])
    if kind == "element":
        return elemento(term(c[1]), [term(a) for a in c[2]], term(c[3]))
    if kind == "table":
        return tableo([term(a) for a in c[1]], [r[: len(c[1])] for r in c[2]])
    raise AssertionError(kind)


def flat_args(c) -> list:
    """The argument terms of a constraint description, in order."""
    out = []
    for part in c[1:]:
        if isinstance(part, tuple) and part and part[0] in ("v", "c"):
            out.append(part)
        elif isinstance(part, list):
            out.extend(p for p in part if isinstance(p, tuple) and p and p[0] in ("v", "c"))
            out.extend(p[0] for p in part if isinstance(p, tuple) and p and isinstance(p[0], tuple))
    return out


def brute_force(domains, constraints) -> set[tuple[int, ...]]:
    solutions = set()
    for assignment in itertools.product(*[sorted(d) for d in domains]):
        val = (lambda a: assignment[a[1]] if a[0] == "v" else a[1])
        if all(holds(c, val) for c in constraints):
            solutions.add(assignment)
    return solutions


def fd_problem(domains, constraints):
    xs = tuple(vars(len(domains), "x"))
    term = (lambda a: xs[a[1]] if a[0] == "v" else a[1])
    goals = [domo(x, d) for x, d in zip(xs, domains)] + [goal_of(c, term) for c in constraints]
    return xs, goals


@settings(max_examples=300, deadline=None)
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=4), st.sampled_from(["ff", "leftmost"]))
def test_labelling_finds_exactly_the_brute_force_solutions(domains, constraints, strategy):
    expected = brute_force(domains, constraints)
    xs, goals = fd_problem(domains, constraints)
    found = run(0, xs, *goals, labelo(xs, strategy))
    assert len(found) == len(set(found))  # no solution twice
    assert set(map(tuple, found)) == expected


@settings(max_examples=300, deadline=None)
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=4))
def test_propagation_never_removes_a_value_of_a_solution(domains, constraints):
    expected = brute_force(domains, constraints)
    xs, goals = fd_problem(domains, constraints)
    residual = run(0, xs, *goals)
    if expected:
        (answer,) = residual
        for k, r in enumerate(answer):
            assert {s[k] for s in expected} <= values(r)


@settings(max_examples=200, deadline=None)
@given(domains_st, st.one_of(*(CONSTRAINT_STRATEGIES[k] for k in DOMAIN_CONSISTENT)))
def test_domain_consistent_constraints_keep_only_supported_values(domains, c):
    """For one domain-consistent constraint alone, the residual domains are exactly the supports.

    (Domain consistency is defined for distinct variables; all_differento also sees repeats.)
    """
    mentioned = [a for a in flat_args(c) if a[0] == "v"]
    assume(c[0] == "all_different" or len(mentioned) == len(set(mentioned)))
    expected = brute_force(domains, [c])
    xs, goals = fd_problem(domains, [c])
    residual = run(0, xs, *goals)
    if not expected:
        assert residual == ()
        return
    (answer,) = residual
    for k, r in enumerate(answer):
        assert values(r) == {s[k] for s in expected}


@settings(max_examples=150, deadline=None)
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=3), st.lists(constraint_st, min_size=1, max_size=3))
def test_conde_branches_each_find_their_own_solutions(domains, left, right):
    """conde over FD goals (and neq): each branch sees only its own constraints."""
    xs = tuple(vars(len(domains), "x"))
    term = (lambda a: xs[a[1]] if a[0] == "v" else a[1])
    goals = [domo(x, d) for x, d in zip(xs, domains)]
    branches = conde([goal_of(c, term) for c in left], [goal_of(c, term) for c in right])
    found = run(0, xs, *goals, branches, labelo(xs))
    expected_left, expected_right = brute_force(domains, left), brute_force(domains, right)
    assert set(found) == expected_left | expected_right
    assert len(found) == len(expected_left) + len(expected_right)


def test_neq_in_one_conde_branch_does_not_leak_into_the_next():
    x = var()
    assert sorted(run(0, x, domo(x, [1, 2]), conde([neq(x, 1)], [eq(x, 1)]), labelo([x]))) == [1, 2]
