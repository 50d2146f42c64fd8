"""The finite-domain store: bitset domains inside a kanren state, and the propagation loop.

A domain is a Python int used as a bitset: bit i set means the value `base + i` is allowed,
with one `base` shared by all domains of a store, so that an offset `x = y + c` is a plain
shift. The store is a kanren `ConstraintStore`: kanren calls `post_unify_check` after every
unification, which is where a binding made by `eq` (or by labelling) meets the domains and
wakes only the propagators that watch the variables just bound.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Set
from typing import Any, Literal

from kanren.constraints import ConstrainedState, ConstrainedVar, ConstraintStore
from unification import Var, unify  # type: ignore[import-untyped]
from unification.core import _reify  # type: ignore[import-untyped]

from ...errors import InputError

__all__ = ["Domain", "FDStore", "FDState", "FDVar", "Inconsistent", "Propagator", "fd_state", "MAX_SPAN", "check_span"]

#: The widest range of values one store holds (its bitsets cost a bit per integer of the
#: range): 2**22 integers, half a megabyte per domain. Wider is an `InputError`, not a MemoryError.
MAX_SPAN = 1 << 22


def check_span(lo: int, hi: int, what: str = "values") -> None:
    """Raise InputError when `lo..hi` is wider than a store can hold as bitsets."""
    if hi - lo >= MAX_SPAN:
        raise InputError(
            f"finite-domain {what} span {lo}..{hi}, more than {MAX_SPAN:,} integers: domains are bitsets "
            f"over the span of their values, so give values a compact range (e.g. their ranks)"
        )


def walk(t: Any, smap: dict) -> Any:
    """Follow the bindings of `t` in the substitution `smap`: the term a variable stands for.

    Any term may come back (an int, an unbound variable, or a float, atom, list, compound...).
    """
    while t.__class__ is Var or (t.__class__ is not int and isinstance(t, Var)):
        nxt = smap.get(t, t)
        if nxt is t:
            return t
        t = nxt
    return t


def is_fd_term(t: Any) -> bool:
    """True iff the walked term `t` can be an FD value: an int (not a bool) or an unbound variable."""
    return t.__class__ is int or t.__class__ is Var or isinstance(t, Var)


def iter_bits(bits: int) -> Iterator[int]:
    """Indices of the set bits of `bits`, ascending."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class Domain(Set):
    """A finite set of ints shown compactly, e.g. `{1..3, 7}`: a residual domain.

    >>> Domain.of([3, 1, 2, 7])
    {1..3, 7}
    >>> Domain.of([1, 2]) == {1, 2}
    True
    """

    __slots__ = ("bits", "base")

    def __init__(self, bits: int, base: int = 0):
        self.bits = bits
        self.base = base

    @classmethod
    def of(cls, values: Iterable[int]) -> Domain:
        """The domain holding exactly `values` (an iterable of ints)."""
        values = list(values)
        if not values:
            return cls(0)
        lo = min(values)
        bits = 0
        for v in values:
            bits |= 1 << (v - lo)
        return cls(bits, lo)

    @classmethod
    def _from_iterable(cls, values: Iterable[Any]) -> Set[Any]:
        """The result of Set's &, |, -, ^: a Domain when it holds only ints."""
        values = list(values)
        if all(v.__class__ is int for v in values):
            return cls.of(values)
        return frozenset(values)

    def __iter__(self) -> Iterator[int]:
        return (self.base + i for i in iter_bits(self.bits))

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __contains__(self, value: object) -> bool:
        # an int, not a bool (True is the atom true) nor a float equal to an int
        return value.__class__ is int and value >= self.base and bool((self.bits >> (value - self.base)) & 1)

    @property
    def min(self) -> int:
        """The smallest value."""
        return self.base + (self.bits & -self.bits).bit_length() - 1

    @property
    def max(self) -> int:
        """The largest value."""
        return self.base + self.bits.bit_length() - 1

    def __hash__(self) -> int:
        return self._hash()

    def __repr__(self) -> str:
        parts: list[str] = []
        run: list[int] = []
        for v in [*self, None]:
            if run and v == run[-1] + 1:
                run.append(v)
                continue
            if len(run) >= 3:
                parts.append(f"{run[0]}..{run[-1]}")
            else:
                parts.extend(str(r) for r in run)
            run = [v]
        return "{" + ", ".join(parts) + "}"


