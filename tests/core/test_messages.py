"""Error messages write terms as Prolog text with the user's variable names (`X` for the
toplevel's X and for `var("x")`, `_G0` for an unnamed one), never unification's `~_9`."""

from __future__ import annotations

import io
import re

import pytest

from logicpy.core import conj, cons, distincto, domo, eq, fdo, labelo, lengtho, membero, nth1o, run, tableo, var
from logicpy.errors import LogicpyError, shown
from logicpy.repl import Toplevel, run_piped


def message(*goals) -> str:
    """The message of the error running `goals` raises."""
    with pytest.raises(LogicpyError) as info:
        run(0, var(), *goals)
    return str(info.value)


def test_shown_writes_prolog_text_with_the_names_given():
    assert shown(("f", var("x"), [1, "a b"], cons(1, var()))) == "f(X,[1,'a b'],[1|_G1])"
    assert shown({1: 2}) == "{1: 2}"  # no term: its Python repr
    long = shown(list(range(1_000)))
    assert len(long) == 200 and long.endswith("...")


def test_core_messages_write_terms_and_variables_as_the_user_named_them():
    assert message(lengtho(var(), "a")) == "lengtho: the length must be an integer or a variable, got a"
    assert message(nth1o(("f", 1), [1], var())) == "nth1o: the index must be an integer or a variable, got f(1)"
    assert message(distincto(cons(1, var("tail")))) == (
        "distincto needs a proper list, got a partial list ending in the unbound Tail")
    assert message(domo(var("x"), range(3)), labelo([var("y")])) == (
        "labelo: variable Y has no finite domain; give it one with domo")
    with pytest.raises(LogicpyError, match=re.escape("membero: argument xs must be a list, a partial list or a "
                                                     "variable, got f(X)")):
        membero(1, ("f", var("x")))
    with pytest.raises(LogicpyError, match=re.escape("tableo: argument rows[0][0] must be an int, got b")):
        tableo([var("a")], [("b",)])
    with pytest.raises(LogicpyError, match=re.escape("conj: f(X) is not a goal")):
        conj(eq(1, 1), ("f", var("x")))
    with pytest.raises(LogicpyError, match=re.escape("fdo: f(X) is not an expression")):
        fdo(("f", var("x")), "=", 1)


def test_the_toplevel_shows_the_querys_own_variable_names():
    out, err = io.StringIO(), io.StringIO()
    queries = "distincto([1|Tail]).\nlabel([Foo]).\nmembero(X, f(Y)).\n"
    run_piped(Toplevel(out=out, err=err), io.StringIO(queries))
    assert err.getvalue().splitlines() == [
        "error: distincto needs a proper list, got a partial list ending in the unbound Tail",
        "error: labelingo: variable Foo has no finite domain; give it one with domo (in/ins)",
        "error: membero: argument xs must be a list, a partial list or a variable, got f(Y) "
        "(a tuple is a compound term in logicpy; write lists as Python lists)",
    ]
