"""The propagators behind the finite-domain goals, one class per constraint.

Each narrows domains through the `FDStore` methods and is woken again whenever one of its
variables changes. The strength of each (bounds or domain consistency) is stated in its
docstring and in the README's constraint table.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor, gcd
from typing import Any

from .store import WIDE, Domain, FDStore, Inconsistent, Propagator, iter_bits

__all__ = [
    "InDomain",
    "LessEq",
    "EqOffset",
    "NeqOffset",
    "AbsDiff",
    "NotAbsDiff",
    "AllDifferent",
    "Linear",
    "ShortLinear",
    "Element",
    "TuplesIn",
    "ReifiedLessEq",
    "ReifiedEq",
    "Times",
    "MinMax",
    "Divide",
    "divide",
]


def _offset(c: int) -> str:
    """` + c` / ` - c` / `` for showing y + c."""
    return f" + {c}" if c > 0 else f" - {-c}" if c < 0 else ""


def _list(xs: tuple) -> str:
    return f"[{', '.join(map(repr, xs))}]"


#: The most values a domain may have for a propagator to reason on its values one by one
#: when it is not a bitset (a sparse `Domain`); wider domains get bounds reasoning.
FEW = 256


class InDomain(Propagator):
    """x ∈ values, a non-empty `Domain`.

    Invariants: runs once, when posted.
    """

    __slots__ = ("x", "values", "lo", "bits")
    watches = False

    def __init__(self, x: Any, values: Domain):
        self.x, self.values = x, values
        # the values as a bitset over their least (when compact): posting is then one shift
        self.lo = values.min
        self.bits = values.to_bits(self.lo) if values.max - self.lo < WIDE else None

    def terms(self):
        return (self.x,)

    def __repr__(self) -> str:
        return f"{self.x!r} in {self.values!r}"

    def propagate(self, s: FDStore) -> None:
        k = self.lo - s.base
        if self.bits is not None and k >= 0 and self.bits.bit_length() + k <= WIDE:
            s.restrict(s.walk(self.x), self.bits << k, exact=True)
        else:  # out of the window: the Domain (which may move the window when x has no domain yet)
            s.restrict(s.walk(self.x), self.values, exact=True)


class _Offset(Propagator):
    """A relation between x and y + c, with c an int fixed when posted; wakes on x and y.

    `op` is the relation as clpfd writes it, for the repr (`x #=< y + 2`).
    """

    __slots__ = ("x", "y", "c")
    op = ""

    def __init__(self, x: Any, y: Any, c: int):
        self.x, self.y, self.c = x, y, c

    def terms(self):
        return (self.x, self.y)

    def __repr__(self) -> str:
        return f"{self.x!r} {self.op} {self.y!r}{_offset(self.c)}"


class _Distance(Propagator):
    """A relation between |x − y| and d, where d may itself be a variable; wakes on all three.

    `op` is the relation as clpfd writes it, for the repr (`abs(x - y) #= d`).
    """

    __slots__ = ("x", "y", "d")
    op = ""

    def __init__(self, x: Any, y: Any, d: Any):
        self.x, self.y, self.d = x, y, d

    def terms(self):
        return (self.x, self.y, self.d)

    def __repr__(self) -> str:
        return f"abs({self.x!r} - {self.y!r}) {self.op} {self.d!r}"


class LessEq(_Offset):
    """x <= y + c, bounds consistent: max x <= max y + c and min y >= min x - c.

    Invariants: idempotent after one run; ignores a side without a domain.
    """

    __slots__ = ()
    wake = "bounds"
    op = "#=<"

    def propagate(self, s: FDStore) -> None:
        x, y = s.walk(self.x), s.walk(self.y)
        if x is y:  # x <= x + c
            if self.c < 0:
                raise Inconsistent
            return
        hy = s.hi(y)
        if hy is not None:
            s.at_most(x, hy + self.c)
        lx = s.lo(x)
        if lx is not None:
            s.at_least(y, lx - self.c)


class EqOffset(_Offset):
    """x = y + c, domain consistent: each domain is the other's shifted by c.

    Invariants: a side without a domain gets the other's, shifted.
    """

    __slots__ = ()
    op = "#="

    def propagate(self, s: FDStore) -> None:
        x, y, c = s.walk(self.x), s.walk(self.y), self.c
        if x is y:  # x = x + c
            if c:
                raise Inconsistent
            return
        dx, dy = s.dom(x), s.dom(y)
        if dx is None:  # x takes y's domain, shifted
            if dy is not None:
                s.restrict(x, s.shifted(dy, c), exact=True)
        elif dy is None:
            s.restrict(y, s.shifted(dx, -c), exact=True)
        else:
            s.restrict(x, s.shifted(dy, c))
            s.restrict(y, s.shifted(s.bits(x), -c))


class NeqOffset(_Offset):
    """x != y + c, domain consistent once either side has one value.

    Invariants: removes at most one value from each side per run.
    """

    __slots__ = ()
    wake = "value"
    op = "#\\="

    def propagate(self, s: FDStore) -> None:
        x, y = s.walk(self.x), s.walk(self.y)
        if x is y:  # x != x + c
            if self.c == 0:
                raise Inconsistent
            return
        vy = s.value(y)
        if vy is not None:
            s.remove(x, vy + self.c)
        vx = s.value(x)
        if vx is not None:
            s.remove(y, vx - self.c)


class AbsDiff(_Distance):
    """|x − y| = d, domain consistent (every value kept has a support on the other sides)
    while the domains are bitsets or have at most `FEW` values; bounds consistent on wider
    sparse domains.

    Invariants: prunes x and y only when the other side and d have domains; d without a
    domain gets the interval of |x − y| once x and y have domains.
    """

    __slots__ = ()
    op = "#="

    def propagate(self, s: FDStore) -> None:
        x, y, d = s.walk(self.x), s.walk(self.y), s.walk(self.d)
        if x is y:  # |x - x| = d
            s.restrict(d, s.mask((0,)), exact=True)
            return
        s.at_least(d, 0)
        dd = s.dom(d)
        dx, dy = s.dom(x), s.dom(y)
        if dd is None and dx is not None and dy is not None:  # d gets the interval |x - y| allows
            low, high = s.lo(x) - s.hi(y), s.hi(x) - s.lo(y)  # type: ignore[operator]
            _within(s, d, low if low > 0 else -high if high < 0 else 0, max(-low, high))
            dd, dx, dy = s.dom(d), s.dom(x), s.dom(y)  # restricting d may have moved the base
        if dd is None or dx is None or dy is None:
            vx, vy = s.value(x), s.value(y)
            if vx is not None and vy is not None:
                s.restrict(d, s.mask((abs(vx - vy),)), exact=True)
            return
        if dd.__class__ is int and dx.__class__ is int and dy.__class__ is int:
            keep_d = sx = sy = 0
            base = s.base
            for e in s.values(dd):
                if e >= WIDE:  # two bitsets are never that far apart
                    break
                near_y = dx & ((dy << e) | (dy >> e))
                if near_y:
                    keep_d |= 1 << (e - base)
                    sx |= near_y
                    sy |= dy & ((dx << e) | (dx >> e))
            s.restrict(d, keep_d)
            s.restrict(x, sx)
            s.restrict(y, sy)
        elif max(s.count(dd), s.count(dx), s.count(dy)) <= FEW:
            self._supports(s, x, y, d, dx, dy, dd)
        else:
            self._bounds(s, x, y, d)

    @staticmethod
    def _supports(s: FDStore, x: Any, y: Any, d: Any, dx: Any, dy: Any, dd: Any) -> None:
        """Domain consistency value by value, for sparse domains of few values."""
        xs, ys = set(s.values(dx)), set(s.values(dy))
        keep_d: list[int] = []
        sx: set[int] = set()
        sy: set[int] = set()
        for e in s.values(dd):
            near = [v for v in xs if v + e in ys or v - e in ys]
            if near:
                keep_d.append(e)
                sx.update(near)
                sy.update(v for v in ys if v + e in xs or v - e in xs)
        s.restrict(d, s.mask(keep_d))
        s.restrict(x, s.mask(sx))
        s.restrict(y, s.mask(sy))

    @staticmethod
    def _bounds(s: FDStore, x: Any, y: Any, d: Any) -> None:
        """Bounds reasoning: d within the bounds of |x − y|, x within y ± max d, y within x ± max d."""
        lx, hx, ly, hy = s.lo(x), s.hi(x), s.lo(y), s.hi(y)
        assert lx is not None and hx is not None and ly is not None and hy is not None  # all have domains
        low, high = lx - hy, hx - ly  # x − y ∈ low..high
        if low > 0:
            s.at_least(d, low)
        elif high < 0:
            s.at_least(d, -high)
        s.at_most(d, max(-low, high))
        hd = s.hi(d)
        assert hd is not None
        s.at_least(x, ly - hd)
        s.at_most(x, hy + hd)
        s.at_least(y, lx - hd)
        s.at_most(y, hx + hd)


class NotAbsDiff(_Distance):
    """|x − y| != d, domain consistent once two of x, y, d have one value.

    Invariants: never prunes while two of the three are open.
    """

    __slots__ = ()
    wake = "value"
    op = "#\\="

    def propagate(self, s: FDStore) -> None:
        x, y, d = s.walk(self.x), s.walk(self.y), s.walk(self.d)
        if x is y:  # |x - x| != d
            s.remove(d, 0)
            return
        vx, vy, vd = s.value(x), s.value(y), s.value(d)
        if vd is not None:
            if vd < 0:
                return
            if vx is not None:
                s.remove(y, vx + vd)
                s.remove(y, vx - vd)
            if vy is not None:
                s.remove(x, vy + vd)
                s.remove(x, vy - vd)
        if vx is not None and vy is not None:
            s.remove(d, abs(vx - vy))


class AllDifferent(Propagator):
    """Pairwise different, domain consistent (Régin: values no maximum matching uses are removed);
    with `matching=False`, singles only (`_singles`): cheaper, and as strong once one value is left
    per variable.

    Invariants: variables without a domain take part only once they have a value (or when
    one occurs twice, which fails).
    """

    __slots__ = ("xs", "matching")
    priority = 1

    def __init__(self, xs: tuple, matching: bool = True):
        self.xs, self.matching = xs, matching

    def terms(self):
        return self.xs

    def __repr__(self) -> str:
        return f"{'all_distinct' if self.matching else 'all_different'}({_list(self.xs)})"

    def propagate(self, s: FDStore) -> None:
        ts, doms, taken, seen = [], [], 0, set()
        for t in map(s.walk, self.xs):
            if t.__class__ is not int:
                if id(t) in seen:  # the same variable twice
                    raise Inconsistent
                seen.add(id(t))
            d = s.dom(t)
            if d is None:
                continue
            if d.__class__ is not int:
                return self._sparse(s)
            if d & (d - 1):
                ts.append(t)
                doms.append(d)
            elif taken & d:
                raise Inconsistent
            else:
                taken |= d
        for t, keep in zip(ts, (_distinct if self.matching else _singles)(doms, taken)):
            s.restrict(t, keep)

    def _sparse(self, s: FDStore) -> None:
        """The same pruning when some domain is a `Domain`: the values of the domains of at most
        `FEW` values are ranked, so that bitsets over ranks stand for them; a wider domain (more
        values than there can be variables to match) only loses the values others are fixed to."""
        walked = [s.walk(t) for t in self.xs]
        open_vars = [id(t) for t in walked if t.__class__ is not int]
        if len(set(open_vars)) < len(open_vars):  # the same variable twice
            raise Inconsistent
        items = [(t, d) for t in walked if (d := s.dom(t)) is not None]
        few = [(t, d) for t, d in items if s.count(d) <= FEW]
        ranked = sorted({v for _, d in few for v in s.values(d)})
        rank = {v: r for r, v in enumerate(ranked)}
        ts, doms, taken = [], [], 0
        for t, d in few:
            bits = 0
            for v in s.values(d):
                bits |= 1 << rank[v]
            if bits & (bits - 1):
                ts.append(t)
                doms.append(bits)
            elif taken & bits:
                raise Inconsistent
            else:
                taken |= bits
        for t, keep in zip(ts, (_distinct if self.matching else _singles)(doms, taken)):
            s.restrict(t, s.mask(ranked[r] for r in iter_bits(keep)))
            if not keep & (keep - 1):
                taken |= keep
        fixed = [ranked[r] for r in iter_bits(taken)]
        for t, d in items:
            if s.count(d) > FEW:
                for v in fixed:
                    s.remove(t, v)


def _naked_singles(doms: list[int], taken: int) -> int:
    """Remove the values of `taken` from the open bitset domains `doms` (in place), again
    after each domain left with one value (its value taken too); the values taken at the end.

    Raises `Inconsistent` when a domain is left empty."""
    new_single = True
    while new_single:
        new_single = False
        for i, d in enumerate(doms):
            if d & (d - 1) and d & taken:
                d &= ~taken
                if not d:
                    raise Inconsistent
                doms[i] = d
                if not d & (d - 1):
                    taken |= d
                    new_single = True
    return taken


def _distinct(doms: list[int], taken: int) -> list[int]:
    """The bitset domains `doms` (of two values or more) of variables different from each other
    and from the values of `taken`, pruned: naked singles, then Régin's matching when some
    domain has fewer values than there are open variables.

    Raises `Inconsistent` when no assignment gives every variable its own value.
    """
    doms = list(doms)
    _naked_singles(doms, taken)  # first: cheap, and they shrink the matching problem
    open_ix = [i for i, d in enumerate(doms) if d & (d - 1)]
    # when every domain has at least as many values as there are open variables, every
    # value has a complete matching (Hall's theorem), so the matching could prune nothing
    if len(open_ix) > 1 and min(doms[i].bit_count() for i in open_ix) < len(open_ix):
        for i, keep in zip(open_ix, _regin([doms[i] for i in open_ix])):
            doms[i] = keep
    return doms


def _singles(doms: list[int], taken: int) -> list[int]:
    """The bitset domains `doms` (of two values or more) of variables different from each other
    and from the values of `taken`, pruned by singles only: a variable's one value leaves the
    others (naked), and when the open variables have exactly as many values as they are, a
    value only one of them holds is that one's (hidden). Fails when they have fewer values.
    """
    doms = list(doms)
    while True:
        taken = _naked_singles(doms, taken)
        once = twice = 0
        open_count = 0
        for d in doms:
            if d & (d - 1):
                open_count += 1
                twice |= once & d
                once |= d
        values = once.bit_count()
        if values < open_count:
            raise Inconsistent
        hidden = once & ~twice if values == open_count else 0
        if not hidden:
            return doms
        for i, d in enumerate(doms):
            if d & (d - 1) and d & hidden:
                h = d & hidden
                if h & (h - 1):  # two values only this variable can take, both needed
                    raise Inconsistent
                doms[i] = h
                taken |= h


def _regin(doms: list[int]) -> list[int]:
    """For variables with bitset domains, the values that some complete matching gives each.

    Raises `Inconsistent` when no matching gives every variable its own value.
    """
    n = len(doms)
    match = [-1] * n  # value index per variable
    owner: dict[int, int] = {}  # variable per value index
    owned = 0
    for i, d in enumerate(doms):  # greedy start
        free = d & ~owned
        if free:
            v = (free & -free).bit_length() - 1
            match[i], owner[v] = v, i
            owned |= 1 << v

    def augment(i: int, seen: list[int]) -> bool:
        for v in iter_bits(doms[i] & ~seen[0]):
            seen[0] |= 1 << v
            j = owner.get(v)
            if j is None or augment(j, seen):
                match[i], owner[v] = v, i
                return True
        return False

    for i in range(n):
        if match[i] < 0:
            if not augment(i, [0]):
                raise Inconsistent
            owned = 0
            for v in owner:
                owned |= 1 << v
    # values reachable from a free value by alternating paths: their edges are all kept
    union = 0
    for d in doms:
        union |= d
    reached = frontier = union & ~owned
    while frontier:
        new = 0
        for i, d in enumerate(doms):
            mi = 1 << match[i]
            if d & ~mi & frontier and not reached & mi:
                new |= mi
        reached |= new
        frontier = new
    # strongly connected components of i -> j when j could take i's matched value
    succ = [[j for j in range(n) if j != i and (doms[j] >> match[i]) & 1] for i in range(n)]
    comp = _components(succ)
    comp_values: dict[int, int] = {}
    for i in range(n):
        comp_values[comp[i]] = comp_values.get(comp[i], 0) | (1 << match[i])
    return [d & (reached | comp_values[comp[i]]) for i, d in enumerate(doms)]


def _components(succ: list[list[int]]) -> list[int]:
    """Tarjan's strongly connected components: a component number per node."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n
    on_stack = [False] * n
    stack: list[int] = []
    counter = [0, 0]

    def visit(v: int) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack[v] = True
        for w in succ[v]:
            if index[w] < 0:
                visit(w)
                low[v] = min(low[v], low[w])
            elif on_stack[w]:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack[w] = False
                comp[w] = counter[1]
                if w == v:
                    break
            counter[1] += 1

    for v in range(n):
        if index[v] < 0:
            visit(v)
    return comp


