"""Procedures (`core.procedures`): every relation with clauses, an `@relation` function or a
consulted or asserted Prolog predicate, runs through the one decision `Procedure.expand`,
and `explain` says how a call of it runs.

The decision is checked to be the one both kinds reach (a count of its calls), and the same
program written both ways to answer alike, in the same order, in both search orders, with
the loops on and off, through each of its ways: a loop, alternatives, the deterministic loop
(handing the call back after `TAIL_CALLS` rounds) and clauses run as written in a state
with constraints. `explain` is checked on relations whose way is known.
"""

from __future__ import annotations

import io

import pytest

from logicpy.core import (appendo, conde, cons, eq, explain, membero, neq, relation, rembero, run, tabled, var,
                          vars)
from logicpy.core import loops
from logicpy.core.answers import show
from logicpy.core.clauses import TAIL_CALLS
from logicpy.core.procedures import Procedure, Relation
from logicpy.errors import InputError
from logicpy.prolog import Predicate, consult_text
from logicpy.repl import Toplevel, run_piped

ORDERS = ["interleaved", "prolog"]


@relation
def app3(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app3(t, ys, r)])


@relation
def app_ys_first(ys, xs, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app_ys_first(ys, t, r)])


@relation
def addo(x, y, z):
    a, b = vars(2)
    return conde([eq(x, "z"), eq(y, z)], [eq(x, ("s", a)), eq(z, ("s", b)), addo(a, y, b)])


@relation
def selo(x, xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, cons(x, t)), eq(ys, t)], [eq(xs, cons(h, t)), eq(ys, cons(h, r)), selo(x, t, r)])


@relation
def permo(xs, ys):
    x, zs, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(ys, cons(x, zs)), selo(x, xs, r), permo(r, zs)])


@relation
def twino(x, y):
    return conde([eq(x, y)], [eq(y, (x, x))])


@relation
def guardo(x):
    if isinstance(x, int):  # computes its goal from an argument's value: not compiled
        return eq(x, 1)
    return eq(x, 2)


PROGRAM = """
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
add(z, Y, Y).
add(s(A), Y, s(B)) :- add(A, Y, B).
sel(X, [X|T], T).
sel(X, [H|T], [H|R]) :- sel(X, T, R).
perm([], []).
perm(Xs, [X|Zs]) :- sel(X, Xs, R), perm(R, Zs).
p(1). p(2). p(3).
len([], 0).
len([_|T], N) :- len(T, M), N is M+1.
:- table path/2.
edge(a, b). edge(b, c).
path(X, Y) :- edge(X, Y).
path(X, Y) :- path(X, Z), edge(Z, Y).
"""


@pytest.fixture(scope="module")
def program():
    return consult_text(PROGRAM)


def peano(n: int):
    t: object = "z"
    for _ in range(n):
        t = ("s", t)
    return t


def texts(answers) -> list[str]:
    return [show(a) for a in answers]


# ----------------------------------------------------------------- one decision for both


def test_relations_and_predicates_are_procedures(program):
    assert isinstance(app3.relation, Relation) and isinstance(app3.relation, Procedure)
    assert isinstance(program.predicates["app", 3], Predicate)
    assert isinstance(program.predicates["app", 3], Procedure)


