"""Solve a game (FD propagation and search), each solution checked by `verify`, and the Result type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...core.fd import STRATEGIES
from ...errors import InputError, LogicpyError
from .compile import iter_grids, sort_key
from .model import Game, Grid
from .verify import check, verify

__all__ = ["Result", "solve", "count", "DEFAULT_MAX"]

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
    max_solutions : stop after this many; the result says whether there were more.
    progress : called with the number found so far, every `PROGRESS_EVERY` solutions.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if max_solutions is not None and max_solutions < 1:
        raise InputError(f"the most solutions to keep must be at least 1, got {max_solutions}")
    found: list[Grid] = []
    complete = True
    for grid in iter_grids(game, strategy):
        if max_solutions is not None and len(found) == max_solutions:
            complete = False
            break
        problems = check(game, grid)
        if problems:  # the FD model and the direct reading of the rules disagree
            raise LogicpyError(f"{game.name or 'game'}: internal error, FD solution fails: {problems[0]}")
        found.append(grid)
        if progress is not None and len(found) % PROGRESS_EVERY == 0:
            progress(len(found))
    found.sort(key=lambda g: sort_key(game, g))
    return Result(game, tuple(found), complete)


#: How often (in solutions found) `solve` and `count` report progress.
PROGRESS_EVERY = 1000


def count(game: Game, strategy: str = "wdeg", progress: Callable[[int], None] | None = None) -> int:
    """How many solutions the game has, counted without keeping them (each one still verified)."""
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    n = 0
    for grid in iter_grids(game, strategy):
        if not verify(game, grid):
            raise LogicpyError(f"{game.name or 'game'}: internal error, FD solution fails: {check(game, grid)[0]}")
        n += 1
        if progress is not None and n % PROGRESS_EVERY == 0:
            progress(n)
    return n
