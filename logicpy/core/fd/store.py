"""The finite-domain store: domains inside a kanren state, and the propagation loop.

A domain is kept in one of two forms, chosen by where its values lie:

- a **bitset** (a Python int: bit i set means the value `base + i` is allowed), with one
  `base` shared by all bitset domains of a store, so that `x = y + c` is a plain shift;
  a bitset is at most `WIDE` bits, so it costs at most 8 KB whatever its values;
- a **`Domain`**: a sorted tuple of disjoint intervals of absolute values, for a domain that
  does not fit the store's bitset window (values far from `base`, or spread wider than
  `WIDE`): `{0, 10**12, 10**40}` is three intervals and `1..10**15` one.

Memory is thus independent of the magnitude and of the span of the values. Propagators
reach domains through the store's accessors (`lo`, `hi`, `value`, `size`, `members`,
`restrict`, `at_least`, `at_most`, `remove`), which take either form; the propagators of
`propagators.py` keep a bitset fast path for when every domain they read is a bitset.

The store is a kanren `ConstraintStore`: kanren calls `post_unify_check` after every
unification, which is where a binding made by `eq` (or by labelling) meets the domains and
wakes only the propagators that watch the variables just bound.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Set
from math import inf
from typing import Any, Literal, Union

from kanren.constraints import ConstrainedVar, ConstraintStore
from unification import Var  # type: ignore[import-untyped]
from unification.core import _reify  # type: ignore[import-untyped]

from ..equality import State
from ..terms import Variable, is_var

__all__ = ["Domain", "FDStore", "FDState", "FDVar", "Inconsistent", "Propagator", "fd_state", "bind", "WIDE"]

#: The widest bitset domain, in values: a domain that would need more bits (its values
#: spread wider, or far from the store's base) is kept as a `Domain` of intervals instead.
WIDE = 1 << 16


def walk(t: Any, smap: dict) -> Any:
    """Follow the bindings of `t` in the substitution `smap`: the term a variable stands for.

    Any term may come back (an int, an unbound variable, or a float, atom, list, compound...).
    """
    while t.__class__ is Variable or (t.__class__ is not int and is_var(t)):
        nxt = smap.get(t, t)
        if nxt is t:
            return t
        t = nxt
    return t


def is_fd_term(t: Any) -> bool:
    """True iff the walked term `t` can be an FD value: an int (not a bool) or an unbound variable."""
    return t.__class__ is int or t.__class__ is Variable or is_var(t)


def iter_bits(bits: int) -> Iterator[int]:
    """Indices of the set bits of `bits`, ascending."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def ones(n: int) -> int:
    """The bitset of n consecutive values from bit 0."""
    return (1 << n) - 1


