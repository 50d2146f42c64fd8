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
    STRATEGIES,
    Domain,
    FDStore,
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
from logicpy.core.fd import propagators as P
from logicpy.core import appendo, lengtho, neq  # logicpy's neq copies (kanren's leaks across conde branches)
from logicpy.core.terms import cons, var, vars
from logicpy.errors import InputError, ModeError, TermError

EXAMPLES = Path(__file__).resolve().parents[2] / "logicpy" / "data" / "examples"


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


def test_pending_constraints_read_as_clpfd_goals():
    """The store lists the propagators still watching, shown as clpfd writes the constraints."""
    x, y, z, w = var("x"), var("y"), var("z"), var("w")
    goals = (inso([x, y, z, w], range(10)), lto(x, y), eq_offseto(x, y, -2), neq_offseto(x, z, 1), abs_diffo(x, y, 2),
             not_abs_diffo(x, z, 3), all_differento([x, y, z]), sumo([x, y], w, [2, 1]), elemento(x, [y, 4], z),
             tableo([x, y], [(1, 3), (2, 4)]))
    (state,) = lall(*goals)({})
    store = state.constraints[FDStore]
    names = {f"~{v.token}": v.token.lstrip("_").upper()[0] for v in (x, y, z, w)}

    def shown(p):
        text = repr(p)
        for token, name in names.items():
            text = text.replace(token, name)
        return text

    assert {shown(p) for p in store.pending()} == {
        "X #=< Y - 1", "X #= Y - 2", "X #\\= Z + 1", "abs(X - Y) #= 2", "abs(X - Z) #\\= 3", "all_distinct([X, Y, Z])",
        "2*X + Y #= W", "element(X, [Y, 4], Z)", "tuples_in([[X, Y]], [[1, 3], [2, 4]])"}
    assert store.members(x) == {1, 2} and store.members(w) == set(range(5, 9))  # 2x + y, bounds consistent
    assert repr(P.InDomain(x, Domain.of([1, 3]))) == f"~{x.token} in {{1, 3}}"


def test_domain_set_operations_give_domains():
    d = Domain.of([1, 2, 3, 7])
    assert d - {2} == {1, 3, 7} and isinstance(d - {2}, Domain)
    assert d & Domain.of([3, 7, 9]) == {3, 7} and d | {0} == {0, 1, 2, 3, 7}
    assert repr(d - d) == "{}" and len(d - d) == 0
    assert 1 in d and True not in d and 1.0 not in d  # FD values are ints only


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


def test_neq_sees_a_value_left_by_propagation():
    """Propagation leaving one value binds the variable when neq holds constraints (issue 7: gave 1)."""
    x, y = var("x"), var("y")
    assert run(0, x, domo(x, [1, 2]), neq(x, 1), lto(x, 2)) == ()
    assert run(0, x, domo(x, [1, 2]), lto(x, 2), neq(x, 1)) == ()
    assert run(0, (x, y), domo(x, [1, 2]), domo(y, [1]), neq(x, y), lto(x, 2)) == ()
    assert run(0, x, domo(x, [1, 2, 3]), neq(x, 1), lto(x, 3), labelo([x])) == (2,)
    assert run(0, (x, y), domo(x, [1]), domo(y, [1, 2]), neq(x, y), eq(x, y)) == ()


def test_fd_goals_inside_lall_and_conde_with_labelling():
    x, y = var(), var()
    goal = lall(inso([x, y], range(1, 4)), conde([abs_diffo(x, y, 2)], [eq_offseto(x, y, 1)]), labelo([x, y]))
    assert sorted(run(0, (x, y), goal)) == [(1, 3), (2, 1), (3, 1), (3, 2)]


# -- any term where a variable may be: FD variables inside lists, non-integers fail (issue 7) --


def test_a_list_of_fd_variables_as_the_answer():
    q, a, b = var("q"), var("a"), var("b")
    answers = run(0, q, eq(q, [a, b]), inso([a, b], range(1, 3)), labelo([a, b]))
    assert answers == ([1, 1], [1, 2], [2, 1], [2, 2])
    ((ra, rb),) = run(0, q, eq(q, (a, b)), inso([a, b], range(1, 3)), lto(a, b))
    assert (ra, rb) == (1, 2)


def test_an_fd_variable_bound_to_a_list_fails_in_either_order():
    q = var("q")
    assert run(0, q, domo(q, range(3)), eq(q, [1])) == ()
    assert run(0, q, eq(q, [1]), domo(q, range(3))) == ()
    assert run(0, q, domo(q, range(3)), eq(q, ("f", 1))) == ()


def test_lengtho_with_an_fd_length():
    xs, n = var("xs"), var("n")
    assert run(0, n, domo(n, range(5)), lengtho([7, 8], n)) == (2,)
    assert run(0, xs, domo(n, range(3)), labelo([n]), lengtho(xs, n), eq(xs, [7, 8])) == ([7, 8],)
    assert [len(r[0]) for r in run(3, (xs, n), domo(n, range(3)), lengtho(xs, n))] == [0, 1, 2]
    assert run(0, n, domo(n, range(2)), lengtho([7, 8], n)) == ()


def test_appendo_with_an_fd_variable_in_a_list():
    x, y = var("x"), var("y")
    ((r, two),) = run(0, x, domo(y, range(3)), appendo([y], [2], x))
    assert r.domain == {0, 1, 2} and two == 2
    assert run(0, x, domo(y, range(3)), appendo([y], [2], x), labelo([y])) == ([0, 2], [1, 2], [2, 2])


def test_a_list_argument_may_be_a_variable_bound_when_the_goal_runs():
    """Prolog's `length(L, 3), L ins 1..3, all_distinct(L), label(L)`: the list is read when each goal runs."""
    q, t, i = var("q"), var("t"), var("i")
    answers = run(0, q, lengtho(q, 3), inso(q, range(1, 4)), all_differento(q), labelo(q, "leftmost"))
    assert answers == ([1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1])
    assert run(0, q, lengtho(q, 2), inso(q, range(5)), sumo(q, 7, [1, 2]), tableo(q, [(1, 3), (3, 2)]), labelo(q)) == (
        [1, 3], [3, 2])
    assert run(0, i, lengtho(q, 3), inso(q, [4]), elemento(i, q, 4), labelo([i])) == (1, 2, 3)
    assert run(0, q, eq(q, cons(1, t)), eq(t, [2]), labelo(q)) == ([1, 2],)  # a cons chain ending in a list


