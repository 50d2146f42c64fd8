"""Disequality (Prolog's dif/2) as logicpy's own kanren constraint store.

`neq(u, v)` unifies u and v in an empty substitution: that unifier, the bindings that
would make them equal, is the constraint, and it is violated only when *every* one of
its bindings holds. kanren 1.0.5's `DisequalityStore` stores the bindings one per
variable, each as its own disequality, which turns `not (x = 2 and y = 1)` into
`x != 2 and y != 1` and loses answers; it also posts into the state it is given, in
place, so a `neq` in one `conde` branch leaked into the next. Here each disequality is
one `Disequality` (the whole unifier), a `neq` goal posts on a copy of the state, and the
store is a kanren `ConstraintStore`, so kanren checks it after every unification and it
sits beside the finite-domain store (`logicpy.core.fd`) in the same `equality.State`.

After a unification only the disequalities watching a newly bound variable are looked at
again: each is re-unified under the new bindings and dropped (can no longer hold),
failed (now entailed), or replaced by its smaller remaining unifier.
"""

from __future__ import annotations

from typing import Any, Iterator

from kanren.constraints import ConstraintStore
from kanren.constraints import typeo as _kanren_typeo
from kanren.core import GoalType
from unification import Var

from ..errors import TermError
from ._spine import bindings
from .equality import State, reify, unify
from .streams import check_goal_term, named
from .terms import is_var

__all__ = ["neq", "typeo", "disequalities", "Disequality", "DisequalityStore"]


class Disequality:
    """not (v1 = t1 and ... and vn = tn): a unifier (the pairs) that must not all hold.

    Invariants: `pairs` is a non-empty tuple of (unbound variable, term) as `unify` gives
    them in an empty substitution, so a later pair may refer to an earlier variable.
    """

    __slots__ = ("pairs",)

    def __init__(self, pairs: tuple[tuple[Var, Any], ...]):
        self.pairs = pairs

    def watched(self) -> Iterator[Var]:
        """The variables whose binding can make this disequality entailed-equal: the
        bound side of each pair, and a right side that is itself a variable (x = y holds
        once y is bound to x)."""
        for v, t in self.pairs:
            yield v
            if is_var(t):
                yield t

    def simplified(self, smap: Any) -> Disequality | None:
        """This disequality under the substitution `smap`: None when it can no longer be
        violated, one with no pairs when it is violated, else its remaining unifier."""
        s = unifier(tuple(v for v, _ in self.pairs), tuple(t for _, t in self.pairs), smap)
        if s is False:
            return None
        return Disequality(tuple(s.items()))

    def as_dif(self) -> tuple[Any, Any]:
        """The pair (a, b) meaning dif(a, b), as SWI-Prolog shows it: `(x, t)` for one
        binding, `(("f", x1, ..., xn), ("f", t1, ..., tn))` for several."""
        s = dict(self.pairs)
        values = [reify(t, s) for _, t in self.pairs]
        if len(self.pairs) == 1:
            return self.pairs[0][0], values[0]
        return ("f", *(v for v, _ in self.pairs)), ("f", *values)

    def __repr__(self) -> str:
        a, b = self.as_dif()
        return f"dif({a!r}, {b!r})"


def unifier(u: Any, v: Any, smap: Any) -> Any:
    """The bindings beyond `smap` that make u and v equal (a dict, empty if they are
    already), or False if they cannot be: u and v reified, then unified apart; terms
    that are cyclic in `smap` are unified in it instead (they have no reified form)."""
    try:
        return unify(reify(u, smap), reify(v, smap), {})
    except TermError:
        s = unify(u, v, smap)
        if s is False:
            return False
        return {k: s[k] for k in s if k not in smap}


