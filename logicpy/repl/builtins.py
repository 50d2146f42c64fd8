"""Prolog's library built-ins (lists, all-solutions, term inspection, the standard order,
atoms, output), as SWI-Prolog's manual defines them, for `goals`' table.

A built-in reads its arguments as the current state binds them and unifies its results;
one with several answers yields them in SWI-Prolog's order. `findall/3`, `forall/2`,
`bagof/3`, `setof/3`, `aggregate_all/3` and the tests of `include/3` and friends run
their goal as a search of its own, so a cut in it stays there. `maplist/2..5` and `foldl/4..6`
call their goal in the caller's search, one list cell at a time, as Prolog's definitions do.
"""

from __future__ import annotations

import functools
import itertools
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any, NoReturn

from cons.core import ConsPair
from unification import reify  # type: ignore[import-untyped]

from ..core import conde, condu, eq, lall, membero, succeed
from ..core.equality import reify_dict
from ..core.listloops import check_list_size
from ..core.procedures import Procedure
from ..core.streams import Call, solve
from ..core.terms import String, Suffix, Term, cons, format_term, is_var, rest_of, term_variables, var, variables_in
from ..errors import PrologError
from . import arith
from .goals import Relations, _checked, _data, _MetaCall, _not, _WithValues

GoalType = Callable[[Any], Iterable[Any]]


# ---------------------------------------------------------------- errors, as SWI words them


def _kind(value: Term) -> str:
    if isinstance(value, bool) or isinstance(value, str):
        return "an atom"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, String):
        return "a string"
    return "a compound"


def _context(who: str) -> str:
    """The message's prefix naming the built-in; SWI names the system predicates, not the library's."""
    return "" if who.partition("/")[0] in _UNNAMED else f"{who}: "


_UNNAMED = {"numlist", "sum_list", "sumlist", "max_list", "min_list", "last", "nth0", "nth1", "reverse",
            "subtract", "ord_subtract", "ord_union", "ord_subset", "ord_memberchk", "list_to_set", "append",
            "select", "selectchk", "aggregate_all", "predsort", "chain"}


def type_error(who: str, kind: str, value: Term) -> NoReturn:
    raise PrologError(f"{_context(who)}Type error: `{kind}' expected, found `{write_text(value, quoted=True)}' "
                      f"({_kind(value)})", ("error", ("type_error", kind, value), ("context", who, var())))


def domain_error(who: str, kind: str, value: Term) -> NoReturn:
    raise PrologError(f"{_context(who)}Domain error: `{kind}' expected, found `{write_text(value, quoted=True)}'",
                      ("error", ("domain_error", kind, value), ("context", who, var())))


def instantiation_error(who: str) -> NoReturn:
    raise PrologError(f"{_context(who)}Arguments are not sufficiently instantiated",
                      ("error", "instantiation_error", ("context", who, var())))


# ---------------------------------------------------------------- terms


def _is_int(x: Term) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Term) -> bool:
    return isinstance(x, (int, float, Fraction)) and not isinstance(x, bool)


def _is_atom(x: Term) -> bool:
    return isinstance(x, (str, bool))


def _atom(x: Term) -> Term:
    return ("true" if x else "false") if isinstance(x, bool) else x


def _compound(t: Term) -> tuple[str, tuple] | None:
    """(name, arguments) of a compound term (a list cell is '[|]'(Head, Tail)); else None."""
    if isinstance(t, tuple) and t:
        return t[0], t[1:]
    if isinstance(t, list) and t:
        return "[|]", (t[0], rest_of(t, 1))
    if isinstance(t, Suffix):
        return "[|]", (t.items[t.start], rest_of(t.items, t.start + 1))
    if isinstance(t, ConsPair):
        return "[|]", (t.car, t.cdr)
    return None


def _build(name: Term, args: list) -> Term:
    if not args:
        return name
    if name == "[|]" and len(args) == 2:
        return cons(args[0], args[1])
    return (name, *args)


def proper_list(t: Term) -> list | None:
    """The elements of a proper list; None for a partial list or a non-list."""
    out: list = []
    while True:
        if isinstance(t, list):
            return out + t
        if isinstance(t, Suffix):
            return out + t.to_list()
        if type(t) is ConsPair:  # (isinstance would take a tuple, a compound, for a cell)
            out.append(t.car)
            t = t.cdr
            continue
        return None


def _list_of(who: str, t: Term) -> list:
    items = proper_list(t)
    if items is None:
        if _partial(t):
            instantiation_error(who)
        type_error(who, "list", t)
    return items


def _partial(t: Term) -> bool:
    while type(t) is ConsPair:
        t = t.cdr
    return is_var(t)


def copy(t: Term, fresh: dict | None = None) -> Term:
    """`t` with its variables renamed apart (the same variable, the same new one; `fresh`
    holds the renaming, shared by calls that pass it): a reification, so any size."""
    fresh = {} if fresh is None else fresh
    for v in variables_in(t):
        if v not in fresh:
            fresh[v] = var()
    return reify_dict(t, fresh)


# ---------------------------------------------------------------- the standard order of terms


def order_key(t: Term, names: dict | None = None) -> tuple:
    """A key sorting terms in SWI-Prolog's standard order: Var < Number < String < Atom (`[]`
    before every atom) < Compound;
    numbers by value (a float before an equal integer), compounds by arity, name, arguments.

    The key is flat, each node's tag and fields in pre-order: every encoding determines its
    own length (a compound states its arity before its arguments), so comparing two keys
    compares the first subterms that differ, as nested keys would, and a term of any size
    costs no recursion."""
    names = {} if names is None else names
    out: list = []
    stack = [t]
    while stack:
        t = stack.pop()
        if is_var(t):
            out += (0, names.setdefault(t, len(names)))
        elif _is_number(t):
            out += (1, t, 0 if isinstance(t, float) else 1)
        elif isinstance(t, String):
            out += (2, t.text)
        elif isinstance(t, list) and not t:
            out += (3, 0, "")
        elif isinstance(t, (str, bool)):
            out += (3, 1, _atom(t))
        else:
            found = _compound(t)
            if found is None:
                out += (5, repr(t))
            else:
                name, args = found
                out += (6, len(args), name)
                stack.extend(reversed(args))
    return tuple(out)


def _keyed(items: list) -> list[tuple[tuple, Term]]:
    names: dict = {}
    return [(order_key(t, names), t) for t in items]


def _compare_terms(a: Term, b: Term) -> str:
    names: dict = {}
    ka, kb = order_key(a, names), order_key(b, names)
    return "<" if ka < kb else ">" if ka > kb else "="


# ---------------------------------------------------------------- goal builders


def _function(who: str, fn: Callable[..., Iterable[tuple]]) -> Callable[..., GoalType]:
    """A built-in whose answers `fn(*values)` computes from its arguments as the state binds
    them: each answer a tuple of terms its arguments are unified with, in order."""
    def build(rel: Relations, *args: Term) -> GoalType:
        def goal(state: Any) -> Iterator[Any]:
            data = _data(state)
            values = tuple(reify(a, data) for a in args)
            for answer in fn(*values):
                yield from eq(("", *args), ("", *answer))(state)
        return goal
    build.__name__ = who
    return build


def _test(fn: Callable[..., bool]) -> Callable[..., GoalType]:
    def build(rel: Relations, *args: Term) -> GoalType:
        return _checked(lambda s: fn(*(reify(a, _data(s)) for a in args)))
    return build


def _answers(rel: Relations, goal: Term, state: Any) -> Iterator[Any]:
    """The answer states of `goal` from `state`, searched on their own (a cut stays inside)."""
    return solve(_MetaCall(_strip_carets(goal, state), (), rel), state)


def _strip_carets(goal: Term, state: Any) -> Term:
    goal = reify(goal, _data(state))
    while isinstance(goal, tuple) and len(goal) == 3 and goal[0] == "^":
        goal = goal[2]
    return goal


