"""`logicpy prisoners`: Dudeney's nine prisoners, Kirkman's schoolgirls and their kin.

Exit statuses are those of every logicpy command (`logicpy.cli_contract`): 0 when an
arrangement was printed (or counted, or verified), 1 when no such design exists (the reason,
or the exhaustive search, is printed) or a file fails verification, 2 on bad input, 4 when
the search ran past --timeout (inconclusive).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from ...cli_contract import emit, number
from ...errors import InputError, NoSolution
from ...inputs import read_json
from ...progress import terminal_progress
from .model import Design, Symmetry

__all__ = ["register", "design_from_args", "parse_day", "MAX_TIMEOUT"]

#: The longest --timeout (seconds, 30 days); nan, infinities and negatives are refused.
MAX_TIMEOUT = 30 * 24 * 3600

SYMMETRY_HELP = """how arrangements that differ only by symmetry are told apart:
canonical (default): day 1 is 1-2-3 / 4-5-6 / 7-8-9, each row reads first < last, the rows of
a day start in increasing order, later days in any order;
prob: the classic ProB model of the puzzle: day 1 fixed, each row first < last, and row 1
before row 2 by first AND by last person (a1 < a4 and a3 < a6); row 3 is not compared, so a
day may be written in up to 3 ways, and a day whose rows nest (1..9, 2..8, 3..7) in none;
none: every arrangement of every day counts (day 1 free, rows in any order, either way round)"""


def register(subparsers: Any) -> None:
    """Add `logicpy prisoners` to the logicpy command."""
    parser = subparsers.add_parser(
        "prisoners",
        help="Dudeney's nine prisoners, Kirkman's schoolgirls: solve, count, draw",
        description="Nine prisoners walk in rows of three, cuffed to their neighbours, on six days: arrange "
                    "them so that every pair is cuffed together exactly once. The same for n people in rows "
                    "of r over d days, pairs meeting when cuffed or when sharing a row.",
    )
    design = parser.add_argument_group("design (default: Dudeney's nine prisoners, 6 days)")
    design.add_argument("--people", type=int, default=9, metavar="N", help="how many walk (default 9)")
    design.add_argument("--row", type=int, default=3, metavar="R", help="people per row (default 3)")
    design.add_argument("--days", type=int, metavar="D",
                        help="days (default: 6 for the prisoners, else as many as make every pair meet once); "
                             "fewer days: every pair meets at most once")
    design.add_argument("--pairs", choices=["cuffed", "row"], default="cuffed",
                        help="a pair meets when cuffed (adjacent in a row; default) or when sharing a row")
    design.add_argument("--kirkman", action="store_true",
                        help="Kirkman's schoolgirls: --people 15 --row 3 --days 7 --pairs row")
    design.add_argument("--fix", action="append", default=[], metavar="K:ROWS",
                        help="pin day K, e.g. 2:1-3-4/2-5-7/8-6-9 (repeatable)")
    parser.add_argument("--symmetry", choices=[s.value for s in Symmetry], default="canonical", help=SYMMETRY_HELP)
    out = parser.add_argument_group("what to print (default: one arrangement and its check)")
    out.add_argument("--json", action="store_true", help='print one JSON line, {"status": ..., "days": [[[a, b, c], ...], ...], ...}')
    out.add_argument("--neighbours", type=int, metavar="I", help="for each day, who is cuffed to prisoner I")
    out.add_argument("--count", action="store_true", help="count the arrangements in the --symmetry model")
    out.add_argument("--distinct", action="store_true",
                     help="count the essentially different designs (up to relabelling people, reordering "
                          "days and rows, reversing rows), by pynauty's canonical forms")
    out.add_argument("--svg", metavar="FILE", help="also draw the arrangement as SVG into FILE")
    out.add_argument("--verify", metavar="FILE.json", help="check an arrangement saved with --json, print nothing else")
    parser.add_argument("--timeout", type=number(float, maximum=MAX_TIMEOUT), default=120.0, metavar="S",
                        help="give up after S seconds with exit status 4 (default 120; 0: no limit); large "
                             "designs such as 21 schoolgirls can take the search longer")
    parser.set_defaults(func=run)


def design_from_args(args: argparse.Namespace) -> Design:
    """The design the options describe (bad numbers are an `InputError`)."""
    if args.kirkman:
        return Design(15, 3, 7 if args.days is None else args.days, "row")
    days = args.days
    if days is None and (args.people, args.row, args.pairs) == (9, 3, "cuffed"):
        days = 6
    return Design(args.people, args.row, days, args.pairs)


def parse_day(text: str) -> tuple[int, tuple]:
    """`K:1-3-4/2-5-7/8-6-9` as (K, rows)."""
    try:
        k, rows = text.split(":", 1)
        return int(k), tuple(tuple(int(p) for p in row.split("-")) for row in rows.split("/"))
    except ValueError:
        raise InputError(f"--fix {text!r}: expected K:ROWS such as 2:1-3-4/2-5-7/8-6-9") from None


def run(args: argparse.Namespace) -> int:
    """The command, under the --timeout alarm (exit 4 when it rings)."""
    from ...alarm import TimeUp, time_limit

    try:
        with time_limit(args.timeout):
            return _run(args)
    except TimeUp:
        reason = (f"gave up after {args.timeout:g} s: no arrangement found and none ruled out "
                  "(raise --timeout, or 0 for no limit)")
        if args.json:
            return emit(args, "timeout", {"reason": reason})
        print(f"logicpy: {reason}", file=sys.stderr)
        return 4


def _run(args: argparse.Namespace) -> int:
    from . import render
    from .verify import verify

    if args.verify:
        return _verify_file(args, args.verify)
    design = design_from_args(args)
    symmetry = Symmetry(args.symmetry)
    if args.neighbours is not None and not 1 <= args.neighbours <= design.people:
        raise InputError(f"--neighbours {args.neighbours}: prisoners are numbered 1..{design.people}")
    fixed = dict(parse_day(text) for text in args.fix)
    try:
        design.check()
        if args.count or args.distinct:
            return _count(args, design, symmetry, fixed)
        from .solve import solve

        arrangement = solve(design, symmetry, fixed)
    except NoSolution as exc:
        return _none(args, design, str(exc))
    if arrangement is None:
        pinned = f" with days {', '.join(str(k) for k in sorted(fixed))} fixed" if fixed else ""
        return _none(args, design, f"no such design: {design.describe()}{pinned}; the search over every "
                     f"{'completion of day 1' if symmetry is not Symmetry.NONE else 'arrangement'} found none "
                     "(exhaustive)")
    check = verify(design, arrangement.days, symmetry)
    if not check.ok:  # never print an arrangement the verifier rejects
        raise AssertionError(f"internal error: the verifier rejects the arrangement: {check.problems}")
    if args.svg:
        try:
            Path(args.svg).write_text(render.svg(arrangement, design), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"--svg {args.svg}: cannot write: {exc.strerror}") from None
    if args.json:
        data = {**render.to_json(arrangement, design, symmetry), "design": _design_json(design)}
        if args.neighbours is not None:
            data["neighbours"] = {str(args.neighbours): render.neighbours(arrangement, design, args.neighbours)}
        return emit(args, "ok", data)
    if args.neighbours is not None:
        how = "cuffed to" if design.pairs == "cuffed" else "in a row with"
        for k, near in enumerate(render.neighbours(arrangement, design, args.neighbours), 1):
            print(f"day {k}: {args.neighbours} is {how} {', '.join(map(str, near))}")
        return 0
    print(render.text(arrangement, design))
    print(check)
    return 0


def _design_json(design: Design) -> dict[str, Any]:
    """The design as JSON data, as in an arrangement's JSON."""
    return {"people": design.people, "row": design.row, "days": design.day_count, "pairs": design.pairs,
            "complete": design.complete, "description": design.describe()}