class Domain(Set):
    """A finite set of ints as sorted disjoint intervals, shown compactly: `{1..3, 7}`.

    It costs memory per interval, not per value: `Domain.interval(1, 10**15)` is one pair.
    It is the residual domain of a reified variable, and the store's form of a domain that
    does not fit its bitset window. Immutable; `ranges` is a tuple of (lo, hi) pairs, lo <= hi,
    ascending, with a gap of at least one value between neighbours.

    >>> Domain.of([3, 1, 2, 7])
    {1..3, 7}
    >>> Domain.of([1, 2]) == {1, 2}
    True
    >>> Domain.of([0, 10**12, 10**40]).size
    3
    """

    __slots__ = ("ranges",)

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()):
        self.ranges: tuple[tuple[int, int], ...] = tuple(ranges)

    # -- making ---------------------------------------------------------------------------

    @classmethod
    def of(cls, values: Iterable[int]) -> Domain:
        """The domain holding exactly `values` (an iterable of ints; a `range` of step 1 stays one interval)."""
        if isinstance(values, range) and values.step == 1:
            return cls.interval(values.start, values.stop - 1)
        out: list[list[int]] = []
        for v in sorted(set(values)):
            if out and out[-1][1] == v - 1:
                out[-1][1] = v
            else:
                out.append([v, v])
        return cls(tuple(map(tuple, out)))  # type: ignore[arg-type]

    @classmethod
    def interval(cls, lo: int, hi: int) -> Domain:
        """The values lo..hi (empty when lo > hi)."""
        return cls(((lo, hi),) if lo <= hi else ())

    @classmethod
    def from_bits(cls, bits: int, base: int) -> Domain:
        """The values `base + i` for the set bits i of the (non-negative) bitset `bits`."""
        starts = iter_bits(bits & ~(bits << 1))
        ends = iter_bits(bits & ~(bits >> 1))
        return cls(tuple((base + s, base + e) for s, e in zip(starts, ends)))

    @classmethod
    def _from_iterable(cls, values: Iterable[Any]) -> Set[Any]:
        """The result of Set's &, |, -, ^: a Domain when it holds only ints."""
        values = list(values)
        if all(v.__class__ is int for v in values):
            return cls.of(values)
        return frozenset(values)

    # -- reading --------------------------------------------------------------------------

    def __iter__(self) -> Iterator[int]:
        """The values, ascending, one at a time (a domain of 10**15 values is never materialised)."""
        for lo, hi in self.ranges:
            yield from range(lo, hi + 1)

    @property
    def size(self) -> int:
        """The number of values (any int; `len` is limited to sys.maxsize)."""
        return sum(hi - lo + 1 for lo, hi in self.ranges)

    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def __contains__(self, value: object) -> bool:
        # an int, not a bool (True is the atom true) nor a float equal to an int
        if value.__class__ is not int:
            return False
        k = bisect_right(self.ranges, (value, inf)) - 1
        return k >= 0 and self.ranges[k][1] >= value  # type: ignore[operator]

    @property
    def min(self) -> int:
        """The smallest value."""
        return self.ranges[0][0]

    @property
    def max(self) -> int:
        """The largest value."""
        return self.ranges[-1][1]

    def to_bits(self, base: int) -> int:
        """The bitset of these values over `base` (all of them >= base)."""
        bits = 0
        for lo, hi in self.ranges:
            bits |= ones(hi - lo + 1) << (lo - base)
        return bits

    # -- combining (each costs time per interval, never per value) ----------------------------

    def clip(self, lo: int | None = None, hi: int | None = None) -> Domain:
        """The values within lo..hi (None: unbounded on that side)."""
        out = []
        for a, b in self.ranges:
            if lo is not None and b < lo or hi is not None and a > hi:
                continue
            out.append((a if lo is None or a >= lo else lo, b if hi is None or b <= hi else hi))
        return Domain(out)

    def intersection(self, other: Domain) -> Domain:
        """The values in both."""
        out, a, b, i, j = [], self.ranges, other.ranges, 0, 0
        while i < len(a) and j < len(b):
            lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
            if lo <= hi:
                out.append((lo, hi))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return Domain(out)

    def union(self, other: Domain) -> Domain:
        """The values in either."""
        out: list[list[int]] = []
        for lo, hi in sorted(self.ranges + other.ranges):
            if out and lo <= out[-1][1] + 1:
                out[-1][1] = max(out[-1][1], hi)
            else:
                out.append([lo, hi])
        return Domain(tuple(map(tuple, out)))  # type: ignore[arg-type]

    def shift(self, c: int) -> Domain:
        """The values v + c."""
        return Domain(tuple((lo + c, hi + c) for lo, hi in self.ranges))

    def without(self, v: int) -> Domain:
        """These values but v."""
        k = bisect_right(self.ranges, (v, inf)) - 1
        if k < 0 or self.ranges[k][1] < v:
            return self
        lo, hi = self.ranges[k]
        middle = tuple(r for r in ((lo, v - 1), (v + 1, hi)) if r[0] <= r[1])
        return Domain(self.ranges[:k] + middle + self.ranges[k + 1:])

    # -- comparing and showing --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Domain):
            return self.ranges == other.ranges
        if not isinstance(other, Set):
            return NotImplemented
        return self.size == len(other) and all(v in self for v in other)  # never len(self): it may pass sys.maxsize

    def __hash__(self) -> int:
        # a set's hash (equal to a frozenset of the same ints) while that is cheap to compute
        return self._hash() if self.size <= WIDE else hash(self.ranges)

    def __and__(self, other: Any) -> Any:
        return self.intersection(other) if isinstance(other, Domain) else Set.__and__(self, other)

    def __or__(self, other: Any) -> Any:
        return self.union(other) if isinstance(other, Domain) else Set.__or__(self, other)

    def __repr__(self) -> str:
        parts: list[str] = []
        for lo, hi in self.ranges:
            if hi - lo >= 2:
                parts.append(f"{lo}..{hi}")
            else:
                parts.extend(str(v) for v in range(lo, hi + 1))
        return "{" + ", ".join(parts) + "}"


