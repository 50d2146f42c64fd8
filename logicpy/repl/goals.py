"""A query term or clause body as a goal of logicpy's search: Prolog's control and
built-ins, clpfd's operators, consulted predicates and Python relations called by name.

The built-ins are written in terms of the core's goals (`eq`, `neq`, `conde`, `condu` for
`->`, `conda` for `*->`, the FD goals; arithmetic is `arith`'s); a name the table below
does not know is looked up in the toplevel's `Relations` (consulted predicates first, then
Python relations) and called with the query's arguments. The parts of a goal stay goals of
the one search (no search nested per part), so a clause body's recursion costs no stack.
`!` is the core's `Cut`, cutting to the barrier of the clause it was translated for
(`translate`); in a query, a condition, `\\+`, `once/1` or `call/1` it is local to them.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from unification import Var  # type: ignore[import-untyped]

from .. import core
from ..core import conda, conde, condu, eq, fail, lall, neq, succeed
from ..core.fd import Domain
from ..core.equality import reify, same_atomic, walk
from ..core.streams import Call, Cut, CutBarrier, Eq, Scheduled, solve
from ..core.terms import Term, format_term, is_var, term_variables
from ..errors import InputError, ModeError, PrologError, shown
from . import arith

GoalType = Callable[[Any], Iterable[Any]]

#: Modules whose relations the toplevel loads at start: the core, the FD goals, the puzzles.
DEFAULT_MODULES = (
    "logicpy.core",
    "logicpy.puzzles.gods.relations",
    "logicpy.puzzles.epistemic.relations",
)

@dataclass
class Relations:
    """The Python relations a query can call, by name, and the module each came from."""

    table: dict[str, Callable[..., Any]] = field(default_factory=dict)
    source: dict[str, ModuleType] = field(default_factory=dict)
    program: Any = None
    """The consulted Prolog predicates (a `logicpy.prolog.Program`), looked up first."""

    def load(self, module_name: str) -> list[str]:
        """Add the relations of `module_name` (see `relation_names`); return their names. A
        later module's name replaces an earlier one's."""
        try:
            module = _import_here(module_name)
        except Exception as exc:  # ImportError, or the module failing as it loads
            raise InputError(f"cannot import module {module_name!r}: {exc}") from None
        loaded = []
        for name in relation_names(module):
            self.table[name] = getattr(module, name)
            self.source[name] = module
            loaded.append(name)
        return loaded

    def call(self, name: str, args: tuple[Term, ...]) -> GoalType:
        """The goal of predicate or relation `name` on `args`: a consulted predicate, else a
        Python relation, where an atom argument naming a constant of the relation's module
        (`classic` for `CLASSIC`) is that constant."""
        if self.program is not None:
            predicate = self.program.lookup(name, len(args))
            if predicate is not None:
                return predicate(*args)
        relation = self.table.get(name)
        if relation is None:  # looked up again when reached: the goals before it may define it
            return Call(self._existing, (name, args))
        module = self.source[name]
        args = tuple(_constant(module, a) for a in args)
        try:
            inspect.signature(relation).bind(*args)
        except TypeError:
            raise InputError(f"{name}/{len(args)}: {name}{inspect.signature(relation)} "
                             f"cannot take {len(args)} argument{'s' if len(args) != 1 else ''}") from None
        except ValueError:
            pass
        goal = relation(*args)
        if not callable(goal):
            raise InputError(f"{name}/{len(args)} is not a relation: it returned {shown(goal)}, not a goal")
        return goal


    def _existing(self, name: str, args: tuple[Term, ...]) -> GoalType:
        """The goal of `name` on `args` once the search reaches it, or the existence error."""
        if (self.program is None or self.program.lookup(name, len(args)) is None) and name not in self.table:
            raise PrologError(f"procedure {name}/{len(args)} does not exist",
                              ("error", ("existence_error", "procedure", ("/", name, len(args))), "_"))
        return self.call(name, args)


def relation_names(module: ModuleType) -> list[str]:
    """The relations a module offers queries, marked by the module: its `RELATIONS` if it has
    them (as `logicpy.core` does: its `__all__` also holds `run`, `var`, ...), else its
    `__all__`, else the public functions defined in it; classes and constants left out."""
    marked = getattr(module, "RELATIONS", None)
    if marked is not None:  # trusted as they are: asking each would import what a module loads lazily
        return list(marked)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and inspect.isfunction(v) and v.__module__ == module.__name__]
    return [n for n in names if callable(getattr(module, n, None)) and not inspect.isclass(getattr(module, n))
            and not n.isupper()]


def _import_here(module_name: str) -> ModuleType:
    """Import `module_name`, also from the current directory (as `python -m` would find it),
    which an installed command does not search."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != module_name.partition(".")[0] or here in sys.path:
            raise
        sys.path.insert(0, here)
        try:
            return importlib.import_module(module_name)
        finally:
            sys.path.remove(here)


