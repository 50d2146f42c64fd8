"""Notebook displays of gods results: a one-line repr, and the verdict with the tree as SVG."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .grammar import english
from .model import Puzzle, type_letters
from .tree import Leaf, Node, Tree

if TYPE_CHECKING:
    from .solve import Report, Result

__all__ = ["result_repr", "result_html", "report_repr", "report_html", "tree_svg"]

LEAF_W, LEVEL_H, BOX_H, MARGIN = 64, 80, 26, 20


def result_repr(result: "Result") -> str:
    """`<gods result: solution found: a question tree with <= 3 questions …; classic>`."""
    name = result.puzzle.name or "puzzle"
    return f"<gods result: {result.verdict}; {name}>"


def result_html(result: "Result") -> str:
    """The verdict, then the first tree as an SVG picture with its questions listed below."""
    parts = [f"<p><strong>{escape(result.verdict)}</strong></p>"]
    if result.tree is not None:
        parts.append(tree_svg(result.tree, result.puzzle))
    return "\n".join(parts)


def report_repr(report: "Report") -> str:
    """`<gods report: classic: least questions 3 …>`."""
    return f"<gods report: {report}>"


def report_html(report: "Report") -> str:
    """The report's sentence as a paragraph."""
    return f"<p>{escape(str(report))}</p>"


def tree_svg(tree: Tree, puzzle: Puzzle) -> str:
    """The tree drawn top-down: question nodes `Q1 · god 2`, branches labelled by the word
    heard, leaves by the assignment they name (`TFR`; `–` for a branch no world reaches);
    the questions in English under the picture."""
    leaves: list[tuple[float, int, Leaf]] = []
    nodes: list[tuple[float, int, Node, str]] = []
    edges: list[tuple[float, int, float, int, str]] = []

    def place(t: Tree, depth: int) -> float:
        if isinstance(t, Leaf):
            x = MARGIN + LEAF_W * len(leaves) + LEAF_W / 2
            leaves.append((x, depth, t))
            return x
        label = f"Q{len(nodes) + 1}"
        slot = len(nodes)
        nodes.append((0.0, depth, t, label))
        children = [(word, place(sub, depth + 1)) for word, sub in t.branches]
        x = sum(cx for _, cx in children) / len(children)
        nodes[slot] = (x, depth, t, label)
        edges.extend((x, depth, cx, depth + 1, word) for word, cx in children)
        return x

    place(tree, 0)
    depth = max([d for _, d, _ in leaves] + [0])
    width = int(MARGIN * 2 + LEAF_W * max(len(leaves), 1))
    top = LEVEL_H * depth + BOX_H + MARGIN * 2
    height = top + 18 * len(nodes) + MARGIN

    def y(d: int) -> int:
        return MARGIN + LEVEL_H * d

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">']
    for x1, d1, x2, d2, word in edges:
        out.append(f'<line x1="{x1:.0f}" y1="{y(d1) + BOX_H}" x2="{x2:.0f}" y2="{y(d2)}" stroke="#888"/>')
        out.append(f'<text x="{(x1 + x2) / 2:.0f}" y="{(y(d1) + BOX_H + y(d2)) / 2 + 4:.0f}" '
                   f'text-anchor="middle" fill="#555" font-style="italic">{escape(word)}</text>')
    for x, d, node, label in nodes:
        text = f"ask god {node.position}: {english(node.question, puzzle.grammar)}?"
        out.append(f'<g><title>{escape(text)}</title>'
                   f'<rect x="{x - 32:.0f}" y="{y(d)}" width="64" height="{BOX_H}" rx="4" fill="#fff8dc" '
                   f'stroke="#daa520"/><text x="{x:.0f}" y="{y(d) + 17}" text-anchor="middle">'
                   f'{label} · god {node.position}</text></g>')
    for x, d, leaf in leaves:
        name = "–" if leaf.answer is None else type_letters(leaf.answer)
        out.append(f'<rect x="{x - 26:.0f}" y="{y(d)}" width="52" height="{BOX_H}" rx="4" fill="#d4edda" '
                   f'stroke="#2e7d32"/><text x="{x:.0f}" y="{y(d) + 17}" text-anchor="middle" '
                   f'font-weight="bold" class="leaf">{escape(name)}</text>')
    for i, (_, _, node, label) in enumerate(nodes):
        text = f"{label}: ask god {node.position}: {english(node.question, puzzle.grammar)}?"
        out.append(f'<text x="{MARGIN}" y="{top + 18 * i}" class="question">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)
