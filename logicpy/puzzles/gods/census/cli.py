"""`logicpy gods census`: run the census on Dask workers, store every row, summarise, export, draw.

    logicpy gods census [--gods 1..4] [--types truly,falsely,random] [--semantics S,...]
                        [--max-questions K] [--max-complexity C] [--time-limit SECONDS]
                        [--store FILE.sqlite] [--workers N | --cluster ADDRESS]
                        [--json] [--csv FILE] [--svg FILE]

Exit statuses are those of every logicpy command (`logicpy.cli_contract`): 0 when the census
is complete, 3 when some task failed for good (listed; the others are stored), 4 when a task
ran out of its --time-limit (stored as "timeout"; a run with a larger limit computes it
again), 130 when the run was interrupted (the rows finished so far are stored; run the same
command again to resume), 2 on bad input (a --store that is not a census store is refused
untouched).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

from ....cli_contract import EXIT, emit
from ....errors import InputError
from ....progress import terminal_progress
from ....svgtext import ASCENT, Picture, text_width, wrap
from .solve import PROOF_KINDS, TIMEOUT, Spec, puzzle_of_row, puzzle_space, run_census, tasks_for
from .cluster import Engine
from ..model import TYPES, Semantics
from .storage import Store, to_csv
from ..tree import render_text, tree_from_json
from ..verify import verify

__all__ = ["add_arguments", "run", "summary", "hardest", "heat_map_svg"]

DEFAULT_STORE = "gods-census.sqlite"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The census options."""
    space = parser.add_argument_group("puzzle space")
    space.add_argument("--gods", default="1..4", metavar="A..B",
                       help="numbers of gods (positions): a range A..B or a list 1,3 (default 1..4; at most 5)")
    space.add_argument("--types", default=",".join(TYPES), metavar="T,T,...",
                       help="god types the multisets and position sets draw from (default: truly,falsely,random)")
    space.add_argument("--gods-file", default="", metavar="FILE.py|MODULE",
                       help="open god types: the GODS list of a Python file or module; name them in --types "
                            "(each worker loads the file, so on a --cluster it must be there too)")
    space.add_argument("--semantics", default="all", metavar="S,S,...",
                       help=f"semantics to run, or all (default): {', '.join(s.value for s in Semantics)}")
    space.add_argument("--max-questions", type=int, default=4, metavar="K",
                       help="search up to K questions per branch (default 4)")
    space.add_argument("--max-complexity", type=int, default=2, metavar="C",
                       help="questions of complexity <= C (default 2; 3 builds far bigger universes)")
    space.add_argument("--time-limit", type=float, default=0, metavar="SECONDS",
                       help="give up a puzzle whose search takes longer (stored as timeout; a later run with a "
                            "larger limit, or 0, computes it again); default 0: no limit")
    where = parser.add_argument_group("where it runs")
    where.add_argument("--workers", type=int, metavar="N", help="local cluster workers (default: one per core)")
    where.add_argument("--cluster", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786")
    where.add_argument("--engine", choices=("dask", "processes"), default="dask",
                       help="dask (default) or a plain process pool on this machine")
    out = parser.add_argument_group("results")
    out.add_argument("--store", default=DEFAULT_STORE, metavar="FILE.sqlite",
                     help=f"SQLite results store, resumed when it exists (default {DEFAULT_STORE})")
    out.add_argument("--top", type=int, default=5, metavar="N", help="hardest puzzles shown with their trees (default 5)")
    out.add_argument("--json", action="store_true", help="summary, hardest puzzles and every row as one JSON line")
    out.add_argument("--csv", metavar="FILE", help="write every row of this census as CSV")
    out.add_argument("--svg", metavar="FILE", help="write a heat map of least questions (SVG)")


def parse_gods(text: str) -> list[int]:
    """'1..4' -> [1, 2, 3, 4]; '1,3' -> [1, 3]."""
    try:
        if ".." in text:
            lo, hi = text.split("..", 1)
            values = list(range(int(lo), int(hi) + 1))
        else:
            values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"--gods {text!r}: expected a range like 1..4 or a list like 1,3") from None
    if not values:
        raise InputError(f"--gods {text!r}: names no number of gods")
    return values


def parse_semantics(text: str) -> list[str]:
    """'all' or a comma list of semantics names."""
    if text.strip() == "all":
        return [s.value for s in Semantics]
    return [Semantics.parse(s.strip()).value for s in text.split(",") if s.strip()]


