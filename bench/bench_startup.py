"""Whole-process time of `logicpy` commands (start-up, imports and the work) beside SWI-Prolog's.

    python -m bench startup

Each command runs in a fresh interpreter, one warm-up then 7 counted runs, the commands
taking turns; min and median wall clock are printed. Python's bytecode caches are
written on the warm-up (to a temporary cache directory, as an installed package has
them); one row repeats the toplevel with every module compiled from source, as a
process that cannot write caches pays. `echo 'member(X,[1,2]).' | logicpy repl` runs
beside `swipl -g 'member(X,[1,2]),print(X),nl' -t halt`, and both answers are checked.
The share of imports is read from `python -X importtime` (top-level cumulative times),
with whether numpy or any puzzle module was imported.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench.common import ROOT, fmt_seconds, print_table

EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
QUERY = "member(X,[1,2]).\n"
RUNS = 7

#: (label, argv after `python`, standard input)
COMMANDS: list[tuple[str, list[str], str]] = [
    ("python -c pass", ["-c", "pass"], ""),
    ("echo 'member(X,[1,2]).' | logicpy repl", ["-m", "logicpy", "repl"], QUERY),
    ("logicpy --help", ["-m", "logicpy", "--help"], ""),
    ("logicpy einstein zebra.txt", ["-m", "logicpy", "einstein", str(EXAMPLES / "zebra.txt")], ""),
    ("logicpy einstein convert", ["-m", "logicpy", "einstein", "convert", str(EXAMPLES / "zebra.txt"),
                                  "{tmp}/z.json"], ""),
    ("logicpy gods --help", ["-m", "logicpy", "gods", "--help"], ""),
    ("logicpy crosscheck --help", ["-m", "logicpy", "crosscheck", "--help"], ""),
    ("logicpy demo --help", ["-m", "logicpy", "demo", "--help"], ""),
]
SWIPL = ["swipl", "-g", "member(X,[1,2]),print(X),nl", "-t", "halt"]


def _env(cache: str | None) -> dict[str, str]:
    """The environment of a run: bytecode cached under `cache`, or never written (None)."""
    env = dict(os.environ)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
    return env


def _run(argv: list[str], stdin: str, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, cwd=ROOT, env=env)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return seconds, done.stdout


def _times(commands: list[tuple[list[str], str, dict[str, str]]]) -> list[tuple[list[float], str]]:
    """Each command's counted wall times and last output: one warm-up, then `RUNS` rounds in turn."""
    times: list[list[float]] = [[] for _ in commands]
    outputs = [_run(argv, stdin, env)[1] for argv, stdin, env in commands]  # warm-up: caches written
    for _ in range(RUNS):
        for i, (argv, stdin, env) in enumerate(commands):
            seconds, outputs[i] = _run(argv, stdin, env)
            times[i].append(seconds)
    return list(zip(times, outputs))


def _imports(argv: list[str], stdin: str, env: dict[str, str]) -> tuple[float, bool, bool]:
    """Seconds spent importing (top-level cumulative times), whether numpy and a puzzle module were imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env)
    total, numpy, puzzles = 0, False, False
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            numpy |= m.group(3) == "numpy"
            puzzles |= m.group(3).startswith("logicpy.puzzles")
            if len(m.group(2)) == 1:  # top level: one space of indent
                total += int(m.group(1))
    return total / 1e6, numpy, puzzles


def _figures(times: list[float]) -> list[str]:
    return [fmt_seconds(min(times)), fmt_seconds(statistics.median(times))]


def main() -> None:
    tmp = tempfile.mkdtemp()
    cached, compiled = _env(os.path.join(tmp, "pycache")), _env(None)
    commands = [([sys.executable, *(a.format(tmp=tmp) for a in argv)], stdin, cached) for _, argv, stdin in COMMANDS]
    repl = commands[1]
    commands.append((repl[0], repl[1], compiled))
    swipl = shutil.which("swipl") is not None
    if swipl:
        commands.append((SWIPL, "", cached))
    measured = _times(commands)

    rows = []
    for (label, _, _), (argv, stdin, env), (times, _) in zip(COMMANDS, commands, measured):
        imports, numpy, puzzles = _imports(argv[1:], stdin, env)
        rows.append([label, *_figures(times), fmt_seconds(imports), "yes" if numpy else "no",
                     "yes" if puzzles else "no"])
    repl_times, repl_out = measured[1]
    assert repl_out.splitlines() == ["X = 1 ;", "X = 2."], repl_out
    beside = [["  the same, no bytecode cache", *_figures(measured[len(COMMANDS)][0]),
               "", "", ""]]
    if swipl:
        swipl_times, swipl_out = measured[-1]
        assert swipl_out.split() == ["1"], swipl_out
        ratio = statistics.median(repl_times) / statistics.median(swipl_times)
        beside.append(["  swipl -g (the same query) -t halt", *_figures(swipl_times), "", "", ""])
        beside.append(["  logicpy repl / swipl, medians", "", f"{ratio:.1f}×", "", "", ""])
    rows[2:2] = beside
    shutil.rmtree(tmp, ignore_errors=True)
    print_table(
        f"Start-up: whole-process wall time per command (one warm-up, {RUNS} runs in turn), and its imports",
        ["command", "min", "median", "imports", "numpy imported", "puzzles imported"],
        rows,
    )


if __name__ == "__main__":
    main()
