"""`logicpy einstein GAME…` (solve, --json, --explain, --max, --count), `convert IN OUT` and `generate`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from ...core.fd import STRATEGIES
from ...errors import InputError, LogicpyError
from ...progress import terminal_progress

__all__ = ["register", "load_game", "save_game"]

FORMATS = {".json": "JSON (einstein-solver's format)", ".txt": "text notation"}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `einstein` subcommand."""
    parser = subparsers.add_parser(
        "einstein",
        help="solve, explain and generate Einstein (zebra) logic-grid puzzles",
        description="Solve logic-grid games (GAME.json in einstein-solver's format, or GAME.txt in the "
        "text notation); convert between the formats: `logicpy einstein convert IN OUT`; or make a new "
        "game with a unique solution: `logicpy einstein generate --kinds 4 --things 5 -o game.json`.",
    )
    parser.add_argument("files", nargs="+", metavar="GAME", help="game files or shipped games by name (zebra; `logicpy files` lists them), "
                             "or: convert IN OUT, or: generate")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print the result as JSON")
    output.add_argument("--explain", action="store_true", help="print a step-by-step deduction in grid terms")
    output.add_argument("--grids", action="store_true", help="with --explain: the candidate grid after each step")
    output.add_argument("--show", type=int, default=10, metavar="N", help="solution tables to print (default 10)")
    search = parser.add_argument_group("search")
    search.add_argument(
        "--strategy", choices=sorted(STRATEGIES), default="wdeg",
        help="labelling order (default wdeg): " + "; ".join(f"{k} = {v}" for k, v in STRATEGIES.items()),
    )
    search.add_argument("--max", type=int, default=1000, metavar="N",
                        help="stop after N solutions and say there are at least N (default 1000)")
    search.add_argument("--count", action="store_true", help="count every solution without keeping them")
    from .generate import add_generate_arguments

    add_generate_arguments(parser)
    parser.set_defaults(func=run)


def load_game(path: str | Path):
    """Read a game by its extension (.json or .txt); a bare name is a shipped game (`zebra`)."""
    from ...data import einstein_game
    from .jsonfmt import load_json
    from .notation import load_text

    path = einstein_game(path)
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: unknown game format {suffix!r}; use one of {', '.join(FORMATS)}")
    return load_json(path) if suffix == ".json" else load_text(path)


def save_game(game, path: str | Path) -> None:
    """Write a game in the format its extension names."""
    from .jsonfmt import dump_json
    from .notation import dump_text

    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: unknown game format {suffix!r}; use one of {', '.join(FORMATS)}")
    try:
        Path(path).write_text(dump_json(game) if suffix == ".json" else dump_text(game), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    """Handle `logicpy einstein …`: exit 0 when solved, 1 when a game has no solution, 2 on bad
    input; with several games, each is reported and the status is the worst of them."""
    if args.files[0] == "convert":
        if len(args.files) != 3:
            raise InputError("usage: logicpy einstein convert IN OUT (formats by extension: .json, .txt)")
        game = load_game(args.files[1])
        _warn(game)
        save_game(game, args.files[2])
        print(f"wrote {args.files[2]}", file=sys.stderr)
        return 0
    if args.files[0] == "generate":
        from .generate import run_generate

        return run_generate(args)
    if args.max < 1:
        raise InputError(f"--max must be at least 1, got {args.max}")
    status, documents = 0, []
    for path in args.files:
        try:
            code, document = _solve_one(path, args, several=len(args.files) > 1)
        except LogicpyError as exc:
            if len(args.files) == 1:
                raise
            print(f"logicpy: error: {exc}", file=sys.stderr)
            code, document = 2, {"file": path, "error": str(exc)}
        documents.append(document)
        status = max(status, code)
    if args.json:  # one JSON document: a result, or a list of them for several games
        print(json.dumps(documents[0] if len(documents) == 1 else documents, indent=2, ensure_ascii=False))
    return status


def _warn(game) -> None:
    for warning in game.warnings:
        print(f"logicpy: warning: {warning}", file=sys.stderr)


def _solve_one(path: str, args: argparse.Namespace, several: bool) -> tuple[int, dict]:
    """Solve (or count) one game file and print it; (exit status, JSON document)."""
    from .render import render_text, result_to_data
    from .solve import count, solve

    game = load_game(path)
    _warn(game)
    start = time.perf_counter()
    with _progress(path) as report:
        if args.count:
            n = count(game, args.strategy, progress=report)
        else:
            result = solve(game, args.strategy, max_solutions=args.max, progress=report)
    elapsed = (time.perf_counter() - start) * 1e3
    if args.count:
        print(f"{path}: counted in {elapsed:.1f} ms", file=sys.stderr)
        if not args.json:
            print(f"{path}: {n:,} solution{'s' * (n != 1)}" if several else f"{n:,} solution{'s' * (n != 1)}")
        return (0 if n else 1), {"game": game.name, "count": n, "complete": True}
    verb = "solved" if result.solutions else "searched"
    print(f"{path}: {verb} in {elapsed:.1f} ms", file=sys.stderr)
    if not args.json:
        if several:
            print(f"== {path}")
        print(render_text(result, args.show))
        if result.solutions:
            print(f"\nverified: every clue checked directly on {'each' if result.count > 1 else 'the'} solution")
    if args.explain:
        _print_explanation(game, result, args)
    return (0 if result.solutions else 1), result_to_data(result)


def _print_explanation(game, result, args: argparse.Namespace) -> None:
    from .explain import explain
    from .render import render_explanation

    solution = result.solutions[0] if result.solutions else None
    text = render_explanation(explain(game, solution, grids=args.grids), grids=args.grids)
    print("\n" + text, file=sys.stderr if args.json else sys.stdout)


@contextmanager
def _progress(path: str):
    """A progress line on a terminal (solutions found so far), yielding the callback; quiet otherwise."""
    with terminal_progress() as bar:
        if bar is None:
            yield None
            return
        task = bar.add_task(f"{path}: searching", total=None)
        yield lambda n: bar.update(task, description=f"{path}: {n:,} solutions so far")
