"""The original three-gods Prolog programs (aduriseti/3gods) consulted into logicpy's engine:
which load unchanged, and their queries' answers and printed output against SWI-Prolog's.
Set LOGICPY_3GODS_DIR to a checkout of that repository (nothing of it is stored here)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from logicpy.core.terms import format_term
from logicpy.errors import PrologError, PrologSyntaxError
from logicpy.prolog import Program, consult
from logicpy.repl.reader import read_query

GODS = os.environ.get("LOGICPY_3GODS_DIR")
pytestmark = [
    pytest.mark.skipif(not GODS, reason="set LOGICPY_3GODS_DIR to a checkout of aduriseti/3gods"),
    pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed"),
]

#: Files whose only unread syntax is a `{Free}/[X]>>Goal` lambda (a curly term).
CURLY = ["2.pl", "3.pl", "4.pl", "5.pl", "7.pl", "8a.pl", "8b.pl", "final_solution.pl", "knight_or_knave.pl",
         "random_silent.pl", "paradox/paradox.pl"]


def original(name: str) -> Path:
    return Path(GODS or ".") / name


def load(name: str) -> Program:
    """The file consulted into logicpy's engine; skipped while `{X}` terms cannot be read."""
    try:
        return consult(original(name))
    except PrologSyntaxError as exc:
        if "expected '}'" in str(exc):
            pytest.skip(f"{name} needs curly terms ({{Indent}}/[X]>>Goal) read: {exc}")
        raise


def names(query: str) -> list[str]:
    return [n for n in read_query(query)[1] if not n.startswith("_")]


def swi_run(name: str, query: str, timeout: int = 120) -> tuple[str, list[str]]:
    """SWI-Prolog's printed output and answers (canonical text, in order) for `query` on the file."""
    template = "[" + ",".join(names(query)) + "]"
    goal = f"findall({template}, ({query}), As), write('\\n@@'), forall(member(A, As), (write_canonical(A), nl))"
    done = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(original(name))],
                          capture_output=True, text=True, timeout=timeout, cwd=original(name).parent)
    assert done.returncode == 0, done.stderr
    printed, _, answers = done.stdout.rpartition("\n@@")
    return printed, answers.splitlines()


def logicpy_run(program: Program, query: str) -> tuple[str, list[str]]:
    """As `swi_run`, on logicpy's engine (a variable occurring once written `_`, as write_canonical does)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        answers = program.query(query)
    return out.getvalue(), [re.sub(r"\b_G\d+\b", "_", format_term([a[n] for n in names(query)])) for a in answers]


@pytest.mark.parametrize("name", ["1.pl", "_.pl", "crash_course.pl", "tree_pruning_analysis.pl", "10.pl", "11.pl",
                                  "12.pl", *CURLY, "8b.plt", "8b_da_yes.plt", "random_silent.plt"])
def test_the_file_loads_unchanged(name):
    program = load(name)
    assert len(program) > 3


@pytest.mark.parametrize("name, query", [
    ("crash_course.pl", "i_enjoy(T)"),
    ("crash_course.pl", "i_can_see_at(T)"),
    ("crash_course.pl", "i_need_a_flashlight_at(T)"),
    ("tree_pruning_analysis.pl", "count_valid_answers(C)"),
    ("tree_pruning_analysis.pl", "valid_answers(A, 2)"),
    ("knight_or_knave.pl", "once(is_distinguishing_question(Q, T, F))"),
    ("final_solution.pl", "render_question_short(query_position_question(1, at_position_question(2, random)), S)"),
    ("final_solution.pl", "draw_tree(tree(q(1, at_position_question(1, truly)), leaf, leaf))"),
    ("final_solution.pl", "render_question((at_position_question(1, truly) ; at_position_question(2, random)), S)"),
    ("final_solution.pl", "findall(_F, generate_permutation_families(3, [truly, falsely, random], _F), Fs)"),
    ("random_silent.pl", "draw_tree(tree(q(1, at_position_question(1, truly)), leaf, leaf, leaf))"),
])
def test_answers_and_output_are_swis(name, query):
    program = load(name)
    assert logicpy_run(program, query) == swi_run(name, query)


@pytest.mark.parametrize("name, query, missing", [
    ("1.pl", "is_distinguishing_question(Q)", "query_position/3"),  # the file is unfinished: SWI fails the same way
    ("_.pl", "is_distinguishing_question(Q, P)", "is_question/1"),
])
def test_unfinished_files_raise_swis_existence_error(name, query, missing):
    with pytest.raises(PrologError, match=f"procedure {missing} does not exist"):
        load(name).query(query)
    done = subprocess.run(["swipl", "-q", "-g", query, "-t", "halt", str(original(name))],
                          capture_output=True, text=True, timeout=60)
    assert f"Unknown procedure: {missing}" in done.stderr


def test_files_that_do_not_load_say_where():
    with pytest.raises(PrologSyntaxError, match=r"6\.pl:389: syntax error"):  # a stray `;lasd`: SWI's error too
        load("6.pl")


@pytest.mark.slow
def test_final_solution_solves_the_riddle_as_swi_does():
    """The whole `solve_and_print_riddle`: every line printed equal (a few minutes on logicpy's engine)."""
    program = load("final_solution.pl")
    query = "once(solve_and_print_riddle)"  # the first tree, as `swipl -g solve_and_print_riddle` prints it
    assert logicpy_run(program, query) == swi_run("final_solution.pl", query)
