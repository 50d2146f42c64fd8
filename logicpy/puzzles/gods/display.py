"""Notebook displays of gods results: a one-line repr, and the verdict with the tree as SVG."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ...svgtext import ASCENT, Picture, text_width, wrap
from .grammar import english
from .model import Puzzle, type_letters
from .tree import Leaf, Tree

if TYPE_CHECKING:
    from .solve import Report, Result

__all__ = ["result_repr", "result_html", "report_repr", "report_html", "tree_svg"]

#: Levels apart, box height, padding round a box's label, least gap between neighbours, legend width (px).
LEVEL_H, BOX_H, PAD, GAP, LEGEND_W = 80, 26, 8, 10, 560


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
    the questions in English under the picture. Boxes are as wide as their labels and
    neighbours never touch (the leaves' spacing is the least that keeps every level apart)."""
    size = 12
    leaves: list[tuple[float, int, str]] = []          # (position in leaf units, depth, label)
    nodes: list[tuple[float, int, str, str]] = []      # (position, depth, box label, question)
    edges: list[tuple[float, int, float, str]] = []    # (parent position, parent depth, child position, word)

    def place(t: Tree, depth: int) -> float:
        if isinstance(t, Leaf):
            u = len(leaves) + 0.5
            leaves.append((u, depth, "–" if t.answer is None else type_letters(t.answer)))
            return u
        slot = len(nodes)
        question = f"ask god {t.position}: {english(t.question, puzzle.grammar)}?"
        nodes.append((0.0, depth, f"Q{slot + 1} · god {t.position}", question))
        children = [(word, place(sub, depth + 1)) for word, sub in t.branches]
        u = sum(cu for _, cu in children) / len(children)
        nodes[slot] = (u, depth, nodes[slot][2], question)
        edges.extend((u, depth, cu, word) for word, cu in children)
        return u

    place(tree, 0)
    node_w = {label: text_width(label, size) + 2 * PAD for _, _, label, _ in nodes}
    leaf_w = {label: max(text_width(label, size, bold=True) + 2 * PAD, 40) for _, _, label in leaves}
    # the rows of things side by side: boxes at each depth, branch words between depths
    rows: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for u, d, label, _ in nodes:
        rows.setdefault(("box", d), []).append((u, node_w[label]))
    for u, d, label in leaves:
        rows.setdefault(("box", d), []).append((u, leaf_w[label]))
    for u, d, cu, word in edges:
        rows.setdefault(("word", d), []).append(((u + cu) / 2, text_width(word, size) + 4))
    unit = 40.0
    for row in rows.values():
        row.sort()
        for (ua, wa), (ub, wb) in zip(row, row[1:]):
            unit = max(unit, (wa / 2 + wb / 2 + GAP) / (ub - ua))

    def y(d: int) -> float:
        return LEVEL_H * d

    pic = Picture(size=size, margin=12)
    for u, d, cu, word in edges:
        x1, x2 = u * unit, cu * unit
        pic.line(x1, y(d) + BOX_H, x2, y(d + 1), stroke="#888")
        pic.text((x1 + x2) / 2, (y(d) + BOX_H + y(d + 1)) / 2 + 4, word, anchor="middle", fill="#555",
                 font_style="italic", stroke="#fff", stroke_width=3, paint_order="stroke")
    for u, d, label, question in nodes:
        x, w = u * unit, node_w[label]
        pic.open(title=question)
        pic.rect(x - w / 2, y(d), w, BOX_H, rx=4, fill="#fff8dc", stroke="#daa520")
        pic.text(x, y(d) + 17, label, anchor="middle")
        pic.close()
    for u, d, label in leaves:
        x, w = u * unit, leaf_w[label]
        pic.open()
        pic.rect(x - w / 2, y(d), w, BOX_H, rx=4, fill="#d4edda", stroke="#2e7d32")
        pic.text(x, y(d) + 17, label, anchor="middle", bold=True, cls="leaf")
        pic.close()
    depth = max(d for _, d, _ in leaves)
    width = max(len(leaves) * unit, LEGEND_W)
    top = y(depth) + BOX_H + 30
    for u, d, label, question in nodes:
        head = f"{label.split(' ')[0]}: "
        indent = text_width(head, size)
        lines = wrap(head + question, size, width)
        if len(lines) > 1:  # the lines after the first hang under the question, past its `Q1: `
            lines = lines[:1] + wrap(" ".join(lines[1:]), size, width - indent)
        box = pic.text(0, top, lines, indent=indent, cls="question")
        top = box.bottom + size * 0.9 + ASCENT * size
    return pic.svg().rstrip("\n")