class Linear(Propagator):
    """Σ coeffs[i]·xs[i] = 0, bounds consistent, each variable counted once.

    Each run merges the terms that are the same variable (written twice, or aliased later by
    `eq`) into one with the sum of their coefficients, and folds ints into a constant, so
    x + x = 6 gives x = 3 and x − x = 0 leaves x alone, as clpfd does. The gcd of the merged
    coefficients must divide the constant (2x + 4y = 7 fails at once).

    Two unit terms left (x − y = c; of three, one fixed) are kept domain consistent, as
    `EqOffset`; a `ShortLinear` is woken for that by every domain change.

    Invariants: prunes only when at most one variable lacks a domain (that one gets an interval).
    """

    __slots__ = ("xs", "coeffs")
    wake = "bounds"

    def __init__(self, xs: tuple, coeffs: tuple):
        self.xs, self.coeffs = xs, coeffs

    def terms(self):
        return self.xs

    def __repr__(self) -> str:
        """clpfd-style, positive terms left and negative ones right: `2*x + y #= t`."""

        def side(sign: int) -> str:
            parts = [repr(t) if a * sign == 1 else f"{a * sign}*{t!r}" for t, a in zip(self.xs, self.coeffs)
                     if a * sign > 0]
            return " + ".join(parts) or "0"

        return f"{side(1)} #= {side(-1)}"

    def propagate(self, s: FDStore) -> None:
        const = 0
        merged: dict[Any, int] = {}
        for t, a in zip(self.xs, self.coeffs):
            t = s.walk(t)
            if t.__class__ is int:
                const += a * t
            else:
                merged[t] = merged.get(t, 0) + a
        ts = [t for t, a in merged.items() if a]
        coeffs = [merged[t] for t in ts]
        if len(ts) == 3:  # one of three with one value left: the other two may be x − y = c
            fixed = [i for i, t in enumerate(ts) if s.value(t) is not None]
            if len(fixed) == 1:
                i = fixed[0]
                const += coeffs[i] * s.value(ts[i])  # type: ignore[operator]
                del ts[i], coeffs[i]
        if len(ts) == 2 and coeffs[0] == -coeffs[1] and coeffs[0] in (1, -1):  # x − y = c: domains shifted
            x, y = ts if coeffs[0] == 1 else ts[::-1]
            EqOffset(x, y, -const).propagate(s)
            return
        if not ts:  # every variable cancelled out: 0 = −const
            if const:
                raise Inconsistent
            return
        if const % gcd(*coeffs):
            raise Inconsistent
        # the sum Σ a·t over the variables lies in [sum_lo, sum_hi] and must equal −const
        los, his, unbounded = [], [], []
        for i, (t, a) in enumerate(zip(ts, coeffs)):
            lo, hi = s.lo(t), s.hi(t)
            if lo is None or hi is None:
                unbounded.append(i)
                los.append(0)
                his.append(0)
            elif a > 0:
                los.append(a * lo)
                his.append(a * hi)
            else:
                los.append(a * hi)
                his.append(a * lo)
        if len(unbounded) > 1:
            return
        sum_lo, sum_hi = sum(los) + const, sum(his) + const
        if unbounded:  # the one open term is minus the sum of the others
            i = unbounded[0]
            lo_i, hi_i = _divide(-sum_hi, -sum_lo, coeffs[i])
            if lo_i > hi_i:
                raise Inconsistent
            s.restrict(ts[i], s.interval(lo_i, hi_i), exact=True)
            return  # restricting woke this propagator again, now with every term bounded
        if sum_lo > 0 or sum_hi < 0:
            raise Inconsistent
        for t, a, lo, hi in zip(ts, coeffs, los, his):
            if lo == hi:
                continue
            # a·t = −(const + the other terms) ∈ [hi − sum_hi, lo − sum_lo]
            new_lo, new_hi = _divide(hi - sum_hi, lo - sum_lo, a)
            s.at_least(t, new_lo)
            s.at_most(t, new_hi)


