"""Terms of any size: lists, partial lists and nested terms of 100,000 cells in the fast
suite, 1,000,000 in the slow one; tails shared instead of copied; built-ins that give the
search its turn (time limits, fairness); cyclic lists and self-containing Python lists."""

from __future__ import annotations

import io
import time

import pytest

from logicpy.core import (
    SearchTimeout,
    Var,
    answers,
    appendo,
    conde,
    cons,
    eq,
    eq_oc,
    format_term,
    from_json,
    lengtho,
    membero,
    neq,
    parse_term,
    relation,
    run,
    show,
    to_json,
    var,
    vars,
)
from logicpy.core._spine import hashable_key
from logicpy.core.equality import unify as unify_state
from logicpy.core.terms import Suffix, check_term
from logicpy.errors import TermError
from logicpy.repl import Toplevel, run_piped

SIZES = [100_000, pytest.param(1_000_000, marks=pytest.mark.slow)]


def nested(n: int) -> tuple:
    """s(s(...s(z)...)), n deep."""
    term: tuple | str = "z"
    for _ in range(n):
        term = ("s", term)
    return term  # type: ignore[return-value]


def depth(term) -> int:
    d = 0
    while isinstance(term, tuple):
        d, term = d + 1, term[1]
    return d


@pytest.mark.parametrize("n", SIZES)
def test_partial_lists_in_every_list_relation(n):
    q, x, t = var(), var(), var()
    partial = cons(*range(n), t)
    assert run(1, q, membero(n - 1, partial), eq(q, "found")) == ("found",)
    assert run(1, q, lengtho(partial, q)) == (n,)
    (appended,) = run(1, q, appendo(partial, ["end"], q))
    assert len(appended) == n + 1 and appended[-1] == "end" and appended[n - 1] == n - 1
    first_two = run(2, (x, q), appendo(x, q, partial))
    assert first_two[0][0] == [] and first_two[1][0] == [0]
    (back,) = run(1, x, appendo(x, [n - 1], list(range(n))))
    assert back == list(range(n - 1))


@pytest.mark.parametrize("n", SIZES)
def test_eq_neq_reify_and_printing_of_long_partial_lists(n):
    q, t, u = var(), var(), var()
    partial = cons(*range(n), t)
    assert run(1, q, eq(partial, cons(*range(n), q)), eq(q, [])) == ([],)
    assert run(1, q, eq(partial, list(range(n - 1)) + [q])) == (n - 1,)
    assert run(0, q, neq(partial, cons(*range(n), u)), eq(t, u), eq(q, 1)) == ()
    assert run(0, q, neq(partial, cons(*range(n), u)), eq(t, [1]), eq(u, [2]), eq(q, 1)) == (1,)
    (value,) = run(1, q, eq(q, partial))
    assert type(value).__name__ == "ConsPair"
    text = show(value)
    assert text.startswith("[0,1,2,") and text.endswith(f",{n - 1}|_0]")
    assert answers(1, q, eq(q, partial))[0].text == text
    assert to_json(partial)["list"][-1] == n - 1
    assert check_term(partial) is partial


@pytest.mark.parametrize("n", [20_000, pytest.param(100_000, marks=pytest.mark.slow),
                               pytest.param(1_000_000, marks=pytest.mark.slow)])
def test_nested_terms_unify_reify_print_and_convert(n):
    q = var()
    deep, deep_open = nested(n), nested(n)
    assert depth(run(1, q, eq(deep, q))[0]) == n
    assert run(1, q, eq(deep, deep_open), eq(q, "same")) == ("same",)
    assert depth(run(1, q, eq_oc(q, deep))[0]) == n
    assert depth(parse_term(format_term(deep))) == n
    assert depth(from_json(to_json(deep))) == n
    assert hashable_key(deep) == hashable_key(nested(n)) != hashable_key(nested(n - 1))
    assert check_term(deep) is deep


def test_unifying_a_list_with_a_cons_shares_its_tail():
    items = list(range(10))
    h, t, t2 = var(), var(), var()
    S = unify_state(items, cons(h, t), {})
    assert S[h] == 0 and type(S[t]) is Suffix and S[t].items is items and S[t].start == 1
    S = unify_state(S[t], cons(var(), t2), S)
    assert S[t2].items is items and S[t2].start == 2 and S[t2] == items[2:]
    assert unify_state([9], cons(h, t), {})[t] == []  # past the end: the empty list itself
    assert cons(0, items).cdr is items  # a cell in front of a list, not a copy of it


