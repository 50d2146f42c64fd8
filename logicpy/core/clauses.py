"""A relation's clauses compiled to Python: head unification inline, first-argument indexing.

`@relation` functions whose body only builds goals are read once (from their code object,
at the first call the search reaches) as clauses, the way Prolog reads a predicate:

    @relation
    def app3(xs, ys, zs):
        h, t, r = vars(3)
        return conde([eq(xs, []), eq(ys, zs)],
                     [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app3(t, ys, r)])

is two clauses. A clause's *head* is its leading `eq` goals between terms written in the
body (parameters, the fresh variables of the body, numbers, strings, lists, tuples,
`cons`); its *body* is every goal after them. Each clause becomes one generated Python
function `(s, K, *args) -> (s', K') | None` that unifies the head against the call's
arguments in the substitution `s` (an `immutables.Map`) without building the head: a
pattern met by a bound argument reads it in place (`cons(h, t)` against a list names its
first element `h` and the rest `t`, no variable made, nothing bound), a pattern met by an
unbound variable is built and bound once (as the WAM's read and write modes). The body's
goals are built only for a clause whose head unified, and pushed on the continuation K.

`procedures.Procedure.expand` picks the clauses that can match the first argument (an index
from its principal functor, as Prolog's clause indexing), runs their heads, goes on with
the first that unifies and leaves the others to the search as alternatives (tasks in the
interleaved order, choice points in Prolog order): a deterministic call leaves nothing
behind. Answers, their order, fairness and time limits are those of the function run as
written; in a state with constraints or the occurs check (a `State`) the function is run
as written, so every store sees every unification.

A call whose first argument selects a single clause runs in the relation's deterministic
loop (`_loop_source`): while the clause selected ends in a call of the relation itself, the
next round goes on in the same function on a `MapMutation` of the bindings. A list the
rounds build (append's third argument, a map's output) is written cell into cell: a cell
whose fresh tail only goes on to the next round is left open, and that round writes its own
structure into it (`_hole_plans`); anything else that could see the open tail first makes
the variable it stands for, so no open cell leaves the loop. A clause that only moves the
head of its input list to that open cell (append's second clause, `_copy_idiom`) has its
following rounds run at once (`_copy_run`), within the rounds the step has left.

A function is compiled only when its body is, statement by statement: fresh variables
(`h, t = var(), var()`, `a, b, c = vars(3)`), and `return` of a goal expression whose
`conde`/`conj`/`disj` clauses are written out. The body is read from the function's
bytecode (`logicpy.core.bytecode`), not its source text, so a relation typed at a prompt,
piped on stdin, built by `exec` or defined in a notebook cell is compiled as the same text
in a file. Any other statement (an `if`, a loop, a call made for its effect) means the
function may compute its goal from its arguments' values: it then runs as written at every
call, said once by a `NotCompiledWarning` at its definition (`Relation.why` keeps the reason).
Names other than the parameters and fresh variables (globals, closure variables) are read
when a clause is used, as the function would read them.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import types
import warnings
from collections.abc import Sequence
from copy import deepcopy
from fractions import Fraction
from typing import Any, Callable

from cons.core import ConsPair
from immutables import Map

from . import disequality, equality, streams, terms
from .bytecode import Unreadable, function_body
from .equality import atomic_key, unify_subst
from .terms import Suffix, Variable, _cell

__all__ = ["CompiledRelation", "compile_relation", "compile_clauses", "NotCompiled", "NotCompiledWarning",
           "ClauseScope", "Build", "Inline", "Calls", "Branch", "Computed", "all_of",
           "Name", "term_template", "unify_template", "index_key",
           "compile_loop", "SELF_CALL", "AGAIN"]


class NotCompiled(Exception):
    """The function's body is not plain goal construction: it runs as written."""


# ---------------------------------------------------------------- templates

class _Var:
    """A name of the function: a parameter or one of its fresh variables."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class _Const:
    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


class _Seq:
    """A list or tuple written out (`kind` list or tuple)."""

    __slots__ = ("kind", "items")

    def __init__(self, kind: type, items: list):
        self.kind, self.items = kind, items


class _Cons:
    """`cons(a, ..., tail)`."""

    __slots__ = ("items",)

    def __init__(self, items: list):
        self.items = items


class _Eq:
    """`eq(left, right)` between written terms."""

    __slots__ = ("left", "right")

    def __init__(self, left: Any, right: Any):
        self.left, self.right = left, right


class Build:
    """A body goal made by calling `fn` on the terms `args` (templates; goal templates for
    the goals it takes) when the clause is used."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable[..., Any], args: list[Any]):
        self.fn, self.args = fn, args


class Inline:
    """A body goal that may run inside the clause's function, right after the head and
    before the body's goals are built, as head unification does (a test or a computed value:
    Prolog's arithmetic): `fast` is it as an expression of Python integer operators, a tree
    `(op, left, right)` over templates (`+ - * % //` and comparisons; a `%` divides by a
    variable or a nonzero integer, a `//` a variable or a positive integer by one), run
    there when each of its variables is bound to an integer (never a bool; under `*` below
    2^62, a divisor not 0, a `//` of no negative operand); a test failing returns None, a value goes to `target`, a fresh
    variable taking it with no binding made. Otherwise (`fast` None, or another value met)
    the clause goes on with it as a goal (`Computed`: `fn(s, *args)` on the built `args` in
    substitution s, a bool for a test (`target` None), else the value unified with
    `target`), so its errors are raised where the search reaches it, and the clause's
    alternatives tried at the same call never compute what the call does not reach."""

    __slots__ = ("fn", "args", "target", "fast")

    def __init__(self, fn: Callable[..., Any], args: list[Any], target: Any = None, fast: Any = None):
        self.fn, self.args, self.target, self.fast = fn, args, target, fast


class Computed:
    """An `Inline` goal run by the search: `fn(s, *args)` in the state's bindings s, a test
    when `target` is None, else the value unified with `target`; deterministic."""

    __slots__ = ("fn", "args", "target")

    def __init__(self, fn: Callable[..., Any], args: tuple, target: Any):
        self.fn, self.args, self.target = fn, args, target

    def __call__(self, S: Any) -> tuple:
        value = self.fn(S if S.__class__ is Map else S.data, *self.args)
        if self.target is None:
            return (S,) if value else ()
        return streams.Eq(self.target, value)(S)


class Branch:
    """`( Tests -> Then ; Otherwise )` decided inside the clause's function when its tests
    (`Inline` tests, each run only when those before it hold) take their integer fast paths;
    `then` and `otherwise` are lists of goal templates, which may begin with `Inline` goals
    and a `Branch` of their own; `otherwise` None fails. Else the clause goes on with the
    goal `goal(tests, then, otherwise)` (each a goal; `otherwise` None or a goal)."""

    __slots__ = ("tests", "then", "otherwise", "goal")

    def __init__(self, tests: list[Inline], then: list[Any], otherwise: list[Any] | None,
                 goal: Callable[..., Any]):
        self.tests, self.then, self.otherwise, self.goal = tests, then, otherwise, goal


def all_of(*goals: Any) -> Any:
    """The goals one after another (none: `succeed`)."""
    return streams.succeed if not goals else goals[0] if len(goals) == 1 else streams.Conj(goals)


class Calls:
    """A body goal calling `owner` (anything with `expand`, `name` and `looping`, as a consulted
    predicate) on the terms `args` (templates): `Apply(owner, args)` while `owner.looping`
    (a call of that name is still a call of it), else `fallback(*args)`."""

    __slots__ = ("owner", "args", "fallback")

    def __init__(self, owner: Any, args: list[Any], fallback: Callable[..., Any]):
        self.owner, self.args, self.fallback = owner, args, fallback


class _Expr:
    """Any other goal expression: Python source evaluated with the clause's names."""

    __slots__ = ("node", "names")

    def __init__(self, node: ast.expr, names: set[str]):
        self.node, self.names = node, names


_LIST_KEY = ("[|]", 2)


def _key(t: Any) -> Any:
    """The index key of a head pattern (None: matches any first argument)."""
    if isinstance(t, _Const):
        return index_key(t.value)
    if isinstance(t, _Seq):
        if t.kind is list:
            return _LIST_KEY if t.items else "[]"
        head = t.items[0] if t.items else None
        return (head.value, len(t.items) - 1) if isinstance(head, _Const) and type(head.value) is str else None
    if isinstance(t, _Cons):
        return _LIST_KEY
    return None


def index_key(term: Any) -> Any:
    """The first-argument index key of a walked term: its principal functor, hashable (a
    compound's (name, arity), `[]` or the list cell, `atomic_key` for atomic terms); None for
    a variable or a term of another kind. Terms with different keys never unify, so the
    clauses with another key than the call's can be passed over (None: every clause)."""
    k = term.__class__
    if k is str or k is int:
        return term
    if k is list:
        return _LIST_KEY if term else "[]"
    if k is ConsPair or k is Suffix:
        return _LIST_KEY
    if k is tuple:
        return (term[0], len(term) - 1) if term and term[0].__class__ is str else None
    if k is float or k is bool or k is Fraction:
        return atomic_key(term)
    return None


# ---------------------------------------------------------------- reading the function

def relation_of(f: Any) -> Any:
    """The relation object of `f` when `f` is the function `@relation` returned (its
    `relation` attribute, whose `function` is `f`: see `procedures`), else None."""
    r = getattr(f, "relation", None)
    return r if getattr(r, "function", None) is f else None


