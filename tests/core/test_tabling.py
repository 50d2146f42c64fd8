"""tabled: answers equal the untabled relation's, each variant solved once, constraints respected."""

from __future__ import annotations

import pytest

from logicpy.core import appendo, conde, eq, lall, membero, neq, run, tabled, var, vars
from logicpy.core.terms import is_var
from logicpy.errors import ModeError


def make_counted():
    calls = []

    def splito(xs, a, b):
        calls.append(1)
        return appendo(a, b, xs)

    return splito, tabled(splito), calls


def test_answers_match_the_untabled_relation_and_variants_share_a_table():
    plain, memo, calls = make_counted()
    a, b, c, d = vars(4)
    expected = run(0, (a, b), plain([1, 2, 3], a, b))
    assert run(0, (a, b), memo([1, 2, 3], a, b)) == expected
    assert run(0, (c, d), memo([1, 2, 3], c, d)) == expected  # a variant: replayed
    assert memo.stats.misses == 1 and memo.stats.hits == 1
    assert len(calls) == 2  # one by `plain`, one by the tabled miss


def test_different_calls_get_different_entries():
    _, memo, _ = make_counted()
    a, b = vars(2)
    assert run(0, a, memo([1, 2], a, [2])) == ([1],)
    assert run(0, a, memo([1, 2], a, [1])) == ()
    assert memo.stats.misses == 2


def test_replay_respects_the_callers_constraints_and_bindings():
    _, memo, _ = make_counted()
    a, b = vars(2)
    assert run(0, a, neq(a, []), memo([1, 2], a, b), neq(b, [])) == ([1],)
    assert run(0, b, eq(a, [1]), memo([1, 2], a, b)) == ([2],)


def test_answers_with_unbound_variables_are_renamed_apart_on_each_replay():
    memo = tabled(lambda x, y: eq(x, ("pair", y, var())))
    p, q = vars(2)
    first, second = run(1, (p, q), memo(p, "k"), memo(q, "k"))[0]
    assert first[1] == second[1] == "k"
    assert first[2] is not second[2]  # two uses do not share the answer's inner variable


def test_answers_with_constraints_are_refused():
    memo = tabled(lambda x: neq(x, 1))
    with pytest.raises(ModeError, match="constraints"):
        run(0, var(), memo(var()))


def test_recursive_call_of_an_unfinished_variant_is_answered():
    """Was refused with ModeError by the memoising `tabled` (issue 12 asks for completion)."""
    @tabled
    def patho(x, y):
        return conde([eq((x, y), ("a", "b"))], [lall(patho(x, var()), eq(y, "c"))])

    y = var()
    assert sorted(run(0, y, patho("a", y))) == ["b", "c"]


def test_clear_empties_the_table():
    _, memo, calls = make_counted()
    a, b = vars(2)
    run(0, a, memo([1], a, b))
    memo.clear()
    run(0, a, memo([1], a, b))
    assert memo.stats.misses == 1 and len(calls) == 2


def test_answers_are_a_set_as_in_swi():
    """A table holds each answer once (SWI: `:- table p/1. p(1). p(1).` answers p(1) once);
    the memoising `tabled` replayed duplicates."""
    memo = tabled(lambda x: membero(x, [1, 2, 1]))
    q = var()
    assert run(0, q, memo(1)) == (q,)
    assert run(0, q, memo(5)) == ()
    assert run(0, q, memo(q)) == (1, 2)


# ---------------------------------------------------------------- completion (SLG answer tables)

import functools  # noqa: E402
import random  # noqa: E402
from pathlib import Path  # noqa: E402

from logicpy.core import Table, relation  # noqa: E402

TABLING_PL = Path(__file__).resolve().parents[2] / "logicpy" / "data" / "prolog" / "tabling.pl"


def closure(edges):
    """The transitive closure of `edges`, by plain Python (the independent answer)."""
    succ: dict = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    pairs = set()
    for start in {a for a, _ in edges}:
        seen, todo = set(), [start]
        while todo:
            for nxt in succ.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        pairs |= {(start, s) for s in seen}
    return pairs


