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

The occurs check (refusing to bind a variable to a term that contains it) is off by
default, as in Prolog, and turned on by the `occurs_check` context (what `eq_oc` and
`run(..., occurs_check=True)` use). Without it a binding can make a cyclic term; the
unifier then treats a pair of variables it is already unifying further up as unified
(rational-tree unification), so it never loops, and `check_acyclic` lets `run` refuse
to print such an answer.

A variable hashes by its token alone (`unification` builds a tuple per hash; 11 % of an FD
search's time). Fast paths (measured in docs/architecture.md): on a plain substitution, a dict or the
persistent `immutables.Map` that `run` uses, `unify` and `reify` dispatch to one loop over
logicpy's term types (`_unify_dict_fast`, `reify_dict`), with the same results as the
dispatching versions, which they fall back to for any other type.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import contextmanager
from fractions import Fraction
from math import copysign
from typing import Any, Iterator

from cons.core import ConsPair, cons
from immutables import Map
from kanren.constraints import ConstrainedVar
from unification.core import _reify, _unify, assoc, reify, stream_eval, unify
from unification.utils import transitive_get
from unification.variable import Var, isvar

from .terms import String, Suffix, _opened, is_var, rest_of

__all__ = ["same_atomic", "atomic_key", "occurs_check", "occurs", "check_acyclic", "reify_dict", "unify_state", "walk"]

#: [on]: whether unification checks occurs now (set only through `occurs_check`).
_OCCURS_CHECK = [False]
#: Pairs of terms (by id) being unified through variables on the current unification path.
_UNIFYING: set = set()


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


@contextmanager
def occurs_check(on: bool = True) -> Iterator[None]:
    """Unifications inside the `with` block check occurs (`on`) or do not."""
    previous = _OCCURS_CHECK[0]
    _OCCURS_CHECK[0] = on
    try:
        yield
    finally:
        _OCCURS_CHECK[0] = previous


_UNBOUND = object()


def walk(t: Any, s: Mapping) -> Any:
    """What `t` is bound to in the substitution `s`: only variables are looked up, so a
    term is never hashed (a cons pair's hash recurses along the list)."""
    while is_var(t):
        nxt = s.get(t, _UNBOUND)
        if nxt is _UNBOUND:
            return t
        t = nxt
    return t


def occurs(v: Var, term: Any, s: Mapping) -> bool:
    """True iff the unbound variable `v` occurs in `term` under the substitution `s`."""
    stack = [term]
    seen: dict = {}  # id of a list or tuple -> the least start already scanned
    while stack:
        t = walk(stack.pop(), s)
        if t is v:
            return True
        kind = t.__class__
        if kind is tuple or kind is list or kind is Suffix:
            items, start = (t.items, t.start) if kind is Suffix else (t, 0)
            scanned = seen.get(id(items))
            if scanned is None or start < scanned:
                seen[id(items)] = start
                stack.extend(items[start:scanned])
        elif issubclass(kind, ConsPair):
            stack.append(t.cdr)
            stack.append(t.car)
    return False


def check_acyclic(term: Any, state: Any) -> None:
    """Raise `TermError` if `term` is cyclic in `state` (a variable bound, through its
    binding, to a term containing itself: only possible without the occurs check)."""
    s = getattr(state, "data", state)
    if not s:
        return
    path: set = set()
    done: set = set()
    open_ids: set = set()  # Python lists and tuples being walked around this place
    stack: list = [term]
    while stack:
        t = stack.pop()
        if t.__class__ is _Leave:
            if t.var is None:
                open_ids.discard(t.key)
                continue
            path.discard(t.var)
            done.add(t.var)
            continue
        if is_var(t):
            if t in done or t not in s:
                continue
            value = s[t]
            if t in path or id(value.items if value.__class__ is Suffix else value) in open_ids:
                from ..errors import TermError
                raise TermError(f"the answer is a cyclic term: {t} is bound to a term containing itself "
                                "(use eq_oc or run(..., occurs_check=True) to fail such bindings instead)")
            path.add(t)
            stack.append(_Leave(t))
            stack.append(value)
            continue
        kind = t.__class__
        if kind is tuple or kind is list or kind is Suffix:
            stack.append(_Leave(None, _opened(t, open_ids)))
            stack.extend(t if kind is not Suffix else t.to_list())
        elif issubclass(kind, ConsPair):
            stack.append(t.cdr)
            stack.append(t.car)


class _Leave:
    """A marker on `check_acyclic`'s stack: the variable's binding has been walked, or
    (`var` None) the list or tuple with this key."""

    __slots__ = ("var", "key")

    def __init__(self, var: Var | None, key: int = 0):
        self.var = var
        self.key = key


def _unify_variable(u: Any, v: Any, s: Mapping) -> Iterator[Any]:
    """`_unify` when either side is a logic variable: bind it, or compare what both walk to.

    `unification`'s own version tests `u_w == v_w` first, which lets `1` meet `1.0`
    through a bound variable; here only identical terms or the same variable short-cut.
    With the occurs check on, a variable is not bound to a term containing it. Two bound
    sides already being unified further up this path count as unified (see module).
    """
    u_w = transitive_get(u, s)
    v_w = transitive_get(v, s) if isvar(v) else v
    if u_w is v_w:
        yield s
    elif isvar(u_w):
        if u_w == v_w:  # a Var equals only the same Var
            yield s
        elif _OCCURS_CHECK[0] and not isvar(v_w) and occurs(u_w, v_w, s):
            yield False
        else:
            yield assoc(s, u_w, v_w)
    elif isvar(v_w):
        if _OCCURS_CHECK[0] and occurs(v_w, u_w, s):
            yield False
        else:
            yield assoc(s, v_w, u_w)
    else:
        pair = (id(u_w), id(v_w))
        if pair in _UNIFYING:
            yield s
            return
        _UNIFYING.add(pair)
        try:
            result = yield _unify(u_w, v_w, s)
        finally:
            _UNIFYING.discard(pair)
        yield result


#: Leaf types the fast path compares itself (`same_atomic`); any other type falls back.
_FAST_ATOMIC = frozenset({str, int, float, bool, String, Fraction})
_FALL_BACK = object()
#: The forms of a proper list: a Python list, or a `Suffix` sharing one.
_PROPER = frozenset({list, Suffix})


def _unify_dict_fast(u: Any, v: Any, s: dict) -> Any:
    """`unify(u, v, s)` for a plain dict `s` and the term types logicpy uses (variables,
    tuples, lists and their suffixes, cons pairs, str, int, float, bool, `String`,
    `Fraction`): the same result as the dispatching unifier, without its per-node dispatch
    and generator, and copying `s` once instead of once per binding. A list met by a cons
    pair gives its tail as a `Suffix`, never a copy. Returns `_FALL_BACK` on any other type
    (the caller then uses the dispatching unifier from the original `s`)."""
    out = None  # the copy of s, made at the first binding
    d = s
    occurs_on = _OCCURS_CHECK[0]
    through_vars: set = set()
    stack = [(u, v)]
    pop = stack.pop
    push = stack.append
    get = d.get
    while stack:
        a, b = pop()
        if a is b:
            continue
        via_var = False
        ka = a.__class__
        if ka is Var:  # walk, hashing each variable once (transitive_get hashes twice)
            nxt = get(a, _UNBOUND)
            while nxt is not _UNBOUND:
                a = nxt
                nxt = get(a, _UNBOUND) if a.__class__ is Var else _UNBOUND
            ka = a.__class__
            via_var = True
        kb = b.__class__
        if kb is Var:
            nxt = get(b, _UNBOUND)
            while nxt is not _UNBOUND:
                b = nxt
                nxt = get(b, _UNBOUND) if b.__class__ is Var else _UNBOUND
            kb = b.__class__
            via_var = True
        if a is b:
            continue
        if ka is Var or kb is Var:
            if ka is not Var:
                a, b = b, a
                kb = ka
            if occurs_on and kb is not Var and occurs(a, b, d):
                return False
            if out is None:
                out = d = s.mutate() if s.__class__ is Map else dict(s)
                get = d.get
            out[a] = b
            continue
        if ka is kb and ka is tuple:
            if len(a) != len(b):
                return False
            if via_var:
                pair = (id(a), id(b))
                if pair in through_vars:
                    continue
                through_vars.add(pair)
            for i in range(len(a) - 1, -1, -1):
                push((a[i], b[i]))
            continue
        if ka in _PROPER and kb in _PROPER:
            a_items, a_start = (a, 0) if ka is list else (a.items, a.start)
            b_items, b_start = (b, 0) if kb is list else (b.items, b.start)
            n = len(a_items) - a_start
            if n != len(b_items) - b_start:
                return False
            if a_items is b_items and a_start == b_start:
                continue
            if via_var:
                pair = (id(a), id(b))
                if pair in through_vars:
                    continue
                through_vars.add(pair)
            for i in range(n - 1, -1, -1):
                push((a_items[a_start + i], b_items[b_start + i]))
            continue
        if ka is ConsPair:
            if kb is ConsPair:
                if via_var:
                    pair = (id(a), id(b))
                    if pair in through_vars:
                        continue
                    through_vars.add(pair)
                push((a.cdr, b.cdr))
                push((a.car, b.car))
                continue
            if kb in _PROPER:
                b_items, b_start = (b, 0) if kb is list else (b.items, b.start)
                if b_start >= len(b_items):
                    return False
                push((a.cdr, rest_of(b_items, b_start + 1)))
                push((a.car, b_items[b_start]))
                continue
        if kb is ConsPair and ka in _PROPER:  # keep the sides: a binding's direction is the dispatcher's
            a_items, a_start = (a, 0) if ka is list else (a.items, a.start)
            if a_start >= len(a_items):
                return False
            push((rest_of(a_items, a_start + 1), b.cdr))
            push((a_items[a_start], b.car))
            continue
        if ka in _FAST_ATOMIC and kb in _FAST_ATOMIC:
            if ka is kb and ka is not float:
                if a != b:
                    return False
            elif not same_atomic(a, b):
                return False
            continue
        if (ka is tuple or ka in _PROPER or ka in _FAST_ATOMIC) and (kb is tuple or kb in _PROPER or kb in _FAST_ATOMIC):
            return False  # a tuple, a list and an atomic term never unify with one another
        return _FALL_BACK
    if out is None:
        return s
    return out.finish() if s.__class__ is Map else out


def _unify_dict(u: Any, v: Any, s: dict) -> Any:
    """`unify` on a plain dict substitution: the fast path, else the dispatching unifier."""
    if u is v:
        return s
    result = _unify_dict_fast(u, v, s)
    if result is _FALL_BACK:
        return stream_eval(_unify(u, v, s))
    return result


class _NotFast(Exception):
    """The fast reifier met a type it does not handle, or a cycle."""


#: Nesting of tuples and lists the fast reifier follows in Python recursion; deeper
#: subterms go to the reifier with an explicit stack (`_reify_deep`).
_FAST_DEPTH = 200
_REIFY_LEAVES = frozenset({str, int, float, bool, String, Fraction})


def _reify_fast(t: Any, d: dict, depth: int) -> Any:
    """`t` with its bound variables replaced, for logicpy's term types (see `reify_dict`)."""
    k = t.__class__
    if k is Var:
        nxt = d.get(t, _UNBOUND)
        if nxt is _UNBOUND:
            return t
        steps = 0
        while nxt is not _UNBOUND:
            t = nxt
            nxt = d.get(t, _UNBOUND) if t.__class__ is Var else _UNBOUND
            steps += 1
            if steps > len(d):
                raise _NotFast
        k = t.__class__
        if k is Var:
            return t
    if k in _REIFY_LEAVES:
        return t
    if depth > _FAST_DEPTH:
        return _reify_deep(t, d)
    if k is tuple or k is list:
        if not t:
            return t
        items = [_reify_fast(x, d, depth + 1) for x in t]
        return tuple(items) if k is tuple else items
    if k is Suffix:
        return [_reify_fast(x, d, depth + 1) for x in t.to_list()]
    if k is ConsPair:
        items = []
        var_steps = 0
        while k is ConsPair:
            items.append(_reify_fast(t.car, d, depth + 1))
            t = t.cdr
            while t.__class__ is Var:
                nxt = d.get(t, _UNBOUND)
                if nxt is _UNBOUND:
                    break
                t = nxt
                var_steps += 1
                if var_steps > len(d):
                    raise _NotFast  # a cycle through the tail
            k = t.__class__
        return _close_list(items, _reify_fast(t, d, depth + 1))
    raise _NotFast


def _close_list(items: list, tail: Any) -> Any:
    """The reified list of `items` ending in the reified `tail`, as the dispatching reifier
    builds it (a list tail makes a list, a tuple tail a tuple)."""
    if tail.__class__ is list:
        return items + tail
    for item in reversed(items):
        tail = cons(item, tail)
    return tail


_ASSEMBLE = object()
"""A marker on `_reify_deep`'s stack: the parts above it make one term."""


def _reify_deep(term: Any, d: Mapping) -> Any:
    """`_reify_fast` with an explicit stack: any depth and length. Each compound, list or
    cons chain gets a slot list filled by its parts, then is assembled; the variables
    whose bindings are being reified are kept, so a cycle raises `_NotFast`."""
    on_path: set = set()
    open_ids: set = set()  # the Python lists and tuples being rebuilt around this place
    root: list = [None]
    stack: list = [(term, root, 0)]
    limit = len(d)
    while stack:
        t, into, slot = stack.pop()
        if t is _ASSEMBLE:
            built, parts, released, container = into
            on_path.difference_update(released)
            open_ids.discard(container)
            target, target_slot = slot
            if built is tuple:
                target[target_slot] = tuple(parts)
            elif built is list:
                target[target_slot] = parts
            else:
                target[target_slot] = _close_list(parts[:-1], parts[-1])
            continue
        k = t.__class__
        entered: list[Var] = []
        if k is Var:
            while t.__class__ is Var:
                nxt = d.get(t, _UNBOUND)
                if nxt is _UNBOUND:
                    break
                if t in on_path or len(entered) > limit:
                    raise _NotFast  # a cycle
                entered.append(t)
                t = nxt
            k = t.__class__
            if k is Var:
                into[slot] = t
                continue
        if k in _REIFY_LEAVES or (k is tuple or k is list) and not t:
            into[slot] = t
            continue
        if k is ConsPair:
            items = []
            on_path.update(entered)
            in_chain: set = set()  # the tail's variables: the elements before them are not inside them
            while k is ConsPair:
                items.append(t.car)
                t = t.cdr
                while t.__class__ is Var:
                    nxt = d.get(t, _UNBOUND)
                    if nxt is _UNBOUND:
                        break
                    if t in on_path or t in in_chain:
                        raise _NotFast  # a cycle through the tail
                    in_chain.add(t)
                    t = nxt
                k = t.__class__
            items.append(t)
            kind: type = ConsPair
        elif k is tuple or k is list:
            items, kind = t, k
            on_path.update(entered)
        elif k is Suffix:
            items, kind = t.to_list(), list
            on_path.update(entered)
        else:
            raise _NotFast
        container = None
        if kind is not ConsPair:  # a list or tuple met again inside itself: a cycle (check_acyclic names it)
            container = id(t.items) if k is Suffix else id(t)
            if container in open_ids:
                raise _NotFast
            open_ids.add(container)
        parts = [None] * len(items)
        stack.append((_ASSEMBLE, (kind, parts, entered, container), (into, slot)))
        stack.extend([(x, parts, i) for i, x in enumerate(items)])
    return root[0]


def reify_dict(term: Any, s: dict) -> Any:
    """`reify(term, s)` for a plain dict `s`: a loop over logicpy's term types without
    `unification`'s per-node dispatch (any depth and length), else (other types, a cycle)
    the dispatching reifier. The result is the same as `reify`'s."""
    if not s:
        return term
    try:
        return _reify_fast(term, s, 0)
    except _NotFast:
        check_acyclic(term, s)  # the dispatching reifier would never end on a cycle
        return stream_eval(_reify(term, s))


def unify_state(u: Any, v: Any, S: Any) -> Any:
    """`unify(u, v, S)`, calling the fast path directly for a plain substitution (a dict or
    `Map`) instead of through `unify`'s dispatch: for the innermost loops (fact tables)."""
    kind = S.__class__
    if kind is Map or kind is dict:
        return _unify_dict(u, v, S)
    return unify(u, v, S)


def _assoc_map(s: Map, u: Any, v: Any) -> Map:
    """`assoc` on a persistent substitution: O(log n), the old one unchanged."""
    return s.set(u, v)


_unify.add((object, object, Mapping), _unify_atomic)
unify.add((object, object, dict), _unify_dict)
unify.add((object, object, Map), _unify_dict)
reify.add((object, dict), reify_dict)
reify.add((object, Map), reify_dict)
assoc.add((Map, object, object), _assoc_map)
_unify.add((Var, Var, Mapping), _unify_variable)
_unify.add((Var, object, Mapping), _unify_variable)
_unify.add((object, Var, Mapping), _unify_variable)


def _unify_suffix(u: Any, v: Any, s: Mapping) -> Any:
    """`_unify` with a `Suffix` (only logicpy's searches make one) as the list it stands for."""
    return _unify(u.to_list() if u.__class__ is Suffix else u, v.to_list() if v.__class__ is Suffix else v, s)


def _reify_suffix(u: Suffix, s: Mapping) -> Any:
    """`_reify` of a `Suffix`: the list it stands for."""
    return _reify(u.to_list(), s)


_unify.add((Suffix, object, Mapping), _unify_suffix)
_unify.add((object, Suffix, Mapping), _unify_suffix)
_unify.add((Suffix, Suffix, Mapping), _unify_suffix)
_unify.add((Suffix, Var, Mapping), _unify_variable)
_unify.add((Var, Suffix, Mapping), _unify_variable)
_reify.add((Suffix, Mapping), _reify_suffix)


def _var_hash(v: Var) -> int:
    """A logic variable's hash: its token's. `unification` hashes the tuple (type, token),
    built anew on every dict lookup of a variable, the commonest operation of the FD store
    and of walking; kanren's `ConstrainedVar` (and logicpy's `FDVar`), equal to the variable
    they show, must hash alike, so they get the same."""
    return hash(v.token)


Var.__hash__ = _var_hash  # type: ignore[method-assign]
ConstrainedVar.__hash__ = _var_hash  # type: ignore[method-assign]
