"""Renderers: solution tables as text, results as JSON (and back), explanations as text."""

from __future__ import annotations

from typing import Any

from ...errors import InputError
from .explain import Explanation
from .model import Game, Grid
from .solve import Result, check

__all__ = ["render_grid", "render_text", "result_to_data", "result_from_data", "render_explanation"]


def render_grid(game: Game, grid: Grid) -> str:
    """A solution as an aligned table: kinds as columns, rows in the first kind's order.

    >>> from logicpy.puzzles.einstein.model import Game, Kind
    >>> game = Game((Kind("Person", ("Ann", "Bob")), Kind("Pet", ("cat", "dog"))), ())
    >>> print(render_grid(game, (("Ann", "dog"), ("Bob", "cat"))))
    Person  Pet
    ------  ---
    Ann     dog
    Bob     cat
    """
    header = list(game.kind_names)
    widths = [max(len(h), *(len(row[j]) for row in grid)) for j, h in enumerate(header)]
    lines = [header, ["-" * w for w in widths], *grid]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines)


def render_text(result: Result) -> str:
    """The verdict line, every solution as a table, and for several, the cells that differ."""
    parts = [result.verdict]
    for i, grid in enumerate(result.solutions, 1):
        title = "" if result.count == 1 else f"solution {i} of {result.count}\n"
        parts.append(title + render_grid(result.game, grid))
    if result.differing_cells:
        cells = ", ".join(f"{row}'s {kind}" for row, kind in result.differing_cells)
        parts.append(f"cells that differ between solutions: {cells}")
    return "\n\n".join(parts)


def result_to_data(result: Result) -> dict[str, Any]:
    """The JSON data of a result (read back by `result_from_data`)."""
    return {
        "game": result.game.name,
        "kinds": list(result.game.kind_names),
        "status": result.status,
        "count": result.count,
        "solutions": [[list(row) for row in grid] for grid in result.solutions],
        "differing_cells": [{"row": row, "kind": kind} for row, kind in result.differing_cells],
    }


def result_from_data(game: Game, data: dict[str, Any]) -> Result:
    """Read a result back for its game; every solution is checked against the clues."""
    try:
        if list(data["kinds"]) != list(game.kind_names):
            raise InputError(f"result is for kinds {data['kinds']}, the game has {list(game.kind_names)}")
        grids = tuple(tuple(tuple(row) for row in grid) for grid in data["solutions"])
    except (KeyError, TypeError) as exc:
        raise InputError(f"not a result: missing or malformed field {exc}") from None
    for i, grid in enumerate(grids, 1):
        problems = check(game, grid)
        if problems:
            raise InputError(f"result solution {i}: {problems[0]}")
    return Result(game, grids)


def render_explanation(explanation: Explanation) -> str:
    """The trace as numbered lines, ending with how it finished."""
    lines = [f"{i:>3}. {step.text}" for i, step in enumerate(explanation.steps, 1)]
    if explanation.solved and not explanation.guesses:
        lines.append("solved by propagation alone, no guesses")
    elif explanation.solved:
        lines.append(f"solved with {explanation.guesses} guess{'es' if explanation.guesses > 1 else ''}")
    return "\n".join(lines)