def left_recursive_path(edges):
    edge = Table.from_rows("edge", edges, arity=2)

    @tabled
    def patho(x, y):
        z = var()
        return conde([patho(x, z), edge(z, y)], [edge(x, y)])

    return patho


CYCLE_50 = [(i, (i + 1) % 50) for i in range(50)]


def test_left_recursion_on_a_cycle_of_50_in_every_mode():
    patho = left_recursive_path(CYCLE_50)
    x, y = vars(2)
    assert set(run(0, (x, y), patho(x, y))) == closure(CYCLE_50) and len(closure(CYCLE_50)) == 2500
    assert sorted(run(0, y, patho(7, y))) == list(range(50))
    assert sorted(run(0, x, patho(x, 7))) == list(range(50))
    assert run(0, x, patho(3, 4), eq(x, 1)) == (1,)


def test_left_recursion_on_a_random_graph_of_1000_edges_equals_the_python_closure():
    rng = random.Random(12)
    edges = list({(rng.randrange(400), rng.randrange(400)) for _ in range(1_000)})
    patho = left_recursive_path(edges)
    expected = closure(edges)
    y = var()
    for start in (0, 1, 57, 399):
        assert set(run(0, y, patho(start, y))) == {b for a, b in expected if a == start}


@pytest.mark.slow
def test_full_closure_of_a_random_graph_of_1000_edges():
    rng = random.Random(12)
    edges = list({(rng.randrange(400), rng.randrange(400)) for _ in range(1_000)})
    x, y = vars(2)
    assert set(run(0, (x, y), left_recursive_path(edges)(x, y))) == closure(edges)


PARENT = [("ann", "bob"), ("ann", "cat"), ("bob", "dan"), ("bob", "eve"), ("cat", "fay"), ("fay", "gus"),
          ("dan", "hal")]
parent = Table.from_rows("parent", PARENT)
PEOPLE = sorted({p for pair in PARENT for p in pair})


@tabled
def sgo(x, y):
    """Same generation: x and y are the same person, or children of same-generation parents."""
    xp, yp = vars(2)
    return conde([membero(x, PEOPLE), eq(x, y)], [parent(xp, x), sgo(xp, yp), parent(yp, y)])


G = Table.from_rows("g", [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])


@tabled
def even_patho(x, y):
    z = var()
    return conde([membero(x, ["a", "b", "c", "d"]), eq(x, y)], [odd_patho(x, z), G(z, y)])


@tabled
def odd_patho(x, y):
    z = var()
    return lall(even_patho(x, z), G(z, y))


def test_same_generation():
    x, y = vars(2)
    got = set(run(0, (x, y), sgo(x, y)))
    depth = {"ann": 0, "bob": 1, "cat": 1, "dan": 2, "eve": 2, "fay": 2, "gus": 3, "hal": 3}
    assert got == {(a, b) for a in depth for b in depth if depth[a] == depth[b]}


def test_mutual_recursion():
    y = var()
    # from a: the cycle a-b-c has length 3, so every node of it is reached both ways
    assert sorted(run(0, y, even_patho("a", y))) == ["a", "b", "c", "d"]
    assert sorted(run(0, y, odd_patho("d", y))) == []
    assert sorted(run(0, y, odd_patho("c", y))) == ["a", "b", "c", "d"]


def test_a_stopped_run_leaves_no_incomplete_table():
    patho = left_recursive_path(CYCLE_50)
    y = var()
    assert len(run(3, y, patho(0, y))) == 3
    assert sorted(run(0, y, patho(0, y))) == list(range(50))
    assert sorted(run(0, y, patho(0, y))) == list(range(50)) and patho.stats.hits >= 1


