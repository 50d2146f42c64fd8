"""The fault suite: every command against a generated corpus of hostile inputs.

Files nested 100,000 deep, numbers of 10,000 digits, binary, non-UTF-8, a lone byte-order
mark, empty, blank, a directory, a missing path, a file past the size limit; nan, inf,
negative and huge values for every numeric option of every command (found by walking the
argument parsers); conflicting options; directories given as output files. Each case runs
as its own `logicpy` process and must end with exit status 1 or 2, one line on standard
error, no traceback, within `SECONDS` seconds and `MEMORY` bytes of resident memory
(measured by `wait4`). The cases run in parallel once per session; `make test-faults` runs them.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_cli_contract import PARSERS

pytestmark = [pytest.mark.slow, pytest.mark.faults]

#: Wall seconds and resident bytes a case may take.
SECONDS = 10
MEMORY = 2**30

LOGICPY = [sys.executable, "-m", "logicpy"]

#: name -> how to make it in the corpus directory (text, bytes, or a callable on the path).
FILES = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "deep-object.json": '{"a": ' * 100_000 + "1" + "}" * 100_000,
    "digits.json": "1" * 10_000,
    "digits-in-list.json": "[" + "9" * 10_000 + "]",
    "nan.json": "[NaN, Infinity]",
    "binary.bin": bytes(range(256)) * 64,
    "latin1.txt": "caf\u00e9, na\u00efve\n".encode("latin-1"),
    "bom.json": b"\xef\xbb\xbf",
    "empty.json": b"",
    "blank.txt": "\n  \n\t\n",
    "deep.pl": "a(" + "f(" * 100_000 + "x" + ")" * 100_000 + ").\n",
    "deep.txt": "(" * 100_000 + "\n",
    "huge.json": lambda path: _sparse(path, 65 * 2**20),
    "a-directory": lambda path: path.mkdir(),
}
MISSING = "no-such-file.json"

#: Commands that read a user's file: {} is where the file goes.
FILE_COMMANDS = {
    "gods verify": ["gods", "verify", "{}"],
    "gods --rules": ["gods", "--rules", "{}"],
    "gods --gods-file": ["gods", "--gods-file", "{}"],
    "gods crosscheck": ["gods", "crosscheck", "{}", "--timeout", "5"],
    "gods census --store": ["gods", "census", "--gods", "1", "--engine", "processes", "--workers", "1",
                            "--store", "{}"],
    "cheryl --dates-file": ["cheryl", "--dates-file", "{}"],
    "cheryl generate --pool": ["cheryl", "generate", "--pool", "{}", "--seed", "1"],
    "cheryl --story-file": ["cheryl", "--story-file", "{}"],
    "calendar --verify": ["calendar", "--verify", "{}"],
    "calendar --board": ["calendar", "--board", "{}", "10", "6"],
    "calendar --pieces": ["calendar", "--pieces", "{}", "10", "6"],
    "prisoners --verify": ["prisoners", "--verify", "{}"],
    "einstein": ["einstein", "{}"],
    "einstein convert": ["einstein", "convert", "{}", "{out}/out.txt"],
    "repl -f": ["repl", "-f", "{}", "-q", "true"],
    "crosscheck": ["crosscheck", "{}", "true", "--against", "logicpy.core:membero", "--timeout", "5"],
}

#: Files a command rightly accepts: a store that does not exist yet or is empty is a new store
#: (the census then runs); a Prolog program may be empty.
ACCEPTED = {"gods census --store": {MISSING, "empty.json"}, "repl -f": {"empty.json", "bom.json", "blank.txt"}}

#: Values every numeric option refuses.
NUMBERS = ["nan", "inf", "-1", "1e999", "9" * 23]

#: Options that contradict each other or the command (each must be refused, not run).
CONFLICTS = {
    "gods --json --mermaid": ["gods", "--json", "--mermaid"],
    "gods --puzzle with --gods": ["gods", "--puzzle", "classic", "--gods", "3"],
    "gods --gods 3 --types of 2": ["gods", "--gods", "3", "--types", "truly,falsely"],
    "gods --workers without --sharded": ["gods", "--workers", "2"],
    "gods --gods 100": ["gods", "--gods", "100"],
    "gods --gods 12": ["gods", "--gods", "12"],
    "gods census --engine processes --cluster": ["gods", "census", "--engine", "processes", "--cluster", "tcp://x:1"],
    "cheryl --dates with --dates-file": ["cheryl", "--dates", "May 15, May 16", "--dates-file", "{corpus}/blank.txt"],
    "cheryl muddy -m past -n": ["cheryl", "muddy", "-n", "3", "-m", "5"],
    "calendar 13 40": ["calendar", "13", "40"],
    "prisoners --people 9 --row 4": ["prisoners", "--people", "9", "--row", "4"],
    "repl --limit 0": ["repl", "--limit", "0", "-q", "true"],
    "repl huge power": ["repl", "-q", "X is 2^(2^40)."],
    "einstein convert to a directory": ["einstein", "convert", "zebra", "{out}"],
    "gods census --csv a directory": ["gods", "census", "--gods", "1", "--engine", "processes", "--workers", "1",
                                      "--store", "{out}/c.sqlite", "--csv", "{out}"],
    "gods --questions past 2^63": ["gods", "--questions", "9" * 23],
}


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as f:
        f.truncate(size)


@dataclass
class Outcome:
    argv: list[str]
    code: int | None  # None: killed at the time limit
    seconds: float
    rss: int
    err: str


def _cases(corpus: Path, out: Path) -> dict[str, list[str]]:
    cases: dict[str, list[str]] = {}
    names = [*FILES, MISSING]
    for label, template in FILE_COMMANDS.items():
        for name in names:
            if name in ACCEPTED.get(label, ()):
                continue
            cases[f"{label} {name}"] = [w.replace("{}", str(corpus / name)).replace("{out}", str(out))
                                        for w in template]
    for path, parser in sorted(PARSERS.items()):
        for action in parser._actions:
            # type=int, type=float, or a bounded reader from cli_contract.number (named int or float)
            if getattr(action.type, "__name__", None) not in ("int", "float") or not action.option_strings:
                continue
            option = action.option_strings[-1]
            for value in NUMBERS:
                cases[f"{' '.join(path)} {option} {value[:8]}"] = [*path, f"{option}={value}"]
    for label, argv in CONFLICTS.items():
        cases[label] = [w.replace("{corpus}", str(corpus)).replace("{out}", str(out)) for w in argv]
    return cases


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 * MEMORY, 4 * MEMORY))  # a runaway stops here, not the machine


def _run(argv: list[str], home: Path) -> Outcome:
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "OPENBLAS_NUM_THREADS": "1",
           "COLUMNS": "100"}
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([*LOGICPY, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                env=env, preexec_fn=_limit_memory, start_new_session=True)
        timer = threading.Timer(SECONDS, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    killed = proc.returncode == -signal.SIGKILL
    return Outcome(argv, None if killed else proc.returncode, seconds, usage.ru_maxrss * 1024, text)


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    corpus = tmp_path_factory.mktemp("corpus")
    out = tmp_path_factory.mktemp("out")
    home = tmp_path_factory.mktemp("home")
    for name, make in FILES.items():
        path = corpus / name
        if callable(make):
            make(path)
        elif isinstance(make, bytes):
            path.write_bytes(make)
        else:
            path.write_text(make, encoding="utf-8")
    cases = _cases(corpus, out)
    with ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        results = dict(zip(cases, pool.map(lambda argv: _run(argv, home), cases.values())))
    shutil.rmtree(corpus, ignore_errors=True)
    return results


def _labels() -> list[str]:
    here = Path("/corpus")
    return list(_cases(here, here))


@pytest.mark.parametrize("label", _labels())
def test_a_hostile_input_is_refused_in_one_line(outcomes, label):
    outcome = outcomes[label]
    shown = f"logicpy {' '.join(w[:60] for w in outcome.argv)}: {outcome.err[-1500:]}"
    assert outcome.code is not None, f"still running after {SECONDS} s: {shown}"
    assert "Traceback" not in outcome.err, shown
    assert outcome.code in (1, 2), f"exit {outcome.code}: {shown}"
    assert outcome.err.strip() and outcome.err.strip().count("\n") == 0 or "usage:" in outcome.err, shown
    assert outcome.rss < MEMORY, f"{outcome.rss / 2**20:.0f} MiB: {shown}"


def test_the_corpus_covers_every_numeric_option_and_file_reader():
    labels = _labels()
    numeric = {label.rsplit(" ", 1)[0] for label in labels if label.endswith(tuple(v[:8] for v in NUMBERS))}
    assert {"prisoners --timeout", "gods census --time-limit", "cheryl what-sum --anne", "repl --limit"} <= numeric
    assert {f"gods verify {name}" for name in [*FILES, MISSING]} <= set(labels)
