"""clpfd programs on logicpy's engine: non-linear arithmetic, min/max, integer division,
reification, labeling/2's options, tuples_in/2, sum/3; the project's clpfd programs
(`prolog/queens.pl`, `prolog/zebra_clpfd.pl`, `prolog/prisoners.pl`); `include/1`,
`ensure_loaded/1` and the library directives. Each query's answers, in order, equal SWI-Prolog's."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from logicpy.core import run, var
from logicpy.core.fd import domo, labelingo, post
from logicpy.core.fd.propagators import Divide, MinMax, divide
from logicpy.core.terms import format_term
from logicpy.errors import InputError, ModeError
from logicpy.prolog import consult, consult_text
from logicpy.puzzles.prisoners import Design, verify
from logicpy.repl.reader import read_query

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "prolog_programs"
SHIPPED = HERE.parent / "logicpy" / "data" / "prolog"
needs_swi = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")


def names(query: str) -> list[str]:
    return [n for n in read_query(query)[1] if not n.startswith("_")]


def swi_answers(path: Path, query: str, timeout: int = 120) -> list[str]:
    """The answers of `query` on SWI-Prolog, in order, each its named variables' canonical text."""
    template = "[" + ",".join(names(query)) + "]"
    done = subprocess.run(["swipl", "-q", "-g", f"forall(({query}), (write_canonical({template}), nl))",
                           "-t", "halt", str(path)], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0 and "Warning" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    return done.stdout.split()


def logicpy_answers(path: Path, query: str) -> list[str]:
    return [format_term([a[n] for n in names(query)]) for a in consult(path).query(query)]


CLPFD = PROGRAMS / "clpfd.pl"
QUERIES = [
    (CLPFD, "factors(36, X, Y)"),
    (CLPFD, "triple(20, A, B, C)"),
    (CLPFD, "divisions(X, Y, Q, R, D, M)"),
    (CLPFD, "crt(X)"),
    (CLPFD, "pair_code(X, Y, M)"),
    (CLPFD, "magic(R)"),
    (CLPFD, "above(Xs, N)"),
    (CLPFD, "logic(X, Y)"),
    (CLPFD, "order([], Vs)"),
    (CLPFD, "order([ff], Vs)"),
    (CLPFD, "order([min, down], Vs)"),
    (CLPFD, "order([max, bisect], Vs)"),
    (CLPFD, "order([ffc, enum], Vs)"),
    (CLPFD, "order([leftmost, down, step], Vs)"),
    (CLPFD, "order([ff, bisect, down], Vs)"),
    (CLPFD, "train(F, T)"),
    (CLPFD, "spread(L)"),
    (CLPFD, "length(L, 3), L ins 0..2, sum(L, #=, X * 2), X #> 1, label(L)"),
    (CLPFD, "order([min(X-Y)], [X,Y,_])"),
    (CLPFD, "order([max(Z), min(X*Y), ff], [X,Y,Z])"),
    (CLPFD, "[X,Y] ins 0..4, X + Y #= 4, labeling([max(X*Y), down], [X,Y])"),
    (SHIPPED / "queens.pl", "queens(6, Qs), labeling([ff], Qs)"),
    (SHIPPED / "queens.pl", "first_solution(12, Qs)"),
    (SHIPPED / "queens.pl", "count_solutions(7, C)"),
    (SHIPPED / "queens.pl", "queens(5, -2, Qs), label(Qs)"),
    (SHIPPED / "zebra_clpfd.pl", "zebra_clpfd(Vars)"),
    (SHIPPED / "zebra_clpfd.pl", "zebra_clpfd_answer(Water, Zebra)"),
    (SHIPPED / "prisoners.pl", "arrangement(6, 3, 2, cuffed, W)"),
    (SHIPPED / "prisoners.pl", "arrangement(6, 2, 3, cuffed, W)"),
    (SHIPPED / "prisoners.pl", "arrangement(4, 2, 3, row, W)"),
    (SHIPPED / "prisoners.pl", "arrangement(6, 2, 3, cuffed, W), neighbours(W, 3, Ns)"),
]


@needs_swi
@pytest.mark.parametrize("path, query", QUERIES, ids=[f"{p.name}:{q}" for p, q in QUERIES])
def test_answers_and_their_order_are_swi_prologs(path, query):
    want = swi_answers(path, query)
    assert want, "the query has answers in SWI-Prolog"
    assert logicpy_answers(path, query) == want


@needs_swi
def test_prisoners_weeks_are_valid_arrangements_as_swis_are():
    """Both engines find the same first 4-day week for nine prisoners (labeling [ff] picks the
    smallest domain, so this needs clpfd's propagation: `M #= min(X,Y)*9 + max(X,Y)` keeps M's
    holes in X once min(X,Y) is known), and logicpy's verifier accepts it."""
    for pairs in ("cuffed", "row"):
        design = Design(9, 3, 4, pairs)
        query = f"arrangement(9, 3, 4, {pairs}, W)"
        ours = consult(SHIPPED / "prisoners.pl").query(query, n=1)[0]["W"]
        theirs = swi_answers(SHIPPED / "prisoners.pl", f"once({query})")
        assert format_term([ours]) == theirs[0]
        for week in (ours, consult_text("w(" + theirs[0][1:-1] + ").").query("w(W)")[0]["W"]):
            assert verify(design, [[day[i:i + 3] for i in range(0, 9, 3)] for day in week], "canonical").ok


def test_known_answers_without_swi():
    program = consult(CLPFD)
    assert [(a["X"], a["Y"]) for a in program.query("factors(12, X, Y)")] == [(1, 12), (2, 6), (3, 4)]
    assert [a["X"] for a in program.query("crt(X)")] == [23, 128]
    assert [a["Vs"] for a in program.query("order([max, down], Vs)")][:2] == [[3, 1, 4], [2, 2, 4]]  # Z has the largest bound
    assert program.query("X #= 7 // 0") == []  # no integer is a quotient by zero
    rows = program.query("divisions(X, Y, Q, R, D, M)")
    assert len(rows) == 15 * 6
    for a in rows:
        x, y = a["X"], a["Y"]
        assert a["Q"] * y + a["R"] == x and a["D"] * y + a["M"] == x
        assert abs(a["R"]) < abs(y) and a["R"] * x >= 0 and a["M"] * y >= 0


@pytest.mark.parametrize("seed", range(4))
def test_division_and_min_max_propagators_against_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(12):
        xs = rng.sample(range(-9, 10), rng.randint(1, 6))
        ys = rng.sample([v for v in range(-4, 5)], rng.randint(1, 4))
        zs = rng.sample(range(-9, 10), rng.randint(3, 12))
        x, y, z = var(), var(), var()
        for op in ("//", "div", "mod", "rem"):
            got = set(run(0, (x, y, z), domo(x, xs), domo(y, ys), domo(z, zs), post(Divide(op, x, y, z)),
                          labelingo([x, y, z])))
            assert got == {(a, b, divide(op, a, b)) for a in xs for b in ys if b and divide(op, a, b) in zs}
        for largest in (False, True):
            got = set(run(0, (x, y, z), domo(x, xs), domo(y, ys), domo(z, zs), post(MinMax(x, y, z, largest)),
                          labelingo([x, y, z])))
            pick = max if largest else min
            assert got == {(a, b, pick(a, b)) for a in xs for b in ys if pick(a, b) in zs}


def test_a_time_limit_stops_a_long_labelling():
    import time

    from logicpy.core.streams import SearchTimeout, run as search
    from logicpy.repl.goals import translate
    program = consult(SHIPPED / "prisoners.pl")  # six days for nine prisoners: minutes of labelling
    goal, variables = read_query("prisoners(W)")
    start = time.monotonic()
    with pytest.raises(SearchTimeout):
        search(1, variables["W"], translate(goal, program.relations), order="prolog", timeout=0.5)
    assert time.monotonic() - start < 5


def test_residuals_name_the_non_linear_constraints():
    from logicpy.repl import Toplevel
    import io
    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.query("X in 1..9, X*X #= Y, Z #= min(X, 3), W #= X mod 4.")
    shown = top.out.getvalue().splitlines()[0]
    for part in ("X*X #= Y", "Y in 1..81", "Z #= min(X,3)", "W in 0..3", "mod(X,4) #= W"):
        assert part in shown, shown
    top.query("X #= Y*Z, [Y,Z] ins 2..3, label([Y,Z]).")
    assert top.out.getvalue().splitlines()[1] == "X = 4, Y = Z, Z = 2 ;"  # a product with all its values is not shown


@pytest.mark.parametrize("query, error, match", [
    ("X in 1..3, labeling([fast], [X])", InputError, "fast is not a labeling option"),
    ("X in 1..3, labeling([ff, ffc], [X])", InputError, "conflicting options ff and ffc"),
    ("X in 1..3, Y in 1..3, labeling([min(Y)], [X])", ModeError, r"need Expr fixed by the variables labelled"),
    ("labeling([ff], [X])", ModeError, "has no finite domain"),
    ("X #= Y + foo", InputError, "foo is not an FD expression"),
    ("#<==>(B, foo)", InputError, "is not a reifiable constraint"),
    ("X in 1..3, labeling(_, [X])", ModeError, "options must be bound"),
])
def test_bad_clpfd_input_is_one_clear_error(query, error, match):
    with pytest.raises(error, match=match):
        consult_text("").query(query)


# ---------------------------------------------------------------- loading files from files


def test_include_consult_and_ensure_loaded(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "main.pl").write_text(":- use_module(library(lists)).\np(1).\n:- include(sub/more).\n"
                                      ":- ensure_loaded(lib).\n:- ensure_loaded('lib.pl').\n"
                                      ":- [other].\nq(X) :- p(X), r(X).\n:- assertz(loaded(main)).\n")
    (tmp_path / "sub" / "more.pl").write_text("p(2).\np(3).\n")
    (tmp_path / "lib.pl").write_text("r(X) :- X > 1.\n:- initialization(assertz(loaded(lib))).\n:- dynamic loaded/1.\n")
    (tmp_path / "other.pl").write_text("o(1).\n")
    program = consult(tmp_path / "main.pl")
    assert [a["X"] for a in program.query("q(X)")] == [2, 3]  # included clauses belong to p/1
    assert [a["X"] for a in program.query("loaded(X)")] == ["lib", "main"]  # lib once, its initialization first
    assert program.defined_by(tmp_path / "main.pl") == ["p/1", "q/1"]
    assert program.defined_by(tmp_path / "lib.pl") == ["loaded/1", "r/1"]
    assert program.query("o(X)") == [{"X": 1}]
    program.consult(tmp_path / "main.pl")  # again: replaced, not doubled
    assert [a["X"] for a in program.query("p(X)")] == [1, 2, 3]


@needs_swi
def test_include_answers_as_swi(tmp_path):
    (tmp_path / "main.pl").write_text(":- use_module(library(clpfd)).\n:- include(digits).\n"
                                      "pair(X, Y) :- digit(X), digit(Y), X + Y #= 5, X #< Y.\n")
    (tmp_path / "digits.pl").write_text("digit(X) :- X in 0..9, label([X]).\n")
    assert logicpy_answers(tmp_path / "main.pl", "pair(X, Y)") == swi_answers(tmp_path / "main.pl", "pair(X, Y)")


def test_directive_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.pl"
    bad.write_text("p.\n:- include(nowhere).\n")
    with pytest.raises(InputError, match=r"bad\.pl:2: nowhere: no such file"):
        consult(bad)
    bad.write_text(":- use_module(library(http_server)).\n")
    with pytest.raises(InputError, match=r"bad\.pl:1: library\(http_server\) is not one logicpy provides"):
        consult(bad)
    bad.write_text("p.\n:- q.\n")
    with pytest.raises(Exception, match=r"bad\.pl:2: directive q: procedure q/0 does not exist"):
        consult(bad)
    bad.write_text("p(1).\n:- p(2).\n")
    with pytest.raises(InputError, match=r"bad\.pl:2: directive p\(2\) failed"):
        consult(bad)
    (tmp_path / "broken.pl").write_text("q( :- .\n")
    bad.write_text(":- include(broken).\n")
    with pytest.raises(Exception, match=r"broken\.pl:1: syntax error"):
        consult(bad)


def test_unit_test_blocks_are_skipped():
    program = consult_text(":- use_module(library(plunit)).\np(1).\n:- begin_tests(p).\n"
                           "test(one) :- p(1).\np(99).\n:- end_tests(p).\np(2).\n")
    assert [a["X"] for a in program.query("p(X)")] == [1, 2] and "test/1" not in program


def test_reification_operators_are_read_as_clpfd_declares_them():
    from logicpy.repl.reader import read_query

    goal, names = read_query("B #<==> (X #> 3) #\\/ #\\ C.")
    b, x, c = names["B"], names["X"], names["C"]
    assert goal == ("#<==>", b, ("#\\/", ("#>", x, 3), ("#\\", c)))
    term, _ = read_query("B #<==> X #> 3.")
    assert term[0] == "#<==>" and term[2][0] == "#>"  # 760 over 700: the comparison is the right side