def test_a_tabled_relation_decorated_with_relation_inside():
    @relation
    def stepo(x, y):
        return conde([eq((x, y), (1, 2))], [eq((x, y), (2, 1))])

    @tabled
    def reacho(x, y):
        z = var()
        return conde([stepo(x, y)], [reacho(x, z), stepo(z, y)])

    y = var()
    assert sorted(run(0, y, reacho(1, y))) == [1, 2]


CYCLE_PATH = left_recursive_path(CYCLE_50)


@functools.lru_cache(maxsize=None)
def _tabling_module():
    """prolog/tabling.pl, consulted once: SWI 9.0 loses a file's `:- table` wrappers when
    the bridge consults it again (the second query recursed without end)."""
    from logicpy import swi

    return swi.consult(TABLING_PL)


def cycle_path(x, y):
    return CYCLE_PATH(x, y)


def sg(x, y):
    return sgo(x, y)


def even_path(x, y):
    return even_patho(x, y)


@pytest.mark.swi
@pytest.mark.parametrize("relation_fn, goal, answers", [
    (cycle_path, "cycle_path(3, Y)", 50),
    (cycle_path, "cycle_path(X, 3)", 50),
    (sg, "sg(X, Y)", 1 + 4 + 9 + 4),
    (even_path, "even_path(X, Y)", None),
])
def test_tabled_relations_agree_with_swi_tabling(relation_fn, goal, answers):
    from logicpy.crosscheck import crosscheck

    report = crosscheck(relation_fn, _tabling_module(), goal, timeout=20)
    assert report.agree, report.render_text()
    if answers is not None:
        assert report.common == answers


# ---------------------------------------------------------------- negation and committed choice read complete tables

import io  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402

from logicpy.core import SearchTimeout, conda, condu, fail, onceo, project, succeed  # noqa: E402
from logicpy.repl import Toplevel, run_piped  # noqa: E402

CHAIN = [("a", "b"), ("b", "c"), ("c", "d")]
G_EDGES = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
chain_path = left_recursive_path(CHAIN)
g_path = left_recursive_path(G_EDGES)


def nott(goal):
    """Negation as failure (Prolog's \\+): the committed choice the toplevel builds for it."""
    return conda([goal, fail], [succeed])


def test_negation_of_a_table_still_being_filled_waits_for_its_completion():
    """`path(a,X), \\+ path(a,X)`: the negated call needs path(a,_), whose table the query is
    still consuming; it was refused ("still being evaluated by another search")."""
    patho = left_recursive_path(CHAIN)
    x, y = vars(2)
    assert run(0, x, patho("a", x), nott(patho("a", x))) == ()
    assert sorted(run(0, x, patho("a", x), nott(patho(x, "a")))) == ["b", "c", "d"]
    assert run(0, x, patho("a", x), nott(patho(x, "d"))) == ("d",)
    assert sorted(run(0, (x, y), patho(x, y), nott(patho(y, x)))) == sorted(closure(CHAIN))
    # on a graph with a cycle only the pairs into d are one-way (SWI: a-d, b-d, c-d)
    assert sorted(run(0, (x, y), g_path(x, y), nott(g_path(y, x)))) == [("a", "d"), ("b", "d"), ("c", "d")]


def test_negation_first_evaluates_the_negated_table_to_completion():
    """The negated call comes first: its evaluation completes inside the negation."""
    patho = left_recursive_path(G_EDGES)
    x = var()
    assert run(0, x, membero(x, ["a", "b", "c", "d"]), nott(patho(x, "a"))) == ("d",)
    # each node n: path(n,a), and path(n,_) its left recursion calls, each evaluated once
    assert patho.stats.misses == 8
    assert run(0, x, membero(x, ["a", "b", "c", "d"]), nott(patho(x, "a"))) == ("d",)
    assert patho.stats.misses == 8  # complete tables, replayed


def test_once_and_if_then_else_read_a_complete_table():
    patho = left_recursive_path(CHAIN)
    x, q = vars(2)
    (first,) = run(0, x, onceo(patho("a", x)))
    assert first in ("b", "c", "d")
    assert run(0, q, condu([patho("d", x), eq(q, "out")], [eq(q, "none")])) == ("none",)
    assert sorted(run(0, x, conda([patho("b", x)], [eq(x, "none")]))) == ["c", "d"]


