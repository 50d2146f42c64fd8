"""Why each statement removes what it removes, in words, read off the engine's truth arrays.

A removed world fails the statement's formula; `why_not` walks the formula to the part
that fails there and says it from the agent's side: "Bernard, told 19, would have known
it was May 19", "Albert, told May, could not rule out May 19, where …".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import InputError
from .solve import Result, Run, secret_at
from .model import (
    NOTHING, And, At, Common, Distributed, Fact, Formula, Knows, KnowsWhether, KnowsWhich, Not, Or, Seeing,
)

__all__ = ["Removal", "explain", "why_not"]


@dataclass(frozen=True)
class Removal:
    """One world a statement removes, and why, in words."""

    secret: Any
    text: str
    reason: str


class _Explainer:
    def __init__(self, result: Result):
        self.story = result.story
        self.run = result.run

    def show(self, i: int) -> str:
        return self.story.show(secret_at(self.story.worlds, i))

    def told(self, run: Run, agent: str, i: int, k: int) -> str:
        """What `agent` was told in world i ("told May"), and what it saw or learned in private before
        moment k ("told 3, saw Cath's hat (red)")."""
        view = run.model.projections[agent]
        parts = [] if view is NOTHING else [f"told {view.show(_plain(view.fn(self.story.worlds[int(i)])))}"]
        for j, statement in enumerate(run.statements[:k]):
            action = statement.action
            if action is None or agent not in action.group:
                continue
            if action.observes is not None:
                seen = action.observes.show(_plain(action.observes.fn(self.story.worlds[int(i)])))
                parts.append(f"{'who ' if not parts else ''}saw {action.observes.name} ({seen})")
            else:
                event = int(run.events(j)[0][i])
                if event >= 0:
                    parts.append(f"{'who ' if not parts else ''}learned that {_text(action.events[event])}")
        return ", ".join(parts) or "told nothing"

    def cell(self, run: Run, agent: str, i: int, k: int) -> np.ndarray:
        ids, _ = run.view(agent, k)
        return np.flatnonzero(run.mask(k) & (ids == ids[i]))

    def chain(self, run: Run, f: Common, i: int, k: int) -> tuple[list[tuple[str, int]], int]:
        """A shortest chain of worlds the group cannot tell apart, from world i to one where
        `f.formula` fails: [(agent, world), …] and that world."""
        truth = run.truth(f.formula, k)
        came: dict[int, tuple[str, int] | None] = {i: None}
        frontier = [i]
        while frontier:
            nxt = []
            for w in frontier:
                if not truth[w]:
                    found, path = w, []
                    while came[w] is not None:
                        agent, before = came[w]  # type: ignore[misc]
                        path.append((agent, w))
                        w = before
                    return path[::-1], found
                for agent in f.group:
                    for v in self.cell(run, agent, w, k):
                        if int(v) not in came:
                            came[int(v)] = (agent, w)
                            nxt.append(int(v))
            frontier = nxt
        raise AssertionError("common knowledge fails with no failing world in reach")

    def why_not(self, run: Run, f: Formula, i: int, k: int, depth: int = 0) -> str:
        """Why f is false at world i in the model after k statements."""
        if isinstance(f, And):
            part = next(p for p in f.parts if not run.truth(p, k)[i])
            return self.why_not(run, part, i, k, depth)
        if isinstance(f, Not):
            return self.why(run, f.formula, i, k, depth)
        if isinstance(f, Or):
            return "none of the cases holds: " + "; ".join(self.why_not(run, p, i, k, depth + 1) for p in f.parts)
        if isinstance(f, At):
            return ("at first, " if f.moment == 0 else f"after statement {f.moment}, ") + self.why_not(run, f.formula, i, f.moment, depth)
        if isinstance(f, Seeing):
            other = self._seeing(run, f)
            return f"had {f.agent} seen {f.view.name}, " + self.why_not(other, f.formula, i, k, depth)
        if isinstance(f, Fact):
            return f"it is not so that {f.text}"
        if isinstance(f, Common):
            path, j = self.chain(run, f, i, k)
            hops = [f"{agent} cannot tell it from {self.show(w)}" for agent, w in path[:4]]
            more = f", … ({len(path) - 4} more)" if len(path) > 4 else ""
            head = f"not common knowledge among {', '.join(f.group)}: " + ("; ".join(hops) + more + ", where "
                                                                           if hops else "")
            return head + (self.why_not(run, f.formula, j, k, depth + 1) if depth < 2 else f"not {_text(f.formula)}")
        if isinstance(f, Distributed):
            pooled = set(self.cell(run, f.group[0], i, k).tolist()).intersection(
                *(self.cell(run, a, i, k).tolist() for a in f.group[1:]))
            j = next(j for j in sorted(pooled) if not run.truth(f.formula, k)[j])
            return (f"{', '.join(f.group)}, pooling what they see, could not rule out {self.show(j)}, where "
                    + self.why_not(run, f.formula, j, k, depth + 1))
        assert isinstance(f, (Knows, KnowsWhich, KnowsWhether)), f"unknown formula {f!r}"
        told = f"{f.agent}, {self.told(run, f.agent, i, k)},"
        cell = self.cell(run, f.agent, i, k)
        if isinstance(f, KnowsWhich):
            what = "" if f.question is None else f" {f.question.name}"
            names = [self.show(j) for j in cell[:4]]
            shown = ("; " if any("," in n for n in names) else ", ").join(names) + (" …" if len(cell) > 4 else "")
            return f"{told} would not know{what}: {len(cell)} candidates ({shown}) are left"
        if isinstance(f, Knows):
            j = next(j for j in cell if not run.truth(f.formula, k)[j])
            tail = "" if depth >= 2 else ", where " + self.why_not(run, f.formula, j, k, depth + 1)
            return f"{told} could not rule out {self.show(j)}{tail}"
        if isinstance(f, KnowsWhether):
            return f"{told} could not tell whether {_text(f.formula)}"
        raise TypeError(f"not a formula: {f!r}")

    def why(self, run: Run, f: Formula, i: int, k: int, depth: int = 0) -> str:
        """Why f is true at world i in the model after k statements."""
        if isinstance(f, Not):
            return self.why_not(run, f.formula, i, k, depth)
        if isinstance(f, And):
            return " and ".join(self.why(run, p, i, k, depth + 1) for p in f.parts)
        if isinstance(f, Or):
            part = next(p for p in f.parts if run.truth(p, k)[i])
            return self.why(run, part, i, k, depth)
        if isinstance(f, At):
            return ("at first, " if f.moment == 0 else f"after statement {f.moment}, ") + self.why(run, f.formula, i, f.moment, depth)
        if isinstance(f, Seeing):
            return f"had {f.agent} seen {f.view.name}, " + self.why(self._seeing(run, f), f.formula, i, k, depth)
        if isinstance(f, Fact):
            return f.text
        if isinstance(f, Common):
            return f"it is common knowledge among {', '.join(f.group)} that {_text(f.formula)}"
        if isinstance(f, Distributed):
            return f"{', '.join(f.group)}, pooling what they see, would know that {_text(f.formula)}"
        assert isinstance(f, (Knows, KnowsWhich, KnowsWhether)), f"unknown formula {f!r}"
        told = f"{f.agent}, {self.told(run, f.agent, i, k)},"
        if isinstance(f, KnowsWhich):
            if f.question is None:
                return f"{told} would have known it was {self.show(i)}"
            answer = f.question.show(_plain(f.question.fn(self.story.worlds[int(i)])))
            return f"{told} would have known {f.question.name} ({answer})"
        if isinstance(f, KnowsWhether):
            return f"{told} would have known whether {_text(f.formula)}"
        return f"{told} would have known that {_text(f.formula)}"

    def _seeing(self, run: Run, f: Seeing) -> Run:
        return Run(run.model.with_view(f.agent, f.view), run.statements)


def _plain(value: Any) -> Any:
    """A projection's value on one world as a plain Python value (numpy scalars unwrapped)."""
    return value.item() if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0) else value


