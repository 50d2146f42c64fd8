"""`logicpy einstein GAME` (solve, --json, --explain) and `logicpy einstein convert IN OUT`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ...core.fd import STRATEGIES
from ...errors import InputError

__all__ = ["register", "load_game", "save_game"]

FORMATS = {".json": "JSON (einstein-solver's format)", ".txt": "text notation"}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `einstein` subcommand."""
    parser = subparsers.add_parser(
        "einstein",
        help="solve Einstein (zebra) logic-grid puzzles",
        description="Solve a logic-grid game (GAME.json in einstein-solver's format, or GAME.txt in the "
        "text notation), or convert between the formats: `logicpy einstein convert IN OUT`.",
    )
    parser.add_argument("files", nargs="+", metavar="GAME", help="a game file, or: convert IN OUT")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print the result as JSON")
    output.add_argument("--explain", action="store_true", help="print a step-by-step deduction in grid terms")
    search = parser.add_argument_group("search")
    search.add_argument(
        "--strategy", choices=sorted(STRATEGIES), default="ff",
        help="labelling order (default ff): " + "; ".join(f"{k} = {v}" for k, v in STRATEGIES.items()),
    )
    parser.set_defaults(func=run)


def load_game(path: str | Path):
    """Read a game by its extension (.json or .txt)."""
    from .jsonfmt import load_json
    from .notation import load_text

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
    """Handle `logicpy einstein …`; exit 0 when solved, 1 when the game has no solution."""
    if args.files[0] == "convert":
        if len(args.files) != 3:
            raise InputError("usage: logicpy einstein convert IN OUT (formats by extension: .json, .txt)")
        save_game(load_game(args.files[1]), args.files[2])
        print(f"wrote {args.files[2]}", file=sys.stderr)
        return 0
    from .explain import explain
    from .render import render_explanation, render_text, result_to_data
    from .solve import solve

    status, documents = 0, []
    for path in args.files:
        game = load_game(path)
        start = time.perf_counter()
        result = solve(game, args.strategy)
        print(f"{path}: solved in {(time.perf_counter() - start) * 1e3:.1f} ms", file=sys.stderr)
        if args.json:
            documents.append(result_to_data(result))
        else:
            if len(args.files) > 1:
                print(f"== {path}")
            print(render_text(result))
            if result.solutions:
                print(f"\nverified: every clue checked directly on {'each' if result.count > 1 else 'the'} solution")
        if args.explain:
            solution = result.solutions[0] if result.solutions else None
            print("\n" + render_explanation(explain(game, solution)), file=sys.stderr if args.json else sys.stdout)
        status = max(status, 0 if result.solutions else 1)
    if args.json:  # one JSON document: a result, or a list of them for several games
        print(json.dumps(documents[0] if len(documents) == 1 else documents, indent=2, ensure_ascii=False))
    return status
