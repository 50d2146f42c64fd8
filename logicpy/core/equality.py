"""Prolog's term identity for unification in logicpy's states, and those states.

kanren unifies through `unification`'s multipledispatch `_unify`, whose fallback for two
non-variable leaves is Python's `u == v`, and whose variable case also compares walked
terms with `==`. Python equality is not Prolog's: `1 == 1.0 == True`, `0.0 == -0.0`,
`(1,) == (1.0,)`, `Fraction(1, 2) == 0.5`. In Prolog, 1 and 1.0 are different terms, the
two zeros are different floats, and `true` is an atom. logicpy's unifier (`unify`)
compares leaves with `same_atomic`:

- numbers are equal when they have the same type and value (int, float, Fraction; a
  Fraction with denominator 1 is the integer, as in Prolog); floats compare bit for
  bit in sign, so `-0.0` and `0.0` differ;
- `True`/`False` are the atoms `true`/`false` (as the Prolog bridge and JSON write
  them), so `True` unifies with `True` and with `"true"`, never with 1 or 1.0;
- anything else compares with `==` (str atoms, `String`, user objects).

A list cell (`cons`, Prolog's '[|]'/2) unifies only with a list cell or a non-empty list,
never with a tuple: a tuple is a compound term, where `unification`'s rule from the `cons`
package reads it as a sequence (`[H|T] = f(a, b)` would give H = f, T = a(b)). In
logicpy's states a cell also reifies as a cell whatever its tail (`_reify_cell`: the
package's rule would merge `[a|f(b)]` into the tuple a(f, b)).

`atomic_key` is the matching hashable form, for tables, indexes and tabling keys: two
atomic terms have equal keys exactly when `same_atomic` holds.

This identity belongs to logicpy's states, not to the process: kanren and `unification`
keep Python's `==` for everyone else (their dicts, their `ConstrainedState`, their `Var`).
A search state of logicpy is an `immutables.Map` (the substitution; `run` starts from an
empty one) or, once a constraint is posted, a `State`: kanren's `ConstrainedState` with its
bindings in a `Map`. `unification`'s `unify` and `reify` dispatch on those two types only,
so kanren's own goals (`conso`, `heado`, ...) get Prolog identity inside a logicpy search
and nowhere else. logicpy's code calls `unify` and `reify` from here, which also accept a
plain dict (the substitution of a single unification, as `neq` builds).

The occurs check (refusing to bind a variable to a term that contains it) is off by
default, as in Prolog. It is a property of a `State` (`run(..., occurs_check=True)` starts
from one that checks, and every state made from it checks) or of one call
(`unify(..., occurs_check=True)`, what `eq_oc` does); there is no global switch, so
searches in different threads never share it. Without it a binding can make a cyclic term;
the unifier then treats a pair of terms it is already unifying through variables as
unified (rational-tree unification), so it never loops, and `check_acyclic` lets `run`
refuse to print such an answer.

Fast paths (measured in docs/architecture.md): one loop over logicpy's term types
(`_unify_dict_fast`, `reify_dict`), without `unification`'s per-node dispatch and
generators; any other type (a `Fraction`, a `String`, a set, ...) goes through
`_unify_general`, which compares leaves the same way and hands structures it does not know
(sets, mappings, iterators, expression tuples) to `unification`'s dispatch.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import copysign
from typing import Any

from cons.core import ConsPair
from immutables import Map
from kanren.constraints import ConstrainedState
from unification.core import _reify, _unify, assoc, construction_sentinel, stream_eval
from unification.core import reify as _reify_dispatch
from unification.core import unify as _unify_dispatch
from unification.variable import Var, _glv, isvar

from .collector import quiet_collector
from .terms import String, Suffix, Variable, _cell, _opened, is_var, rest_of

#: The type of `Map.mutate()`'s result: a substitution written in place (see `unify_mutation`).
MapMutation: type = type(Map().mutate())

__all__ = ["same_atomic", "atomic_key", "unify", "reify", "walk", "State", "occurs", "check_acyclic", "reify_dict", "unify_subst",
           "unify_mutation"]


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
                from ..errors import TermError, shown
                raise TermError(f"the answer is a cyclic term: {shown(t)} is bound to a term containing itself "
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


#: Pairs a unification takes before it also remembers the pairs of containers met without
#: a variable between them: only a Python list or tuple that contains itself (not a term,
#: but easily made) can repeat one, and the unification then ends as a cycle through a
#: variable does.
_PAIRS_UNWATCHED = 50_000

#: Leaf types the fast path compares itself (`same_atomic`); any other type falls back.
_FAST_ATOMIC = frozenset({str, int, float, bool, String, Fraction})
_FALL_BACK = object()
#: `unification`'s rule for two terms no other rule claims (Python's `==`).
_UNIFY_LEAVES = _unify.dispatch(object, object, Mapping)
#: The forms of a proper list: a Python list, or a `Suffix` sharing one.
_PROPER = frozenset({list, Suffix})
#: The term types the fast path knows: two of them that its rules do not match never unify.
_KNOWN = _FAST_ATOMIC | _PROPER | {tuple, ConsPair}


def _unify_dict_fast(u: Any, v: Any, s: dict, occurs_on: bool = False) -> Any:
    """`unify(u, v, s)` for a plain substitution `s` (a dict or a `Map`) and the term types
    logicpy uses (its variables, tuples, lists and their suffixes, cons pairs, str, int,
    float, bool, `String`, `Fraction`), checking occurs if `occurs_on`: the same result as
    `_unify_general`, without its per-node tests, and copying `s` once instead of once per
    binding. A list met by a cons pair gives its tail as a `Suffix`, never a copy. Returns
    `_FALL_BACK` on any other type (the caller then uses `_unify_general` from the original `s`)."""
    out = None  # the copy of s, made at the first binding
    d = s
    through_vars: dict = {}  # (id, id) -> the pair itself, kept so no id is reused meanwhile
    stack = [(u, v)]
    pop = stack.pop
    push = stack.append
    get = d.get
    budget = _PAIRS_UNWATCHED
    while stack:
        a, b = pop()
        if a is b:
            continue
        via_var = False
        budget -= 1
        ka = a.__class__
        if ka is Variable:  # walk, hashing each variable once (transitive_get hashes twice)
            nxt = get(a, _UNBOUND)
            while nxt is not _UNBOUND:
                a = nxt
                nxt = get(a, _UNBOUND) if a.__class__ is Variable else _UNBOUND
            ka = a.__class__
            via_var = True
        kb = b.__class__
        if kb is Variable:
            nxt = get(b, _UNBOUND)
            while nxt is not _UNBOUND:
                b = nxt
                nxt = get(b, _UNBOUND) if b.__class__ is Variable else _UNBOUND
            kb = b.__class__
            via_var = True
        if a is b:
            continue
        if ka is Variable or kb is Variable:
            if ka is not Variable:
                a, b = b, a
                kb = ka
            if occurs_on and kb is not Variable and occurs(a, b, d):
                return False
            if out is None:
                out = d = s.mutate() if s.__class__ is Map else s if s.__class__ is MapMutation else dict(s)
                get = d.get
            out[a] = b
            continue
        if ka is kb and ka is tuple:
            if len(a) != len(b):
                return False
            if via_var or budget < 0:
                pair = (id(a), id(b))
                if pair in through_vars:
                    continue
                through_vars[pair] = (a, b)
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
            if via_var or budget < 0:
                pair = (id(a), id(b))
                if pair in through_vars:
                    continue
                through_vars[pair] = (a, b)
            for i in range(n - 1, -1, -1):
                push((a_items[a_start + i], b_items[b_start + i]))
            continue
        if ka is ConsPair:
            if kb is ConsPair:
                if via_var:
                    pair = (id(a), id(b))
                    if pair in through_vars:
                        continue
                    through_vars[pair] = (a, b)
                push((a.cdr, b.cdr))
                push((a.car, b.car))
                continue
            if kb in _PROPER:
                b_items, b_start = (b, 0) if kb is list else (b.items, b.start)
                if b_start >= len(b_items):
                    return False
                if via_var:
                    pair = (id(a), id(b))
                    if pair in through_vars:
                        continue
                    through_vars[pair] = (a, b)
                push((a.cdr, rest_of(b_items, b_start + 1)))
                push((a.car, b_items[b_start]))
                continue
        if kb is ConsPair and ka in _PROPER:  # keep the sides: a binding's direction is the dispatcher's
            a_items, a_start = (a, 0) if ka is list else (a.items, a.start)
            if a_start >= len(a_items):
                return False
            if via_var:
                pair = (id(a), id(b))
                if pair in through_vars:
                    continue
                through_vars[pair] = (a, b)
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
        if ka in _KNOWN and kb in _KNOWN:
            return False  # a compound (tuple), a list, a list cell and an atomic term never unify with one another
        return _FALL_BACK
    if out is None:
        return s
    return out.finish() if s.__class__ is Map else out


def unify_mutation(u: Any, v: Any, m: Any) -> Any:
    """`unify` in a `MapMutation` `m`, written in place: `m`, a new mutation, or False (then `m`
    may hold some of the bindings: the caller drops it)."""
    if u is v:
        return m
    result = _unify_dict_fast(u, v, m)
    if result is _FALL_BACK:
        s = _unify_general(u, v, m.finish())
        return False if s is False else s.mutate()
    return result


def unify_subst(u: Any, v: Any, s: Any, occurs_on: bool = False) -> Any:
    """`unify` in a plain substitution (a `Map` or a dict): the fast path, else the general one."""
    if u is v:
        return s
    result = _unify_dict_fast(u, v, s, occurs_on)
    if result is _FALL_BACK:
        return _unify_general(u, v, s, occurs_on)
    return result


def _unify_general(u: Any, v: Any, s: Any, occurs_on: bool = False) -> Any:
    """u and v unified in the plain substitution `s` (a `Map` or a dict; the result is of its
    type), or False: any terms, any variables, leaves compared by `same_atomic`.

    A cons pair meets a cons pair or a non-empty list or tuple (as the `cons` package has
    it). A pair of terms that `unification` unifies by a rule of its own (sets, mappings,
    iterators, expression tuples, types registered by other packages) is handed to its
    dispatch, whose `==` decides the leaves inside. No Python recursion: an explicit stack.
    """
    d = s
    through_vars: dict = {}  # (id, id) -> the pair itself, kept so no id is reused meanwhile
    stack = [(u, v)]
    budget = _PAIRS_UNWATCHED
    while stack:
        a, b = stack.pop()
        if a is b:
            continue
        via_var = False
        budget -= 1
        if _is_var(a):
            a = walk(a, d)
            via_var = True
        if _is_var(b):
            b = walk(b, d)
            via_var = True
        if a is b:
            continue
        a_var, b_var = _is_var(a), _is_var(b)
        if a_var or b_var:
            if not a_var:
                a, b = b, a
            elif b_var and a == b:  # two objects for one variable (kanren's ConstrainedVar)
                continue
            if occurs_on and not _is_var(b) and occurs(a, b, d):
                return False
            d = d.set(a, b) if d.__class__ is Map else {**d, a: b}
            continue
        ka, kb = a.__class__, b.__class__
        if ka is Suffix:  # the list it stands for (this path is for foreign terms: a copy is fine)
            a, ka = a.to_list(), list
        if kb is Suffix:
            b, kb = b.to_list(), list
        if ka is kb and (ka is tuple or ka is list):
            if len(a) != len(b):
                return False
            if via_var or budget < 0:
                if (id(a), id(b)) in through_vars:
                    continue
                through_vars[id(a), id(b)] = (a, b)
            stack.extend(zip(reversed(a), reversed(b)))
            continue
        if ka is ConsPair or kb is ConsPair:  # a list cell meets only a list cell (never a tuple, a compound)
            if not ((ka is ConsPair or ka is list and a) and (kb is ConsPair or kb is list and b)):
                return False
            if via_var:
                if (id(a), id(b)) in through_vars:
                    continue
                through_vars[id(a), id(b)] = (a, b)
            stack.append((a.cdr if ka is ConsPair else a[1:], b.cdr if kb is ConsPair else b[1:]))
            stack.append((a.car if ka is ConsPair else a[0], b.car if kb is ConsPair else b[0]))
            continue
        if _are_leaves(ka, kb):
            if not same_atomic(a, b):
                return False
            continue
        d = stream_eval(_unify(a, b, d))
        if d is False:
            return False
    return d


def _is_var(t: Any) -> bool:
    """`isvar(t)` for foreign terms: `is_var`, or any object `unification`'s `variables()`
    context has made a variable (only then is `isvar`, which hashes `t`, asked)."""
    return is_var(t) or (bool(_glv) and isvar(t))


#: (type, type) -> whether `unification` has no rule of its own for the pair (then two
#: leaves); remembered for as many rules as it had when asked.
_LEAF_PAIRS: dict = {}


def _are_leaves(ka: type, kb: type) -> bool:
    """True iff `unification` would compare values of types ka and kb with `==` (no rule)."""
    if _LEAF_PAIRS.get(None) != len(_unify.funcs):
        _LEAF_PAIRS.clear()
        _LEAF_PAIRS[None] = len(_unify.funcs)
    leaves = _LEAF_PAIRS.get((ka, kb))
    if leaves is None:
        leaves = _LEAF_PAIRS[ka, kb] = _unify.dispatch(ka, kb, Mapping) is _UNIFY_LEAVES
    return leaves


class _NotFast(Exception):
    """The fast reifier met a type it does not handle, or a cycle."""


#: Nesting of tuples and lists the fast reifier follows in Python recursion; deeper
#: subterms go to the reifier with an explicit stack (`_reify_deep`).
_FAST_DEPTH = 200
_REIFY_LEAVES = frozenset({str, int, float, bool, String, Fraction})


def _reify_fast(t: Any, d: dict, depth: int) -> Any:
    """`t` with its bound variables replaced, for logicpy's term types (see `reify_dict`)."""
    k = t.__class__
    if k is Variable:
        nxt = d.get(t, _UNBOUND)
        if nxt is _UNBOUND:
            return t
        steps = 0
        while nxt is not _UNBOUND:
            t = nxt
            nxt = d.get(t, _UNBOUND) if t.__class__ is Variable else _UNBOUND
            steps += 1
            if steps > len(d):
                raise _NotFast
        k = t.__class__
        if k is Variable:
            return t
    if k in _REIFY_LEAVES:
        return t
    if depth > _FAST_DEPTH:
        return _reify_deep(t, d)
    if k is tuple or k is list:
        if not t:
            return t
        items: list = []
        append = items.append
        for x in t:  # a leaf, or a variable bound to one, without a call (most answers are flat)
            kx = x.__class__
            if kx is Variable:
                nxt = d.get(x, _UNBOUND)
                if nxt is _UNBOUND:
                    append(x)
                    continue
                if nxt.__class__ in _REIFY_LEAVES:
                    append(nxt)
                    continue
            elif kx in _REIFY_LEAVES:
                append(x)
                continue
            append(_reify_fast(x, d, depth + 1))
        return tuple(items) if k is tuple else items
    if k is Suffix:
        return [_reify_fast(x, d, depth + 1) for x in t.to_list()]
    if k is ConsPair:
        items = []
        var_steps = 0
        while k is ConsPair:
            items.append(_reify_fast(t.car, d, depth + 1))
            t = t.cdr
            while t.__class__ is Variable:
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
    """The reified list of `items` ending in the reified `tail`: a list tail makes a list,
    any other tail (a variable, an atom, a compound) a chain of list cells in front of it."""
    if tail.__class__ is list:
        return items + tail
    for item in reversed(items):
        tail = _cell(item, tail)
    return tail


