"""Cross-checks of logicpy's list relations against SWI-Prolog's built-ins (prolog/lists.pl)
and of its constraints against dif/2 and clpfd (prolog/constraints.pl), and proof that the
cross-check reports a relation that is wrong, a constraint it cannot compare, and a side
that runs past its time limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kanren import conde, eq, lall
from kanren.constraints import neq
from kanren.core import succeed

from logicpy import swi
from logicpy.cli import main
from logicpy.core import abs_diffo, domo, inso, leqo, lto, tableo, var
from logicpy.core import neq as logicpy_neq
from logicpy.core.lists import appendo, lengtho, membero, permuteo, selecto
from logicpy.crosscheck import CrosscheckReport, crosscheck, resolve_relation
from logicpy.errors import InputError

pytestmark = pytest.mark.swi

LISTS_PL = Path(__file__).resolve().parent.parent / "logicpy" / "data" / "prolog" / "lists.pl"
CONSTRAINTS_PL = LISTS_PL.with_name("constraints.pl")


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


def test_logicpy_side_time_limit_is_inconclusive():
    report = crosscheck(stuck, LISTS_PL, "member(X, [1])", timeout=0.3)
    assert report.verdict == "timeout" and not report.agree and report.exit_status == 4
    assert report.reason.startswith("the logicpy side ran past the time limit of 0.3 s")
    assert "inconclusive: the logicpy side ran past" in report.render_text()


def test_prolog_side_time_limit_is_inconclusive(tmp_path):
    looping = tmp_path / "loop.pl"
    looping.write_text("loop(X) :- loop(X).\n")
    report = crosscheck(lambda x: succeed, looping, "loop(X)", timeout=0.3)
    assert report.verdict == "timeout" and report.reason == "the Prolog side ran past the time limit of 0.3 s"


@pytest.fixture
def small_prolog_stack():
    """A 20 MB Prolog stack for the test (SWI's default 1 GB takes seconds to fill)."""
    [old] = swi.query("current_prolog_flag(stack_limit, L)")
    swi.query("set_prolog_flag(stack_limit, 20000000)")
    yield
    swi.query(("set_prolog_flag", "stack_limit", old["L"]))


def test_an_endless_goal_without_limit_suggests_limit(small_prolog_stack, capsys):
    code = main(["crosscheck", str(LISTS_PL), "length(L, N)", "--against", "logicpy.core.lists:lengtho"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "length(L, N): Prolog ran out of stack collecting every answer" in err and "--limit N" in err


def endless(x):
    """Stands for a logicpy relation that runs out of stack."""

    def endless_goal(S):
        raise RecursionError("maximum recursion depth exceeded")
        yield S

    return endless_goal


def test_logicpy_running_out_of_stack_suggests_limit():
    with pytest.raises(InputError, match="the logicpy side ran out of stack; .* pass --limit N"):
        crosscheck(endless, LISTS_PL, "is_list(X)")


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
    assert (data["status"], data["command"]) == ("ok", "crosscheck")
    assert CrosscheckReport.from_json(data).to_json() == {k: v for k, v in data.items() if k not in ("status", "command")}


def test_cli_bad_input_is_one_line_exit_2(capsys):
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y, [1])", "--against", "nomodule"])
    assert code == 2 and "expected MODULE:RELATION" in capsys.readouterr().err
    code = main(["crosscheck", str(LISTS_PL), "append(X, Y", "--against", "logicpy.core.lists:appendo"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "goal 'append(X, Y': operator expected" in err
    code = main(["crosscheck", "missing.pl", "true", "--against", "logicpy.core.lists:appendo"])
    assert code == 2 and "missing.pl: no such Prolog file" in capsys.readouterr().err


def test_cli_timeout_has_its_own_status(capsys):
    code = main(["crosscheck", str(LISTS_PL), "member(X, [1])", "--against", "tests.test_crosscheck:stuck",
                 "--timeout", "0.3"])
    out = capsys.readouterr().out
    assert code == 4 and "inconclusive: the logicpy side ran past the time limit of 0.3 s" in out


# ------------------------------------------------------------------ answers with their constraints


def unconstrained(x, y):
    """Wrong on purpose: posts no constraint where dif/2 posts one."""
    return succeed


def wide_domain(x, d):
    """Wrong on purpose: 1..9 where the goal says 1..3."""
    return domo(x, range(1, 10))


def test_a_missing_disequality_is_a_difference():
    report = crosscheck(unconstrained, CONSTRAINTS_PL, "neq(X, 1)")
    assert report.verdict == "differ" and report.exit_status == 1
    assert report.only_prolog == ("neq(_0,1) :- dif(_0,1)",) and report.only_logicpy == ("neq(_0,1)",)


def test_a_wider_domain_is_a_difference():
    report = crosscheck(wide_domain, CONSTRAINTS_PL, "X in 1..3")
    assert report.verdict == "differ"
    assert report.only_logicpy == ("in(_0,'..'(1,3)) :- _0 in 1..9",)
    assert report.only_prolog == ("in(_0,'..'(1,3)) :- _0 in 1..3",)


def test_the_same_disequality_agrees():
    report = crosscheck(logicpy_neq, CONSTRAINTS_PL, "neq(X, 1)")
    assert report.agree and report.common == 1


def test_a_disequality_between_compounds_agrees_with_dif():
    """neq([X, Y], [2, 1]) is one disequality (X = 2 and Y = 1 not both), as SWI's dif/2 says."""
    report = crosscheck(logicpy_neq, CONSTRAINTS_PL, "neq([X, Y], [2, 1])")
    assert report.agree and report.common == 1


def test_kanrens_split_disequality_is_a_difference():
    """kanren's own neq posts X \\= 2 and Y \\= 1 separately: the cross-check sees it."""
    report = crosscheck(neq, CONSTRAINTS_PL, "neq([X, Y], [2, 1])")
    assert not report.agree


@pytest.mark.parametrize(
    "relation, goal",
    [
        (lambda x, d: domo(x, range(1, 4)), "X in 1..3"),
        (lambda x, d: domo(x, [1, 2, 3, 5, 8, 9]), "X in 1..3 \\/ 5 \\/ 8..9"),
        (lto, "lto(X, Y)"),  # pending between unbounded variables: X #=< Y + -1
        (leqo, "leqo(3, X)"),  # one variable: a half-open domain, 3..sup
        # a conjunction: the relation gets its two goals, in(X, 1..3) and X #< Y; clpfd adds Y in 2..sup
        (lambda g1, g2: lall(domo(g1[1], range(1, 4)), lto(g1[1], g2[2])), "X in 1..3, X #< Y"),
        (lambda g1, g2: lall(inso(g1[1], range(3)), lto(*g1[1])), "[X, Y] ins 0..2, X #< Y"),
        (lambda xss, rows: tableo(xss[0], [tuple(r) for r in rows]), "tuples_in([[X,Y]], [[1,2],[2,3]])"),
        # clpfd writes abs(X-Y) #= 2 as _A+Y #= X, _A in -2\\/2 and narrows Y to -2..4
        (lambda g1, g2: lall(domo(g1[1], range(3)), abs_diffo(g2[1][1][1], g2[1][1][2], g2[2])),
         "X in 0..2, abs(X-Y) #= 2"),
    ],
)
def test_the_same_fd_constraints_agree(relation, goal):
    report = crosscheck(relation, CONSTRAINTS_PL, goal)
    assert report.agree, report.render_text()
    assert report.common == 1


def test_the_cli_lists_answers_with_their_constraints(capsys):
    code = main(["crosscheck", str(CONSTRAINTS_PL), "neq(X, 1)", "--against", "tests.test_crosscheck:unconstrained"])
    assert code == 1 and "only Prolog (1):\n  neq(_0,1) :- dif(_0,1)" in capsys.readouterr().out


def test_a_constraint_without_common_form_cannot_be_compared(capsys):
    # freeze/2 has no logicpy counterpart: "cannot compare", not "differ" (and never "agree").
    code = main(["crosscheck", str(CONSTRAINTS_PL), "freeze(X, true)", "--against", "tests.test_crosscheck:unconstrained"])
    out = capsys.readouterr().out
    assert code == 3 and "cannot compare: a Prolog answer holds freeze(_0," in out
    report = crosscheck(unconstrained, CONSTRAINTS_PL, "freeze(X, true)")
    assert report.verdict == "cannot compare" and not report.agree and report.exit_status == 3


def test_an_endless_logicpy_side_stops_past_prologs_answers():
    # Prolog: member(a, [a]) only; logicpy: every list, forever. Without a limit it stops
    # EXTRA_ANSWERS different answers past Prolog's one: they differ for certain.
    report = crosscheck(lambda x, xs: lengtho(x, var()), LISTS_PL, "member(X, [a])")
    assert report.verdict == "differ" and report.only_prolog == ("member(a,[a])",)
    assert report.only_logicpy[:2] == ("member([],[a])", "member([_0],[a])") and len(report.only_logicpy) == 22
    assert report.reason.startswith("logicpy stopped after 22 different answers, more than Prolog's 1;")
