"""Check a solution grid against a game, reading each clue directly (no FD): `verify` returns a
`Verification` (see `logicpy.puzzles.verification`); `check` lists what is wrong."""

from __future__ import annotations

from ..verification import Verification
from .model import Game, Grid
from .semantics import GridView, holds

__all__ = ["check", "verify"]


def check(game: Game, grid: Grid) -> list[str]:
    """What is wrong with a solution grid: its shape, then every clue it breaks ([] if none)."""
    n, kinds = game.size, game.kinds
    if len(grid) != n or any(len(row) != len(kinds) for row in grid):
        return [f"the grid must have {n} rows of {len(kinds)} things"]
    problems = []
    for j, kind in enumerate(kinds):
        column = [row[j] for row in grid]
        if sorted(column) != sorted(kind.things):
            problems.append(f"column {kind.name!r} must hold each of its things once, got {column}")
    if [row[0] for row in grid] != list(kinds[0].things):
        problems.append(f"rows must follow the order of kind {kinds[0].name!r}")
    if problems:
        return problems
    view = GridView(game, grid)
    return [
        f"clue {clue.number} fails"
        for clue in game.clues
        if not all(holds(game, rule, view) for rule in clue.rules)
    ]


def verify(game: Game, grid: Grid) -> Verification:
    """Whether the grid is well formed and satisfies every clue (true as a bool iff it does)."""
    return Verification.of(check(game, grid), "every clue checked directly on the solution")
