"""`logicpy gods`: solve, verify and cross-check the Hardest Logic Puzzle Ever.

    logicpy gods [solve] [--questions K] [--complexity C] [--semantics S] [--all] [--json | --mermaid]
    logicpy gods verify TREE.json [puzzle options]
    logicpy gods crosscheck FILE.pl ...          (against a Prolog solver in the original vocabulary)
    logicpy gods census [--gods 1..4] ...        (logicpy.puzzles.gods.census.cli)

Exit statuses are those of every logicpy command (`logicpy.cli_contract`): 0 a tree was found
(or verified, or the file agrees), 1 none exists within the bounds (or the tree fails, or the
file disagrees), 2 bad input, 4 the Prolog side ran past its time limit. The status is kept
when the output pipe closes early (`| head`), so a failed verify never looks like success
under `pipefail`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from ...cli_contract import EXIT, emit, print_lines
from ...errors import InputError, read_json_file
from ...progress import terminal_progress
from . import CLASSIC, FOUR_GODS, KNIGHT_OR_KNAVE, KNOWN_TRULY_FIRST, RANDOM_NOT_FIRST
from .grammar import CLASSIC_GRAMMAR, Grammar, Rule
from .model import TYPES, GodType, Puzzle, Semantics
from .solve import DEFAULT_COMPLEXITY, report, solve
from .tree import render_mermaid, render_text, tree_from_json
from .verify import verify

__all__ = ["register", "puzzle_from_args", "load_rules"]

PUZZLES = {p.name: p for p in (CLASSIC, KNIGHT_OR_KNAVE, FOUR_GODS, RANDOM_NOT_FIRST, KNOWN_TRULY_FIRST)}


def register(subparsers: Any) -> None:
    """Add `logicpy gods` (with `solve`, `verify`, `crosscheck`) to the logicpy command."""
    gods = subparsers.add_parser(
        "gods",
        help="the Hardest Logic Puzzle Ever: solve, verify, cross-check",
        description="Solve the three gods puzzle (or a variant) exactly; `logicpy gods` alone solves the classic one.",
    )
    _add_solve_arguments(gods)
    gods.set_defaults(func=run_solve)
    actions = gods.add_subparsers(dest="gods_action", metavar="[ACTION]")
    # Sub-actions take the same options without defaults, so options given before the
    # action (`logicpy gods --questions 2 solve`) are kept, not reset.
    solve_parser = actions.add_parser("solve", help="find a question tree (the default action)",
                                      argument_default=argparse.SUPPRESS)
    _add_solve_arguments(solve_parser, defaults=False)
    solve_parser.set_defaults(func=run_solve)
    verify_parser = actions.add_parser("verify", help="replay a tree from a JSON file in every world",
                                       argument_default=argparse.SUPPRESS)
    verify_parser.add_argument("file", metavar="TREE.json", help="a tree, or the output of `logicpy gods --json`")
    _add_puzzle_arguments(verify_parser, defaults=False)
    verify_parser.set_defaults(func=run_verify)
    _register_crosscheck(actions)
    census_parser = actions.add_parser(
        "census", help="every puzzle of a space: least questions and complexity, proofs of none",
        description="Run the census of gods puzzles on Dask workers (a local cluster by default), "
                    "store every row in SQLite (resumable), and summarise the hardest.")
    from .census import cli as census_cli

    census_cli.add_arguments(census_parser)
    census_parser.set_defaults(func=census_cli.run)


def _default(value: Any, defaults: bool) -> Any:
    return value if defaults else argparse.SUPPRESS


def _add_puzzle_arguments(parser: argparse.ArgumentParser, defaults: bool = True) -> None:
    group = parser.add_argument_group("puzzle")
    group.add_argument("--puzzle", choices=sorted(PUZZLES), help="a named puzzle (default: classic)")
    group.add_argument("--gods", type=int, metavar="N", help="N gods cycling Truly, Falsely, Random (4: two Trulys)")
    group.add_argument("--types", metavar="T,T,...", help="the gods' types as a multiset, e.g. truly,falsely,random")
    group.add_argument("--allow", action="append", default=_default([], defaults), metavar="POS:TYPES",
                       help="types allowed at a position, e.g. 1:truly,falsely (repeatable)")
    group.add_argument("--known", action="append", default=_default([], defaults), metavar="POS=TYPE",
                       help="a position's known type, e.g. 2=random (repeatable)")
    group.add_argument("--semantics", choices=[s.value for s in Semantics],
                       help="Random's behaviour: free (default: ja/da at random), boolos (truthful or lying "
                            "at random), silent (may also stay silent); explode, explode-boolos, explode-silent: "
                            "the same plus self-referential questions, answered by fixed point (heads may explode)")
    group.add_argument("--rules", metavar="FILE.py|MODULE", help="extra grammar rules: the RULES list of a Python file or module")
    group.add_argument("--gods-file", metavar="FILE.py|MODULE",
                       help="extra god types: the GODS list (of GodType) of a Python file or module; "
                            "name them in --types/--allow/--known")


def _add_solve_arguments(parser: argparse.ArgumentParser, defaults: bool = True) -> None:
    _add_puzzle_arguments(parser, defaults)
    search = parser.add_argument_group("search")
    search.add_argument("--questions", type=int, default=_default(3, defaults), help="questions per branch at most (default: 3)")
    search.add_argument("--complexity", type=int, default=_default(DEFAULT_COMPLEXITY, defaults),
                        help=f"question complexity at most (default: {DEFAULT_COMPLEXITY})")
    search.add_argument("--all", action="store_true", help="count all distinct trees and show some")
    search.add_argument("--limit", type=int, default=_default(None, defaults), metavar="N",
                        help="trees shown with --all (default: 3; with --json 100)")
    search.add_argument("--report", action="store_true",
                        help="least questions (complexity <= --complexity) and least complexity for that many")
    shard = parser.add_argument_group("big universes (built sharded by signature on Dask workers)")
    shard.add_argument("--sharded", action="store_true",
                       help="build universe levels of 2^25 candidates or more sharded, on a local Dask "
                            "cluster (or --cluster), kept on disk and resumed if interrupted")
    shard.add_argument("--workers", type=int, default=_default(None, defaults), metavar="N",
                       help="local cluster workers for --sharded (default: one per core)")
    shard.add_argument("--cluster", default=_default(None, defaults), metavar="ADDRESS",
                       help="a running Dask scheduler for --sharded; its workers must share --shard-dir")
    shard.add_argument("--shard-dir", default=_default(None, defaults), metavar="DIR",
                       help="where sharded levels are kept (default: ~/.cache/logicpy/universe)")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", default=_default(False, defaults),
                        help="the result as one JSON line (trees in the documented format)")
    output.add_argument("--mermaid", action="store_true", help="the tree as a Mermaid flowchart")
    output.add_argument("--stats", action="store_true", help="universe and search statistics")


def _register_crosscheck(actions: Any) -> None:
    from .backends.prolog import ORIGINAL_SEMANTICS

    parser = actions.add_parser("crosscheck", help="compare with a Prolog solver in the original vocabulary",
                                description="Run each Prolog FILE's own search for a question tree, replay its "
                                            "tree in logicpy's worlds and compare it with logicpy's answer.")
    parser.add_argument("files", nargs="+", metavar="FILE.pl", help="Prolog files in the original vocabulary (or shipped ones by name: gods, gods_silent)")
    parser.add_argument("--puzzle", choices=sorted(PUZZLES), default="classic", help="which puzzle (default: classic)")
    parser.add_argument("--semantics", choices=[s.value for s in ORIGINAL_SEMANTICS], default="free",
                        help="free (final_solution.pl, default) or silent (random_silent.pl: ternary trees)")
    parser.add_argument("--questions", type=int, default=3, help="questions per branch (default: 3)")
    parser.add_argument("--complexity", type=int, default=1, help="question complexity bound (default: 1)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds the file may search (default: 60)")
    parser.add_argument("--show-tree", action="store_true", help="print the file's tree as logicpy reads it")
    parser.set_defaults(func=run_crosscheck)


def run_crosscheck(args: argparse.Namespace) -> int:
    """`logicpy gods crosscheck FILE.pl ...`: ok if every file agrees, none if any disagrees,
    timeout if a file's search ran past --timeout and nothing disagreed."""
    from .backends.prolog import crosscheck_file

    puzzle = PUZZLES[args.puzzle].with_options(semantics=args.semantics)
    results = [crosscheck_file(file, puzzle, args.questions, args.complexity, args.timeout) for file in args.files]
    if all(r.ok for r in results):
        status = "ok"
    elif all(r.ok or r.inconclusive for r in results):
        status = "timeout"
    else:
        status = "none"
    if args.json:
        return emit(args, status, {"results": [r.to_json() for r in results]})
    return emit_text([r.render(show_tree=args.show_tree) for r in results], EXIT[status])


