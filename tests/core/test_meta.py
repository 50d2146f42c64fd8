"""project and the type tests: non-relational, so the order of goals matters (as in Prolog)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from logicpy.core import (
    String, atomico, conde, cons, domo, eq, fail, groundo, membero, neq, nonvaro, numbero, project, relation, run, var,
    varo, vars,
)
from logicpy.errors import InputError


def test_project_hands_the_current_values_to_python():
    x, y = vars(2)
    assert run(0, y, membero(x, [1, 2, 3]), project(x)(lambda v: eq(y, v * 10))) == (10, 20, 30)
    # an unbound variable is projected as itself
    assert run(0, y, project(x)(lambda v: eq(y, ("got", v)))) == (("got", x),)
    # project keeps the state's constraints: the answer still has to pass neq
    assert run(0, y, neq(y, 20), membero(x, [1, 2]), project(x)(lambda v: eq(y, v * 10))) == (10,)
    with pytest.raises(InputError, match="not a function"):
        project(x)(3)


def test_type_tests_follow_prolog_and_depend_on_goal_order():
    x, q = vars(2)
    assert run(0, x, nonvaro(x)) == () and run(0, x, eq(x, 1), nonvaro(x)) == (1,)
    assert run(0, x, eq(x, 1), varo(x)) == ()
    assert run(0, x, varo(x), eq(x, 1)) == (1,)  # non-relational: var/1 then X = 1 succeeds
    atomic = [1, 1.5, "a", True, Fraction(1, 3), String("s"), []]
    not_atomic = [("f", 1), [1], cons(1, var())]
    for t in atomic:
        assert run(0, q, eq(x, t), atomico(x), eq(q, 1)) == (1,), t
    for t in not_atomic + [var()]:
        assert run(0, q, eq(x, t), atomico(x), eq(q, 1)) == (), t
    assert [run(0, q, numbero(t), eq(q, 1)) for t in (1, 2.5, True, "1")] == [(1,), (1,), (), ()]


def test_groundo_walks_the_whole_term():
    x, y, q = vars(3)
    assert run(0, q, eq(x, ("f", [1, y])), groundo(x), eq(q, 1)) == ()
    assert run(0, q, eq(x, ("f", [1, y])), eq(y, 2), groundo(x), eq(q, 1)) == (1,)
    # an FD variable with a domain is still a variable
    assert run(0, q, domo(y, range(3)), groundo(y), eq(q, 1)) == ()


def test_project_whose_function_returns_no_goal_names_the_function_and_the_value():
    """Was `TypeError: 'int' object is not callable` from inside the search."""
    x, y = var("x"), var()

    def double(v):
        return v * 2

    with pytest.raises(InputError, match=r"^project: double returned 2 for 1, not a goal"):
        run(0, y, membero(x, [1, 2]), project(x)(double))
    with pytest.raises(InputError, match=r"^project: the lambda at test_meta\.py:\d+ returned None for X, not a goal"):
        run(0, y, project(x)(lambda v: None))
    with pytest.raises(InputError, match=r"^project: double cannot take the 2 projected values \(X,"):
        project(x, y)(double)


def test_project_goes_on_in_the_same_search():
    """The goal fn returns continues in the caller's search: a recursion through project
    costs no Python stack, and a projected endless branch takes turns with the others."""
    @relation
    def countdowno(n, out):
        return conde([eq(n, 0), eq(out, "done")],
                     [project(n)(lambda k: countdowno(k - 1, out) if k > 0 else fail)])

    q = var()
    assert run(0, q, countdowno(20_000, q)) == ("done",)

    @relation
    def endlesso(n):
        return project(n)(lambda k: endlesso(k + 1))

    assert run(1, q, conde([endlesso(0)], [eq(q, "other")])) == ("other",)
