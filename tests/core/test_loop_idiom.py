"""Copy runs in a compiled relation's deterministic loop: a clause that only moves the head
of its input list to its output (append's `[X|T]` -> `[X|R]` round) has its consecutive
rounds run at once. The same relations compiled without the idiom give the same answers in
the same order (equal up to renaming variables), in every mode; SWI-Prolog agrees on the
consulted ones; relations that do not fit are left alone."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import (SearchTimeout, conde, cons, disj, eq, lall, neq, relation, run, show, succeed, var,
                          vars)
from logicpy.core import clauses, loops
from logicpy.core.clauses import TAIL_CALLS
from logicpy.core.fd import domo, labelo
from logicpy.core.terms import term_variables
from logicpy.prolog import consult_text
from tests.swipl import answer_rows, swi_rows


@pytest.fixture(autouse=True)
def _as_clauses() -> Iterator[None]:
    """The clause compiler is the subject here: relations with a library relation's clauses
    (append's, member's) run as their clauses, not as its loop (`core.loops`)."""
    with loops.disabled():
        yield



def _relations() -> dict[str, Any]:
    """The test relations, made anew (so each can be compiled with the idiom on or off)."""

    @relation
    def app(xs, ys, zs):
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app(t, ys, r)])

    @relation
    def app_in_out_tail(xs, zs, ys):
        """append with the output second and the tail last, its head goals written the other way round."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(zs, ys)], [eq(cons(h, r), zs), eq(cons(h, t), xs), app_in_out_tail(t, r, ys)])

    @relation
    def app_tagged(xs, tag, ys, zs):
        """append with one more argument passed on, which the last clause reads."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(tag, "t"), eq(zs, ys)],
                     [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app_tagged(t, tag, ys, r)])

    @relation
    def app_out_first(zs, xs, ys):
        """append with the output first: its first argument cannot choose a clause while unbound."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(zs, ys)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app_out_first(r, t, ys)])

    @relation
    def copy_then_end(xs, ys):
        """A copy of the prefix, then the constant tail `end`."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, "end")], [eq(xs, cons(h, t)), eq(ys, cons(h, r)), copy_then_end(t, r)])

    @relation
    def copy_then_rest(xs, ys, zs):
        """A copy of the prefix, then a goal of another relation on the input's rest."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, zs)], [eq(xs, ("more", ys)), app([0], ys, zs)],
                     [eq(xs, cons(h, t)), eq(zs, cons(h, r)), copy_then_rest(t, ys, r)])

    @relation
    def prefix(xs, ys):
        """ys starts with xs: the last round leaves the output open."""
        h, t, r = vars(3)
        return conde([eq(xs, [])], [eq(xs, cons(h, t)), eq(ys, cons(h, r)), prefix(t, r)])

    @relation
    def wrap(xs, ys):
        """A map (each element transformed): not a copy."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), eq(ys, cons(("w", h), r)), wrap(t, r)])

    @relation
    def app_with_goal(xs, ys, zs):
        """append whose round has one more goal: not a copy."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, zs)],
                     [eq(xs, cons(h, t)), eq(zs, cons(h, r)), succeed, app_with_goal(t, ys, r)])

    @relation
    def app_swapped(xs, a, b, zs):
        """A copy whose call swaps two arguments: not a copy run."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(zs, [a, b])], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app_swapped(t, b, a, r)])

    @relation
    def app_twice(xs, ys, zs):
        """The element read twice (in the output and in a test of it): not a copy."""
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), eq(h, h), app_twice(t, ys, r)])

    @relation
    def nrev(xs, ys):
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrev(t, r), app(r, [h], ys)])

    return {name: value for name, value in locals().items() if hasattr(value, "relation")}


FITS = {"app": 2, "app_in_out_tail": 1, "app_tagged": 3, "copy_then_end": 1, "copy_then_rest": 2, "prefix": 1}
FITS_NOT = ["app_out_first", "wrap", "app_with_goal", "app_swapped", "app_twice", "nrev"]


def _compiled(idiom: bool) -> dict[str, Any]:
    with switched(idiom):
        made = _relations()
        for r in made.values():
            r.relation.compile()
    return made


@contextlib.contextmanager
def switched(idiom: bool) -> Iterator[None]:
    before = clauses.COPY_IDIOM
    clauses.COPY_IDIOM = idiom
    try:
        yield
    finally:
        clauses.COPY_IDIOM = before


ON, OFF = _compiled(True), _compiled(False)


def same(goal_of, x, n=0, **options) -> tuple:
    """run(n) of goal_of(relations) with the copy idiom and without: the same answers in the
    same order (shown, so equal up to renaming variables)."""
    got = run(n, x, goal_of(ON), **options)
    expected = run(n, x, goal_of(OFF), **options)
    assert [show(a) for a in got] == [show(a) for a in expected]
    return got


def test_the_idiom_is_recognised_where_it_fits_and_nowhere_else():
    for name, out in FITS.items():
        copy = ON[name].relation.compiled.loop.copy
        assert copy is not None and copy.out == out, name
        assert OFF[name].relation.compiled.loop.copy is None, name
    assert ON["app"].relation.compiled.loop.copy.closing == 1
    assert ON["app_in_out_tail"].relation.compiled.loop.copy.closing == 2
    assert ON["app_tagged"].relation.compiled.loop.copy.closing is None  # its last clause also reads tag
    assert ON["copy_then_end"].relation.compiled.loop.copy.closing is None
    for name in FITS_NOT:
        loop = ON[name].relation.compiled.loop
        assert loop is None or loop.copy is None, name


def test_the_idiom_runs_for_naive_reverse():
    q = var()
    before = clauses.copy_runs
    assert run(1, q, ON["nrev"](list(range(100)), q)) == (list(range(99, -1, -1)),)
    assert clauses.copy_runs - before == 99  # every call of app but the one on []
    before = clauses.copy_runs
    assert run(1, q, OFF["nrev"](list(range(100)), q)) == (list(range(99, -1, -1)),)
    assert clauses.copy_runs == before


@pytest.mark.parametrize("order", ["interleaved", "prolog"])
def test_append_in_every_mode(order):
    x, y, z, t = vars(4)
    for name, call in (("app", lambda r, a, b, c: r["app"](a, b, c)),
                       ("app_in_out_tail", lambda r, a, b, c: r["app_in_out_tail"](a, c, b)),
                       ("app_tagged", lambda r, a, b, c: r["app_tagged"](a, "t", b, c))):
        assert same(lambda r: call(r, [1, 2, 3], [4], z), z, order=order) == ([1, 2, 3, 4],), name
        [(open_end, whole)] = same(lambda r: call(r, [1, 2], y, z), [y, z], order=order)
        assert show([open_end, whole]) == "[_0,[1,2|_0]]"
        splits = same(lambda r: call(r, x, y, [1, 2, 3]), (x, y), order=order)
        expected = (([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))
        assert splits == expected
        assert len(same(lambda r: call(r, x, [9], z), (x, z), 5, order=order)) == 5
        assert same(lambda r: call(r, [1, 2], [3], [1, 2, 3]), z, order=order) == (z,)
        assert same(lambda r: call(r, [1, 2], [3], [1, 2, 4]), z, order=order) == ()
        assert same(lambda r: call(r, cons(1, 2, t), [9], z), (t, z), 3, order=order)[0] == ([], [1, 2, 9])
        assert same(lambda r: call(r, [1, 2, 3], [4], cons(1, t)), t, order=order) == ([2, 3, 4],)
        assert same(lambda r: call(r, [1, 2, 3], cons(4, t), z), z, order=order)[0] == cons(1, 2, 3, 4, t)


def test_copy_then_something_else():
    q, z = vars(2)
    assert same(lambda r: r["copy_then_end"]([1, 2, 3], q), q) == (cons(1, 2, 3, "end"),)
    assert same(lambda r: r["copy_then_rest"](cons(1, 2, ("more", [5])), q, z), [q, z]) == ([[5], [1, 2, 0, 5]],)
    [(_, partial)] = same(lambda r: r["copy_then_rest"](cons(1, 2, ("more", q)), q, z), [q, z])
    assert show(partial) == "[1,2,0|_0]"
    [open_] = same(lambda r: r["prefix"]([1, 2, 3], q), q)
    assert show(open_) == "[1,2,3|_0]"
    assert same(lambda r: lall(r["prefix"](list(range(300)), q), eq(q, list(range(301)))), q) \
        == (list(range(301)),)


def test_relations_that_do_not_fit_answer_as_before():
    q, y = vars(2)
    assert same(lambda r: r["wrap"]([1, 2], q), q) == ([("w", 1), ("w", 2)],)
    assert same(lambda r: r["app_with_goal"]([1, 2], [3], q), q) == ([1, 2, 3],)
    assert same(lambda r: r["app_swapped"]([1, 2, 3], "a", "b", q), q) == ([1, 2, 3, "b", "a"],)
    assert same(lambda r: r["app_twice"]([1, 2], [3], q), q) == ([1, 2, 3],)
    assert same(lambda r: r["app_out_first"](q, [1, 2], [3]), q) == ([1, 2, 3],)
    assert same(lambda r: r["app_out_first"]([1, 2, 3], q, y), (q, y)) \
        == (([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))


def test_long_lists_hand_back_at_the_same_rounds():
    """A copy runs at most the rounds its step has left, so the search takes its turns at the
    same points: another branch's answers come in the same place."""
    y, z = vars(2)
    n = 3 * TAIL_CALLS + 7
    long = list(range(n))
    [(tail, whole)] = same(lambda r: r["app"](long, y, z), [y, z])
    assert show([tail, whole]) == f"[_0,[{','.join(map(str, long))}|_0]]"
    assert same(lambda r: r["app"](long, [n], z), z) == ([*long, n],)
    assert same(lambda r: r["app"](cons(*long, [n]), [], z), z) == ([*long, n],)
    answers = same(lambda r: conde(*([r["app"](list(range(k * 100)), [k], z)] for k in range(6)),
                                   [eq(z, "other")]), z)
    assert len(answers) == 7
    assert same(lambda r: disj(lall(r["app"](long, [1], z), eq(z, [])), eq(y, 5)), y) == (5,)


