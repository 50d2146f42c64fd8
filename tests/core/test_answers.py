"""Answers shown with their constraints (logicpy.core.answers): Prolog syntax, `_0` per answer,
disequalities, FD domains and pending FD constraints, alone and in every combination with conde."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logicpy.core import (abs_diffo, appendo, conde, cons, domo, eq, inso, labelo, lengtho, lto, neq, run,
                          var)
from logicpy.core.answers import answers, readable_constraint, show
from logicpy.core.residual import answers_with_constraints


def texts(n, term, *goals):
    return [a.text for a in answers(n, term, *goals)]


def test_names_start_at_zero_in_every_answer():
    xs, n = var(), var()
    assert texts(3, xs, lengtho(xs, n)) == ["[]", "[_0]", "[_0,_1]"]
    # run's names grow through a session; these do not
    assert texts(1, xs, lengtho(xs, 2)) == ["[_0,_1]"]


def test_partial_lists_and_compounds_in_prolog_syntax():
    x, y = var(), var()
    assert texts(0, y, appendo([1], x, y)) == ["[1|_0]"]
    assert texts(0, ("f", x, [x, "A b"]), eq(x, cons(1, y))) == ["f([1|_0],[[1|_0],'A b'])"]
    assert show(cons(1, var())) == "[1|_0]"


def test_programs_keep_python_values():
    x, y = var(), var()
    [a] = answers(0, (x, y), eq(x, [1, 2]), eq(y, "b"))
    assert a.value == ([1, 2], "b") and a.text == "[[1,2],b]"
    assert answers(0, x, eq(x, 3)).values == run(0, x, eq(x, 3))


def test_disequality_shown():
    x, y = var(), var()
    assert texts(0, x, neq(x, 1)) == ["_0 :- dif(_0,1)"]
    assert texts(0, (x, y), neq([x, y], [2, 1])) == ["[_0,_1] :- dif([_0,_1],[2,1])"]


def test_domain_and_pending_fd_constraint_shown():
    x, y = var(), var()
    assert texts(0, (x, y), inso([x, y], range(1, 4)), lto(x, y)) == ["[_0,_1] :- _0 in 1..2, _0 #< _1, _1 in 2..3"]
    assert texts(0, (x, y), domo(x, range(1, 4)), lto(x, y)) == ["[_0,_1] :- _0 in 1..3, _0 #< _1, _1 in 2..sup"]
    assert texts(0, x, domo(x, range(1, 4)), lto(x, y)) == ["_0 :- _0 in 1..3, _0 #< _1, _1 in 2..sup"]
    assert texts(0, (x, y), inso([x, y], range(1, 6)), abs_diffo(x, y, 2)) == [
        "[_0,_1] :- _0 in 1..5, _1 in 1..5, abs(_0-_1) #= 2"]


def test_labelling_leaves_nothing_pending():
    x, y = var(), var()
    assert texts(0, (x, y), inso([x, y], range(1, 4)), lto(x, y), labelo([x, y])) == ["[1,2]", "[1,3]", "[2,3]"]


def test_every_kind_in_conde_branches_stays_in_its_branch():
    x, y, z = var(), var(), var()
    got = texts(0, (x, y), conde(
        [neq(x, 1)],
        [eq(x, cons(1, z))],
        [domo(x, range(1, 4)), lto(x, y)],
        [eq(x, 2), eq(y, 3)],
    ))
    assert sorted(got) == sorted([
        "[_0,_1] :- dif(_0,1)",
        "[[1|_0],_1]",
        "[_0,_1] :- _0 in 1..3, _0 #< _1, _1 in 2..sup",
        "[2,3]",
    ])


def test_constraints_before_and_after_conde_combine():
    x, y = var(), var()
    # a domain before conde, a disequality or an FD constraint in the branches
    got = texts(0, (x, y), domo(x, range(1, 4)), conde([neq(x, 2)], [lto(x, y)], [eq(x, 3)]))
    assert sorted(got) == sorted([
        "[_0,_1] :- _0 in 1..3, dif(_0,2)",
        "[_0,_1] :- _0 in 1..3, _0 #< _1, _1 in 2..sup",
        "[3,_0]",
    ])
    # a disequality before conde, domains and list shapes in the branches
    got = texts(0, x, neq(x, [1]), conde([domo(x, [1, 5])], [eq(x, cons(y, []))], [eq(x, [2])]))
    assert sorted(got) == sorted(["_0 :- _0 in 1\\/5, dif(_0,[1])", "[_0] :- dif(_0,1)", "[2]"])
    # nested conde: a pending FD constraint, then a disequality on the other variable
    got = texts(0, (x, y), inso([x, y], range(1, 4)), conde([lto(x, y), conde([neq(y, 3)], [eq(y, 3)])], [eq(x, y)]))
    assert sorted(got) == sorted([
        "[_0,_1] :- _0 in 1..2, _0 #< _1, _1 in 2..3, dif(_1,3)",
        "[_0,3] :- _0 in 1..2",
        "[_0,_0] :- _0 in 1..3",
    ])


def test_a_branch_whose_constraint_fails_gives_no_answer():
    x = var()
    assert texts(0, x, conde([neq(x, 1), eq(x, 1)], [domo(x, [1, 2]), lto(x, 1)], [eq(x, 4)])) == ["4"]


def test_answers_agree_with_the_canonical_reading():
    x, y = var(), var()
    goals = (inso([x, y], range(0, 5)), conde([lto(x, y)], [neq(x, y)], [eq(x, cons(1, y))]))
    mine = answers(0, [x, y], *goals)
    canonical = list(answers_with_constraints([x, y], *goals))
    assert [a.residual.text for a in mine] == [r.text for r in canonical]


def test_non_terms_are_written_as_their_repr():
    from logicpy.puzzles.epistemic import GABE
    from logicpy.puzzles.epistemic.relations import storyo
    d = var()
    assert texts(0, d, storyo(GABE, d)) == ["MonthDay(7, 30)"]  # Gabe's story: July 30 (Norvig)


def test_html_table_lists_each_answer_and_its_constraints():
    x = var()
    page = answers(0, x, conde([neq(x, 1)], [eq(x, 2)]))._repr_html_()
    assert page.count("<tr>") == 3 and "dif(_0,1)" in page and "<td>2</td>" in page.replace("<code>", "").replace("</code>", "")
    assert "no answers" in answers(0, x, eq(x, 1), eq(x, 2))._repr_html_()


_OPS = {"#=<": "<=", "#<": "<", "#=": "==", "#\\=": "!="}


@given(st.sampled_from(["#=<", "#=", "#\\="]), st.integers(-5, 5), st.integers(-9, 9), st.integers(-9, 9),
       st.booleans())
def test_readable_linear_constraints_mean_the_canonical_ones(op, c, p, n, negated_first):
    P, N = var(), var()
    names = {P: "P", N: "N"}
    expr = ("+", ("-", N), P) if negated_first else ("-", P, N)  # both canonical forms of P - N
    text = readable_constraint((op, expr, c), names)
    python = re.sub(r"#\\=|#=<|#<|#=", lambda m: _OPS[m.group()], text)
    holds = {"#=<": p - n <= c, "#=": p - n == c, "#\\=": p - n != c}[op]
    assert eval(python, {"P": p, "N": n}) == holds, text


@pytest.mark.swi
def test_same_canonical_text_as_swi_prolog():
    from logicpy import swi
    from logicpy.core.residual import residual_from_goals
    x, y = var("x"), var("y")
    [mine] = answers(0, (x, y), domo(x, range(1, 4)), lto(x, y), neq(y, 5))
    got = swi.consult("prolog/constraints.pl").query("X in 1..3, X #< Y, dif(Y, 5)")
    [prolog] = [residual_from_goals([b["X"], b["Y"]], r) for b, r in zip(got, got.residual)]
    assert mine.residual.text == prolog.text
    assert mine.text == "[_0,_1] :- _0 in 1..3, _0 #< _1, _1 in 2..sup, dif(_1,5)"


def test_goals_show_the_call_that_made_them():
    """A goal's repr is its call in Prolog syntax, variables `_0, _1, …` (issue 13)."""
    from logicpy.core import appendo, conde, eq, labelo, lto, membero, neq, relation, var

    x, y = var(), var()
    assert repr(appendo([1], x, y)) == "appendo([1],_0,_1)"
    assert repr(neq([x, y], [2, 1])) == "neq([_0,_1],[2,1])"
    assert repr(labelo([x, y], strategy="leftmost")) == "labelo([_0,_1])"
    assert repr(conde([eq(x, 1)], [membero(x, [2]), lto(x, y)])) == "disj(eq(_0,1), conj(membero(_0,[2]), lto(_0,_1)))"

    @relation
    def parento(a, b):
        return eq(a, b)

    assert repr(parento("abe", x)) == "parento(abe,_0)"


def test_a_long_answer_list_shows_its_first_rows_in_a_notebook():
    from logicpy.core import answers, permuteo, var

    x = var()
    many = answers(0, x, permuteo([1, 2, 3, 4, 5, 6, 7], x))
    shown = many._repr_html_()
    assert len(many) == 5040 and shown.count("<tr>") == many.SHOWN + 1  # the header, then SHOWN rows
    assert "… and 4,990 more (5,040 answers)" in shown and len(shown) < 20_000
    few = answers(0, x, permuteo([1, 2], x))._repr_html_()
    assert few.count("<tr>") == 3 and "more" not in few
