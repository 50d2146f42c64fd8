"""The façade: solve a gods puzzle, and report the least questions and complexity it needs.

Everything returned is plain data; every tree returned has been replayed by `verify`.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import InputError, LogicpyError
from .search import SearchStats, counting_bound, move_table, searcher
from .tree import Tree, render_text, tree_to_json
from .universe import Progress, universe
from .verify import verify
from .model import Puzzle

if TYPE_CHECKING:
    from .census.shards import Sharding

__all__ = ["Result", "Report", "solve", "least_questions", "least_complexity", "report", "DEFAULT_COMPLEXITY"]

#: Complexity used when none is given (the classic puzzle needs 1).
DEFAULT_COMPLEXITY = 2
#: At most this many trees are materialised by find="all" unless a limit is given.
DEFAULT_LIMIT = 100


@dataclass(frozen=True)
class Result:
    """The outcome of `solve`.

    status: "found" (find="one"), "unique" or "found" (find="all", by count), or "none":
    no tree exists with at most `questions` questions of complexity <= `complexity` —
    an exhaustive proof, since the signature universe loses no question behaviour (or a
    counting bound, when `moves` is 0 and `reason` says so: then no universe was built).
    `least_complexity`: find="one" tries complexity 0, 1, ... in turn, so this is the
    least complexity at which a tree exists (None if none was found).
    """

    puzzle: Puzzle
    questions: int
    complexity: int
    find: str
    status: str
    trees: tuple[Tree, ...]
    count: int
    level_counts: tuple[int, ...]
    moves: int
    search: SearchStats
    seconds: dict[str, float] = field(default_factory=dict)
    reason: str = ""
    least_complexity: int | None = None

    @property
    def tree(self) -> Tree | None:
        """The first tree found, or None."""
        return self.trees[0] if self.trees else None

    @property
    def verdict(self) -> str:
        """One line: what was found, within which bounds."""
        bounds = f"<= {self.questions} questions of complexity <= {self.complexity}"
        if self.status == "none":
            if not self.moves:
                return f"no solution: no question tree with {bounds} exists ({self.reason})"
            why = f"; {self.reason}" if self.reason else ""
            return (f"no solution: no question tree with {bounds} exists "
                    f"(exhaustive over {self.moves} distinct moves{why})")
        if self.find == "all":
            shown = "" if len(self.trees) == self.count else f" (showing {len(self.trees)})"
            kind = "unique solution" if self.status == "unique" else f"{self.count} solutions"
            return f"{kind}: {self.count} distinct tree(s) with {bounds}{shown}"
        least = ""
        if self.least_complexity is not None and self.least_complexity < self.complexity:
            least = f" (the least complexity that works is {self.least_complexity})"
        return f"solution found: a question tree with {bounds}{least}"

    def __str__(self) -> str:
        return "\n".join([self.verdict, *(render_text(t, self.puzzle) for t in self.trees[:1])])

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython/Jupyter shows the verdict and the first tree."""
        printer.text(str(self))

    def __repr__(self) -> str:
        from .display import result_repr
        return result_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.result_html`."""
        from .display import result_html
        return result_html(self)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (trees in the documented tree format)."""
        return {
            "puzzle": _puzzle_json(self.puzzle),
            "questions": self.questions,
            "complexity": self.complexity,
            "find": self.find,
            "status": self.status,
            "count": self.count,
            "trees": [tree_to_json(t) for t in self.trees],
            "universe": {"level_counts": list(self.level_counts), "moves": self.moves},
            "search": vars(self.search),
            "seconds": self.seconds,
            "reason": self.reason,
            "least_complexity": self.least_complexity,
        }


def _puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "name": puzzle.name,
        "positions": puzzle.n_positions,
        "assignments": [list(a) for a in puzzle.assignments],
        "semantics": puzzle.semantics.value,
        "languages": ["da_yes" if lang else "da_no" for lang in puzzle.languages],
        "grammar": list(puzzle.grammar.names),
        "gods": [{"name": g.name, "letter": g.letter, "description": g.description} for g in puzzle.gods],
        "utterances": list(puzzle.utterances),
    }


def solve(
    puzzle: Puzzle,
    questions: int = 3,
    complexity: int = DEFAULT_COMPLEXITY,
    find: str = "one",
    limit: int = DEFAULT_LIMIT,
    progress: Progress | None = None,
    lowest_first: bool = True,
    deadline: float | None = None,
    sharding: "Sharding | None" = None,
) -> Result:
    """Find one tree (find="one") or all distinct trees (find="all", at most `limit` built).

    Parameters
    ----------
    puzzle : the puzzle (e.g. CLASSIC).
    questions : at most this many questions along any branch.
    complexity : questions of complexity <= this (atoms 0, each nesting +1).
    find : "one" or "all" ("all" counts every tree up to moves with equal branch sets).
    lowest_first : find="one" tries complexity 0, 1, ... and reports the least that works;
        False searches `complexity` alone (least_complexity is then None).
    deadline : a `time.monotonic()` value; the search raises `SearchTimeout` after it.
    sharding : how to build big universe levels sharded across workers (`shards.Sharding`).
    """
    if find not in ("one", "all"):
        raise InputError(f"find must be 'one' or 'all', got {find!r}")
    if not isinstance(questions, int) or questions < 0:
        raise InputError(f"questions must be a non-negative integer, got {questions!r}")
    if not isinstance(complexity, int) or complexity < 0:
        raise InputError(f"complexity must be a non-negative integer, got {complexity!r}")
    seconds: dict[str, float] = {}
    bound = counting_bound(puzzle, questions)
    if bound:
        return Result(puzzle, questions, complexity, find, "none", (), 0, (), 0, SearchStats(), seconds, bound)
    # find="one" tries the lower complexities first: the least that works is what users
    # want, and a higher level (costly to build) is never built when a lower one suffices.
    levels = range(complexity + 1) if find == "one" and lowest_first else [complexity]
    trees: tuple[Tree, ...] = ()
    count = 0
    for level in levels:
        start = time.process_time()
        u = universe(puzzle, level, progress, sharding)
        moves = move_table(u, level)
        seconds["universe"] = seconds.get("universe", 0.0) + time.process_time() - start
        start = time.process_time()
        search = searcher(u, level)
        search.stats, search.deadline = SearchStats(), deadline
        if progress:
            progress(f"search complexity {level}", 0, 1)
        if find == "one":
            tree = search.one(search.all_live, questions)
            trees = () if tree is None else (tree,)
            count = len(trees)
        else:
            count = search.count(search.all_live, questions)
            trees = tuple(itertools.islice(search.trees(search.all_live, questions), limit))
        if progress:
            progress(f"search complexity {level}", 1, 1)
        seconds["search"] = seconds.get("search", 0.0) + time.process_time() - start
        if count:
            break
    start = time.process_time()
    for t in trees:
        check = verify(puzzle, t, questions)
        if not check.ok:
            raise LogicpyError(f"internal error: the search returned a tree that fails replay: {check.problems[0]}")
    seconds["verify"] = time.process_time() - start
    status = "none" if not count else ("unique" if find == "all" and count == 1 else "found")
    reason = ""
    pair = search.inseparable_pair(search.all_live) if status == "none" else None
    if pair:
        a, b = (puzzle.hidden_worlds[h] for h in pair)
        reason = f"worlds {a} and {b} share a branch under every question of complexity <= {complexity}, so more questions cannot help"
    elif status == "none" and search.width < search.base and search.n_assignments > search.width**questions:
        reason = (f"counting bound: {search.n_assignments} assignments cannot fit in the {search.width**questions} "
                  f"leaves {questions} question(s) can reach: every question of complexity <= {complexity} holds "
                  f"each world in one of {search.width} of its {search.base} branches")
    return Result(
        puzzle, questions, complexity, find, status, trees, count,
        tuple(u.level_counts()[: complexity + 1]), len(moves), search.stats, seconds, reason,
        level if count and find == "one" and lowest_first else None,
    )


def least_questions(puzzle: Puzzle, max_complexity: int = DEFAULT_COMPLEXITY, max_questions: int = 8,
                    sharding: "Sharding | None" = None) -> int | None:
    """The least number of questions of complexity <= max_complexity that solve `puzzle`.

    None if even `max_questions` do not (a proof for that bound).
    """
    for k in range(max_questions + 1):
        if solve(puzzle, k, max_complexity, sharding=sharding).status != "none":
            return k
    return None


def least_complexity(puzzle: Puzzle, questions: int = 3, max_complexity: int = 3,
                     sharding: "Sharding | None" = None) -> int | None:
    """The least complexity that lets `questions` questions solve `puzzle`; None up to max_complexity."""
    return solve(puzzle, questions, max_complexity, sharding=sharding).least_complexity


@dataclass(frozen=True)
class Report:
    """What a puzzle needs: least questions at the complexity bound, then least complexity for that many."""

    puzzle: Puzzle
    max_complexity: int
    max_questions: int
    least_questions: int | None
    least_complexity: int | None

    def __repr__(self) -> str:
        from .display import report_repr
        return report_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.report_html`."""
        from .display import report_html
        return report_html(self)

    def __str__(self) -> str:
        name = self.puzzle.name or "puzzle"
        if self.least_questions is None:
            return (f"{name}: not solvable with <= {self.max_questions} questions "
                    f"of complexity <= {self.max_complexity}")
        k = self.least_questions
        return (f"{name}: least questions {k} (complexity <= {self.max_complexity}); "
                f"with {k} question{'s' if k != 1 else ''} the least complexity is {self.least_complexity}")


def report(puzzle: Puzzle, max_complexity: int = DEFAULT_COMPLEXITY, max_questions: int = 6,
           sharding: "Sharding | None" = None) -> Report:
    """Least questions (with complexity <= max_complexity), then the least complexity for that many."""
    k = least_questions(puzzle, max_complexity, max_questions, sharding)
    c = None if k is None else least_complexity(puzzle, k, max_complexity, sharding)
    return Report(puzzle, max_complexity, max_questions, k, c)