Dom = Union[int, Domain]
"""A domain as the store keeps it: a bitset over the store's base (an int), or a `Domain`."""


class Inconsistent(Exception):
    """Raised during propagation when a domain empties or a constraint cannot hold."""


class Propagator:
    """A constraint's pruning rule, run by the store until no domain changes.

    Subclasses list their argument terms in `terms()` and narrow domains in `propagate`
    through the store's methods: reading `walk`, `lo`, `hi`, `value`, `size`, `members`;
    narrowing `restrict`, `at_least`, `at_most`, `remove`; and, for domain-level work,
    `dom` (a domain in the store's form: a bitset int or a `Domain`), `mask`, `interval`,
    `shifted`, `union`, `meets`, `contains`, `values`. The class attribute `wake` says which
    changes of a variable wake it: "domain" (any), "bounds" (its min or max) or "value" (it
    is down to one value); `watches = False` runs it once, when posted. `priority` orders
    the queue: 0 (cheap, the default) runs before 1 (a global constraint), 1 before 2 (one
    that tries alternatives), so a costly propagator runs once on what the cheap ones leave.

    Invariants: a propagator is immutable (its state lives in the store's domains);
    `propagate` only narrows domains and raises `Inconsistent` only when no assignment
    of its terms satisfies the constraint; a bitset is read again after a `restrict(...,
    exact=True)` of a variable without a domain (that one may move the store's base).
    """

    __slots__ = ()
    watches = True
    wake = "domain"
    priority = 0

    def terms(self) -> Iterable[Any]:
        """The argument terms (ints or logic variables) whose changes wake this propagator."""
        raise NotImplementedError

    def propagate(self, store: FDStore) -> None:
        """Narrow the domains of `self.terms()` in `store`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.terms()))})"


_EVENTS = {"domain": 0, "bounds": 1, "value": 2}
Watchers = tuple[tuple[Propagator, ...], tuple[Propagator, ...], tuple[Propagator, ...]]
"""The propagators woken by any change of a variable, by a change of its bounds, by its coming down to one value."""
_NO_WATCHERS: Watchers = ((), (), ())


class FDStore(ConstraintStore):
    """Finite domains of logic variables and the propagators that watch each variable.

    `watch[v]` holds three tuples of propagators, woken by any change of v, by a change of
    its bounds, and by v coming down to one value.

    Invariants: every key of `watch` is a logic variable unbound in the state's
    substitution; the keys of `domains` are among them, each a non-empty domain: a
    non-zero bitset over `base` of at most `WIDE` bits, or a `Domain`. A variable without
    a domain is unbounded: it is checked, not pruned, until it gets one.
    """

    __slots__ = ("domains", "watch", "base", "failed", "_smap", "_queue", "_queued")
    op_str = "in"
    _smap: dict  # the substitution, the queue and its set: only while propagating
    _queue: tuple[deque[Propagator], deque[Propagator], deque[Propagator]]  # one per priority
    _queued: set[Propagator]

    def __init__(self, domains: dict | None = None, watch: dict | None = None, base: int = 0):
        self.domains: dict[Var, Dom] = {} if domains is None else domains
        self.watch: dict[Var, Watchers] = {} if watch is None else watch
        self.base = base
        #: The propagator that ended this store's failed propagation (what dom/wdeg weighs).
        self.failed: Propagator | None = None
        self.lvar_constraints = self.domains  # type: ignore[misc]  # the slot is kanren ConstraintStore's

    def copy(self) -> FDStore:
        return FDStore(self.domains.copy(), self.watch.copy(), self.base)

    def constraints_str(self, lvar: Var) -> str:
        d = self.domains.get(lvar)
        return "" if d is None else f"in {self.as_domain(d)}"

    def pending(self) -> list[Propagator]:
        """The propagators still watching an unbound variable, each once, in no set order.

        Their reprs are clpfd-style (`~x #=< ~y - 1`, `all_distinct([~x, ~y])`); a constraint
        already true for every value left is still listed (the store does not detect entailment).
        """
        return list(dict.fromkeys(p for watchers in self.watch.values() for props in watchers for p in props))

    # -- reading terms (during propagation; terms are walked first) -------------------------

    def walk(self, t: Any) -> Any:
        """`t` with its bindings followed: an int or an unbound variable.

        Raises `Inconsistent` for any other term (a float, a bool, an atom, a list, a
        compound): an FD argument stands for an int, so the constraint cannot hold.
        """
        smap = self._smap
        while t.__class__ is Variable or (t.__class__ is not int and is_var(t)):  # `walk`, inlined
            nxt = smap.get(t, t)
            if nxt is t:
                return t
            t = nxt
        if t.__class__ is int:
            return t
        raise Inconsistent

    def dom(self, t: Any) -> Dom | None:
        """The domain of the walked term `t` in the store's form (a bitset int or a `Domain`);
        None for a variable without a domain. An int is a one-value domain."""
        if t.__class__ is int:
            k = t - self.base
            return 1 << k if 0 <= k < WIDE else Domain(((t, t),))
        return self.domains.get(t)

    def bits(self, t: Any) -> Dom:
        """`dom(t)` for a term known to have a domain (an int, a variable just narrowed by
        `restrict(..., exact=True)`, or one whose `lo` was not None)."""
        d = self.dom(t)
        assert d is not None, f"{t} has no domain"
        return d

    def lo(self, t: Any) -> int | None:
        """Smallest value of `t`; None when unbounded."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        if d is None:
            return None
        if d.__class__ is int:
            return self.base + (d & -d).bit_length() - 1
        return d.ranges[0][0]  # type: ignore[union-attr]

    def hi(self, t: Any) -> int | None:
        """Largest value of `t`; None when unbounded."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        if d is None:
            return None
        if d.__class__ is int:
            return self.base + d.bit_length() - 1
        return d.ranges[-1][1]  # type: ignore[union-attr]

    def value(self, t: Any) -> int | None:
        """The value of `t` when it has exactly one, else None."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        if d is None:
            return None
        if d.__class__ is int:
            return None if d & (d - 1) else self.base + d.bit_length() - 1
        (lo, hi), *more = d.ranges  # type: ignore[union-attr]
        return lo if lo == hi and not more else None

    def size(self, t: Any) -> int | None:
        """The number of values of `t`; None when unbounded."""
        d = self.dom(t)
        return None if d is None else self.count(d)

    def members(self, t: Any) -> Domain | None:
        """The values of the walked term `t` as a `Domain`; None for a variable without one."""
        d = self.dom(t)
        return None if d is None else self.as_domain(d)

    # -- domains in the store's form ------------------------------------------------------

    def as_domain(self, d: Dom) -> Domain:
        """The domain `d` as a `Domain` (a bitset read over `base`)."""
        return Domain.from_bits(d, self.base) if d.__class__ is int else d  # type: ignore[return-value]

    def count(self, d: Dom) -> int:
        """The number of values of the domain `d`."""
        return d.bit_count() if d.__class__ is int else d.size  # type: ignore[union-attr]

    def values(self, d: Dom) -> Iterator[int]:
        """The values of the domain `d`, ascending, lazily."""
        if d.__class__ is int:
            base = self.base
            return (base + i for i in iter_bits(d))  # type: ignore[arg-type]
        return iter(d)  # type: ignore[arg-type]

    def contains(self, d: Dom, v: int) -> bool:
        """True iff the int v is in the domain `d` (a bitset may be a negative int: a mask)."""
        if d.__class__ is int:
            k = v - self.base
            return k >= 0 and bool((d >> k) & 1)  # type: ignore[operator]
        return v in d  # type: ignore[operator]

    def mask(self, values: Iterable[int]) -> Dom:
        """The domain of exactly `values` (ints) in the store's form: an argument for `restrict`."""
        if not isinstance(values, (tuple, list, set, frozenset)):
            values = list(values)
        base, bits = self.base, 0
        for v in values:
            k = v - base
            if k < 0 or k >= WIDE:  # out of the window: intervals
                return Domain.of(values)
            bits |= 1 << k
        return bits

    def interval(self, lo: int, hi: int) -> Dom:
        """The domain lo..hi in the store's form (empty, 0, when lo > hi)."""
        if lo > hi:
            return 0
        base = self.base
        if lo >= base and hi - base < WIDE:
            return ones(hi - lo + 1) << (lo - base)
        return Domain.interval(lo, hi)

    def shifted(self, d: Dom, c: int) -> Dom:
        """The domain {v + c for v in d}."""
        if d.__class__ is int:
            if c >= 0:
                if d.bit_length() + c <= WIDE:  # type: ignore[union-attr]
                    return d << c  # type: ignore[operator]
            elif (d & -d).bit_length() > -c:  # type: ignore[operator]  # no value falls below base
                return d >> -c  # type: ignore[operator]
        return self._form(self.as_domain(d).shift(c))

    def union(self, a: Dom, b: Dom) -> Dom:
        """The values in either domain."""
        if a.__class__ is int and b.__class__ is int:
            return a | b  # type: ignore[operator]
        return self._form(self.as_domain(a).union(self.as_domain(b)))

    def meets(self, a: Dom, b: Dom) -> bool:
        """True iff the two domains share a value."""
        return bool(self._intersect(a, b))

    def _form(self, d: Domain) -> Dom:
        """`d` in the store's form: a bitset when its values fit the window base..base + WIDE - 1
        (0 when empty), else `d` itself."""
        if not d.ranges:
            return 0
        base = self.base
        if d.ranges[0][0] >= base and d.ranges[-1][1] - base < WIDE:
            return d.to_bits(base)
        return d

    def _intersect(self, a: Dom, b: Dom) -> Dom:
        """The values in both domains, in the store's form (0 when none). A bitset argument
        may be negative (all values from some point up), as `at_least` and `remove` make."""
        if a.__class__ is int:
            if b.__class__ is int:
                return a & b  # type: ignore[operator]
            a, b = b, a
        if b.__class__ is not int:
            return self._form(a.intersection(b))  # type: ignore[union-attr, arg-type]
        # a Domain a and a bitset b: a's values in b's window, then (b negative) those above it
        width = (~b).bit_length() if b < 0 else b.bit_length()  # type: ignore[operator]
        base = self.base
        near = a.clip(base, base + width - 1)  # type: ignore[union-attr]
        bits = near.to_bits(base) & b if near.ranges else 0
        if b >= 0:  # type: ignore[operator]
            return bits
        above = a.clip(base + width)  # type: ignore[union-attr]
        if not above.ranges:
            return bits
        return self._form(Domain.from_bits(bits, base).union(above))

    # -- narrowing ------------------------------------------------------------------------

    def restrict(self, t: Any, mask: Dom, exact: bool = False) -> None:
        """Keep only the values of `t` in the domain `mask` (a bitset over `base`, or a `Domain`).

        With `exact`, `mask` is all of t's support, so a variable without a domain takes it
        (and a `Domain` that would fit a bitset after moving the store's base moves it).
        """
        if t.__class__ is int:
            if not self.contains(mask, t):
                raise Inconsistent
            return
        d = self.domains.get(t)
        if d is None:
            if not exact:
                return
            new = self._fit(mask)
        elif d.__class__ is int and mask.__class__ is int:
            new = d & mask  # type: ignore[operator]
            if new == d:
                return
        else:
            new = self._intersect(d, mask)
            if new == d:
                return
        if not new:
            raise Inconsistent
        self.domains[t] = new
        self._wake(t, d, new)

    def at_least(self, t: Any, v: int) -> None:
        """Remove the values of `t` below `v`."""
        if t.__class__ is int:
            if t < v:
                raise Inconsistent
            return
        d = self.domains.get(t)
        if d is None:
            return
        if d.__class__ is int:
            k = v - self.base
            if k > 0:
                if k >= d.bit_length():
                    raise Inconsistent
                self.restrict(t, -1 << k)
        elif v > d.ranges[0][0]:  # type: ignore[union-attr]
            self.restrict(t, d.clip(v))  # type: ignore[union-attr]

    def at_most(self, t: Any, v: int) -> None:
        """Remove the values of `t` above `v`."""
        if t.__class__ is int:
            if t > v:
                raise Inconsistent
            return
        d = self.domains.get(t)
        if d is None:
            return
        if d.__class__ is int:
            k = v - self.base + 1
            if k <= 0:
                raise Inconsistent
            if k < d.bit_length():
                self.restrict(t, ones(k))
        elif v < d.ranges[-1][1]:  # type: ignore[union-attr]
            self.restrict(t, d.clip(None, v))  # type: ignore[union-attr]

    def remove(self, t: Any, v: int) -> None:
        """Remove the value `v` from `t`."""
        if t.__class__ is int:
            if t == v:
                raise Inconsistent
            return
        d = self.domains.get(t)
        if d is None:
            return
        if d.__class__ is int:
            k = v - self.base
            if k >= 0 and (d >> k) & 1:  # inlined `restrict`: queens and zebra remove values most
                new = d ^ (1 << k)
                if not new:
                    raise Inconsistent
                self.domains[t] = new
                self._wake(t, d, new)
        else:
            self.restrict(t, d.without(v))  # type: ignore[union-attr]

    def ensure_base(self, v: int) -> None:
        """Let bitsets hold `v` if that is cheap: lower `base` to `v` when every bitset still fits
        `WIDE` bits (a no-op otherwise: values out of the window are kept as `Domain`s). For a
        propagator that builds bitsets by hand; `mask` and `interval` need no such call."""
        if v < self.base:
            self._rebase(v, v)

    def _min(self, d: Dom) -> int:
        """The smallest value of the domain `d`."""
        return self.base + (d & -d).bit_length() - 1 if d.__class__ is int else d.ranges[0][0]  # type: ignore

    def _max(self, d: Dom) -> int:
        """The largest value of the domain `d`."""
        return self.base + d.bit_length() - 1 if d.__class__ is int else d.ranges[-1][1]  # type: ignore

    def _fit(self, mask: Dom) -> Dom:
        """`mask` for a variable that had no domain: a `Domain` becomes a bitset when moving
        `base` makes it fit; a bitset wider than `WIDE` (a shifted mask) becomes a `Domain`."""
        if mask.__class__ is int:
            if mask.bit_length() <= WIDE:  # type: ignore[union-attr]
                return mask
            return self.as_domain(mask)
        if mask and self._rebase(mask.min, mask.max):  # type: ignore[union-attr]
            return self._form(mask)  # type: ignore[arg-type]
        return mask

    def _rebase(self, lo: int, hi: int) -> bool:
        """Move `base` so that a bitset can hold lo..hi, if every bitset still fits `WIDE` bits;
        True iff lo..hi fits the window afterwards."""
        if hi - lo >= WIDE:
            return False
        if lo >= self.base and hi - self.base < WIDE:
            return True
        bitsets = [d for d in self.domains.values() if d.__class__ is int]
        if not bitsets:  # no bitset to shift: the window may move anywhere
            self.base = lo
            return True
        if lo > self.base:
            return False
        k = self.base - lo
        if max(d.bit_length() for d in bitsets) + k > WIDE:
            return False
        domains = self.domains
        for key, d in domains.items():
            if d.__class__ is int:
                domains[key] = d << k
        self.base = lo
        return True

    # -- the propagation loop ---------------------------------------------------------------

    def _wake(self, v: Var, old: Dom | None, new: Dom) -> None:
        """Queue the propagators that the change of v's domain from `old` to `new` concerns."""
        on_domain, on_bounds, on_value = self.watch.get(v, _NO_WATCHERS)
        woken = list(on_domain)
        if new.__class__ is int:
            if on_bounds and (old.__class__ is not int or old & -old != new & -new  # type: ignore[operator]
                              or old.bit_length() != new.bit_length()):  # type: ignore[union-attr]
                woken += on_bounds
            if on_value and not new & (new - 1):  # type: ignore[operator]
                woken += on_value
        else:
            lo, hi = new.ranges[0][0], new.ranges[-1][1]  # type: ignore[union-attr]
            if on_bounds and (old is None or (self._min(old), self._max(old)) != (lo, hi)):
                woken += on_bounds
            if on_value and lo == hi:
                woken += on_value
        queued, queue = self._queued, self._queue
        for p in woken:
            if p not in queued:
                queued.add(p)
                queue[p.priority].append(p)

    def _fixpoint(self, smap: dict, pending: Iterable[Propagator], first: Any = None) -> bool:
        """Run `first()` (a narrowing, if given), then the pending propagators and all they wake
        until nothing changes, cheapest priority first; False if one fails.

        The substitution and the queue live on the store only while this runs.
        """
        self._smap = smap
        cheap: deque[Propagator] = deque()
        queue: tuple[deque[Propagator], deque[Propagator], deque[Propagator]] = (cheap, deque(), deque())
        queued: set[Propagator] = set()
        self._queue, self._queued = queue, queued
        for q in pending:
            if q not in queued:
                queued.add(q)
                queue[q.priority].append(q)
        p: Propagator | None = None  # the propagator running: the one to blame when propagation fails
        _, costly, costliest = queue
        try:
            if first is not None:
                first()
            while True:
                if cheap:
                    p = cheap.popleft()
                elif costly:
                    p = costly.popleft()
                elif costliest:
                    p = costliest.popleft()
                else:
                    break
                queued.discard(p)
                p.propagate(self)
        except Inconsistent:
            self.failed = p
            return False
        finally:
            del self._smap, self._queue, self._queued
        return True

    def post(self, prop: Propagator, smap: dict) -> bool:
        """Add `prop` to the store, watching its variables, and propagate; False on failure.

        An argument bound to anything but an int (a float, a bool, an atom, a list...) fails.
        """
        for t in prop.terms():
            t = walk(t, smap)
            if t.__class__ is int:
                continue
            if is_fd_term(t):
                w = self.watch.get(t, _NO_WATCHERS)
                if prop.watches:
                    w = _with_watcher(w, _EVENTS[prop.wake], prop)
                self.watch[t] = w
            else:
                return False
        return self._fixpoint(smap, (prop,))

    def narrow(self, t: Var, lo: int | None, hi: int | None, smap: dict) -> bool:
        """Keep the values of the variable `t` within lo..hi (None: no bound) and propagate;
        False on failure. Labelling splits a wide domain with it."""

        def bound() -> None:
            if lo is not None:
                self.at_least(t, lo)
            if hi is not None:
                self.at_most(t, hi)

        return self._fixpoint(smap, (), bound)

    def attempt(self, props: Iterable[Propagator]) -> FDStore | None:
        """A copy of this store narrowed by `props` alone, or None when they fail: a constraint
        tried without committing to it (the store's own propagators do not run in the copy).

        Only while propagating: the copy reads the current substitution.
        """
        trial = FDStore(self.domains.copy(), {}, self.base)
        for p in props:
            if not trial.post(p, self._smap):
                return None
        return trial

    def pre_unify_check(self, lvar_map, lvar=None, value=None) -> bool:
        return True

    def post_unify_check(self, lvar_map, lvar=None, value=None, old_state=None) -> bool:
        """Apply new bindings of watched variables to the domains, then propagate.

        A watched variable bound to an int must be in its domain; one bound to another
        variable hands it its watchers and the intersection of the two domains; one bound
        to any other term fails (FD variables stand for ints).
        """
        bound = [v for v in self.watch if v in lvar_map]
        if not bound:
            return True
        pending: list[Propagator] = []
        for v in bound:
            t = walk(v, lvar_map)
            watchers = self.watch.pop(v)
            d = self.domains.pop(v, None)
            for props in watchers:
                pending.extend(props)
            if t.__class__ is int:
                if d is not None and not (t - self.base >= 0 and (d >> (t - self.base)) & 1
                                          if d.__class__ is int else t in d):  # type: ignore[operator]
                    return False
            elif is_fd_term(t):  # aliased to another variable: merge into it
                old = self.watch.get(t, _NO_WATCHERS)
                self.watch[t] = _merged(old, watchers)
                if d is not None:
                    dt = self.domains.get(t)
                    new = d if dt is None else self._intersect(d, dt)
                    if not new:
                        return False
                    if new != dt:
                        self.domains[t] = new
                        for props in old:
                            pending.extend(props)
            else:
                return False
        return self._fixpoint(lvar_map, pending)