def _constant(module: ModuleType, arg: Term) -> Any:
    """The constant `arg` names in the relation's module or its package, or `arg` itself."""
    if isinstance(arg, str) and arg.isidentifier():
        package = importlib.import_module(module.__name__.rpartition(".")[0] or module.__name__)
        for place in (module, package):
            value = getattr(place, arg.upper(), None)
            if value is not None and not isinstance(value, (str, int, float)):
                return value
    return arg


class Interrupt:
    """Ctrl-C, as a flag the goals check each time they run.

    Python raises KeyboardInterrupt wherever the interpreter is; inside a weakref or
    `__del__` callback (kanren's streams make many) it is printed and dropped, and the
    search would go on. The toplevel's SIGINT handler also sets this flag, and the query, and
    every call of a predicate or relation in it, raises KeyboardInterrupt when it finds it set.
    """

    requested = False


def to_goal(term: Term, relations: Relations, order: str = "prolog") -> GoalType:
    """The goal of the query `term`, searched in `order` ("prolog" or "interleaved"); it
    checks `Interrupt` when it runs, and so does every call of a relation in it. A cut in
    the query cuts the query's choice points."""
    goal = _scoped(term, relations, None)

    def query(state: Any) -> Iterable[Any]:
        if Interrupt.requested:
            Interrupt.requested = False
            raise KeyboardInterrupt
        return solve(goal, state, order=order)
    return query


def translate(term: Term, relations: Relations, barrier: CutBarrier | None = None) -> GoalType:
    """The goal of `term` inside a search (a clause's body): interpreted by the caller's
    search; a cut in it cuts back to `barrier` (the clause's predicate call)."""
    return _scoped(term, relations, barrier)


class _CutScope(threading.local):
    """The barrier a `!` met while translating cuts to (None: the search it runs in)."""

    barrier: CutBarrier | None = None


_cut_scope = _CutScope()


def _scoped(term: Term, relations: Relations, barrier: CutBarrier | None) -> GoalType:
    """The goal of `term` with its cuts cutting to `barrier`."""
    outer, _cut_scope.barrier = _cut_scope.barrier, barrier
    try:
        return _to_goal(term, relations)
    finally:
        _cut_scope.barrier = outer


def _opaque(term: Term, relations: Relations) -> GoalType:
    """The goal of `term` run in a search of its own (a condition, `\\+`, `once/1`), where a
    cut is local to it."""
    return _scoped(term, relations, None)


def control_construct(name: str, arity: int) -> bool:
    """Whether `name/arity` is a built-in a program may not define (`,/2`, `is/2`, `dif/2`, ...);
    the list predicates `member/2`, `append/3`, `length/2` may be."""
    return (name, arity) in _BUILTINS and (name, arity) not in _LIBRARY


def plain_call(name: str, arity: int) -> bool:
    """Whether a goal `name/arity` is always a call of a predicate or relation by that name
    (no built-in or control construct has it)."""
    return (name, arity) not in _BUILTINS and not (arity == 0 and name in ("true", "fail", "false", "!"))


def call_goal(relations: Relations, name: str, args: tuple) -> GoalType:
    """The goal of calling predicate or relation `name` on `args`, checking `Interrupt` when
    reached (a predicate's call checks it itself)."""
    program = relations.program
    if program is not None:
        predicate = program.lookup(name, len(args))
        if predicate is not None:
            return predicate(*args)
    return lall(_check_interrupt, relations.call(name, args))


def _check_interrupt(state: Any) -> tuple:
    if Interrupt.requested:
        Interrupt.requested = False
        raise KeyboardInterrupt
    return (state,)


def _to_goal(term: Term, relations: Relations) -> GoalType:
    if is_var(term):
        return _MetaCall(term, (), relations)
    if isinstance(term, bool):
        term = "true" if term else "false"
    if isinstance(term, str):
        if term == "true":
            return succeed
        if term in ("fail", "false"):
            return fail
        if term == "!":
            return Cut(_cut_scope.barrier)
        if (term, 0) in _BUILTINS:
            return _BUILTINS[term, 0](relations)
        return relations.call(term, ())
    if not isinstance(term, tuple):
        raise InputError(f"{format_term(term)} is not a goal (expected a relation call like appendo(X, Y, [1]))")
    name, args = term[0], term[1:]
    builtin = _BUILTINS.get((name, len(args)))
    if builtin is not None and not (relations.program is not None and (name, len(args)) in _LIBRARY
                                    and relations.program.lookup(name, len(args)) is not None):
        if (name, len(args)) in _READS_VALUES:
            return _WithValues(builtin, args, relations)
        return builtin(relations, *args)
    return call_goal(relations, name, args)


class _WithValues(Scheduled):
    """A built-in that reads its arguments' shape (clpfd's expressions and domains), built
    when the search reaches it, from the arguments as the current state binds them."""

    __slots__ = ("builtin", "args", "relations")

    def __init__(self, builtin: Callable[..., GoalType], args: tuple, relations: Relations):
        self.builtin, self.args, self.relations = builtin, args, relations

    def schedule(self, S: Any, K: Any, search: Any) -> tuple[Any, Any]:
        data = _data(S)
        return (S,), (self.builtin(self.relations, *(reify(a, data) for a in self.args)), K)


