"""Every grid of a game's shape with each clue read on it: the answer no solver's model
touches, for the tests that check the FD search, the SAT engine and counting against it."""

from __future__ import annotations

import itertools

from logicpy.puzzles.einstein import Game
from logicpy.puzzles.einstein.semantics import GridView, holds


def brute_force(game: Game) -> list:
    """Every grid of the game's shape that satisfies each clue read on it, in listed order."""
    first, *others = game.kinds
    found = []
    for perms in itertools.product(*(itertools.permutations(k.things) for k in others)):
        grid = tuple(zip(first.things, *perms))
        if all(holds(game, r, GridView(game, grid)) for c in game.clues for r in c.rules):
            found.append(grid)
    return found
