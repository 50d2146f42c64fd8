"""Channelling between two views of one assignment: where each item is, and what each place holds.

`Channel(xs, ys, keys)`: n items, n places; xs[i] = j (places counted from 1) iff
ys[j] = keys[i], for distinct int keys: xs is a permutation of 1..n and ys its inverse,
each item named by its key. Domain consistent between the two views: place j stays in
xs[i]'s domain exactly while keys[i] stays in ys[j]'s, so a place ruled out for an item
rules the item out of the place, and back. Hall sets are `all_differento`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kanren.core import GoalType

from ...errors import InputError, TermError
from ..streams import named
from .goals import post
from .propagators import _list
from .store import Domain, FDStore, Inconsistent, Propagator

__all__ = ["Channel", "channelo"]


class Channel(Propagator):
    """xs[i] = j iff ys[j - 1] = keys[i], for every item i and place j (domain consistent).

    Invariants: `keys` are distinct ints, one per item; there are as many places as items.
    """

    __slots__ = ("xs", "ys", "keys")
    priority = 1

    def __init__(self, xs: tuple, ys: tuple, keys: tuple):
        self.xs, self.ys, self.keys = xs, ys, keys

    def terms(self):
        return (*self.xs, *self.ys)

    def __repr__(self) -> str:
        return f"channel({_list(self.xs)}, {_list(self.ys)}, {list(self.keys)})"

    def propagate(self, s: FDStore) -> None:
        xs = [s.walk(x) for x in self.xs]
        ys = [s.walk(y) for y in self.ys]
        n = len(xs)
        places: list[Any] = [s.mask((j,)) for j in range(1, n + 1)]  # each place's bit, and each key's
        keys: list[Any] = [s.mask((k,)) for k in self.keys]
        if places[0].__class__ is Domain or places[-1].__class__ is Domain:  # 1..n is not all in the window
            return self._by_values(s, xs, ys)
        for key in keys:
            if key.__class__ is Domain:
                return self._by_values(s, xs, ys)
        item_of_key = {key: i for i, key in enumerate(keys)}
        place_of_bit = {place: j for j, place in enumerate(places)}
        # where[i]: the places whose view still allows item i's key (read bit by bit: the
        # cost is the size of the domains, not n²); forced[i]: a place holding only item i
        where = [0] * n
        forced: dict[int, int] = {}
        for y, place in zip(ys, places):
            dy: Any = s.dom(y)
            if dy.__class__ is Domain:
                return self._by_values(s, xs, ys)
            if dy is None:
                for i in range(n):
                    where[i] |= place
                continue
            if not dy & (dy - 1):
                only = item_of_key.get(dy)
                if only is None or only in forced:
                    raise Inconsistent
                forced[only] = place
            while dy:
                low = dy & -dy
                dy ^= low
                item = item_of_key.get(low)
                if item is not None:
                    where[item] |= place
        # item i may be at place j iff both views allow it; held[j]: the keys place j may hold
        held = [0] * n
        placed: dict[int, int] = {}  # place bit -> key bit, for items with one place left
        for i, (x, key) in enumerate(zip(xs, keys)):
            dx: Any = s.dom(x)
            if dx.__class__ is Domain:  # the items before are narrowed soundly; read all by values
                return self._by_values(s, xs, ys)
            fits = where[i] if dx is None else dx & where[i]
            fits &= forced.get(i, fits)
            if not fits:
                raise Inconsistent
            if dx is None or fits != dx:
                s.restrict(x, fits, exact=True)
            if not fits & (fits - 1):
                if fits in placed:
                    raise Inconsistent
                placed[fits] = key
            while fits:
                low = fits & -fits
                fits ^= low
                held[place_of_bit[low]] |= key
        for j, (y, place) in enumerate(zip(ys, places)):
            keep = placed.get(place) or held[j]
            if not keep:
                raise Inconsistent
            if keep != s.dom(y):
                s.restrict(y, keep, exact=True)

    def _by_values(self, s: FDStore, xs: list, ys: list) -> None:
        """The same pruning read value by value, for domains outside the store's bitset window
        (places and keys far from the other domains' values, or interval domains)."""
        n = len(xs)
        item_of_key = {key: i for i, key in enumerate(self.keys)}
        where: list[set[int]] = [set() for _ in range(n)]  # the places whose view allows item i's key
        forced: dict[int, int] = {}  # item -> the place that can hold only it
        for j, y in enumerate(ys, 1):
            dy = s.members(y)
            if dy is None:
                for i in range(n):
                    where[i].add(j)
                continue
            if dy.size == 1:
                only = item_of_key.get(dy.min)
                if only is None or only in forced:
                    raise Inconsistent
                forced[only] = j
            for i, key in enumerate(self.keys):
                if key in dy:
                    where[i].add(j)
        held: list[set[int]] = [set() for _ in range(n)]  # the keys place j may hold
        placed: dict[int, int] = {}  # place -> key, for items with one place left
        for i, (x, key) in enumerate(zip(xs, self.keys)):
            dx = s.members(x)
            fits = where[i] if dx is None else {j for j in where[i] if j in dx}
            if i in forced:
                fits &= {forced[i]}
            if not fits:
                raise Inconsistent
            if dx is None or len(fits) != dx.size:
                s.restrict(x, s.mask(fits), exact=True)
            if len(fits) == 1:
                (j,) = fits
                if j in placed:
                    raise Inconsistent
                placed[j] = key
            for j in fits:
                held[j - 1].add(key)
        for j, y in enumerate(ys, 1):
            keep = {placed[j]} if j in placed else held[j - 1]
            if not keep:
                raise Inconsistent
            dy = s.members(y)
            if dy is None or len(keep) != dy.size:
                s.restrict(y, s.mask(keep), exact=True)


@named
def channelo(xs: Sequence[Any], ys: Sequence[Any], keys: Sequence[int] | None = None) -> GoalType:
    """channelo(?xs, ?ys, +keys=None): xs is a permutation of 1..n and ys[j] = keys[i] iff
    xs[i] = j (keys distinct ints, default 1..n: ys is the inverse permutation).

    Domain consistent between the two views: an item ruled out of a place rules the place
    out for the item's key, and back. Add `all_differento(xs)` for Hall-set pruning.

    >>> from logicpy.core import run, var, vars, inso, channelo, neq_offseto
    >>> xs, ys = vars(3), vars(3)
    >>> run(0, ys[0], inso(xs, range(1, 4)), channelo(xs, ys, [10, 20, 30]),
    ...     neq_offseto(xs[0], 1), neq_offseto(xs[1], 1))
    (30,)
    """
    for name, arg in (("xs", xs), ("ys", ys)):
        if not isinstance(arg, (list, tuple)):
            raise TermError(f"channelo: argument {name} must be a list of terms, got {arg!r}")
    xs, ys = tuple(xs), tuple(ys)
    if keys is None:
        keys = tuple(range(1, len(xs) + 1))
    keys = tuple(keys)
    if any(not isinstance(k, int) or isinstance(k, bool) for k in keys):
        raise TermError(f"channelo: argument keys must be ints, got {list(keys)!r}")
    if len(set(keys)) != len(keys) or len(keys) != len(xs) or len(ys) != len(xs):
        raise InputError(f"channelo: xs, ys and keys must have one length and distinct keys, got {len(xs)}, "
                         f"{len(ys)}, {list(keys)!r}")
    return post(Channel(xs, ys, keys))