def _lambda(rel: Relations, params: Term, body: Term, *extra: Term) -> GoalType:
    """`Free/[X1,...]>>Goal` called with arguments: a copy of the lambda (the variables of
    `Free` shared) whose parameters are unified with the arguments, the rest passed to Goal."""
    def run(state: Any) -> Iterator[Any]:
        data = _data(state)
        p, b = reify(params, data), reify(body, data)
        fresh: dict = {}
        if isinstance(p, tuple) and len(p) == 3 and p[0] == "/":
            fresh = {v: v for v in term_variables(p[1])}
            p = p[2]
        p, b = copy(p, fresh), copy(b, fresh)
        names = proper_list(p) or []
        bound = min(len(names), len(extra))
        call = _MetaCall(b, tuple(extra[bound:]), rel)
        yield from lall(eq(list(names[:bound]), list(extra[:bound])), call)(state)
    return run


# ---------------------------------------------------------------- all solutions


def _findall(rel: Relations, template: Term, goal: Term, result: Term, tail: Term = None) -> GoalType:
    def run(state: Any) -> Iterator[Any]:
        found = [copy(reify(template, _data(s))) for s in _answers(rel, goal, state)]
        yield from eq(result, found if tail is None else _with_tail(found, tail))(state)
    return run


def _with_tail(items: list, tail: Term) -> Term:
    return cons(*items, tail) if items else tail


def _forall(rel: Relations, condition: Term, action: Term) -> GoalType:
    return _not(rel, (",", condition, ("\\+", action)))


def _bag(rel: Relations, template: Term, goal: Term, result: Term, as_set: bool) -> GoalType:
    """bagof/3 and setof/3: one answer per binding of the goal's free variables (those not
    in the template nor bound by `V^`), in the standard order of those bindings."""
    def run(state: Any) -> Iterator[Any]:
        data = _data(state)
        g, bound = reify(goal, data), set(term_variables(reify(template, data)))
        while isinstance(g, tuple) and len(g) == 3 and g[0] == "^":
            bound.update(term_variables(g[1]))
            g = g[2]
        witness = [v for v in term_variables(g) if v not in bound]
        pairs = [copy(reify(("-", witness, template), _data(s))) for s in solve(_MetaCall(g, (), rel), state)]
        if not pairs:
            return
        grouped: dict[str, tuple[list, list]] = {}  # the witness's shape: (witnesses, items)
        if witness:
            pairs.sort(key=lambda p: order_key(p[1]))
        for _, w, t in pairs:
            shape = format_term(w, {v: f"_V{i}" for i, v in enumerate(term_variables(w))})
            ws, items = grouped.setdefault(shape, ([], []))
            ws.append(w)
            items.append(t)
        for ws, items in grouped.values():
            s = state
            for w in ws:  # variants of one another: unified, as SWI-Prolog does
                found = eq(witness, w)(s)
                if not found:
                    break
                s = found[0]
            else:
                yield from eq(result, _sorted(items, unique=True) if as_set else items)(s)
    return run


def _aggregate_all(rel: Relations, spec: Term, goal: Term, result: Term) -> GoalType:
    def run(state: Any) -> Iterator[Any]:
        s = reify(spec, _data(state))
        if s == "count":
            yield from eq(result, sum(1 for _ in _answers(rel, goal, state)))(state)
            return
        if not (isinstance(s, tuple) and len(s) == 2 and s[0] in ("count", "sum", "max", "min", "bag", "set")):
            domain_error("aggregate_all/3", "aggregate_spec", s)
        items = [copy(reify(s[1], _data(a))) for a in _answers(rel, goal, state)]
        if s[0] == "count":
            value: Term = len(items)
        elif s[0] == "bag":
            value = items
        elif s[0] == "set":
            value = _sorted(items, unique=True)
        elif s[0] == "sum":
            total: Any = 0
            for x in items:
                total = arith.evaluate(("+", total, x))
            value = total
        elif not items:
            return
        else:
            numbers = [arith.evaluate(x) for x in items]
            value = (max if s[0] == "max" else min)(numbers)
        yield from eq(result, value)(state)
    return run


# ---------------------------------------------------------------- sorting


def _sorted(items: list, unique: bool, reverse: bool = False) -> list:
    keyed = sorted(_keyed(items), key=lambda p: p[0], reverse=reverse)
    out: list = []
    last = None
    for k, t in keyed:
        if unique and out and k == last:
            continue
        out.append(t)
        last = k
    return out


def _msort(items: Term, _result: Term) -> Iterator[tuple]:
    yield (items, _sorted(_list_of("msort/2", items), unique=False))


def _sort2(items: Term, _result: Term) -> Iterator[tuple]:
    yield (items, _sorted(_list_of("sort/2", items), unique=True))


def _sort4(key: Term, order: Term, items: Term, _result: Term) -> Iterator[tuple]:
    who = "sort/4"
    if is_var(key) or is_var(order):
        instantiation_error(who)
    if not _is_int(key) or key < 0:
        type_error(who, "integer", key) if not _is_int(key) else domain_error(who, "not_less_than_zero", key)
    if order not in ("@<", "@>", "@=<", "@>="):
        domain_error(who, "order", order)
    elements = _list_of(who, items)

    def part(t: Term) -> Term:
        if key == 0:
            return t
        found = _compound(t)
        if found is None:
            type_error(who, "compound", t)
        if key > len(found[1]):
            type_error(who, "compound", t)  # SWI: no such argument
        return found[1][key - 1]
    names: dict = {}
    keyed = [(order_key(part(t), names), t) for t in elements]
    keyed.sort(key=lambda p: p[0], reverse=order in ("@>", "@>="))
    out: list = []
    last = None
    for k, t in keyed:
        if order in ("@<", "@>") and out and k == last:
            continue
        out.append(t)
        last = k
    yield (key, order, items, out)


def _predsort(rel: Relations, pred: Term, items: Term, result: Term) -> GoalType:
    def run(state: Any) -> Iterator[Any]:
        elements = _list_of("predsort/3", reify(items, _data(state)))

        def cmp(a: Term, b: Term) -> int:
            o = var()
            for s in solve(_MetaCall(pred, (o, a, b), rel), state):
                answer = reify(o, _data(s))
                if answer not in ("<", ">", "="):
                    domain_error("predsort/3", "order", answer)
                return {"<": -1, "=": 0, ">": 1}[answer]
            raise _Failed
        try:
            ordered = sorted(elements, key=functools.cmp_to_key(cmp))
        except _Failed:
            return
        out: list = []
        for t in ordered:
            if out and cmp(out[-1], t) == 0:
                continue
            out.append(t)
        yield from eq(result, out)(state)
    return run


class _Failed(Exception):
    """predsort/3's predicate failed: predsort/3 fails."""


# ---------------------------------------------------------------- arithmetic on integers


def _integer_arg(who: str, x: Term, nonneg: bool = False) -> None:
    if not is_var(x):
        if not _is_int(x):
            type_error(who, "integer", x)
        if nonneg and x < 0:
            domain_error(who, "not_less_than_zero", x)


def _between(low: Term, high: Term, x: Term) -> Iterator[tuple]:
    who = "between/3"
    if is_var(low) or is_var(high):
        instantiation_error(who)
    _integer_arg(who, low)
    if high not in ("inf", "infinite"):
        _integer_arg(who, high)
    _integer_arg(who, x)
    top = None if high in ("inf", "infinite") else high
    if not is_var(x):
        if x >= low and (top is None or x <= top):
            yield (low, high, x)
        return
    n = low
    while top is None or n <= top:
        yield (low, high, n)
        n += 1


def _succ(x: Term, y: Term) -> Iterator[tuple]:
    who = "succ/2"
    _integer_arg(who, x, nonneg=True)
    _integer_arg(who, y, nonneg=True)
    if not is_var(x):
        yield (x, x + 1)
    elif not is_var(y):
        if y > 0:
            yield (y - 1, y)
    else:
        instantiation_error(who)