_ASSEMBLE = object()
"""A marker on `_reify_deep`'s stack: the parts above it make one term."""


def _reify_deep(term: Any, d: Mapping) -> Any:
    """`_reify_fast` with an explicit stack: any depth and length. Each compound, list or
    cons chain gets a slot list filled by its parts, then is assembled; the variables
    whose bindings are being reified are kept, so a cycle raises `_NotFast`."""
    quiet_collector.enter()  # all it builds is kept: collections would find nothing
    try:
        return _reify_stacked(term, d)
    finally:
        quiet_collector.leave()


def _reify_stacked(term: Any, d: Mapping) -> Any:
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
        if k is Variable:
            while t.__class__ is Variable:
                nxt = d.get(t, _UNBOUND)
                if nxt is _UNBOUND:
                    break
                if t in on_path or len(entered) > limit:
                    raise _NotFast  # a cycle
                entered.append(t)
                t = nxt
            k = t.__class__
            if k is Variable:
                into[slot] = t
                continue
        if k in _REIFY_LEAVES or (k is tuple or k is list) and not t:
            into[slot] = t
            continue
        if k is ConsPair:
            items = []
            on_path.update(entered)
            in_chain: set = set()  # the tail's variables, each met once in the chain
            while k is ConsPair:
                items.append(t.car)
                t = t.cdr
                while t.__class__ is Variable:
                    nxt = d.get(t, _UNBOUND)
                    if nxt is _UNBOUND:
                        break
                    if t in on_path or t in in_chain:
                        raise _NotFast  # a cycle through the tail
                    in_chain.add(t)
                    t = nxt
                k = t.__class__
            items.append(t)
            # the elements after a tail variable are inside it: one met again below is a cycle
            # (an element before it holding it is not, and falls to the acyclic check: rare)
            on_path.update(in_chain)
            entered.extend(in_chain)
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
        return stream_eval(_reify(term, s if s.__class__ is Map else Map(s)))  # logicpy's rules (`_reify_cell`)


