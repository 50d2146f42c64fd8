"""The check behind every printed answer: the story re-told by the naive evaluator.

Up to `NAIVE_LIMIT` worlds the naive evaluator re-tells the whole story and must leave the
same worlds after every statement. Above it, a story that knows its counts in closed form
(the muddy children) is checked against them; any other story is re-told lazily for its
final survivors only.
"""

from __future__ import annotations

import sys

from ...errors import LogicpyError
from .solve import Result
from .verify import NAIVE_LIMIT, replay, survivors

__all__ = ["check", "NAIVE_LIMIT"]


def check(result: Result, limit: int = NAIVE_LIMIT) -> str:
    """Check `result` independently; the sentence saying what was checked (raises if it fails)."""
    story = result.story
    counts = [step.count for step in result.steps]
    if len(story.worlds) <= limit:
        if replay(story)[1:] != [set(step.kept.tolist()) for step in result.steps]:
            raise LogicpyError("internal error: the naive evaluator disagrees with the engine; please report it")
        return ("verified: the naive evaluator re-told the story statement by statement and left the same "
                f"candidates after each ({', '.join(map(str, counts))})")
    if story.expected_counts is not None:
        if tuple(counts) != story.expected_counts:
            raise LogicpyError(f"internal error: the counts {counts} break the closed form; please report it")
        return (f"verified by the closed form: {story.expected_because} (the naive evaluator stops at "
                f"{limit:,} worlds)")
    print(f"re-telling {len(story.worlds):,} worlds with the naive evaluator (final survivors only)…", file=sys.stderr)
    found = survivors(story)
    final = set(result.steps[-1].kept.tolist()) if result.steps else set(range(len(story.worlds)))
    if found != final:
        raise LogicpyError("internal error: the naive evaluator disagrees with the engine; please report it")
    return (f"verified: the naive evaluator, told the story lazily world by world, leaves the same {len(found):,} "
            f"(intermediate sets not re-checked above {limit:,} worlds)")
