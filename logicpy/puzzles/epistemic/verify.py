"""The independent verifier: a story re-told by a naive evaluator that shares no code with the engine.

Worlds are indices in Python sets and dicts; an agent's cell is the worlds that look the
same to it (grouped in a dict) and are still possible; every formula is evaluated world by
world, lazily and memoised, by direct recursion on its definition. No class ids, no truth
arrays, no batching: slow and plain on purpose. Only the story's data (`formulas.py`) is
shared with the engine.

`verify(story, result)` is the check behind every printed answer, by size: up to
`NAIVE_LIMIT` worlds the whole story is re-told and must leave the same worlds after every
statement; above it, a story that knows its counts in closed form (the muddy children) is
checked against them, and any other is re-told lazily for its final survivors only.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ..verification import Verification
from .formulas import And, At, Fact, Knows, KnowsWhether, KnowsWhich, Not, Or, Seeing, Story

if TYPE_CHECKING:
    from .solve import Result

__all__ = ["replay", "survivors", "verify", "NAIVE_LIMIT"]

#: The largest story (in worlds) the naive evaluator is asked to re-tell in full.
NAIVE_LIMIT = 60_000


def _plain(value: Any) -> Any:
    """A hashable plain value (numpy scalars and small arrays from vectorised projections)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return tuple(value) if isinstance(value, list) else value


class _Telling:
    """One telling of the story with the given views, evaluated lazily world by world.

    `alive(w, k)`: world w is still possible after k statements (statement k-1 is checked
    before the earlier ones, so a world failing a plain fact costs one call). An agent's cell
    at moment k is the alive part of the worlds that look the same to it (a dict built once).
    """

    def __init__(self, story: Story, views: dict[str, Any]):
        self.story = story
        self.views = views
        self.alive_memo: dict[tuple[int, int], bool] = {}
        self.memo: dict[tuple[int, int, int], bool] = {}
        self.index: dict[str, tuple[list[Any], dict[Any, list[int]]]] = {}
        self.others: dict[tuple[str, int], _Telling] = {}
        self.keep: list[Any] = []

    def alive(self, w: int, k: int) -> bool:
        key = (w, k)
        if key not in self.alive_memo:
            self.alive_memo[key] = k == 0 or (
                self.holds(self.story.statements[k - 1].formula, w, k - 1) and self.alive(w, k - 1))
        return self.alive_memo[key]

    def worlds_at(self, k: int) -> set[int]:
        return {w for w in range(len(self.story.worlds)) if self.alive(w, k)}

    def _looks(self, agent: str) -> tuple[list[Any], dict[Any, list[int]]]:
        """What `agent` sees in each world, and the worlds grouped by it."""
        if agent not in self.index:
            view = self.views[agent]
            worlds = self.story.worlds
            if getattr(view, "vectorized", False):  # one call over all worlds, then plain lists
                seen = [_plain(v) for v in view.fn(worlds).tolist()]
            else:
                seen = [_plain(view.fn(worlds[w])) for w in range(len(worlds))]
            groups: dict[Any, list[int]] = {}
            for w, value in enumerate(seen):
                groups.setdefault(value, []).append(w)
            self.index[agent] = (seen, groups)
        return self.index[agent]

    def cell(self, agent: str, w: int, k: int) -> list[int]:
        """The worlds possible at moment k that `agent` cannot tell from w."""
        seen, groups = self._looks(agent)
        return [v for v in groups[seen[w]] if self.alive(v, k)]

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
                self.others[key] = _Telling(self.story, {**self.views, f.agent: f.view})
            return self.others[key].holds(f.formula, w, k)
        cell = self.cell(f.agent, w, k)
        if isinstance(f, Knows):
            return all(self.holds(f.formula, v, k) for v in cell)
        if isinstance(f, KnowsWhether):  # knows that φ, or knows that not φ
            truths = [self.holds(f.formula, v, k) for v in cell]
            return all(truths) or not any(truths)
        if isinstance(f, KnowsWhich):
            if f.question is None:
                return len(cell) == 1
            return len({_plain(f.question.fn(self.story.worlds[v])) for v in cell}) == 1
        raise TypeError(f"not a formula: {f!r}")


def replay(story: Story) -> list[set[int]]:
    """Indices of the worlds possible before the story and after each statement."""
    telling = _Telling(story, dict(story.agents))
    return [telling.worlds_at(k) for k in range(len(story.statements) + 1)]


def survivors(story: Story) -> set[int]:
    """Indices of the worlds possible after the whole story (intermediate moments only where needed)."""
    return _Telling(story, dict(story.agents)).worlds_at(len(story.statements))


def verify(story: Story, result: "Result", limit: int = NAIVE_LIMIT) -> Verification:
    """Check `result` (the worlds kept after each statement) against `story`, told by the naive
    evaluator: in full up to `limit` worlds, else by the story's closed form or its final survivors.

    >>> from logicpy.puzzles.epistemic import CLASSIC, solve
    >>> verify(CLASSIC, solve(CLASSIC)).ok
    True
    """
    kept = [{int(i) for i in step.kept} for step in result.steps]
    counts = [len(k) for k in kept]
    if len(kept) != len(story.statements):
        return Verification.of([f"{len(kept)} steps for a story of {len(story.statements)} statements"])
    if len(story.worlds) <= limit:
        problems = [problem for k, (told, given) in enumerate(zip(replay(story)[1:], kept))
                    for problem in _differences(story, k, told, given)]
        return Verification.of(problems, "the naive evaluator re-told the story statement by statement and left "
                                         f"the same candidates after each ({', '.join(map(str, counts))})")
    if story.expected_counts is not None:
        wrong = [] if tuple(counts) == story.expected_counts else [
            f"the counts {counts} break the closed form {list(story.expected_counts)} ({story.expected_because})"]
        return Verification.of(wrong, f"the counts follow the closed form ({story.expected_because}; the naive "
                                      f"evaluator stops at {limit:,} worlds)")
    print(f"re-telling {len(story.worlds):,} worlds with the naive evaluator (final survivors only)…", file=sys.stderr)
    final = kept[-1] if kept else set(range(len(story.worlds)))
    found = survivors(story)
    return Verification.of(_differences(story, len(kept) - 1, found, final),
                           f"the naive evaluator, told the story lazily world by world, leaves the same "
                           f"{len(found):,} (intermediate sets not re-checked above {limit:,} worlds)")


def _differences(story: Story, k: int, told: set[int], given: set[int]) -> list[str]:
    """The worlds after statement k+1 on which the answer checked and the re-telling disagree."""
    where = f"after statement {k + 1} ({story.statements[k].speaker})" if k >= 0 else "before the story"
    problems = []
    for worlds, how in ((given - told, "keeps"), (told - given, "drops")):
        if worlds:
            shown = ", ".join(story.show(_plain(story.worlds[w])) for w in sorted(worlds)[:5])
            more = f" and {len(worlds) - 5:,} more" if len(worlds) > 5 else ""
            problems.append(f"{where}: the answer {how} {shown}{more}, which the re-telling "
                            f"{'drops' if how == 'keeps' else 'keeps'}")
    return problems
