"""Renderers: solution tables as text, results as JSON (and back), explanations as text."""

from __future__ import annotations

import unicodedata
from html import escape
from typing import Any

from ...errors import InputError
from .explain import Explanation
from .model import Game, Grid
from .solve import Result
from .verify import check

__all__ = [
    "render_grid", "render_text", "result_to_data", "result_from_data", "render_explanation", "render_candidates",
    "html_game", "html_grid", "html_explanation",
]


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
    widths = [max(_width(h), *(_width(row[j]) for row in grid)) for j, h in enumerate(header)]
    lines = [header, ["-" * w for w in widths], *grid]
    return "\n".join("  ".join(_pad(cell, w) for cell, w in zip(line, widths)).rstrip() for line in lines)


def render_candidates(game: Game, candidates: dict) -> str:
    """A partial grid as a table: per thing of the first kind and other kind, its one thing, or
    its remaining candidates joined by `/` (a step's `grid`, see `explain(..., grids=True)`)."""
    rows = tuple(
        (t, *("/".join(candidates[t, k.name]) for k in game.kinds[1:])) for t in game.kinds[0].things
    )
    return "\n".join("     " + line for line in render_grid(game, rows).splitlines())


def _width(text: str) -> int:
    """Columns a terminal gives `text`: wide (CJK, fullwidth) characters take two, combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


#: Solution tables `render_text` prints before it summarises the rest.
SHOW = 10


def render_text(result: Result, show: int = SHOW) -> str:
    """The verdict line, the first `show` solutions as tables, and for several, the cells that differ."""
    parts = [result.verdict]
    if result.count > show:
        parts[0] += f"; first {show} shown"
    total = f"{result.count:,}" + ("" if result.complete else "+")
    for i, grid in enumerate(result.solutions[:show], 1):
        title = "" if result.count == 1 else f"solution {i} of {total}\n"
        parts.append(title + render_grid(result.game, grid))
    if result.differing_cells:
        cells = ", ".join(f"{row}'s {kind}" for row, kind in result.differing_cells)
        parts.append(f"cells that differ between {'the' if result.complete else 'these'} solutions: {cells}")
    return "\n\n".join(parts)


def result_to_data(result: Result) -> dict[str, Any]:
    """The JSON data of a result (read back by `result_from_data`); `engine` (and `note`)
    when it says which engine found the solutions."""
    data: dict[str, Any] = {
        "game": result.game.name,
        "kinds": list(result.game.kind_names),
        "status": result.status,
        "count": result.count,
        "complete": result.complete,
        "solutions": [[list(row) for row in grid] for grid in result.solutions],
        "differing_cells": [{"row": row, "kind": kind} for row, kind in result.differing_cells],
    }
    if result.engine:
        data["engine"] = result.engine
    if result.note:
        data["note"] = result.note
    return data


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
    return Result(game, grids, bool(data.get("complete", True)), str(data.get("engine", "")), str(data.get("note", "")))


def render_explanation(explanation: Explanation, grids: bool = False) -> str:
    """The trace as numbered lines, ending with how it finished; with `grids`, each step is
    followed by the candidate grid it leaves (see `render_candidates`)."""
    lines = []
    for i, step in enumerate(explanation.steps, 1):
        lines.append(f"{i:>3}. {step.text}")
        if grids and step.grid is not None:
            assert explanation.game is not None, "an explanation with grids knows its game"
            lines.append(render_candidates(explanation.game, step.grid))
    if explanation.solved and not explanation.guesses:
        lines.append("solved by propagation alone, no guesses")
    elif explanation.solved:
        lines.append(f"solved with {explanation.guesses} guess{'es' if explanation.guesses > 1 else ''}")
    return "\n".join(lines)


# -- HTML, for notebooks (the `_repr_html_` of Game, Result and Explanation) ------------------


def html_grid(game: Game, rows) -> str:
    """A grid as an HTML table: kinds as columns, one row per thing of the first kind; a cell
    is a thing, candidates joined by `/`, or empty."""
    head = "".join(f"<th>{escape(k)}</th>" for k in game.kind_names)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_game(game: Game) -> str:
    """An unsolved game: the empty grid (first kind filled in) and its numbered clues."""
    empty = [(t, *[""] * (len(game.kinds) - 1)) for t in game.kinds[0].things]
    from .notation import rule_text

    clues = "".join(
        f"<li>{escape(c.text or '; '.join(rule_text(r) for r in c.rules))}</li>" for c in game.clues
    )
    return html_grid(game, empty) + f"<ol>{clues}</ol>"


def html_explanation(explanation: Explanation) -> str:
    """The trace as a numbered list, each step followed by its candidate grid when it has one."""
    game = explanation.game
    items = []
    for step in explanation.steps:
        grid = ""
        if step.grid is not None and game is not None:
            rows = [(t, *("/".join(step.grid[t, k.name]) for k in game.kinds[1:])) for t in game.kinds[0].things]
            grid = html_grid(game, rows)
        guess = "<em>guess:</em> " if step.kind == "guess" else ""
        items.append(f"<li>{guess}{escape(step.text)}{grid}</li>")
    return f"<ol>{''.join(items)}</ol>"
