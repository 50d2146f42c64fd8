"""Fact tables and membership/adjacency over records give exactly the answers of plain
unification, whatever the terms: atoms, integers, floats, booleans (1, 1.0 and True apart),
variables bound or free, repeated or aliased, tuples, inside plain bindings, states that
check occurs, and states with constraint stores (where membership and adjacency run their
clauses in the interleaved order: the same answers up to the names of their variables)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import Table, adjacento, conde, eq, membero, neq, run, var, vars
from logicpy.errors import LogicpyError
from tests.core.test_record_match import renamed

X, Y, Z = vars(3, "p")  # the pool of variables the generated terms share
LEAVES = st.sampled_from(["a", "b", 0, 1, True, 1.0, -0.0, 0.0, X, Y, Z])
TERMS = st.recursive(LEAVES, lambda inner: st.tuples(st.sampled_from(["f", "g"]), inner, inner), max_leaves=6)
GROUND = st.recursive(st.sampled_from(["a", "b", 0, 1, True, 1.0, -0.0]),
                      lambda inner: st.tuples(st.sampled_from(["f", "g"]), inner, inner), max_leaves=5)
#: What may hold before the lookup: nothing, bindings (variables chained or to terms), a
#: constraint, and whether the run checks occurs.
SETUPS = st.tuples(st.lists(st.tuples(st.sampled_from([X, Y, Z]), TERMS), max_size=2),
                   st.booleans(), st.booleans())


def _same_answers(goal, reference, setup, loop: bool = False) -> None:
    """`goal`'s answers are `reference`'s; a `loop`'s (membero, adjacento) up to the names
    of their variables in a state with a store or the occurs check, where the interleaved
    order runs its clauses, whose bindings may go the other way."""
    bindings, constrained, occurs = setup
    before = [eq(v, t) for v, t in bindings]
    if constrained:
        before.append(neq(X, "a"))
    q = (X, Y, Z)
    got = _outcome(lambda: run(0, q, *before, goal, occurs_check=occurs))
    want = _outcome(lambda: run(0, q, *before, reference, occurs_check=occurs, order="prolog"))
    if loop and (constrained or occurs):
        got, want = renamed(got), renamed(want)
    assert got == want


def _outcome(query):
    """The answers, or the error's text (a cyclic answer refused, say)."""
    try:
        return query()
    except LogicpyError as exc:
        return str(exc)


def _one_of(term, candidates):
    """term unifies with each candidate in turn: the reference, plain `eq` in clause order."""
    return conde(*[[eq(term, c)] for c in candidates]) if candidates else eq(0, 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(GROUND, GROUND), min_size=1, max_size=6), st.tuples(TERMS, TERMS), SETUPS)
def test_table_answers_are_those_of_unification(rows, args, setup):
    table = Table.from_rows("t", rows)
    _same_answers(table(*args), _one_of(args, list(table)), setup)


@settings(max_examples=300, deadline=None)
@given(TERMS, st.lists(TERMS, max_size=5), SETUPS)
def test_membero_answers_are_those_of_unification(x, items, setup):
    _same_answers(membero(x, items), _one_of(x, items), setup, loop=True)


@settings(max_examples=300, deadline=None)
@given(TERMS, TERMS, st.lists(TERMS, max_size=5), SETUPS)
def test_adjacento_answers_are_those_of_unification(x, y, items, setup):
    pairs = list(zip(items, items[1:]))
    _same_answers(adjacento(x, y, items), _one_of((x, y), pairs), setup, loop=True)


def test_records_clash_on_atoms_and_integers_only():
    """An atom or integer in a pattern rejects a record at once; 1 and True and 1.0 stay apart."""
    n, c = var(), var()
    houses = [("house", "red", 1), ("house", "green", True), ("house", "blue", 1.0), ("house", c, 1)]
    assert run(0, n, membero(("house", n, 1), houses)) == ("red", c)
    assert run(0, n, membero(("house", n, True), houses)) == ("green",)
    assert run(0, c, membero(("house", "white", 1), houses)) == ("white",)
    assert run(0, (n, c), adjacento(("house", n, 1), ("house", c, 1.0), houses)) == ()
    assert run(0, (n, c), adjacento(("house", "green", True), ("house", n, c), houses)) == (("blue", 1.0),)


def test_a_lookup_keeps_constraints_and_the_occurs_check():
    x = var()
    pets = [("pet", "dog"), ("pet", "cat")]
    assert run(0, x, neq(x, "dog"), membero(("pet", x), pets)) == ("cat",)
    assert run(0, x, membero(x, [("f", x)]), occurs_check=True) == ()
    edges = Table.from_rows("edge", [(1, 2), (2, 2)])
    assert run(0, x, neq(x, 2), edges(1, x)) == ()
    assert run(0, x, edges(x, x), occurs_check=True) == (2,)


def test_long_fact_scans_stay_fair_and_in_order():
    """Many candidates, most rejected by a second index: answers in insertion order, and a
    goal beside the scan still gets its turn."""
    rows = [("k", i % 97, i) for i in range(5_000)]
    table = Table.from_rows("r", rows)
    i = var()
    assert run(0, i, table("k", 5, i)) == tuple(range(5, 5_000, 97))
    assert run(3, i, conde([table("k", 1_000, i)], [eq(i, "other")])) == ("other",)
    x, y = var(), var()
    assert run(0, (x, y), table(x, y, 4_999)) == (("k", 4_999 % 97),)
