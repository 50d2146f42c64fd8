"""Lists and compound terms in consulted Prolog, beside SWI-Prolog: a list cell never
unifies with a compound (`f(a,b) = [H|T]` fails), and `[a|f(b)]`, a list whose tail is a
compound, is read, unified, taken apart and written as SWI does."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from logicpy.core import loops
from logicpy.prolog import consult_text
from logicpy.repl import Toplevel, run_piped
from tests.swipl import answer_rows, swi_rows

needs_swi = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")

PROGRAM = """
first([H|_], H).
mem_last_first(X, [_|T]) :- mem_last_first(X, T).
mem_last_first(X, [X|_]).
len([], 0).
len([_|T], N) :- len(T, M), N is M + 1.
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
tail_of([_|T], T).
"""

QUERIES = [
    "f(a,b) = [H|T]",
    "[H|T] = f(a,b)",
    "X = f(a), X = [_|_]",
    "first(f(a,b), X)",
    "first(X, f(a,b)), X = [Y]",
    "mem_last_first(X, f(a,b))",
    "mem_last_first(X, [a,b|f(c)])",
    "L = f(a,b), member(X, L)",
    "L = f(a,b), append(X, Y, L)",
    "member(X, [a|f(b)])",
    "len(f(a,b), N)",
    "len([a|f(b)], N)",
    "X = [a|T], T = f(b)",
    "X = [a|f(b)]",
    "X = '[|]'(a, f(b))",
    "[a|f(b)] = [H|T]",
    "[a|f(b)] = [a|f(X)]",
    "[a|f(b)] = [a,f,b]",
    "[a|f(b)] = [a,f|T]",
    "T = f(b), X = [a|T], X == [a|f(b)]",
    "app(X, Y, [a,b|f(c)])",
    "app([a], f(b), L), tail_of(L, T)",
    "app(f(a), Y, Z)",
    "X = [a|f(b)], X =.. L",
    "X = [a|f(b)], functor(X, N, A), arg(2, X, T)",
    "is_list([a|f(b)])",
    "X = [a|f(b)], copy_term(X, Y)",
    "msort([[a|f(b)], [a], f(a), [a|g]], L)",
    "compare(O, [a|f(b)], f(a,b))",
    "X = [1|f(Y)], Y = [2|g(3)]",
]


@needs_swi
@pytest.mark.parametrize("query", QUERIES)
def test_lists_and_compounds_answer_as_swi(query):
    expected = swi_rows(PROGRAM, query)
    assert answer_rows(consult_text(PROGRAM), query) == expected
    with loops.disabled():  # the predicates' own clauses, not the list loops
        assert answer_rows(consult_text(PROGRAM), query) == expected


WRITES = "X = [a|f('B c', [d|e])], writeq(X), nl, print(X), nl, write_canonical(X), nl, write(X), nl, " \
         "format('~w ~q~n', [X, X])"


def _toplevel(text: str) -> list[str]:
    out = io.StringIO()
    run_piped(Toplevel(out=out, err=io.StringIO()), io.StringIO(text))
    return out.getvalue().splitlines()


@needs_swi
def test_a_list_ending_in_a_compound_is_written_as_swi_writes_it():
    swi = subprocess.run(["swipl", "-q", "-g", WRITES, "-t", "halt"], capture_output=True, text=True, timeout=60)
    assert swi.returncode == 0, swi.stderr
    written = _toplevel(f"{WRITES}.\n")
    assert written[:-1] == swi.stdout.splitlines() == [
        "[a|f('B c',[d|e])]", "[a|f('B c',[d|e])]", "[a|f('B c',[d|e])]", "[a|f(B c,[d|e])]",
        "[a|f(B c,[d|e])] [a|f('B c',[d|e])]"]


@needs_swi
def test_the_toplevel_answers_as_swi():
    query = "X = [a|T], T = f(b), Y = '[|]'(1, g([2|h]))."
    swi = subprocess.run(["swipl", "-q"], input=query + "\n", capture_output=True, text=True, timeout=60)
    swi_text = " ".join(line.strip() for line in swi.stdout.splitlines() if line.strip())
    assert _toplevel(query + "\n") == [swi_text] == ["X = [a|f(b)], T = f(b), Y = [1|g([2|h])]."]