def _with_watcher(w: Watchers, k: int, prop: Propagator) -> Watchers:
    """The watchers `w` with `prop` added to those of event `k` (0 domain, 1 bounds, 2 value)."""
    if prop in w[k]:
        return w
    on = [w[0], w[1], w[2]]
    on[k] += (prop,)
    return on[0], on[1], on[2]


def _merged(a: Watchers, b: Watchers) -> Watchers:
    """The watchers of two aliased variables: a's, then those of b that a lacks, per event."""
    return (
        a[0] + tuple(p for p in b[0] if p not in a[0]),
        a[1] + tuple(p for p in b[1] if p not in a[1]),
        a[2] + tuple(p for p in b[2] if p not in a[2]),
    )


def _single(store: FDStore, d: Dom) -> int | None:
    """The one value of the domain `d`, or None when it has more."""
    if d.__class__ is int:
        return None if d & (d - 1) else store.base + d.bit_length() - 1  # type: ignore[operator, union-attr]
    (lo, hi), *more = d.ranges  # type: ignore[union-attr]
    return lo if lo == hi and not more else None


class FDState(State):
    """A logicpy `State` that holds an `FDStore`.

    It reifies a variable with a one-value domain to that value and one with a larger
    domain to an `FDVar` showing it, and it never reports itself empty while it holds
    constraints (kanren's `reify` skips empty states).
    """

    __slots__ = ()

    def __len__(self) -> int:
        return len(self.data) or int(bool(self.constraints))

    def post_unify_checks(self, lvar_map, lvar, value):
        """kanren's checks of a new substitution by every store, then `settle`."""
        S = super().post_unify_checks(lvar_map, lvar, value)
        return S if S is False else S.settle()

    def settle(self) -> FDState | Literal[False]:
        """This state with each variable whose domain is down to one value bound to that value,
        when another store (`neq`'s) holds constraints; False if that store rejects a binding.

        Other stores check bindings, not domains, so without this `neq(x, 1)` would never see
        propagation leave x only 1 (clpfd likewise binds such a variable). With the FD store
        alone nothing else looks, and reification shows the value anyway.
        """
        return self._settled()[0]

    def _settled(self) -> tuple[FDState | Literal[False], Propagator | None]:
        """`settle`, and the propagator to blame when it fails (see `bind`)."""
        store = self.constraints.get(FDStore)
        if store is None or len(self.constraints) == 1:
            return self, None
        fixed = [(v, value) for v, d in store.domains.items() if (value := _single(store, d)) is not None]
        if not fixed:
            return self, None
        # all of them at once: the checks that follow settle again what they fix in turn
        return bind(self, fixed)


