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

Given a third argument, `storyo(story, secret, worlds, pool=…, size=…)` runs backwards too:
with `worlds` unbound it generates lists of `size` secrets from `pool` on which the story
has exactly one answer, lazily (a thousand lists are told at a time, as one batched model)
and fairly (it pauses between batches, so other goals and a `run`'s timeout get their turn).
"""

from __future__ import annotations

from itertools import combinations, islice
from typing import Any, Iterator, Sequence
from weakref import WeakKeyDictionary

import numpy as np
from kanren.core import GoalType

from ...core import Table
from ...core.equality import reify, unify
from ...core.streams import PAUSE
from ...core.terms import variables_in
from ...errors import InputError
from .solve import secret_at, solve
from .model import Story, knows_which

__all__ = ["storyo", "survivo", "knowso"]

_TABLES: "WeakKeyDictionary[Story, Table]" = WeakKeyDictionary()
_KNOWERS: "WeakKeyDictionary[Story, Table]" = WeakKeyDictionary()


def _story(who: str, story: Any) -> Story:
    if not isinstance(story, Story):
        raise InputError(f"{who}: story must be a Story, got {type(story).__name__}")
    return story


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


_NO_WORLDS = object()
#: Lists told at a time when `storyo` generates.
BATCH = 1000


def storyo(story: Story, secret: Any, worlds: Any = _NO_WORLDS, pool: Sequence[Any] | None = None,
           size: int = 10, seed: int = 0) -> GoalType:
    """storyo(+story, ?secret): True iff `secret` is consistent with every statement of `story`.

    storyo(+story, ?secret, ?worlds, pool=, size=): True iff the story told on `worlds` (a tuple
    of secrets) has exactly one answer, `secret`. With `worlds` unbound, every `size`-subset of
    `pool` is tried (in an order shuffled by `seed`, holding `secret` when it is bound), lazily.
    """
    _story("storyo", story)
    if worlds is _NO_WORLDS:
        return _table(story)(len(story.statements), secret)
    if pool is not None and (isinstance(pool, (str, bytes)) or not hasattr(pool, "__len__")):
        raise InputError(f"storyo: pool must be a sequence of secrets, got {pool!r}")
    if type(size) is not int or size < 2:
        raise InputError(f"storyo: size must be an integer of at least 2, got {size!r}")

    def goal(S: Any) -> Iterator[Any]:
        given = reify(worlds, S)
        if not _has_var(given):
            result = solve(story.on(tuple(given)))
            if result.status == "unique":
                unified = unify(secret, result.solutions[0], S)
                if unified is not False:
                    yield unified
            return
        if pool is None:
            raise InputError("storyo: with worlds unbound, give pool= (the secrets to choose them from)")
        wanted = reify(secret, S)
        for found in _unique_lists(story, list(pool), size, seed, None if _has_var(wanted) else wanted):
            if found is PAUSE:
                yield PAUSE
                continue
            unified = unify((worlds, secret), found, S)
            if unified is not False:
                yield unified

    return goal


def _has_var(term: Any) -> bool:
    """True iff the (reified) term still holds a logic variable."""
    return next(variables_in(term), None) is not None


def _unique_lists(story: Story, pool: list, size: int, seed: int, holding: Any) -> Iterator[Any]:
    """(worlds, answer) for each `size`-subset of `pool` with a unique answer (only those holding
    `holding`, when given, and answering it), or PAUSE after a batch without one."""
    from .generate import solution_counts

    rng = np.random.default_rng(seed)
    order = [int(i) for i in rng.permutation(len(pool))]
    fixed: list[int] = []
    if holding is not None:
        if holding not in pool:
            return
        fixed = [pool.index(holding)]
        order.remove(fixed[0])
    if not len(fixed) < size <= len(pool):
        raise InputError(f"storyo: size {size} must be at most the pool's {len(pool)} secrets")
    subsets = combinations(order, size - len(fixed))
    while True:
        rows = [sorted(fixed + list(c)) for c in islice(subsets, BATCH)]
        if not rows:
            return
        table = np.array(rows, dtype=np.int64)
        hits = np.flatnonzero(solution_counts(story, pool, table) == 1)
        found = False
        for row in table[hits]:
            chosen = tuple(pool[i] for i in row)
            answer = solve(story.on(chosen)).solutions[0]
            if holding is None or answer == holding:
                found = True
                yield (chosen, answer)
        if not found:
            yield PAUSE


def survivo(story: Story, moment: Any, secret: Any) -> GoalType:
    """survivo(+story, ?moment, ?secret): True iff `secret` is still possible after `moment` statements."""
    return _table(_story("survivo", story))(moment, secret)


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
    return _knowers(_story("knowso", story))(moment, agent, secret)