@pytest.mark.parametrize("order", ORDERS)
def test_both_kinds_of_clauses_run_through_the_one_decision(program, monkeypatch, order):
    """A count of `Procedure.expand`'s calls: a call of an `@relation` and a call of a
    consulted predicate each reach it (a copy of the decision in either would not)."""
    seen: list[str] = []
    decide = Procedure.expand

    def counted(self, S, K, args, search):
        seen.append(type(self).__name__)
        return decide(self, S, K, args, search)

    monkeypatch.setattr(Procedure, "expand", counted)
    q = var()
    with loops.disabled():
        assert run(0, q, permo([1, 2, 3], q), order=order) == run(0, q, program.perm([1, 2, 3], q), order=order)
    assert {"Relation", "Predicate"} <= set(seen)
    assert seen.count("Relation") == seen.count("Predicate")  # the same clauses take the same steps


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("loops_on", [True, False])
def test_the_same_clauses_answer_alike_written_either_way(program, order, loops_on):
    x, y, z = vars(3)
    queries = [
        # alternatives (first_of), a relation calling another
        (z, lambda: permo([1, 2, 3], z), lambda: program.perm([1, 2, 3], z)),
        # the loop given for append's shape, or its clauses, in a mode with many answers
        ((x, y), lambda: app3(x, y, [1, 2, 3]), lambda: program.app(x, y, [1, 2, 3])),
        # the deterministic loop, handing the call back every TAIL_CALLS rounds
        (z, lambda: addo(peano(3 * TAIL_CALLS + 5), "z", z), lambda: program.add(peano(3 * TAIL_CALLS + 5), "z", z)),
        # backwards: the first argument unbound, two candidates at every level
        ((x, y), lambda: addo(x, y, peano(4)), lambda: program.add(x, y, peano(4))),
    ]
    with loops.disabled() if not loops_on else _nothing():
        for term, written_in_python, consulted in queries:
            assert texts(run(0, term, written_in_python(), order=order)) == \
                texts(run(0, term, consulted(), order=order))


@pytest.mark.parametrize("order", ORDERS)
def test_in_a_state_with_constraints_both_run_their_clauses_as_written(program, order):
    x, y = vars(2)
    python = run(0, (x, y), neq(x, []), app3(x, y, [1, 2]), order=order)
    consulted = run(0, (x, y), neq(x, []), program.app(x, y, [1, 2]), order=order)
    assert texts(python) == texts(consulted) == ["[[1],[2]]", "[[1,2],[]]"]


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


# ----------------------------------------------------------------------------- explain


def test_explain_names_the_loop_a_relation_runs_as():
    assert explain(appendo) == \
        "appendo/3: runs as appendo/3's loop; compiled to 2 clauses, indexed on argument 1, deterministic loop"
    assert explain(membero) == "membero/2: runs as membero/2's loop; compiled to 2 clauses"
    assert explain(rembero).startswith(
        "rembero/3: runs as rembero/3's loop, its clauses in the modes the loop leaves to them; ")
    assert explain(app3) == \
        "app3/3: runs as appendo/3's loop; compiled to 2 clauses, indexed on argument 1, deterministic loop"
    # its arguments put in append's order: the call's second, first and third
    assert explain(app_ys_first) == "app_ys_first/3: runs as appendo/3's loop (arguments 2,1,3); compiled to 2 clauses"


def test_explain_says_when_the_loops_are_switched_off():
    with loops.disabled():
        assert explain(app3) == ("app3/3: runs as appendo/3's loop when loops are enabled (they are switched off: "
                                 "its clauses run); compiled to 2 clauses, indexed on argument 1, deterministic loop")


def test_explain_of_compiled_clauses_and_of_a_body_run_as_written():
    assert explain(addo) == "addo/3: compiled to 2 clauses, indexed on argument 1, deterministic loop"
    assert explain(selo) == "selo/3: runs as selecto/3's loop; compiled to 2 clauses"
    assert explain(twino) == "twino/2: compiled to 2 clauses"  # no argument an index can use
    with pytest.warns(UserWarning):
        way = explain(guardo)
    assert way.startswith("guardo/1: runs as written: a branch or loop (line ")


def test_explain_of_consulted_predicates(program):
    assert explain(program.app) == ("app/3: runs as appendo/3's loop; 2 clauses, each compiled at its first call, "
                                    "indexed on argument 1, a deterministic loop, made at the first call that goes round")
    assert explain(program.p) == ("p/1: 3 clauses, each compiled at its first call (a fact without variables at "
                                  "its 500th), indexed on argument 1")
    assert explain(program["len/2"]) == ("len/2: 2 clauses, each compiled at its first call (a fact without "
                                         "variables at its 500th), indexed on argument 1")
    assert explain(program.path) == ("path/2: tabled (each call variant's answers kept, filled by its clauses); "
                                     "2 clauses, each compiled at its first call")
    q = var()
    with loops.disabled():
        run(1, q, program.add(peano(3), "z", q))
    assert explain(program.add) == \
        "add/3: 2 clauses, each compiled at its first call, indexed on argument 1, deterministic loop"


