"""Question trees: the data, and their renderings as text, JSON and Mermaid.

JSON (one schema, read back by `tree_from_json`):
    node: {"ask": p, "question": Q, "ja": TREE, "da": TREE}   (+ "silent": TREE under the
          silent semantics); Q is the question term as a list, e.g. ["is", 2, "random"]
    leaf: {"answer": ["truly", "random", "falsely"]}  (type at position 1, 2, ...), or
          {"answer": null} for a branch no world can reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ...errors import InputError
from .grammar import Question, english, question_from_json, question_to_json
from .model import Puzzle, type_letters, type_title

__all__ = [
    "Leaf",
    "Node",
    "Tree",
    "tree_depth",
    "tree_to_json",
    "tree_from_json",
    "render_text",
    "render_mermaid",
]


@dataclass(frozen=True)
class Leaf:
    """The end of a branch: the type assignment it names, or None if no world gets here."""

    answer: tuple[str, ...] | None


@dataclass(frozen=True)
class Node:
    """Ask the god at `position` the question `question`; follow the branch of the utterance."""

    position: int
    question: Question
    branches: tuple[tuple[str, "Tree"], ...]

    def branch(self, word: str) -> "Tree":
        """The subtree followed after hearing `word`."""
        for w, t in self.branches:
            if w == word:
                return t
        raise KeyError(word)


Tree = Union[Node, Leaf]


def tree_depth(tree: Tree) -> int:
    """The largest number of questions asked along any branch."""
    if isinstance(tree, Leaf):
        return 0
    return 1 + max(tree_depth(t) for _, t in tree.branches)


# -- JSON --------------------------------------------------------------------------------
def tree_to_json(tree: Tree) -> dict:
    """The tree in the documented JSON form (plain dicts and lists)."""
    if isinstance(tree, Leaf):
        return {"answer": None if tree.answer is None else list(tree.answer)}
    out: dict[str, Any] = {"ask": tree.position, "question": question_to_json(tree.question)}
    for word, sub in tree.branches:
        out[word] = tree_to_json(sub)
    return out


def tree_from_json(data: Any, puzzle: Puzzle, where: str = "$") -> Tree:
    """Read a tree back from its JSON form, validated; errors name the path of the bad field."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a node or leaf object, got {data!r}")
    if "answer" in data:
        if set(data) != {"answer"}:
            raise InputError(f"{where}: a leaf has only the field 'answer', got {sorted(data)}")
        answer = data["answer"]
        if answer is None:
            return Leaf(None)
        if not isinstance(answer, list) or len(answer) != puzzle.n_positions:
            raise InputError(f"{where}.answer: expected a list of {puzzle.n_positions} types, got {answer!r}")
        for i, t in enumerate(answer):
            if t not in puzzle.types:
                raise InputError(f"{where}.answer[{i}]: type must be one of {', '.join(puzzle.types)}, got {t!r}")
        return Leaf(tuple(answer))
    words = puzzle.utterances
    expected = {"ask", "question", *words}
    if set(data) != expected:
        missing = sorted(expected - set(data))
        extra = sorted(set(data) - expected)
        raise InputError(f"{where}: a node needs fields {sorted(expected)}; missing {missing}, unexpected {extra}")
    position = data["ask"]
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= puzzle.n_positions:
        raise InputError(f"{where}.ask: position must be an integer from 1 to {puzzle.n_positions}, got {position!r}")
    question = question_from_json(data["question"], puzzle.grammar, puzzle.n_positions, puzzle.types, f"{where}.question")
    branches = tuple((w, tree_from_json(data[w], puzzle, f"{where}.{w}")) for w in words)
    return Node(position, question, branches)


# -- text --------------------------------------------------------------------------------
def render_text(tree: Tree, puzzle: Puzzle) -> str:
    """The tree as indented text: each question in English and as a term."""
    lines: list[str] = []
    _text(tree, puzzle, "", "", lines)
    return "\n".join(lines)


def _answer_text(leaf: Leaf) -> str:
    if leaf.answer is None:
        return "no world reaches this branch"
    gods = ", ".join(f"god {i} is {type_title(t)}" for i, t in enumerate(leaf.answer, 1))
    return f"answer {type_letters(leaf.answer)} ({gods})"


def _text(tree: Tree, puzzle: Puzzle, first: str, rest: str, lines: list[str]) -> None:
    if isinstance(tree, Leaf):
        lines.append(f"{first}{_answer_text(tree)}")
        return
    lines.append(f"{first}ask god {tree.position}: {english(tree.question, puzzle.grammar)}?")
    lines.append(f"{rest}    term: {question_to_json(tree.question)}")
    for i, (word, sub) in enumerate(tree.branches):
        last = i == len(tree.branches) - 1
        _text(sub, puzzle, f"{rest}{'└─' if last else '├─'} {word}: ", f"{rest}{'   ' if last else '│  '}", lines)


# -- Mermaid -----------------------------------------------------------------------------
def render_mermaid(tree: Tree, puzzle: Puzzle) -> str:
    """A Mermaid flowchart: questions as parallelograms, answers as leaves."""
    lines = ["flowchart TD"]
    questions: list[str] = []
    leaves: list[str] = []

    def walk(t: Tree) -> str:
        if isinstance(t, Leaf):
            name = f"L{len(leaves) + 1}"
            leaves.append(name)
            label = "unreachable" if t.answer is None else f"Solved: {type_letters(t.answer)}"
            lines.append(f'    {name}("{label}")')
            return name
        name = f"Q{len(questions) + 1}"
        questions.append(name)
        text = english(t.question, puzzle.grammar).replace('"', "'")
        lines.append(f'    {name}[/"Ask god {t.position}: {text}?"/]')
        for word, sub in t.branches:
            child = walk(sub)
            lines.append(f"    {name} -->|{word}| {child}")
        return name

    walk(tree)
    lines.append("    classDef question fill:#fffacd,stroke:#daa520,stroke-width:1px,stroke-dasharray: 5 5;")
    lines.append("    classDef leaf fill:#d4edda,stroke:#333,stroke-width:2px;")
    if questions:
        lines.append(f"    class {','.join(questions)} question;")
    lines.append(f"    class {','.join(leaves)} leaf;")
    return "\n".join(lines)
