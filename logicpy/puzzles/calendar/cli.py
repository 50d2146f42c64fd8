"""`logicpy calendar DATE`: every solution of the calendar puzzle for a date, verified.

    logicpy calendar 10 6 | Oct 6 | october 6 | 2026-10-06 | today   (default: today)
    logicpy calendar 10 6 --first | --count | --json | --svg FILE
    logicpy calendar --all [--json]      every date in one search: counts, fewest, most, total
    logicpy calendar --fewest            the dates with the fewest solutions
    logicpy calendar --board weekday 2026-10-06       the board with weekdays
    logicpy calendar --board FILE.board [--pieces FILE.pieces] --open LABEL,LABEL

Exit statuses are those of every logicpy command (`logicpy.cli_contract`): 0 when there is a
solution (or the saved grids verify), 1 when there is none (or a grid fails), 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any
from pathlib import Path

from ...cli_contract import emit
from ...errors import InputError
from ...progress import terminal_progress

__all__ = ["register", "run", "LIST_LIMIT"]

#: The most solutions a command lists (more: use --count or --first).
LIST_LIMIT = 10_000


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `calendar` subcommand."""
    parser = subparsers.add_parser(
        "calendar",
        help="the calendar date puzzle (A-Puzzle-A-Day): every solution for a date",
        description="Place every piece so that only the date's cells stay open. DATE is `10 6`, `Oct 6`, "
        "`october 6`, `2026-10-06` or `today` (the default). Every printed solution is checked cell by cell.",
    )
    parser.add_argument("date", nargs="*", metavar="DATE", help="month and day (default: today)")
    what = parser.add_argument_group("what to compute (default: every solution of DATE)")
    what.add_argument("--first", action="store_true", help="stop at the first solution (the count is still exact)")
    what.add_argument("--count", action="store_true", help="count the solutions without printing them")
    what.add_argument("--all", action="store_true",
                      help="every date at once: a month x day table, fewest, most, total, any two cells open")
    what.add_argument("--fewest", action="store_true", help="the dates with the fewest (and the most) solutions")
    board = parser.add_argument_group("board and pieces")
    board.add_argument("--board", default="standard", metavar="NAME|FILE",
                       help="standard (months and days, default), weekday, or a .board file")
    board.add_argument("--pieces", metavar="FILE", help="a .pieces file (default: the board's own)")
    board.add_argument("--open", metavar="LABEL,...", help="leave these labelled cells open instead of a date")
    board.add_argument("--weekday", metavar="DAY", help="the weekday for the weekday board when DATE has no year")
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print the result as one JSON line")
    output.add_argument("--svg", metavar="FILE", help="also draw the first solution as an SVG picture")
    output.add_argument("--verify", metavar="FILE.json",
                        help="check the grids of a saved `--json` result cell by cell (with its --board/--pieces)")
    parser.set_defaults(func=run)


def _puzzle(args: argparse.Namespace):
    from . import BOARDS, load_puzzle

    board = BOARDS.get(args.board)
    if board is None:
        if not Path(args.board).is_file():
            raise InputError(f"--board {args.board}: not a shipped board ({', '.join(BOARDS)}) nor a file")
        board = args.board
    return load_puzzle(str(board), args.pieces)


def _date(args: argparse.Namespace, weekday_board: bool):
    from .dates import WEEKDAYS, Date, parse_date

    date = parse_date(" ".join(args.date) if args.date else "today")
    if args.weekday:
        day = args.weekday.strip().lower()[:3]
        names = [w.lower() for w in WEEKDAYS]
        if day not in names:
            raise InputError(f"--weekday {args.weekday!r}: not a weekday (Mon ... Sun)")
        date = Date(date.month, date.day, names.index(day), date.year)
    return date, date.labels(weekday=weekday_board)