class _Reader:
    """Reads a function's AST into clauses of templates, resolving names as Python would."""

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn
        function = isinstance(fn, types.FunctionType)
        self.cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ())) if function else {}
        self.params: list[str] = []
        self.extra: tuple[str, ...] = ()
        self.locals: list[str] = []
        self.prefixes: dict[str, str] = {}

    def resolve(self, node: ast.expr) -> Any:
        """The object a name or dotted name refers to now (a `_Missing` if none)."""
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.params or name in self.locals:
                return _MISSING
            if name in self.cells:
                try:
                    return self.cells[name].cell_contents
                except ValueError:
                    return _MISSING
            if name in self.fn.__globals__:
                return self.fn.__globals__[name]
            return getattr(builtins, name, _MISSING)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return _MISSING if base is _MISSING else getattr(base, node.attr, _MISSING)
        return _MISSING

    def read(self) -> list[list[Any]]:
        fn = self.fn
        if not isinstance(fn, types.FunctionType):
            raise NotCompiled(f"not a Python function (a {type(fn).__name__})")
        code = fn.__code__
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
            raise NotCompiled("a generator or coroutine")
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount \
                or code.co_posonlyargcount or fn.__defaults__:
            raise NotCompiled("parameters other than plain positional ones")
        self.params = list(code.co_varnames[:code.co_argcount])
        try:
            body = function_body(fn)
        except Unreadable as exc:
            raise NotCompiled(str(exc)) from None
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
            raise NotCompiled("the body does not end by returning a goal")
        for stmt in body[:-1]:
            self.fresh_variables(stmt)
        names = set(self.params) | set(self.locals)
        if len(names) != len(self.params) + len(self.locals) or any(n.startswith("_lp") for n in names):
            raise NotCompiled("a name is given twice")
        return self.clauses(body[-1].value)

    def called(self, e: ast.expr) -> tuple[Any, list[ast.expr]]:
        """(the function called, its arguments) for a call with positional arguments only,
        none starred; (`_MISSING`, []) for any other expression."""
        if isinstance(e, ast.Call) and not e.keywords and not any(isinstance(a, ast.Starred) for a in e.args):
            return self.resolve(e.func), list(e.args)
        return _MISSING, []

    def fresh_variables(self, stmt: ast.stmt) -> None:
        """`a, b = var(), var()`, `a = var()`, `a, b, c = vars(3)`: the names become locals."""
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            raise NotCompiled(f"a statement other than fresh variables (line {stmt.lineno})")
        target, value = stmt.targets[0], stmt.value
        targets = list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]
        names = [n.id for n in targets if isinstance(n, ast.Name)]
        if len(names) != len(targets):
            raise NotCompiled(f"an assignment to something other than names (line {stmt.lineno})")
        several = not isinstance(target, ast.Name)
        f, args = self.called(value)
        constants = [a.value for a in args if isinstance(a, ast.Constant)]
        prefixes: list[Any] = [None]
        if several and f is terms.vars and len(constants) == len(args) and 1 <= len(args) <= 2 \
                and constants[0] == len(names):
            prefixes = [constants[1] if len(constants) == 2 else ""] * len(names)
        elif several and isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(names):
            prefixes = [self.fresh_prefix(e) for e in value.elts]
        elif not several:
            prefixes = [self.fresh_prefix(value)]
        if not all(isinstance(p, str) for p in prefixes):
            raise NotCompiled(f"an assignment of something other than fresh variables (line {stmt.lineno})")
        self.locals.extend(names)
        self.prefixes.update(zip(names, prefixes))

    def fresh_prefix(self, e: ast.expr) -> str | None:
        """The display prefix of `var()`/`var("x")` (None given: ""), or None for any other expression."""
        f, args = self.called(e)
        if (f is terms.var or f is Variable) and len(args) <= 1 and all(isinstance(a, ast.Constant) for a in args):
            prefix = args[0].value if args else ""  # type: ignore[attr-defined]
            return prefix or ""
        return None

    def clauses(self, e: ast.expr) -> list[list[Any]]:
        f, args = self.called(e)
        if f is streams.conde:
            if not args or not all(isinstance(c, (ast.List, ast.Tuple)) for c in args):
                raise NotCompiled("conde's clauses are not written out")
            return [self.goals(c.elts) for c in args if isinstance(c, (ast.List, ast.Tuple))]
        if (f is streams.disj or f is streams.lany) and args:
            return [self.goals([g]) for g in args]
        return [self.goals([e])]

    def goals(self, exprs: list[ast.expr]) -> list[Any]:
        out: list[Any] = []
        for e in exprs:
            if isinstance(e, ast.Starred):
                raise NotCompiled("a starred goal")
            f, args = self.called(e)
            if (f is streams.conj or f is streams.lall) and args:
                out.extend(self.goals(args))
                continue
            if f is streams.eq and len(args) == 2:
                left, right = self.term(args[0]), self.term(args[1])
                if left is not None and right is not None:
                    out.append(_Eq(left, right))
                    continue
            names = {n.id for n in ast.walk(e) if isinstance(n, ast.Name)}
            out.append(_Expr(e, names))
        return out

    def term(self, e: ast.expr) -> Any:
        """The template of a term written in the body, or None (not a written term)."""
        if isinstance(e, ast.Name) and (e.id in self.params or e.id in self.locals):
            return _Var(e.id)
        if isinstance(e, (ast.Constant, ast.UnaryOp)):
            try:
                value = ast.literal_eval(e)
            except ValueError:
                return None
            return _Const(value) if type(value) in (int, str, bool, float) else None
        if isinstance(e, (ast.List, ast.Tuple)):
            items = [self.term(x) for x in e.elts]
            if any(x is None for x in items):
                return None
            return _Seq(list if isinstance(e, ast.List) else tuple, items)
        f, args = self.called(e)
        if f is terms.cons and len(args) >= 2:
            items = [self.term(x) for x in args]
            return None if any(x is None for x in items) else _Cons(items)
        return None


class _Missing:
    pass


_MISSING = _Missing()


# ---------------------------------------------------------------- clauses from terms

class ClauseScope:
    """What the names of clauses built from terms mean: `params` (the call's arguments),
    `extra` (more parameters, bound: what the body's `Build`s take besides terms), `locals`
    (the clause's variables); no closure cells, no Python names to resolve."""

    def __init__(self, params: list[str], extra: tuple[str, ...] = (), locals: list[str] | None = None):
        self.params, self.extra = params, extra
        self.locals: list[str] = list(locals or ())
        self.prefixes: dict[str, str] = {}
        self.cells: dict[str, Any] = {}

    def resolve(self, node: Any) -> Any:
        return _MISSING


#: Nodes of a clause's non-ground terms past which it is not compiled (it runs as written).
MAX_TEMPLATE = 2_000


def term_template(term: Any, names: dict) -> Any:
    """The template of a logicpy term whose variables are named by `names` (variable ->
    Python name; a variable not there gets the next `_v<n>` and is added): ground parts are
    constants, unified in one step. `NotCompiled` past `MAX_TEMPLATE` nodes or for a term of
    another kind."""
    budget = [MAX_TEMPLATE]

    def walk(t: Any) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise NotCompiled("a clause term too large to compile")
        k = t.__class__
        if k is Variable:
            name = names.get(t)
            if name is None:
                name = names[t] = f"_v{len(names)}"
            return _Var(name)
        if k is str or k is int or k is bool or k is float or k is terms.String or k is Fraction:
            return _Const(t)
        if not terms.term_variables(t):
            return _Const(t)
        if k is tuple or k is list:
            return _Seq(k, [walk(x) for x in t])
        if k is ConsPair:
            items = []
            while t.__class__ is ConsPair:
                items.append(t.car)
                t = t.cdr
            return _Cons([*map(walk, items), walk(t)])
        if k is Suffix:
            return walk(t.to_list())
        raise NotCompiled(f"a term of type {k.__name__}")

    return walk(term)


def unify_template(left: Any, right: Any) -> _Eq:
    """The goal `left = right` (templates): a head goal while only such goals precede it."""
    return _Eq(left, right)


#: The template of a named variable (a parameter, an extra parameter, a clause's variable).
Name = _Var


# ---------------------------------------------------------------- generating code

