"""`logicpy einstein GAME…` (solve, --json, --explain, --max, --count, --engine), `convert IN OUT` and `generate`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from ...cli_contract import EXIT, emit
from ...core.fd import STRATEGIES
from ...errors import InputError, LogicpyError
from ...progress import terminal_progress
from .files import load_game, save_game
from .solve import ENGINES

__all__ = ["register"]

#: Seconds `generate` may take unless told otherwise (a large grid of a rare difficulty takes many seeds).
GENERATE_TIMEOUT = 600.0


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
    output.add_argument("--json", action="store_true", help="print the result as one JSON line")
    output.add_argument("--explain", action="store_true", help="print a step-by-step deduction in grid terms")
    output.add_argument("--grids", action="store_true", help="with --explain: the candidate grid after each step")
    output.add_argument("--show", type=int, default=10, metavar="N", help="solution tables to print (default 10)")
    search = parser.add_argument_group("search")
    search.add_argument(
        "--engine", choices=ENGINES, default="auto",
        help="what finds the solutions: sat = a conflict-learning SAT solver (CaDiCaL, from python-sat), "
             "fd = FD propagation and search, auto = sat when python-sat can be imported (default); "
             "--count always uses the FD search",
    )
    search.add_argument(
        "--strategy", choices=sorted(STRATEGIES), default="wdeg",
        help="labelling order of the FD search (default wdeg): " + "; ".join(f"{k} = {v}" for k, v in STRATEGIES.items()),
    )
    search.add_argument("--max", type=int, default=1000, metavar="N",
                        help="stop after N solutions and say there are at least N (default 1000)")
    search.add_argument("--count", action="store_true", help="count every solution without keeping them")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help="stop after S seconds with exit status 4, saying how far it got (default 120, "
                             f"{GENERATE_TIMEOUT:g} for generate; 0: no limit)")
    _add_generate_arguments(parser)
    parser.set_defaults(func=run)


def _add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `logicpy einstein generate`."""
    from .generate import CLUE_TYPES, DIFFICULTIES, MAX_KINDS, MAX_THINGS

    group = parser.add_argument_group("generate (logicpy einstein generate …)")
    group.add_argument("--kinds", type=int, default=4, help=f"kinds of things, 2..{MAX_KINDS} (default 4)")
    group.add_argument("--things", type=int, default=5, help=f"things per kind, 2..{MAX_THINGS} (default 5)")
    group.add_argument("--seed", type=int, help="make the same game again (the number used is always printed)")
    group.add_argument("--difficulty", choices=DIFFICULTIES, help="retry seeds until the explainer rates it so")
    group.add_argument("--clue-types", metavar="T,T,…",
                       help=f"clue types to draw from (default all): {', '.join(CLUE_TYPES)}")
    group.add_argument("-o", "--output", metavar="GAME", help="write the game (.json or .txt, by extension)")
    group.add_argument("--answer", metavar="FILE", help="write the solution (.json result, or a .txt table)")


def run(args: argparse.Namespace) -> int:
    """Handle `logicpy einstein …` under the --timeout alarm (exit 4, saying how far it got, when it rings)."""
    from ...alarm import TimeUp, time_limit

    if args.timeout is None:
        args.timeout = GENERATE_TIMEOUT if args.files[0] == "generate" else 120.0
    args.reached = ""  # how far the work got, for the message when time runs out
    try:
        with time_limit(args.timeout):
            return _run(args)
    except TimeUp:
        reason = f"gave up after {args.timeout:g} s{': ' + args.reached if args.reached else ''} (raise --timeout, or 0 for no limit)"
        if args.json:
            return emit(args, "timeout", {"reason": reason})
        print(f"logicpy: {reason}", file=sys.stderr)
        return EXIT["timeout"]
    except (MemoryError, RecursionError) as exc:
        what = "out of memory" if isinstance(exc, MemoryError) else "too deep for the solver"
        raise InputError(f"{args.reached or 'the request'}: {what}; try a smaller game") from None


def _run(args: argparse.Namespace) -> int:
    """ok when solved, none when a game has no solution, error on bad input; with several games,
    each is reported and the status is the worst of them."""
    if args.files[0] == "convert":
        args.command_name = "einstein convert"
        if len(args.files) != 3:
            raise InputError("usage: logicpy einstein convert IN OUT (formats by extension: .json, .txt)")
        game = load_game(args.files[1])
        _warn(game)
        save_game(game, args.files[2])
        print(f"wrote {args.files[2]}", file=sys.stderr)
        if args.json:
            return emit(args, "ok", {"input": args.files[1], "output": args.files[2], "game": game.name,
                                     "warnings": list(game.warnings)})
        return 0
    if args.files[0] == "generate":
        args.command_name = "einstein generate"
        return run_generate(args)
    if args.max < 1:
        raise InputError(f"--max must be at least 1, got {args.max}")
    status, documents = "ok", []
    for path in args.files:
        try:
            code, document = _solve_one(path, args, several=len(args.files) > 1)
        except LogicpyError as exc:
            if len(args.files) == 1:
                raise
            if not args.json:  # under --json the error is in the file's result
                print(f"logicpy: error: {exc}", file=sys.stderr)
            code, document = "error", {"error": str(exc)}
        documents.append({"file": path, "status": code, **document})
        status = max(status, code, key=EXIT.__getitem__)
    if args.json:  # one line: a result per game
        return emit(args, status, {"results": documents})
    return EXIT[status]