def bind(S: FDState, pairs: list[tuple[Var, int]]) -> tuple[FDState | Literal[False], Propagator | None]:
    """`S` with each variable of `pairs` (distinct and unbound, each with a domain) bound to
    its int, as `unify` would make it, and settled; or False, with the propagator whose failure
    refused it (None when no propagator did: a value outside a domain, another store).

    Labelling binds through this to learn whom to blame (dom/wdeg); the blame is returned,
    never kept anywhere the next search could see it.
    """
    lvars = tuple(v for v, _ in pairs)
    values = tuple(value for _, value in pairs)
    if not S.pre_unify_checks(lvars, values):
        return False, None
    data = S.data
    for v, value in pairs:
        data = data.set(v, value)
    S2 = S.copy(data=data)
    for store in S2.constraints.values():
        if not store.post_unify_check(data, lvars, values, old_state=S2):
            return False, getattr(store, "failed", None)
    return S2._settled()


def fd_state(S: Any) -> tuple[FDState, FDStore]:
    """A copy of state `S` as an `FDState`, and its own `FDStore`, ready to be written."""
    S2 = S.copy() if isinstance(S, FDState) else FDState.of(S)
    store = S2.constraints.get(FDStore)
    if store is None:
        store = S2.constraints[FDStore] = FDStore()
    return S2, store


