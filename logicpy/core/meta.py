"""Non-relational goals that look at the current state: `project` and the type tests.

Their answers depend on how far the search has got, not only on the terms, so they are
not relations: `run(0, x, varo(x), eq(x, 1))` has an answer and `run(0, x, eq(x, 1),
varo(x))` has none (as Prolog's `var/1`). Use them to guard a call in one mode, or to
hand bound values to Python.
"""

from __future__ import annotations

import inspect
import os
from fractions import Fraction
from typing import Any, Callable

from cons.core import ConsPair
from unification import reify
from unification.core import isground

from ..errors import InputError, shown
from ._spine import bindings, walk
from .streams import Scheduled, Search, goal_text
from .terms import String, Suffix, is_var

__all__ = ["project", "varo", "nonvaro", "groundo", "atomico", "numbero"]


def project(*variables: Any) -> Callable[[Callable[..., Any]], Any]:
    """project(v1, ..., vn)(fn): the goal `fn(t1, ..., tn)`, where ti is vi reified in the
    current state (core.logic's `project`; what is still unbound stays a variable).

    `fn` is called when the search reaches the goal, and must return a goal, which then
    runs in the same search.

    >>> from logicpy.core import run, var, eq, membero
    >>> x, y = var(), var()
    >>> run(0, y, membero(x, [1, 2, 3]), project(x)(lambda v: eq(y, v * v)))
    (1, 4, 9)
    """

    def projecting(fn: Callable[..., Any]) -> Any:
        if not callable(fn):
            raise InputError(f"project: {shown(fn)} is not a function of the projected values returning a goal")
        try:
            inspect.signature(fn).bind(*variables)
        except TypeError:
            raise InputError(f"project: {_function_name(fn)} cannot take the {len(variables)} projected "
                             f"value{'s' if len(variables) != 1 else ''} ({shown(list(variables))[1:-1]})") from None
        except ValueError:  # a builtin without a signature: called as it is
            pass
        return _Project(variables, fn)

    return projecting


class _Project(Scheduled):
    """The goal `fn(*variables reified)`, built when the search reaches it."""

    __slots__ = ("variables", "fn")

    def __init__(self, variables: tuple, fn: Callable[..., Any]):
        self.variables, self.fn = variables, fn

    def schedule(self, S: Any, K: Any, search: Search):
        values = reify(self.variables, S)
        goal = self.fn(*values)
        if not callable(goal):
            raise InputError(f"project: {_function_name(self.fn)} returned {shown(goal)} for "
                             f"{shown(list(values))[1:-1]}, not a goal (a goal is, e.g., eq(y, v))")
        return (S,), (goal, K)

    def __repr__(self) -> str:
        return goal_text("project", self.variables)


def _function_name(fn: Callable[..., Any]) -> str:
    """`fn` as a message names it: its name, a lambda by where it is written."""
    name = getattr(fn, "__name__", None) or repr(fn)
    code = getattr(fn, "__code__", None)
    if name == "<lambda>" and code is not None:
        return f"the lambda at {os.path.basename(code.co_filename)}:{code.co_firstlineno}"
    return name


def _test(name: str, holds: Callable[[Any, Any], bool], doc: str) -> Callable[[Any], Any]:
    def type_test(term: Any) -> Any:
        def type_test_goal(S):
            return (S,) if holds(walk(term, S), S) else ()

        type_test_goal.__name__ = f"{name}_goal"
        return type_test_goal

    type_test.__name__ = type_test.__qualname__ = name
    type_test.__doc__ = doc
    return type_test


def _atomic(t: Any, S: Any) -> bool:
    return isinstance(t, (str, int, float, Fraction, String)) or t == []


varo = _test("varo", lambda t, S: is_var(t),
             "varo(?t): True iff t is an unbound variable now (Prolog's var/1; non-relational).")
nonvaro = _test("nonvaro", lambda t, S: not is_var(t),
                "nonvaro(?t): True iff t is bound now (Prolog's nonvar/1; non-relational).")
def _ground(term: Any, S: Any) -> bool:
    """True iff `term` holds no unbound variable in `S`: a loop visiting each bound variable
    and each list or tuple once, so shared and cyclic terms cost their size, not more."""
    s = bindings(S)
    seen: set = set()
    stack = [term]
    while stack:
        t = stack.pop()
        kind = type(t)
        if kind is str or kind is int:
            continue
        if is_var(t):
            if t in seen:
                continue
            seen.add(t)
            t = s.get(t, _UNBOUND)
            if t is _UNBOUND:
                return False
            stack.append(t)
        elif kind is list or kind is tuple or kind is Suffix:
            key = (id(t.items), t.start) if kind is Suffix else id(t)
            if key in seen:
                continue
            seen.add(key)
            stack.extend(t.items[t.start:] if kind is Suffix else t)
        elif issubclass(kind, ConsPair):
            stack.append(t.cdr)
            stack.append(t.car)
        elif kind not in _LEAVES and not isground(t, s):
            return False
    return True


_UNBOUND = object()
_LEAVES = frozenset({bool, float, Fraction, String})

groundo = _test("groundo", _ground,
                "groundo(?t): True iff t holds no unbound variable now (Prolog's ground/1; non-relational).")
atomico = _test("atomico", _atomic,
                "atomico(?t): True iff t is now an atom, number, string or [] (Prolog's atomic/1; "
                "non-relational).")
numbero = _test("numbero", lambda t, S: isinstance(t, (int, float, Fraction)) and not isinstance(t, bool),
                "numbero(?t): True iff t is now a number (Prolog's number/1; non-relational).")