def run(args: argparse.Namespace) -> int:
    """`logicpy gods census`."""
    gods = parse_gods(args.gods)
    types = [t.strip().lower() for t in args.types.split(",") if t.strip()]
    semantics = parse_semantics(args.semantics)
    if args.max_questions < 0 or args.max_complexity < 0:
        raise InputError("--max-questions and --max-complexity must be >= 0")
    if args.top < 0:
        raise InputError(f"--top must be >= 0, got {args.top}")
    if not args.time_limit >= 0:
        raise InputError(f"--time-limit must be >= 0 seconds (0: no limit), got {args.time_limit}")
    gods_file = str(Path(args.gods_file).resolve()) if args.gods_file.endswith(".py") else args.gods_file
    specs = puzzle_space(gods, types, gods_file)
    tasks = tasks_for(specs, semantics, args.max_questions, args.max_complexity, time_limit=args.time_limit)
    keys = [t.key for t in tasks]
    for option in ("csv", "svg"):
        _check_output(getattr(args, option), f"--{option}")
    interrupted = False
    with Store(args.store) as store:
        engine = Engine(args.workers, args.cluster, args.engine)
        started = time.strftime("%Y-%m-%dT%H:%M:%S")
        stats = None
        try:
            stored = len(store.done_keys({t.key: t.time_limit for t in tasks}))
            print(f"census: {len(tasks)} rows ({len(specs)} canonical puzzles x {len(semantics)} semantics), "
                  f"{stored} stored already, {len(tasks) - stored} to compute on {engine.name}", file=sys.stderr)
            with terminal_progress() as bar, _progress(bar) as progress, engine:
                tasks = [replace(t, worker_memory=engine.worker_memory) for t in tasks]
                stats = run_census(tasks, store, engine, progress)
        except KeyboardInterrupt:
            interrupted = True
        if stats is not None:
            store.record_run(started, engine.workers, engine.name, stats.tasks, stats.done, stats.wall)
        rows = _described(store.rows(keys), specs)
    if interrupted:
        message = (f"interrupted: {len(rows)} of {len(tasks)} rows are stored in {args.store}; "
                   f"run the same command again to resume")
        if args.json:
            return emit(args, "interrupted", {"error": message, "exit": EXIT["interrupted"]}, err=True)
        print(message, file=sys.stderr)
        return EXIT["interrupted"]
    assert stats is not None
    print(f"census: {len(specs)} canonical puzzles ({sum(s.raw for s in specs)} raw) x {len(semantics)} semantics "
          f"= {len(tasks)} rows; {stats.done} computed now on {engine.name} in {stats.wall:.1f} s, "
          f"{stats.stored_before} already in {args.store}", file=sys.stderr)
    for key, error in stats.failed:
        print(f"failed (not stored; run again to retry): {key}: {error}", file=sys.stderr)
    timed_out = [r["key"] for r in rows if r["status"] == TIMEOUT]
    if timed_out:
        print(f"{len(timed_out)} task(s) ran out of their time limit (stored as timeout; a run with a larger "
              f"--time-limit computes them again): {', '.join(timed_out[:5])}{' ...' if len(timed_out) > 5 else ''}",
              file=sys.stderr)
    status = "undecided" if stats.failed else "timeout" if timed_out else "ok"
    top = hardest(rows, args.top)
    if args.csv:
        _write(args.csv, "--csv", to_csv(rows))
    if args.svg:
        _write(args.svg, "--svg", heat_map_svg(rows))
    if args.json:
        return emit(args, status, {
            "space": {"gods": gods, "types": types, "semantics": semantics, "max_questions": args.max_questions,
                      "max_complexity": args.max_complexity, "canonical": len(specs),
                      "raw": sum(s.raw for s in specs)},
            "failed": [{"key": key, "error": str(error)} for key, error in stats.failed],
            "summary": summary(rows), "hardest": [_hardest_json(r, v) for r, v in top], "rows": rows})
    print(render_summary(rows, semantics, args.max_complexity))
    for row, check in top:
        puzzle = puzzle_of_row(row)
        print(f"\n{row['description']} [{row['puzzle']}], semantics {row['semantics']}: "
              f"{row['least_questions']} question{'s' if row['least_questions'] != 1 else ''}, complexity {row['least_complexity']}, {row['trees']} trees")
        print(render_text(tree_from_json(row["tree"], puzzle), puzzle))
        print(check)
    return EXIT[status]