def test_every_form_of_a_proper_list_is_one_term():
    items = [1, 2, 3]
    forms = [items, Suffix([0, 1, 2, 3], 1), cons(1, [2, 3]), cons(1, 2, Suffix([9, 3], 1))]
    for form in forms:
        assert format_term(form) == "[1,2,3]"
        assert to_json(form) == [1, 2, 3]
        assert hashable_key(form) == hashable_key(items) != hashable_key((1, 2, 3))
        q = var()
        assert run(0, q, eq(form, [q, 2, 3])) == (1,)
        assert run(0, q, eq(q, form)) == ([1, 2, 3],)
        assert run(0, q, lengtho(form, q)) == (3,)
        assert run(0, q, membero(q, form)) == (1, 2, 3)
        assert run(0, q, appendo(form, [4], q)) == ([1, 2, 3, 4],)
    assert cons(1, []) == [1]
    assert hashable_key(cons(1, var())) != hashable_key([1])


@relation
def reverseo(xs, acc, ys):
    h, t = vars(2)
    return conde([eq(xs, []), eq(acc, ys)],
                 [eq(xs, cons(h, t)), reverseo(t, cons(h, acc), ys)])


@pytest.mark.parametrize("n", [20_000, pytest.param(1_000_000, marks=pytest.mark.slow)])
def test_accumulator_reverse_of_a_long_list(n):
    q = var()
    assert run(1, q, reverseo(list(range(n)), [], q)) == (list(range(n - 1, -1, -1)),)


def test_an_endless_built_in_honours_the_time_limit():
    x = var()
    start = time.monotonic()
    with pytest.raises(SearchTimeout):
        run(1, x, appendo(x, [1], x), timeout=2)
    assert 1.9 < time.monotonic() - start < 2.5


def test_an_endless_built_in_does_not_starve_another_branch():
    q, x = var(), var()
    assert run(1, q, conde([appendo(x, [1], x)], [eq(q, 1)])) == (1,)
    assert run(1, q, conde([lengtho(x, q), eq(q, -1)], [eq(q, 1)])) == (1,)


def cyclic(*items):
    """A state-made cyclic list [items... | itself] and the goal that makes it."""
    xs = var()
    return xs, eq(xs, cons(*items, xs))


def test_cyclic_lists():
    q = var()
    xs, make = cyclic(1, 2)
    assert run(5, q, make, membero(q, xs)) == (1, 2, 1, 2, 1)  # member/2: round after round
    with pytest.raises(SearchTimeout):
        run(1, q, make, membero(3, xs), timeout=0.5)
    assert run(1, q, conde([make, membero(3, xs)], [eq(q, "other")])) == ("other",)
    with pytest.raises(TermError, match="cyclic list"):
        run(1, q, make, lengtho(xs, q))
    with pytest.raises(SearchTimeout):  # append/3's clauses go round a cyclic first list without end
        run(1, q, make, appendo(xs, [], q), timeout=0.5)
    with pytest.raises(TermError, match="cyclic"):
        run(1, xs, make)


def test_a_self_containing_python_list_is_refused_not_followed():
    loop: list = [1, 2]
    loop.append(loop)
    with pytest.raises(TermError, match=r"term\[1\]\[2\]: a list or compound that contains itself"):
        format_term(("f", loop))
    q = var()
    for refused in (lambda: check_term(loop), lambda: to_json(loop), lambda: hashable_key(("f", loop)),
                    lambda: run(1, q, eq(q, ("f", loop)))):
        with pytest.raises(TermError, match="contains itself"):
            refused()