def _text(f: Formula) -> str:
    if isinstance(f, Fact):
        return f.text
    if isinstance(f, Not):
        return f"not ({_text(f.formula)})"
    if isinstance(f, KnowsWhich):
        return f"{f.agent} knows {f.question.name if f.question else 'it'}"
    if isinstance(f, Knows):
        return f"{f.agent} knows that {_text(f.formula)}"
    if isinstance(f, KnowsWhether):
        return f"{f.agent} knows whether {_text(f.formula)}"
    if isinstance(f, (And, Or)):
        return (" and " if isinstance(f, And) else " or ").join(_text(p) for p in f.parts)
    if isinstance(f, Common):
        return f"it is common knowledge among {', '.join(f.group)} that {_text(f.formula)}"
    if isinstance(f, Distributed):
        return f"{', '.join(f.group)} together know that {_text(f.formula)}"
    if isinstance(f, At):
        return ("at first, " if f.moment == 0 else f"after statement {f.moment}, ") + _text(f.formula)
    return type(f).__name__


def why_not(result: Result, statement: int, secret_index: int) -> str:
    """Why statement number `statement` (0-based) removes world `secret_index`, in words."""
    count, worlds = len(result.story.statements), len(result.story.worlds)
    if not isinstance(statement, (int, np.integer)) or isinstance(statement, bool) or not 0 <= statement < count:
        raise InputError(f"why_not: statement must be 0-{count - 1} (0-based), got {statement!r}")
    if (not isinstance(secret_index, (int, np.integer)) or isinstance(secret_index, bool)
            or not 0 <= secret_index < worlds):
        raise InputError(f"why_not: secret_index must be a world's index 0-{worlds - 1}, got {secret_index!r}")
    if not result.steps[statement].before[secret_index] or result.steps[statement].after[secret_index]:
        raise InputError(f"why_not: statement {statement} does not remove world {secret_index} "
                         f"({result.story.show(secret_at(result.story.worlds, secret_index))})")
    return _Explainer(result).why_not(result.run, result.story.statements[statement].formula, int(secret_index),
                                      int(statement))


def explain(result: Result, limit: int | None = 20) -> list[list[Removal]]:
    """For each statement, the worlds it removes (at most `limit` each) and why."""
    explainer = _Explainer(result)
    out = []
    for k, step in enumerate(result.steps):
        removed = step.removed if limit is None else step.removed[:limit]
        out.append([Removal(secret_at(result.story.worlds, i), explainer.show(i),
                            explainer.why_not(result.run, step.statement.formula, i, k)) for i in removed])
    return out
