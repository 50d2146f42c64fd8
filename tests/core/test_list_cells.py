"""A list cell and a compound term are different terms, as in Prolog: `[H|T]` never unifies
with `f(a, b)` (a tuple), on any path of the unifier, in compiled clauses, in the list
loops, and in every kind of state; and a list whose tail is a compound, `[a|f(b)]`, is a
term that is read, written, unified and sent through JSON as it is."""

from __future__ import annotations

import json
from contextlib import nullcontext

import pytest
from cons.core import ConsPair
from hypothesis import given, settings
from hypothesis import strategies as st
from immutables import Map

from logicpy.core import (adjacento, appendo, conde, cons, conso, eq, format_term, from_json, loops, membero, neq, parse_term,
                          relation, run, selecto, to_json, unify, var, vars)
from logicpy.core.equality import State, _unify_general, reify, unify_mutation
from logicpy.core.fd import domo
from logicpy.core.terms import Suffix

ORDERS = ("interleaved", "prolog")


def test_a_cell_never_unifies_with_a_compound_in_the_core():
    h, t, x = vars(3)
    assert run(0, (h, t), eq(cons(h, t), ("f", 1))) == ()
    assert run(0, (h, t), eq(("f", 1), cons(h, t))) == ()
    assert run(0, (h, t), eq(x, ("f", "a", "b")), eq(x, cons(h, t))) == ()  # through a variable
    assert run(0, (h, t), eq(x, cons(h, t)), eq(x, ("f", "a", "b"))) == ()
    assert run(0, x, eq(cons(1, x), ("f", 1))) == ()  # whatever the arity
    assert run(0, x, eq([x], ("f",))) == () and run(0, x, eq([1, x], ("f", 1, 2))) == ()
    assert run(0, (h, t), eq(cons(h, t), [1, 2])) == ((1, [2]),)  # a list it still takes apart


@relation
def first(xs, x):
    t = var()
    return eq(xs, cons(x, t))


@relation
def member_last_first(x, xs):
    """member/2 with its clauses swapped: no loop runs it, its compiled clauses do."""
    h, t = vars(2)
    return conde([eq(xs, cons(h, t)), member_last_first(x, t)], [eq(xs, cons(x, t))])


@pytest.mark.parametrize("order", ORDERS)
def test_compiled_clauses_read_no_list_in_a_compound(order):
    for rel in (first, member_last_first):
        assert rel.relation.compile() is not None and rel.relation.runs is None, rel.relation.why
    x = var()
    assert run(0, x, first(("f", "a", "b"), x), order=order) == ()
    assert run(0, x, member_last_first(x, ("f", "a", "b")), order=order) == ()
    assert sorted(run(0, x, member_last_first(x, ["a", "b"]), order=order)) == ["a", "b"]
    assert run(0, x, member_last_first(x, cons("a", ("f", "b"))), order=order) == ("a",)
    assert run(0, x, first(cons("a", ("f", "b")), x), order=order) == ("a",)
    assert run(0, x, eq(x, ("f", "a")), member_last_first("a", x), order=order) == ()  # bound in the search


@pytest.mark.parametrize("order", ORDERS)
def test_the_list_relations_and_their_clauses_read_no_list_in_a_compound(order):
    x, y, z = vars(3)
    for disabled in (False, True):
        with loops.disabled() if disabled else nullcontext():
            assert run(0, x, eq(z, ("f", 1, 2)), membero(x, z), order=order) == ()
            assert run(0, (x, y), eq(z, ("f", 1)), appendo(x, y, z), order=order) == (([], ("f", 1)),)
            assert run(0, (x, y), appendo(x, y, cons("a", ("f", "b"))), order=order) == \
                (([], cons("a", ("f", "b"))), (["a"], ("f", "b")))
            assert run(0, x, membero(x, cons("a", "b", ("f", "c"))), order=order) == ("a", "b")
            assert run(0, (x, y), selecto(x, cons("a", ("f", "b")), y), order=order) == (("a", ("f", "b")),)