def _plus(x: Term, y: Term, z: Term) -> Iterator[tuple]:
    who = "plus/3"
    for a in (x, y, z):
        if not is_var(a) and not _is_number(a):
            type_error(who, "integer", a)
    if not is_var(x) and not is_var(y):
        yield (x, y, x + y)
    elif not is_var(x) and not is_var(z):
        yield (x, z - x, z)
    elif not is_var(y) and not is_var(z):
        yield (z - y, y, z)
    else:
        instantiation_error(who)


def _numlist(low: Term, high: Term, _result: Term) -> Iterator[tuple]:
    who = "numlist/3"
    if is_var(low) or is_var(high):
        instantiation_error(who)
    _integer_arg(who, low)
    _integer_arg(who, high)
    if low <= high:
        check_list_size(("numlist", low, high, _result), high - low + 1)
        yield (low, high, list(range(low, high + 1)))


def _numbers(who: str, items: Term) -> list:
    return [arith.evaluate(x) for x in _list_of(who, items)]


def _sum_list(items: Term, _total: Term) -> Iterator[tuple]:
    total: Any = 0
    for x in _numbers("sum_list/2", items):
        total = arith.evaluate(("+", total, x))
    yield (items, total)


def _extreme_list(larger: bool) -> Callable[..., Iterator[tuple]]:
    def fn(items: Term, _result: Term) -> Iterator[tuple]:
        numbers = _numbers("max_list/2" if larger else "min_list/2", items)
        if numbers:
            best = numbers[0]
            for x in numbers[1:]:
                best = arith.evaluate(("max" if larger else "min", best, x))
            yield (items, best)
    return fn


# ---------------------------------------------------------------- lists


def _memberchk(rel: Relations, x: Term, xs: Term) -> GoalType:
    return condu([membero(x, xs), succeed])


def _reverse(items: Term, _result: Term) -> Iterator[tuple]:
    yield (items, list(reversed(_list_of("reverse/2", items))))


def _nth(base: int) -> Callable[..., Iterator[tuple]]:
    who = f"nth{base}/3"

    def fn(n: Term, items: Term, elem: Term) -> Iterator[tuple]:
        _integer_arg(who, n)
        if is_var(n):
            for i, x in enumerate(_list_of(who, items)):
                yield (i + base, items, x)
            return
        if n < base:
            return
        t, skipped = items, 0
        while True:
            if is_var(t):  # a partial list is extended to hold the element
                check_list_size((f"nth{base}", n, items, elem), n - base - skipped + 1)
                fresh = [var() for _ in range(n - base - skipped)]
                yield (n, _extend(items, t, cons(*fresh, elem, var())), elem)
                return
            found = _compound(t)
            if found is None or found[0] != "[|]":
                return
            if skipped == n - base:
                yield (n, items, found[1][0])
                return
            t, skipped = found[1][1], skipped + 1
    return fn


def _extend(items: Term, tail: Term, more: Term) -> Term:
    """`items` with its unbound `tail` replaced by `more`."""
    if items is tail:
        return more
    found = _compound(items)
    assert found is not None
    return cons(found[1][0], _extend(found[1][1], tail, more))


def _last(items: Term, _x: Term) -> Iterator[tuple]:
    elements = _list_of("last/2", items)
    if elements:
        yield (items, elements[-1])


def _append2(lists: Term, _whole: Term) -> Iterator[tuple]:
    out: list = []
    for part in _list_of("append/2", lists):
        out.extend(_list_of("append/2", part))
    yield (lists, out)


def _select(x: Term, items: Term, rest: Term) -> Iterator[tuple]:
    elements = proper_list(items)
    if elements is not None:
        for i, e in enumerate(elements):
            yield (e, items, elements[:i] + elements[i + 1:])
        return
    others = _list_of("select/3", rest)
    for i in range(len(others) + 1):
        yield (x, others[:i] + [x] + others[i:], rest)


def _same(a: Term, b: Term) -> bool:
    return _compare_terms(a, b) == "="


def _set_function(who: str, fn: Callable[[list, list], list]) -> Callable[..., Iterator[tuple]]:
    def apply(a: Term, b: Term, _result: Term) -> Iterator[tuple]:
        yield (a, b, fn(_list_of(who, a), _list_of(who, b)))
    return apply


def _ord_subset(a: Term, b: Term) -> Iterator[tuple]:
    big = _list_of("ord_subset/2", b)
    if all(any(_same(x, y) for y in big) for x in _list_of("ord_subset/2", a)):
        yield (a, b)


def _list_to_set(items: Term, _set: Term) -> Iterator[tuple]:
    out: list = []
    for x in _list_of("list_to_set/2", items):
        if not any(_same(x, y) for y in out):
            out.append(x)
    yield (items, out)


def _chain(rel: Relations, items: Term, relation: Term) -> GoalType:
    """clpfd's chain/2: `relation` (#<, #=<, ...) between each element and the next."""
    def build(rel: Relations, xs: Term, op: Term) -> GoalType:
        elements = _list_of("chain/2", xs)
        if op not in ("#=", "#<", "#>", "#=<", "#>="):
            domain_error("chain/2", "chain_relation", op)
        return lall(*(_MetaCall(op, (a, b), rel) for a, b in zip(elements, elements[1:])))
    return _WithValues(build, (items, relation), rel)


def _maplist(rel: Relations, g: Term, *lists: Term) -> GoalType:
    """maplist/2..7: when one list is proper as the call is reached, every list has its
    length and the goal is called on each position in turn; else one cell at a time."""
    return _WithValues(_maplist_known, (g, *lists), rel)


def _maplist_known(rel: Relations, g: Term, *lists: Term) -> GoalType:
    n = next((len(items) for items in map(proper_list, lists) if items is not None), None)
    if n is None:
        return _maplist_cells(rel, g, *lists)
    cells = [[var() for _ in range(n)] for _ in lists]
    return lall(eq(list(lists), cells), *(_MetaCall(g, tuple(c[i] for c in cells), rel) for i in range(n)))


def _maplist_cells(rel: Relations, g: Term, *lists: Term) -> GoalType:
    heads = [var() for _ in lists]
    tails = [var() for _ in lists]
    return conde([eq(list(lists), [[] for _ in lists])],
                 [eq(list(lists), [cons(h, t) for h, t in zip(heads, tails)]),
                  _MetaCall(g, tuple(heads), rel), Call(_maplist_cells, (rel, g, *tails))])


def _foldl(rel: Relations, g: Term, *args: Term) -> GoalType:
    """foldl/4..7, with the lists' length known as `maplist`'s when one is proper."""
    return _WithValues(_foldl_known, (g, *args), rel)


def _foldl_known(rel: Relations, g: Term, *args: Term) -> GoalType:
    *lists, v0, v = args
    n = next((len(items) for items in map(proper_list, lists) if items is not None), None)
    if n is None:
        return _foldl_cells(rel, g, *args)
    cells = [[var() for _ in range(n)] for _ in lists]
    values = [v0, *(var() for _ in range(n - 1)), v] if n else [v0]
    steps = (_MetaCall(g, (*(c[i] for c in cells), values[i], values[i + 1]), rel) for i in range(n))
    return lall(eq(list(lists), cells), *steps, *([] if n else [eq(v0, v)]))


def _foldl_cells(rel: Relations, g: Term, *args: Term) -> GoalType:
    *lists, v0, v = args
    heads = [var() for _ in lists]
    tails = [var() for _ in lists]
    v1 = var()
    return conde([eq(list(lists), [[] for _ in lists]), eq(v0, v)],
                 [eq(list(lists), [cons(h, t) for h, t in zip(heads, tails)]),
                  _MetaCall(g, (*heads, v0, v1), rel), Call(_foldl_cells, (rel, g, *tails, v1, v))])


