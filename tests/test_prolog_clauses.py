"""Compiled clause bodies (`prolog._compile_clause`): arithmetic run right after the head,
if-then-else, negation and disjunction compiled in the caller's search, each checked
against SWI-Prolog's answers in its order; and a deterministic tail call in constant memory."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from logicpy.errors import PrologError
from logicpy.prolog import Program, consult_text
from tests.swipl import answer_rows, swi_rows

needs_swipl = pytest.mark.skipif(shutil.which("swipl") is None, reason="needs swipl")

PROGRAM = """
succ_of(X, Y) :- Y is X + 1.
double(X, Y) :- Y is X * 2 + 1.
small(X) :- X < 3.
small(X) :- X >= 10, X =\\= 12.
sign(X, S) :- ( X > 0 -> S = pos ; X < 0 -> S = neg ; S = zero ).
first_even(Xs, E) :- ( member(E, Xs), 0 is E mod 2 -> true ; E = none ).
pick(X) :- ( member(X, [1,2,3]) ; X = 9 ).
cut_then(X, Y) :- ( X > 0 -> !, Y = a ; Y = b ).
cut_then(_, c).
cut_else(X, Y) :- ( X > 0 -> Y = a ; !, Y = b ).
cut_else(_, c).
no_member(X, Xs) :- \\+ member(X, Xs).
only_if(X) :- ( X > 1 -> true ).
nested(X, Y) :- ( X > 5 -> ( X > 8 -> Y = big ; Y = mid ) ; ( X =:= 0 -> Y = zero ; Y = low ) ).
branches(X, Y) :- member(X, [1,2,3,4]), ( X mod 2 =:= 0 -> Y = even ; Y = odd ).
at_head(X, Y) :- X = f(Z), Z is Y - 2, Z =:= 1.
classify(X, Y, Z) :- ( X > 0 -> T is X * 2 ; T = neg ), Z = T-Y.
outside(X) :- \\+ X > 3, X < 10.
range(X, Y) :- ( X > 0, X < 10 -> Y = in ; Y = out ).
lazy_test(X, Y) :- ( X > 0, X < foo -> Y = in ; Y = out ).
then_more(X, Y) :- ( X > 0 -> Z is X + 1, ( Z > 5 -> Y = big(Z) ; Y = small(Z) ) ; Y = none ).
modulo(X, Y, Z) :- Z is X mod Y.
times(X, Y, Z) :- Z is X * Y + 1.
divides(X, Y, R) :- ( X mod Y =:= 0 -> R = yes ; R = no ).
quotient(X, Y, Q) :- Q is X // Y.
neck(X, Y) :- X > 0, !, Y = pos.
neck(_, other).
neck_only(_, Y) :- !, Y = first.
neck_only(_, second).
count(N, N) :- !.
count(I, N) :- I1 is I + 1, count(I1, N).
count_lt(I, N) :- I < N, I1 is I + 1, count_lt(I1, N).
count_lt(N, N).
count_ite(I, N) :- ( I >= N -> true ; I1 is I + 1, count_ite(I1, N) ).
"""

QUERIES = [
    "succ_of(1, Y)", "succ_of(1, 2)", "succ_of(1, 3)", "succ_of(1, 2.0)", "succ_of(1.5, Y)",
    "double(3, Y)", "small(2)", "small(12)", "small(11)", "member(X, [1, 5, 10, 12]), small(X)",
    "member(X, [3, -2, 0]), sign(X, S)", "first_even([1, 3, 4, 6], E)", "first_even([1], E)",
    "pick(X)", "cut_then(1, Y)", "cut_then(0, Y)", "cut_else(1, Y)", "cut_else(0, Y)",
    "no_member(4, [1, 2])", "no_member(1, [1, 2])", "only_if(2)", "only_if(0)",
    "member(X, [9, 6, 0, 2]), nested(X, Y)", "branches(X, Y)", "at_head(X, 3)",
    "member(X, [3, -1]), classify(X, y, Z)", "outside(2)", "outside(5)", "outside(12)",
    "member(X, [5, 0, 10]), range(X, Y)", "lazy_test(-1, Y)", "member(X, [9, 2, -4]), then_more(X, Y)",
    "modulo(7, 3, Z)", "modulo(-7, 3, Z)", "modulo(7, -3, Z)", "times(3, 4, Z)",
    "times(4611686018427387904, 4611686018427387904, Z)", "divides(6, 3, R)", "divides(7, 3, R)",
    "quotient(7, 2, Q)", "quotient(-7, 2, Q)", "quotient(7, -2, Q)", "quotient(-7, -2, Q)",
    "member(X, [2, -2, 1.5, -1.5]), neck(X, Y)", "neck_only(a, Y)", "neck_only(a, second)",
    "count(0, 50)", "count_lt(0, 50)", "count_ite(0, 50)", "count_lt(5, 2)",
]


@needs_swipl
@pytest.mark.parametrize("query", QUERIES)
def test_compiled_bodies_answer_as_swi(query):
    assert answer_rows(consult_text(PROGRAM), query) == swi_rows(PROGRAM, query)


@pytest.mark.parametrize("query, message", [
    ("succ_of(X, Y)", "not sufficiently instantiated"),
    ("succ_of(a, Y)", "a/0"),
    ("sign(foo, S)", "foo/0"),
    ("count_ite(0, bar)", "bar/0"),
    ("lazy_test(1, Y)", "foo/0"),
    ("modulo(7, 0, Z)", "zero_divisor"),
    ("divides(7, 0, R)", "zero_divisor"),
    ("modulo(7.0, 2, Z)", "integer"),
    ("quotient(7, 0, Z)", "zero_divisor"),
    ("range(X, Y)", "not sufficiently instantiated"),
])
def test_arithmetic_errors_are_raised_where_the_goal_is(query, message):
    with pytest.raises(PrologError, match=message):
        consult_text(PROGRAM).query(query)


def test_an_error_in_a_later_clause_waits_for_that_clause():
    # the second clause's test is run when the call is made, its error only when it is reached
    program = consult_text("p(X, Y) :- X > 0, !, Y = pos. p(X, bad) :- _ is X + foo.")
    assert program.query("p(1, Y)") == [{"Y": "pos"}]
    with pytest.raises(PrologError, match="foo/0"):
        program.query("p(-1, Y)")


#: Peak resident memory (KB) of a process counting to N by a deterministic tail call.
_PEAK = """
import resource, sys
from logicpy.prolog import Program, consult_text
program = consult_text('''%s''')
assert program.query("%s(0, %d)", 1) == [{}]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_kb(predicate: str, n: int) -> int:
    clauses = "\n".join(line for line in PROGRAM.splitlines() if line.startswith(predicate + "("))
    done = subprocess.run([sys.executable, "-c", _PEAK % (clauses, predicate, n)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("predicate", ["count", "count_lt", "count_ite"])
def test_a_deterministic_tail_call_runs_in_constant_memory(predicate):
    # 10^5 calls and twice as many: the peak barely moves (linear growth would add ~100 MB)
    small, large = _peak_kb(predicate, 100_000), _peak_kb(predicate, 200_000)
    assert large < small + 20_000, (small, large)


@pytest.mark.slow
def test_a_count_to_a_million_stays_under_150_mb():
    assert _peak_kb("count", 1_000_000) < 150_000


def test_if_then_else_in_the_interleaved_order_commits_as_condu():
    # the same compiled clause in both orders: the condition's first answer, then Then
    text = "first(Xs, Y) :- ( member(X, Xs) -> Y = X ; Y = none )."
    for order in ("prolog", "interleaved"):
        program = Program(order=order).consult_text(text)
        assert program.query("first([a, b], Y)") == [{"Y": "a"}]
        assert program.query("first([], Y)") == [{"Y": "none"}]