def test_the_input_reaching_the_output_and_endless_inputs():
    q, y, z, loop = vars(4)
    with pytest.raises(SearchTimeout):  # endless: the input runs after the output it builds
        run(1, z, ON["app"](cons(1, 2, z), y, z), timeout=0.3)
    assert same(lambda r: lall(eq(loop, cons(1, 2, loop)), conde([r["app"](loop, [], q)], [eq(q, "other")])),
                q, 1) == ("other",)
    with pytest.raises(SearchTimeout):
        run(1, q, eq(loop, cons(1, loop)), ON["app"](loop, [], q), timeout=0.3)
    # the output already holds the input's first cells: read where bound, then written
    assert same(lambda r: lall(eq(z, cons(1, y)), r["app"]([1, 2, 3], [4], z)), y) == ([2, 3, 4],)


def test_constraints_present():
    """In a state with constraints the relation runs as written: the same answers."""
    x, z = vars(2)
    assert same(lambda r: lall(neq(x, 1), r["app"]([x, 2], [3], z), eq(x, 1)), z) == ()
    assert same(lambda r: lall(neq(x, 1), r["app"]([x, 2], [3], z), eq(x, 7)), z) == ([7, 2, 3],)
    assert same(lambda r: lall(r["app"]([x, 2], [3], z), neq(z, [1, 2, 3]), eq(x, 1)), x) == ()
    fd = same(lambda r: lall(domo(x, range(1, 4)), r["app"]([x, x], [0], z), labelo([x])), z)
    assert fd == ([1, 1, 0], [2, 2, 0], [3, 3, 0])