# -- building the puzzle from options ----------------------------------------------------------
def _load_module(source: str, option: str) -> Any:
    """A Python file or importable module given on the command line (InputError naming it otherwise)."""
    try:
        if source.endswith(".py") or Path(source).is_file():
            path = Path(source)
            if not path.is_file():
                raise InputError(f"{option}: no such file {source}")
            spec = importlib.util.spec_from_file_location(f"_logicpy_{option.strip('-')}_{path.stem}", path)
            if spec is None or spec.loader is None:
                raise InputError(f"{option}: {source} cannot be loaded as a Python module")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
        return importlib.import_module(source)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"{option} {source}: cannot load: {type(exc).__name__}: {exc}") from None


def _load_list(source: str, option: str, name: str, kind: type, build: str) -> tuple:
    """The list called `name` in `source`, each item a `kind` (InputError naming the item otherwise)."""
    items = getattr(_load_module(source, option), name, None)
    if items is None:
        raise InputError(f"{option} {source}: defines no {name} list")
    items = tuple(items)
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise InputError(f"{option} {source}: {name}[{i}] is not a {kind.__name__} (build it with {build})")
    return items


def load_rules(source: str) -> tuple[Rule, ...]:
    """The `RULES` of a Python file or importable module (InputError naming the source otherwise)."""
    return _load_list(source, "--rules", "RULES", Rule, "atom() or connective()")


