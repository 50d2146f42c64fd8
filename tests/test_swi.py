"""The SWI-Prolog bridge: consult into modules, queries, errors, time limits, threads, and
each pyswip 0.3.3 pitfall the bridge closes (the issue's list, one test per pitfall)."""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings

from logicpy import swi
from logicpy.core.terms import String, cons, var
from logicpy.errors import (
    InputError,
    PrologBusy,
    PrologError,
    PrologSyntaxError,
    PrologTimeout,
    PrologUnavailable,
    TermError,
)
from tests.core.test_terms import same, terms_with_vars



def test_missing_pyswip_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyswip.core", None)  # makes `import pyswip.core` fail
    with pytest.raises(PrologUnavailable, match=r"swi-prolog-nox.*logicpy-engine\[prolog\]"):
        swi._Engine()




@pytest.mark.swi
def test_text_goal_answers_are_dicts_of_logicpy_terms():
    answers = swi.query("X = f(a, \"s\", 1r3, [1,2|T]), Y = (p, q)")
    assert len(answers) == 1
    x = answers[0]["X"]
    assert x[:4] == ("f", "a", String("s"), Fraction(1, 3))
    assert x[4].car == 1 and x[4].cdr.cdr is answers[0]["T"]
    # pyswip 0.3.3 would give the conjunction as the flattened string ',(p, q)'
    assert answers[0]["Y"] == (",", "p", "q")


@pytest.mark.swi
def test_term_goal_variables_come_back_as_themselves():
    x, y = var("x"), var("y")
    assert swi.query(("append", x, y, [1, 2])) == [
        {x: [], y: [1, 2]},
        {x: [1], y: [2]},
        {x: [1, 2], y: []},
    ]
    [answer] = swi.query(("=", x, ("f", "hello", y)))
    assert answer[x] == ("f", "hello", y) and answer[y] is y


@pytest.mark.swi
def test_python_str_arrives_as_an_atom():
    # pyswip sends a str as a Prolog string, so atom/1 quietly fails there.
    assert swi.query(("atom", "hello world")) == [{}]
    assert swi.query(("atom", String("hello world"))) == []
    assert swi.query(("string", String("hello world"))) == [{}]


@pytest.mark.swi
def test_big_integers_and_rationals_cross_both_ways():
    # pyswip 0.3.3 crashes converting integers >= 2**63 and rationals.
    x = var()
    assert swi.query(("is", x, ("*", 2**70, 3)))[0][x] == 3 * 2**70
    assert swi.query(("is", x, ("+", Fraction(1, 3), Fraction(1, 6))))[0][x] == Fraction(1, 2)
    assert swi.query("X is 2^64")[0]["X"] == 2**64


@pytest.mark.swi
def test_strings_come_back_as_String_not_bytes():
    [answer] = swi.query('atom_string(hello, S)')
    assert answer["S"] == String("hello")


@pytest.mark.swi
def test_error_terms_compare_safely():
    # pyswip's Functor objects crash the process on ==; ours are tuples.
    a = swi.query("X = f(g(1))")[0]["X"]
    b = swi.query("X = f(g(1))")[0]["X"]
    assert a == b == ("f", ("g", 1))


@pytest.mark.swi
def test_undefined_predicate_is_an_existence_error_not_the_tracer():
    with pytest.raises(PrologError, match=r"Unknown procedure: no_such_predicate/1") as info:
        swi.query("no_such_predicate(1)")
    assert info.value.term[:2] == ("error", ("existence_error", "procedure", ("/", "no_such_predicate", 1)))
    assert swi.query("X = 1") == [{"X": 1}]  # still alive


@pytest.mark.swi
def test_prolog_exception_carries_the_error_term():
    with pytest.raises(PrologError, match="Type error") as info:
        swi.query("atom_length(f(x), N)")
    assert info.value.term[1] == ("type_error", "atom", ("f", "x")) or info.value.term[1][0] == "type_error"


@pytest.mark.swi
def test_unreadable_goal_text_is_a_syntax_error():
    with pytest.raises(PrologSyntaxError, match=r"syntax error \(end of clause\) at character 4 of the goal 'foo\('"):
        swi.query("foo(")


@pytest.mark.swi
def test_time_limit_then_the_bridge_still_works():
    start = time.monotonic()
    with pytest.raises(PrologTimeout, match="0.2 s"):
        swi.query("repeat, fail", timeout=0.2)
    assert time.monotonic() - start < 5
    assert swi.query("between(1, 3, X)") == [{"X": 1}, {"X": 2}, {"X": 3}]