def test_a_stratified_negation_inside_a_tabled_relation():
    """A tabled relation negating another tabled relation (a lower stratum)."""
    patho = left_recursive_path(CHAIN)

    @tabled
    def unreachedo(x):
        return lall(membero(x, ["a", "b", "c", "d"]), nott(patho("a", x)))

    x = var()
    assert run(0, x, unreachedo(x)) == ("a",)


def twice_and_farthest():
    """SWI: `twice(X) :- chain_path(a,X), \\+ chain_path(a,X).` and
    `farthest(X) :- chain_path(a,X), \\+ (chain_path(a,Y), chain(X,Y)).`, tabled."""
    patho = left_recursive_path(CHAIN)
    chain = Table.from_rows("chain", CHAIN)

    @tabled
    def twiceo(x):
        return lall(patho("a", x), nott(patho("a", x)))

    @tabled
    def farthesto(x):
        return lall(patho("a", x), nott(lall(patho("a", var()), chain(x, var()))))

    return patho, twiceo, farthesto


def test_negation_inside_a_tabled_relation_of_a_table_its_evaluation_is_filling():
    """The negated call needs path(a,_), which the same evaluation is still filling: it is
    evaluated afresh apart, to completion, and that complete copy then completes the table."""
    patho, twiceo, farthesto = twice_and_farthest()
    x = var()
    assert run(0, x, twiceo(x)) == ()
    assert run(0, x, farthesto(x)) == ("d",)
    assert sorted(run(0, x, patho("a", x))) == ["b", "c", "d"]


@pytest.mark.swi
def test_negation_inside_a_tabled_relation_agrees_with_swi():
    _, twiceo, farthesto = twice_and_farthest()
    x = var()
    for name, relation_fn in (("twice", twiceo), ("farthest", farthesto)):
        swi = sorted(a["X"] for a in _tabling_module().query(f"{name}(X)"))
        assert sorted(run(0, x, relation_fn(x))) == swi


def test_a_table_negating_itself_is_refused_in_one_line():
    """p(X) :- member(X, [1,2]), \\+ p(X): not stratified (SWI needs well-founded semantics,
    tnot/1, for it); the message names the call."""
    @tabled
    def selfo(x):
        return lall(membero(x, [1, 2]), nott(selfo(x)))

    with pytest.raises(ModeError, match=r"selfo\(1\) depends on itself through a negation.*not stratified"):
        run(0, var(), selfo(var()))


def test_two_callers_outside_one_evaluation_share_it():
    """Both branches call the variant being filled: they step the same evaluation, which is
    made once, and each reads the complete table."""
    patho = left_recursive_path(G_EDGES)
    x, tag = vars(2)
    got = run(0, (x, tag), conde([patho("a", x), eq(tag, 1)], [patho("a", x), eq(tag, 2)]))
    assert sorted(got) == sorted((n, t) for n in "abcd" for t in (1, 2))
    assert patho.stats.misses == 1
    # a condition dropped after its first answer leaves only complete tables behind
    patho.clear()
    assert len(run(0, x, onceo(conde([patho("b", x)], [patho("c", x)])))) == 1
    assert sorted(run(0, x, patho("b", x))) == ["a", "b", "c", "d"]


@tabled
def nato(n):
    """An endless table: every natural number."""
    m = var()
    return conde([eq(n, 0)], [nato(m), project(m)(lambda k: eq(n, k + 1))])


def test_an_endless_table_takes_turns_with_the_other_branches_and_heeds_the_time_limit():
    x, q = vars(2)
    assert run(1, q, conde([nato(x), eq(q, "table")], [eq(q, "other")])) == ("other",)
    with pytest.raises(SearchTimeout):
        run(1, x, nato(x), timeout=0.3)
    # the unfinished evaluations were dropped: a later call starts afresh
    assert run(1, q, conde([nato(x), eq(q, "table")], [eq(q, "other")])) == ("other",)


