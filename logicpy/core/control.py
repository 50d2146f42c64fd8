"""Control over a goal's answer stream: keep the first answer, keep one answer per key,
and committed choice.

These are combinators (they take goals), so their names carry no `-o`, except `onceo`,
which keeps the name miniKanren gives it. Each wraps a goal and returns one, and each
runs inside the caller's search: `unique_by`'s goal is part of it, and a committed
choice's condition is searched apart but stepped by it (`streams.stepped`), so an
endless condition takes turns with the other branches and keeps the time limit.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from kanren.core import GoalType, succeed
from unification import reify

from ..errors import InputError
from ._spine import hashable_key
from .streams import PAUSE, Call, Cut, CutBarrier, Scheduled, Search, conj, stepped

__all__ = ["onceo", "unique_by", "conda", "condu", "ifa", "IfThenElse"]

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
    return _Committed(((goal, succeed),), every=False)


def unique_by(key: Any, goal: GoalType, of: Any = _NO_TERM) -> GoalType:
    """The answers of `goal`, keeping only the first answer for each value of `key`.

    `key` is a logic term, reified in each answer (answers whose key still holds
    unbound variables only match each other through those same variables), or a Python
    function, called with the answer's reified `of` term. It keeps one
    answer per key, as deduplication by a signature does. The set of
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

    def unique_by(*_: Any) -> GoalType:
        seen: set = set()  # one per state the search reaches unique_by with

        def unseen(S):
            k = key_of(S)
            if k in seen:
                return ()
            seen.add(k)
            return (S,)

        return conj(goal, unseen)

    return Call(unique_by, (key, goal))


class _Committed(Scheduled):
    """Go on with the first clause whose head succeeds, with `every` answer of that head or
    only its first; skip the rest. `clauses` are (head, body) pairs (body `succeed` when the
    clause has none). The head is
    searched apart, stepped by the caller's search; the body goes on in that search."""

    __slots__ = ("clauses", "every", "bodies")

    def __init__(self, clauses: tuple, every: bool):
        self.clauses = clauses
        self.every = every
        self.bodies = any(body is not succeed for _, body in clauses)

    def schedule(self, S: Any, K: Any, search: Search):
        chosen: list = [succeed]
        states = self._head_answers(S, search, chosen)
        if not self.bodies:
            return states, K

        def chosen_body() -> GoalType:
            return chosen[0]

        return states, (Call(chosen_body, ()), K)

    def _head_answers(self, S: Any, search: Search, chosen: list):
        """The answers of the first head that has one; `chosen[0]` is then its clause's body."""
        for head, body in self.clauses:
            answers = stepped(head, S, search)
            found = False
            for S_head in answers:
                if S_head is PAUSE:
                    yield PAUSE
                    continue
                chosen[0], found = body, True
                if not self.every:
                    answers.close()
                    yield S_head
                    return
                yield S_head
            if found:
                return


def _committed(clauses: Sequence[Iterable[GoalType]], every: bool) -> GoalType:
    """The committed choice over `clauses` (each a non-empty list: head goal, then body goals)."""
    checked = []
    for i, clause in enumerate(clauses, start=1):
        goals = tuple(clause) if not callable(clause) and isinstance(clause, Iterable) else None
        if not goals:
            raise InputError(f"clause {i} must be a non-empty list of goals [head, body...], got {clause!r}")
        checked.append((goals[0], conj(*goals[1:])))
    return _Committed(tuple(checked), every)


def conda(*clauses: Iterable[GoalType]) -> GoalType:
    """Soft-cut choice: the first clause whose head goal succeeds is run (with all of the
    head's answers); later clauses are not tried (Prolog's `( If -> Then ; ... )` with
    every answer of If kept, i.e. `*->`).

    >>> from logicpy.core import run, var, eq, membero
    >>> q = var()
    >>> run(0, q, conda([membero(q, []), eq(q, 0)], [membero(q, [1, 2])]))
    (1, 2)
    """
    return _committed(clauses, every=True)


def condu(*clauses: Iterable[GoalType]) -> GoalType:
    """Committed choice: like `conda`, but the chosen clause's head keeps only its first
    answer (Prolog's `( If -> Then ; Else )`).

    >>> from logicpy.core import run, var, membero
    >>> q = var()
    >>> run(0, q, condu([membero(q, [1, 2])], [membero(q, [3])]))
    (1,)
    """
    return _committed(clauses, every=False)


def ifa(g1: GoalType, g2: GoalType) -> GoalType:
    """g1's answers if it has any, else g2's (kanren's `ifa`): `conda([g1], [g2])`, so g1 is
    stepped by the caller's search and an endless g1 still takes turns and keeps time limits.

    >>> from logicpy.core import run, var, eq, membero
    >>> q = var()
    >>> run(0, q, ifa(membero(q, []), eq(q, 0))), run(0, q, ifa(membero(q, [1, 2]), eq(q, 0)))
    ((0,), (1, 2))
    """
    return conda([g1], [g2])


class IfThenElse(Scheduled):
    """Prolog's `( If -> Then ; Else )` for an `If` with no cut of its own (`otherwise` None:
    no else, `( If -> Then )`). In Prolog order it runs in the caller's search as the WAM
    runs it: Else is left as a choice point, If goes on at once, and its first answer cuts
    back to where the goal was reached (dropping Else and If's other answers) before Then;
    in the interleaved order it is `condu([If, Then], [succeed, Else])`."""

    __slots__ = ("condition", "then", "otherwise")

    def __init__(self, condition: GoalType, then: GoalType, otherwise: GoalType | None = None):
        self.condition, self.then, self.otherwise = condition, then, otherwise

    def schedule(self, S: Any, K: Any, search: Search):
        if search.order != "prolog":
            if self.otherwise is None:
                return (S,), (condu([self.condition, self.then]), K)
            return (S,), (condu([self.condition, self.then], [succeed, self.otherwise]), K)
        stack = search.stack
        barrier = CutBarrier(stack)
        if self.otherwise is not None:
            stack.append((iter((S,)), (self.otherwise, K)))
        return (S,), (self.condition, (Cut(barrier), (self.then, K)))

    def __repr__(self) -> str:
        otherwise = "" if self.otherwise is None else f" ; {self.otherwise!r}"
        return f"({self.condition!r} -> {self.then!r}{otherwise})"
