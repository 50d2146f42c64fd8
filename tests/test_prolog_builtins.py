"""The library built-ins on logicpy's engine: each query's answers, in order, its output
and its errors equal SWI-Prolog's; a few known answers checked without SWI-Prolog."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from contextlib import redirect_stdout

import pytest
from cons.core import ConsPair

from logicpy.core.terms import format_term, is_var
from logicpy.errors import PrologError
from logicpy.prolog import consult_text
from logicpy.repl.reader import read_query

needs_swi = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")

PROGRAM = """
age(peter, 7). age(ann, 11). age(pat, 8). age(tom, 5). age(mike, 11).
parent(tom, bob). parent(tom, liz). parent(bob, ann). parent(bob, pat). parent(pat, jim).
double(X, Y) :- Y is 2 * X.
first_two([A, B | _], A, B).
by_age(O, A, B) :- age(A, X), age(B, Y), compare(O, X-A, Y-B).
"""

QUERIES = [
    # all solutions
    "findall(X, member(X, [c,a,b]), L)",
    "findall(X-Y, (member(X, [1,2]), member(Y, [a,b])), L)",
    "findall(X, (member(X, [1,2,3]), !), L)",
    "findall(X, member(X, [1,2]), L, [z])",
    "findall(X, fail, L)",
    "forall(member(_X, [1,2,3]), _X > 0)",
    "forall(member(_X, [1,2,3]), _X > 1)",
    "bagof(X, parent(P, X), L)",
    "bagof(X, P^parent(P, X), L)",
    "setof(X, Y^member(X-Y, [3-a, 2-b, 1-a, 3-c]), L)",
    "setof(Y-X, member(X-Y, [3-a, 2-b, 1-a]), L)",
    "setof(A-N, age(N, A), [_-Youngest|_])",
    "bagof(X, member(X, []), L)",
    "setof(N, A^age(N, A), L)",
    "aggregate_all(count, parent(_, _), N)",
    "aggregate_all(sum(_A), age(_, _A), S)",
    "aggregate_all(max(_A), age(_, _A), S)",
    "aggregate_all(bag(_N), age(_N, 11), S)",
    "aggregate_all(set(_A), age(_, _A), S)",
    # integers
    "between(1, 4, X)",
    "between(3, 1, X)",
    "between(1, 3, 2)",
    "between(1, inf, X), X > 3, !",
    "succ(X, 4)",
    "succ(3, X)",
    "succ(_X, 0)",
    "plus(1, X, 5)",
    "plus(X, 2, 5)",
    "numlist(1, 5, L)",
    "numlist(5, 1, L)",
    # sorting and the standard order
    "msort([b, [], \"s\", 1, 1.0, f(x), [1], a, g(a,b), '[]', 'A', 0.5, f(a,b), f(b)], L)",
    "sort([c,a,b,a,c], L)",
    "sort(0, @>=, [1,3,2,3], L)",
    "sort(0, @>, [1,3,2,3], L)",
    "sort(1, @<, [f(2,a),f(1,b),f(2,c)], L)",
    "sort(1, @=<, [f(2,a),f(1,b),f(2,c)], L)",
    "sort(2, @>=, [f(2,a),f(1,b),f(2,c)], L)",
    "predsort(by_age, [ann, tom, pat, mike], L)",
    "predsort([O,A,B]>>compare(O,A,B), [c,a,b,a], L)",
    "compare(O, 1, 1.0)",
    "compare(O, a, f(b))",
    "compare(O, f(b), g(a))",
    "compare(O, f(a,b), g(a))",
    "compare(O, \"abc\", abc)",
    "member(X, [1, a, f(x), 2.0, \"s\"]), X @< b",
    "a @< b, 1 @< a, f(a) @> a, 1.0 @< 1, f(a,b) @>= f(b), x @=< x",
    # lists
    "length(L, 2)",
    "memberchk(X, [a,b])",
    "memberchk(b, [a,b,c])",
    "reverse([1,2,3], L)",
    "nth0(1, [a,b,c], X)",
    "nth1(I, [a,b,c], X)",
    "nth0(I, [a,b,c], c)",
    "nth1(5, [a,b,c], X)",
    "nth0(2, L, x)",
    "last([1,2,3], X)",
    "last([], X)",
    "sum_list([1,2.5,3], S)",
    "sum_list([], S)",
    "sumlist([1,2], S)",
    "max_list([1,5,3], M)",
    "min_list([4,2,8], M)",
    "max_list([], M)",
    "append([[1],[2,3],[]], L)",
    "select(X, [a,b,c], R)",
    "select(x, L, [a,b])",
    "selectchk(b, [a,b,c,b], R)",
    "subtract([1,2,3,4], [2,4], R)",
    "ord_subtract([1,2,3,4], [2,4], R)",
    "ord_union([1,3], [2,3], R)",
    "ord_subset([1,3], [1,2,3])",
    "ord_subset([1,4], [1,2,3])",
    "ord_memberchk(2, [1,2,3])",
    "list_to_set([a,b,a,c,b], S)",
    # apply
    "maplist(succ, [1,2,3], L)",
    "maplist(double, [1,2,3], L)",
    "maplist(=(a), L), length(L, 2), !",
    "maplist([X,Y,Z]>>(Z is X+Y), [1,2], [3,4], L)",
    "maplist([X]>>(X > 0), [1,2])",
    "maplist([X]>>(X > 1), [1,2])",
    "maplist([X,Y,Z,W]>>(W is X*Y*Z), [1,2], [3,4], [5,6], L)",
    "maplist(succ, L, [1,2])",
    "foldl([X,A0,A]>>(A is A0+X), [1,2,3], 0, S)",
    "foldl(plus, [1,2,3], 0, S)",
    "foldl([X,Y,A0,A]>>(A is A0+X*Y), [1,2], [3,4], 0, S)",
    "foldl([X,Y,Z,A0,A]>>(A is A0+X*Y*Z), [1,2], [3,4], [5,6], 0, S)",
    "include(integer, [a,1,b,2], L)",
    "exclude(integer, [a,1,b,2], L)",
    "partition(integer, [a,1,b,2], I, E)",
    "partition([X]>>(X < 3), [1,5,2,4], I, E)",
    "include([X]>>member(X-_, [a-1, c-3]), [a,b,c], L)",
    # terms
    "copy_term(f(X,_Y,X), C), C = f(1, 2, Z)",
    "copy_term([A-B, B], [1-2, C])",
    "X = f(Y), Y == Y, X \\== f(_Z), X == f(Y)",
    "functor(foo(a,b), N, A)",
    "functor(T, foo, 2)",
    "functor([a], N, A)",
    "functor(abc, N, A)",
    "functor(T, abc, 0)",
    "functor(T, 7, 0)",
    "arg(N, f(a,b), X)",
    "arg(2, f(a,b), X)",
    "arg(3, f(a,b), X)",
    "f(a,b) =.. L",
    "T =.. [g, 1, 2]",
    "T =.. [x]",
    "[1,2] =.. L",
    "1.5 =.. L",
    "var(_X), nonvar(a), atom(a), \\+ atom([]), \\+ atom(\"s\"), atomic([]), atomic(\"s\"), atomic(1)",
    "number(1.5), integer(3), \\+ integer(3.0), float(3.0), compound(f(x)), compound([1]), \\+ compound([])",
    "callable(a), callable(f(x)), \\+ callable(1), is_list([1]), \\+ is_list([1|_]), is_list([]), ground(f(a))",
    "X = Y, var(X), \\+ ground(f(X))",
    "member(X, [a, 1, f(x), [], \"s\", 2.5]), atomic(X)",
    # atoms and strings
    "atom_codes(abc, L)",
    "atom_codes(X, [104,105])",
    "atom_codes(12, L)",
    "atom_chars(X, [a,b])",
    "atom_chars(abc, L)",
    "atom_chars(X, ['1', '2']), atom(X)",
    "atom_length(hello, N)",
    "atom_length('', N)",
    "atom_length(1, N)",
    "atom_length(hello, 5)",
    "atom_concat(ab, cd, X)",
    "atom_concat(X, Y, abc)",
    "atom_concat(X, cd, abcd)",
    "atom_concat(ab, 12, X)",
    "sub_atom(abcab, B, 2, A, S)",
    "sub_atom(abcab, B, L, A, ab)",
    "sub_atom(abc, B, L, A, S)",
    "sub_atom(hello, 1, 3, A, S)",
    "sub_atom(hello, B, 2, 0, S)",
    "number_codes(X, [49,50])",
    "number_codes(12, L)",
    "number_codes(X, \"3.25\")",
    "atom_number('12', X)",
    "atom_number('-7', X)",
    "atom_number('2.5e3', X)",
    "atom_number(foo, X)",
    "atom_number(X, 3.5)",
    "char_code(a, X)",
    "char_code(X, 98)",
    "string_chars(\"abc\", C)",
    "string_chars(S, [a,b])",
    "string_codes(S, [104,105])",
    "atom_string(A, \"xy\")",
    "atom_string(xy, S)",
    "string_length(\"hello\", N)",
    "string_concat(\"ab\", \"cd\", S)",
    "string_to_atom(\"ab\", A)",
]


def names(query: str) -> list[str]:
    return [n for n in read_query(query)[1] if not n.startswith("_")]


def unnamed(text: str) -> str:
    """An answer with its unbound variables all written `_`."""
    return re.sub(r"\b_[A-Za-z0-9]*\b", "_", text)


def canonical(term: object) -> str:
    """`term` as SWI's write_canonical/1 writes it: a variable met twice A, B, ..., else `_`."""
    seen: dict = {}
    stack = [term]
    while stack:
        t = stack.pop()
        if is_var(t):
            seen[t] = seen.get(t, 0) + 1
        elif isinstance(t, (list, tuple)):
            stack.extend(t)
        elif isinstance(t, ConsPair):
            stack.extend((t.car, t.cdr))
    shared = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return format_term(term, {v: next(shared) if k > 1 else "_" for v, k in seen.items()})