def _warn(game) -> None:
    for warning in game.warnings:
        print(f"logicpy: warning: {warning}", file=sys.stderr)


def _solve_one(path: str, args: argparse.Namespace, several: bool) -> tuple[str, dict]:
    """Solve (or count) one game file and print it; (status, JSON data)."""
    from .compile import check_size
    from .render import render_text, result_to_data
    from .solve import ENGINE_NAMES, count, keep_limit, solve, upper_bound

    game = load_game(path)
    _warn(game)
    check_size(game)
    start = time.perf_counter()
    args.reached = f"{path}: searching"
    with _progress(path) as report:

        def reached(n: int) -> None:
            args.reached = f"{path}: at least {n:,} solutions {'counted' if args.count else 'found'} so far"
            if report is not None:
                report(n)

        if args.count:
            n = count(game, args.strategy, progress=reached)
        else:
            result = solve(game, args.strategy, max_solutions=args.max, progress=reached, engine=args.engine)
            cap = keep_limit(game)
            if result.count == cap < args.max and not result.complete:
                print(f"logicpy: {path}: kept the first {cap:,} solutions: more would not fit in the memory "
                      f"set aside for them (about {upper_bound(game):.1e} grids of this shape exist)", file=sys.stderr)
    elapsed = (time.perf_counter() - start) * 1e3
    if args.count:
        print(f"{path}: counted in {elapsed:.1f} ms (FD search)", file=sys.stderr)
        if not args.json:
            print(f"{path}: {n:,} solution{'s' * (n != 1)}" if several else f"{n:,} solution{'s' * (n != 1)}")
        return ("ok" if n else "none"), {"game": game.name, "count": n, "complete": True, "engine": "fd"}
    verb = "solved" if result.solutions else "searched"
    print(f"{path}: {verb} in {elapsed:.1f} ms ({ENGINE_NAMES[result.engine]})", file=sys.stderr)
    if result.note:
        print(f"logicpy: note: {result.note}", file=sys.stderr)
    if not args.json:
        if several:
            print(f"== {path}")
        print(render_text(result, args.show))
        if result.solutions:
            print(f"\nverified: every clue checked directly on {'each' if result.count > 1 else 'the'} solution")
    if args.explain:
        _print_explanation(game, result, args)
    data = result_to_data(result)
    data["outcome"] = data.pop("status")
    return ("ok" if result.solutions else "none"), data


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


def run_generate(args: argparse.Namespace) -> int:
    """`logicpy einstein generate`: make a game, print it as numbered sentences, save it and its answer."""
    from .generate import generate
    from .render import render_grid, result_to_data
    from .solve import Result, solve

    if len(args.files) != 1:
        raise InputError("usage: logicpy einstein generate [--kinds K] [--things N] [--seed S] [-o GAME] …")
    types = [t.strip() for t in args.clue_types.split(",")] if args.clue_types else None
    with terminal_progress() as bar:
        task = bar.add_task("generating", total=None) if bar else None

        def report(stage: str, done: int, total: int | None) -> None:
            args.reached = f"generating, {stage}"
            if bar is not None:
                bar.update(task, description=stage, completed=done, total=total)

        g = generate(args.kinds, args.things, args.seed, args.difficulty, types, progress=report)
    result = solve(g.game)  # re-solved: the game must have exactly the hidden grid as its solution
    if result.solutions != (g.solution,):
        raise InputError(f"internal error: generated game is {result.status}, not unique")
    print(_summary(g), file=sys.stderr)
    if args.output:
        save_game(g.game, args.output)
        print(f"wrote {args.output}", file=sys.stderr)
    if args.answer:
        path = Path(args.answer)
        text = (json.dumps(result_to_data(Result(g.game, (g.solution,))), indent=2, ensure_ascii=False) + "\n"
                if path.suffix.lower() == ".json" else render_grid(g.game, g.solution) + "\n")
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {args.answer}", file=sys.stderr)
    if args.json:
        from .jsonfmt import game_to_data

        return emit(args, "ok", {"seed": g.seed, "difficulty": g.difficulty, "measures": g.measures,
                                 "game": game_to_data(g.game), "solution": [list(row) for row in g.solution]})
    kinds = "; ".join(f"{k.name}: {', '.join(k.things)}" for k in g.game.kinds)
    print(f"{kinds}\n")
    print("\n".join(f"{c.number:>3}. {c.text}" for c in g.game.clues))
    return 0


def _summary(g) -> str:
    m = g.measures
    return (f"generated {g.game.size} things × {len(g.game.kinds)} kinds, seed {g.seed}: {len(g.game.clues)} clues, "
            f"unique and minimal; difficulty {g.difficulty} (explainer: {m['clue_steps']} clue steps, "
            f"{m['failed_assumptions']} failed assumptions, {m['guesses']} guesses)")