class _MetaCall(Scheduled):
    """`call(G, A1, ...)`: G (with the extra arguments added) read in the current state and
    run as a goal of the caller's search; an unbound G is an instantiation error."""

    __slots__ = ("goal", "extra", "relations")

    def __init__(self, goal: Term, extra: tuple, relations: Relations):
        self.goal, self.extra, self.relations = goal, extra, relations

    def schedule(self, S: Any, K: Any, search: Any) -> tuple[Any, Any]:
        goal = reify(self.goal, _data(S))
        if is_var(goal):
            raise ModeError("a variable is not a goal: call/1 needs its goal bound (instantiation error)")
        if self.extra:
            if isinstance(goal, str):
                goal = (goal, *self.extra)
            elif isinstance(goal, tuple) and goal and isinstance(goal[0], str):
                goal = (*goal, *self.extra)
            else:
                raise InputError(f"call/{len(self.extra) + 1}: {format_term(goal)} is not callable")
        return (S,), (_scoped(goal, self.relations, CutBarrier(search.stack)), K)


def _conjunction(rel: Relations, a: Term, b: Term) -> GoalType:
    return lall(*(_to_goal(g, rel) for g in _flatten(",", (",", a, b))))


def _disjunction(rel: Relations, a: Term, b: Term) -> GoalType:
    if _is_if(a):  # (If -> Then ; Else), (If *-> Then ; Else)
        return _IF[a[0]]([_opaque(a[1], rel), _to_goal(a[2], rel)], [succeed, _to_goal(b, rel)])
    return conde(*([_to_goal(g, rel)] for g in _flatten(";", (";", a, b))))


#: If-then-else: `->` commits to the condition's first answer, `*->` (soft cut) keeps them all.
_IF = {"->": condu, "*->": conda}


def _if_then(rel: Relations, condition: Term, then: Term, soft: bool = False) -> GoalType:
    """(If -> Then) and (If *-> Then) without an else: they fail when If fails."""
    return _IF["*->" if soft else "->"]([_opaque(condition, rel), _to_goal(then, rel)])


def _flatten(op: str, term: Term) -> list[Term]:
    out, stack = [], [term]
    while stack:
        t = stack.pop()
        if isinstance(t, tuple) and len(t) == 3 and t[0] == op and not (op == ";" and _is_if(t[1])):
            stack.extend((t[2], t[1]))
        else:
            out.append(t)
    return out


def _is_if(t: Term) -> bool:
    return isinstance(t, tuple) and len(t) == 3 and t[0] in _IF


def _not(rel: Relations, g: Term) -> GoalType:
    return conda([_opaque(g, rel), fail], [succeed])


def _not_unifiable(rel: Relations, a: Term, b: Term) -> GoalType:
    return conda([eq(a, b), fail], [succeed])


def _checked(test: Callable[[Any], bool]) -> GoalType:
    """A goal that succeeds once when `test(state)` holds (a tuple of at most one state: the
    search goes straight on, leaving no choice point)."""
    def goal(state: Any) -> tuple:
        return (state,) if test(state) else ()
    return goal


def _data(state: Any) -> Any:
    return getattr(state, "data", state)


def _identical(rel: Relations, a: Term, b: Term, negated: bool = False) -> GoalType:
    def test(state: Any) -> bool:
        x, y = reify(a, _data(state)), reify(b, _data(state))
        same = same_term(x, y)
        if same is None:  # a term of another kind: compared as written
            same = format_term(x, {}) == format_term(y, {}) and _same_vars(x, y)
        return same != negated
    return _checked(test)


_LEAVES = frozenset({str, int, float, bool})


def same_term(x: Term, y: Term) -> bool | None:
    """Whether the reified terms x and y are the same term (Prolog's `==`), read without
    writing them out, when both are made of variables, compounds (tuples), Python lists and
    atoms or numbers alone; None when either holds a term of another kind (a list cell, a
    string object, ...), which the caller compares as written."""
    pairs = [(x, y)]
    while pairs:
        u, v = pairs.pop()
        if u is v:
            continue
        ku, kv = u.__class__, v.__class__
        if ku in _LEAVES and kv in _LEAVES:
            if not same_atomic(u, v):
                return False
        elif is_var(u) or is_var(v):  # two variables, or a variable and a bound term
            return False
        elif (ku is tuple and kv is tuple) or (ku is list and kv is list):
            if len(u) != len(v):
                return False
            pairs.extend(zip(u, v))
        else:
            return None
    return True


def _same_vars(x: Term, y: Term) -> bool:
    names: dict[Var, str] = {}
    return format_term(x, names) == format_term(y, names)


def _variant(rel: Relations, a: Term, b: Term, negated: bool = False) -> GoalType:
    """`A =@= B`: equal up to a one-to-one renaming of their variables."""
    def shape(t: Term) -> str:  # variables named by order of first appearance
        return format_term(t, {v: f"_V{i}" for i, v in enumerate(term_variables(t))})

    def test(state: Any) -> bool:
        return (shape(reify(a, _data(state))) == shape(reify(b, _data(state)))) != negated
    return _checked(test)


