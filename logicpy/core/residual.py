"""Answers with their residual constraints, in one canonical form.

A kanren answer is more than its reified term: a disequality or a finite domain still
pending on its variables is part of what it says (clpfd shows `X in 1..3`, miniKanren
`(_0 :- (=/= ...))`). `reify_with_constraints(term, state)` reads both from a state and
`answers_with_constraints(term, *goals)` runs goals like `run`, giving `Residual`s; the
same canonical form is built from Prolog residual goals (`dif/2`, clpfd's `in`, `#=`,
`#\\=`, `#=<` ...) by `residual_from_goals`, so answers from both compare as text.

The canonical form: variables are named `_0, _1, …` in order of first appearance in the
term, then in the sorted constraints; a variable whose domain has one value is that value.
Each constraint is one of
- `dif(A, B)`: the disequality with its unifier written out, a variable on the left
  (for a unifier of several bindings, `dif([X1, ...], [T1, ...])`, pairs sorted);
- `X in D`: a domain as sorted runs, e.g. `1..3\\/5`, with `inf`/`sup` for open ends
  (`1..0` if empty: a propagator missed the inconsistency)
  (a single-variable linear constraint, such as `3 #=< X`, becomes part of the domain);
- `Σ #= c`, `Σ #\\= c`, `Σ #=< c`: a linear constraint over two or more variables, divided
  by the gcd of its coefficients, the first coefficient positive for `#=`/`#\\=`;
  one that the domains already entail is dropped (as clpfd drops it);
- `abs(X-Y) #= D` / `#\\=`, `all_different(Xs)`, `element(I, Xs, V)`, `tuples_in([Xs], Rows)`.
Anything else (a custom propagator, `freeze/2`, clpfd reification, non-linear
arithmetic) is kept as found in `Residual.foreign`: it has no canonical form.
Only the constraints reachable from the term's variables are kept.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kanren.constraints import ConstrainedState  # type: ignore[import-untyped]
from kanren.core import GoalType  # type: ignore[import-untyped]
from unification import Var, reify  # type: ignore[import-untyped]

from .disequality import DisequalityStore, disequalities
from .equality import unify, walk
from .streams import answers_within, query_states
from .terms import Term, format_term, is_var, variables_in

if TYPE_CHECKING:
    from .fd.store import FDStore, Propagator

__all__ = ["Residual", "answers_with_constraints", "reify_with_constraints", "residual_from_goals",
           "disequalities", "format_constraint"]

Intervals = tuple[tuple[int | None, int | None], ...]
"""A set of ints as sorted, disjoint, non-adjacent runs (lo, hi); None is -inf / +inf."""

Raw = tuple[Any, ...]
"""A constraint read from either side, before naming: ("dif", a, b), ("in", v, Intervals),
("lin", {v: a}, "=" | "\\=" | "=<", c) for Σ a·v op c, ("abs", x, y, op, d), ("goal", g), ("foreign", g)."""

_RELATIONS = {"#=": "=", "#\\=": "\\=", "#=<": "=<"}


@dataclass(frozen=True)
class Residual:
    """One answer: its term and the constraints on it, variables named `_0, _1, …` by `names`.

    `constraints` are canonical constraint goals (Prolog terms over the term's variables),
    sorted; `foreign` the constraints that have no canonical form, as found. Two residuals
    are equal iff their texts are.
    """

    term: Term = field(compare=False)
    constraints: tuple[Term, ...] = field(compare=False)
    foreign: tuple[Term, ...] = field(compare=False)
    names: Mapping[Var, str] = field(compare=False, repr=False)
    text: str = field(init=False)

    def __post_init__(self) -> None:
        goals = [format_constraint(c, self.names) for c in (*self.constraints, *self.foreign)]
        head = format_term(self.term, dict(self.names))
        object.__setattr__(self, "text", head + (" :- " + ", ".join(goals) if goals else ""))

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------- reading a kanren state


def answers_with_constraints(term: Term, *goals: GoalType, n: int | None = None,
                             timeout: float | None = None) -> Iterator[Residual]:
    """The answers of `goals` (as `run(n, term, *goals)`: the first `n`, all for None or 0),
    each with its residual constraints, lazily. `timeout` (seconds) stops the search with
    `SearchTimeout`, whose `answers` are the residuals given before it.

    >>> from logicpy.core import domo, neq, var
    >>> x = var()
    >>> [str(r) for r in answers_with_constraints([x], neq(x, 1), domo(x, range(4)))]
    ['[_0] :- _0 in 0..3, dif(_0,1)']
    """
    who = "answers_with_constraints"
    states = query_states(who, n, goals, timeout)
    return answers_within(who, n, (reify_with_constraints(term, state) for state in states), timeout)


def reify_with_constraints(term: Term, state: Any) -> Residual:
    """`term` under `state` with the disequalities and finite-domain constraints still pending on it."""
    data = state.data if isinstance(state, ConstrainedState) else state
    found: list[Raw] = [("dif", a, b) for a, b in disequalities(state)]
    if isinstance(state, ConstrainedState):
        for kind, store in state.constraints.items():
            if _is_fd_store(kind):
                found.extend(_fd_constraints(store, data))
            elif kind not in _DISEQUALITY_STORES:
                for v, cs in store.lvar_constraints.items():
                    found.append(("foreign", (store.op_str, reify(v, data), *sorted(map(repr, cs)))))
    return _canonical(reify(term, data), found)


#: The stores whose constraints `disequalities` reads (others are read as foreign).
_DISEQUALITY_STORES: tuple[type, ...] = (DisequalityStore,)


def _is_fd_store(kind: type) -> bool:
    """Whether `kind` is the FD store (none exists while its module is not loaded)."""
    store = sys.modules.get("logicpy.core.fd.store")
    return store is not None and kind is store.FDStore


def _fd_constraints(store: FDStore, data: Mapping[Var, Any]) -> Iterator[Raw]:
    """Domains and pending propagators of an FD store as raw constraints."""
    for v in store.domains:
        if isinstance(reify(v, data), Var):  # the store's invariant; a bound one is the substitution's
            yield ("in", v, store.as_domain(store.domains[v]).ranges)
    seen: set[int] = set()
    for groups in store.watch.values():
        for group in groups:
            for p in group:
                if id(p) not in seen:
                    seen.add(id(p))
                    if all(_has_value(store, walk(t, data)) for t in p.terms()):
                        continue  # every term has its value: propagation has checked it
                    yield _propagator(p, data)


def _has_value(store: FDStore, t: Any) -> bool:
    """Whether the walked term `t` is an int or a variable with one value left."""
    return t.__class__ is int or (is_var(t) and store.value(t) is not None)


def _propagator(p: Propagator, data: Mapping[Var, Any]) -> Raw:
    """One propagator as a raw constraint (its terms walked in `data`)."""
    from .fd import propagators as P
    w = [reify(t, data) for t in p.terms()]
    if not all(isinstance(t, (Var, int)) for t in w):  # a term no FD constraint can hold
        return ("foreign", (type(p).__name__, *w))
    if isinstance(p, P.Times):
        return ("goal", ("#=", ("*", w[0], w[1]), w[2]))
    if isinstance(p, P.MinMax):
        return ("goal", ("#=", w[2], ("max" if p.largest else "min", w[0], w[1])))
    if isinstance(p, P.Divide):
        return ("goal", ("#=", (p.op, w[0], w[1]), w[2]))
    if isinstance(p, (P.ReifiedLessEq, P.ReifiedEq)):
        right = w[2] if p.c == 0 else ("+", w[2], p.c) if p.c > 0 else ("-", w[2], -p.c)
        return ("goal", ("#<==>", w[0], (p.symbol, w[1], right)))
    if isinstance(p, (P.LessEq, P.EqOffset, P.NeqOffset)):  # x op y + c
        op = "=<" if isinstance(p, P.LessEq) else "=" if isinstance(p, P.EqOffset) else "\\="
        return _lin([(1, w[0]), (-1, w[1])], op, p.c)
    if isinstance(p, P.Linear):  # Σ a·x = 0
        return _lin(list(zip(p.coeffs, w)), "=", 0)
    if isinstance(p, (P.AbsDiff, P.NotAbsDiff)):
        return ("abs", w[0], w[1], "=" if isinstance(p, P.AbsDiff) else "\\=", w[2])
    if isinstance(p, P.AllDifferent):
        return ("goal", ("all_different", w))
    if isinstance(p, P.Element):
        return ("goal", ("element", w[0], w[2:], w[1]))
    if isinstance(p, P.TuplesIn):
        return ("goal", ("tuples_in", [w], [list(row) for row in p.rows]))
    return ("foreign", (type(p).__name__, *w))


def _lin(terms: Iterable[tuple[int, Any]], op: str, rhs: int) -> Raw:
    """The raw linear constraint Σ a·t op rhs, ints moved to the right and repeated variables merged."""
    coeffs: dict[Var, int] = {}
    for a, t in terms:
        if is_var(t):
            coeffs[t] = coeffs.get(t, 0) + a
        else:
            rhs -= a * t
    return ("lin", {v: a for v, a in coeffs.items() if a}, op, rhs)


# ---------------------------------------------------------------- reading Prolog residual goals


def residual_from_goals(term: Term, goals: Iterable[Term]) -> Residual:
    """`term` with the residual goals of a Prolog answer (e.g. `Answers.residual` of logicpy.swi).

    Reads `dif/2` and clpfd's `in`, `ins`, `#=`, `#\\=`, `#=<`, `#<`, `#>=`, `#>`,
    `all_different`, `all_distinct`, `element`, `tuples_in` (module-qualified or not);
    other goals are kept as foreign.
    """
    found: list[Raw] = []
    for goal in goals:
        while isinstance(goal, tuple) and len(goal) == 3 and goal[0] == ":":
            goal = goal[2]
        found.extend(_read_goal(goal))
    return _canonical(term, found)


def _read_goal(goal: Term) -> list[Raw]:
    foreign = [("foreign", goal)]
    if not isinstance(goal, tuple):
        return foreign
    name, args = goal[0], goal[1:]
    if name == "dif" and len(args) == 2:
        return [("dif", *args)]
    if name in ("in", "ins") and len(args) == 2:
        runs = _read_domain(args[1])
        xs = args[0] if name == "ins" else [args[0]]
        if runs is None or not isinstance(xs, list):
            return foreign
        return [("in", x, runs) for x in xs if is_var(x)]
    if name in ("all_different", "all_distinct") and len(args) == 1 and isinstance(args[0], list):
        return [("goal", ("all_different", args[0]))]
    if name in ("element", "tuples_in"):
        return [("goal", goal)]
    if name in ("#=", "#\\=", "#=<", "#<", "#>=", "#>") and len(args) == 2:
        left, right = args if name in ("#=", "#\\=", "#=<", "#<") else args[::-1]
        lf, rf = _read_linear(left), _read_linear(right)
        if lf is not None and rf is not None:
            op = _RELATIONS.get(name, "=<")
            coeffs = dict(lf[0])
            for v, a in rf[0].items():
                coeffs[v] = coeffs.get(v, 0) - a
            rhs = rf[1] - lf[1] - (1 if name in ("#<", "#>") else 0)
            return [("lin", {v: a for v, a in coeffs.items() if a}, op, rhs)]
        if name in ("#=", "#\\="):
            op = _RELATIONS[name]
            for e, d in ((left, right), (right, left)):
                inner = e[1] if isinstance(e, tuple) and len(e) == 2 and e[0] == "abs" else None
                f = None if inner is None else _read_linear(inner)
                if f and f[1] == 0 and sorted(f[0].values()) == [-1, 1] and (isinstance(d, (Var, int))):
                    x, y = sorted(f[0], key=lambda v: -f[0][v])
                    return [("abs", x, y, op, d)]
    return foreign


def _read_linear(e: Term) -> tuple[dict[Var, int], int] | None:
    """(coefficients, constant) of a linear clpfd expression, or None."""
    if is_var(e):
        return {e: 1}, 0
    if isinstance(e, int) and not isinstance(e, bool):
        return {}, e
    if not isinstance(e, tuple):
        return None
    if len(e) == 2 and e[0] == "-":
        f = _read_linear(e[1])
        return None if f is None else ({v: -a for v, a in f[0].items()}, -f[1])
    if len(e) != 3 or e[0] not in ("+", "-", "*"):
        return None
    f, g = _read_linear(e[1]), _read_linear(e[2])
    if f is None or g is None:
        return None
    if e[0] == "*":
        if f[0] and g[0]:
            return None  # non-linear
        k, h = (f[1], g) if not f[0] else (g[1], f)
        return {v: k * a for v, a in h[0].items()}, k * h[1]
    sign = 1 if e[0] == "+" else -1
    coeffs = dict(f[0])
    for v, a in g[0].items():
        coeffs[v] = coeffs.get(v, 0) + sign * a
    return coeffs, f[1] + sign * g[1]


def _read_domain(d: Term) -> Intervals | None:
    """A clpfd domain (`1..3`, `1..3\\/5`, `inf..sup`) as runs, or None."""
    if isinstance(d, tuple) and len(d) == 3 and d[0] == "\\/":
        a, b = _read_domain(d[1]), _read_domain(d[2])
        return None if a is None or b is None else _union(a, b)
    if isinstance(d, int) and not isinstance(d, bool):
        return ((d, d),)
    if isinstance(d, tuple) and len(d) == 3 and d[0] == "..":
        lo = None if d[1] == "inf" else d[1]
        hi = None if d[2] == "sup" else d[2]
        if all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in (lo, hi)):
            return _union((), ((lo, hi),))
    return None


# ---------------------------------------------------------------- domains as runs


def _lo(b: int | None) -> float:
    return -math.inf if b is None else b


def _hi(b: int | None) -> float:
    return math.inf if b is None else b


def _union(a: Intervals, b: Intervals) -> Intervals:
    out: list[tuple[int | None, int | None]] = []
    for lo, hi in sorted((*a, *b), key=lambda r: _lo(r[0])):
        if lo is not None and hi is not None and lo > hi:
            continue
        if out and _hi(out[-1][1]) >= _lo(lo) - 1:
            prev = out[-1]
            out[-1] = (prev[0], None if hi is None or prev[1] is None else max(prev[1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def _intersect(a: Intervals, b: Intervals) -> Intervals:
    out = []
    for lo1, hi1 in a:
        for lo2, hi2 in b:
            lo = lo2 if lo1 is None else lo1 if lo2 is None else max(lo1, lo2)
            hi = hi2 if hi1 is None else hi1 if hi2 is None else min(hi1, hi2)
            if _lo(lo) <= _hi(hi):
                out.append((lo, hi))
    return _union((), tuple(out))


def _without(a: Intervals, v: int) -> Intervals:
    return _intersect(a, ((None, v - 1), (v + 1, None)))


def _domain_term(runs: Intervals) -> Term:
    """Runs as a clpfd domain term: `lo..hi` joined by `\\/`, one value alone as itself."""
    if not runs:
        return ("..", 1, 0)  # empty: the state is inconsistent, and its answer says so
    parts: list[Term] = [lo if lo is not None and lo == hi else
                         ("..", "inf" if lo is None else lo, "sup" if hi is None else hi) for lo, hi in runs]
    out = parts[0]
    for p in parts[1:]:
        out = ("\\/", out, p)
    return out


# ---------------------------------------------------------------- the canonical form


def _canonical(term: Term, found: list[Raw]) -> Residual:
    """The canonical `Residual` of `term` with raw constraints `found` (see the module doc)."""
    if not found:  # the common case: nothing pending
        return Residual(term, (), (), {v: f"_{k}" for k, v in enumerate(variables_in(term))})
    found = _tighten(_fold_domains(found))
    values = _fixed(found)
    while values:  # a variable down to one value is that value; that may fix others
        term = reify(term, values)
        found = _tighten(_fold_domains([_substitute(c, values) for c in found]))
        values = _fixed(found)
    found = _abs_of_hidden(term, found)
    domains = {c[1]: c[2] for c in found if c[0] == "in"}
    raw = [c for c in found if not (c[0] == "in" and domains[c[1]] == ((None, None),))
           and not (c[0] == "lin" and c[1] and _entailed(c, domains))]
    raw = _reachable(term, raw)
    names: dict[Var, str] = {v: f"_{k}" for k, v in enumerate(variables_in(term))}

    def key(v: Var) -> tuple[int, int]:
        return (0, int(names[v][1:])) if v in names else (1, 0)

    # variables only in constraints: numbered in the order of the constraints sorted without them
    provisional = {v: names.get(v, "_") for c in raw for v in variables_in(_canon(c, key))}
    for c in sorted(raw, key=lambda c: format_constraint(_canon(c, key), provisional)):
        for v in variables_in(_canon(c, key)):
            names.setdefault(v, f"_{len(names)}")
    canon = [g for g in (_canon(c, key) for c in raw) if g is not None]
    done = _sorted_unique([g for g in canon if g[0] != "foreign"], names)
    foreign = _sorted_unique([g[1] for g in canon if g[0] == "foreign"], names)
    return Residual(term, done, foreign, names)


def _sorted_unique(goals: list[Term], names: Mapping[Var, str]) -> tuple[Term, ...]:
    """`goals` sorted by their text, each text once."""
    by_text = {format_constraint(g, names): g for g in goals}
    return tuple(by_text[t] for t in sorted(by_text))


def _fold_domains(found: list[Raw]) -> list[Raw]:
    """`found` with each variable's domains and single-variable linear and `abs` constraints as one domain;
    constraints left without variables dropped (a consistent state holds them)."""
    domains: dict[Var, Intervals] = {}
    rest = []
    for c in found:
        if c[0] == "in":
            if is_var(c[1]):
                domains[c[1]] = _intersect(domains.get(c[1], ((None, None),)), c[2])
        elif c[0] == "lin" and len(c[1]) == 1:
            [(v, a)] = c[1].items()
            d = domains.get(v, ((None, None),))
            if c[2] == "=<":
                bound: Intervals = ((None, c[3] // a),) if a > 0 else ((-(c[3] // -a), None),)
                domains[v] = _intersect(d, bound)
            elif c[3] % a == 0:
                domains[v] = _intersect(d, ((c[3] // a, c[3] // a),)) if c[2] == "=" else _without(d, c[3] // a)
            else:  # a·v = c has no integer solution: the equation never holds, the disequality always
                domains[v] = () if c[2] == "=" else d
        elif (c[0] == "abs" and isinstance(c[4], int) and not isinstance(c[4], bool)
              and [is_var(t) for t in c[1:3]].count(True) == 1 and c[1] is not c[2]):
            v, n = (c[1], c[2]) if is_var(c[1]) else (c[2], c[1])  # |v - n| op d: v is n ± d
            d = domains.get(v, ((None, None),))
            pair = _union(((n - c[4], n - c[4]),), ((n + c[4], n + c[4]),)) if c[4] >= 0 else ()
            domains[v] = _intersect(d, pair) if c[3] == "=" else _without(_without(d, n - c[4]), n + c[4])
        elif any(True for _ in variables_in(c)) or _violated(c):
            rest.append(c)  # a ground constraint that holds says nothing: dropped
    return [("in", v, d) for v, d in domains.items()] + rest


def _violated(c: Raw) -> bool:
    """True iff the ground raw constraint `c` is false (an inconsistent state, shown as it is)."""
    kind = c[0]
    if kind == "dif":
        return unify(c[1], c[2], {}) is not False
    if kind == "lin":
        return not {"=": 0 == c[3], "\\=": 0 != c[3], "=<": 0 <= c[3]}[c[2]]
    if kind == "abs":
        return (abs(c[1] - c[2]) == c[4]) != (c[3] == "=")
    if kind == "goal" and c[1][0] == "all_different":
        return len(set(c[1][1])) != len(c[1][1])
    if kind == "goal" and c[1][0] == "element":
        _, i, xs, v = c[1]
        return not (isinstance(i, int) and 1 <= i <= len(xs) and xs[i - 1] == v)
    if kind == "goal" and c[1][0] == "tuples_in":
        return not all(list(row) in [list(r) for r in c[1][2]] for row in c[1][1])
    return True  # foreign: kept as found


def _tighten(found: list[Raw], rounds: int = 100) -> list[Raw]:
    """`found` with each domain cut to the bounds its linear and `abs` constraints imply (bounds consistency).

    Engines differ in how far they propagate: clpfd narrows `Y` in `X in 1..3, X #< Y`
    to `2..sup`, logicpy's store leaves an unbounded `Y` alone. The implied bounds are
    the same constraint written out, so both sides are closed the same way (at most
    `rounds` sweeps: a cycle of strict inequalities could raise a bound forever).
    """
    domains = {c[1]: c[2] for c in found if c[0] == "in"}
    if not all(domains.values()):
        return found  # an empty domain: inconsistent already, and shown as it is
    lins = [c for c in found if c[0] == "lin" and c[2] != "\\=" and len(c[1]) > 1]
    # |x - y| = d puts x within d of y: x - y <= d and y - x <= d, as bounds
    dists = [c for c in found if c[0] == "abs" and c[3] == "=" and isinstance(c[4], int)
             and is_var(c[1]) and is_var(c[2]) and c[1] is not c[2]]
    lins += [("lin", {x: 1, y: -1}, "=<", c[4]) for c in dists for x, y in ((c[1], c[2]), (c[2], c[1]))]
    full: Intervals = ((None, None),)
    for _ in range(rounds if lins else 0):
        changed = False
        for _, coeffs, op, rhs in lins:
            for v, a in coeffs.items():
                rest_lo = rest_hi = 0.0
                for u, b in coeffs.items():
                    if u is not v:
                        d = domains.get(u, full)
                        lo, hi = _lo(d[0][0]), _hi(d[-1][1])
                        rest_lo += min(b * lo, b * hi)
                        rest_hi += max(b * lo, b * hi)
                bound: list[tuple[int | None, int | None]] = [(None, None)]
                if rest_lo != -math.inf:  # a·v <= rhs - rest_lo
                    p = int(rhs - rest_lo)
                    bound = [(None, p // a)] if a > 0 else [(-(-p // a), None)]
                cut = _intersect(domains.get(v, full), tuple(bound))
                if op == "=" and rest_hi != math.inf:  # a·v >= rhs - rest_hi
                    q = int(rhs - rest_hi)
                    cut = _intersect(cut, ((-(-q // a), None),) if a > 0 else ((None, q // a),))
                if cut != domains.get(v, full):
                    if not cut:
                        return found  # inconsistent: a state never holds this; leave it as found
                    domains[v] = cut
                    changed = True
        if not changed:
            break
    return [("in", v, d) for v, d in domains.items()] + [c for c in found if c[0] != "in"]


def _abs_of_hidden(term: Term, found: list[Raw]) -> list[Raw]:
    """`found` with each hidden A in `A = ±(X - Y), A in -d\\/d` read as `abs(X-Y) #= d`.

    clpfd posts `abs(X-Y) #= 2` as `_A+Y #= X, _A in -2\\/2`; a variable that is not in the
    term and occurs in no other constraint is existential, so the two say the same.
    """
    shown = set(variables_in(term))
    occurs: dict[Var, int] = {}
    for c in found:
        for v in variables_in(c):
            occurs[v] = occurs.get(v, 0) + 1
    domains = {c[1]: c[2] for c in found if c[0] == "in"}
    hidden: set[Var] = set()
    out = []
    for c in found:
        if c[0] == "lin" and c[2] == "=" and c[3] == 0 and len(c[1]) == 3:
            for a, k in c[1].items():
                d = domains.get(a, ())
                rest = sorted(((v, b) for v, b in c[1].items() if v is not a), key=lambda p: -p[1])
                if (abs(k) == 1 and a not in shown and occurs[a] == 2 and [b for _, b in rest] == [1, -1]
                        and len(d) == 2 and d[1][0] is not None and d[1][0] > 0
                        and d == ((-d[1][0], -d[1][0]), (d[1][0], d[1][0]))):
                    hidden.add(a)
                    c = ("abs", rest[0][0], rest[1][0], "=", d[1][0])
                    break
        out.append(c)
    return [c for c in out if not (c[0] == "in" and c[1] in hidden)]


def _fixed(found: list[Raw]) -> dict[Var, int]:
    """The variables whose domain in `found` has one value, with that value."""
    return {c[1]: c[2][0][0] for c in found
            if c[0] == "in" and len(c[2]) == 1 and c[2][0][0] is not None and c[2][0][0] == c[2][0][1]}


def _substitute(c: Raw, values: dict[Var, int]) -> Raw:
    """Raw constraint `c` with the variables of `values` replaced by their values."""
    if c[0] == "lin":
        return _lin([(a, values.get(v, v)) for v, a in c[1].items()], c[2], c[3])
    return (c[0], *(reify(x, values) if not isinstance(x, (dict, str)) else x for x in c[1:]))


def _entailed(c: Raw, domains: dict[Var, Intervals]) -> bool:
    """True iff the linear constraint `c` holds for every value its variables' domains allow."""
    _, coeffs, op, rhs = c
    lo = hi = 0.0
    for v, a in coeffs.items():
        d = domains.get(v, ((None, None),))
        if not d:
            return False
        vlo, vhi = _lo(d[0][0]), _hi(d[-1][1])
        lo += min(a * vlo, a * vhi)
        hi += max(a * vlo, a * vhi)
    if op == "=<":
        return hi <= rhs
    if op == "\\=":
        return rhs < lo or rhs > hi
    return lo == hi == rhs


def _canon(c: Raw, key: Callable[[Var], tuple[int, int]]) -> Any:
    """The canonical goal of raw constraint `c` given the variable order `key` (None if it always holds)."""
    kind = c[0]
    if kind == "in":
        return ("in", c[1], _domain_term(c[2]))
    if kind == "dif":
        return _dif(c[1], c[2], key)
    if kind == "lin":
        return _linear(c[1], c[2], c[3], key)
    if kind == "abs":
        x, y = sorted(c[1:3], key=lambda t: key(t) if is_var(t) else (2, t))
        return ("#=" if c[3] == "=" else "#\\=", ("abs", ("-", x, y)), c[4])
    if kind == "goal":
        goal = c[1]
        if goal[0] == "all_different":
            return ("all_different", sorted(goal[1], key=lambda t: key(t) if is_var(t) else (2, t)))
        return goal
    return ("foreign", c[1])


def _linear(coeffs: dict[Var, int], op: str, rhs: int, key: Callable[[Var], tuple[int, int]]) -> Term:
    functor = {"=": "#=", "\\=": "#\\=", "=<": "#=<"}[op]
    if not coeffs:
        return (functor, 0, rhs)  # ground and false
    order = sorted(coeffs, key=key)
    g = math.gcd(*coeffs.values())
    if op == "=<":
        coeffs, rhs = {v: a // g for v, a in coeffs.items()}, rhs // g
    else:
        if rhs % g:
            if op == "\\=":
                return None  # no integer solution to the equation: the disequality always holds
            g = 1
        sign = -1 if coeffs[order[0]] < 0 else 1
        coeffs, rhs = {v: sign * a // g for v, a in coeffs.items()}, sign * rhs // g
    expr: Term = None
    for v in order:
        a = coeffs[v]
        t = v if abs(a) == 1 else ("*", abs(a), v)
        if expr is None:
            expr = t if a > 0 else ("-", t)
        else:
            expr = ("+" if a > 0 else "-", expr, t)
    return (functor, expr, rhs)


def _dif(a: Term, b: Term, key: Callable[[Var], tuple[int, int]]) -> Term:
    """dif(a, b) written as its unifier: variable classes by their first member, pairs sorted."""
    s = unify(a, b, {})
    if s is False:
        return None
    if not s:
        return ("dif", a, b)  # violated; a state never holds one
    vs = set(s) | {t for t in s.values() if is_var(t)}

    def root(v: Var) -> Var:
        while isinstance(s.get(v), Var):
            v = s[v]
        return v

    classes: dict[Var, list[Var]] = {}
    for v in vs:
        classes.setdefault(root(v), []).append(v)
    rep = {}
    for r, members in classes.items():
        members.sort(key=key)
        for m in members:
            rep[m] = members[0]
    pairs: list[tuple[Var, Term]] = []
    for r, members in classes.items():
        first = members[0]
        pairs.extend((first, m) for m in members[1:])
        if r in s:
            pairs.append((first, reify(reify(s[r], s), rep)))
    pairs.sort(key=lambda p: (key(p[0]), format_term(p[1], {v: str(key(v)) for v in variables_in(p[1])})))
    if len(pairs) == 1:
        return ("dif", *pairs[0])
    return ("dif", [p[0] for p in pairs], [p[1] for p in pairs])


def _reachable(term: Term, raw: list[Raw]) -> list[Raw]:
    """The constraints linked to the variables of `term`, directly or through other constraints,
    and the ground ones (which `_fold_domains` kept because they are false)."""
    seen = set(variables_in(term))
    todo = list(raw)
    kept = [c for c in raw if not any(True for _ in variables_in(c))]  # ground: false, so part of every answer
    changed = True
    while changed:
        changed = False
        for c in list(todo):
            cv = set(variables_in(c))
            if cv & seen:
                seen |= cv
                kept.append(c)
                todo.remove(c)
                changed = True
    return [c for c in raw if any(c is k for k in kept)]


# ---------------------------------------------------------------- writing constraints

_INFIX = {"in": " in ", "..": "..", "\\/": "\\/", "#=": " #= ", "#\\=": " #\\= ", "#=<": " #=< ",
          "+": "+", "-": "-", "*": "*"}


def format_constraint(goal: Term, names: Mapping[Var, str]) -> str:
    """A constraint goal as clpfd writes it (`_0 in 1..3`, `_0-_1 #=< -1`), variables by `names`."""
    if isinstance(goal, tuple) and len(goal) == 3 and goal[0] in _INFIX:
        return format_constraint(goal[1], names) + _INFIX[goal[0]] + format_constraint(goal[2], names)
    if isinstance(goal, tuple) and len(goal) == 2 and goal[0] in ("-", "abs"):
        inner = format_constraint(goal[1], names)
        return f"-{inner}" if goal[0] == "-" else f"abs({inner})"
    return format_term(goal, dict(names))