def unify(u: Any, v: Any, s: Any = None, occurs_check: bool | None = None) -> Any:
    """u and v unified in `s` with Prolog's term identity: the new state, or False.

    `s` is a logicpy state (a `Map` or a `State`), a plain dict (the result is a dict; none
    given: an empty one), or a state kanren made (a `ConstrainedState`: the result is a
    `State`). `occurs_check` True checks occurs in this unification; None keeps the state's
    own setting (off for a `Map`).

    >>> from logicpy.core import var
    >>> x = var()
    >>> unify((x, 1), (2, 1.0)), unify(x, 1) == {x: 1}
    (False, True)
    """
    if s is None:
        s = {}
    kind = s.__class__
    if kind is Map or kind is dict:
        return unify_subst(u, v, s, bool(occurs_check))
    if isinstance(s, State):
        return _unify_state(u, v, s, occurs_check)
    if isinstance(s, ConstrainedState):
        return _unify_state(u, v, State.of(s), occurs_check)
    return unify_subst(u, v, dict(s), bool(occurs_check))


def reify(term: Any, s: Any) -> Any:
    """`term` with the bindings of `s` (a logicpy state or a plain dict) put in its variables;
    in a state with finite domains, an unbound variable with a domain shows it (`FDVar`)."""
    kind = s.__class__
    if kind is Map or kind is dict:
        return reify_dict(term, s)
    return _reify_dispatch(term, s)


