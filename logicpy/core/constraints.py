"""Disequality that leaves the state it is given untouched.

kanren 1.0.5's `neq` adds its disequality to the `ConstrainedState` it receives, in
place. Every branch of a `conde` receives the same state object, so a `neq` posted in
one branch leaks into the branches tried after it (and into states already handed out).
logicpy's `neq` posts kanren's constraint on a copy; the store and its checks are kanren's.
"""

from __future__ import annotations

from typing import Any

from kanren import constraints as kanren_constraints
from kanren.constraints import ConstrainedState
from kanren.core import GoalType

__all__ = ["neq"]


def neq(u: Any, v: Any) -> GoalType:
    """neq(?u, ?v): True iff u and v never unify; kanren's disequality, posted on a copy of the state.

    >>> from logicpy.core import conde, eq, membero, run, var
    >>> x = var()
    >>> sorted(run(0, x, neq(x, 3), conde([neq(x, 1)], [eq(x, 1)]), membero(x, [1, 2, 3])))
    [1, 2]
    """
    kanren_neq = kanren_constraints.neq(u, v)

    def neq_goal(S):
        if isinstance(S, ConstrainedState):
            S = S.copy()
        yield from kanren_neq(S)

    return neq_goal
