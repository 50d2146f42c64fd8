"""Fact tables: lookups in every mode, constraints kept, indexes used after walking, input errors."""

from __future__ import annotations

import kanren
import pytest

from logicpy.core import Table, conde, eq, membero, neq, run, var, vars
from logicpy.errors import InputError

SIMPSONS = [("abe", "homer"), ("homer", "bart"), ("homer", "lisa"), ("homer", "maggie"), ("clancy", "marge")]


@pytest.fixture
def parent() -> Table:
    return Table.from_rows("parent", SIMPSONS)


def test_lookups_in_every_mode_in_insertion_order(parent):
    x, y = var(), var()
    assert run(0, y, parent("homer", y)) == ("bart", "lisa", "maggie")
    assert run(0, x, parent(x, "bart")) == ("homer",)
    assert run(0, (x, y), parent(x, y)) == tuple(SIMPSONS)
    assert run(0, x, parent("bart", x)) == ()
    assert run(0, x, parent("homer", "lisa")) == (x,)


def test_join_grandparent(parent):
    g, p, c = vars(3)
    assert run(0, c, parent(g, p), parent(p, c), eq(g, "abe")) == ("bart", "lisa", "maggie")


def test_lookup_respects_an_earlier_neq(parent):
    child = var()
    assert run(0, child, neq(child, "bart"), parent("homer", child)) == ("lisa", "maggie")
    # and a later one
    assert run(0, child, parent("homer", child), neq(child, "lisa")) == ("bart", "maggie")


def test_kanren_relation_drops_the_constraint_ours_keeps():
    """Documents the kanren 1.0.5 bug: its Relation returns a plain dict state, so the
    neq(x, 2) posted before the lookup is gone when x is bound afterwards: 2 comes back."""
    rel = kanren.Relation("r")
    kanren.facts(rel, (1,), (2,), (3,))
    x, y = kanren.var(), kanren.var()
    assert kanren.run(0, x, neq(x, 2), rel(y), eq(x, y)) == (1, 2, 3)
    table = Table.from_rows("r", [(1,), (2,), (3,)])
    assert run(0, x, neq(x, 2), table(y), eq(x, y)) == (1, 3)
    assert run(0, x, neq(x, 2), table(x)) == (1, 3)


def test_index_is_used_when_an_earlier_goal_bound_the_argument():
    squares = Table.from_rows("square", ((i, i * i) for i in range(100_000)))
    x, y = var(), var()
    assert run(0, y, eq(x, 512), squares(x, y)) == (512 * 512,)
    assert squares.rows_visited == 1
    assert run(0, x, eq(y, 49), squares(x, y)) == (7,)
    assert squares.rows_visited == 2
    for i in range(1_000):
        assert run(0, y, eq(x, i), squares(x, y)) == (i * i,)
    assert squares.rows_visited == 1_002
    assert run(0, x, eq(y, 3), squares(x, y)) == ()
    assert squares.rows_visited == 1_002  # no candidates at all


def test_the_most_selective_ground_argument_wins():
    edges = Table.from_rows("edge", [("hub", i) for i in range(1_000)] + [(i, "hub") for i in range(3)])
    x = var()
    before = edges.rows_visited
    assert run(0, x, eq(x, 999), edges("hub", x)) == (999,)
    assert edges.rows_visited - before == 1
    before = edges.rows_visited
    assert run(0, x, edges(x, "hub")) == (0, 1, 2)
    assert edges.rows_visited - before == 3


def test_scan_without_ground_arguments_visits_every_row(parent):
    x, y = var(), var()
    parent.rows_visited = 0
    run(0, (x, y), parent(x, y))
    assert parent.rows_visited == len(parent) == 5


def test_list_valued_facts_are_indexed():
    shapes = Table.from_rows("shape", [("L", [[0, 0], [1, 0], [1, 1]]), ("I", [[0, 0], [1, 0]])])
    name = var()
    assert run(0, name, shapes(name, [[0, 0], [1, 0]])) == ("I",)
    assert shapes.rows_visited == 1


def test_duplicate_facts_are_stored_once():
    t = Table("t", 1)
    t.add("a")
    t.add("a")
    assert len(t) == 1 and list(t) == [("a",)]


def test_partially_bound_arguments_still_unify():
    terms = Table.from_rows("term", [(("f", 1),), (("g", 2),)])
    x = var()
    assert run(0, x, terms(("f", x))) == (1,)  # a compound with a variable: scanned, then unified
    pairs = Table.from_rows("pair", [("f", 1), ("g", 2)])
    assert sorted(run(0, x, conde([pairs("g", x)], [pairs("f", x)]), membero(x, [1, 2]))) == [1, 2]


def test_bad_input_names_table_and_fact():
    t = Table("likes", 2)
    with pytest.raises(InputError, match=r"likes/2: fact \('bob',\) has 1 arguments, expected 2"):
        t.add("bob")
    with pytest.raises(InputError, match="logic variable"):
        t.add("bob", var())
    with pytest.raises(InputError, match="likes/2 called with 3 arguments"):
        t("a", "b", "c")
    with pytest.raises(InputError, match="no rows"):
        Table.from_rows("empty", [])
    assert len(Table.from_rows("empty", [], arity=3)) == 0
