"""The finite-domain goals: constraints that compose with kanren's `eq`, `neq`, `conde`, and labelling.

Each constraint checks its fixed arguments when it is built (value sets, offsets,
coefficients, rows; errors name the argument) and returns a goal that posts one propagator
into the state's `FDStore`. Its term arguments may be any terms: one that is, or gets bound
to, anything but an int (a float, a bool, an atom, a list, a compound) makes the goal fail,
whichever comes first, as an FD variable bound to one does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from cons.core import ConsPair  # type: ignore[import-untyped]

from kanren.constraints import ConstrainedState
from kanren.core import GoalType, fail, succeed
from unification import reify  # type: ignore[import-untyped]

from ...errors import InputError, ModeError, TermError, shown
from .._spine import is_open, spine
from ..terms import is_var, var
from ..streams import Named, named
from . import propagators as P
from .store import Domain, FDStore, Propagator, bind, fd_state, is_fd_term, walk

__all__ = [
    "STRATEGIES",
    "post",
    "domo",
    "inso",
    "all_differento",
    "lto",
    "leqo",
    "eq_offseto",
    "neq_offseto",
    "abs_diffo",
    "not_abs_diffo",
    "sumo",
    "elemento",
    "tableo",
    "labelo",
    "producto",
    "fdo",
    "reif_leqo",
    "reif_lto",
    "reif_eqo",
    "noto",
    "ando",
    "oro",
    "xoro",
    "impo",
]

STRATEGIES = {
    "ff": "first-fail: the variable with the smallest domain first, ties leftmost",
    "leftmost": "the variables in the order given",
    "wdeg": "dom/wdeg: first-fail, each domain size divided by 1 + the failures its constraints caused so far in this search",
}


def _is_int(a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def _on_list(relation: str, xs: Any, make_goal: Callable[[tuple], GoalType]) -> GoalType:
    """The goal `make_goal(items)` for the list argument `xs` of `relation`.

    A Python list or tuple gives its items at once (so errors show at construction); a
    logic variable or a partial list is read when the goal runs, as Prolog reads
    `L` in `length(L, 3), L ins 1..9`: by then it must be a proper list (else ModeError).
    """
    if isinstance(xs, (list, tuple)):
        return make_goal(tuple(xs))
    if not (is_var(xs) or isinstance(xs, ConsPair)):
        raise TermError(f"{relation}: argument xs must be a list of terms or a logic variable, got {shown(xs)}")

    def list_goal(S):
        items, tail = spine(xs, S)
        if is_open(tail):
            what = "unbound" if not items else "a partial list"
            raise ModeError(f"{relation}: argument xs is {what} when the goal runs; its length must be known")
        if type(tail) is not list:
            raise TermError(f"{relation}: argument xs is bound to {shown(reify(xs, S))}, not a list")
        yield from make_goal(tuple(items))(S)

    return list_goal


def _int(relation: str, name: str, a: Any) -> int:
    if not _is_int(a):
        raise TermError(f"{relation}: argument {name} must be an int, got {shown(a)}")
    return a


def post(propagator: Propagator) -> GoalType:
    """A goal that adds `propagator` to the state's finite-domain store and propagates.

    This is the extension point: a new constraint is a `Propagator` subclass posted by `post`.
    """

    def post_goal(S):
        S2, store = fd_state(S)
        if store.post(propagator, S2.data):
            S3 = S2.settle()
            if S3 is not False:
                yield S3

    post_goal.propagators = (propagator,)  # type: ignore[attr-defined]  # what `disjo` tries on a copy of the store
    return post_goal


def _value_set(relation: str, values: Iterable[int]) -> Domain:
    """The `Domain` of a non-empty iterable of ints (a `Domain`, or a range of step 1, stays intervals, however wide)."""
    if isinstance(values, Domain):
        if not values:
            raise InputError(f"{relation}: argument values is empty")
        return values
    if isinstance(values, range) and values.step == 1:
        if not values:
            raise InputError(f"{relation}: argument values is empty ({values!r})")
        return Domain.of(values)
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TermError(f"{relation}: argument values must be an iterable of ints, got {values!r}")
    values = list(values)
    if not values:
        raise InputError(f"{relation}: argument values is empty")
    for v in values:
        if not _is_int(v):
            raise TermError(f"{relation}: argument values must hold only ints, got {shown(v)}")
    return Domain.of(values)


@named
def domo(x: Any, values: Iterable[int]) -> GoalType:
    """domo(?x, +values): True iff x is one of the ints `values` (a range or any iterable).

    An unlabelled x shows its residual domain when reified.

    >>> from logicpy.core.fd import domo, lto
    >>> from logicpy.core import run, var
    >>> x = var()
    >>> run(0, x, domo(x, range(1, 10)), lto(x, 4))[0].domain
    {1..3}
    """
    return post(P.InDomain(x, _value_set("domo", values)))


@named
def inso(xs: Sequence[Any], values: Iterable[int]) -> GoalType:
    """inso(?xs, +values): True iff every element of xs is one of `values` (clpfd's `ins`)."""
    values = _value_set("inso", values)
    return _on_list("inso", xs, lambda xs: _all(post(P.InDomain(x, values)) for x in xs))


def _all(goals: Iterable[GoalType]) -> GoalType:
    """The conjunction of goals that each yield at most one state (all FD posts do)."""
    goals = tuple(goals)

    def all_goal(S):
        for g in goals:
            S = next(iter(g(S)), None)
            if S is None:
                return
        yield S

    parts = [getattr(g.goal if isinstance(g, Named) else g, "propagators", None) for g in goals]
    if None not in parts:  # a conjunction of posts: `disjo` can try it
        all_goal.propagators = tuple(p for ps in parts for p in ps)  # type: ignore[attr-defined, union-attr]
    return all_goal


@named
def all_differento(xs: Sequence[Any], matching: bool = True) -> GoalType:
    """all_differento(?xs, +matching=True): True iff the elements of xs are pairwise different ints.

    Domain consistent (Régin's matching): a value no complete assignment can use is removed.
    With `matching=False`, singles only: a variable's one value leaves the others, and when
    the open variables have exactly as many values left as they are, a value only one of them
    can take is that one's; cheaper per wake, for searches that prune enough elsewhere.

    >>> from logicpy.core.fd import all_differento, domo
    >>> from logicpy.core import run, var
    >>> x, y, z = var(), var(), var()
    >>> run(0, z, domo(x, [1, 2]), domo(y, [1, 2]), domo(z, [1, 2, 3]), all_differento([x, y, z]))
    (3,)
    """
    return _on_list("all_differento", xs, lambda xs: post(P.AllDifferent(xs, matching)))


@named
def lto(x: Any, y: Any, c: int = 0) -> GoalType:
    """lto(?x, ?y, +c=0): True iff x < y + c. Bounds consistent.

    >>> from logicpy.core.fd import domo, lto
    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, y, domo(x, range(5, 9)), domo(y, range(0, 10)), lto(x, y))[0].domain
    {6..9}
    """
    c = _int("lto", "c", c)
    return post(P.LessEq(x, y, c - 1))


@named
def leqo(x: Any, y: Any, c: int = 0) -> GoalType:
    """leqo(?x, ?y, +c=0): True iff x <= y + c. Bounds consistent."""
    c = _int("leqo", "c", c)
    return post(P.LessEq(x, y, c))


@named
def eq_offseto(x: Any, y: Any, c: int) -> GoalType:
    """eq_offseto(?x, ?y, +c): True iff x = y + c. Domain consistent.

    >>> from logicpy.core.fd import domo, eq_offseto
    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, y, domo(x, [3, 5, 9]), eq_offseto(x, y, 2))[0].domain
    {1, 3, 7}
    """
    c = _int("eq_offseto", "c", c)
    return post(P.EqOffset(x, y, c))


@named
def neq_offseto(x: Any, y: Any, c: int = 0) -> GoalType:
    """neq_offseto(?x, ?y, +c=0): True iff x != y + c. Domain consistent once x or y has one value."""
    c = _int("neq_offseto", "c", c)
    return post(P.NeqOffset(x, y, c))


@named
def abs_diffo(x: Any, y: Any, d: Any) -> GoalType:
    """abs_diffo(?x, ?y, ?d): True iff |x − y| = d (adjacency: d = 1). Domain consistent.

    >>> from logicpy.core.fd import abs_diffo, domo
    >>> from logicpy.core import run, var
    >>> x = var()
    >>> run(0, x, domo(x, range(1, 6)), abs_diffo(x, 3, 1))[0].domain
    {2, 4}
    """
    return post(P.AbsDiff(x, y, d))


@named
def not_abs_diffo(x: Any, y: Any, d: Any) -> GoalType:
    """not_abs_diffo(?x, ?y, ?d): True iff |x − y| != d. Domain consistent once two of x, y, d have one value."""
    return post(P.NotAbsDiff(x, y, d))


@named
def sumo(xs: Sequence[Any], total: Any, coeffs: Sequence[int] | None = None) -> GoalType:
    """sumo(?xs, ?total, +coeffs=None): True iff Σ coeffs[i]·xs[i] = total (coeffs default to 1).

    Bounds consistent. A total without a domain gets the interval the sum allows.

    >>> from logicpy.core.fd import domo, sumo
    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, x, domo(x, range(0, 10)), domo(y, range(0, 10)), sumo([x, y], 15, [2, 1]))[0].domain
    {3..7}
    """
    if coeffs is not None:
        if not isinstance(coeffs, (list, tuple)):
            raise TermError(f"sumo: argument coeffs must be a list of ints, got {coeffs!r}")
        coeffs = tuple(_int("sumo", f"coeffs[{k}]", a) for k, a in enumerate(coeffs))

    def sum_goal(xs: tuple) -> GoalType:
        weights = (1,) * len(xs) if coeffs is None else coeffs
        if len(weights) != len(xs):
            raise InputError(f"sumo: coeffs has {len(weights)} entries but xs has {len(xs)}")
        # a zero coefficient still makes its term an int: Linear drops it only after walking it
        pairs = [*zip(xs, weights), (total, -1)]
        kind = P.ShortLinear if len(pairs) <= 3 else P.Linear
        return post(kind(tuple(x for x, _ in pairs), tuple(a for _, a in pairs)))

    return _on_list("sumo", xs, sum_goal)


@named
def elemento(i: Any, xs: Sequence[Any], v: Any) -> GoalType:
    """elemento(?i, ?xs, ?v): True iff xs[i] = v, i counted from 1 (Prolog's element/3).

    Domain consistent on i and v.

    >>> from logicpy.core.fd import elemento
    >>> from logicpy.core import run, var
    >>> i = var()
    >>> run(0, i, elemento(i, [7, 3, 7], 7))[0].domain
    {1, 3}
    """

    def element_goal(xs: tuple) -> GoalType:
        if not xs:
            raise InputError("elemento: argument xs is empty")
        return post(P.Element(i, xs, v))

    return _on_list("elemento", xs, element_goal)


@named
def tableo(xs: Sequence[Any], rows: Iterable[Sequence[int]]) -> GoalType:
    """tableo(?xs, +rows): True iff the tuple xs equals one of `rows`. Domain consistent.

    >>> from logicpy.core.fd import tableo
    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, (x, y), tableo([x, y], [(1, 2), (2, 3), (1, 4)]), tableo([x], [(2,), (3,)]))
    ((2, 3),)
    """
    checked = []
    for k, row in enumerate(rows):
        if not isinstance(row, (list, tuple)):
            raise InputError(f"tableo: row {k} must be a tuple of ints, got {row!r}")
        checked.append(tuple(_int("tableo", f"rows[{k}][{j}]", a) for j, a in enumerate(row)))
    if not checked:
        raise InputError("tableo: argument rows is empty")

    def table_goal(xs: tuple) -> GoalType:
        for k, row in enumerate(checked):
            if len(row) != len(xs):
                raise InputError(f"tableo: row {k} must be a tuple of {len(xs)} ints, got {row!r}")
        return post(P.TuplesIn(xs, tuple(checked)))

    return _on_list("tableo", xs, table_goal)


@named
def producto(x: Any, y: Any, z: Any) -> GoalType:
    """producto(?x, ?y, ?z): True iff x · y = z (clpfd's `X * Y #= Z`). Bounds consistent on z;
    x and y are narrowed by division when the other's interval excludes 0.

    >>> from logicpy.core import run, var, domo, labelo
    >>> x, y = var(), var()
    >>> run(0, (x, y), domo(x, range(1, 10)), domo(y, range(1, 10)), producto(x, y, 12), labelo([x, y]))
    ((2, 6), (3, 4), (4, 3), (6, 2))
    """
    return post(P.Times(x, y, z))


#: fdo's comparison operators: the goal posted on s = lhs - rhs.
_COMPARISONS = ("=", "!=", "<", "=<", ">", ">=")

#: The other spellings fdo accepts: Python's, Prolog's and clpfd's.
_SPELLINGS = {"==": "=", "#=": "=", "=:=": "=", "<>": "!=", "\\=": "!=", "=\\=": "!=", "#\\=": "!=",
              "<=": "=<", "#=<": "=<", "#<": "<", "#>": ">", "#>=": ">="}


@named
def fdo(lhs: Any, op: str, rhs: Any) -> GoalType:
    """fdo(+lhs, +op, +rhs): the arithmetic comparison `lhs op rhs` over FD variables
    (clpfd's `#=`, `#\\=`, `#<`, `#=<`, `#>`, `#>=`), op one of "=", "!=", "<", "=<",
    ">", ">=" or another spelling of one (Python's "==", "<=", Prolog's "=:=", "\\=",
    "=\\=", clpfd's "#=", "#\\=", "#<", "#=<", "#>", "#>="). An expression is an int, a logic variable, or a compound term
    ("+", a, b), ("-", a, b), ("-", a), ("*", a, b): the way Prolog's `3*X + 2*Y` is a
    logicpy term. Linear parts become one `sumo` with coefficients; a product of two
    non-constant parts becomes a `producto` on fresh variables. Expressions are read as
    written, when the goal is made (a variable bound to an expression later is a variable).

    >>> from logicpy.core import run, var, domo, labelo
    >>> x, y = var(), var()
    >>> run(0, (x, y), domo(x, range(0, 10)), domo(y, range(0, 10)),
    ...     fdo(("+", ("*", 3, x), ("*", 2, y)), "=", 12), fdo(x, "<", y), labelo([x, y]))
    ((0, 6), (2, 3))
    """
    op = _SPELLINGS.get(op, op) if isinstance(op, str) else op
    if op not in _COMPARISONS:
        raise InputError(f"fdo: operator {op!r} is not one of {', '.join(_COMPARISONS)} "
                         f"(or {', '.join(_SPELLINGS)})")
    aux: list[GoalType] = []
    coeffs, const = _linear(("-", lhs, rhs), aux, "fdo")
    terms = [(v, a) for v, a in coeffs.items() if a]
    if not terms:  # lhs - rhs is the constant `const`
        holds = {"=": const == 0, "!=": const != 0, "<": const < 0, "=<": const <= 0,
                 ">": const > 0, ">=": const >= 0}[op]
        return _all(aux + [succeed if holds else fail])
    xs = tuple(v for v, _ in terms)
    weights = tuple(a for _, a in terms)
    if op == "=":
        return _all(aux + [sumo(list(xs), -const, list(weights))])
    d = var()  # d = lhs - rhs, as an interval from the sum
    aux.append(sumo(list(xs) + [d], -const, list(weights) + [-1]))
    compare = {"!=": neq_offseto(d, 0), "<": lto(d, 0), "=<": leqo(d, 0), ">": lto(0, d), ">=": leqo(0, d)}[op]
    return _all(aux + [compare])


def _linear(e: Any, aux: list, where: str) -> tuple[dict, int]:
    """The expression `e` as (coefficient of each variable, constant); products of two
    non-constant parts are replaced by fresh variables constrained in `aux`."""
    if isinstance(e, int) and not isinstance(e, bool):
        return {}, e
    if is_var(e):
        return {e: 1}, 0
    if isinstance(e, tuple) and e and e[0] in ("+", "-", "*") and len(e) in (2, 3):
        if len(e) == 2:
            if e[0] != "-":
                raise TermError(f"{where}: {shown(e)} is not an expression (unary operator must be '-')")
            c, k = _linear(e[1], aux, where)
            return {v: -a for v, a in c.items()}, -k
        (ca, ka), (cb, kb) = _linear(e[1], aux, where), _linear(e[2], aux, where)
        if e[0] == "+" or e[0] == "-":
            sign = 1 if e[0] == "+" else -1
            out = dict(ca)
            for v, a in cb.items():
                out[v] = out.get(v, 0) + sign * a
            return out, ka + sign * kb
        if not ca:  # constant * expression
            return {v: ka * a for v, a in cb.items()}, ka * kb
        if not cb:
            return {v: kb * a for v, a in ca.items()}, ka * kb
        z = var()
        aux.append(producto(_as_var(ca, ka, aux), _as_var(cb, kb, aux), z))
        return {z: 1}, 0
    raise TermError(f"{where}: {shown(e)} is not an expression (an int, a variable, or ('+'|'-'|'*', a, b))")


def _as_var(coeffs: dict, const: int, aux: list) -> Any:
    """A variable equal to the linear expression (the variable itself when it is one)."""
    if const == 0 and len(coeffs) == 1:
        [(v, a)] = coeffs.items()
        if a == 1:
            return v
    w = var()
    aux.append(sumo(list(coeffs) + [w], -const, list(coeffs.values()) + [-1]))
    return w


@named
def reif_leqo(x: Any, y: Any, b: Any, c: int = 0) -> GoalType:
    """reif_leqo(?x, ?y, ?b, +c=0): b is 1 iff x <= y + c, else 0 (clpfd's `B #<==> (X #=< Y + C)`).

    >>> from logicpy.core import run, var, domo, labelo
    >>> x, b = var(), var()
    >>> run(0, (x, b), domo(x, range(1, 4)), reif_leqo(x, 2, b), labelo([x]))
    ((1, 1), (2, 1), (3, 0))
    """
    return post(P.ReifiedLessEq(b, x, y, _int("reif_leqo", "c", c)))


@named
def reif_lto(x: Any, y: Any, b: Any) -> GoalType:
    """reif_lto(?x, ?y, ?b): b is 1 iff x < y, else 0 (clpfd's `B #<==> (X #< Y)`)."""
    return post(P.ReifiedLessEq(b, x, y, -1))


@named
def reif_eqo(x: Any, y: Any, b: Any, c: int = 0) -> GoalType:
    """reif_eqo(?x, ?y, ?b, +c=0): b is 1 iff x = y + c, else 0 (clpfd's `B #<==> (X #= Y + C)`).

    >>> from logicpy.core import run, var, domo
    >>> x, b = var(), var()
    >>> run(0, b, domo(x, range(5, 9)), reif_eqo(x, 3, b))
    (0,)
    """
    return post(P.ReifiedEq(b, x, y, _int("reif_eqo", "c", c)))


#: Truth tables of the boolean constraints over 0/1: (inputs..., result).
_TRUTH = {
    "and": [(a, b, a & b) for a in (0, 1) for b in (0, 1)],
    "or": [(a, b, a | b) for a in (0, 1) for b in (0, 1)],
    "xor": [(a, b, a ^ b) for a in (0, 1) for b in (0, 1)],
    "imp": [(a, b, int(not a or b)) for a in (0, 1) for b in (0, 1)],
}


@named
def noto(a: Any, r: Any) -> GoalType:
    """noto(?a, ?r): booleans (0/1), r = not a (clpfd's `R #<==> #\\ A`)."""
    return post(P.TuplesIn((a, r), ((0, 1), (1, 0))))


@named
def ando(a: Any, b: Any, r: Any) -> GoalType:
    """ando(?a, ?b, ?r): booleans (0/1), r = a and b (clpfd's `R #<==> (A #/\\ B)`). Domain consistent.

    >>> from logicpy.core import run, var
    >>> a, b = var(), var()
    >>> run(0, (a, b), ando(a, b, 1))
    ((1, 1),)
    """
    return post(P.TuplesIn((a, b, r), tuple(_TRUTH["and"])))


@named
def oro(a: Any, b: Any, r: Any) -> GoalType:
    """oro(?a, ?b, ?r): booleans (0/1), r = a or b (clpfd's `R #<==> (A #\\/ B)`). Domain consistent."""
    return post(P.TuplesIn((a, b, r), tuple(_TRUTH["or"])))


@named
def xoro(a: Any, b: Any, r: Any) -> GoalType:
    """xoro(?a, ?b, ?r): booleans (0/1), r = a xor b (clpfd's `R #<==> (A #\\ B)`). Domain consistent."""
    return post(P.TuplesIn((a, b, r), tuple(_TRUTH["xor"])))


@named
def impo(a: Any, b: Any, r: Any) -> GoalType:
    """impo(?a, ?b, ?r): booleans (0/1), r = (a implies b) (clpfd's `R #<==> (A #==> B)`). Domain consistent."""
    return post(P.TuplesIn((a, b, r), tuple(_TRUTH["imp"])))


@named
def labelo(xs: Sequence[Any], strategy: str = "ff") -> GoalType:
    """labelo(?xs, +strategy="ff"): give every variable of xs a value from its domain.

    Values are tried in ascending order, each choice propagated before the next; a domain of
    more than `SPLIT` values is split in halves instead (low half first, each propagated), so
    wide domains are searched lazily. Strategies: "ff" (first-fail: smallest domain first,
    ties leftmost), "leftmost", and "wdeg" (dom/wdeg: first-fail, each domain size divided by
    1 + the number of failures the variable's constraints have caused so far in this search).
    Raises ModeError for a variable without a finite domain.

    >>> from logicpy.core.fd import domo, labelo, lto
    >>> from logicpy.core import run, var
    >>> x, y = var(), var()
    >>> run(0, (x, y), domo(x, range(1, 4)), domo(y, range(1, 4)), lto(x, y), labelo([x, y]))
    ((1, 2), (1, 3), (2, 3))
    """
    if strategy not in STRATEGIES:
        raise InputError(f"labelo: unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    first_fail = strategy != "leftmost"

    def label_goal(xs: tuple) -> GoalType:
        def labelo_goal(S):
            yield from _label(S, xs, first_fail, {} if strategy == "wdeg" else None)

        return labelo_goal

    return _on_list("labelo", xs, label_goal)


#: Labelling enumerates a domain of at most this many values; a wider one it splits in two
#: halves (low half first), propagating each, so a domain of 10**15 values is never enumerated.
SPLIT = 64


def _label(S: Any, xs: tuple, first_fail: bool, weights: dict | None = None) -> Iterator[Any]:
    """Depth-first labelling of xs in state S (a generator of states), values ascending.

    With `weights` (dom/wdeg), each failed choice adds one to the weight of the propagator
    that failed (as `bind` and `FDStore.narrow` report it), and a variable's domain size is divided by 1 + the weights
    of the propagators watching it: search turns to where it has been failing.

    Fails when an element is bound to anything but an int; raises ModeError for an unbound
    one without a finite domain.
    """
    data = S.data if isinstance(S, ConstrainedState) else S
    store = S.constraints.get(FDStore) if isinstance(S, ConstrainedState) else None
    domains = store.domains if store is not None else {}
    watch = store.watch if store is not None else {}
    best, best_size = None, 0
    for x in xs:
        t = walk(x, data)
        if t.__class__ is int:
            continue
        if not is_fd_term(t):
            return  # a float, a bool, an atom, a list...: not an int, so no labelling
        d = domains.get(t)
        if d is None:
            raise ModeError(f"labelo: variable {shown(x)} has no finite domain; give it one with domo")
        if not first_fail:
            best = t
            break
        size = d.bit_count() if d.__class__ is int else d.size
        if weights is not None and size > 1:
            w = watch.get(t, ((), (), ()))
            size = size / (1 + sum(weights.get(p, 0) for ps in w for p in ps))
        if best is None or size < best_size:
            best, best_size = t, size
            if size == 1:
                break
    if best is None:
        yield S
        return
    assert store is not None  # best has a domain, so the state has a store
    d = domains[best]
    if d.__class__ is not int and d.size > SPLIT:  # a wide domain: its low half, then its high half
        middle = (d.min + d.max) // 2
        for lo, hi in ((None, middle), (middle + 1, None)):
            S2, store2 = fd_state(S)
            S3, blame = S2._settled() if store2.narrow(best, lo, hi, S2.data) else (False, store2.failed)
            if S3 is not False:
                yield from _label(S3, xs, first_fail, weights)
            elif weights is not None and blame is not None:
                weights[blame] = weights.get(blame, 0) + 1
        return
    for value in store.values(d):
        S_bound, blame = bind(S, [(best, value)])
        if S_bound is not False:
            yield from _label(S_bound, xs, first_fail, weights)
        elif weights is not None and blame is not None:
            weights[blame] = weights.get(blame, 0) + 1
