"""Notebook displays of puzzle results: one-line reprs and rich HTML/SVG, checked against the results."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from itertools import permutations

from logicpy.puzzles import einstein, epistemic, gods
from logicpy.puzzles.gods.model import type_letters
from logicpy.puzzles.gods.tree import Leaf, Node

SVG = "{http://www.w3.org/2000/svg}"


class _Cells(HTMLParser):
    """The text of each <tr>'s <td> cells (or <th>), table by table."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def cells(page: str) -> list[list[str]]:
    parser = _Cells()
    parser.feed(page)
    return parser.rows


def _leaves(tree):
    if isinstance(tree, Leaf):
        return [tree]
    return [leaf for _, sub in tree.branches for leaf in _leaves(sub)]


def _nodes(tree):
    if isinstance(tree, Leaf):
        return []
    return [tree] + [n for _, sub in tree.branches for n in _nodes(sub)]


def test_gods_result_one_line_repr_and_tree_picture():
    result = gods.solve(gods.CLASSIC, questions=3, complexity=1)
    assert "\n" not in repr(result) and repr(result).startswith("<gods result: solution found")
    page = result._repr_html_()
    svg = ET.fromstring(page[page.index("<svg"):])
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    leaves = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "leaf"]
    assert leaves == [type_letters(leaf.answer) for leaf in _leaves(result.tree)]
    # every world's assignment is named by some leaf (Boolos: the tree tells all six apart)
    assert {"".join(p) for p in permutations("TFR")} <= set(leaves)
    questions = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "question"]
    assert len(questions) == len(_nodes(result.tree)) and all(q.startswith(f"Q{i}: ask god") for i, q in
                                                                enumerate(questions, 1))
    assert texts.count("ja") == texts.count("da") == len(_nodes(result.tree))


def test_gods_none_and_report_show_their_sentence():
    result = gods.solve(gods.CLASSIC, questions=2, complexity=1)
    assert result.status == "none" and "<svg" not in result._repr_html_()
    assert "no solution" in repr(result)
    rep = gods.report(gods.KNIGHT_OR_KNAVE, max_complexity=1, max_questions=2)
    assert repr(rep) == f"<gods report: {rep}>" and html.escape(str(rep)) in rep._repr_html_()


def test_einstein_grid_as_a_table():
    game = einstein.parse_text("kind Person: Ann, Ben, Cat\nkind Pet: dog, eel, fox\nkind Floor: 1, 2, 3\n"
                               "1. Ann::Floor < Ben::Floor\n2. dog link 3; Ann !link dog\n"
                               "3. Cat !link fox; Ben !link eel\n4. Ann link fox; Cat::Floor > Ann::Floor\n")
    result = einstein.solve(game)
    assert repr(result) == "<einstein result: unique solution; 3 kinds × 3>"
    assert cells(result._repr_html_()) == [["Person", "Pet", "Floor"], ["Ann", "fox", "1"], ["Ben", "dog", "3"],
                                           ["Cat", "eel", "2"]]
    trace = einstein.explain(game, result.solutions[0])
    assert repr(trace) == f"<einstein explanation: {len(trace.steps)} steps, 0 guesses, solved>"
    assert trace._repr_html_().count("<li>") == len(trace.steps)


def test_einstein_ambiguous_marks_the_differing_cells():
    game = einstein.parse_text("kind Person: Ann, Ben\nkind Pet: dog, eel\n")
    result = einstein.solve(game)
    page = result._repr_html_()
    assert result.count == 2 and page.count("<table>") == 2
    assert page.count("background") == 4  # both Pet cells, in both solutions


def test_epistemic_steps_and_chart():
    result = epistemic.solve(epistemic.CLASSIC)
    assert repr(result) == "<cheryl result: unique solution: July 16; 10 candidates, 3 statements>"
    assert repr(result.steps[1]).startswith("<step: Bernard: ") and repr(result.steps[1]).endswith(": 3 left>")
    page = result._repr_html_()
    rows = cells(page)
    assert [r[3] for r in rows[1:]] == ["5", "3", "1"]  # Norvig's counts after each statement
    assert rows[-1][4] == "July 16" and "<svg" in page