def _is(rel: Relations, x: Term, e: Term) -> GoalType:
    def goal(state: Any) -> tuple:
        return Eq(x, arith.evaluate(reify(e, _data(state))))(state)
    return goal


def _compare(op: str) -> Callable[..., GoalType]:
    def build(rel: Relations, a: Term, b: Term) -> GoalType:
        def goal(state: Any) -> tuple:
            data = _data(state)
            return (state,) if arith.compare(op, reify(a, data), reify(b, data)) else ()
        return goal
    return build


def _program(rel: Relations, who: str) -> Any:
    if rel.program is None:
        raise InputError(f"{who}: no program to change here")
    return rel.program


def _asserting(rel: Relations, clause: Term, at_end: bool) -> GoalType:
    """assertz/1, asserta/1: a copy of the clause as it is now added to the program."""
    def goal(state: Any) -> tuple:
        program = _program(rel, "assertz/1" if at_end else "asserta/1")
        (program.assertz if at_end else program.asserta)(reify(clause, _data(state)))
        return (state,)
    return goal


def _retract(rel: Relations, clause: Term) -> GoalType:
    """retract/1: remove the first clause unifying with `clause`, the next on backtracking."""
    def goal(state: Any) -> Iterator[Any]:
        yield from _program(rel, "retract/1").retracting(reify(clause, _data(state)), _unifier(state))
    return goal


def _retractall(rel: Relations, head: Term) -> GoalType:
    """retractall/1: remove every clause whose head unifies with `head`; succeeds once."""
    def goal(state: Any) -> tuple:
        program = _program(rel, "retractall/1")
        for _ in program.retracting((":-", reify(head, _data(state)), core.var()), _unifier(state)):
            pass
        program.declare(reify(head, _data(state)))
        return (state,)
    return goal


def _predicate_property(rel: Relations, head: Term, prop: Term) -> GoalType:
    """predicate_property/2 for a consulted predicate: `defined`, `dynamic` (every consulted
    predicate can change), `tabled`, `number_of_clauses(N)`; fails for others."""
    def goal(state: Any) -> Iterator[Any]:
        h = reify(head, _data(state))
        program = rel.program
        if is_var(h) or program is None or not isinstance(h, (str, tuple)):
            return
        name, arity = (h, 0) if isinstance(h, str) else (h[0], len(h) - 1)
        predicate = program.predicates.get((name, arity))
        if predicate is None:
            return
        props = ["defined", "dynamic", ("number_of_clauses", len(predicate.clauses))]
        if predicate._tabled is not None:
            props.append("tabled")
        for p in props:
            yield from eq(prop, p)(state)
    return goal


def _unifier(state: Any) -> Callable[[Term, Term], Any]:
    def unify(a: Term, b: Term) -> Any:
        states = eq(a, b)(state)
        return states[0] if states else None
    return unify


# ---------------------------------------------------------------- clpfd


def _expression(e: Term, aux: list[GoalType]) -> tuple[dict[Var, int], int]:
    """(coefficients, constant) of the clpfd expression `e`; each non-linear part (a product
    of unknowns, `abs`, `min`, `max`, `mod`, `rem`, `//`, `div`, `^`) becomes a fresh
    variable whose constraint goes in `aux`. `InputError` for anything else."""
    if is_var(e):
        return {e: 1}, 0
    if isinstance(e, int) and not isinstance(e, bool):
        return {}, e
    if isinstance(e, tuple) and len(e) == 2 and e[0] in ("-", "+"):
        c, k = _expression(e[1], aux)
        return ({v: -a for v, a in c.items()}, -k) if e[0] == "-" else (c, k)
    if isinstance(e, tuple) and len(e) == 3 and e[0] in ("+", "-"):
        (c1, k1), (c2, k2) = _expression(e[1], aux), _expression(e[2], aux)
        sign = 1 if e[0] == "+" else -1
        out = dict(c1)
        for v, a in c2.items():
            out[v] = out.get(v, 0) + sign * a
        return {v: a for v, a in out.items() if a}, k1 + sign * k2
    if isinstance(e, tuple) and len(e) == 3 and e[0] == "*":
        (c1, k1), (c2, k2) = _expression(e[1], aux), _expression(e[2], aux)
        if not c1 or not c2:
            k, (c, m) = (k1, (c2, k2)) if not c1 else (k2, (c1, k1))
            return {v: k * a for v, a in c.items() if k * a}, k * m
        return _fresh(aux, lambda z: core.producto(_as_var(c1, k1, aux), _as_var(c2, k2, aux), z))
    if isinstance(e, tuple) and len(e) == 2 and e[0] == "abs":
        x = _as_var(*_expression(e[1], aux), aux)
        if isinstance(x, int):
            return {}, abs(x)
        return _fresh(aux, lambda z: core.abs_diffo(x, 0, z))
    if isinstance(e, tuple) and len(e) == 3 and e[0] in ("min", "max"):
        x, y = (_as_var(*_expression(a, aux), aux) for a in e[1:])
        if isinstance(x, int) and isinstance(y, int):
            return {}, min(x, y) if e[0] == "min" else max(x, y)
        return _fresh(aux, lambda z: _propagator("MinMax", x, y, z, e[0] == "max"))
    if isinstance(e, tuple) and len(e) == 3 and e[0] in _DIVISIONS:
        x, y = (_as_var(*_expression(a, aux), aux) for a in e[1:])
        if isinstance(x, int) and isinstance(y, int):
            from ..core.fd.propagators import divide
            return ({}, divide(e[0], x, y)) if y else _never(aux)
        return _fresh(aux, lambda z: _propagator("Divide", e[0], x, y, z))
    if isinstance(e, tuple) and len(e) == 3 and e[0] == "^" and isinstance(e[2], int) and not isinstance(e[2], bool):
        c, k = _expression(e[1], aux)
        if e[2] < 0:
            raise InputError(f"{format_term(e)}: the FD goals take non-negative integer exponents")
        if not c:
            return {}, k ** e[2]
        result: Term = 1
        base = _as_var(c, k, aux)
        for _ in range(e[2]):
            result = ("*", result, base)
        return _expression(result, aux)
    raise InputError(f"{format_term(e)} is not an FD expression (integers, variables, + - * ^ abs min max "
                     "mod rem // div)")


