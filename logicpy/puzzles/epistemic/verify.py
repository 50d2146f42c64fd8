"""The independent verifier: a story re-told by a naive evaluator that shares no code with the engine.

Worlds are indices in Python sets and dicts; an agent's cell is the worlds that look the
same to it (grouped in a dict) and are still possible; every formula is evaluated world by
world, lazily and memoised, by direct recursion on its definition. No class ids, no truth
arrays, no batching: slow and plain on purpose. Only the story's data (`model.py`) is
shared with the engine.

`verify(story, result)` is the check behind every printed answer, by size: up to
`NAIVE_LIMIT` worlds the whole story is re-told and must leave the same worlds after every
statement; above it, a story that knows its counts in closed form (the muddy children) is
checked against them. Any other is re-told lazily, world by world: every final survivor must
survive, then worlds taken in a fixed random order must survive exactly when the answer says
so, until all are done or the CPU time given runs out (in proportion to the solve: re-telling
all 248,502 worlds of Sum and Product up to 1,000 took minutes for a 0.2 s solve).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from ...progress import terminal_progress
from ..verification import Verification
from .actions import expanded
from .model import And, At, Common, Distributed, Fact, Knows, KnowsWhether, KnowsWhich, Not, Or, Seeing, Story

if TYPE_CHECKING:
    from .solve import Result

__all__ = ["replay", "survivors", "verify", "Telling", "NAIVE_LIMIT", "BUDGET"]

#: The largest story (in worlds) the naive evaluator is asked to re-tell in full.
NAIVE_LIMIT = 60_000
#: CPU seconds a lazy re-telling takes at least (`verify`'s default budget): what sum's 958,800
#: worlds are all re-told within it.
BUDGET = 10.0
#: The most worlds a lazy re-telling takes on (its random order is a permutation of them).
LAZY_LIMIT = 2**26


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
        self.events_memo: dict[tuple[int, int], Any] = {}
        self.actions: dict[str, list[int]] = {}
        self.common_memo: dict[tuple[int, tuple[str, ...], int], set[int]] = {}

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
                seen = [_plain(v) for v in view.fn(np.asarray(worlds)).tolist()]
            else:
                seen = [_plain(view.fn(worlds[w])) for w in range(len(worlds))]
            groups: dict[Any, list[int]] = {}
            for w, value in enumerate(seen):
                groups.setdefault(value, []).append(w)
            self.index[agent] = (seen, groups)
        return self.index[agent]

    def cell(self, agent: str, w: int, k: int) -> list[int]:
        """The worlds possible at moment k that `agent` cannot tell from w: same view of the secret,
        and the same event at every earlier action of a group `agent` is in."""
        seen, groups = self._looks(agent)
        actions = [j for j in self._actions_of(agent) if j < k]
        if not actions:
            return [v for v in groups[seen[w]] if self.alive(v, k)]
        return [v for v in groups[seen[w]] if self.alive(v, k)
                and all(self.event(v, j) == self.event(w, j) for j in actions)]

    def _actions_of(self, agent: str) -> list[int]:
        """The statements whose action `agent` takes part in."""
        if agent not in self.actions:
            self.actions[agent] = [j for j, s in enumerate(self.story.statements)
                                   if s.action and agent in s.action.group]
        return self.actions[agent]

    def event(self, w: int, j: int) -> Any:
        """Which event of statement j's action happens in world w: the value observed, or the
        position of the one event whose formula holds there (None if none does)."""
        key = (w, j)
        if key not in self.events_memo:
            action = self.story.statements[j].action
            assert action is not None
            if action.observes is not None:
                self.events_memo[key] = _plain(action.observes.fn(self.story.worlds[w]))
            else:
                happen = [e for e, f in enumerate(action.events) if self.holds(f, w, j)]
                if len(happen) > 1 and self.alive(w, j):
                    raise InputError(f"statement {j + 1}: two of its events can happen in one world")
                self.events_memo[key] = happen[0] if happen else None
        return self.events_memo[key]

    def reachable_all(self, group: tuple[str, ...], formula: Any, k: int) -> set[int]:
        """The worlds where `formula` is common knowledge in `group` at moment k, as the greatest
        fixpoint of "everybody in the group knows φ and that it is so here": start from every
        possible world and drop, round by round, those where some member sees a world that
        fails φ or was dropped."""
        key = (id(formula), tuple(group), k)
        if key not in self.common_memo:
            self.keep.append(formula)
            kept = self.worlds_at(k)
            while True:
                smaller = {w for w in kept if all(v in kept and self.holds(formula, v, k)
                                                 for a in group for v in self.cell(a, w, k))}
                if smaller == kept:
                    break
                kept = smaller
            self.common_memo[key] = kept
        return self.common_memo[key]

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
        if isinstance(f, Common):
            return w in self.reachable_all(f.group, f.formula, k)
        if isinstance(f, Distributed):  # the worlds every member's cell shares
            shared = set(self.cell(f.group[0], w, k)).intersection(*(self.cell(a, w, k) for a in f.group[1:]))
            return all(self.holds(f.formula, v, k) for v in shared)
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


class Telling(_Telling):
    """One lazy telling of a story with its own views: `alive(w, k)` world by world."""

    def __init__(self, story: Story):
        super().__init__(story, dict(story.agents))


def replay(story: Story) -> list[set[int]]:
    """Indices of the worlds possible before the story and after each statement (of the story's
    copied worlds, `actions.expanded`, when a private announcement copies them)."""
    story = expanded(story)
    telling = _Telling(story, dict(story.agents))
    return [telling.worlds_at(k) for k in range(len(story.statements) + 1)]


def survivors(story: Story) -> set[int]:
    """Indices of the worlds possible after the whole story (intermediate moments only where needed)."""
    story = expanded(story)
    return _Telling(story, dict(story.agents)).worlds_at(len(story.statements))


def verify(story: Story, result: "Result", limit: int = NAIVE_LIMIT, budget: float | None = BUDGET) -> Verification:
    """Check `result` (the worlds kept after each statement) against `story`, told by the naive
    evaluator: in full up to `limit` worlds, else by the story's closed form, else lazily within
    `budget` CPU seconds (None: every world).

    >>> from logicpy.puzzles.epistemic import CLASSIC, solve
    >>> verify(CLASSIC, solve(CLASSIC)).ok
    True
    """
    story = expanded(story)  # the worlds the result is about, when a private announcement copies them
    counts = [step.count for step in result.steps]
    if len(counts) != len(story.statements):
        return Verification.of([f"{len(counts)} steps for a story of {len(story.statements)} statements"])
    if len(story.worlds) <= limit:
        kept = [{int(i) for i in step.kept} for step in result.steps]
        problems = [problem for k, (told, given) in enumerate(zip(replay(story)[1:], kept))
                    for problem in _differences(story, k, told, given)]
        return Verification.of(problems, "the naive evaluator re-told the story statement by statement and left "
                                         f"the same candidates after each ({', '.join(map(str, counts))})")
    if story.expected_counts is not None:
        wrong = [] if tuple(counts) == story.expected_counts else [
            f"the counts {counts} break the closed form {list(story.expected_counts)} ({story.expected_because})"]
        return Verification.of(wrong, f"the counts follow the closed form ({story.expected_because}; the naive "
                                      f"evaluator stops at {limit:,} worlds)")
    if len(story.worlds) > LAZY_LIMIT:
        return Verification.of([f"{len(story.worlds):,} worlds are too many for the naive evaluator (at most "
                                f"{LAZY_LIMIT:,}, lazily) and the story has no closed form"])
    return _lazy(story, result, budget)


def _lazy(story: Story, result: "Result", budget: float | None) -> Verification:
    """Every final survivor re-told lazily, then other worlds in a fixed random order within `budget`."""
    n, last = len(story.worlds), len(story.statements)
    final = np.asarray(result.steps[-1].after, dtype=bool) if result.steps else np.ones(n, dtype=bool)
    survivors = np.flatnonzero(final)
    telling = Telling(story)
    deadline = None if budget is None else time.process_time() + budget
    problems, done = [], 0
    with terminal_progress() as bar:
        task = None if bar is None else bar.add_task("checking (naive evaluator)", total=n)
        for w in survivors.tolist():
            if not telling.alive(w, last):
                problems.append(f"the answer keeps {story.show(_plain(story.worlds[w]))}, which the re-telling drops")
        for w in np.random.default_rng(0).permutation(n).tolist():
            if telling.alive(w, last) != bool(final[w]):
                how = "keeps" if final[w] else "drops"
                problems.append(f"the answer {how} {story.show(_plain(story.worlds[w]))}, which the re-telling "
                                f"{'drops' if final[w] else 'keeps'}")
            done += 1
            if task is not None and done % 256 == 0:
                bar.update(task, completed=done)
            if problems or deadline is not None and done % 16 == 0 and time.process_time() > deadline:
                break
    if done == n:
        return Verification.of(problems, f"the naive evaluator, told the story lazily world by world, leaves the same "
                                         f"{len(survivors):,} (intermediate sets not re-checked above "
                                         f"{NAIVE_LIMIT:,} worlds)")
    kept = "the survivor" if len(survivors) == 1 else f"all {len(survivors):,} survivors"
    return Verification.of(problems, f"in part: the naive evaluator, told the story lazily world by world, keeps "
                                     f"{kept} and agrees on {done:,} of the {n:,} worlds taken in random order "
                                     f"(stopped after {budget:.1f} s of CPU, a check in proportion to the solve)")


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