def run(args: argparse.Namespace) -> int:
    """Handle `logicpy calendar …`."""
    if sum(map(bool, (args.first, args.count, args.all, args.fewest))) > 1:
        raise InputError("choose one of --first, --count, --all, --fewest")
    puzzle = _puzzle(args)
    if args.verify:
        return _run_verify(args, puzzle)
    if args.all or args.fewest:
        if args.date or args.open:
            raise InputError("--all and --fewest cover every date; give no DATE or --open")
        return _run_all(args, puzzle)
    if args.open:
        date, labels = None, tuple(label.strip() for label in args.open.split(",") if label.strip())
    else:
        from .dates import WEEKDAYS

        date, labels = _date(args, weekday_board=any(w in puzzle.board.labels for w in WEEKDAYS))
    return _run_one(args, puzzle, date, labels)


def _run_one(args, puzzle, date, labels) -> int:
    from .render import render_grids, render_svg
    from .solve import colouring_obstruction, count, solve
    from .verify import verify

    what = str(date) if date else ", ".join(labels)
    start = time.process_time()
    with terminal_progress() as bar:
        progress = None
        if bar is not None:
            task = bar.add_task("counting", total=1.0)
            progress = lambda done: bar.update(task, completed=done)  # noqa: E731
        total = count(puzzle, labels, progress) if args.count or not args.first else None
    if total is not None and total > LIST_LIMIT and not args.count:
        raise InputError(f"{what}: {total:,} solutions, more than the {LIST_LIMIT:,} a listing prints; "
                         "use --count or --first")
    if args.count:
        result = None
        n = total or 0
    else:
        result = solve(puzzle, labels, limit=1 if args.first else None)
        n = result.count
    print(f"solved in {(time.process_time() - start) * 1e3:.1f} ms (CPU)", file=sys.stderr)
    grids = [t.grid() for t in result.tilings] if result else []
    for grid in grids:
        check = verify(puzzle, grid, labels)
        if not check.ok:  # never print an unverified answer
            raise InputError(f"internal error: a solution failed verification: {'; '.join(check.problems)}")
    if args.svg and result and result.tilings:
        _write(args.svg, render_svg(result.tilings[0], title=what))
    not_real = date is not None and not date.real
    if args.json:
        doc = {"board": puzzle.board.name, "date": date.key() if date else None, "open": list(labels), "count": n,
               "real": date.real if date is not None else None, "solutions": grids if result is not None else None}
        return emit(args, "ok" if n else "none", doc)
    if grids:
        print(render_grids(grids))
        print()
    shown = " (the first shown)" if args.first and n > 1 else ""
    if n:
        print(f"{what}: {n} solution{'s' if n != 1 else ''}{shown}")
    else:
        why = colouring_obstruction(puzzle, [puzzle.board.cell(label) for label in labels])
        print(f"{what}: no solution ({why or f'exhaustive search of board {puzzle.board.name}'})")
    if not_real:
        if date.year is not None:
            plain = type(date)(date.month, date.day)
            print(f"note: {date.year} has no {plain}: solved as the board's {date}, not a real date")
        else:
            print(f"note: {date} is on the board but not a real date")
    if grids:
        print(f"verified: {'each' if len(grids) > 1 else 'the'} tiling checked cell by cell")
    if args.svg and grids:
        print(f"wrote {args.svg}", file=sys.stderr)
    return 0 if n else 1