def test_cycles_through_bindings_are_named_as_such():
    x, t = var(), var()
    with pytest.raises(TermError, match="cyclic term"):
        run(1, x, eq(x, cons(0, t)), eq(t, [("f", t)]))
    inner = var()
    deep: tuple | Var = inner
    for _ in range(300):  # past the depth where reification goes on with an explicit stack
        deep = ("s", deep)
    with pytest.raises(TermError, match="cyclic term"):
        run(1, x, eq(x, deep), eq(inner, ("g", inner)))
    assert depth(run(1, x, eq(x, deep), eq(inner, ("g", "z")))[0]) == 301  # with g(z)
    # a cycle through a list's tail and then its head: [[true | C] | a] with C that list
    c = var()
    with pytest.raises(TermError, match="cyclic term"):
        run(1, x, eq(x, ("s", c)), eq(c, cons(cons("true", c), "a")))
    with pytest.raises(TermError, match="cyclic term"):
        run(1, x, eq(x, ("s", c)), eq(c, cons(cons("true", c), "a")), neq(x, "a"))
    shared = var()  # an element before a tail variable holding it is no cycle
    assert run(1, x, eq(x, cons(shared, shared)), eq(shared, [1])) == ([[1], 1],)
    wrapped, expected = cons(shared, shared), [[1], 1]
    for _ in range(300):  # the same, reified with the explicit stack
        wrapped, expected = ("s", wrapped), ("s", expected)
    assert run(1, x, eq(x, wrapped), eq(shared, [1])) == (expected,)


def test_appendo_splits_a_cyclic_list_without_end_as_append_does():
    # SWI: L = [1,2|L], append(X, Y, L) gives X = [], [1], [1,2], [1,2,1], ... with Y the rest
    xs, make = cyclic(1, 2)
    x, y = var(), var()
    assert run(4, x, make, appendo(x, var(), xs), timeout=2) == ([], [1], [1, 2], [1, 2, 1])
    assert run(2, x, make, appendo(x, cons(2, y), xs), timeout=2) == ([1], [1, 2, 1])
    h = var()  # y, the cyclic rest, starts where x ends
    assert run(4, (x, h), make, appendo(x, cons(h, var()), xs), timeout=2) == (
        ([], 1), ([1], 2), ([1, 2], 1), ([1, 2, 1], 2))
    with pytest.raises(SearchTimeout):
        run(1, x, make, appendo(x, [3], xs), timeout=0.5)  # no split ends in [3]: searches on, stops in time


def test_cyclic_terms_in_groundo_neq_and_show():
    from logicpy.core import groundo
    q = var()
    xs, make = cyclic(1, 2)
    ys, make_ys = cyclic(1, 2, 1, 2)
    assert run(1, q, make, groundo(xs), eq(q, "ground"), timeout=2) == ("ground",)
    zs, make_zs = cyclic(1, var())
    assert run(1, q, make_zs, groundo(zs), timeout=2) == ()
    assert run(1, q, make, make_ys, neq(xs, ys), timeout=2) == ()  # the same infinite list: dif fails
    assert run(1, q, make, make_ys, neq(xs, cons(1, 3, var())), eq(q, "differ"), timeout=2) == ("differ",)
    f, g = var(), var()
    assert run(1, q, eq(f, ("f", f)), eq(g, ("f", ("f", g))), neq(f, g), timeout=2) == ()
    loop: list = [1]
    loop.append(loop)
    with pytest.raises(TermError, match="contains itself"):
        show(loop)
    deep: tuple = (object(),)
    for _ in range(5_000):
        deep = ("f", deep)
    assert show([deep]).startswith("[f(f(")  # a value with a non-term part, deeper than Python's recursion


def test_self_containing_python_lists_unify_as_rational_trees():
    a: list = [1]
    a.append(a)
    b: list = [1, [1]]
    b[1].append(b)
    q = var()
    assert run(1, q, eq(a, b), eq(q, "same"), timeout=2) == ("same",)  # was: an endless loop
    c: list = [2]
    c.append(c)
    assert run(1, q, eq(a, c), timeout=2) == ()


def test_unifying_deep_terms_is_linear():
    n = 100_000
    x, y, inner = var(), var(), var()
    left: tuple | Var = inner
    right: tuple | Var = "a"
    for _ in range(n):
        left, right = ("f", left), ("f", right)
    assert run(1, inner, eq(left, right), timeout=10) == ("a",)
    assert run(1, inner, eq(x, left), eq(y, right), eq(x, y), timeout=10) == ("a",)
    assert run(1, inner, eq(left, right), occurs_check=True, timeout=10) == ("a",)


def test_the_toplevel_answers_over_a_long_partial_list():
    out, err = io.StringIO(), io.StringIO()
    run_piped(Toplevel(out=out, err=err, limit=1), io.StringIO("length(L0, 600), append(L0, T, L), member(q, L)."))
    first = out.getvalue().splitlines()[0]
    assert first.startswith("L0 = [q, _A, _B, ") and "_A23|T] ." in first and err.getvalue() == ""
