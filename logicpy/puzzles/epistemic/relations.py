"""Stories as kanren relations: which secrets survive, after the story or after each statement.

The survivors are computed once per story by the engine and kept in an indexed fact
`Table` (moment, secret), so a query may check one secret, enumerate them, ask at which
moments a secret was still possible, or be combined with any other goal; `knowso` does the
same for who knows the secret, in which world, from which moment.

    >>> from logicpy.core import run, var, membero
    >>> from logicpy.puzzles.epistemic import CLASSIC, MonthDay
    >>> d = var()
    >>> [str(x) for x in run(0, d, storyo(CLASSIC, d))]
    ['July 16']
    >>> k = var()
    >>> run(0, k, survivo(CLASSIC, k, MonthDay(8, 15)))   # still possible before and after statement 1 and 2
    (0, 1, 2)
    >>> a = var()
    >>> run(0, (k, a), knowso(CLASSIC, k, a, MonthDay(7, 16)))   # Bernard knows once Albert has spoken
    ((1, 'Bernard'), (2, 'Albert'), (2, 'Bernard'), (3, 'Albert'), (3, 'Bernard'))
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from kanren.core import GoalType

from ...core import Table
from .solve import secret_at, solve
from .formulas import Story, knows_which

__all__ = ["storyo", "survivo", "knowso"]

_TABLES: "WeakKeyDictionary[Story, Table]" = WeakKeyDictionary()
_KNOWERS: "WeakKeyDictionary[Story, Table]" = WeakKeyDictionary()


def _table(story: Story) -> Table:
    """(moment, secret) for every secret possible after `moment` statements, computed once."""
    table = _TABLES.get(story)
    if table is None:
        result = solve(story)
        rows = [(0, secret_at(story.worlds, i)) for i in range(len(story.worlds))]
        for k, step in enumerate(result.steps, 1):
            rows += [(k, secret_at(story.worlds, i)) for i in step.kept]
        table = _TABLES[story] = Table.from_rows("survives", rows, 2)
    return table


def storyo(story: Story, secret: Any) -> GoalType:
    """storyo(+story, ?secret): True iff `secret` is consistent with every statement of `story`."""
    return _table(story)(len(story.statements), secret)


def survivo(story: Story, moment: Any, secret: Any) -> GoalType:
    """survivo(+story, ?moment, ?secret): True iff `secret` is still possible after `moment` statements."""
    return _table(story)(moment, secret)


def _knowers(story: Story) -> Table:
    """(moment, agent, secret): at that moment, in that world still possible, the agent knows the secret."""
    table = _KNOWERS.get(story)
    if table is None:
        result = solve(story)
        rows = []
        for k in range(len(story.statements) + 1):
            alive = result.run.mask(k)
            for agent in story.agents:
                knows = result.run.truth(knows_which(agent), k) & alive
                rows += [(k, agent, secret_at(story.worlds, i)) for i in knows.nonzero()[0]]
        table = _KNOWERS[story] = Table.from_rows("knows", rows, 3)
    return table


def knowso(story: Story, moment: Any, agent: Any, secret: Any) -> GoalType:
    """knowso(+story, ?moment, ?agent, ?secret): True iff after `moment` statements, in the world
    `secret` (still possible then), `agent` knows the secret."""
    return _knowers(story)(moment, agent, secret)