#: clpfd's integer divisions (`divide` says how each rounds).
_DIVISIONS = ("//", "div", "mod", "rem")


def _never(aux: list[GoalType]) -> tuple[dict[Var, int], int]:
    """An expression no integer equals (a division by zero): the constraint fails."""
    aux.append(fail)
    return {}, 0


def _fresh(aux: list[GoalType], constrain: Callable[[Var], GoalType]) -> tuple[dict[Var, int], int]:
    """A fresh variable z standing for a non-linear part, constrained by `constrain(z)`."""
    z = core.var()
    aux.append(constrain(z))
    return {z: 1}, 0


def _as_var(coeffs: dict[Var, int], const: int, aux: list[GoalType]) -> Any:
    """The linear expression as one term: the int, the variable itself, or a fresh variable equal to it."""
    if not coeffs:
        return const
    if const == 0 and len(coeffs) == 1:
        [(v, a)] = coeffs.items()
        if a == 1:
            return v
    w = core.var()
    aux.append(core.sumo([*coeffs, w], -const, [*coeffs.values(), -1]))
    return w


def _propagator(name: str, *args: Any) -> GoalType:
    """The goal posting the core's FD propagator `name` on `args` (imported when first used)."""
    from ..core.fd import goals, propagators
    return goals.post(getattr(propagators, name)(*args))


def _fd_relation(op: str) -> Callable[..., GoalType]:
    """`A op B` for a clpfd comparison, as the FD goals: Σ a·x op c posted as lto/leqo/eq_offseto/
    neq_offseto between two variables, a domain for one, `sumo` with a helper variable otherwise;
    non-linear parts first, each on a fresh variable."""
    def build(rel: Relations, a: Term, b: Term) -> GoalType:
        aux: list[GoalType] = []
        coeffs, c, kind = _comparison(op, a, b, aux)
        return lall(*aux, _post_linear(coeffs, kind, c)) if aux else _post_linear(coeffs, kind, c)
    return build


def _comparison(op: str, a: Term, b: Term, aux: list[GoalType]) -> tuple[dict[Var, int], int, str]:
    """`a op b` as Σ coeffs·v kind c, kind one of "=", "\\=", "=<"."""
    if op in (">", ">="):
        a, b = b, a
    (ca, ka), (cb, kb) = _expression(a, aux), _expression(b, aux)
    coeffs = dict(ca)
    for v, k in cb.items():
        coeffs[v] = coeffs.get(v, 0) - k
    coeffs = {v: k for v, k in coeffs.items() if k}
    c = kb - ka
    if op in ("<", ">"):
        c -= 1
    return coeffs, c, {"=": "=", "\\=": "\\="}.get(op, "=<")