def load_gods(source: str) -> tuple[GodType, ...]:
    """The `GODS` (god types) of a Python file or importable module."""
    return _load_list(source, "--gods-file", "GODS", GodType, "GodType(name, letter, answer)")


def _parse_position(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(f"{option}: position {text!r} is not an integer") from None


def _split_types(text: str, option: str, names: tuple[str, ...] = TYPES) -> list[str]:
    types = [t.strip().lower() for t in text.split(",") if t.strip()]
    for t in types:
        if t not in names:
            raise InputError(f"{option}: unknown god type {t!r} (choose from {', '.join(names)})")
    return types


def puzzle_from_args(args: argparse.Namespace) -> Puzzle:
    """The puzzle the options describe (the classic one by default)."""
    grammar: Grammar = CLASSIC_GRAMMAR
    if args.rules:
        grammar = grammar.extend(*load_rules(args.rules))
    gods = load_gods(args.gods_file) if getattr(args, "gods_file", None) else ()
    names = TYPES + tuple(g.name for g in gods)
    custom = args.gods is not None or args.types or args.allow or args.known
    if args.puzzle and custom:
        raise InputError("--puzzle cannot be combined with --gods/--types/--allow/--known")
    if not custom:
        base = PUZZLES[args.puzzle or "classic"]
        changes: dict[str, Any] = {"grammar": grammar, "gods": gods}
        if args.semantics:
            changes["semantics"] = args.semantics
        return base.with_options(**changes)
    if args.types:
        types = _split_types(args.types, "--types", names)
        if args.gods is not None and args.gods != len(types):
            raise InputError(f"--gods {args.gods} does not match the {len(types)} types of --types")
    else:
        n = 3 if args.gods is None else args.gods
        if n < 1:
            raise InputError(f"--gods must be at least 1, got {n}")
        types = [TYPES[i % 3] for i in range(n)]
    allowed = {}
    for item in args.allow:
        pos, sep, kinds = item.partition(":")
        if not sep:
            raise InputError(f"--allow {item!r}: expected POS:TYPES, e.g. 1:truly,falsely")
        allowed[_parse_position(pos, "--allow")] = _split_types(kinds, f"--allow {item}", names)
    known = {}
    for item in args.known:
        pos, sep, name = item.partition("=")
        if not sep:
            raise InputError(f"--known {item!r}: expected POS=TYPE, e.g. 2=random")
        (known[_parse_position(pos, "--known")],) = _split_types(name, f"--known {item}", names) or [""]
    return Puzzle.permutations(
        types, allowed=allowed, known=known, semantics=args.semantics or "free", grammar=grammar,
        name=_custom_name(types, allowed, known, gods), gods=gods,
    )


def _custom_name(types: list[str], allowed: dict[int, list[str]], known: dict[int, str],
                 gods: tuple[GodType, ...] = ()) -> str:
    """A readable name for a puzzle built from options, e.g. "TFR, 1 known truly"."""
    letters = {g.name: g.letter for g in gods}
    parts = ["".join(letters.get(t, t[0].upper()) for t in types)]
    parts += [f"{p} one of {'/'.join(ts)}" for p, ts in sorted(allowed.items())]
    parts += [f"{p} known {t}" for p, t in sorted(known.items())]
    return ", ".join(parts)


# -- actions -----------------------------------------------------------------------------------
def _progress(bar: Any) -> Callable[[str, int, int], None] | None:
    """The search's progress callback on a `terminal_progress` bar: one task per label."""
    if bar is None:
        return None
    tasks: dict[str, Any] = {}

    def update(label: str, done: int, total: int) -> None:
        if label not in tasks:
            tasks[label] = bar.add_task(f"universe {label}", total=total)
        bar.update(tasks[label], completed=done, total=total)

    return update


def run_solve(args: argparse.Namespace) -> int:
    """`logicpy gods [solve]`."""
    puzzle = puzzle_from_args(args)
    if args.json and args.mermaid:
        raise InputError("choose one of --json and --mermaid")
    limit = args.limit if args.limit is not None else (100 if args.json else 3)
    if limit < 0:
        raise InputError(f"--limit must be >= 0, got {limit}")
    with terminal_progress() as bar, _sharding(args) as sharding:
        if args.report:
            return _run_report(puzzle, args, sharding)
        result = solve(puzzle, args.questions, args.complexity, "all" if args.all else "one",
                       limit=limit, progress=_progress(bar), sharding=sharding)
    timing = ", ".join(f"{k} {v:.3f} s" for k, v in result.seconds.items())
    status = 0 if result.count else 1
    out: list[str] = []
    if args.json:
        print(f"time: {timing}", file=sys.stderr)
        return emit(args, "ok" if result.count else "none", _outcome(result.to_json()))
    if args.mermaid:
        if result.tree is None:
            print(result.verdict, file=sys.stderr)
        else:
            out.append(render_mermaid(result.tree, puzzle))
    else:
        out += [result.verdict, f"puzzle: {puzzle}"]
        for i, tree in enumerate(result.trees, 1):
            if len(result.trees) > 1:
                out.append(f"\ntree {i}:")
            out += [render_text(tree, puzzle), str(verify(puzzle, tree, args.questions))]
        if args.stats:
            out.append(f"universe: {list(result.level_counts)} new signatures per complexity level, "
                       f"{result.moves} distinct moves")
            out.append(f"search: {vars(result.search)}")
    print(f"time: {timing}", file=sys.stderr)
    return emit_text(out, status)


def emit_text(lines: list[str], status: int) -> int:
    """Print `lines` to stdout and return `status`, also when the reader closed the pipe early."""
    print_lines(lines)
    return status


def _outcome(data: dict[str, Any]) -> dict[str, Any]:
    """A result's JSON data with its own status under "outcome" (the envelope has "status")."""
    return {("outcome" if k == "status" else k): v for k, v in data.items()}


@contextlib.contextmanager
def _sharding(args: argparse.Namespace) -> Iterator[Any]:
    """The `Sharding` that --sharded asks for, its engine running for the block (else None)."""
    if not getattr(args, "sharded", False):
        if getattr(args, "workers", None) or getattr(args, "cluster", None) or getattr(args, "shard_dir", None):
            raise InputError("--workers, --cluster and --shard-dir need --sharded")
        yield None
        return
    from .census.cluster import Engine
    from .census.shards import DEFAULT_CACHE, Sharding

    with Engine(args.workers, args.cluster) as engine:
        yield Sharding(engine=engine, cache_dir=Path(args.shard_dir) if args.shard_dir else DEFAULT_CACHE)


def _run_report(puzzle: Puzzle, args: argparse.Namespace, sharding: Any = None) -> int:
    outcome = report(puzzle, max_complexity=args.complexity, max_questions=max(args.questions, 1) + 3,
                     sharding=sharding)
    status = 0 if outcome.least_questions is not None else 1
    if args.json:
        return emit(args, "ok" if status == 0 else "none",
                    {"puzzle": puzzle.name, "max_complexity": outcome.max_complexity,
                     "max_questions": outcome.max_questions, "least_questions": outcome.least_questions,
                     "least_complexity": outcome.least_complexity})
    return emit_text([str(outcome)], status)


def run_verify(args: argparse.Namespace) -> int:
    """`logicpy gods verify TREE.json`: replay every tree in the file.

    A result file (`logicpy gods --json`) names its semantics; it is used unless
    `--semantics` is given.
    """
    data = read_json_file(args.file)
    saved = data.get("puzzle") if isinstance(data, dict) else None
    if not args.semantics and isinstance(saved, dict) and isinstance(saved.get("semantics"), str):
        args.semantics = Semantics.parse(saved["semantics"]).value
    puzzle = puzzle_from_args(args)
    if isinstance(data, dict) and "trees" in data:
        items = [(f"{args.file}: $.trees[{i}]", t) for i, t in enumerate(data["trees"])]
    else:
        items = [(f"{args.file}: $", data)]
    if not items:
        raise InputError(f"{args.file}: no tree to verify")
    failed = 0
    out, checks = [], []
    for where, item in items:
        try:
            tree = tree_from_json(item, puzzle)
        except InputError as exc:
            raise InputError(f"{args.file}: {exc}") from None
        check = verify(puzzle, tree)
        path = where.split(": ", 1)[1]
        out.append(f"{path if len(items) > 1 else args.file}: {check}")
        checks.append({"tree": path, "ok": check.ok, "worlds": len(puzzle.hidden_worlds),
                       "problems": list(check.problems)})
        failed += not check.ok
    if args.json:
        return emit(args, "none" if failed else "ok", {"file": args.file, "puzzle": puzzle.name, "trees": checks})
    return emit_text(out, 1 if failed else 0)

