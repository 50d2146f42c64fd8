"""The clause loops (`core.loops`) never crash, never run away and never change an answer:
a clause holding a long list, a relation whose name is rebound, a cyclic list, time limits
and resource limits on the list relations' own loops.

Where a case is Prolog, the same query is run in SWI-Prolog and compared.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from logicpy.core import SearchTimeout, conde, cons, distincto, eq, lengtho, nth1o, relation, rembero, run, var, vars
from logicpy.core import loops
from logicpy.core.listloops import MAX_LIST
from logicpy.errors import ResourceError
from logicpy.prolog import consult_text
from tests.swipl import answer_rows, swi_rows

ROOT = Path(__file__).resolve().parents[2]
X, Y, L = vars(3)


def toplevel(query: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`logicpy repl -q QUERY` in a fresh interpreter (a crash there cannot take the test run down)."""
    return subprocess.run([sys.executable, "-m", "logicpy", "repl", "-q", query], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


# ------------------------------------------------------- 1. a clause holding a long list

def test_the_shape_of_clauses_holding_a_long_list_is_none():
    """Hashing a shape is bounded: a 200,000-element list (nested 200,000 cells deep) has none."""
    long = list(range(200_000))
    deep = cons(*range(200_000), [])
    for term in (long, deep, tuple(long)):
        with pytest.raises(loops.NoShape):
            loops.shape([((term, X), [])])
        assert loops.runs_as([((term, X), []), ((X, Y), [(loops.SELF, (X, Y))])]) is None


def test_shapes_still_tell_clauses_apart():
    """Flat shapes keep what nested ones told apart: where a list ends, what a compound holds."""
    a, b, c = vars(3)
    shapes = {loops.shape([(t, [])]) for t in [
        ([a, b],), (cons(a, b),), ([a, [b]],), ([[a], b],), (("f", a, b),), (("f", (a, b)),), ([a, b, c],),
        (cons(a, b, c),), ("|",), ([],), ("[]",), ((),)]}
    assert len(shapes) == 12
    assert loops.shape([((cons(a, [b]),), [])]) == loops.shape([(([c, a],), [])])  # one list, written two ways


@pytest.mark.skipif(shutil.which("swipl") is None, reason="needs swipl")
def test_calling_an_asserted_clause_holding_a_long_list():
    query = "numlist(1, 200000, _L), assertz(big(_L)), big(_B), length(_B, N), nth1(1, _B, First)"
    assert swi_rows("", query) == ["200000 1"]
    assert answer_rows(consult_text(""), query) == ["200000 1"]
    done = toplevel(query + ".")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-6:] == ["N", "=", "200000,", "First", "=", "1."]


# ------------------------------------------------------- 2. a relation whose name is rebound

def test_a_member_shaped_relation_follows_its_rebound_name(tmp_path):
    """Its clauses call whatever the name means at the call: the loop runs only while that
    is the relation itself, in both search orders."""
    namespace: dict[str, Any] = {}
    source = ("from logicpy.core import conde, cons, eq, relation, var, vars\n"
              "@relation\n"
              "def mem(x, xs):\n"
              "    h, t = vars(2)\n"
              "    return conde([eq(xs, cons(x, t))], [eq(xs, cons(h, t)), mem(x, t)])\n")
    path = tmp_path / "rebound_member.py"  # `@relation` reads its source from a file
    path.write_text(source)
    code = compile(source, str(path), "exec")
    exec(code, namespace)  # noqa: S102  the source above
    old = namespace["mem"]
    assert run(0, X, old(X, [1, 2, 3])) == (1, 2, 3)
    assert old.relation.runs is not None and old.relation.runs.name == "membero"

    @relation
    def first(x: Any, xs: Any) -> Any:
        return eq(xs, cons(x, var()))

    namespace["mem"] = first
    for order in ("interleaved", "prolog"):
        assert run(0, X, old(X, [1, 2, 3]), order=order) == (1, 2)
        with loops.disabled():
            assert run(0, X, old(X, [1, 2, 3]), order=order) == (1, 2)
    namespace["mem"] = old
    assert run(0, X, old(X, [1, 2, 3])) == (1, 2, 3)


# ------------------------------------------------------- 4. rembero on a cyclic list

@pytest.mark.parametrize("goal", [lambda: rembero(X, L, Y), lambda: rembero(X, Y, L), lambda: rembero(1, L, Y)])
def test_rembero_on_a_cyclic_list_answers_as_its_clauses(goal):
    cyclic = eq(L, cons(1, 2, L))
    with loops.disabled():
        expected = run(2, X, cyclic, goal(), timeout=5)
    assert run(2, X, cyclic, goal(), timeout=5) == expected
    assert len(expected) >= 1


