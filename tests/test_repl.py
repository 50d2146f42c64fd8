"""`logicpy repl`: queries in Prolog syntax over logicpy relations, driven through piped input.

Known answers: append/3's splits, clpfd's residuals for `X in 1..3, X #< Y`, Cheryl's
birthday (July 16, Norvig's classic) and Gabe's (July 30); the FD operators are checked
against brute force on random constraints.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.repl import Toplevel, read_queries, run_piped
from logicpy.repl.reader import read_query


def repl(*queries: str, limit: int = 1000) -> tuple[list[str], list[str], int]:
    """Run the queries as piped input: (stdout lines, stderr lines, exit status)."""
    out, err = io.StringIO(), io.StringIO()
    status = run_piped(Toplevel(out=out, err=err, limit=limit), io.StringIO("\n".join(queries)))
    return out.getvalue().splitlines(), err.getvalue().splitlines(), status


def test_answers_one_per_line_the_last_ending_with_a_full_stop():
    out, err, status = repl("appendo(X, Y, [1,2,3]).")
    assert out == ["X = [], Y = [1, 2, 3] ;", "X = [1], Y = [2, 3] ;", "X = [1, 2], Y = [3] ;", "X = [1, 2, 3], Y = []."]
    assert (err, status) == ([], 0)


def test_no_answers_is_false_and_a_ground_success_is_true():
    assert repl("membero(3, [1,2]).")[0] == ["false."]
    assert repl("membero(1, [1,2]).")[0] == ["true."]
    assert repl("membero(1, [1,2,1]).")[0] == ["true ;", "true."]


def test_the_limit_stops_an_endless_query_as_enter_does():
    out, _, _ = repl("lengtho(L, N).", limit=3)
    assert out == ["L = [], N = 0 ;", "L = [_], N = 1 ;", "L = [_, _], N = 2 ."]


def test_user_names_kept_fresh_variables_named_as_swi_names_them():
    assert repl("appendo([1], T, L).")[0] == ["L = [1|T]."]
    assert repl("X = Y.")[0] == ["X = Y."]
    assert repl("appendo(X, _, [1]).")[0] == ["X = [] ;", "X = [1]."]
    assert repl("X = [_|_].")[0] == ["X = [_|_]."]
    assert repl("lengtho(X, 1), appendo(X, [_Z], L).")[0] == ["X = [_A], L = [_A, _Z]."]


def test_residual_constraints_shown_with_the_answer():
    assert repl("neq(X, 1).")[0] == ["dif(X, 1)."]
    assert repl("dif([X, Y], [2, 1]).")[0] == ["dif(f(X, Y), f(2, 1))."]
    assert repl("X #< Y, X in 1..3.")[0] == ["X in 1..3, X #< Y, Y in 2..sup."]
    assert repl("[X,Y] ins 1..3, abs(X-Y) #= 2.")[0] == ["X in 1\\/3, Y in 1\\/3, abs(X-Y) #= 2."]
    assert repl("X in 1..3, (X #< Y ; dif(X, 2) ; X = 3).")[0] == [
        "X in 1..3, X #< Y, Y in 2..sup ;", "X in 1..3, dif(X, 2) ;", "X = 3."]


def test_fd_domains_of_any_size():
    """Domains are intervals where they are wide (issue 14): no "million values" refusal, as in clpfd."""
    assert repl("X in 1..1000000000000000, X #\\= 7.")[0] == ["X in 1..6\\/8..1000000000000000."]
    out, _, _ = repl("X in 0\\/1000000000000\\/10000000000000000000000000000000000000000, label([X]).")
    assert out == ["X = 0 ;", "X = 1000000000000 ;", "X = 10000000000000000000000000000000000000000."]


def test_fd_operators_and_labelling():
    out, _, _ = repl("X in 1..3, Y in 1..3, X #< Y, label([X,Y]).")
    assert out == ["X = 1, Y = 2 ;", "X = 1, Y = 3 ;", "X = 2, Y = 3."]
    # SEND + MORE = MONEY, in clpfd's formulation: 9567 + 1085 = 10652 (the one solution)
    send = ("Vs = [S,E,N,D,M,O,R,Y], Vs ins 0..9, all_different(Vs), S #\\= 0, M #\\= 0, "
            "1000*S + 100*E + 10*N + D + 1000*M + 100*O + 10*R + E #= "
            "10000*M + 1000*O + 100*N + 10*E + Y, label(Vs).")
    out, _, _ = repl(send)
    assert len(out) == 1 and out[0].endswith(".")
    assert out[0].startswith("Vs = [9, 5, 6, 7, 1, 0, 8, 2]")


def test_control_and_arithmetic_builtins():
    assert repl("membero(X, [1,2,3]), \\+ X = 2.")[0] == ["X = 1 ;", "X = 3."]
    assert repl("(membero(1, [2]) -> X = yes ; X = no).")[0] == ["X = no."]
    assert repl("X is 2 + 3 * 4, Y is X // 4, X > Y.")[0] == ["X = 14, Y = 3."]
    assert repl("X \\= 1.")[0] == ["false."]
    assert repl("X = f(Y), X == f(Y).")[0] == ["X = f(Y)."]


def test_puzzle_relations_are_loaded():
    assert repl("storyo(classic, D).")[0] == ["D = MonthDay(7, 16)."]  # Cheryl's birthday: July 16
    assert repl("storyo(gabe, D).")[0] == ["D = MonthDay(7, 30)."]
    out, _, _ = repl("questiono(Q, 0), evaluateo(Q, world([truly,falsely,random], da_yes, [none,none,ja]), true).")
    assert out == ["Q = true() ;", "Q = (1 is truly) ;", "Q = (2 is falsely) ;", "Q = (3 is random)."]


def test_only_relations_are_offered_by_name():
    """The core marks its relations (`RELATIONS`); what builds goals or runs searches is no
    predicate of the toplevel."""
    import logicpy.core as core

    assert set(core.RELATIONS) <= set(core.__all__)
    assert all(callable(getattr(core, name)) for name in core.RELATIONS)
    for name in ("relation", "run", "conj", "project", "answers"):
        _, err, status = repl(f"{name}(foo).")
        assert status == 2 and err == [f"error: procedure {name}/1 does not exist"], (name, err)
    assert repl("nullo(X).")[0] == ["X = []."]  # one of kanren's own, marked by the core


def test_a_named_module_adds_its_relations():
    out, _, _ = repl("use_module('logicpy.data.examples.zebra').", "help.")
    assert out[0].startswith("% ") and "zebra" in out[0] and out[1] == "true."
    assert any(line.startswith("% from logicpy.data.examples.zebra:") for line in out)


def test_help_lists_commands_builtins_and_relations():
    out, _, _ = repl("help.")
    text = "\n".join(out)
    for word in ("consult('file.pl')", "swi: Goal", "crosscheck(Goal)", "time(Goal)", "#</2", "label/1",
                 "appendo", "questiono", "storyo"):
        assert word in text
    assert out[-1] == "true."


def test_time_reports_after_the_answers():
    out, _, _ = repl("time(permuteo([1,2,3], P)).")
    assert len([line for line in out if line.startswith("P = ")]) == 6
    assert out[-1].startswith("% 6 answers, ") and "s CPU" in out[-1] and out[-2] == "P = [3, 2, 1]."


@pytest.mark.parametrize("query, culprit", [
    ("nosuch(X).", "procedure nosuch/1 does not exist"),
    ("appendo(X, Y).", "appendo/2"),
    ("X = f(.", "character 7"),
    ("X in 1..sup.", "finite domains"),
    ("X is Y + 1.", "not sufficiently instantiated"),
    ("X #= Y + foo.", "not an FD expression"),
    ("label([X]).", "label"),
    ("crosscheck(appendo(X, Y, [1])).", "load a Prolog file into SWI-Prolog first"),
])
def test_errors_are_one_line_naming_the_culprit_and_the_session_goes_on(query, culprit):
    out, err, status = repl(query, "X = 1.")
    assert len(err) == 1 and err[0].startswith("error: ") and culprit in err[0], err
    assert "Traceback" not in err[0] and out[-1:] == ["X = 1."] and status == 2


def test_read_queries_joins_lines_until_the_full_stop():
    text = "% a comment\n?- appendo(X,\n  Y, [1]).\n\nX = 1.\nX = 2"
    assert list(read_queries(iter(text.splitlines()))) == ["appendo(X, Y, [1]).", "X = 1.", "X = 2"]


def test_operators_read_with_prolog_priorities():
    term, names = read_query("X in 1..3\\/5..7, X-1 #< Y*2 ; \\+ a.")
    X, Y = names["X"], names["Y"]
    assert term == (";", (",", ("in", X, ("\\/", ("..", 1, 3), ("..", 5, 7))),
                          ("#<", ("-", X, 1), ("*", Y, 2))), ("\\+", "a"))


_OPS = {"#<": "<", "#=<": "<=", "#>": ">", "#>=": ">=", "#=": "==", "#\\=": "!="}


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(sorted(_OPS)), st.integers(-2, 2), st.integers(-3, 3),
                          st.integers(-2, 2)), min_size=1, max_size=3))
def test_fd_constraints_agree_with_brute_force(constraints):
    """`a*X op b*Y + c` constraints over X, Y in 0..3, labelled, against every pair checked in Python."""
    text = ", ".join(f"{a}*X {op} {b}*Y + {c}" for op, a, b, c in constraints)
    out, err, _ = repl(f"[X,Y] ins 0..3, {text}, label([X,Y]).")
    assert not err, err
    got = sorted(line.rstrip(" ;.") for line in out if line != "false.")
    want = sorted(f"X = {x}, Y = {y}" if x != y else f"X = Y, Y = {x}" for x, y in itertools.product(range(4), repeat=2)
                  if all(eval(f"{a}*{x} {_OPS[op]} {b}*{y} + {c}") for op, a, b, c in constraints))
    assert got == want, text


def test_the_command_reads_piped_standard_input():
    done = subprocess.run([sys.executable, "-m", "logicpy", "repl"], input="appendo(X, Y, [1]).\nfoo(.\n",
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["X = [], Y = [1] ;", "X = [1], Y = []."]
    assert done.stderr.startswith("error: cannot read") and done.returncode == 2
    done = subprocess.run([sys.executable, "-m", "logicpy", "repl", "-q", "X = 1"], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "X = 1.\n" and done.returncode == 0


@pytest.mark.swi
def test_prolog_through_the_bridge_and_crosscheck():
    out, err, _ = repl("swi: append(X, Y, [1]).", "swi_consult('prolog/lists.pl').", "swi: appendo([a], [b], L).",
                       "crosscheck(appendo(X, Y, [1,2])).", "swi_consult('prolog/constraints.pl').", "swi: dif(X, 1).",
                       "swi: X in 1..3, X #< Y.")
    assert not err, err
    assert out[:2] == ["X = [], Y = [1] ;", "X = [1], Y = []."]
    assert out[2:4] == ["% consulted prolog/lists.pl into SWI-Prolog", "true."]
    assert out[4:5] == ["L = [a, b]."]
    assert "% agree on 3 answers" in out and "true." in out[5:]
    assert out[-2:] == ["dif(X, 1).", "X in 1..3, X #< Y, Y in 2..sup."]


def test_json_mode_one_object_per_query_reads_back():
    import json

    from logicpy.core.terms import from_json
    out = io.StringIO()
    top = Toplevel(out=out, err=io.StringIO(), json=True, limit=2)
    run_piped(top, io.StringIO("appendo([1], T, L).\nX in 1..3, X #< Y.\nlengtho(L, N).\nnosuch.\nhelp.\n"))
    first, fd, endless, bad, helped = map(json.loads, out.getvalue().splitlines())
    [answer] = first["answers"]
    assert answer["text"] == "L = [1|T]" and first["more"] is False
    shared: dict = {}
    value = from_json(answer["bindings"]["L"], shared)
    assert value.car == 1 and value.cdr is shared["T"]  # the partial list [1|T], T still a variable
    assert fd["answers"][0]["constraints"] == ["X in 1..3", "X #< Y", "Y in 2..sup"]
    assert len(endless["answers"]) == 2 and endless["more"] is True
    assert bad == {"status": "error", "command": "repl", "query": "nosuch.", "error": "procedure nosuch/0 does not exist"}
    assert [first["status"], fd["status"], helped["status"]] == ["ok", "ok", "ok"]
    assert helped["result"] is True and any("appendo" in m for m in helped["messages"])


def test_json_of_a_python_value_says_so_and_halt_ends_the_session():
    import json
    out = io.StringIO()
    run_piped(Toplevel(out=out, err=io.StringIO(), json=True), io.StringIO("storyo(gabe, D).\nhalt.\nX = 1.\n"))
    [line] = out.getvalue().splitlines()  # nothing after halt.
    assert json.loads(line)["answers"][0]["bindings"] == {"D": {"python": "MonthDay(7, 30)"}}


@pytest.mark.swi
def test_ctrl_c_stops_a_runaway_prolog_query_and_the_session_goes_on():
    """SIGINT during `swi: repeat, fail.` (endless in SWI-Prolog) returns to the toplevel."""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "logicpy", "repl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("swi: repeat, fail.\n")
    proc.stdin.flush()
    time.sleep(5)  # start-up (about 1 s), then well inside the endless query
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate("X = 1.\n", timeout=30)
    assert proc.returncode == 130, err  # the session went on; its status says a query was interrupted
    assert out.splitlines() == ["% interrupted", "X = 1."]


def test_a_gods_relation_given_a_variable_for_its_puzzle_option_is_one_line_error():
    # worldo/1 takes one logical argument; a second fills its Python `puzzle` option
    out = subprocess.run([sys.executable, "-m", "logicpy", "repl"], input="worldo(classic, W).\n",
                         capture_output=True, text=True, timeout=60)
    assert "must be a Puzzle, got W" in out.stdout + out.stderr
    assert "Traceback" not in out.stderr and "AttributeError" not in out.stdout + out.stderr