def _post_linear(coeffs: dict[Var, int], kind: str, c: int) -> GoalType:
    items = list(coeffs.items())
    if not items:
        holds = {"=": 0 == c, "\\=": 0 != c, "=<": 0 <= c}[kind]
        return succeed if holds else fail
    if len(items) == 2 and sorted(k for _, k in items) == [-1, 1]:
        x, y = (items[0][0], items[1][0]) if items[0][1] == 1 else (items[1][0], items[0][0])  # x - y op c
        if kind == "=" and c == 0:  # X #= Y unifies them, as clpfd does
            return eq(x, y)
        return {"=": core.eq_offseto, "\\=": core.neq_offseto, "=<": core.leqo}[kind](x, y, c)
    if len(items) == 1:  # a·x op c
        x, a = items[0]
        if kind == "=<":
            return core.leqo(x, c // a) if a > 0 else core.leqo(-(c // -a), x)
        if c % a:
            return fail if kind == "=" else succeed
        return eq(x, c // a) if kind == "=" else core.neq_offseto(x, c // a)
    xs, ks = [v for v, _ in items], [k for _, k in items]
    if kind == "=":
        return core.sumo(xs, c, ks)
    total = core.var("sum")
    bound = core.neq_offseto(total, c) if kind == "\\=" else core.leqo(total, c)
    return lall(core.sumo(xs, total, ks), bound)


# -- reification: a constraint's truth as a 0/1 variable


#: clpfd's comparisons, by the operator's name without its `#`.
_COMPARE_OPS = {"#=": "=", "#\\=": "\\=", "#<": "<", "#>": ">", "#=<": "=<", "#>=": ">="}

#: clpfd's boolean connectives of two arguments, as truth tables over (a, b, result).
_CONNECTIVES = {"#/\\": "and", "#\\/": "or", "#\\": "xor", "#==>": "imp", "#<==": "pmi", "#<==>": "iff"}


def _truth(e: Term, aux: list[GoalType]) -> Any:
    """A 0/1 term that is 1 exactly when the reifiable clpfd formula `e` holds; constraints in `aux`."""
    if is_var(e):
        aux.append(core.domo(e, range(0, 2)))
        return e
    if e in (0, 1) and not isinstance(e, bool):
        return e
    if isinstance(e, tuple) and len(e) == 2 and e[0] == "#\\":
        a = _truth(e[1], aux)
        if isinstance(a, int):
            return 1 - a
        r = core.var()
        aux.append(core.noto(a, r))
        return r
    if isinstance(e, tuple) and len(e) == 3 and e[0] in _CONNECTIVES:
        a, b = _truth(e[1], aux), _truth(e[2], aux)
        r = core.var()
        kind = _CONNECTIVES[e[0]]
        if kind == "pmi":
            a, b, kind = b, a, "imp"
        if kind == "iff":
            t = core.var()
            aux.extend((core.xoro(a, b, t), core.noto(t, r)))
        else:
            aux.append({"and": core.ando, "or": core.oro, "xor": core.xoro, "imp": core.impo}[kind](a, b, r))
        return r
    if isinstance(e, tuple) and len(e) == 3 and e[0] in _COMPARE_OPS:
        coeffs, c, kind = _comparison(_COMPARE_OPS[e[0]], e[1], e[2], aux)  # Σ coeffs·v kind c
        if not coeffs:
            return int({"=": 0 == c, "\\=": 0 != c, "=<": 0 <= c}[kind])
        x, y = _difference(coeffs, aux)  # Σ coeffs·v = x - y
        b = core.var()
        if kind == "=<":
            aux.append(core.reif_leqo(x, y, b, c))
        elif kind == "=":
            aux.append(core.reif_eqo(x, y, b, c))
        else:
            t = core.var()
            aux.extend((core.reif_eqo(x, y, t, c), core.noto(t, b)))
        return b
    raise InputError(f"{format_term(e)} is not a reifiable constraint (the comparisons #= #\\= #< #> #=< #>=, "
                     "0/1 variables, #\\ #/\\ #\\/ #==> #<== #<==>)")


def _difference(coeffs: dict[Var, int], aux: list[GoalType]) -> tuple[Any, Any]:
    """(x, y) with x - y equal to Σ coeffs·v: the variables themselves when the sum is v, -v or
    v - w, else a fresh variable for the sum and 0."""
    items = sorted(coeffs.items(), key=lambda item: -item[1])
    if len(items) == 1 and items[0][1] in (1, -1):
        return (items[0][0], 0) if items[0][1] == 1 else (0, items[0][0])
    if len(items) == 2 and (items[0][1], items[1][1]) == (1, -1):
        return items[0][0], items[1][0]
    return _as_var(coeffs, 0, aux), 0


def _holds(rel: Relations, *args: Term, name: str = "#<==>") -> GoalType:
    """A clpfd formula with boolean connectives, posted as true: `A #<==> B` unifies the
    truths of its sides, `A #/\\ B` makes both true."""
    aux: list[GoalType] = []
    if name in ("#<==>", "#/\\"):
        a, b = (_truth(x, aux) for x in args)
        return lall(*aux, eq(a, b) if name == "#<==>" else lall(eq(a, 1), eq(b, 1)))
    truth = _truth((name, *args), aux)
    return lall(*aux, eq(truth, 1))


def _values(d: Term) -> Domain:
    """The integers of a finite clpfd domain (`1..9`, `1..3\\/5`, `7`), as intervals: any size."""
    if isinstance(d, int) and not isinstance(d, bool):
        return Domain.interval(d, d)
    if isinstance(d, tuple) and len(d) == 3 and d[0] == "\\/":
        return _values(d[1]) | _values(d[2])
    if isinstance(d, tuple) and len(d) == 3 and d[0] == "..":
        lo, hi = d[1], d[2]
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in (lo, hi)):
            raise InputError(f"{format_term(d)}: the FD goals take finite domains (inf and sup are not supported)")
        return Domain.interval(lo, hi)
    raise InputError(f"{format_term(d)} is not a domain (write 1..9, or 1..3\\/5..7)")


def _in(rel: Relations, x: Term, d: Term) -> GoalType:
    return core.domo(x, _values(d))


def _ins(rel: Relations, xs: Term, d: Term) -> GoalType:
    return core.inso(xs, _values(d))


def _label(rel: Relations, xs: Term) -> GoalType:
    return core.labelingo(xs)


#: labeling/2's options, by kind: the variable selection, the value order, the branching
#: (and `min(Expr)`, `max(Expr)`: the order of the answers).
_LABELING = {"select": ("leftmost", "ff", "ffc", "min", "max"), "order": ("up", "down"),
             "choice": ("step", "enum", "bisect")}


def _labeling(rel: Relations, options: Term, xs: Term) -> GoalType:
    """labeling/2 as SWI-Prolog's clpfd: at most one option of each kind, and any number of
    `min(E)`/`max(E)`."""
    if is_var(options):
        raise ModeError("labeling/2: the options must be bound (instantiation error)")
    if not isinstance(options, list):
        raise InputError(f"labeling/2: {format_term(options)} is not a list of options (type error)")
    chosen: dict[str, str] = {}
    aux: list[GoalType] = []
    targets: list[tuple[int, Any]] = []  # (1 to minimise, -1 to maximise, the expression's variable)
    for o in options:
        if is_var(o):
            raise ModeError("labeling/2: an option is unbound (instantiation error)")
        if isinstance(o, tuple) and len(o) == 2 and o[0] in ("min", "max"):
            targets.append((1 if o[0] == "min" else -1, _as_var(*_expression(o[1], aux), aux)))
            continue
        kind = next((k for k, names in _LABELING.items() if o in names), None)
        if kind is None:
            raise InputError(f"labeling/2: {format_term(o)} is not a labeling option (domain error)")
        if kind in chosen:
            raise InputError(f"labeling/2: conflicting options {chosen[kind]} and {format_term(o)}")
        chosen[kind] = str(o)
    goal = core.labelingo(xs, chosen.get("select", "leftmost"), chosen.get("order", "up"),
                          chosen.get("choice", "step"))
    return lall(*aux, _optimised(goal, targets)) if targets else goal


def _optimised(goal: GoalType, targets: list[tuple[int, Any]]) -> GoalType:
    """labeling/2's `min(E)`/`max(E)`: the values E takes over every labelling, best first
    (several: lexicographically), then for each the labellings with E fixed to it, as clpfd
    gives them."""
    from ..core.fd.store import FDStore
    from ..core.streams import PAUSE

    def value(S: Any, t: Any) -> int:
        t = walk(t, _data(S))
        store = S.constraints.get(FDStore) if hasattr(S, "constraints") else None
        v = t if isinstance(t, int) else store.value(t) if store is not None else None
        if v is None:
            raise ModeError("labeling/2: min(Expr)/max(Expr) need Expr fixed by the variables labelled")
        return v

    def optimising(S: Any) -> Iterator[Any]:
        keys: set[tuple[int, ...]] = set()
        for S2 in solve(goal, S):
            if S2 is PAUSE:
                yield PAUSE
            else:
                keys.add(tuple(sign * value(S2, t) for sign, t in targets))
        for key in sorted(keys):  # each value fixed, labelled again: propagation may change `ff`'s picks
            fixed = lall(*(eq(t, sign * k) for (sign, t), k in zip(targets, key)), goal)
            yield from solve(fixed, S)
    return optimising


def _sum(rel: Relations, xs: Term, op: Term, total: Term) -> GoalType:
    if op == "#=" and (is_var(total) or isinstance(total, int)):
        return core.sumo(xs, total)
    if op not in _COMPARE_OPS:
        raise InputError(f"sum/3: {format_term(op)} is not a clpfd comparison (#=, #\\=, #<, #>, #=<, #>=)")
    if not isinstance(xs, list):
        raise ModeError("sum/3: the list must be proper when the goal is reached")
    return _fd_relation(_COMPARE_OPS[str(op)])(rel, _sum_expr(xs), total)


def _sum_expr(xs: list[Term]) -> Term:
    out: Term = 0
    for x in xs:
        out = ("+", out, x)
    return out


def _abs_difference(a: Term, b: Term) -> tuple[Any, Any, Term] | None:
    """(X, Y, D) when one side is `abs(X-Y)` and the other a variable or an int; else None."""
    for e, d in ((a, b), (b, a)):
        if isinstance(e, tuple) and len(e) == 2 and e[0] == "abs" and (is_var(d) or isinstance(d, int)):
            try:
                c, k = _expression(e[1], [])
            except InputError:
                return None
            if k == 0 and sorted(c.values()) == [-1, 1]:
                x, y = sorted(c, key=lambda v: -c[v])
                return x, y, d
    return None


def _fd_equal(rel: Relations, a: Term, b: Term) -> GoalType:
    found = _abs_difference(a, b)  # abs(X-Y) #= D
    return core.abs_diffo(*found) if found else _fd_relation("=")(rel, a, b)


def _fd_differ(rel: Relations, a: Term, b: Term) -> GoalType:
    found = _abs_difference(a, b)  # abs(X-Y) #\\= D
    return core.not_abs_diffo(*found) if found else _fd_relation("\\=")(rel, a, b)


def _tuples_in(rel: Relations, tuples: Term, relation: Term) -> GoalType:
    if not isinstance(tuples, list) or not isinstance(relation, list):
        raise ModeError("tuples_in/2: both lists must be proper when the goal is reached")
    rows = []
    for row in relation:
        if not isinstance(row, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in row):
            raise InputError(f"tuples_in/2: {format_term(row)} is not a list of integers")
        rows.append(tuple(row))
    return lall(*(core.tableo(t, rows) for t in tuples))


_BUILTINS: dict[tuple[str, int], Callable[..., GoalType]] = {
    (",", 2): _conjunction,
    (";", 2): _disjunction,
    ("|", 2): _disjunction,
    ("->", 2): _if_then,
    ("*->", 2): lambda rel, c, t: _if_then(rel, c, t, soft=True),
    ("\\+", 1): _not,
    ("once", 1): lambda rel, g: condu([_opaque(g, rel), succeed]),
    ("ignore", 1): lambda rel, g: condu([_opaque(g, rel), succeed], [succeed]),
    **{("call", n): (lambda rel, g, *extra: _MetaCall(g, extra, rel)) for n in range(1, 9)},
    ("assertz", 1): lambda rel, c: _asserting(rel, c, at_end=True),
    ("assert", 1): lambda rel, c: _asserting(rel, c, at_end=True),
    ("asserta", 1): lambda rel, c: _asserting(rel, c, at_end=False),
    ("retract", 1): _retract,
    ("retractall", 1): _retractall,
    ("predicate_property", 2): _predicate_property,
    ("=", 2): lambda rel, a, b: eq(a, b),
    ("\\=", 2): _not_unifiable,
    ("dif", 2): lambda rel, a, b: neq(a, b),
    ("==", 2): _identical,
    ("\\==", 2): lambda rel, a, b: _identical(rel, a, b, negated=True),
    ("=@=", 2): _variant,
    ("\\=@=", 2): lambda rel, a, b: _variant(rel, a, b, negated=True),
    ("is", 2): _is,
    **{(op, 2): _compare(op) for op in arith.COMPARISONS},
    ("#=", 2): _fd_equal, ("#\\=", 2): _fd_differ,
    ("#<", 2): _fd_relation("<"), ("#>", 2): _fd_relation(">"),
    ("#=<", 2): _fd_relation("=<"), ("#>=", 2): _fd_relation(">="),
    **{(op, 2): (lambda rel, a, b, op=op: _holds(rel, a, b, name=op)) for op in _CONNECTIVES},
    ("#\\", 1): lambda rel, a: _holds(rel, a, name="#\\"),
    ("in", 2): _in, ("ins", 2): _ins,
    ("label", 1): _label, ("labeling", 2): _labeling,
    ("all_different", 1): lambda rel, xs: core.all_differento(xs),
    ("all_distinct", 1): lambda rel, xs: core.all_differento(xs),
    ("sum", 3): _sum,
    ("element", 3): lambda rel, i, xs, v: core.elemento(i, xs, v),
    ("tuples_in", 2): _tuples_in,
    ("member", 2): lambda rel, x, xs: core.membero(x, xs),
    ("append", 3): lambda rel, x, y, z: core.appendo(x, y, z),
    ("length", 2): lambda rel, x, n: core.lengtho(x, n),
}

#: Built-ins whose goal depends on what their arguments are bound to when they run.
_READS_VALUES = {("#=", 2), ("#\\=", 2), ("#<", 2), ("#>", 2), ("#=<", 2), ("#>=", 2), ("in", 2), ("ins", 2),
                 ("labeling", 2), ("sum", 3), ("tuples_in", 2), ("#\\", 1), *((op, 2) for op in _CONNECTIVES)}

#: ISO built-ins whose arguments are terms (not goals, not read for their shape): a compiled
#: clause makes their goals directly (`term_builtin`).
_OF_TERMS = {("is", 2), ("=", 2), ("\\=", 2), ("==", 2), ("\\==", 2), *((op, 2) for op in arith.COMPARISONS)}


def term_builtin(name: str, arity: int) -> Callable[..., GoalType] | None:
    """The goal maker `(relations, *args)` of `name/arity` when it is a built-in of terms that
    no program may redefine (is/2, comparisons, unification tests), else None."""
    return _BUILTINS[name, arity] if (name, arity) in _OF_TERMS else None


#: Built-ins a program may define for itself (they are library predicates in SWI-Prolog).
_LIBRARY = {("member", 2), ("append", 3), ("length", 2)}

from . import builtins as _library  # noqa: E402  (it builds on the goals above)

_BUILTINS.update(_library.BUILTINS)
_LIBRARY |= _library.LIBRARY
BUILTIN_NAMES = sorted({f"{n}/{a}" for n, a in _BUILTINS})