def test_the_record_matcher_takes_no_cell_for_a_record():
    """member's and nextto's loops match a tuple pattern against each element in one pass:
    a list cell or list there is no record, whatever its length."""
    x, y, z = vars(3)
    rows = [cons("f", z), ["f", 1], cons("f", 2, []), ("f", 3), cons("f", ("g", 4))]
    assert run(0, y, membero(("f", y), rows)) == (3,)
    assert run(0, y, eq(x, ("f", y)), membero(x, rows)) == (3,)
    assert run(0, (x, y), membero(cons(x, y), rows)) == (("f", z), ("f", [1]), ("f", [2]), ("f", ("g", 4)))
    assert run(0, y, adjacento(("f", y), ("f", 5), [cons("f", 1), ("f", 3), ("f", 5)])) == (3,)


def test_every_kind_of_state_and_path():
    h, t, x = vars(3)
    cell, compound = cons(h, t), ("f", 1, 2)
    assert unify(cell, compound, {}) is False and unify(compound, cell, Map()) is False
    assert unify(cell, compound, State()) is False
    assert unify(cell, compound, {}, occurs_check=True) is False
    with_store = next(iter(neq(x, 0)(State())))  # a state with a constraint store
    assert unify(cell, compound, with_store) is False
    with_domain = next(iter(domo(x, range(3))(Map())))  # a finite-domain state
    assert unify(cell, compound, with_domain) is False
    assert unify_mutation(cell, compound, Map().mutate()) is False
    assert _unify_general(cell, compound, Map()) is False and _unify_general(compound, cell, {}) is False
    # a type the fast path does not know sends the pair to the general path: the same answer
    from fractions import Fraction
    assert unify((cell, Fraction(1, 3)), (compound, Fraction(1, 3)), {}) is False
    # kanren's conso builds the same cell: it takes no compound apart inside a logicpy search
    assert run(0, (h, t), conso(h, t, ("f", 1))) == ()
    assert run(0, x, conso(1, [2], x)) == ([1, 2],)


def test_a_list_ending_in_a_compound_is_read_written_and_sent_as_json():
    term = parse_term("[a|f(b)]")
    assert type(term) is ConsPair and term.car == "a" and term.cdr == ("f", "b")
    assert format_term(term) == "[a|f(b)]" and format_term(cons("a", ("f", "b"))) == "[a|f(b)]"
    assert parse_term("[a,b|g(c,[d|e(f)])]") == cons("a", "b", ("g", "c", cons("d", ("e", "f"))))
    assert format_term(parse_term("[a,b|g(c,[d|e(f)])]")) == "[a,b|g(c,[d|e(f)])]"
    assert parse_term("'[|]'(a, f(b))") == term and format_term(parse_term("'[|]'(a, [])")) == "[a]"
    data = to_json(term)
    assert data == {"list": ["a"], "tail": {"functor": "f", "args": ["b"]}}
    back = from_json(json.loads(json.dumps(data)))
    assert type(back) is ConsPair and format_term(back) == "[a|f(b)]"
    names: dict = {}
    with_var = parse_term("[X|f(X, Y)]", names)
    assert format_term(from_json(to_json(with_var))) == "[X|f(X,Y)]"


def test_a_list_ending_in_a_compound_unifies_and_answers_as_itself():
    x, y, t = vars(3)
    assert run(0, x, eq(t, ("f", "b")), eq(x, cons("a", t))) == (cons("a", ("f", "b")),)
    [answer] = run(0, x, eq(t, ("f", "b")), eq(x, cons("a", t)))
    assert type(answer) is ConsPair and format_term(answer) == "[a|f(b)]"
    assert run(0, y, eq(parse_term("[a|f(b)]"), cons("a", ("f", y)))) == ("b",)
    assert run(0, y, eq(cons("a", ("f", "b")), cons("a", "f", y))) == ()
    assert run(0, y, eq(cons("a", ("f", "b")), ["a", "f", "b"])) == ()
    # reified in a state with a store (the dispatching reifier): a cell again
    [answer] = run(0, x, neq(y, 1), eq(t, ("f", y)), eq(x, cons("a", t)))
    assert type(answer) is ConsPair and answer.cdr == ("f", y)
    s = unify(x, cons("a", t), unify(t, ("f", "b"), State()))
    assert format_term(reify(x, s)) == "[a|f(b)]"


