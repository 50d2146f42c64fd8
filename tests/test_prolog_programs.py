"""Prolog programs on logicpy's own engine (`logicpy.prolog`, `consult` and `[user].` in the
toplevel), each query's answer set checked equal to SWI-Prolog's for the same file.

Sets are compared here; tests/test_prolog_order.py compares the order.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from logicpy.core import conde, neq, run, tabled, var
from logicpy.core.fd import domo, labelo
from logicpy.core.terms import format_term
from logicpy.errors import InputError, ModeError, PrologError, PrologSyntaxError
from logicpy.prolog import consult, consult_text
from logicpy.repl import Toplevel, run_piped
from logicpy.repl.reader import read_query

PROGRAMS = Path(__file__).resolve().parent / "prolog_programs"

QUERIES = [
    ("family.pl", "ancestor(tom, X)"),
    ("family.pl", "ancestor(X, jim)"),
    ("family.pl", "ancestor(X, Y)"),
    ("family.pl", "father(F, C)"),
    ("family.pl", "mother(M, C)"),
    ("family.pl", "sibling(X, Y)"),
    ("family.pl", "grandparent(G, ann)"),
    ("family.pl", "parent(X, Y), \\+ parent(Y, _)"),
    ("parser.pl", "calc('2 + 3 * (4 - 1) / 3', T, V)"),
    ("parser.pl", "calc('-(7 - 2) * 10 - 1', T, V)"),
    ("parser.pl", "atom_codes('12 * 3 +', Cs), \\+ parse(Cs, _)"),
    ("parser.pl", "atom_codes('1 - 2 - 3', Cs), tokens(Cs, Ts), expr(T, Ts, Rest)"),
    ("lists.pl", "app(X, Y, [1,2,3,4])"),
    ("lists.pl", "app([a,b], [c], L)"),
    ("lists.pl", "rev([1,2,3,4,5], R)"),
    ("lists.pl", "len([a,b,c], N)"),
    ("lists.pl", "mem(X, [c,a,b]), X \\== a"),
    ("lists.pl", "last_of([1,2,3], X)"),
    ("lists.pl", "sum([3,4,5], S), max_of([3,9,5], M)"),
    ("lists.pl", "perm([1,2,3], P)"),
    ("lists.pl", "nrev([1,2,3,4,5,6,7,8], R)"),
    ("lists.pl", "range(1, 5, L)"),
    ("lists.pl", "select_one(X, [a,b,c], R)"),
    ("puzzles.pl", "puzzle(P)"),
    ("puzzles.pl", "queens(6, Qs)"),
    ("puzzles.pl", "fd_queens(8, Qs)"),
    ("puzzles.pl", "N = 5, fd_queens(N, [1|Qs])"),
    ("graph.pl", "path(a, Y)"),
    ("graph.pl", "path(X, a)"),
    ("graph.pl", "path(X, Y)"),
    ("graph.pl", "path(e, Y)"),
    ("graph.pl", "same_gen(a, Y)"),
    ("dynamic.pl", "bump, bump, bump, counter(X)"),
    ("dynamic.pl", "push(a), push(b), push(c), pop(X)"),
    ("dynamic.pl", "push(a), push(b), pop(b), item(X)"),
    ("dynamic.pl", "retract(counter(0)), assertz(counter(5)), counter(X)"),
    ("dynamic.pl", "assertz(item(1)), asserta(item(2)), retract(item(N)), N > 1, item(X)"),
]


def names(query: str) -> list[str]:
    return [n for n in read_query(query)[1] if not n.startswith("_")]


def logicpy_answers(file: str, query: str) -> set[str]:
    program = consult(PROGRAMS / file)
    return {format_term([a[n] for n in names(query)], numbered=True) for a in program.query(query)}


def swi_answers(file: str, query: str) -> set[str]:
    template = "[" + ",".join(names(query)) + "]"
    goal = f"forall(({query}), (write_canonical({template}), nl))"
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(PROGRAMS / file)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr
    return set(done.stdout.split())


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")
@pytest.mark.parametrize("file, query", QUERIES)
def test_answers_are_swi_prologs(file, query):
    want = swi_answers(file, query)
    assert want, "the query has answers in SWI-Prolog"
    assert logicpy_answers(file, query) == want


def test_known_answers_without_swi():
    family = consult(PROGRAMS / "family.pl")
    q = var()
    assert sorted(run(0, q, family.ancestor("tom", q))) == ["ann", "bob", "jim", "joe", "liz", "pat"]
    assert family["parent/2"] is family.parent and len(family) == 8 and "ancestor/2" in family
    lists = consult(PROGRAMS / "lists.pl")
    assert run(0, q, lists.rev([1, 2, 3], q)) == ([3, 2, 1],)
    assert run(0, q, lists.rev([1, 2], [], q)) == ([2, 1],)  # rev/3, the accumulator version
    [answer] = lists.query("len(L, 2)", n=1)
    first, second = answer["L"]
    assert first is not second and format_term(answer["L"]) == "[_G0,_G1]"


def test_relations_compose_with_neq_fd_and_recursion_depth():
    lists = consult(PROGRAMS / "lists.pl")
    x = var()
    assert sorted(run(0, x, lists.mem(x, [1, 2, 3]), neq(x, 2))) == [1, 3]
    assert sorted(run(0, x, domo(x, range(0, 10)), lists.mem(x, [3, 12, 5, -1]), labelo([x]))) == [3, 5]
    long = list(range(5_000))  # each level a delayed call: no Python stack per level
    assert run(1, x, lists.rev(long, x))[0][:2] == [4_999, 4_998]


def test_tabled_left_recursion_ends():
    graph = consult(PROGRAMS / "graph.pl")
    y = var()
    assert sorted(run(0, y, graph.path("a", y))) == ["a", "b", "c", "d"]
    assert run(0, y, graph.path("d", y)) == ()
    assert graph["path/2"].stats.misses == 2  # the core's tabled relation: one table per call variant

    @tabled
    def reach(x, y):  # a Python tabled relation over a consulted one, left-recursive too
        z = var()
        return conde([reach(x, z), graph.edge(z, y)], [graph.edge(x, y)])
    assert sorted(run(0, y, reach("e", y))) == ["f"]
    assert sorted(run(0, y, reach("b", y))) == ["a", "b", "c", "d"]


def test_deep_recursion_costs_no_python_stack():
    program = consult_text("count(0).\ncount(N) :- N > 0, N1 is N - 1, count(N1).")
    assert program.query("count(5000)") == [{}] and program.query("count(-1)") == []


def test_user_clauses_on_a_terminal_end_at_ctrl_d(monkeypatch, capsys):
    from logicpy.repl import run_terminal
    typed = iter(["[user].", "p(1).", "p(2).", None, "p(X).", None])

    def fake_input(prompt: str) -> str:
        line = next(typed)
        print(prompt, end="")
        if line is None:
            raise EOFError
        return line
    monkeypatch.setattr("builtins.input", fake_input)
    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.ask = None
    monkeypatch.setattr("logicpy.repl.toplevel._read_key", lambda: ";")
    monkeypatch.setenv("LOGICPY_HISTORY", "/dev/null")
    assert run_terminal(top) == 0
    prompts = capsys.readouterr().out
    assert prompts.count("|: ") == 3 and prompts.count("?- ") == 3  # clause prompts until Ctrl-D, then queries
    assert top.out.getvalue().splitlines()[-2:] == ["X = 1 ;", "X = 2."]  # no choice left after p(2)


def test_call_n_once_and_a_variable_goal_in_a_body():
    program = consult_text("p(1). p(2). p(3).\napply(G, X) :- call(G, X).\nfirst(X) :- once(p(X)).\n"
                           "run(G) :- G.")
    assert sorted(a["X"] for a in program.query("apply(p, X)")) == [1, 2, 3]
    assert program.query("first(X)") == [{"X": 1}]
    assert sorted(a["X"] for a in program.query("run(p(X))")) == [1, 2, 3]
    with pytest.raises(ModeError, match="instantiation error"):
        program.query("run(_)")


def test_directives_a_prolog_file_starts_with():
    program = consult_text(":- use_module(library(clpfd)).\n:- use_module(library(lists)).\n"
                           ":- initialization(assertz(ready(yes))).\n:- dynamic ready/1.\n"
                           "digit(X) :- X in 0..9, X #> 7, label([X]).\n")
    assert program.query("ready(R)") == [{"R": "yes"}]  # run after the whole text was loaded
    assert sorted(a["X"] for a in program.query("digit(X)")) == [8, 9]


def test_consult_text_and_assert_retract_from_python():
    program = consult_text("n(1). n(2). n(3).\ndouble(X, Y) :- n(X), Y is 2 * X.")
    assert sorted(a["Y"] for a in program.query("double(X, Y)")) == [2, 4, 6]
    program.assertz(("n", 4))
    program.asserta(("n", 0))
    assert sorted(a["X"] for a in program.query("n(X)")) == [0, 1, 2, 3, 4]
    assert sorted(a["X"] for a in program.query("retract(n(X)), X > 2")) == [3, 4]
    assert program.query("n(X)") == []  # each retract that succeeded removed its clause, as in SWI-Prolog
    program.consult_text("n(5). n(6).")
    assert program.query("retract(n(6))") == [{}] and program.query("n(X)") == [{"X": 5}]


def test_unknown_predicates_are_existence_errors():
    program = consult_text("p(X) :- q(X).")
    with pytest.raises(PrologError, match=r"^procedure q/1 does not exist$"):
        program.query("p(X)")
    with pytest.raises(PrologError, match=r"^procedure nosuch/0 does not exist$"):
        program.query("nosuch")
    assert consult_text(":- dynamic q/1.").query("q(X)") == []  # declared: no clauses, fails


def test_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.pl"
    bad.write_text("p(1).\n\np(2) :- q(.\n")
    with pytest.raises(PrologSyntaxError, match=r"bad\.pl:3: syntax error"):
        consult(bad)
    bad.write_text("p(1).\n:- initialization(main, main).\n")
    with pytest.raises(InputError, match=r"bad\.pl:2: directive initialization\(main,main\) is not supported"):
        consult(bad)
    bad.write_text("p(1).\n:- initialization(p(2)).\n")
    with pytest.raises(InputError, match=r"bad\.pl:2: initialization goal p\(2\) failed"):
        consult(bad)
    bad.write_text(":- initialization(main).\nmain :- nothing.\n")
    with pytest.raises(PrologError, match=r"bad\.pl:1: initialization goal main: procedure nothing/0 does not exist"):
        consult(bad)
    bad.write_text("p(1).\nX = 1 :- true.\n")
    with pytest.raises(InputError, match=r"bad\.pl:2: No permission to modify static procedure `=/2'"):
        consult(bad)
    with pytest.raises(InputError, match="nowhere.pl: no such Prolog file"):
        consult(tmp_path / "nowhere.pl")


def repl(text: str) -> tuple[list[str], list[str], int]:
    out, err = io.StringIO(), io.StringIO()
    status = run_piped(Toplevel(out=out, err=err), io.StringIO(text))
    return out.getvalue().splitlines(), err.getvalue().splitlines(), status


def test_user_clauses_in_the_toplevel():
    out, err, status = repl("[user].\nlikes(mary, wine).\nlikes(john, X) :-\n    likes(mary, X).\n"
                            "end_of_file.\nlikes(john, W).\nassertz(likes(mary, tea)), likes(john, tea).\n"
                            "retract(likes(mary, wine)).\nlikes(W, wine).\n")
    assert out == ["true.", "W = wine.", "true.", "true.", "false."]
    assert (err, status) == ([], 1)  # the last query had no answer


def test_consult_and_brackets_in_the_toplevel(tmp_path):
    out, err, status = repl(f"consult('{PROGRAMS / 'family.pl'}').\ngrandparent(tom, X).\n"
                            f"[{format_term(str(PROGRAMS / 'family'))}].\nfather(bob, X).\nnosuch(1).\n")
    assert out[0] == f"% consulted {PROGRAMS / 'family.pl'}: 8 predicates" and out[1] == "true."
    assert out[2:5] == ["X = ann ;", "X = pat ;", "X = joe."]
    assert out[5:7] == [f"% consulted {PROGRAMS / 'family.pl'}: 8 predicates", "true."]
    assert out[7:] == ["X = ann ;", "X = pat."]  # replaced, not doubled
    out, _, _ = repl(f"[{format_term(str(PROGRAMS / 'graph'))}].\nhelp.\n")
    assert "% predicates: edge/2 path/2 person/1 same_gen/2" in out
    assert err == ["error: procedure nosuch/1 does not exist"] and status == 2


def test_a_syntax_error_in_a_file_is_exit_2(tmp_path):
    bad = tmp_path / "bad.pl"
    bad.write_text("ok.\nbroken( :- .\n")
    out, err, status = repl(f"consult('{bad}').\nok.\n")
    assert err[0].startswith(f"error: {bad}:2: syntax error: ")
    assert err[1:] == ["error: procedure ok/0 does not exist"]  # a file with a syntax error is not loaded
    assert out == [] and status == 2


def test_use_module_finds_a_module_in_the_current_directory(tmp_path):
    (tmp_path / "mymod.py").write_text("from logicpy.core import eq\n\ndef coloro(c):\n    return eq(c, 'red')\n")
    logicpy = Path(sys.executable).with_name("logicpy")
    if not logicpy.exists():
        pytest.skip("the logicpy command is not installed next to this Python")
    done = subprocess.run([str(logicpy), "repl"], input="use_module(mymod).\ncoloro(C).\n", cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={"PATH": os.environ.get("PATH", "")})
    assert done.stdout.splitlines()[-1:] == ["C = red."], done.stderr
    assert done.returncode == 0


def test_ctrl_c_stops_an_endless_predicate_and_the_session_goes_on():
    import threading

    from logicpy.repl.goals import Interrupt
    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.program.consult_text("loop(N) :- M is N + 1, loop(M).")
    timer = threading.Timer(0.3, lambda: setattr(Interrupt, "requested", True))
    timer.start()
    top.query("loop(0).")
    timer.join()
    top.query("X = 1.")
    assert top.out.getvalue().splitlines() == ["% interrupted", "X = 1."]


def test_retractall_and_variants():
    program = consult_text("f(1, a). f(2, b). f(1, c).")
    assert program.query("retractall(f(1, _)), f(X, Y)") == [{"X": 2, "Y": "b"}]
    assert program.query("retractall(g(_)), g(X)") == []  # g/1 now exists, with no clauses
    assert len(program.query("f(X, Y) =@= f(A, B), f(X, X) \\=@= f(A, B), f(X, Y) \\=@= f(A, A)")) == 1
    assert program.query("f(X, Y) =@= f(A, A)") == [] and program.query("f(X, 1) =@= f(Y, 1)") != []