elements = st.recursive(st.sampled_from([0, 1, "a", "b"]) | st.builds(lambda: var()),
                        lambda inner: st.lists(inner, max_size=3) | st.tuples(st.just("f"), inner), max_leaves=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(elements, max_size=20), st.integers(0, 2 * TAIL_CALLS + 3), st.lists(elements, max_size=3),
       st.sampled_from(["proper", "open", "improper", "cells", "bound later"]),
       st.sampled_from(["unbound", "given", "partly given", "wrong", "bound later"]))
def test_random_lists(xs, more, ys, tail_kind, out_kind):
    """Random lists (elements variables, compound terms, nested lists; `more` numbers after
    them, so some lists take more rounds than a step has), their tails proper, open,
    improper or bound later, and the output unbound, given, partly given, wrong or bound
    later."""
    xs = xs + list(range(more))
    w, y, z, q = vars(4)
    tails = {"proper": [], "open": w, "improper": "end", "cells": [], "bound later": w}
    xs_term: Any = xs if tail_kind == "proper" else cons(*xs, tails[tail_kind]) if xs else tails[tail_kind]
    whole = xs + ys
    out: Any = {"unbound": z, "given": whole, "partly given": cons(*whole[:2], z) if len(whole) > 2 else z,
                "wrong": [*whole, "x"], "bound later": z}[out_kind]
    appends = [lambda r: r["app"](xs_term, ys, out),
               lambda r: lall(r["app"](xs_term, y, out), eq(y, ys)),
               lambda r: lall(eq(q, ("box", z)), r["app_in_out_tail"](xs_term, out, ys)),
               lambda r: r["app_tagged"](xs_term, "t", ys, out)]
    others = [lambda r: r["copy_then_end"](xs_term, out),
              lambda r: disj(r["prefix"](xs_term, out), r["app"](xs_term, xs_term, out))]
    if tail_kind == "bound later":  # the input's tail bound after the call: the one answer with it []
        if out_kind in ("wrong", "bound later"):
            return
        for goal in appends:
            same(lambda r: lall(goal(r), eq(w, [])), [z, y, w, q], 1)
    elif out_kind == "bound later":  # the output bound after the call
        if tail_kind == "open":
            return
        for goal in appends + others:
            same(lambda r: lall(goal(r), eq(z, whole)), [z, y, w, q], 3)
    else:
        for goal in appends + others:
            same(goal, [z, y, w, q], 3)


