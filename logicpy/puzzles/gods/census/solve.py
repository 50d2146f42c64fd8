"""A census of gods puzzles: every puzzle of a space, what it needs, and why when nothing works.

The space: n positions; a multiset of gods over the allowed
types (one of each, two Trulys, ...); for each position the set of types that may stand
there (a one-type set is a known position); and a semantics. A *raw* puzzle is one such
choice; its type assignments are the orderings of the multiset the position sets allow.
Puzzles whose assignment sets are equal up to renaming positions are one *canonical*
puzzle, and the census says how many raw puzzles each stands for.

For each canonical puzzle and semantics, `examine` finds: the least number of questions
(of complexity <= the bound) that solves it; at that number, the least complexity; the
number of distinct trees there; one tree (replayed by `verify`); or, when nothing works,
the proof kind: `counting` (the counting bound, no universe built), `inseparable` (two
worlds with different assignments share a branch under every question of complexity <=
the bound, so no number of questions helps), `exhaustive` (the search over the exact
universe found no tree within the question bound), or `refused` (the universe would not
fit: the message gives the memory estimate).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ....errors import InputError
from ..model import TYPES, GodType, Puzzle, Semantics, type_letters
from ..search import SearchTimeout
from ..solve import solve
from ..tree import tree_to_json
from ..universe import UniverseTooBig

if TYPE_CHECKING:
    from .cluster import Engine
    from .storage import Store

__all__ = ["Spec", "Task", "RunStats", "puzzle_space", "canonical", "examine", "tasks_for", "puzzle_of_row", "run_census",
           "PROOF_KINDS", "TIMEOUT"]

#: Why a puzzle is reported unsolvable (within the census bounds), strongest first.
PROOF_KINDS = ("inseparable", "counting", "exhaustive", "refused")
#: The status of a task stopped by its time limit: no answer either way; a run with a
#: larger limit (or none) computes it again.
TIMEOUT = "timeout"


def canonical(assignments: Iterable[tuple[str, ...]], n: int) -> tuple[tuple[str, ...], ...]:
    """The least sorted assignment set over all renamings of the n positions.

    >>> canonical([("random", "truly")], 2) == canonical([("truly", "random")], 2)
    True
    """
    rows = list(assignments)
    best: tuple[tuple[str, ...], ...] | None = None
    for perm in itertools.permutations(range(n)):
        form = tuple(sorted(tuple(a[i] for i in perm) for a in rows))
        if best is None or form < best:
            best = form
    assert best is not None
    return best


@dataclass(frozen=True)
class Spec:
    """One canonical puzzle of the space: its assignments, one raw form that gives it, and how many do."""

    n: int
    assignments: tuple[tuple[str, ...], ...]
    gods: tuple[str, ...]  # the multiset of the representative raw form
    allowed: tuple[tuple[str, ...], ...]  # per position, its allowed types in that form
    raw: int
    gods_file: str = ""  # where the open god types it names come from (a --gods-file), if any

    @property
    def key(self) -> str:
        """A stable text key: the canonical assignments in letters, e.g. "FRT,FTR,RFT"."""
        return ",".join(type_letters(a) for a in self.assignments)

    @property
    def types(self) -> str:
        """The types present, in letters (e.g. "TFR")."""
        present = {t for a in self.assignments for t in a}
        return type_letters(t for t in TYPES if t in present) + "".join(
            type_letters([t]) for t in sorted(present - set(TYPES)))

    @property
    def description(self) -> str:
        """The representative raw form, e.g. "TFR; 1 in T/F; 3 = R"."""
        parts = [type_letters(self.gods)]
        for p, allowed in enumerate(self.allowed, 1):
            if len(allowed) == 1:
                parts.append(f"{p} = {type_letters(allowed)}")
            elif len(allowed) < len(set(self.gods)):
                parts.append(f"{p} in {'/'.join(type_letters([t]) for t in allowed)}")
        return "; ".join(parts)

    def puzzle(self, semantics: Semantics | str) -> Puzzle:
        """This puzzle under `semantics` (with the open god types of its gods file)."""
        return Puzzle(self.n, self.assignments, semantics=Semantics.parse(semantics),
                      name=self.description, gods=open_gods(self.gods_file))


def open_gods(source: str) -> tuple[GodType, ...]:
    """The GODS of a --gods-file (loaded once per process; each worker loads it itself)."""
    if not source:
        return ()
    if source not in _OPEN_GODS:
        from ..cli import load_gods

        gods = load_gods(source)
        letters = [type_letters([t]) for t in TYPES] + [g.letter for g in gods]
        if len(set(letters)) != len(letters):
            raise InputError(f"--gods-file {source}: the census names types by letter, and two types share one "
                             f"({', '.join(letters)})")
        _OPEN_GODS[source] = gods
    return _OPEN_GODS[source]


_OPEN_GODS: dict[str, tuple[GodType, ...]] = {}


def puzzle_space(gods: Sequence[int], types: Sequence[str] = TYPES, gods_file: str = "") -> list[Spec]:
    """Every canonical puzzle with a number of gods in `gods` over `types`, with raw counts.

    Raw forms: a multiset of n gods over `types`, and for each position a non-empty subset
    of the multiset's types allowed there; forms with no assignment are not puzzles.
    The representative of a canonical puzzle is its first raw form (fewest restrictions first).
    """
    names = TYPES + tuple(g.name for g in open_gods(gods_file))
    for t in types:
        if t not in names:
            raise InputError(f"--types: unknown god type {t!r} (choose from {', '.join(names)})")
    types = tuple(t for t in names if t in set(types))
    if not types:
        raise InputError("--types: name at least one god type")
    specs: dict[tuple, list] = {}
    for n in gods:
        if not 1 <= n <= 5:
            raise InputError(f"--gods: {n} is out of range (1 to 5 gods)")
        for multiset in itertools.combinations_with_replacement(types, n):
            present = tuple(t for t in types if t in multiset)
            subsets = [s for k in range(len(present), 0, -1) for s in itertools.combinations(present, k)]
            orders = set(itertools.permutations(multiset))
            for allowed in itertools.product(subsets, repeat=n):
                rows = [a for a in orders if all(a[i] in allowed[i] for i in range(n))]
                if not rows:
                    continue
                form = (n, canonical(rows, n))
                if form in specs:
                    specs[form][3] += 1
                else:
                    specs[form] = [n, form[1], (multiset, _renamed(allowed, rows, form[1])), 1]
    return [Spec(n, forms, gods_, allowed, raw, gods_file) for n, forms, (gods_, allowed), raw in specs.values()]


def _renamed(allowed: tuple[tuple[str, ...], ...], rows: list[tuple[str, ...]],
             form: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """The position sets `allowed` renamed so that the orders they allow are exactly `form`
    (the canonical renaming of `rows`): the description then names the canonical puzzle itself."""
    for perm in itertools.permutations(range(len(allowed))):
        if tuple(sorted(tuple(a[i] for i in perm) for a in rows)) == form:
            return tuple(allowed[i] for i in perm)
    raise AssertionError("a canonical form is a renaming of its rows")


def puzzle_of_row(row: dict[str, Any]) -> Puzzle:
    """The puzzle a stored row is about (its canonical assignments, in letters, and semantics)."""
    gods = open_gods(row["gods_file"] or "")
    names = {type_letters([t]): t for t in TYPES} | {g.letter: g.name for g in gods}
    assignments = tuple(tuple(names[c] for c in form) for form in row["puzzle"].split(","))
    return Puzzle(row["n"], assignments, semantics=Semantics.parse(row["semantics"]), name=row["description"],
                  gods=gods)


@dataclass(frozen=True)
class Task:
    """One unit of census work: a canonical puzzle under one semantics, within bounds."""

    spec: Spec
    semantics: str
    max_questions: int
    max_complexity: int
    worker_memory: int = 0  # bytes a worker may use (0: unknown); not part of the key
    time_limit: float = 0.0  # seconds the search may take (0: no limit); not part of the key

    @property
    def key(self) -> str:
        """The store's primary key: puzzle, semantics and bounds."""
        where = f"|{self.spec.gods_file}" if self.spec.gods_file else ""
        return f"{self.spec.key}|{self.semantics}|q{self.max_questions}|c{self.max_complexity}{where}"


