"""A consulted predicate whose first argument selects one clause, with no body or one call of
itself, runs as one loop: the same answers in the same order as without it and as SWI-Prolog."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from logicpy.core import run, var
from logicpy.core import loops
from logicpy.core.terms import term_variables
from logicpy.prolog import consult_text
from tests.swipl import answer_rows, swi_rows


@pytest.fixture(autouse=True)
def _as_clauses() -> Iterator[None]:
    """The clause compiler is the subject here: relations with a library relation's clauses
    (append's, member's) run as their clauses, not as its loop (`core.loops`)."""
    with loops.disabled():
        yield


PROGRAM = """
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
nth(z, [X|_], X).
nth(s(N), [_|T], X) :- nth(N, T, X).
peano(0, z).
peano(N, s(P)) :- N > 0, M is N - 1, peano(M, P).
skip([], []).
skip([a|T], R) :- !, skip(T, R).
skip([H|T], [H|R]) :- skip(T, R).
count(z, N, N).
count(s(P), A, N) :- A1 is A + 1, count(P, A1, N).
"""

QUERIES = [
    "app([1,2,3], [4], L)",
    "app(X, Y, [1,2,3])",
    "app([1,2], Y, Z)",
    "numlist(1, 300, L), nrev(L, R), R = [A,B|_], length(R, N)",
    "nrev([a,b,c], R)",
    "numlist(1, 400, L), peano(250, P), nth(P, L, X)",
    "nth(s(s(z)), [a,b,c,d], X)",
    "nth(N, [a,b,c], X)",
    "skip([a,b,a,c], R)",
    "peano(3, P), count(P, 0, N)",
    "T = [], app([f(X),g(Y)|T], [h], L)",
]


def without_loop(program) -> None:
    for predicate in program.predicates.values():
        predicate._loop = None


@pytest.mark.parametrize("query", QUERIES)
def test_same_answers_with_and_without_the_loop(query: str) -> None:
    looped, plain = consult_text(PROGRAM), consult_text(PROGRAM)
    without_loop(plain)
    got = answer_rows(looped, query)
    assert got == answer_rows(plain, query)
    assert got
    ground = not any(term_variables(list(a.values())) for a in looped.query(f"{query}."))
    if shutil.which("swipl") and ground:  # ground answers: written alike
        assert got == swi_rows(PROGRAM, query)


def test_a_failing_call_fails_in_the_loop() -> None:
    program = consult_text(PROGRAM)
    assert program.query("app([1,2], [3], [1,2,4]).") == []
    assert program.query("numlist(1, 200, L), app(L, [x], M), last(M, y).") == []


def test_the_loop_is_made_for_a_deterministic_recursion_only() -> None:
    program = consult_text(PROGRAM)
    program.query("numlist(1, 300, L), nrev(L, R).")
    program.query("peano(5, P), nth(P, [a,b,c,d,e,f], X).")
    assert callable(program.predicates["app", 3]._loop)
    assert callable(program.predicates["nth", 3]._loop)
    program.query("numlist(1, 300, L), skip(L, R).")
    assert not callable(program.predicates["skip", 2]._loop)  # two clauses for every list cell: no loop
    assert program.query("skip([a,b,a,c], R).") == [{"R": ["b", "c"]}]


def test_more_rounds_than_one_step_and_asserted_clauses() -> None:
    program = consult_text(PROGRAM)
    [answer] = program.query("numlist(1, 1000, L), app(L, [end], M), last(M, X), length(M, N).")
    assert (answer["X"], answer["N"]) == ("end", 1001)
    program.asserta(("app", [], var(), "nil"))  # a new clause: the loop is made again
    assert answer_rows(program, "app([1,2], [3], L)") == ["[1,2|nil]", "[1,2,3]"]


def test_a_tabled_predicate_keeps_its_table() -> None:
    program = consult_text(":- table walk/2.\nwalk(z, done).\nwalk(s(N), X) :- walk(N, X).\n")
    assert program.query("walk(s(s(s(z))), X).") == [{"X": "done"}]
    assert program.predicates["walk", 2]._loop is not None
    assert not program.predicates["walk", 2].looping


def test_constraints_and_the_occurs_check_are_kept() -> None:
    program = consult_text(PROGRAM)
    assert program.query("dif(X, c), app([a,b], [X], L), X = c.") == []
    assert len(program.query("dif(X, c), app([a,b], [X], L), X = d.")) == 1
    q = var()
    assert run(0, q, program.app(["a"], q, q), occurs_check=True) == ()
    assert len(run(1, q, program.app(["a"], ["b"], q), occurs_check=True)) == 1


def test_a_replaced_predicate_is_not_looped_on() -> None:
    program = consult_text(PROGRAM)
    old = program.predicates["app", 3]
    program.query("app([1,2], [3], L).")
    program.predicates["app", 3] = consult_text("app(_, _, other).").predicates["app", 3]
    old.looping = False
    assert program.query("app([1,2], [3], L).") == [{"L": "other"}]