@pytest.mark.parametrize(
    "goals, error, words",
    [
        (lambda q, t: [inso(q, range(3))], ModeError, "inso: argument xs is unbound when the goal runs"),
        (lambda q, t: [eq(q, cons(1, t)), labelo(q)], ModeError, "labelo: argument xs is a partial list"),
        (lambda q, t: [eq(q, "a"), all_differento(q)], TermError, "all_differento: argument xs is bound to a, not a list"),
        (lambda q, t: [eq(q, [1, 2]), sumo(q, 3, [1])], InputError, "coeffs has 1 entries but xs has 2"),
        (lambda q, t: [eq(q, [1, 2]), tableo(q, [(1,)])], InputError, "row 0 must be a tuple of 2 ints"),
    ],
)
def test_a_list_argument_not_a_list_when_the_goal_runs_is_named(goals, error, words):
    q, t = var("q"), var("t")
    with pytest.raises(error, match=words):
        run(0, q, *goals(q, t))


NON_INTEGERS = [1.0, -0.0, 2.5, True, False, "a", [1], [], (1,), ("f", 1)]


@pytest.mark.parametrize("junk", NON_INTEGERS, ids=repr)
def test_a_non_integer_meets_a_domain_and_fails_in_either_order(junk):
    """True/False are the atoms true/false and 1.0 a float: none is an FD value."""
    x, y = var("x"), var("y")
    assert run(0, x, domo(x, [0, 1, 2]), eq(x, junk)) == ()
    assert run(0, x, eq(x, junk), domo(x, [0, 1, 2])) == ()
    assert run(0, x, domo(x, [0, 1]), lto(x, y), eq(y, junk)) == ()  # a watched variable without a domain
    assert run(0, x, domo(x, [0, 1]), labelo([x, junk])) == ()
    for goal in (domo(junk, [0, 1]), lto(junk, 5), sumo([junk], 1), elemento(1, [junk], 1), tableo([junk], [(1,)]),
                 all_differento([junk, 1]), abs_diffo(junk, 0, 1), labelo([junk])):
        assert run(0, x, goal) == ()


def test_true_is_not_one_for_fd():
    x = var("x")
    assert run(0, x, domo(x, [1]), eq(x, True)) == ()
    assert run(0, x, sumo([True, 1], 2)) == () and run(0, x, sumo([1, 1], 2)) == (x,)


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


def test_sumo_counts_a_repeated_variable_once():
    """x + x = 6 is 2·x = 6: x = 3, as clpfd gives (issue 7: it was {0..6})."""
    x, y, z = var("x"), var("y"), var("z")
    assert run(0, x, sumo([x, x], 6)) == (3,)
    assert run(0, x, domo(x, range(10)), sumo([x, x], 6)) == (3,)
    assert run(0, x, domo(x, range(10)), sumo([x, x], 7)) == ()
    assert run(0, y, inso([x, y], range(10)), sumo([x, y, x], 4, [1, 2, -1])) == (2,)  # x cancels out
    (r,) = run(0, x, domo(x, range(10)), sumo([x], x))  # x = x: no pruning
    assert r.domain == set(range(10))
    assert run(0, x, domo(x, range(10)), sumo([x, 1], x)) == ()  # x + 1 = x
    ((rx, rz),) = run(0, (x, z), inso([x, y, z], range(7)), sumo([x, y, x, z], 20, [3, 1, -1, 1]))
    assert rx.domain == {4, 5, 6} and rz.domain == set(range(2, 7))  # 2x + y + z = 20


def test_sumo_fails_when_the_gcd_cannot_divide_the_total():
    x, y = var("x"), var("y")
    assert run(0, x, inso([x, y], range(10)), sumo([x, y], 7, [2, 4])) == ()
    assert run(0, x, sumo([x, y], 7, [2, 4])) == ()  # even without domains


def test_sumo_merges_variables_aliased_after_posting():
    x, y, t = var("x"), var("y"), var("t")
    assert run(0, x, inso([x, y], range(10)), sumo([x, y], 6), eq(x, y)) == (3,)
    assert run(0, t, inso([x, y], range(10)), sumo([x, y], t, [1, -1]), eq(x, y)) == (0,)
    assert run(0, x, inso([x, y], range(10)), sumo([x, y], 7), eq(x, y)) == ()


def test_aliasing_hands_constraints_to_the_other_variable():
    """eq(x, y) after constraints on x: binding y wakes them (watchers merge)."""
    x, y, z = var("x"), var("y"), var("z")
    assert run(0, z, domo(x, range(10)), eq_offseto(z, x, 1), eq(x, y), eq(y, 3)) == (4,)
    assert run(0, z, domo(x, range(10)), domo(y, range(5, 20)), eq_offseto(z, x, 1), eq(x, y))[0].domain == {
        6, 7, 8, 9, 10}
    assert run(0, x, domo(x, range(10)), eq_offseto(x, y, 1), eq(x, y)) == ()  # x = x + 1
    assert run(0, x, inso([x, y], range(3)), all_differento([x, y]), eq(x, y)) == ()


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


def _recorder(calls: list):
    """A propagator class on one variable that appends the variable's walked value to `calls`
    each time it is woken, and prunes nothing."""

    class Recorder(Propagator):
        __slots__ = ("x",)

        def __init__(self, x):
            self.x = x

        def terms(self):
            return (self.x,)

        def propagate(self, store):
            calls.append(store.walk(self.x))

    return Recorder


def test_labelo_propagates_each_choice():
    calls: list = []
    Counting = _recorder(calls)
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
        (lambda x: domo(x, [1, "a"]), TermError, "only ints, got a$"),
        (lambda x: domo(x, 5), TermError, "iterable"),
        (lambda x: lto(x, 1, 1.5), TermError, "argument c"),
        (lambda x: all_differento(5), TermError, "all_differento: argument xs"),
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


def test_fd_constraint_on_a_bound_atom_fails_in_either_order():
    """An FD argument stands for an int: an atom there fails, before or after (clpfd raises a type error)."""
    x = var("x")
    assert run(0, x, eq(x, "a"), lto(x, 3)) == ()
    assert run(0, x, lto(x, 3), eq(x, "a")) == ()
    assert run(0, x, domo("a", [1])) == () and run(0, x, lto(x, "b")) == ()


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



def constraint_strategies(arg, values=VALUES, offsets=offset_st) -> dict:
    """Constraint descriptions per kind, their term arguments drawn from `arg`, table
    entries from `values`, offsets from `offsets`."""
    return {
        "eq": st.tuples(st.just("eq"), arg, arg),  # kanren's eq: bindings and aliasing reach the store
        "neq": st.tuples(st.just("neq"), arg, arg),  # neq's own store beside the FD store
        "lt": st.tuples(st.just("lt"), arg, arg, offsets),
        "leq": st.tuples(st.just("leq"), arg, arg, offsets),
        "eq_offset": st.tuples(st.just("eq_offset"), arg, arg, offsets),
        "neq_offset": st.tuples(st.just("neq_offset"), arg, arg, offsets),
        "abs_diff": st.tuples(st.just("abs_diff"), arg, arg, arg),
        "not_abs_diff": st.tuples(st.just("not_abs_diff"), arg, arg, arg),
        "all_different": st.tuples(st.just("all_different"), st.lists(arg, min_size=2, max_size=4)),
        "sum": st.tuples(st.just("sum"), st.lists(st.tuples(arg, st.integers(-3, 3)), min_size=1, max_size=4), arg),
        "element": st.tuples(st.just("element"), arg, st.lists(arg, min_size=1, max_size=4), arg),
        "table": st.tuples(st.just("table"), st.lists(arg, min_size=1, max_size=3),
                           st.lists(st.lists(st.sampled_from(values), min_size=3, max_size=3), min_size=1, max_size=6)),
    }