def _partition(rel: Relations, p: Term, items: Term, included: Term, excluded: Term | None,
               keep: bool = True) -> GoalType:
    """include/3, exclude/3 and partition/4: each element tested once (its own search, the
    first answer's bindings kept); a list not proper when reached is taken cell by cell."""
    def build(rel: Relations, p: Term, items: Term, *lists: Term) -> GoalType:
        elements = proper_list(items)
        if elements is None:
            return _partition_cells(rel, p, items, lists[0], lists[1] if len(lists) > 1 else None, keep)

        def run(state: Any) -> Iterator[Any]:
            passed: list = []
            failed: list = []
            for x in elements:
                first = next(iter(solve(_MetaCall(p, (x,), rel), state)), None)
                if first is not None:
                    state = first
                (passed if first is not None else failed).append(x)
            if not keep:
                passed, failed = failed, passed
            yield from eq(list(lists), [passed, failed][:len(lists)])(state)
        return run
    return _WithValues(build, (p, items, included, *([] if excluded is None else [excluded])), rel)


def _partition_cells(rel: Relations, p: Term, items: Term, included: Term, excluded: Term | None,
                     keep: bool = True) -> GoalType:
    h, t, i1, e1 = var(), var(), var(), var()
    yes, no = (eq(included, cons(h, i1)), eq(excluded, e1) if excluded is not None else succeed), \
        (eq(included, i1), eq(excluded, cons(h, e1)) if excluded is not None else succeed)
    if not keep:
        yes, no = (eq(included, i1), succeed), (eq(included, cons(h, i1)), succeed)
    rest = Call(_partition_cells, (rel, p, t, i1, e1 if excluded is not None else None, keep))
    done = [eq(items, []), eq(included, [])] + ([eq(excluded, [])] if excluded is not None else [])
    return conde(done, [eq(items, cons(h, t)), condu([_MetaCall(p, (h,), rel), *yes], [succeed, *no]), rest])


# ---------------------------------------------------------------- terms


def _copy_term(t: Term, _c: Term) -> Iterator[tuple]:
    yield (t, copy(t))


def _functor(t: Term, name: Term, arity: Term) -> Iterator[tuple]:
    who = "functor/3"
    if not is_var(t):
        found = _compound(t)
        yield (t, found[0], len(found[1])) if found else (t, t, 0)
        return
    if is_var(name) or is_var(arity):
        instantiation_error(who)
    _integer_arg(who, arity, nonneg=True)
    if arity == 0:
        yield (name, name, 0)
    elif isinstance(name, (str, bool)):
        yield (_build(_atom(name), [var() for _ in range(arity)]), name, arity)
    else:
        type_error(who, "atomic" if _compound(name) else "atom", name)


def _arg(n: Term, t: Term, a: Term) -> Iterator[tuple]:
    who = "arg/3"
    if is_var(t):
        instantiation_error(who)
    found = _compound(t)
    if found is None:
        type_error(who, "compound", t)
    _integer_arg(who, n)
    args = found[1]
    if not is_var(n):
        if 1 <= n <= len(args):
            yield (n, t, args[n - 1])
        return
    for i, x in enumerate(args):
        yield (i + 1, t, x)


def _univ(t: Term, parts: Term) -> Iterator[tuple]:
    who = "=../2"
    if not is_var(t):
        found = _compound(t)
        yield (t, [found[0], *found[1]] if found else [t])
        return
    items = _list_of(who, parts)
    if not items:
        domain_error(who, "non_empty_list", [])
    head, args = items[0], items[1:]
    if is_var(head):
        instantiation_error(who)
    if args and not isinstance(head, (str, bool)):
        type_error(who, "atom", head)
    if not args and _compound(head):
        type_error(who, "atomic", head)
    yield (_build(_atom(head), args), parts)


# ---------------------------------------------------------------- atoms and text


def _text(who: str, x: Term, kind: str = "text") -> str:
    """The text of an atom, number or string."""
    if is_var(x):
        instantiation_error(who)
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return x
    if isinstance(x, list) and not x:
        return "[]"
    if isinstance(x, String):
        return x.text
    if _is_number(x):
        return format_term(x)
    type_error(who, kind, x)


def _from_codes(who: str, t: Term, chars: bool) -> str | None:
    """The text of a string, or of a proper list of codes or one-char atoms; None when partial."""
    if isinstance(t, String):
        return t.text
    items = proper_list(t)
    if items is None:
        if _partial(t):
            return None
        type_error(who, "list", t)
    out = []
    for c in items:
        if is_var(c):
            return None
        if chars:
            if not (isinstance(c, str) and len(c) == 1):
                type_error(who, "character", c)
            out.append(c)
        else:
            if not _is_int(c):
                type_error(who, "integer", c)
            out.append(chr(c))
    return "".join(out)


def _to_codes(chars: bool, name: str) -> Callable[..., Iterator[tuple]]:
    who = f"{name}/2"

    def fn(a: Term, cs: Term) -> Iterator[tuple]:
        if not is_var(a):
            text = _text(who, a)
            yield (a, list(text) if chars else [ord(c) for c in text])
            return
        read = _from_codes(who, cs, chars)
        if read is None:
            instantiation_error(who)
        yield (read, cs)
    return fn


def _string_of(chars: bool | None, name: str) -> Callable[..., Iterator[tuple]]:
    """string_chars/2 (chars), string_codes/2 (codes), string_to_atom/2 (None: an atom)."""
    who = f"{name}/2"

    def fn(s: Term, other: Term) -> Iterator[tuple]:
        if not is_var(s):
            text = _text(who, s)
            yield (s, text if chars is None else list(text) if chars else [ord(c) for c in text])
            return
        if chars is None:
            yield (String(_text(who, other)), other)
            return
        read = _from_codes(who, other, chars)
        if read is None:
            instantiation_error(who)
        yield (String(read), other)
    return fn


def _atom_string(a: Term, s: Term) -> Iterator[tuple]:
    who = "atom_string/2"
    if not is_var(a):
        yield (a, String(_text(who, a)))
    else:
        yield (_text(who, s), s)


def _string_length(s: Term, n: Term) -> Iterator[tuple]:
    yield (s, len(_text("string_length/2", s)))


def _string_concat(a: Term, b: Term, c: Term) -> Iterator[tuple]:
    for x, y, z in _atom_concat(a, b, c):
        yield (String(x) if is_var(a) else a, String(y) if is_var(b) else b, String(z) if is_var(c) else c)


def _number_of(text: str) -> Term | None:
    """The number `text` writes (`12`, `-3`, `1.5e3`, `0x1F`, `0'a`), or None."""
    from .reader import read_query
    stripped = text.strip()
    sign = 1
    if stripped.startswith("-"):
        sign, stripped = -1, stripped[1:]
    elif stripped.startswith("+"):
        stripped = stripped[1:]
    if not stripped or not (stripped[0].isdigit()):
        return None
    try:
        value = read_query(stripped + " .")[0]
    except Exception:
        return None
    return sign * value if _is_number(value) else None


def _number_codes(n: Term, cs: Term) -> Iterator[tuple]:
    who = "number_codes/2"
    text = _from_codes(who, cs, chars=False) if is_var(n) or proper_list(cs) is not None else None
    if text is not None:
        value = _number_of(text)
        if value is None:
            raise PrologError(f"{who}: Syntax error: Illegal number",
                              ("error", ("syntax_error", "illegal_number"), ("context", who, var())))
        yield (value, cs)
        return
    if is_var(n):
        instantiation_error(who)
    if not _is_number(n):
        type_error(who, "number", n)
    yield (n, [ord(c) for c in format_term(n)])


def _atom_number(a: Term, n: Term) -> Iterator[tuple]:
    who = "atom_number/2"
    if is_var(a):
        if is_var(n):
            instantiation_error(who)
        if not _is_number(n):
            type_error(who, "number", n)
        yield (format_term(n), n)
        return
    value = _number_of(_text(who, a))
    if value is not None:
        yield (a, value)


