"""List relations for the relational core: Prolog's library(lists), as kanren goals.

`membero`, `appendo`, `selecto`, `adjacento` and `rembero` are relations like any a user
writes: Prolog's clauses of member/2, append/3, select/3, nextto/3 and rembero's three
(kanren's meaning) in `@relation`. Each is given a loop (`loops.give`, the loops in
`listloops`) that runs those clauses in one pass over the lists, and so is every relation
with the same clauses, whatever its variables are called and its arguments' order,
written in Python or consulted from Prolog. A list argument given as another Python
object (a tuple, a number) is an error at the call; a value bound during the search that
is not a list simply fails, as in Prolog.

`lengtho`, `permuteo`, `distincto` and `nth1o` are goals of their own (`listloops`): their
meaning needs integers or tests of how bound a list is (as SWI-Prolog's length/2 and
permutation/2), which clauses of the core cannot state.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, ParamSpec

from . import loops
from ._spine import check_list_argument
from .disequality import neq
from .listloops import (append_loop, distincto, lengtho, member_loop, nextto_loop, nth1o, permuteo, rember_loop,
                        rember_runs_clauses, select_loop)
from .procedures import LoopCall, relation
from .streams import Apply, conde, eq
from .terms import Variable, cons
from .terms import vars as fresh

P = ParamSpec("P")

__all__ = ["membero", "appendo", "lengtho", "selecto", "rembero", "permuteo", "distincto", "nth1o", "adjacento"]


def _list_relation(*lists: str) -> Callable[[Callable[P, Any]], Callable[P, Apply]]:
    """`@relation`, the arguments named `lists` checked at each call to be a list, a
    partial list or a variable (`check_list_argument`)."""

    def make(fn: Callable[P, Any]) -> Callable[P, Apply]:
        call = relation(fn)
        rel = call.relation  # type: ignore[attr-defined]
        checks = [(list(inspect.signature(fn).parameters).index(name), name) for name in lists]

        @functools.wraps(fn)
        def checked(*args: P.args, **keywords: P.kwargs) -> Apply:
            goal = LoopCall(rel, args) if not keywords and len(args) == rel.arity else call(*args, **keywords)
            for i, name in checks:
                kind = goal.args[i].__class__
                if kind is not list and kind is not Variable:  # the common cases, at once
                    check_list_argument(fn.__name__, name, goal.args[i])
            return goal

        checked.relation = rel  # type: ignore[attr-defined]
        rel.function = checked  # its calls in its clauses are its own
        return checked

    return make


@_list_relation("xs")
def membero(x: Any, xs: Any) -> Any:
    """membero(?x, ?xs): True iff x is an element of list xs (member/2).

    One answer per matching position, in order; O(len(xs)) on a proper list. On a partial
    list it goes on to extend the tail without end, like Prolog's member/2.

    >>> from logicpy.core import run, var
    >>> q = var()
    >>> run(0, q, membero(3, [1, q]))
    (3,)
    """
    head, tail = fresh(2)
    return conde([eq(xs, cons(x, tail))],
                 [eq(xs, cons(head, tail)), membero(x, tail)])


@_list_relation("xs", "ys", "zs")
def appendo(xs: Any, ys: Any, zs: Any) -> Any:
    """appendo(?xs, ?ys, ?zs): True iff zs is xs followed by ys (append/3).

    Terminates when xs or zs is a proper list: one answer in O(len(xs)) when xs is, the
    len(zs) + 1 splits in order when zs is (one when ys is proper too); otherwise
    enumerates longer and longer xs.

    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, (x, y), appendo(x, y, [1, 2]))
    (([], [1, 2]), ([1], [2]), ([1, 2], []))
    """
    head, tail, rest = fresh(3)
    return conde([eq(xs, []), eq(ys, zs)],
                 [eq(xs, cons(head, tail)), eq(zs, cons(head, rest)), appendo(tail, ys, rest)])


@_list_relation("xs", "ys")
def selecto(x: Any, xs: Any, ys: Any) -> Any:
    """selecto(?x, ?xs, ?ys): True iff ys is xs with one occurrence of x taken out (select/3).

    Terminates when xs or ys is a proper list (one answer per position, in order); with
    both open it gives select/3's answers, x at the first cell, the second, ... without end.

    >>> from logicpy.core import run, var
    >>> xs = var()
    >>> run(0, xs, selecto(0, xs, [1, 2]))
    ([0, 1, 2], [1, 0, 2], [1, 2, 0])
    """
    head, tail, rest = fresh(3)
    return conde([eq(xs, cons(x, tail)), eq(ys, tail)],
                 [eq(xs, cons(head, tail)), eq(ys, cons(head, rest)), selecto(x, tail, rest)])


@_list_relation("xs")
def adjacento(x: Any, y: Any, xs: Any) -> Any:
    """adjacento(?x, ?y, ?xs): True iff y comes directly after x in list xs (nextto/3).

    One answer per position, in order; O(len(xs)) on a proper list, endless on a partial one.

    >>> from logicpy.core import run, var
    >>> q = var()
    >>> run(0, q, adjacento(q, "c", ["a", "b", "c"]))
    ('b',)
    """
    head, tail = fresh(2)
    return conde([eq(xs, cons(x, y, tail))],
                 [eq(xs, cons(head, tail)), adjacento(x, y, tail)])


@_list_relation("xs", "ys")
def rembero(x: Any, xs: Any, ys: Any) -> Any:
    """rembero(?x, ?xs, ?ys): True iff ys is xs without its first element equal to x, or xs
    itself when no element equals x (kanren's meaning).

    The elements before the removed one are constrained with `neq` to differ from x.
    Terminates when xs or ys is a proper list; with both open the clauses run, without end.

    >>> from logicpy.core import run, var
    >>> xs = var()
    >>> run(0, xs, rembero(1, xs, [2, 3]))
    ([1, 2, 3], [2, 1, 3], [2, 3, 1], [2, 3])
    """
    head, tail, rest = fresh(3)
    return conde([eq(xs, cons(x, tail)), eq(ys, tail)],
                 [eq(xs, cons(head, tail)), eq(ys, cons(head, rest)), neq(x, head), rembero(x, tail, rest)],
                 [eq(xs, []), eq(ys, [])])


loops.give(membero, member_loop)
loops.give(appendo, append_loop)
loops.give(selecto, select_loop)
loops.give(adjacento, nextto_loop)
loops.give(rembero, rember_loop, rember_runs_clauses)