def logicpy_answers(query: str, n: int = 40) -> list[str]:
    program = consult_text(PROGRAM)
    return [canonical([a[v] for v in names(query)]) for a in program.query(query, n)]


def swi(goal: str, tmp_path) -> subprocess.CompletedProcess:
    source = tmp_path / "program.pl"
    source.write_text(PROGRAM)
    return subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(source)],
                          capture_output=True, text=True, timeout=60)


def swi_answers(query: str, tmp_path, n: int = 40) -> list[str]:
    template = "[" + ",".join(names(query)) + "]"
    done = swi(f"forall(limit({n}, ({query})), (write_canonical({template}), nl))", tmp_path)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [unnamed(line) for line in done.stdout.split()]


@needs_swi
@pytest.mark.parametrize("query", QUERIES)
def test_answers_are_swi_prologs(query, tmp_path):
    assert logicpy_answers(query) == swi_answers(query, tmp_path)


def test_known_answers():
    assert logicpy_answers("findall(_X-_Y, (member(_X, [1,2]), member(_Y, [a])), L)") == ["[[-(1,a),-(2,a)]]"]
    assert logicpy_answers("setof(_X, _Y^member(_X-_Y, [b-1, a-2, b-3]), L)") == ["[[a,b]]"]
    assert logicpy_answers("bagof(_X, member(_X-Y, [1-a, 2-b, 3-a]), L)") == ["[a,[1,3]]", "[b,[2]]"]
    assert logicpy_answers("msort([f(a), b, 2, \"s\", 1.0, _], L)") == ['[[_,1.0,2,"s",b,f(a)]]']
    assert logicpy_answers("between(1, 3, X)") == ["[1]", "[2]", "[3]"]
    assert logicpy_answers("foldl([_X,_A0,_A]>>(_A is _A0*_X), [1,2,3,4], 1, P)") == ["[24]"]
    assert logicpy_answers("sub_atom(abc, B, 1, A, S)") == ["[0,2,a]", "[1,1,b]", "[2,0,c]"]
    assert logicpy_answers("T =.. [point, 1, 2], functor(T, N, A), arg(2, T, Y)") == ["[point(1,2),point,2,2]"]


