"""Solve a game (FD propagation and search), each solution checked clue by clue (`verify.check`), and the Result type."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from ...core.fd import STRATEGIES
from ...errors import InputError, LogicpyError
from .compile import iter_grids, sort_key
from .model import Connective, Game, Grid, Rule
from .verify import check

__all__ = ["Result", "solve", "count", "checked_grids", "free_kinds", "upper_bound", "keep_limit", "DEFAULT_MAX", "MAX_KEEP_BYTES"]

#: Solutions `solve` keeps unless told otherwise: enough to show, few enough to stay quick.
DEFAULT_MAX = 1000


@dataclass(frozen=True)
class Result:
    """Solutions of a game, in a deterministic order (by the things' listed order).

    `complete` is False when the search stopped at a cap: there are more solutions than
    `solutions` holds.
    """

    game: Game
    solutions: tuple[Grid, ...]
    complete: bool = True

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def status(self) -> str:
        """`unique`, `ambiguous(n)`, `ambiguous(n+)` (at least n, search capped) or `none`."""
        if self.count == 1 and self.complete:
            return "unique"
        return f"ambiguous({self.count}{'' if self.complete else '+'})" if self.solutions else "none"

    @property
    def verdict(self) -> str:
        """The one-line summary: "unique solution", "3 solutions", "at least 1,000 solutions", "no solution"."""
        if not self.complete:
            return f"at least {self.count:,} solutions"
        if self.count == 1:
            return "unique solution"
        return f"{self.count:,} solutions" if self.solutions else "no solution"

    def __repr__(self) -> str:
        from .display import result_repr
        return result_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.result_html`."""
        from .display import result_html
        return result_html(self)

    @property
    def differing_cells(self) -> tuple[tuple[str, str], ...]:
        """(first-kind thing, kind) of every cell whose content differs between solutions."""
        if self.count < 2:
            return ()
        first = self.solutions[0]
        return tuple(
            (first[i][0], kind.name)
            for i in range(self.game.size)
            for j, kind in enumerate(self.game.kinds)
            if any(s[i][j] != first[i][j] for s in self.solutions)
        )


def solve(
    game: Game, strategy: str = "wdeg", max_solutions: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Result:
    """The solutions of the game (every one, or the first `max_solutions`), each verified clue by clue.

    Parameters
    ----------
    strategy : labelling order for the FD search, a key of `logicpy.core.fd.STRATEGIES`:
        "wdeg" (dom/wdeg, default: first-fail turned towards the constraints that fail),
        "ff" (first-fail) or "leftmost".
    max_solutions : stop after this many; the result says whether there were more. Never
        more than `keep_limit(game)` are kept (what fits in `MAX_KEEP_BYTES`).
    progress : called with the number found so far, every `PROGRESS_EVERY` solutions.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if max_solutions is not None and max_solutions < 1:
        raise InputError(f"the most solutions to keep must be at least 1, got {max_solutions}")
    cap = keep_limit(game)
    if max_solutions is None or max_solutions > cap:
        max_solutions = cap if upper_bound(game) > cap else max_solutions
    found: list[Grid] = []
    complete = True
    for grid in checked_grids(game, strategy):
        if max_solutions is not None and len(found) == max_solutions:
            complete = False
            break
        found.append(grid)
        if progress is not None and len(found) % PROGRESS_EVERY == 0:
            progress(len(found))
    found.sort(key=lambda g: sort_key(game, g))
    return Result(game, tuple(found), complete)


def checked_grids(game: Game, strategy: str = "wdeg") -> Iterator[Grid]:
    """The game's solutions as the FD search finds them, each checked clue by clue before it is given."""
    for grid in iter_grids(game, strategy):
        problems = check(game, grid)
        if problems:  # the FD model and the direct reading of the rules disagree
            raise LogicpyError(f"{game.name or 'game'}: internal error, FD solution fails: {problems[0]}")
        yield grid


#: How often (in solutions found) `solve` and `count` report progress.
PROGRESS_EVERY = 1000
#: The memory `solve` may fill with the solutions it keeps.
MAX_KEEP_BYTES = 256 * 2**20


def grid_bytes(game: Game) -> int:
    """About how much memory one kept solution takes (its tuples; the names are shared)."""
    return 56 + 8 * game.size + game.size * (56 + 8 * len(game.kinds))


def keep_limit(game: Game) -> int:
    """The most solutions of the game `solve` keeps: those that fit in `MAX_KEEP_BYTES`."""
    return MAX_KEEP_BYTES // grid_bytes(game)


def count(game: Game, strategy: str = "wdeg", progress: Callable[[int], None] | None = None) -> int:
    """How many solutions the game has, counted without keeping them (each one still verified).

    A kind no clue mentions can be arranged in any of its n! orders whatever the rest is, so
    it is not searched: the count of the game without it is multiplied by n!.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    free = free_kinds(game)
    factor = math.factorial(game.size) ** len(free)
    if free:
        game = replace(game, kinds=tuple(k for k in game.kinds if k.name not in free))
    n = 0
    for _ in checked_grids(game, strategy):
        n += 1
        if progress is not None and n % PROGRESS_EVERY == 0:
            progress(n * factor)
    return n * factor


def free_kinds(game: Game) -> set[str]:
    """The kinds, after the first, that no rule mentions (by a thing of theirs or in a `::` path)."""
    used: set[str] = set()

    def visit(rule: Rule) -> None:
        if isinstance(rule, Connective):
            for sub in rule.args:
                visit(sub)
            return
        for symbol in rule.args:
            used.add(game.kind_of(symbol.base).name)
            used.update(symbol.path)

    for clue in game.clues:
        for rule in clue.rules:
            visit(rule)
    return {k.name for k in game.kinds[1:] if k.name not in used}


def upper_bound(game: Game) -> int:
    """The most solutions a game of its shape can have: every order of every kind after the first."""
    return math.factorial(game.size) ** (len(game.kinds) - 1)