# ------------------------------------- 5. unifying a list with a cyclic cons chain ends

APP_RECURSIVE_FIRST = """
app([H|T], L, [H|R]) :- app(T, L, R).
app([], L, L).
"""


@relation
def app_recursive_first(xs: Any, ys: Any, zs: Any) -> Any:
    h, t, r = vars(3)
    return conde([eq(xs, cons(h, t)), eq(zs, cons(h, r)), app_recursive_first(t, ys, r)], [eq(xs, []), eq(ys, zs)])


def test_two_appends_making_cyclic_terms_fail_at_once():
    """The second call unifies a Python list with a cons chain that comes back to itself
    through a variable: the unification remembers the pairs met through variables, so it
    ends (it grew a stack without end, past any time limit, before)."""
    W, Z, Y2, X2 = vars(4)
    for order in ("interleaved", "prolog"):
        assert run(1, (W, X2, Y2, Z), app_recursive_first(W, Z, [[W], [W, X2, X2]]),
                   app_recursive_first(W, cons("a", Z), cons(Y2, W, "b", Z)), order=order, timeout=5) == ()


@pytest.mark.skipif(shutil.which("swipl") is None, reason="needs swipl")
def test_two_consulted_appends_making_cyclic_terms_fail_at_once():
    query = "app(W, Z, [[W],[W,X,X]]), app(W, [a|Z], [Y,W,b|Z])"
    assert swi_rows(APP_RECURSIVE_FIRST, query) == []
    for order in ("prolog", "interleaved"):
        assert answer_rows(consult_text(APP_RECURSIVE_FIRST, order=order), query) == []


def test_a_list_and_a_cyclic_chain_unify_or_not_in_bounded_work():
    """Cycles through variables on both sides, a Python list on one and cons cells on the other."""
    A, B, C, Q = vars(4)
    assert run(1, Q, eq(A, [A]), eq(B, cons(B, [])), eq(A, B), eq(Q, 1), timeout=5) == (1,)
    assert run(1, Q, eq(A, [A, 1]), eq(B, cons(B, 2, [])), eq(A, B), eq(Q, 1), timeout=5) == ()
    assert run(1, Q, eq(A, [1, A]), eq(C, cons(1, C, [])), eq(A, C), eq(Q, 1), timeout=5) == (1,)


# ------------------------------- 6, 7. time limits and resource errors of the list goals

def test_a_list_longer_than_a_goal_builds_is_a_resource_error_at_once():
    n, x = vars(2)
    for goal, text in [(lambda: lengtho(x, 10**9), "lengtho(_G0,1000000000): resource error"),
                       (lambda: nth1o(10**9, x, n), "nth1o(1000000000,_G0,_G1): resource error"),
                       (lambda: lengtho(cons(1, 2, x), MAX_LIST + 1), "resource error: a list of 4,000,001 elements")]:
        for order in ("interleaved", "prolog"):
            with pytest.raises(ResourceError, match=re.escape(text)) as caught:
                run(1, n, goal(), timeout=5, order=order)
            assert "\n" not in str(caught.value)
    assert run(1, n, lengtho(x, 3), eq(n, 1)) == (1,)  # within the limit: built as before


@pytest.mark.parametrize("order", ["interleaved", "prolog"])
@pytest.mark.parametrize("goal", [lambda: lengtho(var(), MAX_LIST), lambda: nth1o(MAX_LIST, var(), var()),
                                  lambda: distincto([var() for _ in range(3_000)])])
def test_a_time_limit_holds_while_a_long_list_is_built(goal, order):
    """A long list is made a slice at a time, the search's clock read between slices."""
    with pytest.raises(SearchTimeout):
        run(1, X, goal(), timeout=0.1, order=order)


@pytest.mark.skipif(shutil.which("swipl") is None, reason="needs swipl")
def test_the_toplevel_reports_a_resource_error_as_swi():
    swi = subprocess.run(["swipl", "-q", "-g", "catch(length(L, 1000000000), error(E, _), (print(E), nl))", "-t", "halt"],
                         capture_output=True, text=True, timeout=120)
    assert swi.stdout.startswith("resource_error(")
    for query in ["length(L, 1000000000)", "numlist(1, 1000000000, L)", "nth1(1000000000, L, X)",
                  "nth0(999999999, L, X)"]:
        done = toplevel(query + ".")
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "resource error" in lines[0] and "1,000,000,000 elements" in lines[0]