def _run_verify(args, puzzle) -> int:
    from ...errors import read_json_file
    from .verify import verify

    doc = read_json_file(args.verify)
    try:
        labels, grids = tuple(doc["open"]), doc["solutions"]
        if not isinstance(doc["open"], list) or not all(isinstance(label, str) for label in labels):
            raise TypeError('"open" is not a list of labels')
        if not isinstance(grids, list):
            raise TypeError('"solutions" is not a list of grids')
        if not all(isinstance(g, list) and all(isinstance(row, str) for row in g) for g in grids):
            raise TypeError("a solution is not a list of row strings")
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{args.verify}: not a `logicpy calendar --json` result: {exc}") from None
    claimed = doc.get("count") if isinstance(doc, dict) else None
    if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0):
        raise InputError(f"{args.verify}: \"count\" is {claimed!r}, not a number of solutions")
    bad = 0
    failures: list[dict[str, Any]] = []

    def fail(number: int | None, problems: list[str]) -> None:
        nonlocal bad
        bad += 1
        failures.append({"solution": number, "problems": problems})
        if not args.json:
            print(f"{f'solution {number}' if number else args.verify}: NOT verified: {'; '.join(problems)}")

    first_seen: dict[tuple[str, ...], int] = {}
    for number, grid in enumerate(grids, 1):
        check = verify(puzzle, grid, labels)
        if not check.ok:
            fail(number, list(check.problems))
        elif tuple(grid) in first_seen:
            fail(number, [f"the same grid as solution {first_seen[tuple(grid)]}"])
        else:
            first_seen[tuple(grid)] = number
    if claimed is not None:
        from .solve import count

        if len(grids) > claimed:
            fail(None, [f"{len(grids)} solutions listed, but \"count\" says {claimed}"])
        else:
            actual = count(puzzle, labels)
            if actual != claimed:
                fail(None, [f"\"count\" says {claimed}, but leaving {', '.join(labels)} open has {actual} "
                            "(counted again)"])
    if args.json:
        return emit(args, "none" if bad else "ok", {"file": args.verify, "open": list(labels),
                                                     "solutions": len(grids), "failed": failures})
    if bad:
        return 1
    counted = f"; the count {claimed} checked" if claimed is not None else ""
    print(f"verified: {len(grids)} solution{'s' if len(grids) != 1 else ''} leaving {', '.join(labels)} open, "
          f"checked cell by cell, none repeated{counted}")
    return 0


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _run_all(args, puzzle) -> int:
    from .dates import MONTHS, Date, board_dates
    from .render import render_table
    from .solve import count_all

    if puzzle.open_count != 2 or not all(m in puzzle.board.labels for m in MONTHS):
        raise InputError(f"--all and --fewest need a board with month and day labels that leaves two cells "
                         f"open (board {puzzle.board.name} leaves {puzzle.open_count})")
    start = time.process_time()
    with terminal_progress() as bar:
        progress = None
        if bar is not None:
            task = bar.add_task("every date", total=1.0)
            progress = lambda done: bar.update(task, completed=done)  # noqa: E731
        groups = count_all(puzzle, progress=progress)
    print(f"every open pair in one search: {time.process_time() - start:.2f} s (CPU)", file=sys.stderr)
    counts = {}
    for date in board_dates():
        labels = date.labels()
        key = tuple(sorted(labels, key=puzzle.board.labels.index))
        counts[date] = groups.get(key, 0)
    real = {d: n for d, n in counts.items() if d.real}
    fewest, most = min(real.values()), max(real.values())
    summary: dict[str, Any] = {
        "fewest": {"count": fewest, "dates": [d.key() for d, n in real.items() if n == fewest]},
        "most": {"count": most, "dates": [d.key() for d, n in real.items() if n == most]},
        "total": sum(real.values()),
        "any_two_open": sum(groups.values()),
        "open_pairs_with_a_solution": len(groups),
    }
    if args.json:
        doc = {"board": puzzle.board.name, "dates": {d.key(): n for d, n in real.items()},
               "not_real": {d.key(): n for d, n in counts.items() if not d.real}, **summary}
        return emit(args, "ok", doc)

    def names(keys):
        return ", ".join(str(Date(int(k[:2]), int(k[3:]))) for k in keys)

    if args.all:
        print(f"solutions per date (board {puzzle.board.name}, {len(puzzle.pieces)} pieces; '-': not a real date)")
        print(render_table(counts))
        print()
    print(f"fewest: {fewest} ({names(summary['fewest']['dates'])})")
    print(f"most: {most} ({names(summary['most']['dates'])})")
    if args.all:
        not_real = ", ".join(f"{d} {n}" for d, n in counts.items() if not d.real)
        print(f"total over the 366 real dates: {summary['total']:,}")
        print(f"on the board but not real: {not_real}")
        n_cells = len(puzzle.board.cells)
        print(f"placements leaving any two cells open: {summary['any_two_open']:,} "
              f"({len(groups)} of the {n_cells * (n_cells - 1) // 2} pairs of cells have one)")
    return 0
