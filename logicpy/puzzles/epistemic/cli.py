"""`logicpy cheryl`: Cheryl's Birthday and the other public-announcement puzzles, step by step.

    logicpy cheryl [--story classic|eve|complex] [--dates 'April 17, …' | --dates-file F]
    logicpy cheryl sum-product | sam-pat | age | children | muddy -n N -m M | what-sum | bus | pads
    logicpy cheryl generate --story eve --seed 3       (a new date list with a unique answer)
    logicpy cheryl distribution --story classic        (solution counts over random samples)

Each prints the statements with the candidates left after each, the verdict and the check
that was run; `--json` prints the same as one JSON line; `--why` explains every removal.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ...cli_contract import EXIT, emit
from ...errors import InputError, NoSolution
from ...progress import terminal_progress

__all__ = ["register"]

STORY_KINDS = ("classic", "eve", "complex")


def _output_flags(parser: argparse.ArgumentParser, suppress: bool, story: bool = True) -> None:
    """--json, and for commands that tell a story, --why and --svg (SUPPRESS keeps the parent's value)."""
    group = parser.add_argument_group("output")
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    group.add_argument("--json", action="store_true", help="print the result as one JSON line", **default)
    if story:
        group.add_argument("--why", action="store_true", help="explain each removal in words (JSON always does)",
                           **default)
        group.add_argument("--svg", metavar="FILE", help="also write a survival chart (candidates x statements) "
                           "as SVG", **default)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `cheryl` subcommand and its puzzles."""
    parser = subparsers.add_parser(
        "cheryl", help="Cheryl's Birthday and other who-knows-what puzzles (public announcements)",
        description="Tell an epistemic puzzle statement by statement: each public announcement keeps the "
                    "worlds where it is true. Without a puzzle name: Cheryl's Birthday.",
    )
    dates = parser.add_argument_group("Cheryl's birthday")
    which = dates.add_mutually_exclusive_group()
    which.add_argument("--dates", metavar="'MONTH DAY, …'", help="the candidate dates, comma separated "
                       "(default: the original ten, or Norvig's ten for --story complex)")
    which.add_argument("--dates-file", metavar="FILE", help="the candidate dates, one a line (or the JSON that "
                       "`generate --json` writes)")
    dates.add_argument("--story", default="classic", help="classic (default), eve or complex (Norvig 2015)")
    _output_flags(parser, suppress=False)
    parser.set_defaults(func=run_birthday)
    puzzles = parser.add_subparsers(dest="puzzle", metavar="PUZZLE")

    def add(name: str, help_text: str, func, story: bool = True) -> argparse.ArgumentParser:
        sub = puzzles.add_parser(name, help=help_text, description=help_text)
        _output_flags(sub, suppress=True, story=story)
        sub.set_defaults(func=func)
        return sub

    sp = add("sum-product", "Freudenthal's Sum and Product: 1 < x < y, x + y <= LIMIT", run_story)
    sp.add_argument("--limit", type=int, default=100, help="largest sum (default 100)")
    sp.set_defaults(build=lambda a: _stories().sum_product(_at_least(a.limit, 5, "--limit")))
    pat = add("sam-pat", "Norvig's iterated Sam and Pat: KEY-1 rounds of 'I don't know', then Pat knows", run_story)
    pat.add_argument("--key", type=int, default=2, help="rounds before Pat knows (default 2)")
    pat.add_argument("--top", type=int, default=99, help="largest number (default 99)")
    pat.set_defaults(build=lambda a: _stories().sam_pat(_at_least(a.key, 1, "--key"), _at_least(a.top, 2, "--top")))
    add("age", "Cheryl's age: two younger brothers, product 144, the bus number is the sum", run_story).set_defaults(
        build=lambda a: _stories().CHERYL_AGE)
    add("children", "the census taker's three children: product 36, the sum is the number of rooms",
        run_story).set_defaults(build=lambda a: _stories().THREE_CHILDREN)
    add("bus", "the bus times 06:32 … 09:50, told as hour and minute", run_story).set_defaults(
        build=lambda a: _stories().BUS)
    add("pads", "the landing pads A2 … D4, told as letter and digit", run_story).set_defaults(
        build=lambda a: _stories().LANDING)
    muddy = add("muddy", "the muddy children: N children, M muddy; 'at least one', M-1 rounds of 'nobody "
                         "knows', then the muddy ones know", run_story)
    muddy.add_argument("-n", "--children", type=int, default=3, help="number of children (1-20, default 3; 2**N worlds)")
    muddy.add_argument("-m", "--muddy", type=int, default=2, help="number of muddy children (default 2)")
    muddy.set_defaults(build=_muddy)
    ws = add("what-sum", "what sum: three see each other's numbers, one is the sum of the other two", run_story)
    ws.add_argument("--anne", type=int, default=50, help="the number Anne finally knows (default 50)")
    ws.set_defaults(build=lambda a: _stories().what_sum(_at_least(a.anne, 2, "--anne")))
    for name, text in (("generate", "pick random dates for which a story has a unique answer"),
                       ("distribution", "count how many solutions random date lists have")):
        gen = add(name, text, run_generate, story=name == "generate")
        gen.add_argument("--story", default="classic", help="classic (default), eve or complex")
        gen.add_argument("--seed", type=int, default=None, help="random seed, for the same answer again")
        gen.add_argument("--size", type=int, default=10, help="dates per puzzle (default 10)")
        gen.add_argument("--pool", metavar="FILE", help="dates to sample from, one a line (default: "
                         "50 dates, March-July, days 15-19 and 25-29)")
        if name == "distribution":
            gen.add_argument("--samples", type=int, default=10_000, help="random samples (default 10,000)")


def _stories():
    from . import stories

    return stories


def _at_least(value: int, low: int, flag: str) -> int:
    if value < low:
        raise InputError(f"{flag} must be at least {low}, got {value}")
    return value


def _muddy(args: argparse.Namespace):
    n, m = args.children, args.muddy
    if not 1 <= n <= 20:
        raise InputError(f"--children must be between 1 and 20 (2**n worlds), got {n}")
    if not 1 <= m <= n:
        raise InputError(f"--muddy must be between 1 and --children ({n}), got {m}")
    return _stories().muddy_children(n, m)


def _story_kind(name: str) -> str:
    if name not in STORY_KINDS:
        raise InputError(f"unknown story {name!r}; choose one of {', '.join(STORY_KINDS)}")
    return name


def _dates(args: argparse.Namespace, default):
    from .dates import dates_from_text, read_dates

    if getattr(args, "dates", None) is not None:
        return dates_from_text(args.dates)
    if getattr(args, "dates_file", None) is not None:
        return read_dates(args.dates_file)
    return default


def run_birthday(args: argparse.Namespace) -> int:
    """Handle `logicpy cheryl [--story] [--dates|--dates-file]`."""
    stories = _stories()
    kind = _story_kind(args.story)
    default = stories.COMPLEX_DATES if kind == "complex" else stories.CLASSIC_DATES
    args.build = lambda a: stories.birthday(kind, _dates(a, default))
    return run_story(args)


def run_story(args: argparse.Namespace) -> int:
    """Build the story, solve it, check it, print it; exit 0 with solutions, 1 with none."""
    from .solve import solve

    story = args.build(args)
    start = time.perf_counter()
    result = solve(story)
    print(f"solved in {(time.perf_counter() - start) * 1e3:.1f} ms", file=sys.stderr)
    return _print_result(args, result, _muddy_knowers(args, result))


def _print_result(args: argparse.Namespace, result, knowers=None, extra: dict | None = None) -> int:
    """Check a result, then print it (text or JSON) and write its SVG; exit 0 with solutions, 1 without."""
    from ...errors import LogicpyError
    from .render import render_text, result_to_data
    from .verify import verify

    story = result.story
    checked = verify(story, result)
    if not checked.ok:  # never print an answer the verifier rejects
        raise LogicpyError(f"internal error: the naive evaluator disagrees with the engine: {checked.problems[0]}; "
                           "please report it")
    if getattr(args, "svg", None):
        from .svg import render_svg

        try:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(render_svg(result))
        except OSError as exc:
            raise InputError(f"{args.svg}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {args.svg}", file=sys.stderr)
    status = "ok" if result.solutions else "none"
    if getattr(args, "json", False):
        data = {**(extra or {}), **result_to_data(result, str(checked))}
        data["outcome"] = data.pop("status")
        if knowers is not None:
            data["actual_world"] = {"world": story.show((1 << args.muddy) - 1), "knowers_before_each_statement": knowers}
        return emit(args, status, data)
    else:
        if extra:
            for key, value in extra.items():
                print(f"{key}: {', '.join(value) if isinstance(value, list) else value}")
        print(render_text(result, why=getattr(args, "why", False)))
        if knowers is not None:
            print(f"in the world {story.show((1 << args.muddy) - 1)} (children 1-{args.muddy} muddy), who knows "
                  "whether they are muddy, before each statement:")
            for k, names in enumerate(knowers, 1):
                print(f"  {k}. {', '.join(names) if names else 'nobody'}")
        print(checked)
    return EXIT[status]


def _muddy_knowers(args: argparse.Namespace, result) -> list[list[str]] | None:
    if getattr(args, "puzzle", None) != "muddy":
        return None
    return _stories().muddy_knowers(result, (1 << args.muddy) - 1)


def run_generate(args: argparse.Namespace) -> int:
    """Handle `generate` (a unique-answer date list) and `distribution` (solution counts)."""
    from .dates import read_dates
    from .solve import solve
    from .generate import distribution, pick

    stories = _stories()
    story = stories.birthday(_story_kind(args.story))
    pool = read_dates(args.pool) if args.pool else stories.DATE_POOL
    if args.puzzle == "distribution":
        count = _at_least(args.samples, 1, "--samples")
        start = time.perf_counter()
        with terminal_progress() as bar:
            progress = None
            if bar is not None and count > 50_000:  # long sampling runs only
                task = bar.add_task("samples", total=count)
                progress = lambda done, _total: bar.update(task, completed=done)  # noqa: E731
            counts = distribution(story, pool, count, args.size, args.seed, progress)
        print(f"{count:,} samples in {(time.perf_counter() - start) * 1e3:.0f} ms", file=sys.stderr)
        if getattr(args, "json", False):
            return emit(args, "ok", {"story": args.story, "samples": count, "size": args.size, "seed": args.seed,
                                     "counts": {str(k): v for k, v in counts.items()}})
        print(f"{args.story} story, {count:,} random samples of {args.size} dates from {len(pool)}:")
        for solutions, times in counts.items():
            label = "no solution" if solutions == 0 else "unique" if solutions == 1 else f"{solutions} solutions"
            print(f"  {label:>12}: {times:6,}  ({100 * times / count:.1f} %)")
        return 0
    if not 2 <= args.size <= len(pool):
        raise InputError(f"--size {args.size} must be between 2 and the pool's {len(pool)} dates")
    try:
        dates, answer = pick(story, pool, args.size, args.seed)
    except NoSolution as exc:
        if getattr(args, "json", False):
            return emit(args, "none", {"story": args.story, "seed": args.seed, "reason": str(exc)})
        print(f"no solution: {exc}")
        return 1
    return _print_result(args, solve(story.on(dates)), extra={"seed": args.seed, "dates": [str(d) for d in dates]})
