"""Constructive disjunction: one of several conjunctions of FD constraints holds.

`Disjunction(b, alternatives)` keeps the indices of the alternatives still possible as the
domain of a choice variable `b`. Each wake tries every open alternative on a copy of the
store (`FDStore.attempt`: the alternative's own constraints, propagated together): an
alternative that fails there is dropped from `b`; when one is left it is enforced (its
propagators run in the store itself); while several are left, each variable they all
mention is narrowed to the union of its domains in the surviving trials. So a disjunction
prunes before search picks a branch, where a `conde` of the alternatives waits for it.
Trials nest only at the end: inside one, a disjunction enforces an alternative already
chosen, and tries its own alternatives only once every variable it mentions has a value
(so a disjunction inside another's alternative is checked at every solution, never skipped).
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
from .store import Domain, FDStore, Inconsistent, Propagator

__all__ = ["Disjunction", "disjo"]


def _variables(alternative: tuple[Propagator, ...]) -> dict:
    """The variables (not ints) an alternative's propagators mention, in order, once each."""
    return dict.fromkeys(t for p in alternative for t in p.terms() if t.__class__ is not int)


#: [how many trials are running]: a disjunction met inside a trial only enforces an
#: alternative already chosen, and tries its own only when all its variables have values
#: (nested trials at every wake multiplied the work: valentine's nested `xor`s took 59 ms
#: instead of 16; skipping them even then accepted assignments that break the inner one).
_trying = [0]


class Disjunction(Propagator):
    """b ∈ {0..k-1} is the index of an alternative that holds; each alternative is a tuple
    of propagators (their conjunction). Constructive: failed alternatives leave b, the last
    one is enforced, and the survivors' union narrows the variables they share.

    Invariants: b's domain (set when posted) lists the alternatives not yet refuted; the
    propagators of the alternatives are not posted themselves (this one runs them).
    """

    __slots__ = ("b", "alternatives", "_terms", "_shared", "_choices", "_decided")

    def __init__(self, b: Any, alternatives: Iterable[Iterable[Propagator]]):
        self.b = b
        self.alternatives = tuple(tuple(a) for a in alternatives)
        # every term, ints too (an int argument that is not an int fails the post)
        self._terms = tuple(dict.fromkeys(t for a in self.alternatives for p in a for t in p.terms()))
        per_alternative = [_variables(a) for a in self.alternatives]
        # an alternative narrows only what it mentions, so a union can narrow only what all mention
        self._shared = tuple(t for t in per_alternative[0] if all(t in vs for vs in per_alternative))
        # the choice variables of the disjunctions nested in the alternatives (never labelled)
        # and the variables that decide this one: every other variable it mentions
        nested = [p for a in self.alternatives for p in a if isinstance(p, Disjunction)]
        self._choices: frozenset = frozenset(c for p in nested for c in (p.b, *p._choices))
        self._decided = tuple(t for t in self._terms if t.__class__ is not int and t not in self._choices)

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
        if len(alive) > 1:
            if _trying[0] and not all(s.value(s.walk(t)) is not None for t in self._decided):
                return
            survivors = []
            for k in alive:
                _trying[0] += 1
                try:
                    trial = s.attempt(self.alternatives[k])
                finally:
                    _trying[0] -= 1
                if trial is None:
                    s.remove(b, k)
                else:
                    survivors.append(trial)
            if len(survivors) > 1:
                _narrow_to_union(s, survivors, [s.walk(t) for t in self._shared])
                return
            alive = s.members(b)
            assert alive is not None
        (k,) = alive  # committed: this propagator is that conjunction
        for p in self.alternatives[k]:
            p.propagate(s)


def _narrow_to_union(s: FDStore, trials: list[FDStore], variables: list) -> None:
    """Narrow each of `variables` in `s` to the union of its domains in `trials` (copies of
    `s` narrowed further). Bitsets are joined directly while the trials keep the store's
    window (a trial that gave a variable its first domain may have moved it), else as
    intervals (`Domain`s: no value is enumerated)."""
    same_window = all(t.base == s.base for t in trials)
    for v in variables:
        d = s.dom(v)
        if d is None:
            continue
        doms = [t.bits(v) for t in trials]
        if same_window and all(dt.__class__ is int for dt in doms):
            union = 0
            for dt in doms:
                union |= dt  # type: ignore[operator]
                if union == d:
                    break
            else:
                s.restrict(v, union)
        else:
            values = Domain()
            for t, dt in zip(trials, doms):
                values = values | t.as_domain(dt)
            s.restrict(v, values)


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
    one that fails is dropped, the last one left is enforced, and every variable all
    alternatives mention is narrowed to the union of what the surviving ones leave it.
    Each solution is found once however many alternatives it satisfies (a `conde` finds it
    once per alternative).

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
    return _all([post(InDomain(choice, Domain.interval(0, len(alts) - 1))), post(Disjunction(choice, alts))])