class _Writer:
    """Python source of one clause's function; `consts` and `relations` (each relation called
    in a body, with its function) are shared by the clauses of one compilation."""

    def __init__(self, reader: Any, consts: list[Any], relations: list[tuple[Any, Any]], mutating: bool = False):
        self.reader = reader
        self.mutating = mutating  # the substitution is a `MapMutation`, written in place
        self.lines: list[str] = []
        self.bound: set[str] = set(reader.params) | set(reader.extra)
        self.consts = consts
        self.relations = relations
        self.n = 0
        self.last_call: tuple[Any, str, str, str] | None = None  # the last relation call written: see `goal`
        self.changed = False  # whether the code written so far may bind a variable
        # write mode across rounds (`_hole_plans`): the loop's open cells by parameter position
        self.hole_fresh: dict[int, str] = {}  # position -> the fresh variable its hole stands for
        self.hole_eq: dict[str, int] = {}  # parameters whose first use, an `eq`, may find their hole
        self.used_again: set[str] = set()  # of those, the ones the clause uses after that `eq`
        self.first_kind: str | None = None  # the class the loop has found the first argument to have
        self.live: dict[int, str] = {}  # position -> the name that may hold its open cell here
        self.creating: tuple[str, int] | None = None  # (local, position): the `eq` being written leaves it open
        self.opened: str | None = None  # the cell the last structure built left open
        self.copy: _CopyRun | None = None  # the loop's copy clause, whose rounds may run at once

    def fresh_name(self) -> str:
        self.n += 1
        return f"_lp{self.n}"

    def fresh(self, name: str) -> str:
        """A fresh variable for the local `name`, with its display prefix."""
        prefix = self.reader.prefixes.get(name, "")
        return f"_lp_V({prefix!r})" if prefix else "_lp_new(_lp_V)"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def const(self, value: Any) -> str:
        if type(value) in (int, str, bool):
            return repr(value)
        self.consts.append(value)
        return f"_lp_k[{len(self.consts) - 1}]"

    def build(self, t: Any, depth: int) -> str:
        """An expression for term `t` built (write mode); its unbound names made fresh first."""
        if isinstance(t, _Var):
            if t.name not in self.bound:
                self.emit(depth, f"{t.name} = {self.fresh(t.name)}")
                self.bound.add(t.name)
            return t.name
        if isinstance(t, _Const):
            return self.const(t.value)
        if isinstance(t, (Build, _Eq, Calls)):  # a goal given to a goal (a condition, a branch)
            return self.goal(t, depth)
        if isinstance(t, _Seq):
            inner = ", ".join(self.build(x, depth) for x in t.items)
            return f"[{inner}]" if t.kind is list else f"({inner},)" if t.items else "()"
        if isinstance(t, _Cons):
            last = t.items[-1]
            fresh_tail = isinstance(last, _Var) and last.name not in self.bound
            if fresh_tail and self.creating is not None and last.name == self.creating[0]:
                # the cell's tail left open: the next round writes it (or makes the variable)
                parts = [self.build(x, depth) for x in t.items[:-1]]
                cell = self.opened = self.fresh_name()
                self.emit(depth, f"{cell} = _lp_new(_lp_Pair); {cell}.car = {parts[-1]}; "
                                 f"{cell}.cdr = {last.name} = _lp_HOLE")
                self.bound.add(last.name)
                out = cell
                for p in reversed(parts[:-1]):
                    cell = self.fresh_name()
                    self.emit(depth, f"{cell} = _lp_new(_lp_Pair); {cell}.car = {p}; {cell}.cdr = {out}")
                    out = cell
                return out
            parts = [self.build(x, depth) for x in t.items]
            if fresh_tail:  # a cell in front of a new variable, as `cons` makes it
                out = parts[-1]
                for p in reversed(parts[:-1]):
                    cell = self.fresh_name()
                    self.emit(depth, f"{cell} = _lp_new(_lp_Pair); {cell}.car = {p}; {cell}.cdr = {out}")
                    out = cell
                return out
            return f"_lp_cons({', '.join(parts)})"
        raise AssertionError(t)

    def bind(self, depth: int, w: str, value: str) -> None:
        """Bind the unbound variable `w` to `value` in the substitution."""
        self.changed = True
        self.emit(depth, f"_lp_s[{w}] = {value}" if self.mutating else f"_lp_s = _lp_s.set({w}, {value})")

    def unhole(self, depth: int, name: str, position: int) -> None:
        """Make `name` a real variable if it is the open cell of `position` (the variable
        deferred, put in the cell)."""
        self.emit(depth, f"if {name} is _lp_HOLE:")
        self.emit(depth + 1, f"{name} = {self.hole_fresh[position]}; _lp_hole{position}.cdr = {name}")

    def read_tail(self, depth: int, cell: str, rest: str) -> None:
        """After `rest = cell.cdr`: if `cell` is an open cell (reached through a term the loop
        reads), its variable is made now and read instead."""
        if not self.live:
            return
        self.emit(depth, f"if {rest} is _lp_HOLE:")
        for j, name in self.live.items():
            self.emit(depth + 1, f"if {cell} is _lp_hole{j}:")
            self.emit(depth + 2, f"{name} = {self.hole_fresh[j]}; _lp_hole{j}.cdr = {rest} = {name}")

    def write_hole(self, depth: int, x: str, position: int, t: Any) -> None:
        """The branch of `match(x, t)` where `x` is its position's open cell: `t` built into it."""
        built = self.build(t, depth + 1)
        self.emit(depth + 1, f"_lp_hole{position}.cdr = {built}" + (f"; {x} = {built}" if x in self.used_again else ""))
        self.reopen(depth + 1)

    def reopen(self, depth: int) -> None:
        """The cell just built left open becomes its position's hole."""
        if self.opened is not None and self.creating is not None:
            self.emit(depth, f"_lp_hole{self.creating[1]} = {self.opened}")
        self.opened = None

    def copy_run(self, index: int, depth: int) -> None:
        """At the end of a round of the loop's copy clause (`_copy_idiom`), its arguments
        reassigned: while the output is its open cell, the rounds that follow while the input
        is a list cell run at once (`_copy_run`), as many as the step has left."""
        copy = self.copy
        if copy is None or copy.clause != index:
            return
        p = self.reader.params
        i, o = p[0], p[copy.out]
        closing = "_lp_NO" if copy.closing is None else p[copy.closing]
        self.emit(depth, f"if {o} is _lp_HOLE:")
        self.emit(depth + 1, f"_lp_got = _lp_copy(_lp_s, {i}, _lp_hole{copy.out}, {closing}, {TAIL_CALLS - 1} - _lp_i)")
        self.emit(depth + 1, "if _lp_got is None:")
        self.emit(depth + 2, "return _lp_s, _lp_K, None")
        self.emit(depth + 1, f"{i}, _lp_hole{copy.out}, _lp_m = _lp_got")
        self.emit(depth + 1, "_lp_it.__setstate__(_lp_i + 1 + _lp_m)")

    def fail_unless(self, depth: int, x: str, y: str) -> None:
        self.changed = True
        for j, name in self.live.items():  # the unifier sees no open cell
            self.unhole(depth, name, j)
        self.emit(depth, f"_lp_s = {'_lp_unify_m' if self.mutating else '_lp_unify'}({x}, {y}, _lp_s)")
        self.emit(depth, "if _lp_s is False:")
        self.emit(depth + 1, "return None")

    def same(self, depth: int, x: str, y: str) -> None:
        """Code unifying the values of names x and y: compared at once when both are integers
        or both atoms (equal is identical then), else by the unifier."""
        if self.live:  # an open cell may be met: the unifier's code handles it
            self.fail_unless(depth, x, y)
            return
        a, b = self.walk(depth, x), self.walk(depth, y)
        kind = self.cls(a)
        self.emit(depth, f"if {kind} is {self.cls(b)} and ({kind} is int or {kind} is str):")
        self.emit(depth + 1, f"if {a} != {b}:")
        self.emit(depth + 2, "return None")
        self.emit(depth, "else:")
        self.fail_unless(depth + 1, a, b)

    def walk(self, depth: int, x: str) -> str:
        if self.mutating and x == self.reader.params[0] and not self.changed:
            return "_lp_f"  # the loop has walked the first argument (its class `_lp_kind`), and bound nothing since
        w = self.fresh_name()
        self.emit(depth, f"{w} = {x}")
        self.emit(depth, f"while {w}.__class__ is _lp_V:")
        self.emit(depth + 1, f"_lp_n = _lp_s.get({w}, _lp_U)")
        self.emit(depth + 1, "if _lp_n is _lp_U:")
        self.emit(depth + 2, "break")
        self.emit(depth + 1, f"{w} = _lp_n")
        return w

    @staticmethod
    def cls(w: str) -> str:
        """The class of walked value `w`."""
        return "_lp_kind" if w == "_lp_f" else f"{w}.__class__"

    def part_names(self, t: Any) -> tuple[list[str], set[str]]:
        """Names for the parts of structure `t` read in place: an unbound variable met once in
        `t` is named itself (no copy); (the names, those named themselves)."""
        counts: dict[str, int] = {}
        _count_names(t, counts)
        names, own = [], set()
        for sub in t.items:
            if isinstance(sub, _Var) and sub.name not in self.bound and counts[sub.name] == 1:
                names.append(sub.name)
                own.add(sub.name)
            else:
                names.append(self.fresh_name())
        return names, own

    def read_cell(self, d: int, cur: str, p: str, rest: str, known: str | None = None) -> None:
        """Code reading the walked value `cur` as a list cell: its head into `p`, its tail into
        `rest` (a variable or another term unified with a new cell); `known`, the class the
        loop has found `cur` to have (`_lp_Pair` or `_lp_Suffix`): that case alone."""
        if known == "_lp_Pair":
            self.emit(d, f"{p} = {cur}.car; {rest} = {cur}.cdr")
            self.read_tail(d, cur, rest)
            return
        if known == "_lp_Suffix":
            self.read_suffix(d, cur, p, rest)
            return
        k = self.cls(cur)
        self.emit(d, f"if {k} is _lp_Pair:")
        self.emit(d + 1, f"{p} = {cur}.car; {rest} = {cur}.cdr")
        self.read_tail(d + 1, cur, rest)
        self.emit(d, f"elif {k} is _lp_Suffix:")
        self.read_suffix(d + 1, cur, p, rest)
        self.emit(d, f"elif {k} is list and {cur}:")
        self.emit(d + 1, f"{p} = {cur}[0]")
        self.emit(d + 1, f"if len({cur}) > 1:")
        self.emit(d + 2, f"{rest} = _lp_new(_lp_Suffix); {rest}.items = {cur}; {rest}.start = 1")
        self.emit(d + 1, "else:")
        self.emit(d + 2, f"{rest} = []")
        self.emit(d, "else:")
        self.emit(d + 1, f"{p} = _lp_new(_lp_V); {rest} = _lp_new(_lp_V)")
        self.fail_unless(d + 1, cur, f"_lp_cell({p}, {rest})")

    def read_suffix(self, d: int, cur: str, p: str, rest: str) -> None:
        """`read_cell` of a `Suffix`: its rest another `Suffix` of the same items, made here
        without a call."""
        self.emit(d, f"_lp_l = {cur}.items; _lp_j = {cur}.start + 1; {p} = _lp_l[_lp_j - 1]")
        self.emit(d, "if _lp_j < len(_lp_l):")
        self.emit(d + 1, f"{rest} = _lp_new(_lp_Suffix); {rest}.items = _lp_l; {rest}.start = _lp_j")
        self.emit(d, "else:")
        self.emit(d + 1, f"{rest} = []")

    def match(self, x: str, t: Any, depth: int) -> None:
        """Code unifying the value of expression `x` (a name) with template `t`."""
        if isinstance(t, _Var):
            if t.name in self.bound:
                self.same(depth, x, t.name)
            else:
                self.emit(depth, f"{t.name} = {x}")
                self.bound.add(t.name)
            return
        hole = self.hole_eq.pop(x, None)
        if hole is not None:  # x may be its position's open cell: the structure written into it
            self.live.pop(hole, None)
            before = set(self.bound)
            self.emit(depth, f"if {x} is _lp_HOLE:")
            self.write_hole(depth, x, hole, t)
            written, self.bound = self.bound, before
            self.emit(depth, "else:")
            self.match(x, t, depth + 1)
            assert self.bound == written, "both modes bind the same names"
            return
        w = self.walk(depth, x)
        c = self.cls(w)
        if isinstance(t, _Const):
            value = t.value
            self.emit(depth, f"if {c} is _lp_V:")
            self.bind(depth + 1, w, self.const(value))
            if type(value) in (int, str):
                self.emit(depth, f"elif {c} is not {type(value).__name__} or {w} != {self.const(value)}:")
            else:
                self.emit(depth, "else:")
            self.fail_unless(depth + 1, w, self.const(value))
            return
        if isinstance(t, _Seq) and not t.items:
            empty = "[]" if t.kind is list else "()"
            self.emit(depth, f"if {c} is _lp_V:")
            self.bind(depth + 1, w, empty)
            self.emit(depth, f"elif {c} is not {t.kind.__name__} or {w}:")
            self.fail_unless(depth + 1, w, empty)
            return
        # a structure: built and bound when the value is a variable, else read in place
        # the loop has found the first argument's class (a list cell): that case alone is read
        pair = w == "_lp_f" and self.first_kind is not None and isinstance(t, _Cons)
        after_write = None
        d = depth
        if not pair:
            before = set(self.bound)
            self.emit(depth, f"if {c} is _lp_V:")
            built = self.build(t, depth + 1)
            self.bind(depth + 1, w, built)
            self.reopen(depth + 1)
            after_write = self.bound
            self.bound = before
            self.emit(depth, "else:")
            d = depth + 1
        names, own = self.part_names(t)
        if isinstance(t, _Cons):
            heads, tail = t.items[:-1], t.items[-1]
            parts = names[:-1]
            rest = self.fresh_name() if len(parts) > 1 else names[-1]
            cur = w
            for i, p in enumerate(parts):
                if i == len(parts) - 1:
                    rest = names[-1]
                self.read_cell(d, cur, p, rest, self.first_kind if pair and i == 0 else None)
                if i < len(parts) - 1:
                    cur = self.walk(d, rest)
                    rest = self.fresh_name()
            self.bound |= own
            for p, sub in zip(parts, heads):
                if p not in own:
                    self.match(p, sub, d)
            if rest not in own:
                self.match(rest, tail, d)
        else:
            kind = t.kind.__name__  # type: ignore[union-attr]
            n = len(t.items)  # type: ignore[union-attr]
            parts = names
            unpack = ", ".join(parts) + ("," if n == 1 else "")
            self.emit(d, f"if {c} is {kind} and len({w}) == {n}:")
            self.emit(d + 1, f"{unpack} = {w}")
            self.emit(d, "else:")
            self.emit(d + 1, f"{unpack} = {', '.join('_lp_new(_lp_V)' for _ in parts)}{',' if n == 1 else ''}")
            built = f"[{', '.join(parts)}]" if kind == "list" else f"({unpack})"
            self.fail_unless(d + 1, w, built)
            self.bound |= own
            for p, sub in zip(parts, t.items):  # type: ignore[union-attr]
                if p not in own:
                    self.match(p, sub, d)
        assert after_write is None or self.bound == after_write, "both modes bind the same names"

    def eq(self, g: _Eq, depth: int) -> None:
        left, right = g.left, g.right
        if isinstance(right, _Var) and right.name in self.bound and not (
                isinstance(left, _Var) and left.name in self.bound):
            left, right = right, left
        if isinstance(left, _Var) and left.name in self.bound:
            self.match(left.name, right, depth)
        else:
            x = self.build(left, depth)
            y = self.build(right, depth)
            self.fail_unless(depth, x, y)

    def ready(self, g: Inline) -> bool:
        """Whether `Inline` goal g can run here: it has a fast path over bound names."""
        if g.fast is None:
            return False
        leaves: list[str] = []
        _fast_names(g.fast, leaves)
        return all(n in self.bound for n in leaves)

    def fast_value(self, g: Inline, depth: int, walked: dict[str, str], deferred: list[Any]) -> str:
        """Code at `depth` computing `Inline` goal g's value (a bool for a test) on its integer
        fast path; any other value met returns the clause going on with `deferred` as goals."""
        leaves: list[str] = []
        _fast_names(g.fast, leaves)
        value = self.fresh_name()
        for n in dict.fromkeys(leaves):
            if n not in walked:
                walked[n] = self.walk(depth, n)
        computed = f"{value} = {_fast_source(g.fast, walked, self.const)}"
        if not leaves:  # integers alone
            self.emit(depth, computed)
            return value
        self.emit(depth, f"if {' and '.join(_fast_conditions(g.fast, [walked[n] for n in dict.fromkeys(leaves)], walked))}:")
        self.emit(depth + 1, computed)
        self.emit(depth, "else:")
        bound = set(self.bound)
        self.emit(depth + 1, f"return _lp_s, {self.continuation(deferred, depth + 1)}")
        self.bound = bound
        return value

    def going_on(self, goals: list[Any], depth: int) -> None:
        """The code returning how the clause goes on with `goals` (its body after the head,
        or a branch's goals and those after the branch): the leading `Inline` goals that
        can run here, then a `Branch` decided here, the rest built as goals and pushed on
        the continuation."""
        walked: dict[str, str] = {}  # names walked since the last binding
        i = 0
        while i < len(goals) and isinstance(goals[i], Inline) and self.ready(goals[i]):
            g = goals[i]
            value = self.fast_value(g, depth, walked, goals[i:])
            target = g.target
            if target is None:
                self.emit(depth, f"if not {value}:")
                self.emit(depth + 1, "return None")
            elif isinstance(target, _Var) and target.name not in self.bound:
                self.emit(depth, f"{target.name} = {value}")
                self.bound.add(target.name)
            else:
                self.fail_unless(depth, self.build(target, depth), value)
                walked.clear()
            i += 1
        goals = goals[i:]
        if goals and isinstance(goals[0], Branch) and all(self.ready(t) for t in goals[0].tests):
            branch, rest = goals[0], goals[1:]
            decided = self.fresh_name()
            self.emit(depth, f"{decided} = False")
            inner = depth
            for test in branch.tests:  # each test only once those before it hold
                value = self.fast_value(test, inner, walked, goals)
                self.emit(inner, f"if {value}:")
                inner += 1
            self.emit(inner, f"{decided} = True")
            bound = set(self.bound)
            self.emit(depth, f"if {decided}:")
            self.going_on([*branch.then, *rest], depth + 1)
            self.bound = set(bound)
            if branch.otherwise is None:
                self.emit(depth, "return None")
            else:
                self.going_on([*branch.otherwise, *rest], depth)
            return
        self.emit(depth, f"return _lp_s, {self.continuation(goals, depth)}")

    def continuation(self, goals: list[Any], depth: int) -> str:
        """An expression for `goals` built and pushed on the clause's continuation `_lp_K`."""
        cont = "_lp_K"
        for e in reversed([self.goal(g, depth) for g in goals]):
            cont = f"({e}, {cont})"
        return cont

    def goals_of(self, goals: list[Any], depth: int) -> str:
        """An expression for the goal of `goals` one after another."""
        return f"_lp_all({', '.join(self.goal(g, depth) for g in goals)})"

    def goal(self, g: Any, depth: int) -> str:
        """An expression for a body goal (its unbound names made fresh first)."""
        if isinstance(g, _Eq):
            return f"_lp_Eq({self.build(g.left, depth)}, {self.build(g.right, depth)})"
        if isinstance(g, Build):
            args = [self.build(a, depth) for a in g.args]
            return f"{self.const(g.fn)}({', '.join(args)})"
        if isinstance(g, Inline):
            args = [self.build(a, depth) for a in g.args]
            target = "None" if g.target is None else self.build(g.target, depth)
            return f"_lp_Computed({self.const(g.fn)}, ({', '.join(args)}{',' if len(args) == 1 else ''}), {target})"
        if isinstance(g, Branch):
            tests = self.goals_of(g.tests, depth)
            then = self.goals_of(g.then, depth)
            otherwise = "None" if g.otherwise is None else self.goals_of(g.otherwise, depth)
            return f"{self.const(g.goal)}({tests}, {then}, {otherwise})"
        if isinstance(g, Calls):
            args = [self.build(a, depth) for a in g.args]
            made = f"({', '.join(args)}{',' if len(args) == 1 else ''})"
            owner = self.const(g.owner)
            return f"(_lp_Apply({owner}, {made}) if {owner}.looping else {self.const(g.fallback)}(*{made}))"
        for name in sorted(g.names):
            if name in self.reader.locals and name not in self.bound:
                self.emit(depth, f"{name} = {self.fresh(name)}")
                self.bound.add(name)
        node = _CellNames(self.reader.cells).visit(deepcopy(g.node))  # the template stays as read
        text = ast.unparse(node)
        rel: Any = self.reader.resolve(g.node.func) if isinstance(g.node, ast.Call) else None
        # a name bound to the `@relation` function itself (not a wrapper of it, such as `tabled`'s)
        if relation_of(rel) is not None and isinstance(g.node, ast.Call) and not g.node.keywords \
                and not any(isinstance(a, ast.Starred) for a in g.node.args) \
                and rel.relation.arity == len(g.node.args):
            # a call of a relation: its goal made here, while the name still means that relation
            self.relations.append((rel, rel.relation))  # type: ignore[union-attr]
            i = len(self.relations) - 1
            arguments = ", ".join(ast.unparse(a) for a in node.args) + ("," if len(node.args) == 1 else "")
            self.last_call = (rel.relation, f"{ast.unparse(node.func)} is _lp_fn{i}", f"({arguments})", text)
            return f"(_lp_Apply(_lp_rel{i}, ({arguments})) if {ast.unparse(node.func)} is _lp_fn{i} else {text})"
        return text


