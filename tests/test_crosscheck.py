"""Cross-checks of logicpy's list relations against SWI-Prolog's built-ins (prolog/lists.pl),
and proof that the cross-check reports a relation that is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kanren import conde, eq, lall
from kanren.constraints import neq

from logicpy.cli import main
from logicpy.core.lists import appendo, lengtho, membero, permuteo, selecto
from logicpy.crosscheck import CrosscheckReport, CrosscheckTimeout, crosscheck, resolve_relation
from logicpy.errors import InputError

pytestmark = pytest.mark.swi

LISTS_PL = Path(__file__).resolve().parent.parent / "prolog" / "lists.pl"


@pytest.mark.parametrize(
    "relation, goal, limit, answers",
    [
        (appendo, "append(X, Y, [1,2,3])", None, 4),
        (appendo, "append([a], Y, Z)", None, 1),
        (appendo, "append(X, [b], L)", 4, 4),  # partial lists, fresh variables on both sides
        (lengtho, "length(L, N)", 6, 6),  # infinite: bounded by the limit
        (lengtho, "length(L, 3)", None, 1),
        (lengtho, "length([a,b|T], N)", 3, 3),
        (selecto, "select(X, [a,b,c], R)", None, 3),
        (selecto, "select(b, L, [a,c])", None, 3),
        (permuteo, "permutation([1,2,3], P)", None, 6),  # 3! = 6
        (permuteo, "permutation(P, [a,b,c,d])", None, 24),
        (membero, "member(X, [a,b|T])", 4, 4),
    ],
)
def test_list_relations_agree_with_swi(relation, goal, limit, answers):
    report = crosscheck(relation, LISTS_PL, goal, limit=limit, timeout=20)
    assert report.agree, report.render_text()
    assert report.common == answers


def test_our_wrapper_names_agree_too():
    report = crosscheck("logicpy.core.lists:appendo", LISTS_PL, "appendo(X, Y, [1,2])")
    assert report.agree and report.common == 3
    assert report.relation == "logicpy.core.lists:appendo"


# ------------------------------------------------------------------ wrong relations are reported


def dropping_appendo(xs, ys, zs):
    """Wrong on purpose: loses the split with an empty ys."""
    return lall(appendo(xs, ys, zs), neq(ys, []))


def inventing_appendo(xs, ys, zs):
    """Wrong on purpose: one extra answer that append/3 never gives."""
    return conde([appendo(xs, ys, zs)], [eq(xs, ["made", "up"]), eq(ys, [])])


def test_a_missing_answer_is_reported():
    report = crosscheck(dropping_appendo, LISTS_PL, "append(X, Y, [1,2,3])")
    assert not report.agree
    assert report.only_prolog == ("append([1,2,3],[],[1,2,3])",)
    assert report.only_logicpy == () and report.common == 3
    assert "only Prolog (1):\n  append([1,2,3],[],[1,2,3])" in report.render_text()


def test_an_extra_answer_is_reported():
    report = crosscheck(inventing_appendo, LISTS_PL, "append(X, Y, [1,2])")
    assert report.only_logicpy == ("append([made,up],[],[1,2])",)
    assert report.only_prolog == () and report.common == 3


def test_different_variable_sharing_is_a_difference():
    # [_G0,_G0] is not [_G0,_G1]: renaming is per answer, not a loose match.
    report = crosscheck(lambda xs, n: lengtho(xs, 2), LISTS_PL, "length([X, X], N)")
    assert not report.agree


# ------------------------------------------------------------------ time limit and bad input


def stuck(x, xs):
    """Never answers (a busy loop), to test the logicpy side's time limit."""

    def stuck_goal(S):
        while True:
            pass
        yield S

    return stuck_goal


def test_logicpy_side_time_limit():
    with pytest.raises(CrosscheckTimeout, match="time limit of 0.3 s"):
        crosscheck(stuck, LISTS_PL, "member(X, [1])", timeout=0.3)


def test_bad_relation_names_are_named():
    with pytest.raises(InputError, match="expected MODULE:RELATION"):
        resolve_relation("appendo")
    with pytest.raises(InputError, match="no relation 'nope'"):
        resolve_relation("logicpy.core.lists:nope")
    with pytest.raises(InputError, match="cannot import module 'no_such_module'"):
        resolve_relation("no_such_module:x")
    with pytest.raises(InputError, match="lengtho cannot be called with the 3 arguments of append"):
        crosscheck("logicpy.core.lists:lengtho", LISTS_PL, "append(X, Y, [1])")


# ------------------------------------------------------------------ command line


def test_cli_agrees_with_exit_0(capsys):
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y, [1,2,3])", "--against", "logicpy.core.lists:appendo"])
    out = capsys.readouterr().out
    assert code == 0 and "agree on 4 answers" in out


def test_cli_reports_a_difference_with_exit_1(capsys):
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y, [1])",
                 "--against", "tests.test_crosscheck:dropping_appendo"])
    out = capsys.readouterr().out
    assert code == 1 and "only Prolog (1):" in out and "append([1],[],[1])" in out


def test_cli_json_reads_back(capsys):
    code = main(["crosscheck", str(LISTS_PL), "length(L, N)", "--against", "logicpy.core.lists:lengtho",
                 "--limit", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["agree"] and data["common"] == 3 and data["limited"]
    assert CrosscheckReport.from_json(data).to_json() == data


def test_cli_bad_input_is_one_line_exit_2(capsys):
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y, [1])", "--against", "nomodule"])
    assert code == 2 and "expected MODULE:RELATION" in capsys.readouterr().err
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y", "--against", "logicpy.core.lists:appendo"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "goal 'append(X, Y': operator expected" in err
    code = main(["crosscheck", "missing.pl", "true", "--against", "logicpy.core.lists:appendo"])
    assert code == 2 and "missing.pl: no such Prolog file" in capsys.readouterr().err
