"""Run the benchmarks under bench/ and print their figures.

    python -m bench            every bench_*.py module, in name order
    python -m bench gods fd    only bench_gods.py and bench_fd.py

Each module exposes `main() -> None`, which prints its own table.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def available() -> list[str]:
    """Names of the benchmark modules, without the `bench_` prefix."""
    here = Path(__file__).parent
    return sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    names = argv or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    for name in names:
        print(f"\n== bench_{name} ==", flush=True)
        importlib.import_module(f"bench.bench_{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
