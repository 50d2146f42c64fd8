"""Private helpers shared by the core relations: walking list spines without recursion,
building list terms, posting a goal on one state, and hashable keys for reified terms.

A list term is a Python `list` or a `Suffix` of one (proper), or a chain of `cons` pairs
ending in a proper list (proper), in a logic variable (partial) or in something else
(improper). Tuples are compound terms, never lists. A chain that comes back to one of its
own variables is cyclic (only possible without the occurs check).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from cons.core import ConsPair

from ..errors import TermError, shown
from .equality import atomic_key
from .equality import walk as _walk
from .terms import Suffix, _cell, _opened, is_var, list_parts

EMPTY: list = []


def bindings(S: Any) -> Any:
    """The plain substitution mapping of a kanren state (a dict or a ConstrainedState)."""
    return getattr(S, "data", S)


def walk(term: Any, S: Any) -> Any:
    """What `term` is bound to in state `S`, one level deep (its own chain of variables)."""
    return _walk(term, bindings(S))


class Cycle:
    """The tail `spine` gives for a cyclic list: its elements repeat from `items[start]` on."""

    __slots__ = ("start",)

    def __init__(self, start: int):
        self.start = start

    def __repr__(self) -> str:
        return f"Cycle({self.start})"


def spine(xs: Any, S: Any, cyclic: bool = False) -> tuple[list, Any]:
    """Walk the list `xs` in `S`: its known elements and its tail.

    The tail is `[]` for a proper list, a logic variable for a partial list, and any other
    term for an improper one. A proper Python list comes back as is (callers never mutate
    it); a `cons` chain is walked in a loop, so length never costs recursion depth. A
    cyclic list raises `TermError`, or with `cyclic=True` gives one round of its elements
    and a `Cycle` tail.
    """
    d = bindings(S)
    start = xs
    xs = _walk(xs, d)
    kind = type(xs)
    if kind is list:
        return xs, EMPTY
    if kind is Suffix:
        return xs.to_list(), EMPTY
    items: list = []
    hops = 0
    limit = len(d)
    while kind is ConsPair:
        items.append(xs.car)
        xs = xs.cdr
        while is_var(xs):
            nxt = d.get(xs, _UNBOUND)
            if nxt is _UNBOUND:
                break
            hops += 1
            if hops > limit:  # more variables than bindings: the chain came back
                return _cycle(start, d, cyclic)
            xs = nxt
        kind = type(xs)
    parts = list_parts(xs)
    if parts is not None:
        items.extend(parts[0][parts[1]:])
        return items, EMPTY
    return items, xs


_UNBOUND = object()


class CyclicList(TermError):
    """A list that comes back to itself met where a proper or partial one was needed."""


def _cycle(xs: Any, d: Any, cyclic: bool) -> tuple[list, Any]:
    """The cyclic list `xs`'s elements up to where it comes back, and its `Cycle`."""
    if not cyclic:
        raise CyclicList("a cyclic list (bound, through a variable, to a list that contains it) has no end; "
                        "use eq_oc or run(..., occurs_check=True) to fail such bindings")
    met: dict = {}
    items: list = []
    while True:
        while is_var(xs):
            if xs in met:
                return items, Cycle(met[xs])
            met[xs] = len(items)
            xs = d[xs]
        items.append(xs.car)
        xs = xs.cdr


def is_open(tail: Any) -> bool:
    """True iff a spine's tail is an unbound variable, i.e. the list can still grow."""
    return is_var(tail)


def chain(items: list, tail: Any) -> Any:
    """The list term of `items` followed by `tail` (a list, or a variable for a partial list)."""
    if type(tail) is list:
        return list(items) + tail
    if type(tail) is Suffix:
        return list(items) + tail.to_list()
    term = tail
    for item in reversed(items):
        term = _cell(item, term)  # a cell on any tail (the cons package prepends to a tuple)
    return term


def post(goal: Callable[[Any], Iterable[Any]], S: Any) -> Any:
    """The first state `goal` gives on `S`, or None: for deterministic goals such as `neq`."""
    return next(iter(goal(S)), None)


def check_list_argument(relation: str, name: str, term: Any) -> None:
    """Reject a literal non-list where a relation expects a list (a tuple is a compound term).

    Only the Python object given at construction is checked; values bound during the search
    simply fail to unify, as in Prolog.
    """
    if is_var(term) or type(term) is list or type(term) is Suffix or issubclass(type(term), ConsPair):
        return
    hint = " (a tuple is a compound term in logicpy; write lists as Python lists)" if isinstance(term, tuple) else ""
    raise TermError(f"{relation}: argument {name} must be a list, a partial list or a variable, got {shown(term)}{hint}")


#: The markers that open a list, a compound and a partial list in `hashable_key`'s flat form.
_LIST, _COMPOUND, _PARTIAL = (list,), (tuple,), (ConsPair,)


def hashable_key(term: Any) -> Any:
    """A hashable stand-in for a reified term: equal keys iff the (ground) terms unify.

    An atomic term is its `atomic_key` (1, 1.0 and True stay apart); any other term is a
    flat tuple, its nodes in order, each list, compound or partial list opened by a marker
    and its size, so a key is built without recursion and hashed without nesting. Every
    form of a proper list (a list, a `Suffix`, cons cells before a list) has one key.
    """
    kind = type(term)
    if kind is not list and kind is not tuple and kind is not Suffix and not issubclass(kind, ConsPair):
        return _atomic(term)
    out: list = []
    append = out.append
    stack = [term]
    open_ids: set = set()
    while stack:
        t = stack.pop()
        kind = type(t)
        if kind is _Close:
            open_ids.discard(t.key)
            continue
        if kind is list or kind is Suffix or kind is tuple:
            stack.append(_Close(_opened(t, open_ids)))
        if kind is list or kind is Suffix:
            items = t if kind is list else t.to_list()
            append(_LIST)
            append(len(items))
            stack.extend(reversed(items))
        elif kind is tuple:
            append(_COMPOUND)
            append(len(t))
            stack.extend(reversed(t))
        elif issubclass(kind, ConsPair):
            items, tail = [], t
            while issubclass(type(tail), ConsPair):
                items.append(tail.car)
                tail = tail.cdr
            parts = list_parts(tail)
            if parts is not None:
                items.extend(parts[0][parts[1]:])
                append(_LIST)
            else:
                stack.append(tail)
                append(_PARTIAL)
            append(len(items))
            stack.extend(reversed(items))
        else:
            append(_atomic(t))
    return tuple(out)


class _Close:
    """A marker on `hashable_key`'s stack: the container with this key is complete."""

    __slots__ = ("key",)

    def __init__(self, key: int):
        self.key = key


def _atomic(term: Any) -> Any:
    key = atomic_key(term)
    try:
        hash(key)
    except TypeError:
        raise TermError(f"{term!r} cannot be used as a key: it is not a logicpy term") from None
    return key
