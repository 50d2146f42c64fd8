"""A program may define a predicate that has a built-in's name exactly when SWI-Prolog lets
it (every built-in but the ISO ones), and its own definition is then the one called."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from logicpy.core.terms import format_term
from logicpy.errors import InputError
from logicpy.prolog import consult_text
from logicpy.repl.builtins import BUILTINS, ISO, LIBRARY

needs_swipl = pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")


def _fact(name: str, arity: int) -> str:
    return format_term((name, *(["x"] * arity)) if arity else name) + "."


def test_iso_built_ins_are_refused_and_the_others_accepted() -> None:
    for name, arity in BUILTINS:
        if (name, arity) in ISO:
            with pytest.raises(InputError, match="No permission to modify static procedure"):
                consult_text(_fact(name, arity))
        else:
            assert (name, arity) in LIBRARY
            assert consult_text(_fact(name, arity)).lookup(name, arity) is not None


@needs_swipl
def test_the_refused_built_ins_are_those_swi_refuses(tmp_path: Path) -> None:
    program = tmp_path / "facts.pl"
    program.write_text("\n".join(_fact(n, a) for n, a in sorted(BUILTINS)) + "\n")
    done = subprocess.run(["swipl", "-g", "halt", str(program)], capture_output=True, text=True, timeout=60)
    refused = set(re.findall(r"No permission to modify static procedure `\(?([^`']+?)\)?/(\d+)'", done.stderr))
    assert {(n, int(a)) for n, a in refused} == set(ISO)


PROGRAM = """
plus(X, Y, Z) :- Z is 10 * X + Y.
succ(X, Y) :- Y = s(X).
between(L, H, L) :- L =< H.
between(L, H, X) :- L < H, M is L + 1, between(M, H, X).
writeln(X) :- X = seen.
t(A, B, C, D) :- plus(1, 2, A), succ(B0, s(z)), B = B0, findall(X, between(1, 3, X), C), writeln(D).
"""


def test_a_program_s_own_definition_is_called() -> None:
    answers = consult_text(PROGRAM).query("t(A, B, C, D)")
    assert answers == [{"A": 12, "B": "z", "C": [1, 2, 3], "D": "seen"}]


@needs_swipl
def test_a_program_s_own_definition_answers_as_in_swi(tmp_path: Path) -> None:
    program = tmp_path / "own.pl"
    program.write_text(PROGRAM)
    done = subprocess.run(["swipl", "-q", "-g", "forall(t(A,B,C,D), (write_canonical([A,B,C,D]), nl))",
                           "-t", "halt", str(program)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr, done.stderr
    ours = [format_term([a[k] for k in "ABCD"]) for a in consult_text(PROGRAM).query("t(A, B, C, D)")]
    assert done.stdout.split() == ours