class Inconsistent(Exception):
    """Raised during propagation when a domain empties or a constraint cannot hold."""


class Propagator:
    """A constraint's pruning rule, run by the store until no domain changes.

    Subclasses list their argument terms in `terms()` and narrow domains in `propagate`
    through the store's methods (`walk`, `members`, `lo`, `hi`, `value`, `mask`, `restrict`,
    `at_least`, `at_most`, `remove`; bitset-level `dom`, `values`, `ensure_base`). The class attribute `wake` says which
    changes of a variable wake it: "domain" (any), "bounds" (its min or max) or "value" (it
    is down to one value); `watches = False` runs it once, when posted.

    Invariants: a propagator is immutable (its state lives in the store's domains);
    `propagate` only narrows domains and raises `Inconsistent` only when no assignment
    of its terms satisfies the constraint; bitsets are computed after any `ensure_base`.
    """

    __slots__ = ()
    watches = True
    wake = "domain"

    def terms(self) -> Iterable[Any]:
        """The argument terms (ints or logic variables) whose changes wake this propagator."""
        raise NotImplementedError

    def propagate(self, store: FDStore) -> None:
        """Narrow the domains of `self.terms()` in `store`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.terms()))})"


#: [the propagator whose failure ended the latest failed propagation]: what `labelo`'s "wdeg"
#: strategy weighs after a failed choice (it clears it before each choice). One per process,
#: like the search that reads it.
FAILED: list = [None]

_EVENTS = {"domain": 0, "bounds": 1, "value": 2}
Watchers = tuple[tuple[Propagator, ...], tuple[Propagator, ...], tuple[Propagator, ...]]
"""The propagators woken by any change of a variable, by a change of its bounds, by its coming down to one value."""
_NO_WATCHERS: Watchers = ((), (), ())


class FDStore(ConstraintStore):
    """Finite domains of logic variables and the propagators that watch each variable.

    `watch[v]` holds three tuples of propagators, woken by any change of v, by a change of
    its bounds, and by v coming down to one value.

    Invariants: every key of `watch` is a logic variable unbound in the state's
    substitution; the keys of `domains` are among them, each a non-zero bitset over
    `base`; every int that reaches a propagator is >= `base` (the store rebases when a
    smaller one appears). A variable without a domain is unbounded: it is checked, not
    pruned, until it gets one.
    """

    __slots__ = ("domains", "watch", "base", "_smap", "_queue", "_queued")
    op_str = "in"
    _smap: dict  # the substitution, the queue and its set: only while propagating
    _queue: deque[Propagator]
    _queued: set[Propagator]

    def __init__(self, domains: dict | None = None, watch: dict | None = None, base: int = 0):
        self.domains: dict[Var, int] = {} if domains is None else domains
        self.watch: dict[Var, Watchers] = {} if watch is None else watch
        self.base = base
        self.lvar_constraints = self.domains  # type: ignore[misc]  # the slot is kanren ConstraintStore's

    def copy(self) -> FDStore:
        return FDStore(self.domains.copy(), self.watch.copy(), self.base)

    def constraints_str(self, lvar: Var) -> str:
        d = self.domains.get(lvar)
        return "" if d is None else f"in {Domain(d, self.base)}"

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
        while t.__class__ is Var or (t.__class__ is not int and isinstance(t, Var)):  # `walk`, inlined: it is hot
            nxt = smap.get(t, t)
            if nxt is t:
                return t
            t = nxt
        if t.__class__ is int:
            return t
        raise Inconsistent

    def dom(self, t: Any) -> int | None:
        """Bitset of the walked term `t`; None for a variable without a domain."""
        if t.__class__ is int:
            return 1 << (t - self.base)
        return self.domains.get(t)

    def bits(self, t: Any) -> int:
        """Bitset of the walked term `t`, an int or a variable known to have a domain.

        For a term just narrowed by `restrict(..., exact=True)`, or one whose `lo` was not None.
        """
        d = self.dom(t)
        assert d is not None, f"{t} has no domain"
        return d

    def lo(self, t: Any) -> int | None:
        """Smallest value of `t`; None when unbounded."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        return None if d is None else self.base + (d & -d).bit_length() - 1

    def hi(self, t: Any) -> int | None:
        """Largest value of `t`; None when unbounded."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        return None if d is None else self.base + d.bit_length() - 1

    def value(self, t: Any) -> int | None:
        """The value of `t` when it has exactly one, else None."""
        if t.__class__ is int:
            return t
        d = self.domains.get(t)
        if d is None or d & (d - 1):
            return None
        return self.base + d.bit_length() - 1

    def values(self, bits: int) -> Iterator[int]:
        """The values of a bitset, ascending."""
        base = self.base
        return (base + i for i in iter_bits(bits))

    def members(self, t: Any) -> Domain | None:
        """The values of the walked term `t` as a `Domain`; None for a variable without one."""
        d = self.dom(t)
        return None if d is None else Domain(d, self.base)

    def mask(self, values: Iterable[int]) -> int:
        """The bitset of `values` (rebasing first if one is below `base`): an argument for `restrict`."""
        values = list(values)
        if values:
            self.ensure_base(min(values))
        bits = 0
        for v in values:
            bits |= 1 << (v - self.base)
        return bits

    # -- narrowing ------------------------------------------------------------------------

    def restrict(self, t: Any, mask: int, exact: bool = False) -> None:
        """Keep only the values of `t` in bitset `mask`.

        With `exact`, `mask` is all of t's support, so a variable without a domain takes it.
        """
        if t.__class__ is int:
            if not (mask >> (t - self.base)) & 1:
                raise Inconsistent
            return
        d = self.domains.get(t)
        if d is None:
            if not exact:
                return
            d = -1
        new = d & mask
        if new != d:
            if not new:
                raise Inconsistent
            self.domains[t] = new
            self._wake(t, d, new)

    def at_least(self, t: Any, v: int) -> None:
        """Remove the values of `t` below `v`."""
        if t.__class__ is int:
            if t < v:
                raise Inconsistent
        elif v > self.base:
            self.restrict(t, -1 << (v - self.base))

    def at_most(self, t: Any, v: int) -> None:
        """Remove the values of `t` above `v`."""
        if t.__class__ is int:
            if t > v:
                raise Inconsistent
        elif t in self.domains:
            k = v - self.base + 1
            if k <= 0:
                raise Inconsistent
            self.restrict(t, (1 << k) - 1)

    def remove(self, t: Any, v: int) -> None:
        """Remove the value `v` from `t`."""
        if t.__class__ is int:
            if t == v:
                raise Inconsistent
        elif v >= self.base:
            self.restrict(t, ~(1 << (v - self.base)))

    def ensure_base(self, v: int) -> None:
        """Make `v` representable: lower `base` to `v` if needed, shifting every domain."""
        if v < self.base:
            k = self.base - v
            domains = self.domains
            if domains:
                check_span(v, self.base + max(d.bit_length() for d in domains.values()))
            for key, d in domains.items():
                domains[key] = d << k
            self.base = v

    # -- the propagation loop ---------------------------------------------------------------

    def _wake(self, v: Var, old: int, new: int) -> None:
        """Queue the propagators that the change of v's domain from `old` to `new` concerns."""
        on_domain, on_bounds, on_value = self.watch.get(v, _NO_WATCHERS)
        woken = list(on_domain)
        if on_bounds and (old & -old != new & -new or old.bit_length() != new.bit_length()):
            woken += on_bounds
        if on_value and not new & (new - 1):
            woken += on_value
        queued = self._queued
        for p in woken:
            if p not in queued:
                queued.add(p)
                self._queue.append(p)

    def _fixpoint(self, smap: dict, pending: Iterable[Propagator]) -> bool:
        """Run the pending propagators and all they wake until nothing changes; False if one fails.

        The substitution and the queue live on the store only while this runs.
        """
        self._smap = smap
        queue: deque[Propagator] = deque()
        queued: set[Propagator] = set()
        self._queue, self._queued = queue, queued
        for p in pending:
            if p not in queued:
                queued.add(p)
                queue.append(p)
        try:
            while queue:
                p = queue.popleft()
                queued.discard(p)
                p.propagate(self)
        except Inconsistent:
            FAILED[0] = p
            return False
        finally:
            del self._smap, self._queue, self._queued
        return True

    def post(self, prop: Propagator, smap: dict) -> bool:
        """Add `prop` to the store, watching its variables, and propagate; False on failure.

        An argument bound to anything but an int (a float, a bool, an atom, a list...) fails.
        """
        small = None
        for t in prop.terms():
            t = walk(t, smap)
            if t.__class__ is int:
                small = t if small is None or t < small else small
                check_span(min(self.base, t), t)
            elif is_fd_term(t):
                w = self.watch.get(t, _NO_WATCHERS)
                if prop.watches:
                    w = _with_watcher(w, _EVENTS[prop.wake], prop)
                self.watch[t] = w
            else:
                return False
        if small is not None:
            self.ensure_base(small)
        return self._fixpoint(smap, (prop,))

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
                if d is not None and (t < self.base or not (d >> (t - self.base)) & 1):
                    return False
                self.ensure_base(t)
            elif is_fd_term(t):  # aliased to another variable: merge into it
                old = self.watch.get(t, _NO_WATCHERS)
                self.watch[t] = _merged(old, watchers)
                if d is not None:
                    dt = self.domains.get(t)
                    new = d if dt is None else d & dt
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


