"""Clause sets that run as loops: one relation's clauses, whoever writes them.

The library's list relations (`membero`, `appendo`, `selecto`, `adjacento`, `rembero`)
are ordinary relations, Prolog's textbook clauses written with `@relation`; each is also
given a loop (`give`) that computes those clauses' answers, in their order, in one pass
over the lists (no search step per element, a proper list's length used to rule out splits
that cannot fit), in every mode or in those it covers (the clauses run in the others). Any relation whose clauses are, up to the names of their variables and the order of
its arguments, the clauses of one of them runs as that loop: a user's member/2 written in
Python or consulted from Prolog is as fast as the library's, because it is the same
relation (as a C compiler runs a copying loop as memcpy).

The comparison is of shapes (`shape`): each clause's head arguments and body calls with
the variables numbered in order of appearance, lists as cells, the head's equations solved
first (so `eq(xs, [])` and `eq(ys, zs)` give the head `([], Y, Y)` as Prolog writes it), a
call of the relation itself marked as such and `neq` as dif/2. A relation with a clause
more or less, another order of clauses or of goals, or a goal of another kind has another
shape and runs its own clauses. `ENABLED = False` runs every relation as its clauses: the
tests compare the loops with the clauses they stand for that way.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction
from itertools import permutations
from typing import Any, Callable, Iterator, Sequence

from cons.core import ConsPair
from immutables import Map

from .clauses import DIF, SELF, clause_terms
from .terms import String, Suffix, Variable

#: Whether relations whose clauses have a given loop's shape run as that loop (read at
#: each call).
ENABLED = True

#: Arity -> the relations given a loop whose shapes are not in `_by_shape` yet, each
#: (relation function, loop, clauses_when): read at the first relation of that arity.
_unread: dict[int, list[tuple[Callable[..., Any], Callable[..., Any], Any]]] = {}
_by_shape: dict[Any, "Runs"] = {}


class Runs:
    """A relation that runs as `loop`, given for the relation `name` whose arguments are
    the call's in `order`; `clauses_when(S, *args)`, if given, says when its clauses run
    instead (a mode the loop does not cover, or a self-call's name rebound); `leaves_modes`,
    whether the loop leaves some modes to the clauses."""

    __slots__ = ("loop", "order", "name", "clauses_when", "as_called", "leaves_modes")

    def __init__(self, loop: Callable[..., Any], order: tuple[int, ...], name: str,
                 clauses_when: Callable[..., bool] | None = None, leaves_modes: bool | None = None):
        self.loop, self.order, self.name, self.clauses_when = loop, order, name, clauses_when
        self.as_called = order == tuple(range(len(order)))
        self.leaves_modes = clauses_when is not None if leaves_modes is None else leaves_modes

    def make(self, args: Sequence[Any]) -> Any:
        """The loop's goal for a call of the relation on `args` (a function of the state)."""
        return self.loop(*args) if self.as_called else self.loop(*[args[i] for i in self.order])

    def leaves(self, S: Any, args: Sequence[Any]) -> bool:
        """Whether the call on `args` in state S runs the clauses (a mode the loop leaves)."""
        return self.clauses_when is not None and self.clauses_when(S, *[args[i] for i in self.order])

    def goal(self, S: Any, args: Sequence[Any]) -> Any:
        """The loop's goal for a call on `args` in state S, or None when the clauses run."""
        if self.leaves(S, args):
            return None
        return self.make(args)


def run_here(S: Any, search: Any) -> bool:
    """Whether a call reached in state S by `search` may run as its loop: while `ENABLED`,
    in a plain substitution (a `Map`) or in Prolog's order. In the interleaved order a state
    with constraints or the occurs check runs the clauses as written, each alternative a task
    of its own made when the call is reached, an order the loops do not reproduce: the
    clauses run there."""
    return ENABLED and (S.__class__ is Map or search.order == "prolog")


@contextlib.contextmanager
def disabled() -> Iterator[None]:
    """Within the block, every relation runs as its clauses, loop or not: what the loops
    are compared with."""
    global ENABLED
    before, ENABLED = ENABLED, False
    try:
        yield
    finally:
        ENABLED = before


class NoShape(Exception):
    """The clauses hold something a shape does not describe."""


def give(function: Callable[..., Any], loop: Callable[..., Any],
         clauses_when: Callable[..., bool] | None = None) -> None:
    """Run the `@relation` `function`, and every relation with its clauses' shape, as
    `loop` (a function of the relation's arguments returning a goal), except where
    `clauses_when(S, *args)` (a mode the loop leaves to the clauses). Its clauses are read
    at the first relation of its arity compiled after it."""
    rel = function.relation  # type: ignore[attr-defined]
    _unread.setdefault(rel.arity, []).append((function, loop, clauses_when))
    rel.runs = Runs(loop, tuple(range(rel.arity)), function.__name__, clauses_when)  # known without its clauses


def runs_as(clauses: Sequence[tuple[tuple, list[tuple[str, tuple]]]],
            still_self: Callable[[], bool] | None = None) -> Runs | None:
    """The loop a relation with these clauses runs as (each clause (head arguments, body
    calls), as `shape` takes them), or None. `still_self()`, if given, says whether the
    clauses' calls marked `SELF` still call the relation (a name rebound since they were
    read calls another): the loop runs only while they do, the clauses otherwise."""
    if not clauses:
        return None
    unread = _unread.pop(len(clauses[0][0]), [])
    if unread:
        for function, loop, clauses_when in unread:
            own = clause_terms(function.relation.fn)  # type: ignore[attr-defined]
            if own is None:
                raise NoShape(f"{function.__name__}: its clauses have no shape")
            n = len(own[0][0])
            for order in permutations(range(n)):
                # the relation's arguments put in `order`: a call in that order gives them back
                moved = [(tuple(head[i] for i in order),
                          [(callee, tuple(args[i] for i in order) if callee == SELF else args)
                           for callee, args in body]) for head, body in own]
                _by_shape.setdefault(shape(moved), Runs(loop, tuple(order.index(i) for i in range(n)),
                                                        function.__name__, clauses_when))
    try:
        found = _by_shape.get(shape(clauses))
    except NoShape:
        return None
    if found is None or still_self is None:
        return found
    when = found.clauses_when
    return Runs(found.loop, found.order, found.name,
                (lambda S, *args: not still_self() or when(S, *args)) if when is not None
                else (lambda S, *args: not still_self()), found.leaves_modes)


def shape(clauses: Sequence[tuple[tuple, list[tuple[str, tuple]]]]) -> tuple:
    """The clauses (each its head's argument terms and its body's calls, (callee, argument
    terms), the callee `SELF`, `DIF` or a name) with their variables numbered in order of
    appearance: equal for clauses that differ only in their variables' names. Each term is a
    flat tuple of its nodes in prefix order, built without recursion and hashed without
    nesting. `NoShape` for a term of another kind, and for clauses of more than
    `MAX_SHAPE` term nodes (larger than any loop's)."""
    out = []
    budget = [MAX_SHAPE]
    for head, body in clauses:
        numbers: dict = {}
        head_shape = tuple(_term_shape(t, numbers, budget) for t in head)
        calls = []
        for callee, args in body:
            shapes = tuple(_term_shape(t, numbers, budget) for t in args)
            if callee == DIF:  # symmetric: one order
                shapes = tuple(sorted(shapes, key=repr))
            calls.append((callee, shapes))
        out.append((head_shape, tuple(calls)))
    return tuple(out)


#: Term nodes in a relation's clauses past which they have no shape: the loops' clauses
#: have a few dozen, and a shape costs at most this much work, whatever the clauses hold.
MAX_SHAPE = 500

_ATOMIC = (int, str, float, bool, String, Fraction)


class _Mark:
    """A node of a shape that is not a term: a list cell, or the empty list ending one."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


_CELL, _END = _Mark("|"), _Mark("[]")


def _term_shape(term: Any, numbers: dict, budget: list) -> tuple:
    """The shape of one term: its nodes in prefix order (a list cell `_CELL` before its
    element and its tail, `_END` for the empty list, a compound ("()", size) before its
    arguments), each variable ("_", its number in `numbers`), each atom (type name, value).
    Counts its nodes off `budget[0]`: `NoShape` past it."""
    out: list = []
    stack = [term]
    while stack:
        t = stack.pop()
        k = t.__class__
        if k is _Mark:
            out.append(t)
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise NoShape("clauses larger than any loop's")
        if k is Variable:
            n = numbers.get(t)
            if n is None:
                n = numbers[t] = len(numbers)
            out.append(("_", n))
        elif k in _ATOMIC:
            out.append((k.__name__, t))
        elif k is ConsPair:
            out.append(_CELL)
            stack.append(t.cdr)
            stack.append(t.car)
        elif k is list or k is Suffix or k is tuple:
            if len(t) > budget[0]:
                raise NoShape("clauses larger than any loop's")
            if k is tuple:
                out.append(("()", len(t)))
                stack.extend(reversed(t))
                continue
            items = t if k is list else t.to_list()
            stack.append(_END)
            for item in reversed(items):
                stack.append(item)
                stack.append(_CELL)
        else:
            raise NoShape(f"a term of type {k.__name__}")
    return tuple(out)