def examine(task: Task) -> dict[str, Any]:
    """Least questions, least complexity there, tree count and one verified tree, or the proof kind.

    Tries 0, 1, ... questions. Until a search has been needed (counting refutes the small
    counts without a universe), `solve` tries complexity 0 up to the bound, lowest first,
    so no higher universe is built than the first count that works needs. After that, each
    count is searched at the bound alone (a tree of lower complexity is one of the bound
    too, so the lower levels cannot succeed first), reusing the failures the previous
    counts proved; at the least count that works, `solve` finds the least complexity.
    Every tree is verified by replay. With a time limit, a task that passes it gives a row
    with status "timeout".
    """
    spec = task.spec
    puzzle = spec.puzzle(task.semantics)
    start, cpu = time.perf_counter(), time.process_time()
    deadline = time.monotonic() + task.time_limit if task.time_limit > 0 else None
    row: dict[str, Any] = {
        "key": task.key, "n": spec.n, "types": spec.types, "puzzle": spec.key, "description": spec.description,
        "assignments": len(spec.assignments), "raw": spec.raw, "semantics": task.semantics,
        "max_questions": task.max_questions, "max_complexity": task.max_complexity,
        "status": "unsolvable", "proof": None, "reason": "", "least_questions": None, "least_complexity": None,
        "trees": None, "tree": None, "moves": None, "gods_file": spec.gods_file or None,
    }
    k, searched = 0, False
    try:
        for k in range(task.max_questions + 1):
            result = solve(puzzle, k, task.max_complexity, lowest_first=not searched, deadline=deadline)
            if result.status != "none":
                if searched:
                    result = solve(puzzle, k, task.max_complexity, deadline=deadline)
                c = result.least_complexity
                assert c is not None  # find="one" names the level it found a tree at
                counted = solve(puzzle, k, c, find="all", limit=0, deadline=deadline)
                row.update(status="solvable", proof=None, reason="", least_questions=k, least_complexity=c, trees=str(counted.count),
                           tree=tree_to_json(result.trees[0]), moves=counted.moves)
                break
            row["reason"] = result.reason
            if result.moves and result.reason.startswith("worlds"):
                row["proof"] = "inseparable"
                break
            row["proof"] = "counting" if not result.moves or result.reason.startswith("counting") else "exhaustive"
            searched = searched or result.moves > 0
    except UniverseTooBig as exc:  # refused before building: say what it would take
        row.update(status="unsolvable", proof="refused", reason=str(exc) + _workers_needed(exc.memory, task.worker_memory))
    except SearchTimeout:
        row.update(status=TIMEOUT, proof=None, least_questions=None, least_complexity=None, trees=None, tree=None,
                   moves=None, reason=f"no answer within the {task.time_limit:g} s time limit "
                                      f"(questions tried up to {k}); a run with a larger --time-limit retries it")
    row["seconds"] = time.perf_counter() - start
    row["cpu_seconds"] = time.process_time() - cpu  # the worker's CPU time (not stored: for benchmarks)
    return row