def _fast_names(t: Any, out: list[str]) -> None:
    """The variable names of an `Inline`'s integer expression, in order."""
    if isinstance(t, tuple):
        _fast_names(t[1], out)
        _fast_names(t[2], out)
    elif isinstance(t, _Var):
        out.append(t.name)


#: Bound on the operands of an `Inline` fast path with `*`: its products stay small.
_SMALL = 1 << 62


def _fast_conditions(t: Any, leaves: list[str], walked: dict[str, str]) -> list[str]:
    """When an `Inline`'s fast expression t may run on these walked leaves: all integers
    (never bools), small ones under `*`, a nonzero variable divisor under `%`, no negative
    one under `//`."""
    conditions = [f"{w}.__class__ is int" for w in leaves]
    ops: list[tuple] = []
    stack = [t]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            ops.append(node)
            stack.extend(node[1:])
    if any(op == "*" for op, _, _ in ops):
        conditions += [f"-{_SMALL} < {w} < {_SMALL}" for w in leaves]
    conditions += [f"{walked[right.name]} != 0" for op, _, right in ops if op == "%" and isinstance(right, _Var)]
    for op, left, right in ops:
        if op == "//":  # Python's floor division is truncation when neither side is negative
            conditions += [f"{walked[left.name]} >= 0"] if isinstance(left, _Var) else []
            conditions += [f"{walked[right.name]} > 0"] if isinstance(right, _Var) else []
    return conditions