class State(ConstrainedState):
    """A search state of logicpy with constraints: kanren's `ConstrainedState` (the stores in
    `constraints`, each checked after every unification) with its bindings always in a
    persistent `Map`, and whether its unifications check occurs. Every constrained state
    logicpy makes is one (the finite-domain `FDState` is a subclass).
    """

    data: Any  # a Map
    constraints: Any  # {store type: store}
    occurs_check: bool

    def __init__(self, data: Any = None, constraints: Any = None, occurs_check: bool = False):
        self.data = _EMPTY if data is None else data if data.__class__ is Map else Map(data)
        self.constraints = dict(constraints or ())
        self.occurs_check = occurs_check

    @classmethod
    def of(cls, S: Any) -> Any:
        """A new state of this class with the bindings of `S` (any state), copies of its
        constraint stores, and its occurs check."""
        if isinstance(S, ConstrainedState):
            return cls(S.data, {k: c.copy() for k, c in S.constraints.items()}, getattr(S, "occurs_check", False))
        return cls(S)

    def copy(self, data: Any = None) -> Any:
        """This state with copies of its stores (and `data` for its bindings, if given)."""
        return type(self)(self.data if data is None else data,
                          {k: c.copy() for k, c in self.constraints.items()}, self.occurs_check)

    def __setitem__(self, key: Any, value: Any) -> None:  # kanren's goals write states in place
        self.data = self.data.set(key, value)

    def __delitem__(self, key: Any) -> None:
        self.data = self.data.delete(key)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.data)!r}, {self.constraints})"