# ---------------------------------------------------------------- output

OUTPUT = [
    "write(- (1)), nl, write(1 - -1), nl, write(a- (b-c)), nl, write(-(-(a))), nl, write([a-1,b=2]), nl",
    "write(f((a,b))), nl, write((a:-b,c;d->e)), nl, write(\\+a), nl, write(1+(-2)), nl, write(2*(3+4)), nl",
    "write(f(-)), nl, write(- a), nl, write(1 rem 2), nl, write('hello world'), nl, print('A b'), nl",
    "print([a='B c', \"s\"]), nl, write(f(',', '|', [])), nl, writeq(['A'|'B']), nl",
    "writeq(f(;, 'hello'(x), -(-(1)), - (-1), 1 - 2, a=..b)), nl, writeq('\\n'), nl",
    "write(1-(2-3)), write(' '), write((1-2)-3), write(' '), write(2^3^4), write(' '), write((2^3)^4), nl",
    "write(1.0), write(' '), write(-0.5), write(' '), write([a|b]), write(' '), write('{}'(x)), nl",
    "writeln(f(\"str\", 'A', [1,2])), tab(3), write(x), nl, tab(1+1), write(y), nl",
    "format(\"~w ~a ~d ~q ~p~n\", [f('A'), 'b c', 3, 'A b', 1+2*3])",
    "format(\"~s and ~e ~4f ~g~n\", [[104,105], 1.5, 2.0, 3.0])",
    "format(\"~a~t~20|~w~n\", [abc, def])",
    "format(\"~w~t~10+~w~t~10+~w~n\", [a,b,c])",
    "format(\"~t~w~10|~n\", [right])",
    "format(\"~t~d~6|~t~d~12|~n\", [1,22])",
    "format(\"~2d ~D~n\", [314, 1234567])",
    "format(\"hello~n\"), format(\"~w~n\", hello), format('~a~~~n', [x])",
    "format(\"~c~8|~r~n\", [65, 255])",
    "forall(member(X-Y, [a-1, b-2]), format(\"~w: ~w~n\", [X, Y]))",
]