def _atom_length(a: Term, n: Term) -> Iterator[tuple]:
    who = "atom_length/2"
    text = _text(who, a)
    _integer_arg(who, n, nonneg=True)
    yield (a, len(text))


def _atom_concat(a: Term, b: Term, c: Term) -> Iterator[tuple]:
    who = "atom_concat/3"
    if not is_var(a) and not is_var(b):
        yield (a, b, _text(who, a, "atomic") + _text(who, b, "atomic"))
        return
    if is_var(c):
        instantiation_error(who)
    whole = _text(who, c, "atomic")
    for i in range(len(whole) + 1):
        yield (whole[:i], whole[i:], c)


def _sub_atom(a: Term, before: Term, length: Term, after: Term, sub: Term) -> Iterator[tuple]:
    who = "sub_atom/5"
    text = _text(who, a)
    for x in (before, length, after):
        _integer_arg(who, x)
    n = len(text)
    if not is_var(sub):
        part = _text(who, sub)
        start = text.find(part)
        while start >= 0:
            yield (a, start, len(part), n - start - len(part), part)
            start = text.find(part, start + 1)
        return
    starts = [before] if not is_var(before) else range(n + 1)
    for b in starts:
        if not is_var(length):
            lengths: Iterable[int] = [length]
        elif not is_var(after):
            lengths = [n - after - b]
        else:
            lengths = range(n - b + 1)
        for ln in lengths:
            if 0 <= b and 0 <= ln and b + ln <= n:
                yield (a, b, ln, n - b - ln, text[b:b + ln])


# ---------------------------------------------------------------- writing


_SYMBOL_CHARS = frozenset("#$&*+-./:<=>?@^~\\")


def write_text(t: Term, quoted: bool = False, names: dict | None = None, *, spacing: bool = False,
               priority: int = 1200, numbervars: bool = True) -> str:
    """`t` as SWI-Prolog's write_term/2 writes it: operators in their place (the table in
    force, see `reader.operators`), `quoted` as writeq/print (atoms and strings quoted where
    needed), `spacing` as the toplevel (a space after each argument's comma), `priority` the
    context's (699 for a toplevel binding: `X = (a:-b)`), `numbervars` writing '$VAR'(N) as
    a variable name; variables by `names` (completed with `_G<n>`)."""
    from .reader import operators
    if names is None:
        names = {v: f"_G{i}" for i, v in enumerate(term_variables(t))}
    writer = _Writer(quoted, names, spacing, numbervars, operators())
    try:
        writer.term(t, priority, True)  # an operator alone is not embraced: `+`
    except RecursionError:  # nested deeper than Python's stack: the canonical text, written by a loop
        return format_term(t, names)
    return "".join(writer.out)


def float_text(x: float) -> str:
    """A float as SWI-Prolog writes it: the shortest digits that read back, with `.0`, and
    `1.0e+22` / `1.5e-7` outside 0.0001 .. 10^15."""
    text = repr(x)
    if not math.isfinite(x):
        return text
    sign, digits, exponent = Decimal(text).as_tuple()
    head = "-" if sign else ""
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    e = len(digits) + int(exponent) - 1 if x else 0
    if -4 <= e < 15:
        if e >= 0:
            whole, frac = ds[:e + 1].ljust(e + 1, "0"), ds[e + 1:]
        else:
            whole, frac = "0", "0" * (-e - 1) + ds
        return f"{head}{whole}.{frac or '0'}"
    return f"{head}{ds[0]}.{ds[1:] or '0'}e{'+' if e > 0 else '-'}{abs(e)}"


def atom_text(a: str, quoted: bool) -> str:
    """An atom as written (quoted: as writeq writes it, `'hello world'`, `[]`'s atom as `'[]'`)."""
    if not quoted or a in ("!", ";", "{}"):
        return a
    if a and a[0].islower() and all(c.isalnum() or c == "_" for c in a) and not a.isascii():
        return a
    if a and a != "." and all(c in _SYMBOL_CHARS for c in a) and "/*" not in a:
        return a
    return format_term(a)