CONSTRAINT_STRATEGIES = constraint_strategies(arg_st)
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


ARG_KINDS = ("v", "c", "j")  # a variable, an int constant, a non-integer term (JUNK)


def flat_args(c) -> list:
    """The argument terms of a constraint description, in order."""
    out = []
    for part in c[1:]:
        if isinstance(part, tuple) and part and part[0] in ARG_KINDS:
            out.append(part)
        elif isinstance(part, list):
            out.extend(p for p in part if isinstance(p, tuple) and p and p[0] in ARG_KINDS)
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
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=4), st.sampled_from(sorted(STRATEGIES)))
def test_labelling_finds_exactly_the_brute_force_solutions(domains, constraints, strategy):
    assert_labels_to_brute_force(domains, constraints, strategy)


def assert_labels_to_brute_force(domains, constraints, strategy) -> None:
    """Labelling the FD model finds exactly the brute-force solutions, none twice."""
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
    if residual:  # a constraint (neq included) whose arguments propagation has fixed holds for them
        fixed = {k: r for k, r in enumerate(residual[0]) if isinstance(r, int)}
        val = (lambda a: fixed[a[1]] if a[0] == "v" else a[1])
        for c in constraints:
            if all(a[0] == "c" or a[1] in fixed for a in flat_args(c)):
                assert holds(c, val), c


@settings(max_examples=200, deadline=None)
@given(domains_st, st.one_of(*(CONSTRAINT_STRATEGIES[k] for k in DOMAIN_CONSISTENT)))
def test_domain_consistent_constraints_keep_only_supported_values(domains, c):
    """For one domain-consistent constraint alone, the residual domains are exactly the supports.

    (Domain consistency is defined for distinct variables; all_differento also sees repeats.)
    """
    assert_keeps_exactly_the_supports(domains, c)


def assert_keeps_exactly_the_supports(domains, c) -> None:
    """Propagating the one constraint `c` leaves each variable exactly its supported values."""
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


FD_ONLY = [v for k, v in CONSTRAINT_STRATEGIES.items() if k not in ("eq", "neq")]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sets(st.sampled_from(VALUES), min_size=1, max_size=3), min_size=N_VARS, max_size=N_VARS),
       st.lists(CONSTRAINT_STRATEGIES["neq"], min_size=1, max_size=3),
       st.lists(st.one_of(*FD_ONLY), min_size=1, max_size=3))
def test_neq_before_fd_goals_is_checked_when_propagation_fixes_a_value(domains, neqs, fds):
    """neq posted first, FD goals after: a residual never shows values that a neq forbids."""
    xs, goals = fd_problem(domains, [*neqs, *fds])
    residual = run(0, xs, *goals)
    if residual:
        fixed = {k: r for k, r in enumerate(residual[0]) if isinstance(r, int)}
        val = (lambda a: fixed[a[1]] if a[0] == "v" else a[1])
        for c in neqs:
            if all(a[0] == "c" or a[1] in fixed for a in flat_args(c)):
                assert holds(c, val), c
    assert set(run(0, xs, *goals, labelo(xs))) == brute_force(domains, [*neqs, *fds])


def test_a_zero_coefficient_still_requires_an_int():
    """0·0.5 = x fails (clpfd raises a type error); 0·y = 0 leaves y's domain alone (found by hypothesis)."""
    x, y = var(), var()
    assert run(0, x, sumo([0.5], x, [0])) == ()
    assert run(0, y, domo(y, range(3)), sumo([y], 0, [0]), labelo([y])) == (0, 1, 2)


def test_neq_in_one_conde_branch_does_not_leak_into_the_next():
    x = var()
    assert sorted(run(0, x, domo(x, [1, 2]), conde([neq(x, 1)], [eq(x, 1)]), labelo([x]))) == [1, 2]


# -- mixed terms: FD goals beside eq with non-integers, in any order, against brute force --

N_MIXED = 3
JUNK = [0.5, 2.5, True, False, "a", [], ("f", "a")]  # no int among them, none equal to another
mixed_var_st = st.integers(0, N_MIXED - 1).map(lambda i: ("v", i))
# a non-integer term: a constant from JUNK, or a list or compound holding a variable
junk_st = st.one_of(
    st.integers(0, len(JUNK) - 1).map(lambda k: ("j", k)),
    mixed_var_st.map(lambda v: ("j", "list", v)),
    mixed_var_st.map(lambda v: ("j", "compound", v)),
)
mixed_arg_st = st.one_of(mixed_var_st, st.sampled_from(VALUES).map(lambda c: ("c", c)), junk_st)
MIXED_CONSTRAINTS = {k: v for k, v in constraint_strategies(mixed_arg_st).items() if k not in ("eq", "neq")}
# eq binds a variable to another or to a non-integer (ints come only from labelling, last)
mixed_eq_st = st.tuples(st.just("eq"), mixed_var_st, st.one_of(mixed_var_st, junk_st))


def mixed_term(xs):
    def term(a):
        if a[0] == "v":
            return xs[a[1]]
        if a[0] == "c":
            return a[1]
        if a[1] == "list":
            return [xs[a[2][1]], "a"]
        if a[1] == "compound":
            return ("f", xs[a[2][1]])
        return JUNK[a[1]]
    return term


@settings(max_examples=250, deadline=None)
@given(
    st.lists(st.sets(st.sampled_from(VALUES), min_size=1, max_size=4), min_size=N_MIXED, max_size=N_MIXED),
    st.lists(st.one_of(*MIXED_CONSTRAINTS.values(), mixed_eq_st), min_size=1, max_size=4),
    st.data(),
)
def test_fd_goals_with_non_integer_terms_in_any_order_match_brute_force(domains, constraints, data):
    """Where an FD argument is, or gets bound to, a non-integer, the goals fail, whichever comes first.

    The model: every variable is an int of its domain; an FD constraint holds only when all
    its arguments are ints; eq of a variable with a non-integer never holds.
    """
    xs = tuple(vars(N_MIXED, "x"))
    term = mixed_term(xs)
    goals = [domo(x, d) for x, d in zip(xs, domains)] + [goal_of(c, term) for c in constraints]
    order = data.draw(st.permutations(range(len(goals))))
    found = run(0, xs, *[goals[k] for k in order], labelo(xs))

    def holds_mixed(c, val):
        if any(a[0] == "j" for a in flat_args(c)):
            return False
        return holds(c, val)

    expected = set()
    for assignment in itertools.product(*[sorted(d) for d in domains]):
        val = (lambda a: assignment[a[1]] if a[0] == "v" else a[1])
        if all(holds_mixed(c, val) for c in constraints):
            expected.add(assignment)
    assert len(found) == len(set(found)) and set(found) == expected


