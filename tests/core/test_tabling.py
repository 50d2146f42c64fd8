"""tabled: answers equal the untabled relation's, each variant solved once, constraints respected."""

from __future__ import annotations

import pytest

from logicpy.core import appendo, conde, eq, lall, membero, neq, run, tabled, var, vars
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

TABLING_PL = Path(__file__).resolve().parents[2] / "prolog" / "tabling.pl"


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
