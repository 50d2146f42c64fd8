"""Private helpers shared by the core relations: walking list spines without recursion,
building list terms, posting a goal on one state, and hashable keys for reified terms.

A list term is a Python `list` (proper), or a chain of `cons` pairs ending in a logic
variable (partial) or in something else (improper). Tuples are compound terms, never lists.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from cons.core import ConsPair
from unification import isvar
from unification.utils import transitive_get

from ..errors import TermError, shown
from .equality import atomic_key

EMPTY: list = []


def bindings(S: Any) -> Any:
    """The plain substitution mapping of a kanren state (a dict or a ConstrainedState)."""
    return getattr(S, "data", S)


def walk(term: Any, S: Any) -> Any:
    """What `term` is bound to in state `S`, one level deep (its own chain of variables)."""
    return transitive_get(term, bindings(S))


def spine(xs: Any, S: Any) -> tuple[list, Any]:
    """Walk the list `xs` in `S`: its known elements and its tail.

    The tail is `[]` for a proper list, a logic variable for a partial list, and any other
    term for an improper one. A proper Python list comes back as is (callers never mutate
    it); a `cons` chain is walked in a loop, so length never costs recursion depth.
    """
    d = bindings(S)
    xs = transitive_get(xs, d)
    if type(xs) is list:
        return xs, EMPTY
    items: list = []
    while issubclass(type(xs), ConsPair):
        items.append(xs.car)
        xs = transitive_get(xs.cdr, d)
    if type(xs) is list:
        return items + xs, EMPTY
    return items, xs


def is_open(tail: Any) -> bool:
    """True iff a spine's tail is an unbound variable, i.e. the list can still grow."""
    return isvar(tail)


def chain(items: list, tail: Any) -> Any:
    """The list term of `items` followed by `tail` (a list, or a variable for a partial list)."""
    if type(tail) is list:
        return list(items) + tail
    term = tail
    for item in reversed(items):
        term = ConsPair(item, term)
    return term


def post(goal: Callable[[Any], Iterator[Any]], S: Any) -> Any:
    """The first state `goal` gives on `S`, or None: for deterministic goals such as `neq`."""
    return next(iter(goal(S)), None)


def check_list_argument(relation: str, name: str, term: Any) -> None:
    """Reject a literal non-list where a relation expects a list (a tuple is a compound term).

    Only the Python object given at construction is checked; values bound during the search
    simply fail to unify, as in Prolog.
    """
    if isvar(term) or type(term) is list or issubclass(type(term), ConsPair):
        return
    hint = " (a tuple is a compound term in logicpy; write lists as Python lists)" if isinstance(term, tuple) else ""
    raise TermError(f"{relation}: argument {name} must be a list, a partial list or a variable, got {shown(term)}{hint}")


def hashable_key(term: Any) -> Any:
    """A hashable stand-in for a reified term: equal keys iff the (ground) terms unify.

    Lists and partial lists become tuples tagged by type objects, so no term can collide
    with another's key; atomic terms use `atomic_key` (1, 1.0 and True stay apart).
    """
    kind = type(term)
    if kind is list:
        return (list, tuple(hashable_key(t) for t in term))
    if kind is tuple:
        return tuple(hashable_key(t) for t in term)
    if issubclass(kind, ConsPair):
        return (ConsPair, hashable_key(term.car), hashable_key(term.cdr))
    key = atomic_key(term)
    try:
        hash(key)
    except TypeError:
        raise TermError(f"{term!r} cannot be used as a key: it is not a logicpy term") from None
    return key