# -- aliasing after posting: domains intersect, watchers merge, sums count a variable once --

@settings(max_examples=200, deadline=None)
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=3), st.data())
def test_aliasing_after_posting_propagates_as_aliasing_before(domains, constraints, data):
    """eq(x_i, x_j) after the constraints leaves the residual domains that it leaves before them,
    and so does binding x_j next: the intersection of domains and the merge of watchers lose nothing.
    """
    mentioned = sorted({a[1] for c in constraints for a in flat_args(c) if a[0] == "v"} or {0})
    i = data.draw(st.sampled_from(mentioned))  # x_i has constraints that x_j must take over
    j = data.draw(st.sampled_from([k for k in range(N_VARS) if k != i]))
    v = data.draw(st.sampled_from(sorted(domains[i] & domains[j]) or sorted(domains[j])))
    xs, goals = fd_problem(domains, constraints)
    alias, bind = eq(xs[i], xs[j]), eq(xs[j], v)

    def residual(*goals):  # the value sets left to each variable (which of two aliases stands for both is free)
        return [[values(r) for r in answer] for answer in run(0, xs, *goals)]

    after = residual(*goals, alias)
    assert after == residual(alias, *goals)
    assert residual(*goals, alias, bind) == residual(alias, bind, *goals)
    if after:
        assert after[0][i] == after[0][j] <= set(domains[i]) & set(domains[j])


sum_st = st.tuples(
    st.lists(st.tuples(st.integers(0, 2), st.sampled_from([-3, -2, -1, 1, 2, 3])), min_size=1, max_size=4),
    st.integers(-6, 10),
)
interval_st = st.tuples(st.integers(-3, 3), st.integers(0, 5)).map(lambda t: range(t[0], t[0] + t[1] + 1))


def sum_residuals(intervals, terms, total, alias=None):
    """logicpy's residual value sets of three variables under one sumo (then eq(x_i, x_j)), or None."""
    xs = vars(3)
    goals = [domo(x, r) for x, r in zip(xs, intervals)]
    goals.append(sumo([xs[i] for i, _ in terms], total, [a for _, a in terms]))
    if alias is not None:
        goals.append(eq(xs[alias[0]], xs[alias[1]]))
    answers = run(0, tuple(xs), *goals)
    return [sorted(values(r)) for r in answers[0]] if answers else None


def clpfd_residuals(intervals, terms, total, alias=None):
    """SWI clpfd's residual value sets for the same problem, or None when it fails."""
    from logicpy import swi

    swi.query("use_module(library(clpfd))")
    names = ["X0", "X1", "X2"]
    goal = [f"{n} in ({r.start})..({r.stop - 1})" for n, r in zip(names, intervals)]
    goal.append(" + ".join(f"({a})*{names[i]}" for i, a in terms) + f" #= {total}")
    if alias is not None:
        goal.append(f"{names[alias[0]]} = {names[alias[1]]}")
    goal += [f"(integer({n}) -> L{n} = [{n}] ; fd_dom({n}, D{n}), findall(V, (V in D{n}, indomain(V)), L{n}))"
             for n in names]
    answers = swi.query(", ".join(goal))
    return [list(answers[0][f"L{n}"]) for n in names] if answers else None


@pytest.mark.swi
@settings(max_examples=60, deadline=None)
@given(st.lists(interval_st, min_size=3, max_size=3), sum_st)
def test_sums_with_repeated_variables_prune_as_clpfd_does(intervals, s):
    """One sumo over three variables, some repeated: every supported value is kept, and the
    residual domains are clpfd's exactly when clpfd's reasoning is bounds reasoning.

    clpfd also reasons on divisibility, which bounds propagation does not: for
    -3*X0 - 3*X1 + 2*X2 #= 0 over {0,1}, {0,1}, {0..2} it leaves only 0s (3 divides 2*X2),
    where logicpy keeps {0,1}, {0,1}, {0..2}; both have the same single solution.
    """
    terms, total = s
    ours = sum_residuals(intervals, terms, total)
    theirs = clpfd_residuals(intervals, terms, total)
    solutions = [a for a in itertools.product(*intervals) if sum(k * a[i] for i, k in terms) == total]
    if ours is None:
        assert not solutions and theirs is None
        return
    if theirs is None:  # clpfd proved failure by divisibility; logicpy's labelling must agree
        assert not solutions
        return
    for k in range(3):
        assert {a[k] for a in solutions} <= set(theirs[k]) <= set(ours[k])
    if all(len(set(ours[k])) == len(range(min(ours[k]), max(ours[k]) + 1)) for k in range(3)):
        # an interval on every variable: clpfd's bounds agree with ours unless it used divisibility
        coefficients = {abs(k) for _, k in terms}
        if len(coefficients) == 1:
            assert ours == theirs


def test_bounds_reasoning_keeps_divisibility_supports_until_labelling():
    """The case above, stated: bounds propagation keeps the domains, labelling finds the one solution."""
    xs = vars(3)
    goals = [domo(xs[0], range(2)), domo(xs[1], range(2)), domo(xs[2], range(3)), sumo(xs, 0, [-3, -3, 2])]
    assert run(0, tuple(xs), *goals, labelo(xs)) == ((0, 0, 0),)


@pytest.mark.swi
def test_repeated_variable_sum_as_in_clpfd():
    x = var("x")
    assert run(0, x, sumo([x, x], 6)) == (3,)
    assert clpfd_residuals([range(0, 10)] * 3, [(0, 1), (0, 1)], 6) == [[3], list(range(10)), list(range(10))]
    assert sum_residuals([range(0, 10)] * 3, [(0, 1), (0, 1)], 6) == [[3], list(range(10)), list(range(10))]


