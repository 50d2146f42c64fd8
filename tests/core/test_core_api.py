"""`logicpy.core` is one import: kanren's API, logicpy's replacements, logicpy's relations."""

from __future__ import annotations

import kanren

import logicpy.core as core
from logicpy.core import appendo, eq, run, var


def test_all_names_are_importable():
    for name in core.__all__:
        assert getattr(core, name) is not None, name
    assert len(set(core.__all__)) == len(core.__all__)


def test_kanren_names_are_kanrens_own():
    for name in ["conso", "heado", "tailo", "nullo", "isvar"]:
        assert getattr(core, name) is getattr(kanren, name), name
    assert core.fail is kanren.core.fail and core.succeed is kanren.core.succeed


def test_the_search_names_are_logicpys_own_streams():
    """run, eq, conde, lall, lany and Zzz are logicpy.core.streams' (issue 12); kanren's stay reachable."""
    from logicpy.core import streams

    for name in ["run", "eq", "conde", "lall", "lany", "Zzz"]:
        assert getattr(core, name) is getattr(streams, name), name
        assert getattr(core, name) is not getattr(kanren.core, name), name


def test_logicpy_replacements_shadow_kanren_and_kanrens_stay_reachable():
    for name in ["var", "vars", "membero", "appendo", "rembero", "permuteo", "reify", "unify"]:
        assert getattr(core, name) is not getattr(kanren, name), name
    assert core.neq is not kanren.constraints.neq
    assert "Relation" not in core.__all__ and "facts" not in core.__all__


def test_var_is_always_fresh_unlike_kanrens():
    assert kanren.var("x") is kanren.var("x")  # the kanren 1.0.5 trap
    assert var("x") is not var("x")
    a, b = var("x"), var("x")
    assert run(0, (a, b), eq(a, 1)) == ((1, b),)


def test_the_repl_example_gives_the_four_splits():
    x, y = var(), var()
    assert run(0, (x, y), appendo(x, y, [1, 2, 3])) == (
        ([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))


def test_logicpy_goals_compose_with_kanrens():
    x, y = var(), var()
    got = run(0, (x, y), kanren.conde([core.membero(x, [1, 2])], [eq(x, 3)]), kanren.membero(y, [x]))
    assert sorted(got) == [(1, 1), (2, 2), (3, 3)]


def test_star_import_gives_the_tour_names():
    namespace: dict = {}
    exec("from logicpy.core import *", namespace)
    for name in ["run", "var", "eq", "neq", "appendo", "lengtho", "distincto", "Table", "unique_by", "onceo"]:
        assert name in namespace, name
    assert "vars" not in namespace  # Python's builtin stays itself
    from logicpy.core import vars as fresh

    assert len(set(fresh(3))) == 3


def test_neq_does_not_leak_into_the_next_conde_branch_unlike_kanrens():
    x = var()
    branches = [[core.neq(x, 1)], [eq(x, 1)]]
    assert sorted(run(0, x, core.neq(x, 3), core.conde(*branches), core.membero(x, [1, 2, 3]))) == [1, 2]
    # kanren 1.0.5: the neq of the first branch is added in place to the shared state
    leaky = [[kanren.constraints.neq(x, 1)], [eq(x, 1)]]
    assert sorted(run(0, x, kanren.constraints.neq(x, 3), core.conde(*leaky), core.membero(x, [1, 2, 3]))) == [2]


def test_relations_that_post_neq_leave_the_callers_state_alone():
    x = var()
    # rembero posts x =/= 5 before its answer x = 1; the other branch must still see x free
    got = run(0, x, core.neq(x, 3), core.conde([core.rembero(x, [5, 1], [5])], [eq(x, 5)]))
    assert sorted(got) == [1, 5]
    got = run(0, x, core.neq(x, 3), core.conde([core.distincto([x, 1])], [eq(x, 1)]))
    assert len(got) == 2 and 1 in got  # with kanren's neq the second branch is lost