def test_explain_changes_nothing_a_call_sees(program):
    """Asking compiles what a first call would and makes no loop early: answers and their
    order are those of a procedure never asked."""
    fresh = consult_text(PROGRAM)
    explain(fresh.app), explain(fresh.add), explain(fresh.perm)
    x, y = vars(2)
    for order in ORDERS:
        assert texts(run(0, (x, y), fresh.add(x, y, peano(3)), order=order)) == \
            texts(run(0, (x, y), consult_text(PROGRAM).add(x, y, peano(3)), order=order))


def test_explain_refuses_what_is_not_a_relation_with_clauses():
    with pytest.raises(InputError, match=r"explain: .* is not a relation with clauses"):
        explain(len)
    with pytest.raises(InputError, match=r"explain: 3 is not a relation with clauses"):
        explain(3)
    with pytest.raises(InputError, match="not a relation with clauses"):
        explain(tabled(lambda x: eq(x, 1)))


def test_explain_names_an_index_made_just_in_time():
    program = consult_text("".join(f"f({i}, k{i}).\n" for i in range(20)))
    assert explain(program.f).endswith(", indexed on argument 1")
    q = var()
    assert run(0, q, program.f(q, "k7")) == (7,)  # the first argument unbound, the second bound: its index is made
    assert explain(program.f).endswith(", indexed on arguments 1,2")


# --------------------------------------------------------------- the toplevel's explain


def toplevel(*queries: str) -> tuple[list[str], list[str]]:
    """The queries run as piped input to a toplevel: (stdout lines, stderr lines)."""
    out, err = io.StringIO(), io.StringIO()
    run_piped(Toplevel(out=out, err=err), io.StringIO("\n".join(queries)))
    return out.getvalue().splitlines(), err.getvalue().splitlines()


def test_the_toplevel_explains_a_consulted_predicate_and_a_loaded_relation(tmp_path):
    (tmp_path / "app.pl").write_text("app([], L, L).\napp([H|T], L, [H|R]) :- app(T, L, R).\np(1). p(2).\n")
    out, err = toplevel(f"consult('{tmp_path / 'app.pl'}').", "logicpy_explain(app/3).", "logicpy_explain(p/1).",
                        "logicpy_explain(appendo/3).")
    assert err == []
    assert out[2:] == [
        "% app/3: runs as appendo/3's loop; 2 clauses, each compiled at its first call, indexed on argument 1, "
        "a deterministic loop, made at the first call that goes round", "true.",
        "% p/1: 2 clauses, each compiled at its first call (a fact without variables at its 500th), "
        "indexed on argument 1", "true.",
        f"% {explain(appendo)}", "true."]


@pytest.mark.parametrize("query, error", [
    ("logicpy_explain(X).", "logicpy_explain/1: Arguments are not sufficiently instantiated"),
    ("logicpy_explain(app/N).", "logicpy_explain/1: Arguments are not sufficiently instantiated"),
    ("logicpy_explain(app).", "logicpy_explain/1: Type error: `predicate_indicator' expected, found `app' (an atom)"),
    ("logicpy_explain(nosuch/2).", "procedure nosuch/2 does not exist"),
    ("logicpy_explain(appendo/2).", "procedure appendo/2 does not exist"),  # appendo has three arguments
    ("logicpy_explain(lengtho/2).", "procedure lengtho/2 does not exist"),  # a relation without clauses
])
def test_the_toplevel_explain_refuses_in_one_line(query, error):
    out, err = toplevel(query, "X = 1.")
    assert err == [f"error: {error}"] and out[-1] == "X = 1."
