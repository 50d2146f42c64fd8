"""Tabled (memoised) relations: each distinct call is solved once, its answers replayed.

A call is identified by its arguments up to variable renaming (a *variant*), so
`evaluateo(q, w, T)` and `evaluateo(q, w, U)` share one table entry. The relation must
have finitely many answers per call. This is memoisation, not SLG resolution: a call that
needs its own unfinished table (left recursion) is refused with `ModeError`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from cons.core import ConsPair
from kanren.core import GoalType
from unification import isvar, reify, unify

from ..errors import ModeError
from ._spine import hashable_key
from .terms import var

__all__ = ["tabled", "TableStats"]


@dataclass(frozen=True)
class _Slot:
    """The i-th distinct variable of a call, in a variant key."""

    number: int


@dataclass
class TableStats:
    """How a tabled relation's table was used: calls solved (misses) and replayed (hits)."""

    misses: int = 0
    hits: int = 0


def _variables(term: Any) -> list:
    """The distinct logic variables of a reified term, in order of first appearance."""
    seen: dict = {}
    stack = [term]
    while stack:
        t = stack.pop()
        if isvar(t):
            seen.setdefault(t, None)
        elif type(t) in (list, tuple):
            stack.extend(reversed(t))
        elif issubclass(type(t), ConsPair):
            stack.extend((t.cdr, t.car))
    return list(seen)


def _renamed(term: Any, variables: list, new: Callable[[int], Any]) -> Any:
    """`term` with its i-th variable replaced by `new(i)`."""
    return reify(term, {v: new(i) for i, v in enumerate(variables)}) if variables else term


def tabled(relation: Callable[..., GoalType]) -> Callable[..., GoalType]:
    """Memoise `relation` (a function returning a goal) per call variant.

    The first call with given arguments (up to renaming) runs the relation in a fresh
    state and stores all its answers; every later variant call unifies the caller's
    arguments with those answers in the caller's own state, so the caller's constraints
    still apply. The wrapper has `.stats` (a `TableStats`) and `.clear()`.
    Raises ModeError when an answer leaves constraints (`neq`, domains) on its variables,
    which a table cannot replay, or on a recursive call of an unfinished variant.

    >>> from logicpy.core import run, var, membero
    >>> @tabled
    ... def smallo(x):
    ...     return membero(x, [1, 2, 3])
    >>> q = var()
    >>> run(0, q, smallo(q)), run(0, q, smallo(q)), smallo.stats
    ((1, 2, 3), (1, 2, 3), TableStats(misses=1, hits=1))
    """
    table: dict[Any, tuple] = {}
    in_progress: set = set()
    stats = TableStats()

    def solve(key: Any, args_rf: tuple, variables: list) -> tuple:
        if key in in_progress:
            raise ModeError(f"tabled {relation.__name__}: recursive call of an unfinished variant {args_rf!r}; "
                            "tabling here memoises finished calls only")
        in_progress.add(key)
        try:
            fresh_args = _renamed(args_rf, variables, lambda i: var())
            answers = []
            for S_answer in relation(*fresh_args)({}):
                if any(getattr(store, "lvar_constraints", None) for store in getattr(S_answer, "constraints", {}).values()):
                    raise ModeError(f"tabled {relation.__name__}: an answer to {args_rf!r} carries constraints, "
                                    "which a table cannot replay")
                answers.append(reify(fresh_args, S_answer))
        finally:
            in_progress.discard(key)
        return tuple(answers)

    @functools.wraps(relation)
    def tabled_relation(*args: Any) -> GoalType:
        def tabled_goal(S):
            args_rf = reify(args, S)
            variables = _variables(args_rf)
            key = hashable_key(_renamed(args_rf, variables, _Slot))
            if key in table:
                stats.hits += 1
            else:
                stats.misses += 1
                table[key] = solve(key, args_rf, variables)
            for answer in table[key]:
                answer = _renamed(answer, _variables(answer), lambda i: var())
                S_hit = unify(args, answer, S)
                if S_hit is not False:
                    yield S_hit

        return tabled_goal

    def clear() -> None:
        table.clear()
        stats.misses = stats.hits = 0

    tabled_relation.stats = stats  # type: ignore[attr-defined]
    tabled_relation.clear = clear  # type: ignore[attr-defined]
    return tabled_relation
