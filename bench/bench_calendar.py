"""The calendar date puzzle: one date and every date, logicpy beside other engines.

    python -m bench calendar

Rows: logicpy (exact cover on bitsets: one date enumerated and counted; every date in one
search, counted by `count_by` and enumerated tiling by tiling), a plain backtracking
baseline written here (bitmasks, first free cell, one search per date), SWI-Prolog running
prolog/calendar.pl, and the `xcover` library (numba dancing cells) when it is installed
(`pip install 'logicpy[bench]'`). Times are CPU seconds, best of the repeats. The seed's
and the issue's published figures are printed below, not measured here.
"""

from __future__ import annotations

from bench.common import PROLOG_DIR, fmt_bytes, fmt_seconds, measure, print_table, swipl_seconds
from logicpy.puzzles.calendar import STANDARD, count, count_all, parse_date, solve
from logicpy.puzzles.calendar.dates import board_dates, real_dates
from logicpy.puzzles.calendar.model import orientations

#: Figures stated by the seed and the issue, for comparison (other machines).
PUBLISHED = [
    ("the seed's APL program (Dyalog), every date", "about 30 s"),
    ("a published Rust solver, every date", "about 30 s"),
    ("a Python solver with multiprocessing, every date", "two hours on all cores"),
    ("a plain Python bitmask search, every date", "12-18 s CPU"),
    ("xcover (numba) per the issue, every date", "4.3 s"),
]


# -- the plain backtracking baseline ------------------------------------------------------------

def _baseline_tables():
    """Cell bits in reading order; for each cell, (piece index, placement mask) starting there."""
    board = STANDARD.board
    bit = {cell: 1 << i for i, cell in enumerate(board.cells)}
    starts: list[list[tuple[int, int]]] = [[] for _ in board.cells]
    for k, piece in enumerate(STANDARD.pieces):
        for shape in orientations(piece):
            first = min(shape)
            for i, (r, c) in enumerate(board.cells):
                cells = [(r + dr - first[0], c + dc - first[1]) for dr, dc in shape]
                if all(cell in bit for cell in cells):
                    starts[i].append((k, sum(bit[cell] for cell in cells)))
    return bit, starts


def baseline_count(month: int, day: int, tables=None) -> int:
    """Solutions of one date by plain backtracking: fill the first free cell with every piece that fits."""
    bit, starts = tables or _baseline_tables()
    labels = parse_date(f"{month} {day}").labels()
    full = (1 << len(bit)) - 1
    used = sum(bit[STANDARD.board.cell(label)] for label in labels)

    def fill(used: int, pieces_left: int) -> int:
        free = ~used & full
        if not free:
            return 1
        i = (free & -free).bit_length() - 1
        total = 0
        for k, mask in starts[i]:
            if pieces_left >> k & 1 and not used & mask:
                total += fill(used | mask, pieces_left & ~(1 << k))
        return total

    return fill(used, (1 << len(STANDARD.pieces)) - 1)


def baseline_all() -> int:
    tables = _baseline_tables()
    return sum(baseline_count(d.month, d.day, tables) for d in real_dates())


# -- logicpy -------------------------------------------------------------------------------------

def logicpy_all_counted() -> int:
    groups = count_all(STANDARD)
    return sum(groups.get(d.labels(), 0) for d in real_dates())


def logicpy_all_enumerated() -> int:
    """Every tiling of the 59,787 that leave two cells open, built one by one, kept if a real date."""
    from logicpy.puzzles.calendar.solve import _problem

    board = STANDARD.board
    real = {tuple(sorted(d.labels(), key=board.labels.index)) for d in real_dates()}
    n = 0
    for cover in _problem(STANDARD).covers():
        opened = tuple(board.label(name[2]) for name in cover if name[0] == "open")
        n += opened in real
    return n


def _xcover_all() -> int | None:
    """Every real date with xcover (numba dancing cells) on logicpy's own every-date problem (the
    same options and items, one search), tilings kept if they open a real date; None if not installed."""
    try:
        from xcover import covers
    except ImportError:
        return None
    from logicpy.puzzles.calendar.solve import _problem

    problem = _problem(STANDARD)
    board = STANDARD.board
    index = {item: k for k, item in enumerate(problem.primary + problem.secondary)}
    options = [[index[item] for item in problem.items_of(name)] for name in problem.names]
    real = {tuple(sorted(d.labels(), key=board.labels.index)) for d in real_dates()}
    opens = [board.label(name[2]) if name[0] == "open" else None for name in problem.names]
    n = 0
    for cover in covers(options, primary=[index[i] for i in problem.primary],
                        secondary=[index[i] for i in problem.secondary]):
        opened = tuple(sorted((opens[o] for o in cover if opens[o] is not None), key=board.labels.index))
        n += opened in real
    return n


def main() -> None:
    oct6 = parse_date("Oct 6").labels()
    jan25 = parse_date("Jan 25").labels()
    rows = []
    for label, labels in (("Oct 6 (7 solutions)", oct6), ("Jan 25 (216 solutions)", jan25)):
        enum = measure(lambda: solve(STANDARD, labels).count, repeat=5)
        counted = measure(lambda: count(STANDARD, labels), repeat=5)
        tables = _baseline_tables()
        d = parse_date(" ".join(labels))
        base = measure(lambda: baseline_count(d.month, d.day, tables), repeat=5, trace_memory=False)
        swi = swipl_seconds(PROLOG_DIR / "calendar.pl", f"date_count({d.month}, {d.day}, _)")
        rows.append([f"one date: {label}", fmt_seconds(enum.seconds), fmt_seconds(counted.seconds),
                     fmt_seconds(base.seconds), fmt_seconds(swi), fmt_bytes(enum.peak_bytes)])
    counted = measure(logicpy_all_counted, repeat=1)
    enumerated = measure(logicpy_all_enumerated, repeat=1, trace_memory=False)
    assert counted.result == enumerated.result == 24405, (counted.result, enumerated.result)
    base = measure(baseline_all, repeat=1, trace_memory=False)
    assert base.result == 24405, base.result
    swi = swipl_seconds(PROLOG_DIR / "calendar.pl", "all_dates_count(_)", repeat=1, cap=300)
    rows.append(["every real date (24,405 solutions)", fmt_seconds(enumerated.seconds), fmt_seconds(counted.seconds),
                 fmt_seconds(base.seconds), fmt_seconds(swi), fmt_bytes(counted.peak_bytes)])
    print_table("calendar puzzle, all solutions (CPU)",
                ["what", "logicpy: every tiling built", "logicpy: counted", "plain backtracking (here)",
                 "SWI calendar.pl", "logicpy peak heap"], rows)
    xc = measure(_xcover_all, repeat=1, trace_memory=False)
    if xc.result is None:
        print("xcover: not installed (pip install 'logicpy[bench]' to compare)")
    else:
        assert xc.result == 24405, xc.result
        warm = measure(_xcover_all, repeat=1, trace_memory=False)
        print(f"xcover (numba dancing cells) on the same every-date problem, every tiling built: "
              f"{fmt_seconds(warm.seconds)} ({fmt_seconds(xc.seconds)} with numba's first compilation)")
    print(f"({len(board_dates())} board dates; logicpy's every-date search covers all 903 open pairs at once)")
    print_table("published figures (seed and issue; other machines, not measured here)", ["solver", "time"],
                [list(p) for p in PUBLISHED])


if __name__ == "__main__":
    main()