@pytest.mark.swi
def test_solution_limit_stops_an_infinite_goal():
    assert swi.query("repeat, X = 1", limit=3) == [{"X": 1}] * 3
    assert [len(a["L"]) for a in swi.query("length(L, N)", limit=4)] == [0, 1, 2, 3]


@pytest.mark.swi
def test_bad_options_are_named():
    with pytest.raises(InputError, match="limit"):
        swi.query("true", limit=0)
    with pytest.raises(InputError, match="timeout"):
        swi.query("true", timeout=-1)


@pytest.mark.swi
def test_output_can_be_captured():
    answers = swi.query("format('hello ~w~n', [world]), X = 2", capture_output=True)
    assert answers == [{"X": 2}] and answers.output == "hello world\n"


@pytest.mark.swi
def test_failure_is_no_answers():
    assert swi.query("fail") == []
    assert swi.query("member(X, [])") == []


# ------------------------------------------------------------------ consult


@pytest.mark.swi
def test_files_with_the_same_predicates_get_their_own_modules(tmp_path):
    # Like the original three-gods files: not modules, both defining evaluate/2.
    (tmp_path / "a.pl").write_text("evaluate(X, from_a) :- X > 0.\n")
    (tmp_path / "b.pl").write_text("evaluate(X, from_b) :- X > 0.\n")
    a, b = swi.consult(tmp_path / "a.pl"), swi.consult(tmp_path / "b.pl")
    assert a.name != b.name
    assert a.query("evaluate(1, W)") == [{"W": "from_a"}]
    assert b.query("evaluate(1, W)") == [{"W": "from_b"}]
    assert swi.consult(tmp_path / "a.pl").query("evaluate(2, W)") == [{"W": "from_a"}]  # reload
    with pytest.raises(PrologError, match="already loaded into module"):
        swi.consult(tmp_path / "a.pl", module="elsewhere")
    assert a.query("evaluate(3, W)") == [{"W": "from_a"}]  # the failed load took nothing away
    (tmp_path / "c.pl").write_text("evaluate(_, from_c).\n")
    assert swi.consult(tmp_path / "c.pl", module="named_c").query("evaluate(0, W)") == [{"W": "from_c"}]


@pytest.mark.swi
def test_syntax_error_names_file_and_line_and_loads_nothing(tmp_path):
    bad = tmp_path / "bad.pl"
    bad.write_text("p(1).\np(2) :- .\nr(a).\n")
    with pytest.raises(PrologSyntaxError, match=r"bad\.pl:2:\d+: Syntax error") as info:
        swi.consult(bad, module="bad_module")
    assert "bad.pl:2" in info.value.term[0]
    # pyswip 0.3.3 prints the error and loads the good clauses; here nothing is loaded.
    with pytest.raises(PrologError, match="Unknown procedure: bad_module:p/1"):
        swi.query("p(X)", module="bad_module")


@pytest.mark.swi
def test_directive_error_names_file_and_line_and_loads_nothing(tmp_path):
    bad = tmp_path / "directive.pl"
    bad.write_text("q(1).\n:- X is 1/0, write(X).\nq(2).\n")
    with pytest.raises(PrologError, match=r"directive\.pl:2: .*Arithmetic: evaluation error: .zero_divisor"
                                          r".*nothing of directive\.pl stays loaded") as info:
        swi.consult(bad, module="directive_module")
    assert not isinstance(info.value, PrologSyntaxError)
    # SWI ran the other clauses in and left them without a module handle; now none stay
    with pytest.raises(PrologError, match="Unknown procedure: directive_module:q/1"):
        swi.query("q(X)", module="directive_module")
    bad.write_text("q(1).\n")  # fixed: loads again
    assert swi.consult(bad, module="directive_module").query("q(X)") == [{"X": 1}]


@pytest.mark.swi
def test_warnings_are_kept_not_printed(tmp_path, capfd):
    f = tmp_path / "w.pl"
    f.write_text("single(X) :- true.\n")
    module = swi.consult(f)
    assert [(w.kind, w.line) for w in module.warnings] == [("warning", 1)]
    assert "Singleton" in str(module.warnings[0])
    assert "Singleton" not in capfd.readouterr().err


@pytest.mark.swi
def test_missing_file_is_named():
    with pytest.raises(InputError, match="nowhere.pl: no such Prolog file"):
        swi.consult("nowhere.pl")


# ------------------------------------------------------------------ concurrency