class ShortLinear(Linear):
    """A `Linear` of at most three terms, woken by any change of a domain: once two unit terms
    are left (x − y = c, the third with one value), it keeps their domains shifted copies of
    each other, as clpfd does for `Z #= X + C`."""

    __slots__ = ()
    wake = "domain"


def _divide(lo: int, hi: int, a: int) -> tuple[int, int]:
    """The integer interval of t with a·t in [lo, hi]."""
    if a < 0:
        lo, hi, a = -hi, -lo, -a
    return -(-lo // a), hi // a


class Element(Propagator):
    """xs[i] = v with i counted from 1, domain consistent on i and v.

    Invariants: i is kept within 1..len(xs); once i has one value, v and xs[i] share a domain.
    """

    __slots__ = ("i", "xs", "v")
    priority = 1

    def __init__(self, i: Any, xs: tuple, v: Any):
        self.i, self.xs, self.v = i, xs, v

    def terms(self):
        return (self.i, self.v, *self.xs)

    def __repr__(self) -> str:
        return f"element({self.i!r}, {_list(self.xs)}, {self.v!r})"

    def propagate(self, s: FDStore) -> None:
        i, v = s.walk(self.i), s.walk(self.v)
        n, base = len(self.xs), s.base
        s.restrict(i, ((1 << n) - 1) << (1 - base) if base <= 1 and n - base < WIDE else s.interval(1, n), exact=True)
        dv, di = s.dom(v), s.bits(i)
        if di.__class__ is int and dv.__class__ is not Domain:  # bitsets, inline: element is hot in Einstein models
            base = s.base
            keep_i = 0
            union: Any = 0
            open_item = False
            for k in s.values(di):
                dx = s.dom(s.walk(self.xs[k - 1]))
                if dx is None:
                    open_item = True
                elif dx.__class__ is not int:
                    break  # a Domain: the general loop below
                elif dv is not None and not dx & dv:  # type: ignore[operator]
                    continue
                else:
                    union |= dx
                keep_i |= 1 << (k - base)
            else:
                s.restrict(i, keep_i)
                if not open_item:
                    s.restrict(v, union, exact=True)
                if not keep_i & (keep_i - 1):
                    self._chosen(s, i, v)
                return
        keep: list[int] = []
        union = 0
        open_item = False
        for k in s.values(di):
            dx = s.dom(s.walk(self.xs[k - 1]))
            if dx is None:
                open_item = True
            elif dv is not None and not s.meets(dx, dv):
                continue
            else:
                union = s.union(union, dx)
            keep.append(k)
        s.restrict(i, s.mask(keep))
        if not open_item:
            s.restrict(v, union, exact=True)
        self._chosen(s, i, v)

    def _chosen(self, s: FDStore, i: Any, v: Any) -> None:
        """Once i has one value, v and xs[i] are one: each takes the other's domain."""
        chosen = s.value(i)
        if chosen is not None:
            x = s.walk(self.xs[chosen - 1])
            dv = s.dom(v)
            if dv is not None:
                s.restrict(x, dv, exact=True)
            dx = s.dom(x)
            if dx is not None:
                s.restrict(v, dx, exact=True)


class TuplesIn(Propagator):
    """The tuple xs is one of `rows`, domain consistent (rows outside the domains are dropped).

    Invariants: `rows` is a tuple of int tuples, each as long as xs.
    """

    __slots__ = ("xs", "rows")

    def __init__(self, xs: tuple, rows: tuple):
        self.xs, self.rows = xs, rows

    def terms(self):
        return self.xs

    def __repr__(self) -> str:
        return f"tuples_in([{_list(self.xs)}], {_list(tuple(map(list, self.rows)))})"

    def propagate(self, s: FDStore) -> None:
        ts = [s.walk(t) for t in self.xs]
        doms = [s.dom(t) for t in ts]
        base = s.base
        repeats = [(j, k) for k, t in enumerate(ts) for j in range(k) if ts[j] is t and t.__class__ is not int]
        if all(d is None or d.__class__ is int for d in doms):  # bitsets: membership is a shift
            alive = [
                row for row in self.rows
                if all(d is None or (val >= base and (d >> (val - base)) & 1) for d, val in zip(doms, row))
                and all(row[j] == row[k] for j, k in repeats)
            ]
        else:
            alive = [
                row for row in self.rows
                if all(d is None or s.contains(d, val) for d, val in zip(doms, row))
                and all(row[j] == row[k] for j, k in repeats)
            ]
        if not alive:
            raise Inconsistent
        for j, t in enumerate(ts):
            column = [row[j] for row in alive]
            base = s.base  # an exact restrict of a variable without a domain may have moved it
            if min(column) >= base and max(column) - base < WIDE:
                support = 0
                for v in column:
                    support |= 1 << (v - base)
                s.restrict(t, support, exact=True)
            else:
                s.restrict(t, s.mask(column), exact=True)


class _Reified(Propagator):
    """b ⇔ a constraint on x, y, c, with b in {0, 1}: once b is known, the constraint
    (`holds`) or its negation (`fails`) propagates; until then `decided` may fix b."""

    __slots__ = ("b", "x", "y", "c")
    symbol = ""

    def __init__(self, b: Any, x: Any, y: Any, c: int):
        self.b, self.x, self.y, self.c = b, x, y, c

    def terms(self):
        return (self.b, self.x, self.y)

    def __repr__(self) -> str:
        return f"{self.b!r} #<==> ({self.x!r} {self.symbol} {self.y!r}{_offset(self.c)})"

    def holds(self) -> Propagator:
        raise NotImplementedError

    def fails(self) -> Propagator:
        raise NotImplementedError

    def decided(self, s: FDStore, x: Any, y: Any) -> int | None:
        """1 or 0 when the domains of the walked x and y already decide the constraint, else None."""
        raise NotImplementedError

    def propagate(self, s: FDStore) -> None:
        s.restrict(s.walk(self.b), s.mask((0, 1)), exact=True)
        vb = s.value(s.walk(self.b))
        if vb == 1:
            self.holds().propagate(s)
        elif vb == 0:
            self.fails().propagate(s)
        else:
            known = self.decided(s, s.walk(self.x), s.walk(self.y))
            if known is not None:
                s.restrict(s.walk(self.b), s.mask((known,)), exact=True)


class ReifiedLessEq(_Reified):
    """b ⇔ x <= y + c, with b in {0, 1}: bounds consistent on x and y once b is known;
    b is fixed as soon as the bounds of x and y decide the comparison (clpfd's `#<==>`).
    """

    __slots__ = ()
    wake = "bounds"
    symbol = "#=<"

    def holds(self) -> Propagator:
        return LessEq(self.x, self.y, self.c)

    def fails(self) -> Propagator:  # x > y + c, i.e. y <= x - c - 1
        return LessEq(self.y, self.x, -self.c - 1)

    def decided(self, s: FDStore, x: Any, y: Any) -> int | None:
        lx, hx, ly, hy = s.lo(x), s.hi(x), s.lo(y), s.hi(y)
        if hx is not None and ly is not None and hx <= ly + self.c:
            return 1
        if lx is not None and hy is not None and lx > hy + self.c:
            return 0
        return None


class ReifiedEq(_Reified):
    """b ⇔ x = y + c, with b in {0, 1}: domain consistent once b is known; b is fixed when
    the domains of x and y + c are disjoint (0) or both one and the same value (1)."""

    __slots__ = ()
    symbol = "#="

    def holds(self) -> Propagator:
        return EqOffset(self.x, self.y, self.c)

    def fails(self) -> Propagator:
        return NeqOffset(self.x, self.y, self.c)

    def decided(self, s: FDStore, x: Any, y: Any) -> int | None:
        dx, dy = s.dom(x), s.dom(y)
        if dx is None or dy is None:
            return None
        if not s.meets(dx, s.shifted(dy, self.c)):
            return 0
        if s.value(x) is not None and s.value(y) is not None:
            return 1
        return None


class Times(Propagator):
    """x · y = z, bounds consistent on z; x (or y) is narrowed to the quotients of z's and
    y's (x's) bounds when the divisor's interval excludes 0 (then z / y is monotone in
    each argument, so its extremes are at the corners).

    Invariants: prunes a variable only from sides that have domains; with all three
    fixed it only checks.
    """

    __slots__ = ("x", "y", "z")
    wake = "bounds"

    def __init__(self, x: Any, y: Any, z: Any):
        self.x, self.y, self.z = x, y, z

    def terms(self):
        return (self.x, self.y, self.z)

    def __repr__(self) -> str:
        return f"{self.x!r}*{self.y!r} #= {self.z!r}"

    def propagate(self, s: FDStore) -> None:
        x, y, z = s.walk(self.x), s.walk(self.y), s.walk(self.z)
        vx, vy, vz = s.value(x), s.value(y), s.value(z)
        if vx is not None and vy is not None:
            if vz is not None:
                if vx * vy != vz:
                    raise Inconsistent
                return
            s.restrict(z, s.mask((vx * vy,)), exact=True)
            return
        lx, hx, ly, hy = s.lo(x), s.hi(x), s.lo(y), s.hi(y)
        if lx is not None and hx is not None and ly is not None and hy is not None:
            corners = (lx * ly, lx * hy, hx * ly, hx * hy)
            _within(s, z, min(corners), max(corners))
        self._quotient(s, x, y, z)
        self._quotient(s, y, x, z)

    @staticmethod
    def _quotient(s: FDStore, a: Any, b: Any, z: Any) -> None:
        """Narrow a to [min, max] of z / b over the bounds, when b's interval excludes 0."""
        lb, hb, lz, hz = s.lo(b), s.hi(b), s.lo(z), s.hi(z)
        if lb is None or hb is None or lz is None or hz is None or lb <= 0 <= hb:
            return
        quotients = [Fraction(p, q) for p in (lz, hz) for q in (lb, hb)]
        _within(s, a, ceil(min(quotients)), floor(max(quotients)))


class MinMax(Propagator):
    """z = min(x, y) (or max(x, y) when `largest`), bounds consistent: z within
    [min(lo x, lo y), min(hi x, hi y)] (for min), x and y at least lo z; once one side is
    wholly above the other, z and the lower one (for min) have one domain.

    Invariants: a variable without a domain gets the interval the others allow; with
    x and y fixed, z is fixed.
    """

    __slots__ = ("x", "y", "z", "largest")

    def __init__(self, x: Any, y: Any, z: Any, largest: bool = False):
        self.x, self.y, self.z, self.largest = x, y, z, largest

    def terms(self):
        return (self.x, self.y, self.z)

    def __repr__(self) -> str:
        return f"{self.z!r} #= {'max' if self.largest else 'min'}({self.x!r}, {self.y!r})"

    def propagate(self, s: FDStore) -> None:
        x, y, z = s.walk(self.x), s.walk(self.y), s.walk(self.z)
        lx, hx, ly, hy = s.lo(x), s.hi(x), s.lo(y), s.hi(y)
        if lx is None or hx is None or ly is None or hy is None:
            vx, vy = s.value(x), s.value(y)
            if vx is not None and vy is not None:
                _within(s, z, *((max(vx, vy),) * 2 if self.largest else (min(vx, vy),) * 2))
            return
        if self.largest:  # max(x, y) = -min(-x, -y): the same rules, mirrored
            _within(s, z, max(lx, ly), max(hx, hy))
            hz = s.hi(z)
            assert hz is not None
            s.at_most(x, hz)
            s.at_most(y, hz)
            chosen = y if hx < ly else x if hy < lx else None  # the side wholly above the other
        else:
            _within(s, z, min(lx, ly), min(hx, hy))
            lz = s.lo(z)
            assert lz is not None
            s.at_least(x, lz)
            s.at_least(y, lz)
            chosen = x if hx < ly else y if hy < lx else None  # the side wholly below the other
        if chosen is not None:  # z = the side always chosen: the same domain
            s.restrict(chosen, s.bits(z))
            s.restrict(z, s.bits(chosen))


def divide(op: str, a: int, b: int) -> int:
    """a op b for clpfd's integer divisions (b ≠ 0): `//` rounds the quotient toward zero,
    `div` toward minus infinity; `rem` has the sign of a, `mod` the sign of b."""
    if op == "div":
        return a // b
    if op == "mod":
        return a % b
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b > 0) else -1)
    return q if op == "//" else a - q * b


