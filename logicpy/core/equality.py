"""Prolog's term identity for unification, installed into the `unification` package.

kanren unifies through `unification`'s multipledispatch `_unify`, whose fallback for two
non-variable leaves is Python's `u == v`, and whose variable case also compares walked
terms with `==`. Python equality is not Prolog's: `1 == 1.0 == True`, `0.0 == -0.0`,
`(1,) == (1.0,)`, `Fraction(1, 2) == 0.5`. In Prolog, 1 and 1.0 are different terms, the
two zeros are different floats, and `true` is an atom. Importing this module (which
`logicpy.core` does first) re-registers those two dispatches with `same_atomic`:

- numbers are equal when they have the same type and value (int, float, Fraction; a
  Fraction with denominator 1 is the integer, as in Prolog); floats compare bit for
  bit in sign, so `-0.0` and `0.0` differ;
- `True`/`False` are the atoms `true`/`false` (as the Prolog bridge and JSON write
  them), so `True` unifies with `True` and with `"true"`, never with 1 or 1.0;
- anything else compares with `==` (str atoms, `String`, user objects).

`atomic_key` is the matching hashable form, for tables, indexes and tabling keys: two
atomic terms have equal keys exactly when `same_atomic` holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import copysign
from typing import Any, Iterator

from unification.core import _unify, assoc
from unification.utils import transitive_get
from unification.variable import Var, isvar

__all__ = ["same_atomic", "atomic_key"]


def atomic_key(x: Any) -> Any:
    """The hashable identity of an atomic term: equal keys iff the terms unify (see module).

    >>> [atomic_key(t) for t in (True, 1, Fraction(2, 1))]
    ['true', 1, 2]
    >>> atomic_key(1.0) == atomic_key(1), atomic_key(-0.0) == atomic_key(0.0)
    (False, False)
    """
    kind = x.__class__
    if kind is str or kind is int:
        return x
    if kind is bool:
        return "true" if x else "false"
    if isinstance(x, float):
        return (float, float(x).hex())
    if isinstance(x, int):  # an int subclass other than bool (e.g. IntEnum)
        return int(x)
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else (Fraction, x)
    return x


def same_atomic(u: Any, v: Any) -> bool:
    """True iff the non-variable leaves u and v are the same Prolog term (see module).

    >>> same_atomic(1, 1.0), same_atomic(True, 1), same_atomic(True, "true"), same_atomic(0.0, -0.0)
    (False, False, True, False)
    """
    kind = u.__class__
    if kind is v.__class__:
        if kind is float:
            return u == v and (u != 0.0 or copysign(1.0, u) == copysign(1.0, v))
        return bool(u == v)
    return bool(atomic_key(u) == atomic_key(v))


def _unify_atomic(u: Any, v: Any, s: Mapping) -> Any:
    """`_unify` for two leaves that no other dispatch claims: Prolog identity."""
    kind = u.__class__
    if kind is v.__class__ and kind is not float:  # the common case, inlined
        return s if u == v else False
    return s if same_atomic(u, v) else False


def _unify_variable(u: Any, v: Any, s: Mapping) -> Iterator[Any]:
    """`_unify` when either side is a logic variable: bind it, or compare what both walk to.

    `unification`'s own version tests `u_w == v_w` first, which lets `1` meet `1.0`
    through a bound variable; here only identical terms or the same variable short-cut.
    """
    u_w = transitive_get(u, s)
    v_w = transitive_get(v, s) if isvar(v) else v
    if u_w is v_w:
        yield s
    elif isvar(u_w):
        yield s if u_w == v_w else assoc(s, u_w, v_w)  # a Var equals only the same Var
    elif isvar(v_w):
        yield assoc(s, v_w, u_w)
    else:
        yield _unify(u_w, v_w, s)


_unify.add((object, object, Mapping), _unify_atomic)
_unify.add((Var, Var, Mapping), _unify_variable)
_unify.add((Var, object, Mapping), _unify_variable)
_unify.add((object, Var, Mapping), _unify_variable)
