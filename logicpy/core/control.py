"""Control over a goal's answer stream: keep the first answer, keep one answer per key,
and committed choice.

These are combinators (they take goals), so their names carry no `-o`, except `onceo`,
which keeps the name miniKanren gives it. Each wraps a kanren goal and returns one.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from kanren.core import GoalType
from unification import reify

from ..errors import InputError
from ._spine import hashable_key
from .streams import Scheduled, Search, conj

__all__ = ["onceo", "unique_by", "conda", "condu"]

_NO_TERM = object()


def onceo(goal: GoalType) -> GoalType:
    """onceo(+goal): True iff goal is; keeps only goal's first answer (Prolog's once/1).

    The goals after it go on in the caller's search, so a recursion through `onceo`
    costs no Python stack per level (only `goal` itself is searched apart).

    >>> from logicpy.core import run, var, membero
    >>> q = var()
    >>> run(0, q, onceo(membero(q, [3, 1, 2])))
    (3,)
    """
    return _Committed(((goal,),), _first_head_answer)


def unique_by(key: Any, goal: GoalType, of: Any = _NO_TERM) -> GoalType:
    """The answers of `goal`, keeping only the first answer for each value of `key`.

    `key` is a logic term, reified in each answer (answers whose key still holds
    unbound variables only match each other through those same variables), or a Python
    function, called with the answer's reified `of` term. This is the three-gods seed's
    signature deduplication made general: keep one question per signature. The set of
    seen keys belongs to one run of the goal on one state, so nesting it is safe.

    Keep one list per length:

    >>> from logicpy.core import lall, run, var, membero, lengtho
    >>> xs, n = var(), var()
    >>> words = [["a"], ["b", "c"], ["d"], ["e", "f"], []]
    >>> run(0, xs, unique_by(n, lall(membero(xs, words), lengtho(xs, n))))
    (['a'], ['b', 'c'], [])
    >>> run(0, xs, unique_by(len, membero(xs, words), of=xs))
    (['a'], ['b', 'c'], [])
    """
    if callable(key):
        if of is _NO_TERM:
            raise InputError("unique_by: a key function needs the term it is applied to: unique_by(fn, goal, of=term)")
        fn: Callable[[Any], Any] = key

        def key_of(S):
            return hashable_key(fn(reify(of, S)))
    else:
        if of is not _NO_TERM:
            raise InputError("unique_by: `of` is only for a key function; a key term is reified directly")

        def key_of(S):
            return hashable_key(reify(key, S))

    def unique_by_goal(S):
        seen = set()
        for S_answer in goal(S):
            k = key_of(S_answer)
            if k not in seen:
                seen.add(k)
                yield S_answer

    return unique_by_goal


class _Committed(Scheduled):
    """Run the first clause whose head succeeds, over `head_answers(first, head stream)`;
    skip the rest. The head is searched apart; the body goes on in the caller's search."""

    __slots__ = ("clauses", "head_answers")

    def __init__(self, clauses: tuple, head_answers: Callable):
        self.clauses = clauses
        self.head_answers = head_answers

    def schedule(self, S: Any, K: Any, search: Search):
        for head, *body in self.clauses:
            stream = iter(head(S))
            first = next(stream, None)
            if first is None:
                continue
            if body:
                K = (conj(*body), K)
            return self.head_answers(first, stream), K
        return None


def _committed(clauses: Sequence[Iterable[GoalType]], head_answers: Callable) -> GoalType:
    """The committed choice over `clauses` (each a non-empty list: head goal, then body goals)."""
    checked = []
    for i, clause in enumerate(clauses, start=1):
        goals = tuple(clause) if not callable(clause) and isinstance(clause, Iterable) else None
        if not goals:
            raise InputError(f"clause {i} must be a non-empty list of goals [head, body...], got {clause!r}")
        checked.append(goals)
    return _Committed(tuple(checked), head_answers)


def _all_head_answers(first, stream):
    yield first
    yield from stream


def _first_head_answer(first, stream):
    yield first


def conda(*clauses: Iterable[GoalType]) -> GoalType:
    """Soft-cut choice: the first clause whose head goal succeeds is run (with all of the
    head's answers); later clauses are not tried (Prolog's `( If -> Then ; ... )` with
    every answer of If kept, i.e. `*->`).

    >>> from logicpy.core import run, var, eq, membero
    >>> q = var()
    >>> run(0, q, conda([membero(q, []), eq(q, 0)], [membero(q, [1, 2])]))
    (1, 2)
    """
    return _committed(clauses, _all_head_answers)


def condu(*clauses: Iterable[GoalType]) -> GoalType:
    """Committed choice: like `conda`, but the chosen clause's head keeps only its first
    answer (Prolog's `( If -> Then ; Else )`).

    >>> from logicpy.core import run, var, membero
    >>> q = var()
    >>> run(0, q, condu([membero(q, [1, 2])], [membero(q, [3])]))
    (1,)
    """
    return _committed(clauses, _first_head_answer)
