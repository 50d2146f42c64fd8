"""Logic-grid solutions as relations of logicpy's core, for queries from Python or the toplevel.

A game is a `Game`, or the name or path of one (`"zebra"`, `"g.json"`). A grid is a list of
rows, one per thing of the game's first kind, each the list of its things, one per kind,
in the game's kind order (as `Grid`, with lists for tuples).

- `solutiono(game, grid)`: grid is a solution of game.
- `rowo(game, row)`: row is the row of some thing in some solution (each distinct row once).
- `togethero(game, a, b)`: things a and b share a row in some solution (each pair once).

Solutions come lazily from the default engine (the SAT solver, one call per solution; the
FD search without python-sat), each checked clue by clue (`check`) before it is offered, so
a query that needs one solution does not wait for all of them.

    >>> from logicpy.core import membero, run, var
    >>> who = var()
    >>> run(0, who, togethero("zebra", who, "Zebra"), membero(who, ["Englishman", "Spaniard", "Japanese", "Ukrainian", "Norwegian"]))
    ('Japanese',)

From the toplevel: `use_module('logicpy.puzzles.einstein.relations').`, then
`togethero(zebra, Who, 'Zebra').` or `rowo(zebra, ['Norwegian'|Rest]).`
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kanren.core import GoalType

from ...core import eq, lany
from ...errors import InputError
from .model import Game
from .solve import checked_grids

__all__ = ["solutiono", "rowo", "togethero"]
RELATIONS = ("solutiono", "rowo", "togethero")


def _game(game: Any) -> Game:
    """`game` itself, or the game a name or path names; anything else is an InputError."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        from . import load_game

        return load_game(game)
    raise InputError(f"einstein relations: the game must be a Game or the name of one, got {game!r}")


def _distinct(items: Iterator[Any]) -> Iterator[Any]:
    seen: set[Any] = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item


def solutiono(game: Any, grid: Any) -> GoalType:
    """solutiono(+game, ?grid): grid (rows of things, lists) is a solution of game."""
    g = _game(game)
    return lany(eq(grid, [list(row) for row in solution]) for solution in checked_grids(g))


def rowo(game: Any, row: Any) -> GoalType:
    """rowo(+game, ?row): row (one thing per kind) is a row of some solution of game."""
    g = _game(game)
    rows = _distinct(r for solution in checked_grids(g) for r in solution)
    return lany(eq(row, list(r)) for r in rows)


def togethero(game: Any, a: Any, b: Any) -> GoalType:
    """togethero(+game, ?a, ?b): things a and b (of different kinds, or the same thing) share a row of some solution."""
    g = _game(game)
    pairs = _distinct((x, y) for solution in checked_grids(g) for r in solution for x in r for y in r)
    return lany(eq((a, b), pair) for pair in pairs)
