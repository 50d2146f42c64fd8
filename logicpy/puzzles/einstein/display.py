"""Notebook displays of Einstein results: a one-line repr, and each solution grid as an HTML table."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .explain import Explanation
    from .solve import Result

__all__ = ["result_repr", "result_html", "explanation_repr", "explanation_html"]


def result_repr(result: "Result") -> str:
    """`<einstein result: unique solution; 5 kinds × 5>`."""
    game = result.game
    return f"<einstein result: {result.verdict}; {len(game.kinds)} kinds × {game.size}>"


def result_html(result: "Result") -> str:
    """The verdict, then every solution as a table (kinds as columns); cells that differ
    between solutions are marked."""
    differ = set(result.differing_cells)
    parts = [f"<p><strong>{escape(result.verdict)}</strong></p>"]
    head = "".join(f"<th>{escape(k)}</th>" for k in result.game.kind_names)
    for n, grid in enumerate(result.solutions, 1):
        if result.count > 1:
            parts.append(f"<p>solution {n} of {result.count}</p>")
        rows = []
        for row in grid:
            cells = []
            for kind, cell in zip(result.game.kind_names, row):
                mark = ' style="background:#fff3cd"' if (row[0], kind) in differ else ""
                cells.append(f"<td{mark}>{escape(cell)}</td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return "\n".join(parts)


def explanation_repr(explanation: "Explanation") -> str:
    """`<einstein explanation: 24 steps, 0 guesses, solved>`."""
    state = "solved" if explanation.solved else "not solved"
    return f"<einstein explanation: {len(explanation.steps)} steps, {explanation.guesses} guesses, {state}>"


def explanation_html(explanation: "Explanation") -> str:
    """The trace as a numbered list (guesses marked), each step with its candidate grid when kept."""
    from .render import html_explanation

    return f"<p>{escape(explanation_repr(explanation))}</p>" + html_explanation(explanation)
