"""Whole-process time of each `logicpy` command: start-up (imports) plus the work, wall clock.

    python -m bench startup

Each command runs in a fresh interpreter (best of 5 wall-clock runs), beside a bare
`python -c pass` and the `logicpy --help` listing, and the share of imports is read from
`python -X importtime` (the top-level modules' cumulative microseconds). The CLI imports
only the module of the command that runs, so `einstein` does not pay for gods or numpy.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time

from bench.common import ROOT, fmt_seconds, print_table

EXAMPLES = ROOT / "examples" / "einstein"

#: (label, argv after `python`)
COMMANDS = [
    ("python -c pass", ["-c", "pass"]),
    ("logicpy --help", ["-m", "logicpy", "--help"]),
    ("logicpy einstein zebra.txt", ["-m", "logicpy", "einstein", str(EXAMPLES / "zebra.txt")]),
    ("logicpy einstein convert", ["-m", "logicpy", "einstein", "convert", str(EXAMPLES / "zebra.txt"), "{tmp}/z.json"]),
    ("logicpy gods --help", ["-m", "logicpy", "gods", "--help"]),
    ("logicpy crosscheck --help", ["-m", "logicpy", "crosscheck", "--help"]),
    ("logicpy demo --help", ["-m", "logicpy", "demo", "--help"]),
]


def _wall(argv: list[str], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], capture_output=True, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    return best


def _import_seconds(argv: list[str]) -> tuple[float, bool]:
    """Seconds spent importing (sum of top-level cumulative times), and whether numpy was imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, cwd=ROOT)
    total, numpy = 0, False
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            numpy |= m.group(3) == "numpy"
            if not m.group(2).strip(" ") and len(m.group(2)) == 1:  # top level: one space of indent
                total += int(m.group(1))
    return total / 1e6, numpy


def main() -> None:
    rows = []
    tmp = tempfile.mkdtemp()
    for label, argv in COMMANDS:
        argv = [a.format(tmp=tmp) for a in argv]
        imports, numpy = _import_seconds(argv)
        rows.append([label, fmt_seconds(_wall(argv)), fmt_seconds(imports), "yes" if numpy else "no"])
    print_table(
        "Start-up: whole-process wall time per command (best of 5), and its imports",
        ["command", "whole process", "imports", "numpy imported"],
        rows,
    )


if __name__ == "__main__":
    main()
