"""`==` and `\\==` read two terms without writing them out (`goals.same_term`) where they are
made of variables, compounds, lists and atomic values: the same verdict as comparing them
written out, and SWI-Prolog's on the cases where Prolog's identity is subtle."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logicpy.core import var
from logicpy.core.terms import cons, format_term
from logicpy.prolog import consult_text
from logicpy.repl.goals import _same_vars, same_term
from tests.swipl import answer_rows, swi_rows

X, Y = var(), var()

leaves = st.one_of(st.sampled_from(["a", "b", "[]", "true", "f"]), st.integers(-2, 2), st.booleans(),
                   st.sampled_from([1.0, 0.0, -0.0, 2.5]), st.sampled_from([X, Y]))
terms = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.builds(lambda name, args: (name, *args), st.sampled_from(["f", "g"]), st.lists(inner, min_size=1, max_size=3)),
    st.builds(lambda h, t: cons(h, t), inner, inner)), max_leaves=8)


def as_written(x, y) -> bool:
    return format_term(x, {}) == format_term(y, {}) and _same_vars(x, y)


@given(terms, terms)
def test_the_verdict_is_that_of_the_terms_written_out(x, y):
    same = same_term(x, y)
    assert same is None or same == as_written(x, y)
    assert same_term(x, x) in (True, None)


def test_what_it_reads_and_what_it_leaves():
    assert same_term(("f", X, [1, "a"]), ("f", X, [1, "a"])) is True
    assert same_term(("f", X), ("f", Y)) is False
    assert same_term(1, 1.0) is False and same_term(0.0, -0.0) is False
    assert same_term(True, "true") is True
    assert same_term([1, 2], [1, 2, 3]) is False
    assert same_term(cons(1, X), cons(1, X)) is None  # a list cell: compared as written


QUERIES = [
    "_X = f(_A, [1, b]), _Y = f(_A, [1, b]), (_X == _Y -> R = yes ; R = no)",
    "(f(_A) == f(_B) -> R = yes ; R = no)",
    "(1 == 1.0 -> R = yes ; R = no)",
    "(0.0 \\== -0.0 -> R = yes ; R = no)",
    "_L = [a|_T], (_L == [a|_T] -> R = yes ; R = no)",
    "(\"ab\" == \"ab\" -> R = yes ; R = no)",
    "([] == '[]' -> R = yes ; R = no)",
    "(f(a, b) \\== f(a, c) -> R = yes ; R = no)",
]


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")
@pytest.mark.parametrize("query", QUERIES)
def test_identity_answers_as_swi_does(query):
    assert answer_rows(consult_text(""), query) == swi_rows("", query)
