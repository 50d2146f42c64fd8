"""Constructive disjunction: one of several conjunctions of FD constraints holds.

`Disjunction(b, alternatives)` keeps the indices of the alternatives still possible as the
domain of a choice variable `b`. Each wake propagates every open alternative on a trial
copy of the store: an alternative that fails there is dropped from `b`; when one is left
it is enforced (its propagators run in the store itself); while several are left, every
variable is narrowed to the union of its domains in the surviving trials. So a disjunction
prunes before search picks a branch, where a `conde` of the alternatives waits for it.

A trial runs the alternative together with every other propagator of the store (the
alternative's consequences through the whole model), except that disjunctions inside a
trial only enforce an alternative already chosen: trials do not nest.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kanren.core import GoalType, fail

from ...errors import TermError
from ..streams import Named, named
from ..terms import var
from .goals import _all, post
from .propagators import InDomain
from .store import FDStore, Inconsistent, Propagator

__all__ = ["Disjunction", "disjo"]


import os
_LOCAL = bool(os.environ.get("DISJ_LOCAL"))
class _Trial(FDStore):
    """A copy of a store that one alternative is tried on (disjunctions there do not try)."""

    __slots__ = ()


class Disjunction(Propagator):
    """b ∈ {0..k-1} is the index of an alternative that holds; each alternative is a tuple
    of propagators (their conjunction). Constructive: failed alternatives leave b, the last
    one is enforced, and the survivors' union narrows every domain.

    Invariants: b's domain (set when posted) lists the alternatives not yet refuted; the
    propagators of the alternatives are not posted themselves (this one runs them).
    """

    __slots__ = ("b", "alternatives", "_terms")

    def __init__(self, b: Any, alternatives: Iterable[Iterable[Propagator]]):
        self.b = b
        self.alternatives = tuple(tuple(a) for a in alternatives)
        self._terms = tuple(dict.fromkeys(
            t for alt in self.alternatives for p in alt for t in p.terms() if t.__class__ is not int
        ))

    def terms(self):
        return (self.b, *self._terms)

    def __repr__(self) -> str:
        def conj(alt: tuple) -> str:
            return " #/\\ ".join(map(repr, alt)) or "true"

        return " #\\/ ".join(f"({conj(a)})" for a in self.alternatives)

    def propagate(self, s: FDStore) -> None:
        b = s.walk(self.b)
        alive = s.members(b)
        if alive is None:
            raise Inconsistent  # b always has its domain: the goal posts it first
        if len(alive) == 1:  # committed: this propagator is that conjunction
            (k,) = alive
            for p in self.alternatives[k]:
                p.propagate(s)
            return
        if isinstance(s, _Trial):
            return
        smap = s._smap
        survivors = []
        for k in alive:
            trial = s.copy()
            trial.__class__ = _Trial
            if _LOCAL:
                trial.watch = {}
            if all(trial.post(p, smap) for p in self.alternatives[k]):
                survivors.append(trial)
            else:
                s.remove(b, k)
        if not survivors:
            raise Inconsistent
        if len(survivors) == 1:  # b is down to one value: enforce that alternative now
            self.propagate(s)
            return
        _narrow_to_union(s, survivors, [s.walk(t) for t in self._terms] if _LOCAL else list(s.domains))


def _narrow_to_union(s: FDStore, trials: list[FDStore], variables) -> None:
    """Narrow each variable of `s` to the union of its domains in `trials` (copies of `s`
    narrowed further). Only a variable narrowed in the first trial can be narrowed.

    Bitsets of the trials are combined directly when they share the store's frame (no
    trial widened it); otherwise through their values.
    """
    first, rest = trials[0], trials[1:]
    if any(t.base != s.base for t in trials):
        for v in variables:
            if s.dom(v) is None:
                continue
            union = set().union(*(t.members(v) for t in trials))
            if len(union) < len(s.members(v)):
                s.restrict(v, s.mask(union))
        return
    for v in variables:
        d = s.dom(v)
        if d is None:
            continue
        union = first.dom(v)
        if union == d:
            continue
        for t in rest:
            union |= t.dom(v)
            if union == d:
                break
        else:
            s.restrict(v, union)


def _propagators(k: int, alternative: Any) -> tuple[Propagator, ...]:
    """The propagators that the FD goals of the k-th alternative (a goal or a list of goals) post."""
    goals = alternative if isinstance(alternative, (list, tuple)) else [alternative]
    out: list[Propagator] = []
    for g in goals:
        props = getattr(g.goal if isinstance(g, Named) else g, "propagators", None)
        if props is None:
            raise TermError(
                f"disjo: alternative {k}: {g!r} is not a finite-domain constraint over given arguments "
                "(disjo takes FD goals such as lto, eq_offseto, tableo, disjo, with lists given as Python lists)"
            )
        out.extend(props)
    return tuple(out)


@named
def disjo(*alternatives: Any) -> GoalType:
    """disjo(+alternative, ...): True iff the FD constraints of at least one alternative all
    hold; an alternative is an FD goal or a list of them (their conjunction).

    Constructive disjunction: each alternative is propagated on a trial copy of the store,
    one that fails is dropped, the last one left is enforced, and every domain is narrowed
    to the union of what the surviving alternatives leave. Each solution is found once
    however many alternatives it satisfies (a `conde` finds it once per alternative).

    >>> from logicpy.core import run, var, domo, lto, eq_offseto, disjo
    >>> x, y = var(), var()
    >>> run(0, x, domo(x, range(0, 10)), domo(y, range(0, 10)),
    ...     disjo(eq_offseto(x, 2, 0), [lto(6, x), eq_offseto(y, x, -3)]))[0].domain
    {2, 7..9}
    """
    alts = [_propagators(k, a) for k, a in enumerate(alternatives, 1)]
    if not alts:
        return fail
    if len(alts) == 1:
        return _all(post(p) for p in alts[0])
    choice = var("choice")
    return _all([post(InDomain(choice, 0, (1 << len(alts)) - 1)), post(Disjunction(choice, alts))])