@pytest.mark.swi
@settings(max_examples=40, deadline=None)
@given(st.lists(interval_st, min_size=3, max_size=3), sum_st, st.sampled_from([(0, 1), (1, 2), (0, 2)]))
def test_sums_aliased_after_posting_prune_at_least_as_clpfd_does(intervals, s, alias):
    """eq(x_i, x_j) after the sum: logicpy merges the two (clpfd does not), never losing a solution."""
    terms, total = s
    ours = sum_residuals(intervals, terms, total, alias)
    theirs = clpfd_residuals(intervals, terms, total, alias)
    solutions = [a for a in itertools.product(*intervals)
                 if a[alias[0]] == a[alias[1]] and sum(k * a[i] for i, k in terms) == total]
    if ours is None:
        assert not solutions
        return
    assert theirs is not None
    for k in range(3):
        assert {a[k] for a in solutions} <= set(ours[k]) <= set(theirs[k])


# ---------------------------------------------------------------- reified and boolean constraints (issue 12)

from logicpy.core import ando, impo, noto, oro, reif_eqo, reif_leqo, reif_lto, xoro  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 5), min_size=1, max_size=4, unique=True),
       st.lists(st.integers(-3, 5), min_size=1, max_size=4, unique=True), st.integers(-2, 2))
def test_reified_comparisons_agree_with_brute_force(xs, ys, c):
    x, y, b = var(), var(), var()
    for goal, holds in [(reif_leqo(x, y, b, c), lambda p, q: p <= q + c),
                        (reif_eqo(x, y, b, c), lambda p, q: p == q + c),
                        (reif_lto(x, y, b), lambda p, q: p < q)]:
        got = run(0, (x, y, b), domo(x, xs), domo(y, ys), goal, labelo([x, y]))
        assert sorted(got) == sorted((p, q, int(holds(p, q))) for p in xs for q in ys)
        # posted with b fixed first, labelling only x and y: the same answers with b given
        for truth in (0, 1):
            got = run(0, (x, y), domo(x, xs), domo(y, ys), eq(b, truth), goal, labelo([x, y]))
            assert sorted(got) == sorted((p, q) for p in xs for q in ys if int(holds(p, q)) == truth)


def test_reified_comparison_decides_b_from_bounds_without_labelling():
    x, b = var(), var()
    assert run(0, b, domo(x, range(1, 4)), reif_lto(x, 9, b)) == (1,)
    assert run(0, b, domo(x, range(5, 9)), reif_eqo(x, 3, b)) == (0,)


def test_boolean_constraints_are_their_truth_tables():
    a, b, r = var(), var(), var()
    tables = {ando: lambda p, q: p & q, oro: lambda p, q: p | q, xoro: lambda p, q: p ^ q,
              impo: lambda p, q: int(not p or q)}
    for goal, fn in tables.items():
        assert sorted(run(0, (a, b, r), goal(a, b, r), labelo([a, b, r]))) == [
            (p, q, fn(p, q)) for p in (0, 1) for q in (0, 1)]
    assert sorted(run(0, (a, r), noto(a, r), labelo([a, r]))) == [(0, 1), (1, 0)]


def test_knights_and_knaves_without_hand_written_truth_tables():
    """Smullyan: A says "B is a knave"; B says "A and I are of the same kind".
    A knight (1) tells the truth, a knave (0) lies: each speaker equals their statement."""
    a, b, s1, s2 = var(), var(), var(), var()
    got = run(0, (a, b), domo(a, [0, 1]), domo(b, [0, 1]),
              noto(b, s1), eq(a, s1), reif_eqo(a, b, s2), eq(b, s2), labelo([a, b]))
    assert got == ((1, 0),)


from logicpy.core import producto  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-4, 6), min_size=1, max_size=5, unique=True),
       st.lists(st.integers(-4, 6), min_size=1, max_size=5, unique=True),
       st.one_of(st.integers(-12, 20), st.lists(st.integers(-12, 20), min_size=1, max_size=6, unique=True)))
def test_producto_agrees_with_brute_force(xs, ys, zs):
    """x · y = z in every mode: z fixed, or z with a domain and labelled too."""
    x, y, z = var(), var(), var()
    if isinstance(zs, int):
        got = run(0, (x, y), domo(x, xs), domo(y, ys), producto(x, y, zs), labelo([x, y]))
        assert sorted(got) == sorted((p, q) for p in xs for q in ys if p * q == zs)
    else:
        got = run(0, (x, y, z), domo(x, xs), domo(y, ys), domo(z, zs), producto(x, y, z), labelo([x, y, z]))
        assert sorted(got) == sorted((p, q, p * q) for p in xs for q in ys if p * q in zs)


def test_producto_narrows_without_labelling():
    x, y, z = var(), var(), var()
    [dz] = run(0, z, domo(x, range(2, 5)), domo(y, range(3, 6)), producto(x, y, z))
    assert (dz.domain.min, dz.domain.max) == (6, 20)
    [dx] = run(0, x, domo(x, range(0, 100)), domo(y, range(4, 6)), producto(x, y, 20))
    assert (dx.domain.min, dx.domain.max) == (4, 5)


from logicpy.core import fdo  # noqa: E402

_OPS = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
        "=<": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(_OPS)), st.integers(-3, 3), st.integers(-3, 3), st.integers(-6, 6),
       st.booleans())
def test_fdo_agrees_with_python_arithmetic(op, a, b, k, product):
    """a·x + b·y (or x·y − b·x) op k + y, over x, y in -3..4, against brute force."""
    x, y = var(), var()
    lhs = ("-", ("*", x, y), ("*", b, x)) if product else ("+", ("*", a, x), ("*", b, y))
    value = (lambda p, q: p * q - b * p) if product else (lambda p, q: a * p + b * q)
    got = run(0, (x, y), domo(x, range(-3, 5)), domo(y, range(-3, 5)), fdo(lhs, op, ("+", k, y)), labelo([x, y]))
    expected = [(p, q) for p in range(-3, 5) for q in range(-3, 5) if _OPS[op](value(p, q), k + q)]
    assert sorted(got) == expected


def test_fdo_names_bad_expressions_and_operators():
    x = var()
    with pytest.raises(TermError, match="not an expression"):
        fdo(("/", x, 2), "=", 1)
    with pytest.raises(InputError, match="operator '~'"):
        fdo(x, "~", 1)
    # Python's, Prolog's and clpfd's spellings of the comparisons
    for same, ops in {"=": ["==", "#=", "=:="], "!=": ["\\=", "=\\=", "#\\=", "<>"], "=<": ["<=", "#=<"],
                      "<": ["#<"], ">": ["#>"], ">=": ["#>="]}.items():
        for op in ops:
            want = run(0, x, domo(x, range(5)), fdo(x, same, 2), labelo([x]))
            assert run(0, x, domo(x, range(5)), fdo(x, op, 2), labelo([x])) == want, op
    assert run(0, x, fdo(("*", 2, 3), "=", 6), eq(x, 1)) == (1,)
    assert run(0, x, fdo(("*", 2, 3), "<", 6), eq(x, 1)) == ()