@pytest.mark.swi
def test_queries_from_threads_are_serialised():
    results: dict[int, object] = {}

    def work(n: int) -> None:
        for _ in range(5):
            results[n] = swi.query(f"numlist(1, {n}, L), sum_list(L, S)")[0]["S"]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {n: n * (n + 1) // 2 for n in range(1, 9)}


@pytest.mark.swi
def test_a_query_from_inside_a_prolog_callback_is_refused_cleanly():
    pyswip = pytest.importorskip("pyswip", reason="registers a Python predicate through pyswip")
    seen = []

    def logicpy_callback(x):
        try:
            swi.query("true")
        except PrologBusy as exc:
            seen.append(str(exc))
        return True

    logicpy_callback.arity = 1
    pyswip.registerForeign(logicpy_callback)
    assert swi.query("logicpy_callback(1)") == [{}]
    assert seen and "already running" in seen[0]
    assert swi.query("X = ok") == [{"X": "ok"}]


# ------------------------------------------------------------------ round trip through Prolog


def _as_prolog_sees_it(term):
    """A Fraction with denominator 1 is an integer in Prolog; nothing else changes."""
    if isinstance(term, Fraction) and term.denominator == 1:
        return int(term)
    if isinstance(term, list):
        return [_as_prolog_sees_it(x) for x in term]
    if isinstance(term, tuple):
        return (term[0], *map(_as_prolog_sees_it, term[1:]))
    if type(term).__name__ == "ConsPair":
        return cons(_as_prolog_sees_it(term.car), _as_prolog_sees_it(term.cdr))
    return term


@pytest.mark.swi
@settings(max_examples=100, deadline=None)
@given(terms_with_vars())
def test_terms_round_trip_through_prolog(term):
    x = var("x")
    [answer] = swi.query(("=", x, ("wrap", term)))  # wrapped: a bare variable would alias x
    back = answer[x][1]
    mapping = {}
    assert same(back, _as_prolog_sees_it(term), mapping)
    assert all(a is b for a, b in mapping.items())  # variables come back as themselves


@pytest.mark.swi
def test_cyclic_and_unrepresentable_answers_are_errors_not_wrong_answers():
    with pytest.raises(PrologError, match="cyclic"):
        swi.query("X = f(X)")
    with pytest.raises(TermError, match=r"^an SWI stream handle cannot cross the bridge: <stream>\(0x[0-9a-f]+\) "
                                        r"\(in the answer's binding of S of the query current_output\(S\)\)$"):
        swi.query("current_output(S)")
    with pytest.raises(TermError, match=r"^an SWI dict cannot cross the bridge: _\d*\{a:1\} \(in the answer's binding of Y"):
        swi.query("X = 1, Y = f(_{a: 1})")
    with pytest.raises(TermError, match=r"^an SWI clause reference cannot cross the bridge: <clause>"):
        swi.query("assertz(swi_test_fact(1), R)")
    with pytest.raises(TermError, match=r"^an SWI mutex cannot cross the bridge: <mutex>"):
        swi.query("mutex_create(M)")
    # a blob inside an error term is no reason to lose the error: its text is kept
    with pytest.raises(PrologError, match="Type error: `text' expected, found `<stream>") as info:
        swi.query("current_output(S), atom_length(S, _)")
    assert "<stream>(0x" in info.value.term
    assert swi.query("X = 1") == [{"X": 1}]


def _run_python(code: str, *, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python: a query that crashes the process fails the test, not pytest."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.swi
def test_deep_terms_cross_both_ways_or_are_refused_by_depth():
    # Past ~18,000 levels this killed Python (SWI's writer overflowed the C stack; exit 139).
    result = _run_python(f"""
        import json
        from logicpy import swi
        from logicpy.errors import PrologError, TermError
        from logicpy.core.terms import var

        def depth(term, functor):
            n = 0
            while isinstance(term, tuple) and term[0] == functor:
                n, term = n + 1, term[-1]
            return n, term

        out = {{}}
        x = var("x")
        swi.query("assertz((nest(0, z) :- !)), assertz((nest(N, f(T)) :- M is N - 1, nest(M, T))), "
                  "assertz((conj(0, a) :- !)), assertz((conj(N, (a, T)) :- M is N - 1, conj(M, T)))")
        # Prolog to Python: a 10,000-deep f(f(...)), a 10,000-goal conjunction, a 100,000-element list
        t = swi.query("nest(10000, T)")[0]["T"]
        out["f"] = depth(t, "f")
        c = swi.query("conj(10000, C)")[0]["C"]
        out["conj"] = depth(c, ",")
        out["list"] = swi.query("numlist(1, 100000, L)")[0]["L"] == list(range(1, 100001))
        # Python to Prolog: the same terms as goals or data, measured by Prolog
        out["f_sent"] = swi.query(("term_size", t, x))[0][x]
        swi.query("assertz(user:a)")
        out["conj_run"] = swi.query(c) == [{{}}]
        out["list_sent"] = swi.query(("sum_list", list(range(100000)), x))[0][x]
        # past the limit, either way: refused with the depth and the limit
        for name, goal in [("answer", "nest(200000, T)"), ("error", "nest(200000, T), throw(T)")]:
            try:
                swi.query(goal, limit=1)
            except TermError as exc:
                out[name] = str(exc)
        deep = "z"
        for _ in range({swi.MAX_DEPTH + 1}):
            deep = ("f", deep)
        for name, goal in [("sent", ("=", x, deep)), ("text", "X = " + "[" * {swi.MAX_DEPTH + 1} + "]" * {swi.MAX_DEPTH + 1})]:
            try:
                swi.query(goal)
            except TermError as exc:
                out[name] = str(exc)
        # an error term 20,000 deep (past the old crash) is within the limit: it comes through whole
        try:
            swi.query("nest(20000, T), throw(T)")
        except PrologError as exc:
            out["error_term"] = depth(exc.term, "f")
        out["after"] = swi.query("X = 1")
        print(json.dumps(out))
    """)
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout)
    assert out["f"] == [10_000, "z"] and out["conj"] == [10_000, "a"] and out["list"] is True
    assert out["f_sent"] == 2 * 10_000 and out["conj_run"] is True and out["list_sent"] == sum(range(100_000))
    assert out["answer"].startswith("the answer's binding of T of the query nest(200000, T)")
    assert out["answer"].endswith("is nested 200,000 deep; terms deeper than 100,000 do not cross the bridge "
                                  "(SWI-Prolog writes and reads terms by C recursion, and its C stack would overflow)")
    assert "the error term of the query" in out["error"] and "nested 200,000 deep" in out["error"]
    assert out["sent"].startswith("the goal cannot cross the bridge: term[2]")
    assert out["sent"].endswith("nested more than 100,000 deep (compounds and lists inside each other)")
    assert out["text"] == ("the goal text nests brackets 100,001 deep; terms deeper than 100,000 do not cross "
                           "the bridge (SWI-Prolog reads them by C recursion)")
    assert out["error_term"] == [20_000, "z"] and out["after"] == [{"X": 1}]


@pytest.mark.swi
def test_halt_raises_and_python_carries_on():
    # halt used to end Python at once with status 0, skipping atexit handlers
    result = _run_python("""
        import atexit, sys
        from logicpy import swi
        from logicpy.errors import PrologError
        atexit.register(lambda: print("atexit ran"))
        for goal in ["halt", "X = 1, halt(3)", "catch(call(halt), nothing, true)", "system:halt(4)"]:
            try:
                swi.query(goal)
            except PrologError as exc:
                print(exc.term, "|", exc)
        print(swi.query("X = 1"))
        sys.exit(5)
    """)
    lines = result.stdout.splitlines()
    assert result.returncode == 5, result.stderr[-2000:]
    assert lines[0] == ("('halt', 0) | halt(0) was called: the SWI-Prolog bridge does not end the Python process, "
                        "it stopped the query halt there (sys.exit ends Python)")
    assert lines[1].startswith("('halt', 3) | halt(3) was called") and lines[2].startswith("('halt', 0) | halt(0)")
    assert lines[3].startswith("('halt', 'unknown') | halt was called")  # system:halt/1 itself: cancelled
    assert lines[4:] == ["[{'X': 1}]", "atexit ran"]


@pytest.mark.swi
def test_halt_in_a_consulted_file_is_refused_and_unloads_it(tmp_path):
    f = tmp_path / "stops.pl"
    f.write_text("stop :- halt(7).\n")
    with pytest.raises(PrologError, match=r"^halt\(7\) was called") as info:
        swi.consult(f, module="stops").query("stop")
    assert info.value.term == ("halt", 7)
    g = tmp_path / "directive.pl"
    g.write_text("kept(1).\n:- halt.\nkept(2).\n")
    with pytest.raises(PrologError, match=r"directive\.pl:2: .*halt\(0\) was called.*nothing of directive\.pl stays loaded"):
        swi.consult(g, module="directive_halts")
    with pytest.raises(PrologError, match="Unknown procedure: directive_halts:kept/1"):
        swi.query("kept(X)", module="directive_halts")


@pytest.mark.swi
def test_abort_says_so_and_the_bridge_stays_usable():
    with pytest.raises(PrologError, match=r"^abort/0 was called: the query X = 1, abort was abandoned") as info:
        swi.query("X = 1, abort")
    assert info.value.term == "$aborted"
    assert swi.query("X = 1") == [{"X": 1}]


@pytest.mark.swi
def test_ctrl_c_stops_a_runaway_query_and_the_bridge_stays_usable():
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys
        from logicpy import swi
        swi.query("true")
        print("running", flush=True)
        try:
            swi.query("repeat, fail")
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print(swi.query("between(1, 3, X)"), flush=True)
    """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "running\n"
        time.sleep(0.3)  # inside the endless query by now
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert out == "interrupted\n[{'X': 1}, {'X': 2}, {'X': 3}]\n"


@pytest.mark.swi
def test_an_alarm_stops_a_runaway_query_and_the_bridge_stays_usable():
    from logicpy.alarm import TimeUp, time_limit

    swi.query("true")
    start = time.monotonic()
    with pytest.raises(TimeUp):
        with time_limit(0.3):
            swi.query("repeat, fail")
    assert time.monotonic() - start < 3
    assert swi.query("between(1, 3, X)", timeout=5) == [{"X": 1}, {"X": 2}, {"X": 3}]


@pytest.mark.swi
def test_interrupt_main_stops_a_runaway_query_and_the_bridge_stays_usable():
    # what a notebook's "interrupt kernel" does: no signal, only a pending KeyboardInterrupt
    import _thread
    import threading

    swi.query("true")
    threading.Timer(0.3, _thread.interrupt_main).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        swi.query("repeat, fail")
    assert time.monotonic() - start < 3
    assert swi.query("X = 1", timeout=5) == [{"X": 1}]


@pytest.mark.swi
def test_non_ascii_atoms_round_trip_through_prolog():
    # SWI writes some of these unquoted (accents with combining marks, '+¡', '℘a'):
    # the reader must split them exactly as SWI does. Every 5th code point of three blocks.
    chars = [chr(i) for lo, hi in ((0x80, 0x3000), (0xFF00, 0xFFEF), (0x1F300, 0x1F400)) for i in range(lo, hi, 5)]
    chars += ["\u2118", "\u212e", "\u1885", "\u0300"]
    atoms = [a for c in chars for a in (c, "a" + c, c + "a", "A" + c, "+" + c, c + c, "_" + c)]
    x = var("x")
    for i in range(0, len(atoms), 2000):
        chunk = atoms[i : i + 2000]
        [answer] = swi.query(("=", x, [chunk, String("".join(chunk))]))
        assert answer[x] == [chunk, String("".join(chunk))]


@pytest.mark.swi
def test_residual_constraints_are_returned_not_dropped():
    answers = swi.query("dif(X, a), Y = f(X)")
    x = answers[0]["X"]
    assert answers[0]["Y"] == ("f", x)
    assert answers.residual == [[("dif", x, "a")]]
    x_lv = var("x")
    answers = swi.query((",", ("dif", x_lv, 1), ("member", x_lv, [1, 2])))
    assert answers == [{x_lv: 2}] and answers.residual == [[]]


@pytest.mark.swi
def test_an_interrupt_before_its_query_starts_stops_it_and_a_late_one_stops_nothing(monkeypatch):
    # Ctrl-C can reach the engine just before the interrupted query begins, or after it ended.
    swi.query("true")
    engine = swi._engine
    monkeypatch.setattr(engine, "_numbers", itertools.count(10**9))
    assert engine._call_goal(f"thread_signal(logicpy_engine, logicpy_bridge:interrupt({10**9}))")
    with pytest.raises(KeyboardInterrupt):
        swi.query("X = 1")  # job 10**9: stopped before it ran
    assert engine._call_goal(f"thread_signal(logicpy_engine, logicpy_bridge:interrupt({10**9}))")  # late
    assert swi.query("X = 2") == [{"X": 2}]  # job 10**9 + 1 runs


@pytest.mark.slow
@pytest.mark.swi
def test_terms_exactly_at_the_depth_limit_cross_both_ways():
    result = _run_python(f"""
        from logicpy import swi
        from logicpy.core.terms import var
        swi.query("assertz((nest(0, z) :- !)), assertz((nest(N, f(T)) :- M is N - 1, nest(M, T)))")
        def depth(term):
            n = 0
            while isinstance(term, tuple):
                n, term = n + 1, term[1]
            return n, term
        print(depth(swi.query("nest({swi.MAX_DEPTH}, T)")[0]["T"]))
        x, deep = var("x"), "z"
        for _ in range({swi.MAX_DEPTH - 1}):
            deep = ("f", deep)
        print(depth(swi.query(("=", x, deep))[0][x]))  # the goal =(X, ...) is MAX_DEPTH deep
    """, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == [f"({swi.MAX_DEPTH}, 'z')", f"({swi.MAX_DEPTH - 1}, 'z')"]