class DisequalityStore(ConstraintStore):
    """The pending disequalities of a state, each reachable from the variables it watches.

    `lvar_constraints[v]` is the tuple of disequalities watching the unbound variable v
    (kanren's name for a store's per-variable constraints). Tuples are never mutated, so a
    copy shares them safely; a store is empty when nothing is pending.
    """

    __slots__ = ()
    op_str = "dif"

    def __init__(self, lvar_constraints: dict | None = None):
        self.lvar_constraints: dict[Var, tuple[Disequality, ...]] = (  # type: ignore[misc]  # kanren's slot
            {} if lvar_constraints is None else lvar_constraints
        )

    def copy(self) -> DisequalityStore:
        return DisequalityStore(dict(self.lvar_constraints))

    def pending(self) -> list[Disequality]:
        """Each pending disequality once, in the order first watched."""
        seen: dict[int, Disequality] = {}
        for watching in self.lvar_constraints.values():
            for d in watching:
                seen.setdefault(id(d), d)
        return list(seen.values())

    def watch(self, d: Disequality) -> None:
        """Add `d`, reachable from each variable it watches."""
        for v in d.watched():
            watching = self.lvar_constraints.get(v, ())
            if d not in watching:
                self.lvar_constraints[v] = watching + (d,)

    def unwatch(self, d: Disequality) -> None:
        """Remove `d` from every variable that watches it."""
        for v in d.watched():
            left = tuple(c for c in self.lvar_constraints.get(v, ()) if c is not d)
            if left:
                self.lvar_constraints[v] = left
            else:
                self.lvar_constraints.pop(v, None)

    def constraints_str(self, lvar: Var) -> str:
        return ", ".join(map(repr, self.lvar_constraints.get(lvar, ())))

    def pre_unify_check(self, lvar_map, lvar=None, value=None) -> bool:
        return True

    def post_unify_check(self, lvar_map, lvar=None, value=None, old_state=None) -> bool:
        """Re-check the disequalities watching a variable just bound; False if one is now violated."""
        woken: dict[int, Disequality] = {}
        for v, watching in self.lvar_constraints.items():
            if v in lvar_map:
                for d in watching:
                    woken.setdefault(id(d), d)
        for d in woken.values():
            self.unwatch(d)
            rest = d.simplified(lvar_map)
            if rest is None:
                continue
            if not rest.pairs:
                return False
            self.watch(rest)
        return True


@named
def neq(u: Any, v: Any) -> GoalType:
    """neq(?u, ?v): True iff u and v never unify (dif/2); posted on a copy of the state.

    It fails at once if u and v are already identical, succeeds unconstrained if they can
    never unify, and otherwise waits until every binding that would make them equal holds.

    >>> from logicpy.core import conde, eq, membero, run, var
    >>> x, y = var(), var()
    >>> sorted(run(0, x, neq(x, 3), conde([neq(x, 1)], [eq(x, 1)]), membero(x, [1, 2, 3])))
    [1, 2]
    >>> sorted(run(0, (x, y), neq([x, y], [2, 1]), membero(x, [1, 2]), membero(y, [1, 2])))
    [(1, 1), (1, 2), (2, 2)]
    """
    check_goal_term(u, "neq: left")
    check_goal_term(v, "neq: right")

    def neq_goal(S):
        s = unifier(u, v, bindings(S))
        if s is False:
            yield S
            return
        if not s:
            return
        S = S.copy() if isinstance(S, State) else State.of(S)
        store = S.constraints.get(DisequalityStore)
        if store is None:
            store = S.constraints[DisequalityStore] = DisequalityStore()
        store.watch(Disequality(tuple(s.items())))
        # A state whose other stores narrow variables without binding them (the FD store's
        # one-value domains) binds them now, so the new disequality sees those values.
        settle = getattr(S, "settle", None)
        if settle is not None:
            S = settle()
            if S is False:
                return
        yield S

    return neq_goal


def disequalities(state: Any) -> list[tuple[Any, Any]]:
    """The disequalities pending in `state`: pairs (a, b), each meaning dif(a, b).

    The state's bindings are applied and the ones that can no longer be violated are
    left out; a pair is in SWI-Prolog's residual form (see `Disequality.as_dif`).

    >>> from logicpy.core import eq, var
    >>> x, y = var("x"), var("y")
    >>> [S] = list(neq([x, y], [2, 1])({}))
    >>> disequalities(S)  # doctest: +ELLIPSIS
    [(('f', ~x_..., ~y_...), ('f', 2, 1))]
    >>> [S] = list(eq(x, 2)(S))
    >>> disequalities(S)  # doctest: +ELLIPSIS
    [(~y_..., 1)]
    """
    store = getattr(state, "constraints", {}).get(DisequalityStore)
    if store is None:
        return []
    smap = bindings(state)
    residual = []
    for d in store.pending():
        rest = d.simplified(smap)
        if rest is not None and rest.pairs:
            residual.append(rest.as_dif())
    return residual


def typeo(u: Any, u_type: Any) -> GoalType:
    """typeo(?u, ?type): `type(u)` is `type`, checked once both are bound: kanren's `typeo`,
    posted on a copy of the state (kanren's writes into the state it is given).

    >>> from logicpy.core import conde, eq, run, var
    >>> x = var()
    >>> run(0, x, typeo(x, int), conde([eq(x, "a")], [eq(x, 2)], [eq(x, 2.0)]))
    (2,)
    """
    goal = _kanren_typeo(u, u_type)

    def typeo_goal(S):
        return goal(State.of(S))

    return typeo_goal
