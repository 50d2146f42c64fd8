"""Clause indexing of consulted and asserted predicates (`logicpy.core.index`): a call gets the
answers SWI-Prolog gives, in its order, whether its first argument, another one or none is
bound, with clauses added and removed meanwhile (the logical update view)."""

from __future__ import annotations

import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logicpy.core.equality import unify_subst
from logicpy.core.index import FEW, ClauseIndex
from logicpy.core.terms import Variable, var
from logicpy.prolog import Clause, consult_text
from tests.swipl import answer_rows, swi_rows

needs_swi = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")

#: More clauses than `FEW`, so that every index is made; heads with variables, numbers 1
#: and 1.0, compounds of one name and two arities, lists, strings.
PROGRAM = """
:- dynamic p/3.
:- dynamic q/2.
:- dynamic r/1.
p(1, a, one).
p(X, b, open1).
p(1.0, a, onefloat).
p(f(a), c, fa).
p(f(a, b), c, fab).
p([], d, nil).
p([x], d, list).
p(2, X, two).
p(a, a, atom).
p(f(Z), Z, fz).
p("s", e, string).
p(1, b, one_again).
p(X, X, same).
p(g(1), a, g1).
p(g(1.0), a, g1float).
q(K, V) :- p(K, V, _).
"""

LOOKUPS = [
    "p(1, V, N)", "p(1.0, V, N)", "p(f(_), V, N)", "p(f(_, _), V, N)", "p([], V, N)", "p([_|_], V, N)",
    "p(a, V, N)", "p(2, V, N)", "p(zzz, V, N)", "p(\"s\", V, N)", "p(g(1), V, N)", "p(g(1.0), V, N)",
    "p(K, a, N)", "p(K, b, N)", "p(K, c, N)", "p(K, zzz, N)", "p(K, V, fz)", "p(K, V, same)", "p(K, V, nothing)",
    "p(K, a, atom)", "p(1, b, N)", "p(f(a), a, N)", "p(K, V, N)", "q(1, V)", "q(K, a)",
]

#: Calls that go on over a predicate while clauses are added or removed: each sees the
#: clauses there were when it started, in order.
UPDATES = [
    "p(K, a, N), assertz(p(K, a, again))",
    "p(K, a, N), asserta(p(K, a, first))",
    "p(1, V, N), assertz(p(1, V, again)), asserta(p(1, V, first))",
    "p(K, V, N), retract(p(K, V, N))",
    "p(K, a, N), retract(p(_, a, _))",
    "retract(p(1, V, N)), p(1, W, M)",
    "retract(p(K, b, N)), p(K2, b, M)",
    "assertz(p(1, z, late)), retract(p(1, V, one)), p(1, W, M)",
    "p(1, V, N), retract(p(1, _, _))",
    "retract(p(X, Y, Z)), \\+ p(_, _, _)",
    "forall(between(1, 20, I), assertz(r(I))), retract(r(5)), asserta(r(0)), r(X)",
    "forall(between(1, 20, I), assertz(r(I))), r(X), X < 4, asserta(r(X)), retract(r(20))",
    "forall(between(1, 20, I), assertz(r(I))), forall(between(2, 20, I), retract(r(I))), r(X)",
    "forall(between(1, 9, I), assertz(q(I, I))), forall(between(1, 9, I), assertz(q(k, I))), q(k, 5)",
    "retract((q(K, V) :- B)), \\+ q(1, _)",
    "forall(between(1, 30, I), assertz(q(I, k))), retract(q(_, k)), q(X, k)",
    "forall(between(1, 30, I), assertz(q(I, k))), q(X, k), integer(X), X > 27, retract(q(Y, k)), Y < 3",
]


def _vars_as_underscore(rows: list[str]) -> list[str]:
    """Rows with every unbound variable written `_` (the two systems name them differently)."""
    return [re.sub(r"(?<![\w'\"])(_\w*|[A-Z]\w*)", "_", row) for row in rows]


@needs_swi
@pytest.mark.parametrize("query", LOOKUPS)
def test_lookups_answer_as_swi(query: str) -> None:
    got = _vars_as_underscore(answer_rows(consult_text(PROGRAM), query))
    assert got == _vars_as_underscore(swi_rows(PROGRAM, query))


@needs_swi
@pytest.mark.parametrize("query", UPDATES)
def test_the_logical_update_view_is_swis(query: str) -> None:
    got = _vars_as_underscore(answer_rows(consult_text(PROGRAM), query))
    assert got == _vars_as_underscore(swi_rows(PROGRAM, query))


def test_an_index_is_made_for_a_bound_argument_only_when_asked() -> None:
    program = consult_text(PROGRAM)
    index = program.predicates["p", 3].clauses
    assert [i is not None for i in index.indexes] == [True, False, False]
    assert [a["N"] for a in program.query("p(K, c, N).")] == ["fa", "fab", "two", "fz", "same"]
    assert [i is not None for i in index.indexes] == [True, True, False]
    program.query("assertz(p(new, c, late)), retract(p(f(a), c, fa)).")  # kept up to date
    assert [a["N"] for a in program.query("p(K, c, N).")] == ["fab", "two", "fz", "same", "late"]
    assert len(program.query("p(K, V, N).")) == len(index) == 15


