"""Control over a goal's answer stream: conjunction of any number of goals, keep the first
answer, keep one answer per key, and committed choice.

These are combinators (they take goals), so their names carry no `-o`, except `onceo`,
which keeps the name miniKanren gives it. Each wraps a kanren goal and returns one.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from kanren.core import GoalType, lall, succeed
from unification import reify

from ..errors import InputError
from ._spine import hashable_key

__all__ = ["conj", "onceo", "unique_by", "conda", "condu"]

_NO_TERM = object()
_END = object()


def conj(*goals: GoalType | Iterable[GoalType]) -> GoalType:
    """The conjunction of any number of goals, depth-first, without deep recursion.

    kanren's `lall` nests one generator per goal, so about a thousand goals overflow
    Python's stack; this keeps one answer stream per goal on a list (memory grows with the
    number of goals, not with the answers). Like `lall` it also takes one iterable of
    goals. On finite streams it gives the same answers as `lall`, in Prolog's depth-first
    order; `lall` interleaves the streams of successive answers, so it is fair when an
    early goal has infinitely many answers, and this is not (put such goals last).

    >>> from logicpy.core import run, var, eq, membero
    >>> x = var()
    >>> run(0, x, conj(membero(x, [1, 2, 3]), *[membero(x, [2, 3])] * 10_000))
    (2, 3)
    """
    if len(goals) == 1 and not callable(goals[0]):
        goals = tuple(goals[0])  # type: ignore[arg-type]
    seq: tuple[GoalType, ...] = tuple(goals)  # type: ignore[arg-type]
    if not seq:
        return succeed
    if len(seq) == 1:
        return seq[0]

    def conj_goal(S):
        last = len(seq)
        stack = [iter(seq[0](S))]
        while stack:
            S_next = next(stack[-1], _END)
            if S_next is _END:
                stack.pop()
            elif len(stack) == last:
                yield S_next
            else:
                stack.append(iter(seq[len(stack)](S_next)))

    return conj_goal


def onceo(goal: GoalType) -> GoalType:
    """onceo(+goal): True iff goal is; keeps only goal's first answer (Prolog's once/1).

    >>> from logicpy.core import run, var, membero
    >>> q = var()
    >>> run(0, q, onceo(membero(q, [3, 1, 2])))
    (3,)
    """

    def onceo_goal(S):
        for S_first in goal(S):
            yield S_first
            return

    return onceo_goal


def unique_by(key: Any, goal: GoalType, of: Any = _NO_TERM) -> GoalType:
    """The answers of `goal`, keeping only the first answer for each value of `key`.

    `key` is a logic term, reified in each answer (answers whose key still holds
    unbound variables only match each other through those same variables), or a Python
    function, called with the answer's reified `of` term. This is the three-gods seed's
    signature deduplication made general: keep one question per signature. The set of
    seen keys belongs to one run of the goal on one state, so nesting it is safe.

    Keep one list per length:

    >>> from logicpy.core import run, var, membero, lengtho
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


def _committed(clauses: Sequence[Iterable[GoalType]], head_answers: Callable) -> GoalType:
    """Run the first clause whose head succeeds, over `head_answers(head stream)`; skip the rest."""

    def committed_goal(S):
        for clause in clauses:
            head, *body = list(clause)
            stream = iter(head(S))
            first = next(stream, None)
            if first is None:
                continue
            body_goal = lall(*body)
            for S_head in head_answers(first, stream):
                yield from body_goal(S_head)
            return

    return committed_goal


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