# ---------------------------------------------------------------- consulted Prolog predicates

PROGRAM = """
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
app_iot([], L, L).
app_iot([H|T], [H|R], L) :- app_iot(T, R, L).
then_end([], end).
then_end([H|T], [H|R]) :- then_end(T, R).
wrap([], []).
wrap([H|T], [w(H)|R]) :- wrap(T, R).
swap([], A, B, [A,B]).
swap([H|T], A, B, [H|R]) :- swap(T, B, A, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
"""

QUERIES = [
    "app([1,2,3], [4], L)",
    "app([1,2], Y, L)",
    "app(X, Y, [1,2,3])",
    "app([1,2], [3], [1,2,3])",
    "app([1,2], [3], [1,2,4])",
    "once((app([1,2|T], [3], L), T = [x]))",
    "app([f(X),[Y]], [3], L), X = 1, Y = 2",
    "numlist(1, 400, L), app(L, [x], M), last(M, X), length(M, N)",
    "numlist(1, 300, L), app(L, T, M), T = [a], last(M, X)",
    "numlist(1, 300, L), app(L, [a], M), app(M, [b], K), length(K, N), last(K, X)",
    "app_iot([1,2,3], L, [4])",
    "numlist(1, 200, L), app_iot(L, M, [x]), length(M, N)",
    "then_end([1,2,3], L)",
    "wrap([1,2], L)",
    "swap([1,2], a, b, L)",
    "numlist(1, 100, L), nrev(L, R), R = [A,B|_]",
    "numlist(1, 200, L), nrev(L, R), nrev(R, S), S == L",
    "dif(X, c), app([a,b], [X], L)",
    "dif(X, c), app([a,b], [X], L), X = c",
]


def test_consulted_append_runs_the_idiom() -> None:
    program = consult_text(PROGRAM)
    before = clauses.copy_runs
    assert answer_rows(program, "app([1,2,3], [4], L)") == ["[1,2,3,4]"]
    assert clauses.copy_runs == before + 1
    program.query("app_iot([1], _, _), then_end([1], _), wrap([1], _), swap([1], a, b, _).")
    for key, out in [(("app", 3), 2), (("app_iot", 3), 1), (("then_end", 2), 1)]:
        copy = program.predicates[key]._loop.copy
        assert copy is not None and copy.out == out, key
    for key in [("wrap", 2), ("swap", 4)]:
        assert program.predicates[key]._loop.copy is None, key


@pytest.mark.parametrize("query", QUERIES)
def test_consulted_predicates_as_without_the_idiom_and_as_swi(query: str) -> None:
    program, plain = consult_text(PROGRAM), consult_text(PROGRAM)
    got = answer_rows(program, query)
    with switched(False):
        assert got == answer_rows(plain, query)
    assert all(getattr(p._loop, "copy", None) is None for p in plain.predicates.values())
    ground = not any(term_variables(list(a.values())) for a in program.query(f"{query}."))
    if shutil.which("swipl") and ground:
        assert got == swi_rows(PROGRAM, query)