def _none(args: argparse.Namespace, design: Design, reason: str) -> int:
    """No such design: the reason on standard error, or as the JSON result; exit status 1."""
    if args.json:
        return emit(args, "none", {"design": _design_json(design), "reason": reason})
    print(f"logicpy: {reason}", file=sys.stderr)
    return 1


def _count(args: argparse.Namespace, design: Design, symmetry: Symmetry, fixed: dict) -> int:
    import time

    from . import counting
    from .classes import completions_from_classes, labelled_designs

    if args.distinct and fixed:
        raise InputError("--distinct counts whole designs; it takes no --fix")
    data: dict[str, Any] = {"design": _design_json(design), "fixed_days": sorted(fixed),
                            "symmetry": None, "arrangements": None, "completions": None, "distinct": None}
    lines = [f"design: {design.describe()}"]
    start = time.process_time()
    classes = None
    if args.distinct or (args.count and not fixed and counting._too_many_days(design)
                         and symmetry is not Symmetry.PROB):
        # the classes first: they also give the count when the possible days are too many to hold
        with terminal_progress() as bar:
            progress = None
            if bar is not None:
                task = bar.add_task("second days", total=None)
                progress = lambda done, total: bar.update(task, completed=done, total=total)  # noqa: E731
            classes = counting.distinct(design, progress)
    if args.count:
        data["symmetry"] = symmetry.value
        if classes is not None and counting._too_many_days(design):
            data["completions"] = completions_from_classes(design, classes)
            left = design.day_count - 1
            ordered = data["completions"] * math.factorial(left)
            data["arrangements"] = ordered if symmetry is Symmetry.CANONICAL else (
                design.partitions_count() * ordered * design.orderings_per_day() ** design.day_count)
        else:
            data["arrangements"] = counting.count(design, symmetry, fixed)
            if design.complete:
                data["completions"] = counting.completions(design, fixed)
        lines += [f"symmetry: {symmetry.value}", f"arrangements: {data['arrangements']:,}"]
        if data["completions"] is not None:
            which = "the fixed days" if fixed else "day 1"
            lines.append(f"unordered completions of {which}: {data['completions']:,}")
    if classes is not None and args.distinct:
        data["distinct"] = len(classes)
        data["automorphisms"] = [c.automorphisms for c in classes]
        data["labelled"] = labelled_designs(design, classes)
        lines.append(f"essentially different: {len(classes):,}")
        lines.append(f"automorphism group orders: {', '.join(str(c.automorphisms) for c in classes)}"
                     if len(classes) <= 20 else
                     f"automorphism group orders: {len(set(c.automorphisms for c in classes))} different, "
                     f"from {classes[-1].automorphisms} to {classes[0].automorphisms}")
        lines.append(f"labelled designs (people 1..{design.people}, days and rows unordered): "
                     f"{data['labelled']:,} = Σ {design.people}!/|automorphisms|")
    seconds = time.process_time() - start
    data["cpu_seconds"] = round(seconds, 2)
    if args.json:
        return emit(args, "ok", data)
    print("\n".join(lines))
    print(f"counted in {seconds:.1f} s (CPU)", file=sys.stderr)
    return 0


def _verify_file(args: argparse.Namespace, path: str) -> int:
    from .render import from_json
    from .verify import verify

    data = read_json(path)
    design, symmetry, days = from_json(data)
    check = verify(design, days, symmetry)
    if args.json:
        return emit(args, "ok" if check.ok else "none", {"file": path, "design": _design_json(design),
                                                         "symmetry": symmetry.value, "problems": list(check.problems)})
    for line in check.problems:
        print(f"{path}: {line}")
    if check.ok:
        print(f"{path}: {check}")
    return 0 if check.ok else 1