class FDVar(ConstrainedVar):
    """A reified unbound variable with its residual domain (and other stores' constraints).

    `domain` is a `Domain`; `others` the text of the other constraints (e.g. `neq {5}`).
    It compares and hashes like the variable it stands for (`shown`).
    """

    __slots__ = ("domain", "others", "shown")

    def __new__(cls, var: Var, domain: Domain, others: str = ""):
        obj = object.__new__(cls)
        obj.token = var.token
        obj.shown = var
        obj.domain = domain
        obj.others = others
        return obj

    def __init__(self, var: Var, domain: Domain, others: str = ""):
        pass

    def __repr__(self) -> str:
        extra = f", {self.others}" if self.others else ""
        return f"~{self.token} in {self.domain!r}{extra}"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is FDVar:  # isinstance would be true of any variable (kanren's metaclass)
            other = other.shown  # type: ignore[attr-defined]
        if is_var(other):
            return bool(self.shown == other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.shown)


def _reify_fd_state(u: Var, S: FDState):
    u_w = walk(u, S.data)
    if u_w is not u:
        yield _reify(u_w, S)
        return
    store = S.constraints.get(FDStore)
    d = None if store is None else store.domains.get(u)
    if d is None:
        yield u
        return
    value = _single(store, d)
    if value is not None:
        yield value
    else:
        others = ", ".join(
            c.constraints_str(u)
            for c in S.constraints.values()
            if c is not store and u in c.lvar_constraints
        )
        yield FDVar(u, store.as_domain(d), others)


_reify.add((Var, FDState), _reify_fd_state)