def _fast_source(t: Any, walked: dict[str, str], const: Callable[[Any], str]) -> str:
    """Python source of an `Inline`'s integer expression, its variables read as `walked`."""
    if isinstance(t, tuple):
        op, left, right = t
        return f"({_fast_source(left, walked, const)} {op} {_fast_source(right, walked, const)})"
    if isinstance(t, _Var):
        return walked[t.name]
    return const(t.value)


class _CellNames(ast.NodeTransformer):
    """Closure names read through their cells (`x` -> `_lp_cell_x.cell_contents`)."""

    def __init__(self, cells: dict):
        self.cells = cells

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.cells:
            return ast.copy_location(ast.Attribute(ast.Name(f"_lp_cell_{node.id}", ast.Load()), "cell_contents",
                                                   ast.Load()), node)
        return node


def _clause_source(w: _Writer, index: int, goals: list[Any], plan: "_HolePlan | None" = None) -> tuple[str, Any]:
    """(source of the clause's function, its first argument's index key); in a loop writer
    (`w.mutating`), the clause's code as a branch of `_loop_source`'s loop, with `plan` its
    use of the loop's open cells."""
    params = w.reader.params
    if not w.mutating:
        w.emit(1, f"def _lp_clause{index}(_lp_s, _lp_K, {', '.join([*w.reader.extra, *params])}):")
    head = 0
    while head < len(goals) and isinstance(goals[head], _Eq):
        head += 1
    key = None
    if params:
        for g in goals[:head]:
            for a, b in ((g.left, g.right), (g.right, g.left)):
                if key is None and isinstance(a, _Var) and a.name == params[0]:
                    key = _key(b)
    if plan is not None:
        for name in plan.made:
            w.unhole(2, name, params.index(name))
        w.hole_eq = dict(plan.by_eq)
        w.used_again = plan.used_again
        w.live = {params.index(name): name for name in plan.by_eq}
        w.live.update({j: name for name, j in plan.open_args if name == params[j]})
    for i, g in enumerate(goals[:head]):
        w.creating = None if plan is None else plan.opens.get(i)
        w.eq(g, 2)
        if w.creating is not None:
            w.live[w.creating[1]] = w.creating[0]
    w.creating = None
    body = goals[head:]
    if not w.mutating:
        w.going_on(body, 2)
        return "\n".join(w.lines), key
    # the self call's arguments that may be open cells, made real before the call leaves the loop
    open_args = [] if plan is None else plan.open_args
    if len(body) == 1 and isinstance(body[0], Build) and body[0].fn is SELF_CALL:
        built = [w.build(a, 2) for a in body[0].args]
        args = ", ".join(built) + ","
        w.emit(2, "if _lp_owner.looping:")
        w.emit(3, _next_round(params, built))
        w.copy_run(index, 3)
        w.emit(3, "continue")
        for name, j in open_args:
            w.unhole(2, name, j)
        w.emit(2, f"return _lp_s, _lp_AGAIN, ({args})")
    elif len(body) == 1:
        w.last_call = None
        expr = w.goal(body[0], 2)
        own = w.last_call
        if own is not None and own[0].fn is getattr(w.reader, "fn", None):  # a call of this relation: loop
            w.emit(2, f"if {own[1]}:")
            names = _self_call_args(w.reader, body[0])
            w.emit(3, f"{', '.join(params)}, = {own[2]}" if names is None or None in names
                   else _next_round(params, names))  # type: ignore[arg-type]
            w.copy_run(index, 3)
            w.emit(3, "continue")
            expr = own[3]
        for name, j in open_args:
            w.unhole(2, name, j)
        w.emit(2, f"return _lp_s, ({expr}, _lp_K), None")
    elif not body:
        w.emit(2, "return _lp_s, _lp_K, None")
    else:
        exprs = [w.goal(g, 2) for g in body]
        cont = "_lp_K"
        for e in reversed(exprs):
            cont = f"({e}, {cont})"
        w.emit(2, f"return _lp_s, {cont}, None")
    return "\n".join(w.lines), key


def _next_round(params: list[str], args: list[str]) -> str:
    """The assignment of a self call's arguments (names) to the parameters, those passed on
    unchanged left out."""
    changed = [(p, a) for p, a in zip(params, args) if p != a]
    if not changed:
        return "pass"
    return f"{', '.join(p for p, _ in changed)}, = {', '.join(a for _, a in changed)},"


