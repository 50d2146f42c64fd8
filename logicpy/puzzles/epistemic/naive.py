"""The independent verifier: a story re-told by a naive evaluator that shares no code with the engine.

Worlds are Python sets of indices; an agent's cell is found by grouping the worlds still
possible by what the agent sees (a dict), and every formula is evaluated world by world
by direct recursion on its definition. No numpy, no class ids, no batching: slow and
plain on purpose. Only the story's data (`formulas.py`) is shared with the engine.
"""

from __future__ import annotations

from typing import Any, Callable

from .formulas import And, At, Fact, Knows, KnowsWhether, KnowsWhich, Not, Or, Seeing, Story

__all__ = ["replay", "verify", "NAIVE_LIMIT"]

#: The largest story (in worlds) the naive evaluator is asked to re-tell in full.
NAIVE_LIMIT = 60_000


def _plain(value: Any) -> Any:
    """A hashable plain value (numpy scalars and small arrays from vectorised projections)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return tuple(value) if isinstance(value, list) else value


class _Telling:
    """One telling of the story with the given views; sets of world indices after each statement."""

    def __init__(self, story: Story, views: dict[str, Callable[[Any], Any]]):
        self.story = story
        self.views = views
        self.moments: list[set[int]] = [set(range(len(story.worlds)))]
        self.memo: dict[tuple[int, int, int], bool] = {}
        self.cells: dict[tuple[str, int], dict[Any, set[int]]] = {}
        self.others: dict[tuple[str, int], _Telling] = {}
        self.keep: list[Any] = []

    def worlds_at(self, k: int) -> set[int]:
        while len(self.moments) <= k:
            j = len(self.moments) - 1
            formula = self.story.statements[j].formula
            self.moments.append({w for w in self.moments[j] if self.holds(formula, w, j)})
        return self.moments[k]

    def sees(self, agent: str, w: int) -> Any:
        return _plain(self.views[agent](self.story.worlds[w]))

    def cell(self, agent: str, w: int, k: int) -> set[int]:
        """The worlds possible at moment k that `agent` cannot tell from w."""
        groups = self.cells.get((agent, k))
        if groups is None:
            groups = {}
            for v in self.worlds_at(k):
                groups.setdefault(self.sees(agent, v), set()).add(v)
            self.cells[(agent, k)] = groups
        return groups[self.sees(agent, w)]

    def holds(self, f: Any, w: int, k: int) -> bool:
        key = (id(f), w, k)
        if key not in self.memo:
            self.keep.append(f)
            self.memo[key] = self._holds(f, w, k)
        return self.memo[key]

    def _holds(self, f: Any, w: int, k: int) -> bool:
        secret = self.story.worlds[w]
        if isinstance(f, Fact):
            return bool(f.test(secret))
        if isinstance(f, Not):
            return not self.holds(f.formula, w, k)
        if isinstance(f, And):
            return all(self.holds(p, w, k) for p in f.parts)
        if isinstance(f, Or):
            return any(self.holds(p, w, k) for p in f.parts)
        if isinstance(f, At):
            return self.holds(f.formula, w, f.moment)
        if isinstance(f, Seeing):
            key = (f.agent, id(f.view))
            if key not in self.others:
                self.others[key] = _Telling(self.story, {**self.views, f.agent: f.view.fn})
            return self.others[key].holds(f.formula, w, k)
        cell = self.cell(f.agent, w, k)
        if isinstance(f, Knows):
            return all(self.holds(f.formula, v, k) for v in cell)
        if isinstance(f, KnowsWhether):
            truths = {self.holds(f.formula, v, k) for v in cell}
            return len(truths) == 1
        if isinstance(f, KnowsWhich):
            if f.question is None:
                return len(cell) == 1
            return len({_plain(f.question.fn(self.story.worlds[v])) for v in cell}) == 1
        raise TypeError(f"not a formula: {f!r}")


def replay(story: Story) -> list[set[int]]:
    """Indices of the worlds possible before the story and after each statement."""
    telling = _Telling(story, {name: p.fn for name, p in story.agents.items()})
    return [set(telling.worlds_at(k)) for k in range(len(story.statements) + 1)]


def verify(story: Story, survivors_after_each: list[set[int]]) -> bool:
    """True iff the naive re-telling leaves exactly these world indices after each statement."""
    return replay(story)[1:] == [set(s) for s in survivors_after_each]
