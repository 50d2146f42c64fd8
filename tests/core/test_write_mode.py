"""Write mode in a compiled relation's deterministic loop: a list built across rounds (the
output of append, map-like relations) is written cell into cell instead of through a fresh
variable per round. Answers and their order are those of the relation run as written and of
its clauses without the loop; no open cell ever escapes the loop."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import (SearchTimeout, conde, cons, disj, eq, lall, neq, relation, run, show, var,
                          vars)
from logicpy.core import loops
from logicpy.core.clauses import TAIL_CALLS
from logicpy.core.fd import domo, labelo, lto
from logicpy.core.terms import term_variables
from logicpy.prolog import consult_text
from tests.swipl import answer_rows, swi_rows


@pytest.fixture(autouse=True)
def _as_clauses() -> Iterator[None]:
    """The clause compiler is the subject here: relations with a library relation's clauses
    (append's, member's) run as their clauses, not as its loop (`core.loops`)."""
    with loops.disabled():
        yield



@relation
def appo(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), appo(t, ys, r)])


@relation
def wrapo(xs, ys):
    """A map: each element x becomes ("w", x); the output ends in a written constant."""
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, "end")], [eq(xs, cons(h, t)), eq(ys, cons(("w", h), r)), wrapo(t, r)])


@relation
def twiceo(xs, ys):
    """Each element twice: two cells a round; the output's last cell a written []."""
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), eq(cons(h, h, r), ys), twiceo(t, r)])


@relation
def pickedo(xs, ys):
    """The kept elements of a chain of ("keep", x, rest) / ("drop", x, rest) ending in "nil":
    a dropping round passes its output on untouched."""
    h, t, r = vars(3)
    return conde([eq(xs, "nil"), eq(ys, [])],
                 [eq(xs, ("keep", h, t)), eq(ys, cons(h, r)), pickedo(t, r)],
                 [eq(xs, ("drop", h, t)), pickedo(t, ys)])


@relation
def prefixo(xs, ys):
    """ys starts with the elements of xs: the last round leaves its output's tail unbound."""
    h, t, r = var(), var(), var("rest")
    return conde([eq(xs, [])], [eq(xs, cons(h, t)), eq(ys, cons(h, r)), prefixo(t, r)])


@relation
def zipo(xs, ys, zs):
    """Pairs of two lists' elements, as long as the first (the second read in place)."""
    a, b, t, u, r = vars(5)
    return conde([eq(xs, []), eq(zs, [])],
                 [eq(xs, cons(a, t)), eq(ys, cons(b, u)), eq(zs, cons((a, b), r)), zipo(t, u, r)])


@relation
def dealo(xs, ys, zs):
    """Deals xs to two lists, the first element to ys, the second (tagged) to zs, and so on:
    each round opens a cell of one output for the next round's other output."""
    h, t, r, s = vars(4)
    return conde([eq(xs, []), eq(ys, []), eq(zs, [])],
                 [eq(xs, cons(h, t)), eq(ys, cons(h, r)), eq(zs, cons(("z", h), s)), dealo(t, s, r)])


@relation
def copyo(xs, ys):
    """A copy whose clause reads back the cell it has just written."""
    h, t, r, g, u = vars(5)
    return conde([eq(xs, []), eq(ys, [])],
                 [eq(xs, cons(h, t)), eq(ys, cons(h, r)), eq(ys, cons(g, u)), eq(g, h), copyo(t, r)])


@relation
def takeo(n, xs, ys):
    """ys starts with the first n (z, s(z), ...) elements of xs."""
    m, h, t, r = vars(4)
    return conde([eq(n, "z")], [eq(n, ("s", m)), eq(xs, cons(h, t)), eq(ys, cons(h, r)), takeo(m, t, r)])


@relation
def alternateo(xs, a, b, out):
    """As many of a, b, a, ... as xs has elements: the call swaps two of its arguments."""
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(out, [])], [eq(xs, cons(h, t)), eq(out, cons(a, r)), alternateo(t, b, a, r)])


RELATIONS = [appo, wrapo, twiceo, pickedo, prefixo, zipo, dealo, copyo, takeo, alternateo]


@functools.cache
def as_written(rel):
    """The same relation, never compiled (the function runs at every call)."""
    plain = relation(rel.relation.fn)
    plain.relation.compiled = None
    return plain


@functools.cache
def without_loop(rel):
    """The same relation compiled, without its deterministic loop (so without write mode)."""
    again = relation(rel.relation.fn)
    compiled = again.relation.compile()
    compiled.loop = None
    return again


