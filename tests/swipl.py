"""Run a goal in a fresh `swipl` process on one of the project's Prolog files (a second
engine, independent of the in-process bridge), for the tests that cross-check against it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

PROLOG_DIR = Path(__file__).resolve().parent.parent / "logicpy" / "data" / "prolog"


def run_goal(file: str, goal: str, timeout: float = 60) -> str:
    """Standard output (stripped) of `goal` run once in SWI-Prolog after consulting
    `prolog/FILE`; the test fails on a non-zero exit or any warning."""
    result = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(PROLOG_DIR / file)],
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr
    return result.stdout.strip()


def swi_rows(program: str, query: str, timeout: float = 60) -> list[str]:
    """SWI-Prolog's answers to `query` after consulting the text `program`: a line per answer,
    the query's named variables written canonically, one space apart (as `answer_rows`)."""
    names = list(dict.fromkeys(re.findall(r"\b[A-Z]\w*", query)))
    row = ", write(' '), ".join([*(f"write_canonical({n})" for n in names), "nl"]).replace("), write(' '), nl", "), nl")
    done = subprocess.run(["swipl", "-q", "-g", "consult(user)", "-g", f"forall(({query}), ({row}))", "-t", "halt"],
                          input=program, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def answer_rows(program, query: str) -> list[str]:
    """logicpy's answers to `query` in a consulted `program`, written as `swi_rows` writes SWI's."""
    from logicpy.core import format_term

    return [" ".join(format_term(v) for v in a.values()) for a in program.query(f"{query}.")]