# ---------------------------------------------------------------- property

_X = vars(3, "p")
_ATOMS = st.sampled_from(["a", "f", 1, 2.5, "[]"])


def _terms() -> st.SearchStrategy:
    return st.recursive(
        st.one_of(_ATOMS, st.sampled_from(_X)),
        lambda inner: st.one_of(st.lists(inner, max_size=3), _compounds(inner), _cells(inner)),
        max_leaves=6)


def _compounds(args: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(lambda name, xs: (name, *xs), st.sampled_from(["f", "g", "."]), st.lists(args, max_size=3))


def _cells(parts: st.SearchStrategy) -> st.SearchStrategy:
    """A list term with at least one cell: a Python list, a `Suffix`, or cons cells ending in
    anything (a variable, [], a list, an atom, a compound)."""
    return st.one_of(
        st.lists(parts, min_size=1, max_size=3),
        st.lists(parts, min_size=2, max_size=4).map(lambda xs: Suffix(xs, 1)),
        st.builds(lambda xs, tail: cons(*xs, tail), st.lists(parts, min_size=1, max_size=3),
                  st.one_of(parts, _compounds(parts))),
    )


@settings(max_examples=300, deadline=None)
@given(_cells(_terms()), _compounds(_terms()), st.booleans(), st.sampled_from(["dict", "map", "state", "mutation"]))
def test_a_list_term_never_unifies_with_a_compound(cell, compound, via_variables, kind):
    """Whatever their parts (variables shared between them included), directly or each
    bound to a variable first, in every kind of substitution and by every entry point."""
    a, b = vars(2)
    start: dict = {a: cell, b: compound} if via_variables else {}
    u, v = (a, b) if via_variables else (cell, compound)
    states = {"dict": start, "map": Map(start), "state": State(Map(start))}
    if kind == "mutation":
        assert unify_mutation(u, v, Map(start).mutate()) is False
        assert unify_mutation(v, u, Map(start).mutate()) is False
    else:
        assert unify(u, v, states[kind]) is False and unify(v, u, states[kind]) is False
    assert _unify_general(u, v, start) is False
    assert run(0, a, eq(a, cell), eq(a, compound)) == ()


_GROUND_LEAVES = st.sampled_from(["a", "f", "[]", 1, 2.5])
_GROUND = st.recursive(
    _GROUND_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.builds(lambda name, xs: (name, *xs), st.sampled_from(["f", "."]), st.lists(inner, min_size=1, max_size=2)),
        st.builds(lambda xs, tail: cons(*xs, tail), st.lists(inner, min_size=1, max_size=2),
                  st.one_of(_GROUND_LEAVES, st.builds(lambda x: ("f", x), inner)))),
    max_leaves=6)


@pytest.mark.swi
@settings(max_examples=80, deadline=None)
@given(_GROUND, _GROUND)
def test_unify_agrees_with_swi_on_lists_cells_and_compounds(u, v):
    from logicpy import swi

    assert bool(swi.query(("=", u, v))) == (unify(u, v, {}) is not False)
    assert bool(swi.query(("=", u, u))) and unify(u, u, {}) is not False
    x = var()
    [(sent,)] = [tuple(a.values()) for a in swi.query(("=", x, u))]  # through the bridge and back
    assert format_term(sent) == format_term(u) and unify(sent, u, {}) is not False