# ---------------------------------------------------------------- values of any size (issue 14)
# A domain is a bitset in the store's window or a Domain of intervals (store.py); the same
# brute-force cross-checks run on values near ±10**12 and ±10**40, mixed with small ones.

from unittest import mock  # noqa: E402

from logicpy.core.fd import goals as G, store as S  # noqa: E402

HUGE = (-10**40, -10**12 - 1, -10**12, -1, 0, 1, 2, 10**12, 10**12 + 1, 10**12 + 2, 10**40, 10**40 + 1)
huge_arg_st = st.one_of(index_st.map(lambda i: ("v", i)), st.sampled_from(HUGE).map(lambda c: ("c", c)))
huge_offset_st = st.sampled_from([-10**40, -10**12, -2, -1, 0, 1, 2, 10**12, 10**12 + 1, 10**40])
HUGE_CONSTRAINTS = constraint_strategies(huge_arg_st, HUGE, huge_offset_st)
huge_domains_st = st.lists(st.sets(st.sampled_from(HUGE), min_size=1, max_size=5), min_size=N_VARS, max_size=N_VARS)


@settings(max_examples=200, deadline=None)
@given(huge_domains_st, st.lists(st.one_of(*HUGE_CONSTRAINTS.values()), min_size=1, max_size=4),
       st.sampled_from(["ff", "leftmost"]))
def test_huge_and_sparse_values_label_to_the_brute_force_solutions(domains, constraints, strategy):
    assert_labels_to_brute_force(domains, constraints, strategy)


@settings(max_examples=150, deadline=None)
@given(huge_domains_st, st.one_of(*(HUGE_CONSTRAINTS[k] for k in DOMAIN_CONSISTENT)))
def test_huge_and_sparse_values_keep_exactly_the_supported_values(domains, c):
    """Domain consistency holds for sparse domains too (few values: reasoned value by value)."""
    assert_keeps_exactly_the_supports(domains, c)


def narrow_window():
    """Shrink the bitset window to 4 values, value-by-value reasoning to 2 and enumeration to
    2: every domain of the small cross-checks is then a Domain of intervals, reasoned on by
    bounds and labelled by splitting, so those paths meet the brute-force oracle."""
    patches = [mock.patch.object(S, "WIDE", 4), mock.patch.object(P, "WIDE", 4), mock.patch.object(P, "FEW", 2),
               mock.patch.object(G, "SPLIT", 2)]
    stack = __import__("contextlib").ExitStack()
    for patch in patches:
        stack.enter_context(patch)
    return stack


@settings(max_examples=250, deadline=None)
@given(domains_st, st.lists(constraint_st, min_size=1, max_size=4), st.sampled_from(["ff", "leftmost"]))
def test_interval_domains_bounds_reasoning_and_splitting_match_brute_force(domains, constraints, strategy):
    expected = brute_force(domains, constraints)
    with narrow_window():
        xs, goals = fd_problem(domains, constraints)
        found = run(0, xs, *goals, labelo(xs, strategy))
        residual = run(0, xs, *goals)
    assert len(found) == len(set(found)) and set(found) == expected
    if expected:  # propagation on intervals never removes a value of a solution
        (answer,) = residual
        for k, r in enumerate(answer):
            assert {s[k] for s in expected} <= values(r)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(HUGE), st.integers(0, 6)), min_size=1, max_size=4),
       st.lists(st.tuples(st.sampled_from(HUGE), st.integers(0, 6)), min_size=1, max_size=4),
       st.integers(-10**40, 10**40))
def test_domain_operations_agree_with_python_sets(a_runs, b_runs, probe):
    """Domain (intervals) and the store's mixed bitset/Domain operations against frozensets."""
    a = {lo + k for lo, n in a_runs for k in range(n + 1)}
    b = {lo + k for lo, n in b_runs for k in range(n + 1)}
    da, db = Domain.of(a), Domain.of(b)
    assert set(da) == a and da.size == len(a) and (da.min, da.max) == (min(a), max(a))
    assert set(da & db) == a & b and set(da | db) == a | b and set(da.shift(7)) == {v + 7 for v in a}
    assert set(da.clip(0, 10**12)) == {v for v in a if 0 <= v <= 10**12} and set(da.without(min(a))) == a - {min(a)}
    assert (probe in da) == (probe in a) and all(v in da for v in a)
    assert da == a and hash(da) == hash(frozenset(a))
    store = S.FDStore(base=min(a))  # a's small values as a bitset when they fit the window
    fa, fb = store._form(da), store._form(db)
    assert set(store.as_domain(store._intersect(fa, fb) or 0)) == a & b
    assert set(store.as_domain(store.union(fa, fb))) == a | b
    assert set(store.as_domain(store.shifted(fa, -3))) == {v - 3 for v in a}


def test_values_far_apart_label_to_exactly_themselves():
    x = var()
    assert run(0, x, domo(x, [0, 10**12, 10**40]), labelo([x])) == (0, 10**12, 10**40)
    (r,) = run(0, x, domo(x, [10**40, 0, 10**12]))
    assert repr(r.domain) == "{0, 1000000000000, 10000000000000000000000000000000000000000}"
    (r,) = run(0, x, domo(x, range(1, 10**15 + 1)), neq_offseto(x, 7))
    assert repr(r.domain) == "{1..6, 8..1000000000000000}" and r.domain.size == 10**15 - 1


def test_a_huge_system_is_solved_by_splitting_not_enumerating():
    """x, y in 1..10**15, x + y = 10**15 + 1, x − y = 1: bounds propagation alone leaves both
    wide; labelling splits domains in halves, so it takes a few dozen narrowings, not 10**14."""
    calls: list = []
    Counting = _recorder(calls)
    n = 10**15
    x, y = var(), var()
    goals = (inso([x, y], range(1, n + 1)), sumo([x, y], n + 1), sumo([x, y], 1, [1, -1]), post(Counting(x)))
    assert run(0, (x, y), *goals, labelo([x, y])) == ((n // 2 + 1, n // 2),)
    assert len(calls) < 500
    (rx,) = run(0, x, *goals)  # without labelling: bounds only, as clpfd
    assert (rx.domain.min, rx.domain.max) == (2, n)
    assert run(3, x, domo(x, range(1, n + 1)), labelo([x])) == (1, 2, 3)  # values come lazily
    assert run(0, y, domo(x, range(1, 10**18 + 1)), domo(y, range(0, 10**18 + 1)), lto(x, y))[0].domain == Domain.of(
        range(2, 10**18 + 1))


def test_a_store_of_values_near_1e40_stays_small():
    import tracemalloc

    big = 10**40
    xs = vars(6)
    goals = [inso(xs[:3], range(big, big + 10**30)), inso(xs[3:], [big, big + 10**12, big + 2 * 10**12, -big]),
             all_differento(xs), lto(xs[0], xs[1]), sumo(xs[:3], 3 * big + 10**20), abs_diffo(xs[3], xs[4], 10**12)]
    tracemalloc.start()
    try:
        answers = run(2, tuple(xs), *goals, labelo(xs))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(answers) == 2 and all(len(set(a)) == 6 and abs(a[3] - a[4]) == 10**12 for a in answers)
    assert peak < 1_000_000  # a bitset over the span would take 10**30 bits


@pytest.mark.swi
@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([-10**40, -10**12, 0, 10**12, 10**40]), st.integers(-10**15, 10**15),
                          st.integers(0, 10**15)), min_size=3, max_size=3),
       st.lists(st.sampled_from([-1, 1]), min_size=3, max_size=3), st.integers(-10**15, 10**15))