class FDState(ConstrainedState):
    """A kanren `ConstrainedState` that holds an `FDStore`.

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
        store = self.constraints.get(FDStore)
        if store is None or len(self.constraints) == 1:
            return self
        base = store.base
        fixed = [(v, base + d.bit_length() - 1) for v, d in store.domains.items() if not d & (d - 1)]
        if not fixed:
            return self
        # one unification of all of them: its post_unify_checks settles again what they fix in turn
        return unify(tuple(v for v, _ in fixed), tuple(value for _, value in fixed), self)


def fd_state(S: Any) -> tuple[FDState, FDStore]:
    """A copy of state `S` as an `FDState`, and its own `FDStore`, ready to be written."""
    if isinstance(S, FDState):
        S2 = S.copy()
    elif isinstance(S, ConstrainedState):
        S2 = FDState(S.data, constraints={k: c.copy() for k, c in S.constraints.items()})
    else:
        S2 = FDState(S)
    store = S2.constraints.get(FDStore)
    if store is None:
        store = S2.constraints[FDStore] = FDStore()
    return S2, store


class FDVar(ConstrainedVar):
    """A reified unbound variable with its residual domain (and other stores' constraints).

    `domain` is a `Domain`; `others` the text of the other constraints (e.g. `neq {5}`).
    It compares and hashes like the variable it stands for.
    """

    __slots__ = ("domain", "others")

    def __new__(cls, var: Var, domain: Domain, others: str = ""):
        obj = object.__new__(cls)
        obj.token = var.token
        obj.domain = domain
        obj.others = others
        return obj

    def __init__(self, var: Var, domain: Domain, others: str = ""):
        pass

    def __repr__(self) -> str:
        extra = f", {self.others}" if self.others else ""
        return f"~{self.token} in {self.domain!r}{extra}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Var):
            return self.token == other.token
        return NotImplemented

    __hash__ = ConstrainedVar.__hash__


def _reify_fd_state(u: Var, S: FDState):
    u_w = walk(u, S.data)
    if u_w is not u:
        yield _reify(u_w, S)
        return
    store = S.constraints.get(FDStore)
    d = None if store is None else store.domains.get(u)
    if d is None:
        yield ConstrainedVar(u, S)
    elif not d & (d - 1):
        yield store.base + d.bit_length() - 1
    else:
        others = ", ".join(
            c.constraints_str(u)
            for c in S.constraints.values()
            if c is not store and u in c.lvar_constraints
        )
        yield FDVar(u, Domain(d, store.base), others)


_reify.add((Var, FDState), _reify_fd_state)