@needs_swi
@pytest.mark.parametrize("goal", OUTPUT)
def test_output_is_swi_prologs(goal, tmp_path):
    out = io.StringIO()
    with redirect_stdout(out):
        assert len(consult_text(PROGRAM).query(goal, 1)) == 1
    done = swi(goal, tmp_path)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert out.getvalue() == done.stdout


def test_known_output():
    out = io.StringIO()
    with redirect_stdout(out):
        consult_text("").query("format(\"~w and ~a~t~12|~d~n\", [1+2*3, x, 5]), write([a-1, -(2)]), nl", 1)
    assert out.getvalue() == "1+2*3 and x 5\n[a-1,- 2]\n"


# ---------------------------------------------------------------- errors

ERRORS = [
    "atom_length(f(x), N)",
    "atom_length(X, N)",
    "between(a, 3, X)",
    "between(X, 3, Y)",
    "succ(X, a)",
    "succ(-1, X)",
    "succ(X, Y)",
    "functor(X, Y, Z)",
    "arg(x, f(a), X)",
    "atom_codes(X, Y)",
    "atom_chars(X, Y)",
    "msort(X, Y)",
    "msort(a, Y)",
    "atom_concat(X, Y, Z)",
    "numlist(a, 3, L)",
]


@needs_swi
@pytest.mark.parametrize("query", ERRORS)
def test_errors_are_swi_prologs(query, tmp_path):
    with pytest.raises(PrologError) as caught:
        consult_text(PROGRAM).query(query)
    done = swi(query, tmp_path)
    swi_line = next(line for line in done.stderr.splitlines() if "ERROR" in line)
    assert "ERROR: " + str(caught.value) in swi_line.replace("ERROR: -g " + query + ": ", "ERROR: ")


def test_error_terms():
    with pytest.raises(PrologError, match=r"atom_length/2: Type error: `text' expected, found `f\(x\)' \(a compound\)"):
        consult_text("").query("atom_length(f(x), N)")
    with pytest.raises(PrologError) as caught:
        consult_text("").query("succ(X, Y)")
    assert caught.value.term[1] == "instantiation_error"


# ---------------------------------------------------------------- a program of the repository


@needs_swi
@pytest.mark.slow
def test_calendar_program_answers_as_swi(tmp_path):
    """prolog/calendar.pl (findall, nth0, string_chars, ord sets, select, msort, atom_chars)."""
    from pathlib import Path

    from logicpy.prolog import consult
    path = Path(__file__).resolve().parent.parent / "logicpy" / "data" / "prolog" / "calendar.pl"
    query = "date_solution(10, 6, G)"
    got = [format_term(a["G"]) for a in consult(path).query(query, 2)]
    done = subprocess.run(["swipl", "-q", "-g", f"forall(limit(2, {query}), (write_canonical(G), nl))", "-t", "halt",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert got == done.stdout.splitlines() and len(got) == 2


def test_what_write_and_format_print_goes_to_the_toplevels_stream():
    # a Toplevel writing to a StringIO gets the output of write/format there, in order with
    # the answers; in JSON mode it is the query object's "output", never a stray line
    import io

    from logicpy.repl import Toplevel

    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.query("format('~w and ~a~n', [f(x), b]), X = 1.")
    assert top.out.getvalue().startswith("f(x) and b\nX = 1.\n")
    top = Toplevel(out=io.StringIO(), err=io.StringIO(), json=True)
    top.query("write(hello), nl, X = 1.")
    [line] = top.out.getvalue().splitlines()
    import json

    record = json.loads(line)
    assert record["output"] == "hello\n" and record["answers"][0]["bindings"] == {"X": 1}


def test_the_standard_order_compares_long_lists_without_recursion():
    # order keys are flat: a 3,000-element list (3,000 nested '[|]' cells) sorts as SWI sorts it
    import io

    from logicpy.repl import Toplevel

    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.query("numlist(1, 3000, L), msort([L, [1], [1,3], [1,2|T]], S), S = [A, B, C, D], length(D, N).")
    out = top.out.getvalue()
    assert "A = [1]" in out and "B = [1, 2|T]" in out and "C = [1, 2, 3" in out and "N = 2" in out, out[-300:]


def test_copy_term_of_a_long_partial_list():
    # copy_term renames by reification: a 3,000-cell partial list costs no recursion
    import io

    from logicpy.repl import Toplevel

    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    top.query("length(L0, 3000), append(L0, T, L), copy_term(L, C), C = [A|R], A \\== L0, R = [_|_], length(C, 3000).")
    assert "error" not in top.err.getvalue() + top.out.getvalue()
    assert top.out.getvalue().rstrip().endswith("].") and "C = [" in top.out.getvalue()