def test_bounds_on_huge_intervals_are_clpfd_bounds(intervals, signs, shift):
    """Σ ±x_i = t over intervals near ±10**12 and ±10**40, up to 10**15 wide: logicpy's
    residual bounds are SWI clpfd's (both bounds consistent; neither enumerates)."""
    from logicpy import swi

    ranges = [(a + b, a + b + w) for a, b, w in intervals]
    total = sum(sg * lo for sg, (lo, _) in zip(signs, ranges)) + shift
    xs = vars(3)
    ours = run(0, tuple(xs), *[domo(x, range(lo, hi + 1)) for x, (lo, hi) in zip(xs, ranges)], sumo(xs, total, signs))
    swi.query("use_module(library(clpfd))")
    names = ["X0", "X1", "X2"]
    goal = [f"{n} in ({lo})..({hi})" for n, (lo, hi) in zip(names, ranges)]
    goal.append(" + ".join(f"({sg})*{n}" for sg, n in zip(signs, names)) + f" #= {total}")
    goal += [f"fd_inf({n}, L{n}), fd_sup({n}, H{n})" for n in names]
    theirs = swi.query(", ".join(goal))
    if not ours:
        assert not theirs
        return
    assert theirs
    got = [(v, v) if isinstance(v, int) else (v.domain.min, v.domain.max) for v in ours[0]]
    assert got == [(theirs[0][f"L{n}"], theirs[0][f"H{n}"]) for n in names]


def test_queens_with_rows_numbered_from_1e12_are_the_queens_shifted():
    queens = load_example("queens")
    shifted = tuple(tuple(r + 10**12 - 1 for r in s) for s in queens.solve(6))
    assert queens.solve(6, first=10**12) == shifted and len(shifted) == 4  # A000170


def test_the_window_keeps_compact_domains_as_bitsets_and_moves_only_when_cheap():
    x, y, z = var(), var(), var()
    (state,) = lall(domo(x, range(0, 3)), eq_offseto(y, x, -10), domo(z, [5, 10**12]))({})
    store = state.constraints[FDStore]
    assert store.base == -10 and isinstance(store.dom(x), int) and isinstance(store.dom(y), int)
    assert isinstance(store.dom(z), Domain) and store.dom(z).ranges == ((5, 5), (10**12, 10**12))
    store.ensure_base(-10**12)  # a bitset 10**12 wide: refused, nothing moves
    assert store.base == -10 and store.members(x) == {0, 1, 2}
    store.ensure_base(-20)
    assert store.base == -20 and store.members(x) == {0, 1, 2} and store.members(y) == {-10, -9, -8}
    (state,) = lall(domo(x, range(10**12, 10**12 + 8)))({})  # the first compact domain places the window
    assert state.constraints[FDStore].base == 10**12 and isinstance(state.constraints[FDStore].dom(x), int)


# -- constructive disjunction (disjo) and channelling (channelo) ------------------------------

from logicpy.core import channelo, disjo  # noqa: E402

alternative_st = st.lists(st.one_of(*FD_ONLY), min_size=1, max_size=3)


@settings(max_examples=80, deadline=None)
@given(domains_st, st.lists(alternative_st, min_size=2, max_size=3), st.sampled_from(sorted(STRATEGIES)))
def test_disjo_finds_each_solution_of_any_alternative_once(domains, alternatives, strategy):
    """disjo's solutions are the union of its alternatives' (brute force), each found once, and
    the same set as the conde of the alternatives, which finds a shared solution once per branch."""
    xs, goals = fd_problem(domains, [])
    term = (lambda a: xs[a[1]] if a[0] == "v" else a[1])
    expected = set().union(*(brute_force(domains, alt) for alt in alternatives))
    found = run(0, xs, *goals, disjo(*([goal_of(c, term) for c in alt] for alt in alternatives)), labelo(xs, strategy))
    assert len(found) == len(set(found))
    assert set(found) == expected
    by_conde = run(0, xs, *goals, conde(*([goal_of(c, term) for c in alt] for alt in alternatives)), labelo(xs))
    assert set(by_conde) == set(found)


@settings(max_examples=80, deadline=None)
@given(domains_st, st.lists(alternative_st, min_size=2, max_size=3))
def test_disjo_keeps_every_value_of_a_solution_and_prunes_to_the_union(domains, alternatives):
    """Before labelling: no value of a solution is removed, and a variable every alternative
    mentions keeps no value that no alternative alone allows (each alternative alone is
    propagated, so the union of their residual domains bounds it)."""
    xs, goals = fd_problem(domains, [])
    term = (lambda a: xs[a[1]] if a[0] == "v" else a[1])
    expected = set().union(*(brute_force(domains, alt) for alt in alternatives))
    residual = run(0, xs, *goals, disjo(*([goal_of(c, term) for c in alt] for alt in alternatives)))
    if not expected:
        assert len(residual) <= 1  # propagation need not find every failure
        return
    (answer,) = residual
    alone = [run(0, xs, *goals, *(goal_of(c, term) for c in alt)) for alt in alternatives]
    mentioned = [{a[1] for c in alt for a in flat_args(c) if a[0] == "v"} for alt in alternatives]
    for k, r in enumerate(answer):
        assert {s[k] for s in expected} <= values(r)
        if all(k in m for m in mentioned):
            assert values(r) <= set().union(*(values(a[0][k]) for a in alone if a))


def test_disjo_commits_to_the_one_alternative_left_and_narrows_to_the_union():
    x, y = var("x"), var("y")
    # x = 1 is out of x's domain, so x = 5 holds at once, without search
    assert run(0, x, domo(x, range(2, 7)), disjo(eq_offseto(x, 1, 0), eq_offseto(x, 5, 0))) == (5,)
    # neither alternative alone fixes x, but together they leave it {1, 5}
    (r,) = run(0, x, domo(x, range(0, 9)), disjo(eq_offseto(x, 1, 0), eq_offseto(x, 5, 0)))
    assert set(r.domain) == {1, 5}
    # an alternative that fails only with another constraint: y = x + 1 and x >= 8 leave y no value
    (r,) = run(0, x, domo(x, range(0, 9)), domo(y, range(0, 9)), lto(7, x),
               disjo([eq_offseto(y, x, 1)], [eq_offseto(x, 8, 0)]))
    assert r == 8
    assert run(0, x, domo(x, [1, 2]), disjo(eq_offseto(x, 3, 0), eq_offseto(x, 4, 0))) == ()
    assert run(0, x, domo(x, [1, 2]), disjo()) == ()
    assert run(0, x, domo(x, [1, 2]), disjo([lto(x, 2)])) == (1,)


