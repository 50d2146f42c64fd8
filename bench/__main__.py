"""Run the benchmarks under bench/ and print their figures.

    python -m bench            every bench_*.py module, in name order
    python -m bench gods fd    only bench_gods.py and bench_fd.py
    python -m bench --list     the benchmarks, one line each

Each module exposes `main() -> None`, which prints its own table. After the runs, when
they measured any of the relational core's aims (bench/common.py `AIMS`), one table sets
each aim beside the ratio measured in this run.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).parent


def available() -> list[str]:
    """Names of the benchmark modules, without the `bench_` prefix."""
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def summary(name: str) -> str:
    """The first line of a benchmark module's docstring, read without importing it."""
    doc = ast.get_docstring(ast.parse((HERE / f"bench_{name}.py").read_text(encoding="utf-8"))) or ""
    return doc.splitlines()[0] if doc else ""


def listing() -> str:
    """Every benchmark with its one-line summary."""
    names = available()
    width = max(map(len, names))
    return "\n".join(f"  {n:<{width}}  {summary(n)}" for n in names)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Run logicpy's benchmarks; each prints its figures beside the other engines available here "
                    "(SWI-Prolog, plain kanren, the peers' programs) in the same run.",
        epilog="benchmarks:\n" + listing() + "\n\nexit status: 0 done, 2 unknown benchmark name",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all, in name order)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = parser.parse_args(argv)
    if args.list:
        print(listing())
        return 0
    names = args.names or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    for name in names:
        print(f"\n== bench_{name} ==", flush=True)
        importlib.import_module(f"bench.bench_{name}").main()
    from bench.common import AIMS, FIGURES, SUITE_RATIOS, aims_rows, print_table

    if any(aim.row in FIGURES or aim.row in SUITE_RATIOS for aim in AIMS):
        print()
        print_table("logicpy / SWI ratios vs aims (this run)", ["aim", "target", "measured", ""], aims_rows())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
