"""Text and JSON renderings of a story's result: the steps, the verdict, the check."""

from __future__ import annotations

import json
from typing import Any

from .solve import Result, secret_at
from .explain import explain

__all__ = ["render_text", "result_to_data", "verdict", "SHOW"]

#: How many candidates a step lists before it only counts them.
SHOW = 12
#: How many candidates (and solutions) a JSON result lists; past it, it says so.
JSON_LIST = 1000


def joined(items: list[str]) -> str:
    """Items separated by ", ", or by "; " when an item holds a comma itself ("2, 2, 9; 1, 6, 6")."""
    return ("; " if any("," in item for item in items) else ", ").join(items)


def _listing(result: Result, indices) -> str:
    shown = [result.story.show(secret_at(result.story.worlds, i)) for i in indices[:SHOW]]
    more = len(indices) - len(shown)
    return joined(shown) + (f"{'; ' if any(',' in item for item in shown) else ', '}… ({more} more)" if more > 0 else "")


def verdict(result: Result) -> str:
    """`unique solution: July 16`, `4 solutions: …`, or `no solution: …` with the statement that empties it."""
    show = result.story.show
    if result.status == "unique":
        return f"unique solution: {show(result.solutions[0])}"
    if result.status == "ambiguous":
        listed = joined([show(s) for s in result.solutions[:SHOW]])
        text = f"{result.count} solutions: {listed}" + (" …" if result.count > SHOW else "")
        answers = answer_values(result)
        if answers is not None and len(answers) == 1:
            assert result.story.answer is not None  # answer_values is None without one
            text += f"\nunique answer: {result.story.answer.name} is {answers[0]}"
        return text
    last = next((k for k, step in enumerate(result.steps) if step.count == 0), None)
    if last is None:
        return "no solution: there are no candidates at all"
    step = result.steps[last]
    first = explain(result, 1)[last][0]
    return (f"no solution: statement {last + 1} ({step.statement.speaker}) is false in every world still "
            f"possible; {first.text}: {first.reason}")


def answer_values(result: Result) -> list | None:
    """The distinct answers to the story's question among the solutions (None without a question)."""
    answer = result.story.answer
    if answer is None:
        return None
    return sorted({answer.fn(s) for s in result.solutions})


def render_text(result: Result, why: bool = False) -> str:
    """The story as steps: each sentence and the candidates left (with `why`, each removal explained)."""
    story = result.story
    lines = [f"{story.name}: {len(story.worlds):,} candidates"]
    reasons = explain(result, SHOW) if why else None
    for k, step in enumerate(result.steps):
        lines.append(f"{k + 1}. {step.statement.speaker}: \"{step.statement.sentence}\"")
        if reasons is not None:
            for removal in reasons[k]:
                lines.append(f"     {removal.text} is out: {removal.reason}")
            more = len(step.removed) - len(reasons[k])
            if more > 0:
                lines.append(f"     … and {more:,} more")
        kept = step.kept
        lines.append(f"   left ({len(kept):,}): {_listing(result, kept) if len(kept) else 'nothing'}")
    lines.append("")
    lines.append(verdict(result))
    return "\n".join(lines)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def result_to_data(result: Result, verified: str, why: bool = True) -> dict[str, Any]:
    """The result as JSON-ready data: status, solutions (words and values), steps, the check run."""
    story = result.story
    reasons = explain(result, SHOW) if why else None
    steps = []
    for k, step in enumerate(result.steps):
        entry: dict[str, Any] = {
            "speaker": step.statement.speaker, "sentence": step.statement.sentence, "left": step.count,
            "candidates": [story.show(secret_at(story.worlds, i)) for i in step.kept[:JSON_LIST]],
            "removed": len(step.removed),
        }
        if step.count > JSON_LIST:
            entry["candidates_shown"] = JSON_LIST
        if reasons is not None:
            entry["why"] = [{"removed": r.text, "reason": r.reason} for r in reasons[k]]
        steps.append(entry)
    more = {"solutions_shown": JSON_LIST} if result.count > JSON_LIST else {}
    return {
        "story": story.name, "question": story.question, "status": result.status,
        "solutions": [story.show(s) for s in result.solutions[:JSON_LIST]],
        "values": [_plain(s) for s in result.solutions[:JSON_LIST]], "count": result.count, **more,
        "answers": answer_values(result),
        "steps": steps, "verified": verified,
    }


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