#: Seconds between progress lines when standard error is not a terminal.
PROGRESS_EVERY = 10.0


class _ProgressLines:
    """The census's progress where no bar can be drawn: a line on standard error every
    `PROGRESS_EVERY` seconds while it runs (rows done of all, seconds so far), rows or none."""

    def __init__(self) -> None:
        self.done = self.total = 0
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="logicpy-census-progress", daemon=True)
        self._thread.start()

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _run(self) -> None:
        while not self._stop.wait(PROGRESS_EVERY):
            print(f"census: {self.done} of {self.total} rows after {time.monotonic() - self.start:.0f} s",
                  file=sys.stderr, flush=True)

    def stop(self) -> None:
        self._stop.set()


@contextlib.contextmanager
def _progress(bar: Any) -> Iterator[Callable[[int, int], None]]:
    """The census's progress for the block: a bar on a terminal, else `_ProgressLines`."""
    if bar is not None:
        task = bar.add_task("census", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
        return
    lines = _ProgressLines()
    try:
        yield lines
    finally:
        lines.stop()


def _check_output(path: str | None, option: str) -> None:
    """Refuse, before the census runs, an output path that cannot be written: a directory, or in a
    folder that does not exist."""
    if not path:
        return
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory; give a file name")
    if not target.parent.is_dir():
        raise InputError(f"{option} {path}: no such folder {target.parent}")


def _write(path: str, option: str, text: str) -> None:
    """Write an output file; an error is one line naming it."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot write: {exc.strerror or exc}") from None


def _described(rows: list[dict[str, Any]], specs: list[Spec]) -> list[dict[str, Any]]:
    """`rows` with each description taken from its puzzle's spec, so that a row stored by an
    older logicpy (whose description could name a position-renamed form) names its own puzzle."""
    names = {s.key: s.description for s in specs}
    return [{**r, "description": names.get(r["puzzle"], r["description"])} for r in rows]


def _cell(row: dict[str, Any]) -> str:
    """A row's class: "q3 c1", "none: counting", or "timeout"."""
    if row["status"] == "solvable":
        return f"q{row['least_questions']} c{row['least_complexity']}"
    if row["status"] == TIMEOUT:
        return TIMEOUT
    return f"none: {row['proof']}"


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Counts of canonical puzzles per class (least questions x least complexity, or proof kind), per semantics."""
    table: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        table[_cell(row)][row["semantics"]] += 1
    return {k: dict(v) for k, v in sorted(table.items(), key=lambda kv: _class_order(kv[0]))}


def _class_order(cell: str) -> tuple:
    if cell.startswith("q"):
        q, c = cell.split()
        return (0, int(q[1:]), int(c[1:]))
    if cell == TIMEOUT:
        return (2, 0, 0)
    return (1, PROOF_KINDS.index(cell.split(": ")[1]), 0)


def render_summary(rows: list[dict[str, Any]], semantics: list[str], max_complexity: int) -> str:
    """The summary table as text (boxed with rich when it is installed), and whether any
    puzzle needs complexity 3."""
    title = "canonical puzzles by least questions (q) and least complexity there (c)"
    body = [[cell, *(str(counts.get(s, 0)) for s in semantics)] for cell, counts in summary(rows).items()]
    needing = Counter(r["least_complexity"] for r in rows if r["status"] == "solvable")
    lines = [_boxed_table(title, ["class", *semantics], body)]
    for c in (2, 3):
        if c > max_complexity:
            lines.append(f"complexity {c}: not searched (--max-complexity {max_complexity})")
        else:
            lines.append(f"complexity {c}: {needing.get(c, 0)} puzzle-semantics pairs need it at their least "
                         f"number of questions" + ("" if needing.get(c, 0) else " (none in this space)"))
    return "\n".join(lines)


def _boxed_table(title: str, header: list[str], body: list[list[str]]) -> str:
    """A table with its first column left-aligned and the others right-aligned."""
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # plain columns
        widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
        lines = [title] + ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
                           for row in [header, *body]]
        return "\n".join(line.rstrip() for line in lines)
    table = Table(title=title)
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in body:
        table.add_row(*row)
    console = Console(width=120, force_terminal=False, no_color=True)
    with console.capture() as capture:
        console.print(table)
    return capture.get().rstrip()


def hardest(rows: list[dict[str, Any]], top: int) -> list[tuple[dict[str, Any], Any]]:
    """The `top` solvable rows needing the highest complexity, then the most questions, then the
    fewest trees; each with its tree replayed by `verify` here (in this process)."""
    solvable = [r for r in rows if r["status"] == "solvable" and r["least_questions"]]
    solvable.sort(key=lambda r: (-r["least_complexity"], -r["least_questions"], int(r["trees"]), r["key"]))
    out = []
    for row in solvable[:top]:
        puzzle = puzzle_of_row(row)
        check = verify(puzzle, tree_from_json(row["tree"], puzzle), row["least_questions"])
        if not check.ok:
            raise InputError(f"stored tree of {row['key']} fails replay: {check.problems[0]} "
                             f"(the store was edited or is from another logicpy)")
        out.append((row, check))
    return out


def _hardest_json(row: dict[str, Any], check: Any) -> dict[str, Any]:
    return {**{k: row[k] for k in ("key", "description", "semantics", "least_questions", "least_complexity",
                                   "trees", "tree")},
            "verified": check.to_json()}


def heat_map_svg(rows: list[dict[str, Any]]) -> str:
    """A heat map: rows are (number of gods, types present), columns semantics; each cell shows
    the most questions any of its puzzles needs (colour), the highest complexity needed there,
    and how many puzzles have no tree within the bounds. Columns are as wide as their widest
    label; the title and the key wrap to the picture's width."""
    groups = sorted({(r["n"], r["types"]) for r in rows}, key=lambda g: (g[0], len(g[1]), g[1]))
    semantics = [s.value for s in Semantics if any(r["semantics"] == s.value for r in rows)]
    cells: dict[tuple, list] = defaultdict(list)
    for r in rows:
        cells[(r["n"], r["types"], r["semantics"])].append(r)
    top = max([r["least_questions"] or 0 for r in rows] + [1])
    size, pad, h = 12, 8, 30

    def cell(n: int, types: str, s: str) -> tuple[list, str, int]:
        group = cells.get((n, types, s), [])
        solved = [r for r in group if r["status"] == "solvable"]
        waiting = sum(r["status"] == TIMEOUT for r in group)
        none = len(group) - len(solved) - waiting
        q = max([r["least_questions"] for r in solved], default=0)
        c = max([r["least_complexity"] for r in solved], default=0)
        label = (f"q{q} c{c}" if solved else "-") + (f" ×{none}" if none else "") + (f" ?{waiting}" if waiting else "")
        return group, label, q

    shown = {(n, types, s): cell(n, types, s) for n, types in groups for s in semantics}
    names = {(n, types): f"{n} god{'s' if n != 1 else ''}, {types}" for n, types in groups}
    w = max([text_width(s, size) for s in semantics] + [text_width(v[1], size) for v in shown.values()] + [48]) + 2 * pad
    left = max(text_width(name, size) for name in names.values()) + 2 * pad
    width = max(left + w * len(semantics), 420)
    pic = Picture(size=size, margin=8)
    title = pic.text(0, ASCENT * 14, wrap("Gods census: most questions needed (colour), highest complexity c, "
                                          "unsolvable count ×", 14, width), size=14)
    head = title.bottom + 2 * size + pad
    for j, s in enumerate(semantics):
        pic.text(left + j * w + w / 2, head - pad, s, anchor="middle")
    for i, (n, types) in enumerate(groups):
        y = head + i * h
        pic.text(0, y + h / 2 + 4, names[(n, types)])
        for j, s in enumerate(semantics):
            group, label, q = shown[(n, types, s)]
            x = left + j * w
            shade = int(235 - 190 * q / top)
            pic.open()
            pic.rect(x, y, w - 2, h - 2, fill=f"rgb({shade},{shade},255)" if group else "#eee",
                     title=f"{n} gods {types}, {s}: {len(group)} puzzles")
            pic.text(x + w / 2 - 1, y + h / 2 + 4, label, anchor="middle", fill="white" if shade < 140 else "black")
            pic.close()
    key = ["q = the most questions any puzzle of the cell needs", "c = the highest least complexity",
           "×k = k puzzles with no tree within the bounds", "?k = k puzzles that ran out of time"]
    lines = [line for item in key for line in wrap(item, 11, width)]
    pic.text(0, head + h * len(groups) + pad + ASCENT * 11, lines, size=11)
    return pic.svg()