def _loop_source(scope: Any, consts: list, called: list, clauses: Sequence[list[Any] | None],
                 hot: int = -1, empty: int = -1) -> tuple[str, "_CopyRun | None"]:
    """The source of `_lp_loop(m, K, *params)`: the relation's deterministic calls, one after
    the other, on the bindings as a `MapMutation` m written in place. While the first argument
    selects exactly one clause (`_lp_one`, from the index), that clause runs; a clause whose
    body is one call of the relation itself goes round again with that call's arguments.
    Returns None (a clause failed: the whole call fails), (m, K', None) when a clause goes on
    with other goals, or (m, `AGAIN`, args) when no single clause is selected or after
    `TAIL_CALLS` rounds (the caller then calls the relation on args as usual). A clause
    given as None hands the call back when it is selected. Clause `hot` (the one a list cell
    selects) is tested first; `empty`, the one `[]` selects. (the source, the copy clause
    recognised in the loop or None: see `_copy_idiom`)"""
    params = scope.params
    args = ", ".join(params) + ("," if len(params) == 1 else "")
    plans, fresh = _hole_plans(scope, clauses)
    copy = _copy_idiom(scope, clauses, plans, fresh, hot, empty)
    lines = [f"    def _lp_loop(_lp_s, _lp_K, {', '.join(params)}):",
             *(["        _lp_it = iter(_lp_rounds)", "        for _lp_i in _lp_it:"] if copy is not None
               else ["        for _lp_i in _lp_rounds:"]),
             f"            _lp_f = {params[0]}",
             "            _lp_kind = _lp_f.__class__",
             "            while _lp_kind is _lp_V:",
             "                _lp_n = _lp_s.get(_lp_f, _lp_U)",
             "                if _lp_n is _lp_U:",
             "                    break",
             "                _lp_f = _lp_n",
             "                _lp_kind = _lp_f.__class__"]
    lines[1:1] = [f"        _lp_hole{j} = None" for j in fresh]
    for kind in ("_lp_Pair", "_lp_Suffix") if hot >= 0 and clauses[hot] is not None else ():
        # a list cell or a list's rest: its clause at once, the first argument read as such
        w = _Writer(scope, consts, called, mutating=True)
        w.hole_fresh, w.first_kind, w.copy = fresh, kind, copy
        _clause_source(w, hot, clauses[hot], plans[hot])  # type: ignore[arg-type]
        lines += [f"            if _lp_kind is {kind}:", *("        " + line for line in w.lines)]
    lines.append("            _lp_c = _lp_one_list if _lp_kind is _lp_Pair or _lp_kind is _lp_Suffix or "
                 "_lp_kind is list and _lp_f else _lp_one[_lp_f if _lp_kind is str or _lp_kind is int "
                 "else _lp_ikey(_lp_f)]")

    def hand_back(depth: int) -> list[str]:
        w = _Writer(scope, consts, called, mutating=True)
        w.hole_fresh = fresh
        for j in fresh:
            w.unhole(depth, params[j], j)
        return [*w.lines, "    " * depth + f"return _lp_s, _lp_AGAIN, ({args})"]

    order = sorted(range(len(clauses)), key=lambda i: i != hot)
    for n, i in enumerate(order):
        goals = clauses[i]
        lines.append(f"            {'if' if n == 0 else 'elif'} _lp_c == {i}:")
        if goals is None:
            lines += hand_back(4)
            continue
        w = _Writer(scope, consts, called, mutating=True)
        w.hole_fresh, w.copy = fresh, copy
        _clause_source(w, i, goals, plans[i])
        lines.extend("        " + line for line in w.lines)
    lines += ["            else:", *hand_back(4), *hand_back(2)]
    return "\n".join(lines), copy


class _HolePlan:
    """How one clause of a loop meets the open cells (see `_hole_plans`): `opens`, head goal
    number -> (local, position) of a cell it leaves open; `by_eq`, parameter -> position of
    those whose first use is a head `eq` with a structure (which writes into the cell);
    `used_again`, those of them the clause mentions again; `made`, parameters made real
    variables first; `open_args`, (name, position) of the self call's arguments that may be
    open cells."""

    def __init__(self) -> None:
        self.opens: dict[int, tuple[str, int]] = {}
        self.by_eq: dict[str, int] = {}
        self.used_again: set[str] = set()
        self.made: list[str] = []
        self.open_args: list[tuple[str, int]] = []


def _count_names(t: Any, out: dict[str, int]) -> None:
    """Add the names `t` (a template or goal) mentions to the counts `out`."""
    if isinstance(t, _Var):
        out[t.name] = out.get(t.name, 0) + 1
    elif isinstance(t, (_Seq, _Cons)):
        for x in t.items:
            _count_names(x, out)
    elif isinstance(t, _Eq):
        _count_names(t.left, out)
        _count_names(t.right, out)
    elif isinstance(t, (Build, Calls)):
        for x in t.args:
            _count_names(x, out)
    elif isinstance(t, _Expr):
        for n in ast.walk(t.node):
            if isinstance(n, ast.Name):
                out[n.id] = out.get(n.id, 0) + 1


def _self_call_args(scope: Any, g: Any) -> list[str | None] | None:
    """The arguments of `g` if it is a call of the relation itself (each a parameter's or
    local's name, or None for another term); None for any other goal."""
    names = set(scope.params) | set(scope.locals)
    if isinstance(g, Build):
        if g.fn is not SELF_CALL:
            return None
        return [a.name if isinstance(a, _Var) and a.name in names else None for a in g.args]
    if not isinstance(g, _Expr) or not isinstance(g.node, ast.Call) or g.node.keywords \
            or any(isinstance(a, ast.Starred) for a in g.node.args):
        return None
    rel: Any = scope.resolve(g.node.func)
    r = relation_of(rel)
    if r is None or r.fn is not getattr(scope, "fn", None) \
            or r.arity != len(g.node.args):
        return None
    return [a.id if isinstance(a, ast.Name) and a.id in names else None for a in g.node.args]


def _structure_eq(g: Any, params: list[str]) -> tuple[str, Any] | None:
    """(parameter, structure) of a head goal `eq(parameter, structure)` (either way round) whose
    structure (a constant, list, tuple or cell) does not mention the parameter; else None."""
    if not isinstance(g, _Eq):
        return None
    for a, b in ((g.left, g.right), (g.right, g.left)):
        if isinstance(a, _Var) and a.name in params and isinstance(b, (_Const, _Seq, _Cons)):
            counts: dict[str, int] = {}
            _count_names(b, counts)
            return (a.name, b) if a.name not in counts else None
    return None


def _hole_plans(scope: Any, clauses: Sequence[list[Any] | None]) -> tuple[list, dict[int, str]]:
    """Write mode across the rounds of a loop (tail recursion modulo cons): a head goal
    `eq(p, cons(..., r))` whose fresh `r` is only passed on to the self call (position j)
    leaves the cell's tail open instead of making `r` and binding it; the next round finds the
    hole `_lp_HOLE` as its parameter j, and a first use `eq(p_j, structure)` writes the
    structure into the cell (no variable, no binding, no walk). Any other use of the hole
    first makes the deferred variable and puts it in the cell (`_Writer.unhole`), as does
    leaving the loop, so no hole escapes. (the plan of each clause, position -> the fresh
    variable's expression for the positions that can hold a hole)."""
    params = scope.params
    plans: list[_HolePlan | None] = []
    fresh: dict[int, str] = {}
    facts: list[Any] = []
    for goals in clauses:
        if goals is None:
            facts.append(None)
            continue
        head = 0
        while head < len(goals) and isinstance(goals[head], _Eq):
            head += 1
        body = goals[head:]
        call = _self_call_args(scope, body[0]) if len(body) == 1 else None
        counts: dict[str, int] = {}
        first: dict[str, int] = {}
        for i, g in enumerate(goals):
            mentioned: dict[str, int] = {}
            _count_names(g, mentioned)
            for n, c in mentioned.items():
                counts[n] = counts.get(n, 0) + c
                first.setdefault(n, i)
        # the parameter each head goal `eq(parameter, structure)` is about ("" for other goals)
        eqs = [(_structure_eq(g, params) or ("",))[0] for g in goals[:head]]
        opens: dict[int, tuple[str, int]] = {}
        for i, g in enumerate(goals[:head]):
            found = _structure_eq(g, params)
            if found is None or not isinstance(found[1], _Cons) or call is None:
                continue
            last = found[1].items[-1]
            if not isinstance(last, _Var) or last.name in params or counts.get(last.name) != 2 \
                    or call.count(last.name) != 1:
                continue
            j = call.index(last.name)
            k = first.get(params[j])
            later = k is not None and i < k < head and eqs[k] == params[j]
            prefix = scope.prefixes.get(last.name, "")
            made = f"_lp_V({prefix!r})" if prefix else "_lp_new(_lp_V)"
            if j == 0 or later or fresh.setdefault(j, made) != made:
                continue
            opens[i] = (last.name, j)
        facts.append((head, call, counts, first, eqs, opens))
    for fact in facts:
        if fact is None:
            plans.append(None)
            continue
        head, call, counts, first, eqs, opens = fact
        plan = _HolePlan()
        plan.opens = opens
        for j in fresh:
            p = params[j]
            k = first.get(p)
            if k is not None and k < head and eqs[k] == p:
                plan.by_eq[p] = j
                if counts[p] > 1:
                    plan.used_again.add(p)
            elif not (k is not None and k >= head and call is not None and counts[p] == 1 and call[j] == p):
                plan.made.append(p)
            if call is not None and call[j] is not None and (call[j] == p and p not in plan.by_eq
                                                            and p not in plan.made):
                plan.open_args.append((p, j))
        if call is not None:
            plan.open_args += [(r, j) for r, j in opens.values()]
        plans.append(plan)
    return plans, fresh


#: Whether loops recognise a copy clause (`_copy_idiom`); switched off only to compare answers.
COPY_IDIOM = True

#: Copy runs done (`_copy_run` calls that copied or closed something), for tests to see them happen.
copy_runs = 0


class _CopyRun:
    """A loop's copy clause (`_copy_idiom`): its number, the output's position and the
    position whose value the clause `[]` selects puts after the copied elements (None: that
    clause is of another form)."""

    __slots__ = ("clause", "out", "closing")

    def __init__(self, clause: int, out: int, closing: int | None):
        self.clause, self.out, self.closing = clause, out, closing


def _is_empty_list(t: Any) -> bool:
    return isinstance(t, _Seq) and t.kind is list and not t.items \
        or isinstance(t, _Const) and type(t.value) is list and not t.value


