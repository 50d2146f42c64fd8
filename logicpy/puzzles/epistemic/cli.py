"""`logicpy cheryl`: Cheryl's Birthday and the other public-announcement puzzles, step by step.

    logicpy cheryl [--story classic|eve|complex] [--dates 'April 17, …' | --dates-file F]
    logicpy cheryl sum-product | sam-pat | age | children | muddy -n N -m M | what-sum | bus | pads
    logicpy cheryl russian-cards | consecutive | dining | attack | hats
    logicpy cheryl --story-file FILE [--reading together|split|both]   (a story in TOML)
    logicpy cheryl generate --story eve --seed 3       (a new date list with a unique answer)
    logicpy cheryl distribution --story classic        (solution counts over random samples)

Each prints the statements with the candidates left after each, the verdict and the check
that was run; `--json` prints the same as one JSON line; `--why` explains every removal;
`--engine explicit|symbolic` chooses the engine (default: by the model's size). A model whose
estimated memory passes `MEMORY_LIMIT` is refused before it is built, with the estimate.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

from ...cli_contract import EXIT, emit
from ...errors import InputError, NoSolution
from ...progress import terminal_progress
from .solve import ENGINES, MEMORY_LIMIT, size_text

__all__ = ["register"]

STORY_KINDS = ("classic", "eve", "complex")
#: The most children `muddy` takes: the symbolic engine's valuations (the explicit engine stops near 21).
MAX_CHILDREN = 62
#: Bytes per world while a story is built and told: pairs as Python tuples (Sum and Product, Sam and
#: Pat), rows of a numpy array (what sum); measured at 2.2 and 3.8 million worlds.
PAIR_BYTES, WHAT_SUM_BYTES = 170, 110


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


def _engine_flag(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """--engine (SUPPRESS keeps the parent's value)."""
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    parser.add_argument("--engine", choices=ENGINES, help="explicit (numpy arrays over every world), symbolic "
                        "(BDDs) or auto (default: by the model's size)", **default)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `cheryl` subcommand and its puzzles."""
    parser = subparsers.add_parser(
        "cheryl", help="Cheryl's Birthday and other who-knows-what puzzles (public announcements)",
        description="Tell an epistemic puzzle statement by statement: each public announcement keeps the "
                    "worlds where it is true, a private one refines what its group can tell apart. Without a "
                    "puzzle name: Cheryl's Birthday (or the story of --story-file).",
    )
    dates = parser.add_argument_group("Cheryl's birthday")
    which = dates.add_mutually_exclusive_group()
    which.add_argument("--dates", metavar="'MONTH DAY, …'", help="the candidate dates, comma separated "
                       "(default: the original ten, or Norvig's ten for --story complex)")
    which.add_argument("--dates-file", metavar="FILE", help="the candidate dates, one a line (or the JSON that "
                       "`generate --json` writes)")
    dates.add_argument("--story", dest="tale", default=None, metavar="STORY",
                       help="classic (default), eve or complex (Norvig 2015)")
    files = parser.add_argument_group("a story of your own")
    files.add_argument("--story-file", metavar="FILE", help="a story written in TOML (or a shipped story's name, "
                       "e.g. denise; `logicpy files` lists them)")
    files.add_argument("--reading", choices=("together", "split", "both"), default=None,
                       help="how a statement in several parts is read: together (one statement), split "
                            "(each part in turn), or both (default for such stories: the file's choice and the other)")
    _output_flags(parser, suppress=False)
    _engine_flag(parser, suppress=False)
    parser.set_defaults(func=run_birthday)
    puzzles = parser.add_subparsers(dest="puzzle", metavar="PUZZLE")

    def add(name: str, help_text: str, func, story: bool = True) -> argparse.ArgumentParser:
        sub = puzzles.add_parser(name, help=help_text, description=help_text)
        _output_flags(sub, suppress=True, story=story)
        if story and func is run_story:
            _engine_flag(sub, suppress=True)
        sub.set_defaults(func=func)
        return sub

    sp = add("sum-product", "Freudenthal's Sum and Product: 1 < x < y, x + y <= LIMIT", run_story)
    sp.add_argument("--limit", type=int, default=100, help="largest sum (default 100)")
    sp.set_defaults(build=lambda a: _stories().sum_product(_fits(_at_least(a.limit, 5, "--limit"), "--limit",
                                                                  lambda v: v * v // 4, PAIR_BYTES)))
    pat = add("sam-pat", "Norvig's iterated Sam and Pat: KEY-1 rounds of 'I don't know', then Pat knows", run_story)
    pat.add_argument("--key", type=int, default=2, help="rounds before Pat knows (default 2)")
    pat.add_argument("--top", type=int, default=99, help="largest number (default 99)")
    pat.set_defaults(build=lambda a: _stories().sam_pat(
        _at_least(a.key, 1, "--key"), _fits(_at_least(a.top, 2, "--top"), "--top", lambda v: v * (v - 1) // 2, PAIR_BYTES)))
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
    muddy.add_argument("-n", "--children", type=int, default=3, help=f"number of children (1-{MAX_CHILDREN}, "
                       "default 3; 2**N worlds)")
    muddy.add_argument("-m", "--muddy", type=int, default=2, help="number of muddy children (default 2)")
    muddy.set_defaults(build=_muddy)
    ws = add("what-sum", "what sum: three see each other's numbers, one is the sum of the other two", run_story)
    ws.add_argument("--anne", type=int, default=50, help="the number Anne finally knows (default 50)")
    ws.set_defaults(build=lambda a: _stories().what_sum(_fits(_at_least(a.anne, 2, "--anne"), "--anne",
                                                              _what_sum_worlds, WHAT_SUM_BYTES)))
    cards = add("russian-cards", "the Russian cards: Anne (holding 012) announces five hands; afterwards Bill "
                                 "knows the deal and Cath knows no card of Anne's or Bill's", run_story)
    cards.add_argument("--hands", default="012 034 056 135 246", metavar="'012 034 …'",
                       help="Anne's announcement: hands of three cards 0-6, one of them 012 (default: the "
                            "classic five hands)")
    cards.add_argument("--count", action="store_true",
                       help="also count every safe announcement, by number of hands")
    cards.set_defaults(build=_russian_cards)
    cons = add("consecutive", "the consecutive numbers: Anne and Bill are told numbers one apart", run_story)
    cons.add_argument("--reach", type=int, default=6, help="largest number judged (default 6; the model is cut at "
                                                             "REACH + 4, where that is exact)")
    cons.set_defaults(build=lambda a: _dynamic().consecutive_numbers(_at_least(a.reach, 3, "--reach")))
    dine = add("dining", "the dining cryptographers: who paid, told by three coin tosses", run_story)
    dine.add_argument("--payer", type=int, default=1, help="who paid: 1-3, or 0 for the employer (default 1)")
    dine.add_argument("--coins", default="000", help="the three coins, e.g. 010 (default 000)")
    dine.set_defaults(build=_dining)
    attack = add("attack", "the coordinated attack: common knowledge is never reached by messengers", run_story)
    attack.add_argument("--messages", type=int, default=6, help="messages tried (default 6; every number from 1 "
                                                                 "to it is told)")
    attack.set_defaults(build=lambda a: _dynamic().coordinated_attack(_at_least(a.messages, 1, "--messages")))
    add("hats", "hats with private looks: Anne and then Bill look at hats in private", run_story).set_defaults(
        build=lambda a: _dynamic().HATS)
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


def _dynamic():
    from . import dynamic

    return dynamic


def _russian_cards(args: argparse.Namespace):
    hands = []
    for word in args.hands.replace(",", " ").split():
        if not (word.isdigit() and len(word) == 3 and len(set(word)) == 3 and all(c in "0123456" for c in word)):
            raise InputError(f"--hands: {word!r} is not a hand of three different cards 0-6 (like 034)")
        hands.append(tuple(sorted(int(c) for c in word)))
    if (0, 1, 2) not in hands:
        raise InputError("--hands must include 012, Anne's hand")
    return _dynamic().russian_cards(hands)


def _dining(args: argparse.Namespace):
    if args.payer not in (0, 1, 2, 3):
        raise InputError(f"--payer must be 0 (the employer) or 1-3, got {args.payer}")
    if len(args.coins) != 3 or set(args.coins) - {"0", "1"}:
        raise InputError(f"--coins must be three 0/1 digits like 010, got {args.coins!r}")
    return _dynamic().dining_cryptographers(args.payer, tuple(int(c) for c in args.coins))


#: The options of `logicpy cheryl` itself (the birthday and story files), which no puzzle takes.
_OWN = (("tale", "--story"), ("dates", "--dates"), ("dates_file", "--dates-file"),
        ("story_file", "--story-file"), ("reading", "--reading"))


def _reject_foreign_options(args: argparse.Namespace) -> None:
    """A puzzle given an option of `logicpy cheryl` itself (written before the puzzle's name), or an
    output option it has no use for: an error naming it, never ignored."""
    puzzle = getattr(args, "puzzle", None)
    if puzzle is None:
        return
    for dest, flag in _OWN:
        if getattr(args, dest, None) is not None:
            hint = " (generate and distribution take their own --story after the name)" if dest == "tale" else ""
            raise InputError(f"{flag} does not apply to `logicpy cheryl {puzzle}`{hint}")
    if puzzle in ("generate", "distribution") and getattr(args, "engine", None) is not None:
        raise InputError(f"--engine does not apply to `logicpy cheryl {puzzle}` (samples are told as one batched "
                         "model by the explicit engine)")
    if puzzle == "distribution":
        for dest, flag in (("why", "--why"), ("svg", "--svg")):
            if getattr(args, dest, None):
                raise InputError(f"{flag} does not apply to `logicpy cheryl distribution`")


def _at_least(value: int, low: int, flag: str) -> int:
    if value < low:
        raise InputError(f"{flag} must be at least {low}, got {value}")
    return value


def _what_sum_worlds(anne: int) -> int:
    """Worlds of the what-sum model for Anne's number (cut at 16 x it): three arrangements of x + y <= top."""
    top = 16 * anne
    return 3 * top * (top - 1) // 2


def _fits(value: int, flag: str, worlds: Callable[[int], int], per_world: int) -> int:
    """`value` when its model (`worlds(value)` worlds of `per_world` bytes) fits in `MEMORY_LIMIT`;
    else an `InputError` with the estimate and the largest value that fits."""
    need = worlds(value) * per_world
    if need <= MEMORY_LIMIT:
        return value
    low, high = 1, value  # the largest value that fits, by bisection
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if worlds(mid) * per_world <= MEMORY_LIMIT else (low, mid - 1)
    raise InputError(f"{flag} {value}: {worlds(value):,} worlds, about {size_text(need)} in memory; the limit is "
                     f"{size_text(MEMORY_LIMIT)} ({flag} {low:,} at most)")


def _muddy(args: argparse.Namespace):
    n, m = args.children, args.muddy
    if not 1 <= n <= MAX_CHILDREN:
        raise InputError(f"--children must be between 1 and {MAX_CHILDREN} (2**n worlds), got {n}")
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
    """Handle `logicpy cheryl [--story] [--dates|--dates-file]` and `--story-file`."""
    if args.story_file is not None:
        return run_story_file(args)
    if args.reading is not None:
        raise InputError("--reading applies to --story-file only")
    stories = _stories()
    kind = _story_kind(args.tale or "classic")
    default = stories.COMPLEX_DATES if kind == "complex" else stories.CLASSIC_DATES
    args.build = lambda a: stories.birthday(kind, _dates(a, default))
    return run_story(args)


def run_story(args: argparse.Namespace) -> int:
    """Build the story, solve it, check it, print it; exit 0 with solutions, 1 with none."""
    from .propositional import Valuations
    from .solve import engine_for, solve

    _reject_foreign_options(args)
    story = args.build(args)
    engine = engine_for(story, getattr(args, "engine", None) or "auto")
    if engine == "symbolic" and (getattr(args, "why", False) or getattr(args, "svg", None)) \
            and isinstance(story.worlds, Valuations):
        raise InputError("--why and --svg look at every world: they need the explicit engine "
                         f"(this story has 2**{story.worlds.n} worlds)")
    start, cpu = time.perf_counter(), time.process_time()
    result = solve(story, engine)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    used = "symbolic" if hasattr(result.run, "bdd") else "explicit"
    print(f"solved in {seconds * 1e3:.1f} ms ({used} engine)", file=sys.stderr)
    return _print_result(args, result, _muddy_knowers(args, result), _extra(args), seconds=cpu)


def _extra(args: argparse.Namespace) -> dict | None:
    """Lines a puzzle adds to its result: safe announcements counted, the attack for each length."""
    puzzle = getattr(args, "puzzle", None)
    if puzzle == "russian-cards" and args.count:
        safe = _dynamic().safe_announcements()
        return {"safe_announcements": [f"{size} hands: {len(found)}" for size, found in safe.items()]
                + [f"in all: {sum(len(found) for found in safe.values())} (holding 012)"]}
    if puzzle == "attack":
        from .solve import solve

        dynamic = _dynamic()
        never = all(not solve(dynamic.coordinated_attack(n)).solutions for n in range(1, args.messages + 1))
        return {"common_knowledge": f"{'never' if never else 'reached'}, for every number of messages from 1 "
                                    f"to {args.messages}",
                "everybody_knows_when_all_arrived": [
                    f"{n} message{'s' if n > 1 else ''}: {dynamic.mutual_depth(n)} level{'s' if dynamic.mutual_depth(n) != 1 else ''}" for n in range(1, args.messages + 1)]}
    return None


def run_story_file(args: argparse.Namespace) -> int:
    """Handle `logicpy cheryl --story-file FILE`: tell the story in each reading asked for."""
    from .render import render_text, result_to_data
    from .solve import solve
    from .storyfile import READINGS, read_story

    for dest, flag in (("tale", "--story"), ("dates", "--dates"), ("dates_file", "--dates-file")):
        if getattr(args, dest, None) is not None:
            raise InputError(f"{flag} does not apply with --story-file (the file holds the worlds and statements)")
    told = read_story(args.story_file)
    asked = args.reading or ("both" if told.has_parts else told.default)
    readings = [told.default, *(r for r in READINGS if r != told.default)] if asked == "both" else [asked]
    results = {}
    for reading in readings:
        start = time.perf_counter()
        results[reading] = solve(told.stories[reading], getattr(args, "engine", None) or "auto")
        print(f"{reading}: solved in {(time.perf_counter() - start) * 1e3:.1f} ms", file=sys.stderr)
    found = any(r.solutions for r in results.values())
    if getattr(args, "svg", None):
        if len(results) > 1:
            raise InputError("--svg draws one reading: add --reading split or --reading together")
        _write_svg(args, next(iter(results.values())))
    if getattr(args, "json", False):
        return emit(args, "ok" if found else "none", {"file": args.story_file, "readings": [
            {"reading": reading, "meaning": READINGS[reading], **_outcome(result_to_data(result, str(_verified(result))))}
            for reading, result in results.items()]})
    for n, (reading, result) in enumerate(results.items()):
        if n:
            print()
        if told.has_parts:
            print(f"reading: {reading} ({READINGS[reading]})")
        print(render_text(result, why=getattr(args, "why", False)))
        print(_verified(result))
    return EXIT["ok" if found else "none"]


def _outcome(data: dict) -> dict:
    data["outcome"] = data.pop("status")
    return data


def _verified(result, seconds: float = 0.0):
    """The verifier's check of `result` (never print an answer it rejects); a lazy re-telling gets
    `BUDGET` CPU seconds or five times the solve's `seconds`."""
    from ...errors import LogicpyError
    from .verify import BUDGET, verify

    checked = verify(result.story, result, budget=max(BUDGET, 5 * seconds))
    if not checked.ok:
        raise LogicpyError(f"internal error: the naive evaluator disagrees with the engine: {checked.problems[0]}; "
                           "please report it")
    return checked


def _write_svg(args: argparse.Namespace, result) -> None:
    """With --svg FILE, write the result's survival chart there."""
    if getattr(args, "svg", None):
        from .svg import render_svg

        try:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(render_svg(result))
        except OSError as exc:
            raise InputError(f"{args.svg}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {args.svg}", file=sys.stderr)


def _print_result(args: argparse.Namespace, result, knowers=None, extra: dict | None = None,
                  seconds: float = 0.0) -> int:
    """Check a result (`_verified`), then print it (text or JSON) and write its SVG; exit 0 with
    solutions, 1 without."""
    from .render import render_text, result_to_data
    from .symbolic import SymbolicResult, symbolic_data, symbolic_text

    story = result.story
    checked = _verified(result, seconds)
    symbolic = isinstance(result, SymbolicResult)  # counted and listed in part, not world by world
    _write_svg(args, result)
    status = "ok" if result.solutions else "none"
    if getattr(args, "json", False):
        data = {**(extra or {}), **(symbolic_data(result, str(checked)) if symbolic
                                     else result_to_data(result, str(checked)))}
        data["outcome"] = data.pop("status")
        if knowers is not None:
            data["actual_world"] = {"world": story.show((1 << args.muddy) - 1), "knowers_before_each_statement": knowers}
        return emit(args, status, data)
    else:
        if extra:
            for key, value in extra.items():
                print(f"{key.replace('_', ' ')}: {', '.join(value) if isinstance(value, list) else value}")
        print(symbolic_text(result) if symbolic else render_text(result, why=getattr(args, "why", False)))
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

    _reject_foreign_options(args)
    stories = _stories()
    story = stories.birthday(_story_kind(args.story))
    pool = read_dates(args.pool) if args.pool else stories.DATE_POOL
    if args.puzzle == "distribution":
        count = _at_least(args.samples, 1, "--samples")
        start = time.perf_counter()
        with terminal_progress() as bar:
            task = None if bar is None or count <= 50_000 else bar.add_task("samples", total=count)

            def progress(done: int, total: int) -> None:
                if task is not None:
                    bar.update(task, completed=done)
                if done < total and done == min(total, 10_000):  # after the first batch: the time to expect
                    expected = (time.perf_counter() - start) * total / done
                    if expected > 10:
                        when = f"{expected:.0f} s" if expected < 120 else f"{expected / 60:,.0f} minutes"
                        print(f"{total:,} samples: about {when}, 10,000 at a time in flat memory", file=sys.stderr)

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
