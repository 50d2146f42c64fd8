"""The `logicpy` command: argparse front end over the façades; no puzzle logic lives here.

Each subcommand lives in its own module, which exposes `register(subparsers)`:
it adds its parser and sets `func=handler` (handler(args) -> exit code).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import LogicpyError

#: Modules that contribute subcommands, in the order `--help` lists them.
SUBCOMMAND_MODULES = [
    "logicpy.demo",
    "logicpy.puzzles.gods.cli",
    "logicpy.puzzles.einstein.cli",
    "logicpy.puzzles.epistemic.cli",
    "logicpy.puzzles.calendar.cli",
    "logicpy.puzzles.prisoners.cli",
    "logicpy.crosscheck",
    "logicpy.repl",
]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="logicpy",
        description="Logic programming in Python: relational queries, SWI-Prolog interop, classic puzzles.",
    )
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    parser.add_argument("--version", action="version", version=_version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name and not name.startswith(str(exc.name) + "."):
                raise
            continue  # that part of logicpy is not built yet
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `logicpy` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except LogicpyError as exc:
        if args.debug:
            raise
        print(f"logicpy: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("logicpy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return 0


def _version() -> str:
    from . import __version__

    return f"logicpy {__version__}"


if __name__ == "__main__":
    sys.exit(main())