def _workers_needed(memory: int, worker_memory: int) -> str:
    """How many workers of `worker_memory` bytes a universe level needing `memory` would take if
    sharded by signature (each worker keeping the signatures, and dedup keys, of its shard)."""
    if worker_memory <= 0:
        return ""
    return (f"; sharded by signature it would need {-(-memory // worker_memory)} workers of "
            f"{worker_memory / 2**30:.1f} GiB")


def tasks_for(specs: Sequence[Spec], semantics: Sequence[str], max_questions: int,
              max_complexity: int, worker_memory: int = 0, time_limit: float = 0.0) -> list[Task]:
    """Every (puzzle, semantics) task, the likely longest first (more gods, more assignments),
    so that the workers finish together."""
    order = sorted(specs, key=lambda s: (-s.n, -len(s.assignments), s.key))
    return [Task(spec, sem, max_questions, max_complexity, worker_memory, time_limit)
            for spec in order for sem in semantics]


@dataclass
class RunStats:
    """One census run: tasks asked for, found already stored, done now, wall seconds, CPU seconds per task."""

    tasks: int
    stored_before: int
    done: int = 0
    wall: float = 0.0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (task key, error) of tasks given up
    cpu: dict[str, float] = field(default_factory=dict)  # task key -> its worker's CPU seconds (done now)


def run_census(tasks: Sequence[Task], store: "Store", engine: "Engine",
               progress: Callable[[int, int], None] | None = None) -> RunStats:
    """Examine every task not yet in `store` on the engine's workers; this process writes each row.

    A row is committed as soon as it arrives, so an interrupted run loses only the tasks
    in flight, and the next run resumes with the keys not stored. A task that fails for
    good (it raised on every retry, or killed its workers) is listed in `failed`, stored
    nowhere, and tried again by the next run; the others go on. A stored timeout row is
    computed again when the task's time limit is larger than the one it ran out of.
    """
    stored = store.done_keys({t.key: t.time_limit for t in tasks})
    todo = [t for t in tasks if t.key not in stored]
    stats = RunStats(len(tasks), len(tasks) - len(todo))
    start = time.perf_counter()
    if progress:
        progress(stats.stored_before, len(tasks))
    try:
        for task, row, error in engine.map_unordered(examine, todo):
            if error is not None:
                stats.failed.append((task.key, f"{type(error).__name__}: {error}"))
                continue
            store.add(row)
            stats.done += 1
            stats.cpu[task.key] = row.get("cpu_seconds", 0.0)
            if progress:
                progress(stats.stored_before + stats.done, len(tasks))
    finally:
        stats.wall = time.perf_counter() - start
    return stats