PATHS_MODULE = '''
from logicpy.core import Table, conde, tabled, var

chain = Table.from_rows("chain", {chain!r})
g = Table.from_rows("g", {g!r})


@tabled
def chain_path(x, y):
    z = var()
    return conde([chain_path(x, z), chain(z, y)], [chain(x, y)])


@tabled
def g_path(x, y):
    z = var()
    return conde([g_path(x, z), g(z, y)], [g(x, y)])


__all__ = ["chain_path", "g_path"]
'''

NEGATION_QUERIES = [
    ("chain_path(a,X), \\+ chain_path(X,a)", ["X = b", "X = c", "X = d"]),
    ("chain_path(a,X), \\+ chain_path(a,X)", []),
    ("chain_path(a,X), \\+ chain_path(X,d)", ["X = d"]),
    ("g_path(X,Y), \\+ g_path(Y,X)", ["X = a, Y = d", "X = b, Y = d", "X = c, Y = d"]),
    ("g_path(a,X), ( g_path(X,a) -> Y = back ; Y = away )",
     ["X = a, Y = back", "X = b, Y = back", "X = c, Y = back", "X = d, Y = away"]),
]


@pytest.fixture()
def paths_toplevel(tmp_path, monkeypatch):
    (tmp_path / "tabled_paths.py").write_text(textwrap.dedent(PATHS_MODULE.format(chain=CHAIN, g=G_EDGES)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "tabled_paths", raising=False)  # fresh tables for every query

    def ask(query):
        out, err = io.StringIO(), io.StringIO()
        run_piped(Toplevel(out=out, err=err), io.StringIO(f"use_module('tabled_paths').\n{query}.\n"))
        assert err.getvalue() == ""
        lines = out.getvalue().splitlines()
        assert lines[:2] == ["% 2 relations from tabled_paths: chain_path, g_path", "true."]
        assert lines[-1] == "false." or lines[-1].endswith(".") and not lines[-1].endswith(" .")
        return sorted(line.rstrip(" ;.") for line in lines[2:] if line != "false.")

    return ask


@pytest.mark.parametrize("query, expected", NEGATION_QUERIES)
def test_the_toplevel_negates_and_tests_tabled_relations_as_swi_does(paths_toplevel, query, expected):
    """The answers SWI-Prolog gives for the same tabled program (prolog/tabling.pl)."""
    assert paths_toplevel(query) == expected


@pytest.mark.swi
@pytest.mark.parametrize("query", [q for q, _ in NEGATION_QUERIES])
def test_the_negation_queries_agree_with_swi(paths_toplevel, query):
    from logicpy.core import format_term

    answers = _tabling_module().query(query)
    swi_lines = sorted(", ".join(f"{name} = {format_term(value)}" for name, value in a.items()) for a in answers)
    assert paths_toplevel(query) == swi_lines


# ---------------------------------------------------------------- flat calls and ground answers


def test_atoms_and_numbers_of_equal_value_are_different_calls_and_answers():
    """1, True, 1.0 and "1" are four Prolog terms: four variants, four answers."""
    memo = tabled(lambda x: membero(x, [1, True, 1.0, "1", 1]))
    q = var()
    answers = run(0, q, memo(q))
    assert [(type(a), a) for a in answers] == [(int, 1), (bool, True), (float, 1.0), (str, "1")]
    for value in (1, True, 1.0, "1"):
        (only,) = run(0, q, memo(value), eq(q, "yes"))
        assert only == "yes"
    assert run(0, q, memo(2)) == ()
    assert memo.stats.misses == 6


def test_a_variant_is_one_entry_whatever_the_callers_state_holds():
    """The same variant called from a plain substitution, through bound variables, and from
    a state with constraints or the occurs check shares one table."""
    patho = left_recursive_path(CYCLE_50)
    x, y, z = vars(3)
    expected = list(range(50))
    assert sorted(run(0, y, patho(7, y))) == expected
    assert sorted(run(0, y, eq(x, z), eq(z, 7), patho(x, y))) == expected
    assert sorted(run(0, y, patho(7, y), occurs_check=True)) == expected
    assert sorted(run(0, y, neq(y, 3), patho(7, y))) == [n for n in expected if n != 3]
    assert (patho.stats.misses, patho.stats.hits) == (1, 4)  # its own recursive call, then three replays


def test_a_call_with_a_repeated_variable_gets_only_the_answers_that_repeat_it():
    edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 4)]
    patho = left_recursive_path(edges)
    x, y = vars(2)
    on_cycles = sorted(a for a, b in closure(edges) if a == b)
    assert sorted(run(0, x, patho(x, x))) == on_cycles == [0, 1, 2, 4]
    assert sorted(run(0, (x, y), patho(x, y), patho(y, x))) == sorted(
        (a, b) for a, b in closure(edges) if (b, a) in closure(edges))