_EMPTY: Map = Map()


def _unify_state(u: Any, v: Any, S: State, occurs_check: bool | None = None) -> Any:
    """`unify` in a `State`: kanren's protocol (every store checks before and after) around
    the unification of its bindings; with no store, only the bindings."""
    occurs_on = S.occurs_check if occurs_check is None else occurs_check
    if not S.constraints:
        s = unify_subst(u, v, S.data, occurs_on)
        return S if s is S.data else s if s is False else type(S)(s, None, S.occurs_check)
    if not S.pre_unify_checks(u, v):
        return False
    s = unify_subst(u, v, S.data, occurs_on)
    if s is False:
        return False
    return S.post_unify_checks(s, u, v)


def _reify_state(term: Any, S: State) -> Any:
    """`reify` in a `State`: an unbound variable stays itself (kanren would show a
    `ConstrainedVar`); a subclass (`FDState`) shows its own."""
    if S.__class__ is State:
        return reify_dict(term, S.data)
    if not len(S):
        return term
    return stream_eval(_reify(term, S))


def _reify_var_in_state(v: Var, S: State) -> Any:
    """`_reify` of a variable in a `State`, for `unification`'s generic walks (`isground`)."""
    w = walk(v, S.data)
    if w is v:
        yield v
    else:
        yield _reify(w, S)


