"""The SWI-Prolog bridge: consult into modules, queries, errors, time limits, threads, and
each pyswip 0.3.3 pitfall the bridge closes (the issue's list, one test per pitfall)."""

from __future__ import annotations

import sys
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
    with pytest.raises(PrologUnavailable, match=r"swi-prolog-nox.*logicpy\[prolog\]"):
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
    with pytest.raises(TermError, match="cannot read Prolog term"):
        swi.query("current_output(S)")  # a stream handle has no logicpy representation
    assert swi.query("X = 1") == [{"X": 1}]


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