def _copy_idiom(scope: Any, clauses: Sequence[list[Any] | None], plans: list, fresh: dict[int, str],
                hot: int, empty: int) -> _CopyRun | None:
    """The loop's copy clause, if clause `hot` (the one a list cell in the first position
    selects) is one: its head takes `[X|T]` first and gives `[X|R]` in another position,
    its body is only the call of the relation itself with T first, R in that position and
    every other argument passed on as it came, X met nowhere else, and R left open by write
    mode (`_hole_plans`). Its rounds then only move elements from the input to the output,
    untouched, and may run at once. The clause `[]` selects closes the output when it is
    `[]` first and the output equal to one of the arguments passed on, nothing else."""
    if not COPY_IDIOM or hot < 0 or clauses[hot] is None or plans[hot] is None:
        return None
    goals: list[Any] = clauses[hot]  # type: ignore[assignment]
    params = scope.params
    call = _self_call_args(scope, goals[-1])
    if call is None or None in call or len(call) != len(params) \
            or not all(isinstance(g, _Eq) for g in goals[:-1]):
        return None
    counts: dict[str, int] = {}
    for g in goals:
        _count_names(g, counts)
    cells: dict[str, tuple[str, str]] = {}  # parameter -> (head, tail) of `eq(parameter, [head|tail])`
    aliases: dict[str, str] = {}  # parameter -> the local it is equal to
    for g in goals[:-1]:
        found = _structure_eq(g, params)
        if found is not None:
            p, t = found
            if not (isinstance(t, _Cons) and len(t.items) == 2
                    and all(isinstance(x, _Var) and x.name not in params for x in t.items)) or p in cells:
                return None
            cells[p] = (t.items[0].name, t.items[1].name)
            continue
        pair = _alias(g, params)
        if pair is None or pair[0] in aliases:
            return None
        aliases[pair[0]] = pair[1]
    first = params[0]
    if first not in cells or len(cells) != 2:
        return None
    x, t = cells.pop(first)
    (out, (x_out, r)), = cells.items()
    o = params.index(out)
    if x_out != x or len({x, t, r}) != 3 or any(counts.get(n) != 2 for n in (x, t, r)) \
            or call[0] != t or call[o] != r or counts[first] != 1 or counts[out] != 1 \
            or o not in fresh or (r, o) not in plans[hot].opens.values():
        return None
    passed = []
    for k, p in enumerate(params):
        if k == 0 or k == o:
            continue
        if p in aliases:
            v = aliases[p]
            if call[k] != v or counts.get(v) != 2 or counts[p] != 1:
                return None
        elif call[k] != p or counts[p] != 1:
            return None
        passed.append(k)
    return _CopyRun(hot, o, _closing(params, clauses[empty] if empty >= 0 else None, o, passed))


def _alias(g: Any, params: list[str]) -> tuple[str, str] | None:
    """(parameter, local) of a head goal `eq(parameter, local)` (either way round); else None."""
    for a, b in ((g.left, g.right), (g.right, g.left)):
        if isinstance(a, _Var) and a.name in params and isinstance(b, _Var) and b.name not in params:
            return a.name, b.name
    return None


def _closing(params: list[str], goals: list[Any] | None, o: int, passed: list[int]) -> int | None:
    """The position k (one of `passed`) when `goals` are head goals saying only that the first
    argument is `[]` and the output (position o) is argument k; else None."""
    if goals is None or not all(isinstance(g, _Eq) for g in goals):
        return None
    counts: dict[str, int] = {}
    for g in goals:
        _count_names(g, counts)
    empty = 0
    equal: list[tuple[str, str]] = []
    linked: dict[str, list[str]] = {}
    for g in goals:
        if any(isinstance(a, _Var) and a.name == params[0] and _is_empty_list(b)
               for a, b in ((g.left, g.right), (g.right, g.left))):
            empty += 1
            continue
        if not (isinstance(g.left, _Var) and isinstance(g.right, _Var)):
            return None
        a, b = g.left.name, g.right.name
        if a in params and b in params:
            equal.append((a, b))
            continue
        pair = _alias(g, params)
        if pair is None:
            return None
        linked.setdefault(pair[1], []).append(pair[0])
    for v, ps in linked.items():
        if len(ps) == 2 and counts[v] == 2:
            equal.append((ps[0], ps[1]))
        elif len(ps) != 1 or counts[v] != 1:
            return None
    if empty != 1 or counts[params[0]] != 1 or len(equal) != 1:
        return None
    out = params[o]
    a, b = equal[0]
    other = b if a == out else a if b == out else None
    if other is None or counts[out] != 1 or counts[other] != 1 or params.index(other) not in passed:
        return None
    return params.index(other)


#: `_copy_run`'s closing argument when the loop has no closing clause of the copy's form.
_NO = object()


def _copy_run(s: Any, xs: Any, cell: ConsPair, ys: Any, left: int) -> tuple[Any, ConsPair, int] | None:
    """The rounds of a loop's copy clause (`_copy_idiom`) that follow while the input `xs` is
    a list cell, at most `left` of them, run at once in the bindings `s`: the elements read
    (not walked) are written after the open cell `cell` as cells, the last one left open.
    (the input's rest, the new open cell, the rounds run); None when the input ends in `[]`
    with a round left for the closing clause and `ys` (its argument, unless `_NO`) is a proper
    list: the elements and that list are then written after `cell` as one Python list, which
    is what that clause would have bound its output to, and the call is done."""
    global copy_runs
    items: list = []
    n = 0
    while n < left:
        k = xs.__class__
        if k is ConsPair:
            rest = xs.cdr
            if rest is _HOLE:  # an open cell of the loop's: the ordinary round reads it
                break
            items.append(xs.car)
            xs = rest
            n += 1
        elif k is Variable:
            bound = s.get(xs, equality._UNBOUND)
            if bound is equality._UNBOUND:
                break
            xs = bound
        elif k is list or k is Suffix:
            whole, start = (xs, 0) if k is list else (xs.items, xs.start)
            take = min(len(whole) - start, left - n)
            if take <= 0:
                break
            items += whole[start:start + take]
            n += take
            xs = terms.rest_of(whole, start + take)
        else:
            break
    if ys is not _NO and n < left and xs.__class__ is list and not xs:
        ys = equality.walk(ys, s)
        parts = terms.list_parts(ys)
        if parts is not None:
            whole, start = parts
            cell.cdr = (items + (whole[start:] if start else whole)) if items else ys
            copy_runs += 1
            return None
    if not n:
        return xs, cell, 0
    new = object.__new__
    for x in items:
        c = new(ConsPair)
        c.car = x
        cell.cdr = c
        cell = c
    cell.cdr = _HOLE
    copy_runs += 1
    return xs, cell, n


def compile_relation(fn: Callable[..., Any], name: str) -> "CompiledRelation":
    """The clauses of `fn`, compiled; `NotCompiled` when its body is not plain goal
    construction (see the module), said first by a `NotCompiledWarning`. Its clauses as
    terms (`CompiledRelation.terms`) and whether its self-calls still call it
    (`CompiledRelation.still_self`) are what `loops.runs_as` takes."""
    reader = _Reader(fn)
    try:
        clauses = reader.read()
        compiled = compile_clauses(name, reader, clauses, fn.__globals__, loop=True)
    except NotCompiled as exc:
        _warn_not_compiled(fn, name, str(exc))
        raise
    self_calls: list[ast.expr] = []
    compiled.terms = _terms_of(reader, clauses, self_calls)
    compiled.still_self = _still_named(reader, self_calls)
    return compiled


def _still_named(reader: _Reader, nodes: list[ast.expr]) -> Callable[[], bool]:
    """Whether each of `nodes` (what the clauses call: names, dotted names) still refers to
    what it refers to now: a global name rebound later makes the clauses call another."""
    now = [(node, reader.resolve(node)) for node in nodes]
    if all(isinstance(node, ast.Name) and node.id not in reader.cells for node, _ in now):
        names = list(dict.fromkeys((node.id, f) for node, f in now))  # type: ignore[attr-defined]
        get = reader.fn.__globals__.get
        if len(names) == 1:  # the common case: one name, one dictionary look-up a call
            name, f = names[0]
            return lambda: get(name) is f
        return lambda: all(get(name) is f for name, f in names)
    return lambda: all(reader.resolve(node) is f for node, f in now)


class NotCompiledWarning(UserWarning):
    """An `@relation` function whose body is not plain goal construction: it runs as
    written at every call (same answers, slower), and `Relation.why` says why."""


def _warn_not_compiled(fn: Callable[..., Any], name: str, reason: str) -> None:
    """The `NotCompiledWarning` for `fn`, at the line of its definition."""
    code = getattr(fn, "__code__", None)
    message = f"relation {name} is not compiled: {reason}; it runs as written at every call"
    if code is None:
        warnings.warn(message, NotCompiledWarning, stacklevel=4)
        return
    warnings.warn_explicit(message, NotCompiledWarning, code.co_filename, code.co_firstlineno,
                           module=getattr(fn, "__module__", None) or "<unknown>")


#: What a body goal that is a call of the relation itself is in a clause's terms (`clause_terms`).
SELF = "self"
#: What dif/2 (`neq`) is in a clause's terms.
DIF = "dif"


def clause_terms(fn: Callable[..., Any]) -> list[tuple[tuple, list[tuple[str, tuple]]]] | None:
    """The clauses of the `@relation` function `fn` as terms, the way `loops.shape` takes
    them; None when it has none (`NotCompiled`) or they hold other goals."""
    reader = _Reader(fn)
    try:
        return _terms_of(reader, reader.read())
    except NotCompiled:
        return None