#: At most this many (x, y) pairs are tried one by one by `Divide`; beyond, bounds only.
PAIRS = 4096


class Divide(Propagator):
    """z = x op y, op one of clpfd's `//`, `div`, `mod`, `rem` (see `divide`), y ≠ 0.
    Domain consistent while x and y have at most `PAIRS` pairs of values (each value kept
    has a support); beyond, z gets bounds: the quotients of the corners when y's interval
    excludes 0, |z| < max |y| for a remainder.

    Invariants: prunes only when x and y have domains (z may have none: it gets one).
    """

    __slots__ = ("op", "x", "y", "z")

    def __init__(self, op: str, x: Any, y: Any, z: Any):
        self.op, self.x, self.y, self.z = op, x, y, z

    def terms(self):
        return (self.x, self.y, self.z)

    def __repr__(self) -> str:
        return f"{self.x!r} {self.op} {self.y!r} #= {self.z!r}"

    def propagate(self, s: FDStore) -> None:
        x, y, z = s.walk(self.x), s.walk(self.y), s.walk(self.z)
        s.remove(y, 0)
        dx, dy = s.dom(x), s.dom(y)
        if dx is None or dy is None:
            vx, vy = s.value(x), s.value(y)
            if vx is not None and vy is not None:
                v = divide(self.op, vx, vy)
                _within(s, z, v, v)
            return
        if s.count(dx) * s.count(dy) <= PAIRS:
            self._supports(s, x, y, z, dx, dy)
        else:
            self._bounds(s, y, z)

    def _supports(self, s: FDStore, x: Any, y: Any, z: Any, dx: Any, dy: Any) -> None:
        dz = s.dom(z)
        keep_x: set[int] = set()
        keep_y: set[int] = set()
        keep_z: set[int] = set()
        ys = list(s.values(dy))
        for a in s.values(dx):
            for b in ys:
                v = divide(self.op, a, b)
                if dz is None or s.contains(dz, v):
                    keep_x.add(a)
                    keep_y.add(b)
                    keep_z.add(v)
        if not keep_z:
            raise Inconsistent
        s.restrict(z, s.mask(keep_z), exact=True)
        s.restrict(x, s.mask(keep_x))
        s.restrict(y, s.mask(keep_y))

    def _bounds(self, s: FDStore, y: Any, z: Any) -> None:
        x = s.walk(self.x)
        lx, hx, ly, hy = s.lo(x), s.hi(x), s.lo(y), s.hi(y)
        assert lx is not None and hx is not None and ly is not None and hy is not None
        if self.op in ("//", "div"):
            if ly <= 0 <= hy:
                return
            corners = [divide(self.op, a, b) for a in (lx, hx) for b in (ly, hy)]
            _within(s, z, min(corners), max(corners))
            return
        top = max(abs(ly), abs(hy)) - 1  # |remainder| < |y|
        lo, hi = -top, top
        sign = (lx, hx) if self.op == "rem" else (ly, hy)  # the remainder's sign follows this side
        if sign[0] >= 0:
            lo = 0
        if sign[1] <= 0:
            hi = 0
        _within(s, z, lo, hi)


def _within(s: FDStore, t: Any, lo: int, hi: int) -> None:
    """Narrow t to lo..hi; a variable without a domain gets that interval."""
    if lo > hi:
        raise Inconsistent
    if t.__class__ is not int and s.dom(t) is None:
        s.restrict(t, s.interval(lo, hi), exact=True)
    else:
        s.at_least(t, lo)
        s.at_most(t, hi)
