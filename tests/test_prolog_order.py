"""Prolog's search order (depth first, clause order) and cut on logicpy's engine: every
query's answers, in order, equal SWI-Prolog's; the core's `order="prolog"`; cut's scope."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from logicpy.core import conde, eq, membero, run, var
from logicpy.core.procedures import relation
from logicpy.core.streams import SearchTimeout
from logicpy.core.terms import format_term
from logicpy.errors import InputError
from logicpy.prolog import Program, consult, consult_text
from logicpy.repl import Toplevel, run_piped
from logicpy.repl.reader import read_query

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "prolog_programs"
SEED = HERE.parent / "logicpy" / "data" / "prolog"
needs_swi = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")

QUERIES = [
    ("family.pl", "ancestor(tom, X)"),
    ("family.pl", "ancestor(X, Y)"),
    ("family.pl", "sibling(X, Y)"),
    ("family.pl", "parent(X, Y), \\+ parent(Y, _)"),
    ("lists.pl", "app(X, Y, [1,2,3,4])"),
    ("lists.pl", "mem(X, [c,a,b]), X \\== a"),
    ("lists.pl", "perm([1,2,3], P)"),
    ("lists.pl", "select_one(X, [a,b,c], R)"),
    ("lists.pl", "member(X, [1,2]), append(Y, Z, [X,3])"),
    ("puzzles.pl", "queens(6, Qs)"),
    ("puzzles.pl", "fd_queens(6, Qs)"),
    ("dynamic.pl", "assertz(item(1)), asserta(item(2)), retract(item(N)), item(X)"),
    ("cut.pl", "max(3, 1, M)"),
    ("cut.pl", "max(1, 3, M)"),
    ("cut.pl", "max_red(3, 1, M)"),
    ("cut.pl", "max_red(1, 3, M)"),
    ("cut.pl", "count(5, L)"),
    ("cut.pl", "member(X, [3,-2,0]), sign(X, S)"),
    ("cut.pl", "first_big([1,5,2,7], 1, Y)"),
    ("cut.pl", "pair(C, S)"),
    ("cut.pl", "pick(X)"),
    ("cut.pl", "local(X)"),
    ("cut.pl", "not_first(X)"),
    ("cut.pl", "member(X, [a,b,c]), not_member(X, [b])"),
    ("cut.pl", "cond(X, Y)"),
    ("cut.pl", "then_cut(X)"),
    ("cut.pl", "color(X), !"),
    ("cut.pl", "member(X, [1,2,3]), (X > 1 -> Y = big ; Y = small)"),
    ("cut.pl", "once(color(X)), size(S)"),
]


def names(query: str) -> list[str]:
    return [n for n in read_query(query)[1] if not n.startswith("_")]


def unnamed(text: str) -> str:
    """An answer with its unbound variables all written `_` (SWI and logicpy name them apart)."""
    return re.sub(r"\b_[A-Z0-9]*\b", "_", text)


def logicpy_answers(path: Path, query: str, n: int | None = None) -> list[str]:
    program = consult(path)
    return [unnamed(format_term([a[v] for v in names(query)], numbered=True)) for a in program.query(query, n)]


def swi_answers(path: Path, query: str, n: int | None = None) -> list[str]:
    template = "[" + ",".join(names(query)) + "]"
    goal = (f"forall(limit({n}, ({query})), (write_canonical({template}), nl))" if n
            else f"forall(({query}), (write_canonical({template}), nl))")
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr
    return [unnamed(line) for line in done.stdout.split()]


@needs_swi
@pytest.mark.parametrize("file, query", QUERIES)
def test_answer_order_is_swi_prologs(file, query):
    want = swi_answers(PROGRAMS / file, query)
    assert want, "the query has answers in SWI-Prolog"
    assert logicpy_answers(PROGRAMS / file, query) == want


@needs_swi
def test_seed_queens_first_solution_is_swi_prologs():
    query = "first_solution(8, Qs)"
    assert logicpy_answers(SEED / "queens.pl", query) == swi_answers(SEED / "queens.pl", query) != []


def test_core_order_flag():
    x, y = var(), var()
    assert run(0, x, conde([eq(x, 1)], [eq(x, 2)]), order="prolog") == (1, 2)
    two = conde([membero(x, [1, 2])], [membero(x, [3, 4])])
    assert run(0, x, two, order="prolog") == (1, 2, 3, 4)
    assert run(0, x, two) == (1, 3, 2, 4)  # the default interleaves
    assert run(0, (x, y), membero(x, [1, 2]), membero(y, ["a", "b"]), order="prolog") == (
        (1, "a"), (1, "b"), (2, "a"), (2, "b"))
    with pytest.raises(InputError, match="order must be one of interleaved, prolog, got 'bfs'"):
        run(0, x, eq(x, 1), order="bfs")


@relation
def nat_left(n):
    """n is a natural number in successor form, left recursive: Prolog order never returns."""
    m = var()
    return conde([nat_left(m), eq(n, ("s", m))], [eq(n, 0)])


def test_left_recursion_prolog_order_honours_timeout():
    x = var()
    assert run(3, x, nat_left(x)) == (0, ("s", 0), ("s", ("s", 0)))  # interleaving is complete
    with pytest.raises(SearchTimeout) as caught:
        run(1, x, nat_left(x), order="prolog", timeout=0.3)
    assert caught.value.answers == ()
    program = consult_text("p(X) :- p(X).\np(1).")
    with pytest.raises(SearchTimeout):
        run(1, x, program.p(x), order="prolog", timeout=0.3)
    assert run(1, x, program.p(x), timeout=5) == (1,)  # the interleaved order finds it


def test_pause_and_conditions_in_prolog_order():
    from logicpy.core import onceo
    from logicpy.core.streams import PAUSE

    def endless(state):
        while True:
            yield PAUSE
    x = var()
    with pytest.raises(SearchTimeout):
        run(1, x, onceo(endless), order="prolog", timeout=0.3)
    assert run(0, x, onceo(membero(x, [7, 8])), order="prolog") == (7,)


def test_cut_keeps_the_stack_small_in_a_deterministic_loop():
    program = consult(PROGRAMS / "cut.pl")
    [answer] = program.query("count(20000, L)")
    assert answer["L"][:3] == [20000, 19999, 19998] and len(answer["L"]) == 20000


def test_cut_needs_prolog_order():
    program = consult(PROGRAMS / "cut.pl")
    q = var()
    assert run(0, q, program.max(3, 1, q), order="prolog") == (3,)
    with pytest.raises(InputError, match=r"cut \(!\) needs Prolog's search order"):
        run(0, q, program.max(3, 1, q))
    interleaved = consult(PROGRAMS / "cut.pl", order="interleaved")
    with pytest.raises(InputError, match=r"cut \(!\) needs Prolog's search order"):
        interleaved.query("max(3, 1, M)")
    assert [a["X"] for a in interleaved.query("member(X, [1,2]) ; member(X, [3,4])")] == [1, 3, 2, 4]
    with pytest.raises(InputError, match="order must be one of"):
        Program(order="depth")


def test_toplevel_prolog_order_and_the_flag():
    out, err = io.StringIO(), io.StringIO()
    status = run_piped(Toplevel(out=out, err=err), io.StringIO(
        "member(X, [1,2,3]), !.\n"
        "(member(X, [1,2]) ; member(X, [3,4])).\n"
        "set_prolog_flag(search_order, interleaved).\n"
        "(member(X, [1,2]) ; member(X, [3,4])).\n"
        "member(X, [1,2]), !.\n"
        "set_prolog_flag(search_order, bfs).\n"))
    lines = out.getvalue().splitlines()
    assert lines[:1] == ["X = 1."]
    assert lines[1:5] == ["X = 1 ;", "X = 2 ;", "X = 3 ;", "X = 4."]
    assert lines[5:10] == ["true.", "X = 1 ;", "X = 3 ;", "X = 2 ;", "X = 4."]
    assert "cut (!) needs Prolog's search order" in err.getvalue()
    assert "search_order is prolog or interleaved, got bfs" in err.getvalue()
    assert status != 0


def test_cut_in_a_search_run_apart_is_local_to_it():
    from logicpy.core.streams import Cut, CutBarrier, solve

    def all_of(goal):  # a findall-like goal: a search of its own inside the caller's
        def collect(state):
            return eq(out, [s.get(x, x) for s in solve(goal, state)])(state)
        return collect
    x, out = var(), var()
    assert run(0, x, conde([membero(x, [1, 2, 3]), Cut()], [eq(x, 4)]), order="prolog") == (1,)
    outer = CutBarrier([None] * 5)  # a barrier of the caller's stack, deeper than the inner one
    inner = conde([membero(x, [1, 2, 3]), Cut(outer)], [eq(x, 4)])
    assert run(0, out, all_of(inner), order="prolog") == ([1],)