def _terms_of(reader: _Reader, clauses: list[list[Any]],
              self_calls: list[ast.expr] | None = None) -> list[tuple[tuple, list[tuple[str, tuple]]]] | None:
    """Each clause as (its head's arguments, its body's calls (callee, arguments)), the
    head's equations solved, for `loops.shape`: fresh variables for the names; a call of
    the relation itself is `SELF` (what it is called by added to `self_calls`), `neq`
    is `DIF`. None for a clause whose head cannot hold, an equation after a call, or
    a call of anything else."""
    out = []
    for goals in clauses:
        names: dict[str, Variable] = {}

        def term(t: Any) -> Any:
            if isinstance(t, _Var):
                v = names.get(t.name)
                if v is None:
                    v = names[t.name] = Variable(t.name)
                return v
            if isinstance(t, _Const):
                return t.value
            if isinstance(t, _Seq):
                items = [term(x) for x in t.items]
                return items if t.kind is list else tuple(items)
            if isinstance(t, _Cons):
                return terms.cons(*[term(x) for x in t.items])
            return None

        s: Any = Map()
        head = 0
        while head < len(goals) and isinstance(goals[head], _Eq):
            s = equality.unify(term(goals[head].left), term(goals[head].right), s)
            if s is False:
                return None
            head += 1
        body = []
        for g in goals[head:]:
            called = g.node if isinstance(g, _Expr) and isinstance(g.node, ast.Call) else None
            if called is None or called.keywords:
                return None
            f = reader.resolve(called.func)
            r = getattr(f, "relation", None)
            callee = SELF if getattr(r, "fn", None) is reader.fn else DIF if f is disequality.neq else None
            args = [reader.term(a) for a in called.args]
            if callee is None or any(a is None for a in args):
                return None
            if callee == SELF and self_calls is not None:
                self_calls.append(called.func)
            body.append((callee, tuple(equality.reify(term(a), s) for a in args)))
        out.append((tuple(equality.reify(term(_Var(p)), s) for p in reader.params), body))
    return out


#: What a deterministic loop gives for the continuation when it hands the call back.
AGAIN = object()

#: A loop's parameter that is an open cell's tail (`_hole_plans`); never seen outside the loop.
_HOLE = object()

#: Rounds of a compiled relation's deterministic loop (`_loop_source`) before it hands back
#: to the search: a bound on one step's work, so turns stay short.
TAIL_CALLS = 128


def compile_clauses(name: str, scope: Any, clauses: list[list[Any]], namespace: dict,
                    loop: bool = False) -> "CompiledRelation":
    """`clauses` (each a list of goal templates: `_Eq`, `Build`, `_Expr`) compiled to one
    function each, taking (s, K, *scope.extra, *scope.params); `namespace` is the globals
    the clauses' expressions are read in. `scope` says what names mean: `params`, `extra`
    (more parameters, bound), `locals`, `prefixes`, `cells` (closure cells by name),
    `resolve(node)`. With `loop` (and no `extra`), also the relation's deterministic loop
    (`_loop_source`), when its first argument can select a single clause."""
    consts: list[Any] = []
    called: list[tuple[Any, Any]] = []
    sources, keys = [], []
    for i, goals in enumerate(clauses):
        src, key = _clause_source(_Writer(scope, consts, called), i, goals)
        sources.append(src)
        keys.append(key)
    one = _single_clauses(keys) if loop and not scope.extra and scope.params else None
    copy = None
    if one is not None:
        source, copy = _loop_source(scope, consts, called, clauses, one[_LIST_KEY], one["[]"])
        sources.append(source)
    functions, loop_made, factory = _made(name, scope, sources, len(clauses), one, consts, called, namespace)
    if loop_made is not None:
        loop_made.copy = copy
    return CompiledRelation(functions, keys, factory, loop_made)


#: The `fn` of a `Build` that is a call of the relation whose loop `compile_loop` makes.
SELF_CALL: Any = object()


def compile_loop(name: str, scope: ClauseScope, clauses: list[list[Any] | None], keys: list[Any],
                 owner: Any) -> Callable[..., Any] | None:
    """The deterministic loop (`_loop_source`) of clauses given as goal templates, their own
    calls `Build(SELF_CALL, args)` (gone round again while `owner.looping`, handed back
    otherwise); `keys` are their first arguments' index keys, a clause given as None hands
    the call back. None when no first argument selects a single clause."""
    one = _single_clauses(keys) if scope.params and not scope.extra else None
    if one is None:
        return None
    consts: list[Any] = []
    called: list[tuple[Any, Any]] = []
    source, copy = _loop_source(scope, consts, called, clauses, one[_LIST_KEY], one["[]"])
    loop = _made(name, scope, [source], 0, one, consts, called, {}, owner)[1]
    loop.copy = copy
    return loop


def _made(name: str, scope: Any, sources: list[str], n: int, one: Any, consts: list, called: list,
          namespace: dict, owner: Any = None) -> tuple[list, Any, str]:
    """(the clause functions, the loop or None, the source) of generated `sources`."""
    helpers = {
        "_lp_V": Variable, "_lp_U": equality._UNBOUND, "_lp_unify": unify_subst, "_lp_cell": _cell,
        "_lp_unify_m": equality.unify_mutation, "_lp_one": one, "_lp_ikey": index_key,
        "_lp_one_list": None if one is None else one[_LIST_KEY],  # the list cell's, looked up once
        "_lp_rounds": range(TAIL_CALLS), "_lp_AGAIN": AGAIN, "_lp_HOLE": _HOLE,
        "_lp_copy": _copy_run, "_lp_NO": _NO,
        "_lp_cons": terms.cons, "_lp_Suffix": Suffix, "_lp_Pair": ConsPair,
        "_lp_Eq": streams.Eq, "_lp_Computed": Computed, "_lp_all": all_of, "_lp_Apply": streams.Apply, "_lp_new": object.__new__, "_lp_k": consts,
        **{f"_lp_fn{i}": fn for i, (fn, _) in enumerate(called)},
        **{f"_lp_rel{i}": r for i, (_, r) in enumerate(called)},
        **{f"_lp_cell_{c}": cell for c, cell in scope.cells.items()}, "_lp_owner": owner,
    }
    made = ", ".join(f"_lp_clause{i}" for i in range(n))
    factory = (f"def _lp_make({', '.join(helpers)}):\n" + "\n".join(sources)
               + f"\n    return [{made}], {'_lp_loop' if one is not None else 'None'}\n")
    namespace_: dict[str, Any] = {}
    code = compile(factory, f"<logicpy: clauses of {name}>", "exec")
    exec(code, namespace_)  # noqa: S102  source generated above from the clauses' own terms
    make = types.FunctionType(namespace_["_lp_make"].__code__, namespace, "_lp_make")
    functions, loop_made = make(*helpers.values())
    return functions, loop_made, factory


class _Single(dict):
    """A first argument's `index_key` -> the number of the one clause whose head may match
    it, or -1 (none, or several)."""

    def __init__(self, by_key: dict, open_one: int):
        super().__init__(by_key)
        self.open_one = open_one

    def __missing__(self, key: Any) -> int:
        return self.open_one


def _single_clauses(keys: list) -> _Single | None:
    """`_lp_one` of the loop for clauses with these first-argument keys; None when no first
    argument selects a single clause (no loop then)."""
    open_ = [i for i, key in enumerate(keys) if key is None]
    by_key: dict = {}
    for i, key in enumerate(keys):  # a key's one clause, if no other and no open one can match it
        if key is not None:
            by_key[key] = -1 if key in by_key or open_ else i
    by_key[None] = 0 if len(keys) == 1 else -1
    single = _Single(by_key, open_[0] if len(open_) == 1 else -1)
    return single if any(v >= 0 for v in by_key.values()) or single.open_one >= 0 else None


class CompiledRelation:
    """A relation's clause functions (see the module), the index on their first argument
    (`index[index_key(first)]` are the candidates for a walked first argument) and its
    deterministic loop (`_loop_source`; None: none); and, for clauses given a loop
    (`loops`), that loop (`runs`, run instead of the clauses while `loops.ENABLED`; a
    relation given one has no clauses here, `[]`, until they are needed); `terms`, the
    clauses as terms when they are all calls of the relation itself and `neq`
    (`clause_terms`), else None, and `still_self()`, whether the calls marked `SELF` there
    still call the relation (see `loops.runs_as`)."""

    __slots__ = ("clauses", "index", "source", "loop", "runs", "terms", "still_self")

    def __init__(self, clauses: list[Callable[..., Any]], keys: list[Any], source: str, loop: Any = None,
                 runs: Any = None):
        self.clauses = clauses
        self.source = source
        self.loop = loop
        self.runs = runs
        self.terms: list | None = None
        self.still_self: Callable[[], bool] | None = None
        self.index: _Index | None = None
        if len(clauses) > 1 and any(k is not None for k in keys):
            self.index = _Index(clauses, keys)

    def without_loop(self) -> "CompiledRelation":
        """The same clauses, not run as a loop."""
        plain = CompiledRelation(self.clauses, [], self.source, self.loop)
        plain.index = self.index
        return plain


class _Index(dict):
    """A first argument's `index_key` -> the clauses whose head may match it, in order: those
    with that key and those that match any first argument. None (a variable) gets every
    clause; a key no clause has, the latter alone."""

    def __init__(self, clauses: list, keys: list):
        super().__init__()
        numbered: dict = {}  # key -> the numbers of its clauses and of the open ones, in order
        open_ = [i for i, k in enumerate(keys) if k is None]
        for i, k in enumerate(keys):
            if k is not None:
                numbered.setdefault(k, []).append(i)
        for key, numbers in numbered.items():
            self[key] = [clauses[i] for i in sorted(numbers + open_)]
        self.open = [clauses[i] for i in open_]
        self[None] = list(clauses)

    def __missing__(self, key: Any) -> list:
        return self.open