class _Writer:
    """One write: the text so far in `out`, a space put between two tokens that would read as one."""

    def __init__(self, quoted: bool, names: dict, spacing: bool, numbervars: bool, ops: Any,
                 ignore_ops: bool = False):
        self.quoted, self.names, self.spacing, self.numbervars = quoted, names, spacing, numbervars
        none: dict[str, tuple[int, str]] = {}
        self.infix: dict[str, tuple[int, str]] = none if ignore_ops else ops.infix
        self.prefix: dict[str, tuple[int, str]] = none if ignore_ops else ops.prefix
        self.postfix: dict[str, tuple[int, str]] = none if ignore_ops else ops.postfix
        self.ignore_ops = ignore_ops
        self.out: list[str] = []
        self.sign = False  # a prefix - or + was the last token: a digit after it is apart (`- 1`)

    def emit(self, text: str) -> None:
        if self.out and text:
            last, first = self.out[-1][-1:], text[0]
            if (last in _SYMBOL_CHARS and first in _SYMBOL_CHARS) or (self.sign and first.isdigit()) or (
                    (last.isalnum() or last == "_") and (first.isalnum() or first == "_")) or (
                    last == "'" and first == "'"):
                self.out.append(" ")
        self.out.append(text)
        self.sign = False

    def comma(self) -> None:
        self.out.append(", " if self.spacing else ",")

    def is_operator(self, a: str) -> bool:
        return a in self.infix or a in self.prefix or a in self.postfix

    def term(self, t: Term, most: int, argument: bool) -> None:
        """Write `t` where a term of priority `most` fits (`argument`: an argument or list element)."""
        if is_var(t):
            self.emit(self.names.setdefault(t, f"_G{len(self.names)}"))
        elif isinstance(t, bool):
            self.emit("true" if t else "false")
        elif isinstance(t, int):
            self.emit(str(t))
        elif isinstance(t, float):
            self.emit(float_text(t))
        elif isinstance(t, Fraction):
            self.emit(f"{t.numerator}r{t.denominator}")
        elif isinstance(t, String):
            self.emit(format_term(t) if self.quoted else t.text)
        elif isinstance(t, str):
            text = atom_text(t, self.quoted)
            if not argument and self.is_operator(t):
                self.emit("(")
                self.out.append(text)
                self.out.append(")")
            else:
                self.emit(text)
        elif isinstance(t, list) and not t:
            self.emit("[]")
        else:
            found = _compound(t)
            if found is None or not isinstance(found[0], str):
                self.emit(format_term(t, self.names))
            else:
                self.compound(*found, most)

    def compound(self, name: str, args: tuple, most: int) -> None:
        if name == "[|]" and len(args) == 2:
            return self.list(args)
        if name == "{}" and len(args) == 1 and not self.ignore_ops:
            self.emit("{")
            self.term(args[0], 1200, False)
            self.out.append("}")
            return
        if name == "$VAR" and len(args) == 1 and self.numbervars:
            n = args[0]
            if isinstance(n, int) and not isinstance(n, bool) and n >= 0:
                return self.emit(chr(ord("A") + n % 26) + (str(n // 26) if n >= 26 else ""))
            if isinstance(n, str):
                return self.emit(n)
        if len(args) == 2 and name in self.infix:
            priority, kind = self.infix[name]
            opened = priority > most
            if opened:
                self.emit("(")
            self.term(args[0], priority - 1 if kind[0] == "x" else priority, False)
            if name == ",":
                self.comma()
            elif name == "|":
                self.out.append("| " if self.spacing else "|")
            else:
                self.emit(atom_text(name, self.quoted))
                if name[0].isalpha():  # `x is (a:-b)`, never is(...); `x is -1`
                    self.out.append(" ")
            self.term(args[1], priority - 1 if kind[2] == "x" else priority, False)
            if opened:
                self.out.append(")")
            return
        if len(args) == 1 and name in self.prefix:
            priority, kind = self.prefix[name]
            inner = priority - 1 if kind == "fx" else priority
            opened = priority > most
            if opened:
                self.emit("(")
            self.emit(atom_text(name, self.quoted))
            arg = args[0]
            if self._opens(arg, inner):
                self.out.append(" ")
            self.sign = name in ("-", "+")
            self.term(arg, inner, False)
            if opened:
                self.out.append(")")
            return
        if len(args) == 1 and name in self.postfix:
            priority, kind = self.postfix[name]
            opened = priority > most
            if opened:
                self.emit("(")
            self.term(args[0], priority - 1 if kind == "xf" else priority, False)
            self.emit(atom_text(name, self.quoted))
            if opened:
                self.out.append(")")
            return
        self.emit(atom_text(name, self.quoted))
        self.out.append("(")
        for i, a in enumerate(args):
            if i:
                self.comma()
            self.term(a, 999, True)
        self.out.append(")")

    def _opens(self, arg: Term, most: int) -> bool:
        """Whether `arg`, written where a term of priority `most` fits, starts with '('."""
        if isinstance(arg, str):
            return self.is_operator(arg)
        found = _compound(arg)
        if found is None:
            return False
        name, args = found
        if len(args) == 2 and name in self.infix:
            return self.infix[name][0] > most
        if len(args) == 1 and name in self.prefix:
            return self.prefix[name][0] > most
        if len(args) == 1 and name in self.postfix:
            return self.postfix[name][0] > most
        return False

    def list(self, cell: tuple) -> None:
        self.emit("[")
        self.term(cell[0], 999, True)
        rest = cell[1]
        while True:
            more = _compound(rest)
            if more is None or more[0] != "[|]" or len(more[1]) != 2:
                break
            self.comma()
            self.term(more[1][0], 999, True)
            rest = more[1][1]
        if not (isinstance(rest, list) and not rest):
            self.out.append("|")
            self.term(rest, 999, True)
        self.out.append("]")


def canonical_text(t: Term, quoted: bool = True) -> str:
    """`t` as write_canonical/1 writes it: no operators, atoms quoted, a variable met once `_`,
    the others `A`, `B`, ... in order."""
    counts: dict = {}
    for v in occurrences(t):
        counts[v] = counts.get(v, 0) + 1
    letters = (chr(ord("A") + i % 26) + (str(i // 26) if i >= 26 else "") for i in itertools.count())
    names = {v: next(letters) if k > 1 else "_" for v, k in counts.items()}
    from .reader import operators
    writer = _Writer(quoted, names, False, False, operators(), ignore_ops=True)
    try:
        writer.term(t, 1200, True)
    except RecursionError:
        return format_term(t, names)
    return "".join(writer.out)


def occurrences(term: Term) -> Iterator[Any]:
    """Every occurrence of a variable in `term`, left to right (a loop, any depth)."""
    stack = [term]
    while stack:
        t = stack.pop()
        if is_var(t):
            yield t
        elif isinstance(t, (list, tuple)):
            stack.extend(reversed(t))
        elif isinstance(t, Suffix):
            stack.extend(reversed(t.to_list()))
        elif isinstance(t, ConsPair):
            stack.extend((t.cdr, t.car))


_WRITE_OPTIONS = {"quoted", "ignore_ops", "numbervars", "spacing", "priority", "max_depth", "portray", "fullstop", "nl"}


def _write_term(rel: Relations, t: Term, options: Term) -> GoalType:
    def goal(state: Any) -> tuple:
        data = _data(state)
        given = {}
        for option in _list_of("write_term/2", reify(options, data)):
            found = _compound(option)
            if found is None or len(found[1]) != 1 or found[0] not in _WRITE_OPTIONS:
                domain_error("write_term/2", "write_option", option)
            given[found[0]] = found[1][0]
        term = reify(t, data)
        if given.get("ignore_ops") == "true":
            text = canonical_text(term, quoted=given.get("quoted") == "true")
        else:
            priority = given.get("priority", 1200)
            text = write_text(term, quoted=given.get("quoted") == "true", numbervars=given.get("numbervars") == "true",
                              spacing=given.get("spacing") == "next_argument",
                              priority=priority if _is_int(priority) else 1200)
        if given.get("fullstop") == "true":
            text += "." if not text[-1:] in _SYMBOL_CHARS else " ."
        _emit(text + ("\n" if given.get("nl") == "true" else ""))
        return (state,)
    return goal


def _op(rel: Relations, priority: Term, type_: Term, names: Term) -> GoalType:
    """op/3: changes the operator table in force (the session's or program's)."""
    def goal(state: Any) -> tuple:
        from .reader import operators
        data = _data(state)
        operators().op(reify(priority, data), reify(type_, data), reify(names, data))
        return (state,)
    return goal


def _current_op(rel: Relations, priority: Term, type_: Term, name: Term) -> GoalType:
    def gen(p: Term, t: Term, n: Term) -> Iterator[tuple]:
        from .reader import operators
        table = operators()
        names = [n] if isinstance(n, str) else sorted({*table.infix, *table.prefix, *table.postfix})
        for a in names:
            for found_p, found_t in table.defined(a):
                yield (found_p, found_t, a)
    return _function("current_op/3", gen)(rel, priority, type_, name)


def _emit(text: str) -> None:
    sys.stdout.write(text)


def _printing(how: Callable[[Term], str]) -> Callable[..., GoalType]:
    def build(rel: Relations, t: Term) -> GoalType:
        def goal(state: Any) -> tuple:
            _emit(how(reify(t, _data(state))))
            return (state,)
        return goal
    return build


def _explain(rel: Relations, indicator: Term) -> GoalType:
    """logicpy_explain/1: prints, as a comment line, how a call of the predicate Name/Arity
    runs (`core.explain`: `% app/3: runs as appendo/3's loop; ...`), a predicate of the
    program or a Python relation loaded by that name; SWI-Prolog's explain/1 is another
    predicate, hence the prefix."""
    who = "logicpy_explain/1"

    def goal(state: Any) -> tuple:
        pi = reify(indicator, _data(state))
        if is_var(pi) or (isinstance(pi, tuple) and len(pi) == 3 and pi[0] == "/" and any(map(is_var, pi[1:]))):
            instantiation_error(who)
        if not (isinstance(pi, tuple) and len(pi) == 3 and pi[0] == "/" and _is_atom(pi[1]) and _is_int(pi[2])):
            type_error(who, "predicate_indicator", pi)
        name, arity = pi[1], pi[2]
        predicate = None if rel.program is None else rel.program.predicates.get((name, arity))
        relation = rel.table.get(name) if predicate is None else predicate
        procedure = getattr(relation, "relation", None) if predicate is None else predicate
        if not isinstance(procedure, Procedure) or procedure.arity != arity:
            raise PrologError(f"procedure {name}/{arity} does not exist",
                              ("error", ("existence_error", "procedure", ("/", name, arity)), "_"))
        _emit(f"% {procedure.explain()}\n")
        return (state,)
    return goal


def _tab(rel: Relations, n: Term) -> GoalType:
    def goal(state: Any) -> tuple:
        count = arith.evaluate(reify(n, _data(state)))
        if not _is_int(count):
            type_error("tab/1", "integer", count)
        _emit(" " * int(count))
        return (state,)
    return goal


def format_text(who: str, text: str, args: list) -> str:
    """format/2's output for directives ~w ~p ~q ~a ~d ~D ~s ~e ~f ~g ~c ~r ~8| ~t ~i ~* ~n ~~."""
    out: list[str] = []
    items = list(args)
    i = 0
    fills: list[int] = []  # where ~t asks for fill since the last column stop
    last_stop = 0

    def take() -> Term:
        if not items:
            raise PrologError(f"{who}: not enough arguments", ("error", ("format", "not enough arguments"), var()))
        return items.pop(0)
    while i < len(text):
        c = text[i]
        if c != "~":
            out.append(c)
            i += 1
            continue
        i += 1
        number = ""
        while i < len(text) and (text[i].isdigit()):
            number += text[i]
            i += 1
        if i < len(text) and text[i] == "*":
            number = str(take())
            i += 1
        if i >= len(text):
            break
        d = text[i]
        i += 1
        if d == "~":
            out.append("~")
        elif d == "n":
            out.append("\n" * int(number or 1))
        elif d in "wp":
            out.append(write_text(take(), quoted=d == "p"))
        elif d == "q":
            out.append(write_text(take(), quoted=True))
        elif d == "a":
            out.append(_text(who, take()))
        elif d in "dD":
            value = take()
            if not _is_int(value):
                raise PrologError(f"{who}: ~{d} expects an integer, found {write_text(value, quoted=True)}",
                                  ("error", ("format", "~d expects an integer argument"), var()))
            digits = str(abs(value))
            if d == "D":
                digits = f"{abs(value):,}"
            if number and int(number) > 0:
                k = int(number)
                digits = digits.rjust(k + 1, "0")
                digits = digits[:-k] + "." + digits[-k:]
            out.append(("-" if value < 0 else "") + digits)
        elif d == "s":
            value = take()  # codes, chars, a string, or (as SWI-Prolog allows) an atom
            out.append(value if isinstance(value, str) else _from_codes(who, value, chars=False) or "")
        elif d in "efg":
            value = float(arith.evaluate(take()))
            out.append(f"%.{int(number or 6)}{d}" % value)
        elif d == "c":
            out.append(chr(take()) * int(number or 1))
        elif d == "r":
            value, base = take(), int(number or 8)
            digits, v = "", abs(value)
            while True:
                v, r = divmod(v, base)
                digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
                if not v:
                    break
            out.append(("-" if value < 0 else "") + digits)
        elif d == "i":
            take()
        elif d == "t":
            fills.append(len("".join(out)))
        elif d in "|+":
            line = "".join(out)
            start = line.rfind("\n") + 1
            column = len(line) - start
            stop = int(number) if d == "|" and number else (len(line[:last_stop]) - start if d == "+" else column)
            if d == "+":
                stop = max(last_stop - start, 0) + int(number or 8)
            if column < stop:
                at = fills[-1] if fills else len(line)
                line = line[:at] + " " * (stop - column) + line[at:]
            out, fills, last_stop = [line], [], len(line)
        else:
            raise PrologError(f"{who}: unknown directive ~{d}", ("error", ("format", f"unknown directive ~{d}"), var()))
    if items:
        raise PrologError(f"{who}: too many arguments", ("error", ("format", "too many arguments"), var()))
    return "".join(out)


def _format(rel: Relations, f: Term, args: Term = None) -> GoalType:
    def goal(state: Any) -> tuple:
        data = _data(state)
        text = reify(f, data)
        who = "format/2" if args is not None else "format/1"
        fmt = _text(who, text) if not isinstance(text, list) or not text else _from_codes(who, text, chars=False)
        values = [] if args is None else reify(args, data)
        items = proper_list(values)
        _emit(format_text(who, fmt or "", items if items is not None else [values]))
        return (state,)
    return goal


def _format_to(rel: Relations, sink: Term, f: Term, args: Term) -> GoalType:
    """format/3: the text format/2 would write, unified as `atom(A)`, `string(S)`, `codes(Cs)`
    or `chars(Cs)` says."""
    def goal(state: Any) -> Iterator[Any]:
        data = _data(state)
        where = reify(sink, data)
        if not (isinstance(where, tuple) and len(where) == 2 and where[0] in ("atom", "string", "codes", "chars")):
            domain_error("format/3", "output_sink", where)
        text = reify(f, data)
        fmt = _text("format/3", text) if not isinstance(text, list) or not text else _from_codes(
            "format/3", text, chars=False)
        values = reify(args, data)
        items = proper_list(values)
        out = format_text("format/3", fmt or "", items if items is not None else [values])
        value: Term = {"atom": out, "string": String(out), "codes": [ord(c) for c in out], "chars": list(out)}[where[0]]
        yield from eq(where[1], value)(state)
    return goal


def _case(upper: bool, who: str) -> Callable[[Term, Term], Iterator[tuple]]:
    def fn(a: Term, b: Term) -> Iterator[tuple]:
        text = _text(who, a)
        yield (a, text.upper() if upper else text.lower())
    return fn


def _split_string(s: Term, seps: Term, pad: Term, parts: Term) -> Iterator[tuple]:
    """split_string/4 as SWI's: split at any separator character, then strip pad characters
    from both ends of each part."""
    who = "split_string/4"
    text, at, strip = _text(who, s), _text(who, seps), _text(who, pad)
    pieces: list[str] = []
    if at:
        current: list[str] = []
        for c in text:
            if c in at:
                pieces.append("".join(current))
                current = []
            else:
                current.append(c)
        pieces.append("".join(current))
    else:
        pieces = [text]
    yield (s, seps, pad, [String(p.strip(strip) if strip else p) for p in pieces])


def _atomic_list_concat(items: Term, sep: Term, result: Term = None) -> Iterator[tuple]:
    """atomic_list_concat/2,3: join atomic terms (with a separator), or split an atom at the separator."""
    who = "atomic_list_concat/3" if result is not None else "atomic_list_concat/2"
    separator = "" if result is None else _text(who, sep)
    joined = sep if result is None else result
    listed = proper_list(items)
    if listed is not None and not any(is_var(x) for x in listed):
        text = separator.join(_text(who, x) for x in listed)
        yield (items, text) if result is None else (items, sep, text)
        return
    if result is None or is_var(joined) or not separator:
        instantiation_error(who)
    yield (_text(who, joined).split(separator), sep, joined)


def _permutation(xs: Term, ys: Term) -> Iterator[tuple]:
    """permutation/2 in SWI's order: the second list takes the first's elements, each position
    trying them left to right; either list may be the proper one."""
    items = proper_list(xs)
    if items is None:
        other = proper_list(ys)
        if other is None:
            instantiation_error("permutation/2")
        items = [var() for _ in other]
    for order in itertools.permutations(range(len(items))):
        yield (items, [items[i] for i in order])


def _member_extreme(largest: bool, who: str) -> Callable[[Term, Term], Iterator[tuple]]:
    """max_member/2, min_member/2: the largest (smallest) element in the standard order of terms."""
    def fn(m: Term, items: Term) -> Iterator[tuple]:
        elements = _list_of(who, items)
        if elements:
            keys = [order_key(x) for x in elements]
            best = 0
            for i, k in enumerate(keys):
                if (k >= keys[best]) if largest else (k < keys[best]):
                    best = i
            yield (elements[best], items)
    return fn


# ---------------------------------------------------------------- the table


def _type_tests() -> dict[tuple[str, int], Callable[..., GoalType]]:
    tests: dict[str, Callable[[Term], bool]] = {
        "var": is_var,
        "nonvar": lambda x: not is_var(x),
        "atom": _is_atom,
        "number": _is_number,
        "integer": _is_int,
        "float": lambda x: isinstance(x, float),
        "atomic": lambda x: _is_atom(x) or _is_number(x) or isinstance(x, String) or x == [],
        "compound": lambda x: _compound(x) is not None,
        "callable": lambda x: isinstance(x, (str, bool)) or _compound(x) is not None,
        "is_list": lambda x: proper_list(x) is not None,
        "string": lambda x: isinstance(x, String),
        "ground": lambda x: not term_variables(x),
    }
    return {(name, 1): _test(fn) for name, fn in tests.items()}


def _standard(op: str) -> Callable[..., GoalType]:
    holds = {"@<": ("<",), "@>": (">",), "@=<": ("<", "="), "@>=": (">", "=")}[op]
    return _test(lambda a, b: _compare_terms(a, b) in holds)


def _compare(o: Term, a: Term, b: Term) -> Iterator[tuple]:
    if not is_var(o) and o not in ("<", ">", "="):
        type_error("compare/3", "atom", o) if not isinstance(o, str) else domain_error("compare/3", "order", o)
    yield (_compare_terms(a, b), a, b)


BUILTINS: dict[tuple[str, int], Callable[..., GoalType]] = {
    ("findall", 3): _findall,
    ("findall", 4): _findall,
    ("forall", 2): _forall,
    ("bagof", 3): lambda rel, t, g, r: _bag(rel, t, g, r, as_set=False),
    ("setof", 3): lambda rel, t, g, r: _bag(rel, t, g, r, as_set=True),
    ("aggregate_all", 3): _aggregate_all,
    ("^", 2): lambda rel, v, g: _MetaCall(g, (), rel),
    **{(">>", n): _lambda for n in range(2, 10)},
    ("between", 3): _function("between/3", _between),
    ("succ", 2): _function("succ/2", _succ),
    ("plus", 3): _function("plus/3", _plus),
    ("numlist", 3): _function("numlist/3", _numlist),
    ("sum_list", 2): _function("sum_list/2", _sum_list),
    ("sumlist", 2): _function("sumlist/2", _sum_list),
    ("max_list", 2): _function("max_list/2", _extreme_list(True)),
    ("min_list", 2): _function("min_list/2", _extreme_list(False)),
    ("msort", 2): _function("msort/2", _msort),
    ("sort", 2): _function("sort/2", _sort2),
    ("sort", 4): _function("sort/4", _sort4),
    ("predsort", 3): _predsort,
    ("memberchk", 2): _memberchk,
    ("reverse", 2): _function("reverse/2", _reverse),
    ("nth0", 3): _function("nth0/3", _nth(0)),
    ("nth1", 3): _function("nth1/3", _nth(1)),
    ("last", 2): _function("last/2", _last),
    ("append", 2): _function("append/2", _append2),
    ("chain", 2): _chain,
    ("select", 3): _function("select/3", _select),
    ("selectchk", 3): lambda rel, x, xs, r: condu([_function("select/3", _select)(rel, x, xs, r), succeed]),
    ("subtract", 3): _function("subtract/3", _set_function(
        "subtract/3", lambda a, b: [x for x in a if not any(_same(x, y) for y in b)])),
    ("ord_subtract", 3): _function("ord_subtract/3", _set_function(
        "ord_subtract/3", lambda a, b: [x for x in a if not any(_same(x, y) for y in b)])),
    ("ord_union", 3): _function("ord_union/3", _set_function("ord_union/3", lambda a, b: _sorted(a + b, True))),
    ("ord_subset", 2): _function("ord_subset/2", _ord_subset),
    ("ord_memberchk", 2): _function("ord_memberchk/2", lambda x, xs: iter(
        [(x, xs)] if any(_same(x, y) for y in _list_of("ord_memberchk/2", xs)) else [])),
    ("list_to_set", 2): _function("list_to_set/2", _list_to_set),
    **{("maplist", n): _maplist for n in range(2, 8)},
    **{("foldl", n): _foldl for n in range(4, 8)},
    ("include", 3): lambda rel, p, xs, ys: _partition(rel, p, xs, ys, None),
    ("exclude", 3): lambda rel, p, xs, ys: _partition(rel, p, xs, ys, None, keep=False),
    ("partition", 4): _partition,
    ("copy_term", 2): _function("copy_term/2", _copy_term),
    **_type_tests(),
    ("functor", 3): _function("functor/3", _functor),
    ("arg", 3): _function("arg/3", _arg),
    ("=..", 2): _function("=../2", _univ),
    **{(op, 2): _standard(op) for op in ("@<", "@>", "@=<", "@>=")},
    ("compare", 3): _function("compare/3", _compare),
    ("atom_codes", 2): _function("atom_codes/2", _to_codes(False, "atom_codes")),
    ("atom_chars", 2): _function("atom_chars/2", _to_codes(True, "atom_chars")),
    ("char_code", 2): _function("char_code/2", lambda a, c: iter(
        [(a, ord(a))] if isinstance(a, str) and len(a) == 1 else [(chr(c), c)] if _is_int(c)
        else instantiation_error("char_code/2"))),
    ("string_chars", 2): _function("string_chars/2", _string_of(True, "string_chars")),
    ("string_codes", 2): _function("string_codes/2", _string_of(False, "string_codes")),
    ("string_to_atom", 2): _function("string_to_atom/2", _string_of(None, "string_to_atom")),
    ("atom_string", 2): _function("atom_string/2", _atom_string),
    ("string_length", 2): _function("string_length/2", _string_length),
    ("string_concat", 3): _function("string_concat/3", _string_concat),
    ("atom_length", 2): _function("atom_length/2", _atom_length),
    ("atom_concat", 3): _function("atom_concat/3", _atom_concat),
    ("sub_atom", 5): _function("sub_atom/5", _sub_atom),
    ("number_codes", 2): _function("number_codes/2", _number_codes),
    ("atom_number", 2): _function("atom_number/2", _atom_number),
    ("write", 1): _printing(write_text),
    ("print", 1): _printing(lambda t: write_text(t, quoted=True)),
    ("writeq", 1): _printing(lambda t: write_text(t, quoted=True)),
    ("writeln", 1): _printing(lambda t: write_text(t) + "\n"),
    ("write_canonical", 1): _printing(canonical_text),
    ("write_term", 2): _write_term,
    ("op", 3): _op,
    ("current_op", 3): _current_op,
    ("nl", 0): lambda rel: _printing(lambda t: "\n")(rel, None),
    ("tab", 1): _tab,
    ("logicpy_explain", 1): _explain,
    ("format", 1): _format,
    ("format", 2): _format,
    ("format", 3): _format_to,
    ("permutation", 2): _function("permutation/2", _permutation),
    ("max_member", 2): _function("max_member/2", _member_extreme(True, "max_member/2")),
    ("min_member", 2): _function("min_member/2", _member_extreme(False, "min_member/2")),
    ("upcase_atom", 2): _function("upcase_atom/2", _case(True, "upcase_atom/2")),
    ("downcase_atom", 2): _function("downcase_atom/2", _case(False, "downcase_atom/2")),
    ("split_string", 4): _function("split_string/4", _split_string),
    ("atomic_list_concat", 2): _function("atomic_list_concat/2", _atomic_list_concat),
    ("atomic_list_concat", 3): _function("atomic_list_concat/3", _atomic_list_concat),
}

#: The ISO built-ins here: a program may not define them (SWI-Prolog's permission error).
ISO: frozenset[tuple[str, int]] = frozenset({
    ("=..", 2), ("@<", 2), ("@=<", 2), ("@>", 2), ("@>=", 2), ("arg", 3), ("atom", 1), ("atom_chars", 2),
    ("atom_codes", 2), ("atom_concat", 3), ("atom_length", 2), ("atomic", 1), ("bagof", 3), ("callable", 1),
    ("char_code", 2), ("compare", 3), ("compound", 1), ("copy_term", 2), ("findall", 3), ("float", 1),
    ("functor", 3), ("ground", 1), ("integer", 1), ("nl", 0), ("nonvar", 1), ("number", 1), ("number_codes", 2),
    ("setof", 3), ("sort", 2), ("sub_atom", 5), ("var", 1), ("write", 1), ("writeq", 1),
    ("write_canonical", 1), ("write_term", 2), ("op", 3), ("current_op", 3)})

#: Built-ins a program may define for itself, its definition then used in their place: all
#: but the ISO ones, as in SWI-Prolog (`plus/3`, `between/3`, `format/2`, `maplist/3`, ...).
LIBRARY: set[tuple[str, int]] = set(BUILTINS) - ISO
