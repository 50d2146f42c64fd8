"""clpfd's labeling/2: the variable selection, value order and branching SWI-Prolog offers,
with its answers in its order.

`labelingo(xs, select, order, choice)`: `select` picks the next variable ("leftmost",
"ff": smallest domain, "ffc": smallest domain then most constraints, "min": smallest
lower bound, "max": largest upper bound; ties leftmost), `order` the first value ("up":
the least, "down": the greatest), `choice` the branching: "step" (x = v, else x ≠ v and
choose again), "enum" (each value of x in turn) or "bisect" (x ≤ mid, else x > mid).
The search is depth first and iterative (no Python stack per choice), and yields the
search's `PAUSE` every `SLICE` steps without an answer, so time limits and Ctrl-C hold.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from kanren.core import GoalType

from ...errors import InputError, ModeError, shown
from ..streams import PAUSE, SLICE, named
from .goals import _on_list
from .store import FDStore, bind, fd_state, is_fd_term, walk

__all__ = ["labelingo", "SELECTIONS", "ORDERS", "CHOICES"]

SELECTIONS = ("leftmost", "ff", "ffc", "min", "max")
ORDERS = ("up", "down")
CHOICES = ("step", "enum", "bisect")


@named
def labelingo(xs: Sequence[Any], select: str = "leftmost", order: str = "up", choice: str = "step") -> GoalType:
    """labelingo(?xs, +select="leftmost", +order="up", +choice="step"): give every variable of
    xs a value, in the order SWI-Prolog's `labeling/2` with those options gives the answers.

    >>> from logicpy.core import run, var, domo
    >>> x, y = var(), var()
    >>> run(0, (x, y), domo(x, range(1, 3)), domo(y, range(1, 4)), labelingo([x, y], "ff", "down"))
    ((2, 3), (2, 2), (2, 1), (1, 3), (1, 2), (1, 1))
    """
    for what, value, allowed in (("select", select, SELECTIONS), ("order", order, ORDERS),
                                 ("choice", choice, CHOICES)):
        if value not in allowed:
            raise InputError(f"labelingo: {what} must be one of {', '.join(allowed)}, got {value!r}")

    def label_goal(items: tuple) -> GoalType:
        def labeling_goal(S: Any) -> Iterator[Any]:
            return _search(S, items, select, order == "down", choice)
        return labeling_goal

    return _on_list("labelingo", xs, label_goal)


def _search(S: Any, xs: tuple, select: str, down: bool, choice: str) -> Iterator[Any]:
    """The labelled states, depth first; the stack holds the branches still to try: a state
    to label with a narrowing still to make (x = v "eq", x ≠ v "neq", x ≤ v "le", x > v "gt",
    or "each" value left of an iterator: enum's)."""
    stack: list[tuple] = [(S, None, None, None)]
    steps = 0
    while stack:
        steps += 1
        if steps == SLICE:  # a long search without an answer gives the other tasks their turn
            steps = 0
            yield PAUSE
        S, x, how, v = stack.pop()
        if how == "each":  # enum: the next value of x, the rest kept for later
            value = next(v, None)
            if value is None:
                continue
            stack.append((S, x, how, v))
            how, v = "eq", value
        if how is not None:
            S = _narrowed(S, x, how, v)
            if S is False:
                continue
        picked = _select(S, xs, select)
        if picked is None:
            steps = 0
            yield S
            continue
        x, d, store = picked
        lo, hi = store.lo(x), store.hi(x)
        assert lo is not None and hi is not None
        if lo == hi:
            stack.append((S, x, "eq", lo))
        elif choice == "bisect":
            mid = _toward_zero(lo + hi, 2)
            if mid == hi:
                mid -= 1
            first, second = (("gt", "le") if down else ("le", "gt"))
            stack.append((S, x, second, mid))
            stack.append((S, x, first, mid))
        elif choice == "enum":
            values = store.values(d) if not down else reversed(list(store.values(d)))
            stack.append((S, x, "each", iter(values)))
        else:
            value = hi if down else lo
            stack.append((S, x, "neq", value))
            stack.append((S, x, "eq", value))


def _toward_zero(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _narrowed(S: Any, x: Any, how: str, v: int) -> Any:
    """S with x = v, x ≠ v, x ≤ v or x > v, propagated; False when that fails."""
    if how == "eq":
        return bind(S, [(x, v)])[0]
    S2, store = fd_state(S)
    if how == "neq":
        ok = store._fixpoint(S2.data, (), lambda: store.remove(x, v))
    else:
        ok = store.narrow(x, None, v, S2.data) if how == "le" else store.narrow(x, v + 1, None, S2.data)
    return S2._settled()[0] if ok else False


def _select(S: Any, xs: tuple, select: str) -> tuple[Any, Any, FDStore] | None:
    """The next variable to label (with its domain and the store), or None when all are ints."""
    data = getattr(S, "data", S)
    store = S.constraints.get(FDStore) if hasattr(S, "constraints") else None
    domains = store.domains if store is not None else {}
    best: Any = None
    best_key: Any = None
    for x in xs:
        t = walk(x, data)
        if t.__class__ is int:
            continue
        if not is_fd_term(t) or t not in domains:
            if is_fd_term(t):
                raise ModeError(f"labelingo: variable {shown(x)} has no finite domain; give it one with domo (in/ins)")
            raise InputError(f"labelingo: {shown(t)} is not an integer or a variable (type error)")
        d = domains[t]
        if select == "leftmost":
            return t, d, store  # type: ignore[return-value]
        assert store is not None
        if select in ("ff", "ffc"):
            key: Any = store.count(d)
            if select == "ffc":
                key = (key, -sum(len(ps) for ps in store.watch.get(t, ((), (), ()))))
        elif select == "min":
            key = store.lo(t)
        else:
            key = -store.hi(t)  # type: ignore[operator]
        if best is None or key < best_key:
            best, best_key = t, key
    if best is None:
        return None
    assert store is not None
    return best, domains[best], store