def test_disjo_nests_and_names_what_it_cannot_try():
    x, y = var("x"), var("y")
    inner = disjo(eq_offseto(y, 1, 0), eq_offseto(y, 2, 0))
    got = run(0, (x, y), inso([x, y], range(0, 4)), disjo([eq_offseto(x, 0, 0), inner], eq_offseto(x, y, 0)),
              labelo([x, y]))
    assert sorted(got) == [(0, 0), (0, 1), (0, 2), (1, 1), (2, 2), (3, 3)]
    with pytest.raises(TermError, match="disjo: alternative 2: .* is not a finite-domain constraint"):
        disjo(lto(x, 1), eq(x, 1))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sets(st.integers(1, n), min_size=1), min_size=n, max_size=n),
    st.lists(st.sets(st.sampled_from([10 * k for k in range(1, n + 1)]), min_size=1), min_size=n, max_size=n))))
def test_channelo_solutions_are_the_permutations_its_domains_allow(doms):
    """channelo(xs, ys, keys): xs a permutation of 1..n and ys[xs[i]] = keys[i], brute force;
    before labelling no value of a solution is removed."""
    xdoms, ydoms = doms
    n = len(xdoms)
    keys = [10 * k for k in range(1, n + 1)]
    xs, ys = vars(n, "x"), vars(n, "y")
    goals = [domo(x, d) for x, d in zip(xs, xdoms)] + [domo(y, d) for y, d in zip(ys, ydoms)]
    expected = set()
    for perm in itertools.permutations(range(1, n + 1)):
        inverse = [0] * n
        for i, j in enumerate(perm):
            inverse[j - 1] = keys[i]
        if all(j in d for j, d in zip(perm, xdoms)) and all(k in d for k, d in zip(inverse, ydoms)):
            expected.add(perm + tuple(inverse))
    found = run(0, (*xs, *ys), *goals, channelo(xs, ys, keys), labelo(xs))
    assert set(found) == expected and len(found) == len(expected)
    residual = run(0, (*xs, *ys), *goals, channelo(xs, ys, keys))
    if expected:
        for k, r in enumerate(residual[0]):
            assert {s[k] for s in expected} <= values(r)


def test_channelo_prunes_both_views_and_checks_its_arguments():
    xs, ys = vars(3, "x"), vars(3, "y")
    # item 1 (key 10) is not at place 1 and neither is item 2: place 1 holds item 3
    assert run(0, ys[0], inso(xs, range(1, 4)), channelo(xs, ys, [10, 20, 30]),
               neq_offseto(xs[0], 1), neq_offseto(xs[1], 1)) == (30,)
    # place 2 cannot hold key 20, so item 2 is not at place 2
    (r,) = run(0, xs[1], inso(xs, range(1, 4)), channelo(xs, ys, [10, 20, 30]), domo(ys[1], [10, 30]))
    assert set(r.domain) == {1, 3}
    # keys default to 1..n: ys is the inverse permutation (place 1 holds item 2, place 2 item 3)
    assert run(0, xs, channelo(xs, ys), eq_offseto(ys[0], 2, 0), eq_offseto(ys[1], 3, 0)) == ([3, 1, 2],)
    with pytest.raises(InputError, match="distinct keys"):
        channelo(xs, ys, [1, 1, 2])
    with pytest.raises(TermError, match="keys must be ints"):
        channelo(xs, ys, [1, 2, "c"])
    with pytest.raises(TermError, match="argument ys must be a list"):
        channelo(xs, var("ys"))


# -- disjo and channelo on values of any size (issue 14) -----------------------------------

HUGE_FD_ONLY = [v for k, v in HUGE_CONSTRAINTS.items() if k not in ("eq", "neq")]


@settings(max_examples=60, deadline=None)
@given(huge_domains_st, st.lists(st.lists(st.one_of(*HUGE_FD_ONLY), min_size=1, max_size=3), min_size=2, max_size=3),
       st.booleans())
def test_disjo_on_huge_values_and_interval_domains_matches_brute_force(domains, alternatives, narrow):
    """disjo's trials on values near ±10**12 and ±10**40 (and, with `narrow`, every domain as
    intervals): the union of its alternatives' solutions, each once."""
    expected = set().union(*(brute_force(domains, alt) for alt in alternatives))
    with narrow_window() if narrow else __import__("contextlib").nullcontext():
        xs, goals = fd_problem(domains, [])
        term = (lambda a: xs[a[1]] if a[0] == "v" else a[1])
        found = run(0, xs, *goals, disjo(*([goal_of(c, term) for c in alt] for alt in alternatives)), labelo(xs))
    assert len(found) == len(set(found)) and set(found) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sets(st.integers(1, n), min_size=1), min_size=n, max_size=n),
    st.lists(st.sets(st.integers(0, n - 1), min_size=1), min_size=n, max_size=n))),
    st.sampled_from([(10**40, 10**12), (-10**40, 1), (0, 10**12)]), st.booleans())
def test_channelo_with_keys_far_apart_matches_brute_force(doms, spread, narrow):
    """Keys k0 + step·i (10**40 + 10**12·i, ...): the places' and keys' domains cannot share a
    bitset window, so the channel reads values (`_by_values`); brute force over permutations."""
    xdoms, key_ranks = doms
    n = len(xdoms)
    k0, step = spread
    keys = [k0 + step * i for i in range(n)]
    ydoms = [{keys[r] for r in d} for d in key_ranks]
    expected = set()
    for perm in itertools.permutations(range(1, n + 1)):
        inverse = [0] * n
        for i, j in enumerate(perm):
            inverse[j - 1] = keys[i]
        if all(j in d for j, d in zip(perm, xdoms)) and all(k in d for k, d in zip(inverse, ydoms)):
            expected.add(perm + tuple(inverse))
    with narrow_window() if narrow else __import__("contextlib").nullcontext():
        xs, ys = vars(n, "x"), vars(n, "y")
        goals = [domo(x, d) for x, d in zip(xs, xdoms)] + [domo(y, d) for y, d in zip(ys, ydoms)]
        found = run(0, (*xs, *ys), *goals, channelo(xs, ys, keys), labelo(xs))
    assert set(found) == expected and len(found) == len(expected)