def test_a_lookup_takes_the_clauses_of_its_key_only() -> None:
    """The candidates (not only the answers) are the key's clauses and the variable ones."""
    program = consult_text("".join(f"f({i}, v{i}).\n" for i in range(1000)) + "f(X, any).\n")
    predicate = program.predicates["f", 2]
    open_ = predicate.clauses.all()[-1].head[0]  # f(X, any)'s X
    x, y = var(), var()
    assert [c.head for c in predicate.clauses.matching((500, y), {})] == [(500, "v500"), (open_, "any")]
    assert [c.head[0] for c in predicate.clauses.matching((x, "v7"), {})] == [7]
    assert len(predicate.clauses.matching((x, y), {})) == 1001
    assert [c.head[0] for c in predicate.clauses.matching((x, y), {x: 3, y: "v3"})] == [3, open_]


def test_a_removed_clause_stays_in_the_calls_made_before() -> None:
    program = consult_text(":- dynamic c/1.\n" + "".join(f"c({i}).\n" for i in range(100)))
    predicate = program.predicates["c", 1]
    before = predicate.clauses.matching((var(),), {})
    program.query("forall(between(0, 98, I), retract(c(I))).")
    assert [c.head[0] for c in before] == list(range(100))
    assert [c.head[0] for c in predicate.clauses.matching((var(),), {})] == [99]
    assert [a["X"] for a in program.query("c(X).")] == [99]
    assert program.query("c(5).") == []


def test_numbers_one_and_one_point_zero_are_distinct_keys() -> None:
    program = consult_text("".join(f"n({i}, int).\nn({i}.0, float).\n" for i in range(10)))
    assert [a["T"] for a in program.query("n(1, T).")] == ["int"]
    assert [a["T"] for a in program.query("n(1.0, T).")] == ["float"]
    assert [a["N"] for a in program.query("n(N, float), N < 2.")] == [0.0, 1.0]


# ------------------------------------------------------------ against a scan of every clause

ATOMS = ["a", "b", 1, 1.0, 2, ("f", "a"), ("f", "a", "b"), [], ["x"]]


@st.composite
def heads(draw: st.DrawFn, arity: int = 3) -> tuple:
    """Head arguments: atomic terms, compounds, lists, variables (some shared)."""
    pool = [Variable() for _ in range(2)]
    return tuple(draw(st.one_of(st.sampled_from(ATOMS), st.sampled_from(pool),
                                st.builds(lambda v: ("f", v), st.sampled_from(pool)))) for _ in range(arity))


OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("assertz"), heads()),
    st.tuples(st.just("asserta"), heads()),
    st.tuples(st.just("retract"), st.integers(0, 60)),
), max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPERATIONS, st.lists(st.tuples(heads(), st.lists(st.integers(0, 60), max_size=3)), min_size=1, max_size=6))
def test_indexed_candidates_are_a_scan_of_every_clause(operations: list, calls: list) -> None:
    """After any assertz/asserta/retract sequence, a call's candidates are the clauses in
    order (a plain list kept beside) with only clauses whose head cannot unify left out;
    a list given out before a change is not changed by it."""
    index, plain = ClauseIndex(3), []
    given_out: list[tuple[list, list]] = []
    for op, arg in operations:
        if op == "retract":
            if plain:
                clause = plain.pop(arg % len(plain))
                index.remove(clause)
        else:
            clause = Clause(arg, "true", [])
            index.add(clause, at_end=op == "assertz")
            plain.append(clause) if op == "assertz" else plain.insert(0, clause)
        given_out.append((index.all(), list(plain)))
        for call, bound in calls:
            args = tuple(Variable() for _ in call)  # bound in s to some of the call's terms
            s = {args[i % 3]: call[i % 3] for i in bound}
            found = index.matching(args, s)
            assert _subsequence(found, plain)
            assert [c for c in found if _unifies(c, args, s)] == [c for c in plain if _unifies(c, args, s)]
    assert len(index) == len(plain) and index.all() == plain
    for snapshot, then in given_out:
        assert snapshot == then


def _subsequence(part: list, whole: list) -> bool:
    items = iter(whole)
    return all(any(c is w for w in items) for c in part)


def _unifies(clause: Clause, args: tuple, s: dict) -> bool:
    return unify_subst(args, clause.head, dict(s)) is not False


def test_a_first_argument_many_clauses_share_gives_way_to_another_bound_one() -> None:
    index = ClauseIndex(3)
    for i in range(5 * FEW):
        index.add(Clause(("same", i, Variable()), "true", []))
    assert [c.head[1] for c in index.matching(("same", 7, Variable()), {})] == [7]
    assert index.indexes[1] is not None and index.indexes[2] is None
    few = ClauseIndex(2)  # a few clauses are scanned: no index but the first argument's
    for i in range(FEW):
        few.add(Clause(("same", i), "true", []))
    assert [c.head[1] for c in few.matching((Variable(), 7), {})] == list(range(FEW))
    assert few.indexes[1] is None
