"""Run a goal in a fresh `swipl` process on one of the project's Prolog files (a second
engine, independent of the in-process bridge), for the tests that cross-check against it."""

from __future__ import annotations

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