def same(goal_of, x, n=0, as_written_in_any_order=False, **options):
    """run(n) of goal_of(relations) with the relations as compiled, compiled without their
    loop and as written: the same answers in the same order (equal up to renaming variables).
    A compiled relation takes fewer steps of the search than the function run as written, so
    between branches of a disjunction its answers may come sooner (`as_written_in_any_order`)."""
    names = {r.relation.name: r for r in RELATIONS}
    compiled = run(n, x, goal_of(names), **options)
    for other in (without_loop, as_written):
        again = run(n, x, goal_of({name: other(r) for name, r in names.items()}), **options)
        got, expected = [show(a) for a in compiled], [show(a) for a in again]
        if as_written_in_any_order and other is as_written:
            got, expected = sorted(got), sorted(expected)
        assert got == expected, other.__name__
    return compiled


def test_these_relations_write_their_output_in_place():
    for rel in RELATIONS:
        run(1, var(), rel(*vars(rel.relation.arity)))
        compiled = rel.relation.compile()
        assert compiled is not None and compiled.loop is not None, rel.relation.why
        assert "_lp_HOLE" in compiled.source, rel.relation.name


@pytest.mark.parametrize("order", ["interleaved", "prolog"])
def test_append_in_every_mode(order):
    x, y, z, t = vars(4)
    assert same(lambda r: r["appo"]([1, 2, 3], [4], z), z, order=order) == ([1, 2, 3, 4],)
    [(open_end, whole)] = same(lambda r: r["appo"]([1, 2], y, z), [y, z], order=order)
    assert show([open_end, whole]) == "[_0,[1,2|_0]]"
    splits = same(lambda r: r["appo"](x, y, [1, 2, 3]), (x, y), order=order)
    assert splits == (([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))
    assert len(same(lambda r: r["appo"](x, [9], z), (x, z), 5, order=order)) == 5
    assert len(same(lambda r: r["appo"](x, y, z), (x, y, z), 5, order=order)) == 5
    assert same(lambda r: r["appo"]([1, 2], [3], [1, 2, 3]), z, order=order) == (z,)
    assert same(lambda r: r["appo"]([1, 2], [3], [1, 2, 4]), z, order=order) == ()
    assert same(lambda r: r["appo"](cons(1, 2, t), [9], z), (t, z), 3, order=order)[0] == ([], [1, 2, 9])
    # the output partly given: read where bound, written where open
    assert same(lambda r: r["appo"]([1, 2, 3], [4], cons(1, t)), t, order=order) == ([2, 3, 4],)


def test_map_like_relations():
    q, t = vars(2)
    [wrapped] = same(lambda r: r["wrapo"]([1, "a", [2]], q), q)
    assert show(wrapped) == "[w(1),w(a),w([2])|end]"
    assert same(lambda r: r["twiceo"]([1, 2, 3], q), q) == ([1, 1, 2, 2, 3, 3],)
    assert same(lambda r: r["copyo"]([1, 2, 3], q), q) == ([1, 2, 3],)
    assert same(lambda r: r["twiceo"](q, [1, 1, 2, 2]), q) == ([1, 2],)
    assert same(lambda r: r["twiceo"](q, [1, 2]), q) == ()
    chain = ("keep", 1, ("drop", 2, ("drop", 3, ("keep", 4, ("drop", 5, "nil")))))
    assert same(lambda r: r["pickedo"](chain, q), q) == ([1, 4],)
    [partial] = same(lambda r: r["prefixo"]([1, 2, 3], q), q)
    assert show(partial) == "[1,2,3|_0]"
    assert same(lambda r: r["zipo"]([1, 2, 3], ["a", "b", "c", "d"], q), q) == ([(1, "a"), (2, "b"), (3, "c")],)
    [(more, pairs)] = same(lambda r: r["zipo"]([1, 2], cons("a", t), q), [t, q])
    assert show([more, pairs]) == "[[_0|_1],[[1,a],[2,_0]]]"  # tuples shown as lists


def test_outputs_that_change_places():
    y, z = vars(2)
    [(ys, zs)] = same(lambda r: r["dealo"]([1, 2, 3, 4, 5], y, z), [y, z])
    assert ys == [1, ("z", 2), 3, ("z", 4), 5]
    assert zs == [("z", 1), 2, ("z", 3), 4, ("z", 5)]
    long = list(range(2 * TAIL_CALLS + 1))
    [(ys, zs)] = same(lambda r: r["dealo"](long, y, z), [y, z])
    assert ys[-1] == long[-1] and zs[-1] == ("z", long[-1]) and len(ys) == len(zs) == len(long)


def test_an_input_that_reaches_the_output_being_built():
    """An argument bound to the output (or to a term around it) reads the cells written so
    far, the open one as the variable it stands for."""
    y, z = vars(2)
    three = ("s", ("s", ("s", "z")))
    [built] = same(lambda r: r["takeo"](three, cons("a", z), z), z)
    assert show(built) == "[a,a,a|_0]"
    [built] = same(lambda r: r["takeo"](("s", three), cons("a", "b", z), z), z)
    assert show(built) == "[a,b,a,b|_0]"
    [(mine, built)] = same(lambda r: lall(eq(y, ("box", z)), r["takeo"](three, [1, 2, 3], z)), [y, z])
    assert show([mine, built]) == "[box([1,2,3|_0]),[1,2,3|_0]]"
    with pytest.raises(SearchTimeout):  # endless: the input runs after the output it builds
        run(1, z, appo(cons(1, z), y, z), timeout=0.3)


def test_a_call_that_swaps_its_arguments():
    z = var()
    assert same(lambda r: r["alternateo"]([1, 2, 3, 4, 5], "x", "y", z), z) == (["x", "y", "x", "y", "x"],)
    n = 2 * TAIL_CALLS + 1
    [long] = same(lambda r: r["alternateo"](list(range(n)), "x", "y", z), z)
    assert long == ["x", "y"] * TAIL_CALLS + ["x"]


def test_output_later_unified_with_a_bound_list():
    y, z = vars(2)
    long = list(range(3 * TAIL_CALLS + 5))
    assert same(lambda r: lall(r["appo"](long, y, z), eq(z, [*long, "a", "b"])), y) == (["a", "b"],)
    assert same(lambda r: lall(r["appo"](long, y, z), eq(z, [*long[:-1], "x", "b"])), y) == ()
    assert same(lambda r: lall(r["prefixo"]([1, 2], z), eq(z, [1, 2, 3])), z) == ([1, 2, 3],)
    assert same(lambda r: lall(r["prefixo"]([1, 2], z), eq(z, [1, 3])), z) == ()
    # the output's cells are shared with another term and unified through it
    w = var()
    assert same(lambda r: lall(eq(w, ("box", z)), r["wrapo"]([1, 2], z), eq(w, ("box", cons(("w", 1), y)))), y) \
        == (cons(("w", 2), "end"),)


def test_more_rounds_than_one_step_mid_output():
    """The loop hands back every `TAIL_CALLS` rounds with its output half-built: the open cell
    becomes a variable, and the next step goes on from it."""
    y, z = vars(2)
    n = 3 * TAIL_CALLS + 7
    long = list(range(n))
    [(tail, whole)] = same(lambda r: r["appo"](long, y, z), [y, z])
    assert show([tail, whole]) == f"[_0,[{','.join(map(str, long))}|_0]]"
    assert same(lambda r: r["twiceo"](long, z), z) == ([x for i in long for x in (i, i)],)
    [wrapped] = same(lambda r: r["wrapo"](long, z), z)
    assert show(wrapped) == f"[{','.join(f'w({i})' for i in long)}|end]"
    assert same(lambda r: r["zipo"](long, long, z), z) == ([(i, i) for i in long],)
    # another branch gets its turns while the long loop runs
    answers = same(lambda r: disj(r["appo"](long, [1], z), eq(z, "other")), z, as_written_in_any_order=True)
    assert sorted(map(repr, answers)) == sorted([repr([*long, 1]), repr("other")])


def test_the_loop_fails_midway_and_leaves_the_state_untouched():
    q, z = vars(2)
    long = list(range(2 * TAIL_CALLS))
    assert same(lambda r: disj(lall(r["appo"](long, [1], z), eq(z, [])), eq(q, 5)), q) == (5,)
    assert same(lambda r: disj(r["twiceo"]([1, 2], [1, 1, 2, 3]), eq(q, 5)), q) == (5,)


def test_constraints_present():
    """In a state with a constraint (neq, FD) the relation runs as written; answers are equal."""
    x, y, z = vars(3)
    assert same(lambda r: lall(neq(x, 1), r["appo"]([x, 2], [3], z), eq(x, 1)), z) == ()
    assert same(lambda r: lall(neq(x, 1), r["appo"]([x, 2], [3], z), eq(x, 7)), z) == ([7, 2, 3],)
    assert same(lambda r: lall(r["appo"]([x, 2], [3], z), neq(z, [1, 2, 3])), x)[0] == x
    assert same(lambda r: lall(r["appo"]([x, 2], [3], z), neq(z, [1, 2, 3]), eq(x, 1)), x) == ()
    fd = same(lambda r: lall(domo(x, range(1, 5)), lto(x, 3), r["wrapo"]([x, y], z), eq(y, 0), labelo([x])), z)
    assert fd == (cons(("w", 1), ("w", 0), "end"), cons(("w", 2), ("w", 0), "end"))


def test_an_endless_loop_stays_fair_and_stops_in_time():
    q, loop = vars(2)
    assert same(lambda r: lall(eq(loop, cons(1, loop)), conde([r["appo"](loop, [], q)], [eq(q, "other")])),
                q, 1) == ("other",)
    with pytest.raises(SearchTimeout):
        run(1, q, eq(loop, cons(1, loop)), appo(loop, [], q), timeout=0.3)
    with pytest.raises(SearchTimeout):
        run(1, q, eq(loop, cons(1, loop)), twiceo(loop, q), timeout=0.3)


items = st.sampled_from([0, 1, "a", ("f", 1)])


@settings(max_examples=100, deadline=None)
@given(st.lists(items, max_size=2 * TAIL_CALLS + 3), st.lists(items, max_size=3), st.integers(0, 3))
def test_random_lists_with_parts_unknown(xs, ys, holes):
    """Random lists, some of their elements or tails unknown, through every relation."""
    z, y, w = vars(3)
    known = [var() if i < holes else x for i, x in enumerate(xs)]  # the first elements unknown
    partial = cons(*xs[:holes], w) if holes and len(xs) >= holes else xs
    for goal in (lambda r: r["appo"](known, ys, z), lambda r: r["appo"](xs, y, z),
                 lambda r: lall(r["appo"](xs, y, z), eq(z, xs + ys)), lambda r: r["appo"](xs, ys, xs + ys),
                 lambda r: r["twiceo"](known, z), lambda r: r["zipo"](known, xs, z),
                 lambda r: r["dealo"](xs, y, z), lambda r: r["copyo"](known, z),
                 lambda r: r["appo"](partial, ys, z)):
        same(goal, [z, y, w], 3)


# ---------------------------------------------------------------- consulted Prolog predicates

PROGRAM = """
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
wrap([], end).
wrap([H|T], [w(H)|R]) :- wrap(T, R).
twice([], []).
twice([H|T], [H,H|R]) :- twice(T, R).
picked(nil, []).
picked(keep(H, T), [H|R]) :- picked(T, R).
picked(drop(_, T), R) :- picked(T, R).
prefix([], _).
prefix([H|T], [H|R]) :- prefix(T, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
"""

QUERIES = [
    "app([1,2,3], [4], L)",
    "app([1,2], Y, L)",
    "app(X, Y, [1,2,3])",
    "app([1,2], [3], [1,2,3])",
    "app([1,2], [3], [1,2,4])",
    "numlist(1, 400, L), app(L, [x], M), last(M, X), length(M, N)",
    "numlist(1, 300, L), app(L, T, M), T = [a], last(M, X)",
    "wrap([1,f(a),[2]], L)",
    "numlist(1, 300, L), wrap(L, W), W = [A|_], twice(L, D), length(D, N)",
    "twice([a,b,c], L)",
    "twice(L, [a,a,b,b])",
    "picked(keep(1, drop(2, keep(3, drop(4, nil)))), L)",
    "prefix([1,2], L), L = [1,2,3]",
    "numlist(1, 100, L), nrev(L, R), R = [A,B|_]",
    "dif(X, c), app([a,b], [X], L)",
    "dif(X, c), app([a,b], [X], L), X = c",
]


def test_consulted_predicates_write_their_output_in_place() -> None:
    program = consult_text(PROGRAM)
    program.query("app([1], [2], L), wrap([1], W), twice([1], T), picked(keep(1, nil), P).")
    for key in [("app", 3), ("wrap", 2), ("twice", 2), ("picked", 2)]:
        assert "_lp_HOLE" in program.predicates[key]._loop.__code__.co_freevars, key


@pytest.mark.parametrize("query", QUERIES)
def test_consulted_predicates_as_without_the_loop_and_as_swi(query: str) -> None:
    looped, plain = consult_text(PROGRAM), consult_text(PROGRAM)
    for predicate in plain.predicates.values():
        predicate._loop = None
    got = answer_rows(looped, query)
    assert got == answer_rows(plain, query)
    ground = not any(term_variables(list(a.values())) for a in looped.query(f"{query}."))
    if shutil.which("swipl") and ground:
        assert got == swi_rows(PROGRAM, query)
