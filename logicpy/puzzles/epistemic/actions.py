"""Private announcements nobody else notices: the product update that copies worlds.

`learns_privately(speaker, sentence, group, φ)` is the action model with two events, "the
group is told φ" (precondition φ) and "nothing happens" (precondition true); the group
tells them apart, the others cannot. Its product with the model has a copy of every world
for each event that can happen there, so the story is told on `expanded(story)`: worlds
`(secret, e1, …, em)`, one 0/1 coordinate per such action (1: the group was told), every
formula and view rewritten to read the secret from the first coordinate, and the action
itself a statement that removes the copies where the group would have been told something
false, followed by the group looking at its coordinate (an `observes`). Until the action,
the copies of a world are indistinguishable to everyone, so they change no one's knowledge
("knows which" counts secrets, not copies).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from itertools import product
from operator import itemgetter
from typing import Any

from .model import (
    NOTHING, Action, And, At, Common, Distributed, Fact, Formula, Knows, KnowsWhether, KnowsWhich, Not, Or,
    Projection, Seeing, Statement, Story,
)

__all__ = ["expanded", "copying"]

_SECRET = itemgetter(0)


def _first(fn: Any, world: tuple) -> Any:
    """`fn` of the secret in an expanded world."""
    return fn(world[0])


def _untold(column: int, world: tuple) -> bool:
    return world[column] == 0


def _yes(told: int) -> str:
    return "yes" if told else "no"


def copying(story: Story) -> list[int]:
    """The statements whose action copies worlds (`learns_privately`)."""
    return [j for j, s in enumerate(story.statements) if s.action is not None and s.action.unnoticed]


def _on_secret(view: Projection) -> Projection:
    if view is NOTHING:
        return view
    return Projection(partial(_first, view.fn), view.name, show=view.show)


def _rewrite(f: Formula) -> Formula:
    """`f` over expanded worlds: facts and projections read the secret; "knows which" asks which secret."""
    if isinstance(f, Fact):
        return Fact(partial(_first, f.test), f.text)
    if isinstance(f, KnowsWhich):
        question = Projection(_SECRET, "which it is") if f.question is None else _on_secret(f.question)
        return KnowsWhich(f.agent, question)
    if isinstance(f, (And, Or)):
        return type(f)(tuple(_rewrite(p) for p in f.parts))
    if isinstance(f, Seeing):
        return Seeing(f.agent, _on_secret(f.view), _rewrite(f.formula))
    if isinstance(f, (Not, At, Knows, KnowsWhether, Common, Distributed)):
        return replace(f, formula=_rewrite(f.formula))  # type: ignore[type-var]
    raise TypeError(f"not a formula: {f!r}")


def _statement(s: Statement, told: dict[int, int], j: int) -> Statement:
    action = s.action
    if action is None:
        return replace(s, formula=_rewrite(s.formula))
    if not action.unnoticed:
        return Statement(s.speaker, s.sentence, _rewrite(s.formula), Action(
            action.group, tuple(_rewrite(e) for e in action.events),
            None if action.observes is None else _on_secret(action.observes)))
    column, who = told[j], ", ".join(action.group)
    was = "was" if len(action.group) == 1 else "were"
    nothing = Fact(partial(_untold, column), f"{who} {was} not told")
    looked = Projection(itemgetter(column), f"whether {who} {was} told", show=_yes)
    return Statement(s.speaker, s.sentence, nothing | _rewrite(action.events[0]), Action(action.group, observes=looked))


def expanded(story: Story) -> Story:
    """The story on worlds copied by each `learns_privately` (the story itself when none is)."""
    columns = copying(story)
    if not columns:
        return story
    told = {j: n for n, j in enumerate(columns, 1)}
    worlds = tuple((secret, *events) for secret in story.worlds for events in product((1, 0), repeat=len(columns)))
    names = [", ".join(story.statements[j].action.group) for j in columns]  # type: ignore[union-attr]
    show_secret = story.show

    def show(w: Any) -> str:
        notes = [f"{name} {'told' if e else 'not told'}" for name, e in zip(names, w[1:])]
        return f"{show_secret(w[0])} ({'; '.join(notes)})"

    answer = story.answer or Projection(_SECRET, story.question, show=show_secret)
    return Story(story.name, worlds, {a: _on_secret(p) for a, p in story.agents.items()},
                 tuple(_statement(s, told, j) for j, s in enumerate(story.statements)), show, story.question,
                 _on_secret(answer) if story.answer else answer)