def test_compound_and_partial_answers_are_replayed_renamed_apart_in_a_flat_call():
    memo = tabled(lambda k, v: conde([eq(v, ("f", k, var()))], [eq(v, [k, 2.5])], [eq(v, k)]))
    v, w = vars(2)
    first, second = run(0, (v, w), memo("a", v), memo("a", w), eq(v, ("f", "a", 1)), eq(w, ("f", "a", 2)))[0]
    assert first == ("f", "a", 1) and second == ("f", "a", 2)
    found = run(0, v, memo("a", v))
    assert len(found) == 3 and "a" in found and ["a", 2.5] in found
    (compound,) = [t for t in found if type(t) is tuple]
    assert compound[:2] == ("f", "a") and is_var(compound[2])


def test_left_recursion_in_prolog_order_equals_the_interleaved_answers():
    rng = random.Random(3)
    edges = list({(rng.randrange(60), rng.randrange(60)) for _ in range(150)})
    x, y = vars(2)
    interleaved = run(0, (x, y), left_recursive_path(edges)(x, y))
    prolog = run(0, (x, y), left_recursive_path(edges)(x, y), order="prolog")
    assert set(interleaved) == set(prolog) == closure(edges)
    assert len(interleaved) == len(prolog) == len(closure(edges))


CUT_AFTER_TABLED = """
:- table t/2.
t(X, Y) :- t(X, Z), e(Z, Y).
t(X, Y) :- e(X, Y).
e(a, b).
e(b, c).
e(c, d).
e(c, a).
:- table p/1.
p(Y) :- t(a, Y), !.
q(Y) :- t(a, Y), !.
"""


def test_a_cut_after_a_tabled_call_keeps_one_of_its_answers():
    """In a tabled clause too, whose producer consumes the table of t(a,_) while filling it
    in the same evaluation (it gave every answer of t(a,_) when each was a task of its own)."""
    from logicpy.prolog import consult_text

    program = consult_text(CUT_AFTER_TABLED)
    for goal in ("p(Y)", "q(Y)"):
        answers = program.query(goal)
        assert len(answers) == 1 and answers[0]["Y"] in {"a", "b", "c", "d"}, goal
    assert sorted(a["Y"] for a in program.query("t(a, Y)")) == ["a", "b", "c", "d"]


@pytest.mark.swi
def test_a_cut_after_a_tabled_call_agrees_with_swi_on_the_number_of_answers(tmp_path):
    from logicpy import swi
    from logicpy.prolog import consult_text

    path = tmp_path / "cut_after_tabled.pl"
    path.write_text(CUT_AFTER_TABLED)
    swi_module, program = swi.consult(path), consult_text(CUT_AFTER_TABLED)
    for goal in ("p(Y)", "q(Y)", "t(a, Y)"):
        assert len(program.query(goal)) == len(swi_module.query(goal)), goal