def _assoc_map(s: Map, u: Any, v: Any) -> Map:
    """`assoc` on a persistent substitution: O(log n), the old one unchanged."""
    return s.set(u, v)


# Dispatch on logicpy's own state types (and `Map`, which kanren and `unification` never
# use), never on theirs: plain kanren keeps its own behaviour in the same process.
_unify_dispatch.add((object, object, Map), unify_subst)
_unify_dispatch.add((object, object, State), _unify_state)
_reify_dispatch.add((object, Map), reify_dict)
_reify_dispatch.add((object, State), _reify_state)
_reify.add((Var, State), _reify_var_in_state)
assoc.add((Map, object, object), _assoc_map)


def _reify_suffix(u: Suffix, s: Mapping) -> Any:
    """`_reify` of a `Suffix`: the list it stands for."""
    return _reify(u.to_list(), s)


# A `Suffix` is logicpy's own type: this rule changes nothing for anyone else.
_reify.add((Suffix, Mapping), _reify_suffix)


def _reify_cell(u: ConsPair, s: Any) -> Any:
    """`_reify` of a list cell in a logicpy state: a cell again whatever its tail (the `cons`
    package's rule would merge a tuple tail, a compound term, into one tuple)."""
    head = yield _reify(u.car, s)
    tail = yield _reify(u.cdr, s)
    yield construction_sentinel
    yield _close_list([head], tail)


# Only on logicpy's own states: a plain kanren run keeps the `cons` package's rule.
_reify.add((ConsPair, Map), _reify_cell)
_reify.add((ConsPair, State), _reify_cell)
