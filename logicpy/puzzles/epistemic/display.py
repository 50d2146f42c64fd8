"""Notebook displays of epistemic results: one-line reprs, and the story step by step with its chart."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .solve import Result, Step

__all__ = ["result_repr", "result_html", "step_repr"]


def result_repr(result: "Result") -> str:
    """`<cheryl result: unique solution: July 16; 10 candidates, 3 statements>`."""
    from .render import verdict
    first = verdict(result).splitlines()[0]
    return (f"<cheryl result: {first}; {len(result.story.worlds):,} candidates, "
            f"{len(result.steps)} statements>")


def step_repr(step: "Step") -> str:
    """`<step: Albert: "I don't know …": 5 left>`."""
    sentence = step.statement.sentence
    short = sentence if len(sentence) <= 50 else sentence[:49] + "…"
    return f"<step: {step.statement.speaker}: {short!r}: {step.count:,} left>"


def result_html(result: "Result") -> str:
    """The verdict, each statement with the candidates it leaves, and the survival chart (SVG)."""
    from .render import _listing, verdict
    from .svg import render_svg
    rows = "".join(
        f"<tr><td>{k}</td><td>{escape(step.statement.speaker)}</td><td>{escape(step.statement.sentence)}</td>"
        f"<td>{step.count:,}</td><td>{escape(_listing(result, step.kept))}</td></tr>"
        for k, step in enumerate(result.steps, 1))
    table = ("<table><thead><tr><th>#</th><th>who</th><th>says</th><th>left</th><th>candidates left</th></tr>"
             f"</thead><tbody>{rows}</tbody></table>")
    title = f"<p>{escape(result.story.name)}: {len(result.story.worlds):,} candidates</p>"
    return "\n".join([title, table, f"<p><strong>{escape(verdict(result))}</strong></p>", render_svg(result)])
