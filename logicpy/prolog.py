"""Prolog programs on logicpy's own engine: clauses compiled to logicpy relations.

    >>> from logicpy.core import run, var
    >>> family = consult_text('''
    ...     parent(tom, bob).  parent(bob, ann).
    ...     ancestor(X, Y) :- parent(X, Y).
    ...     ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).
    ... ''')
    >>> q = var()
    >>> sorted(run(0, q, family.ancestor("tom", q)))
    ['ann', 'bob']

A predicate `name/arity` is a relation: calling it with terms gives a goal that, when the
search reaches it, takes the clauses that can match the call (`core.index`: by the first
argument's principal functor, or by another bound argument's), unifies each one's head
with the arguments (each clause compiled at its first call by
`core.clauses`: fresh variables per call, head unification inline) and runs the body,
translated as the toplevel translates queries (`repl.goals`). The candidate clauses whose
heads unify are a disjunction: a search in Prolog order (`run(..., order="prolog")`, and
`Program.query`, which uses the program's `order`) tries them depth first in clause order,
giving SWI-Prolog's answers in its order, and `!` has its ISO meaning (it drops the
choice points made since the predicate was called); the default interleaved order is
complete and fair but not Prolog's, and refuses cut. Recursion costs no Python stack. `:- table p/2.` makes `p/2` a `tabled` relation; `:- dynamic p/1.`
declares a predicate with no clauses yet. Clauses are added with `assertz`/`asserta` and
removed with `retract` (a call sees the clauses there were when it started).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cons.core import ConsPair  # type: ignore[import-untyped]

from .core.control import IfThenElse
from .core.procedures import LOOP_LATER, Procedure, first_of
from .core.streams import ORDERS, Apply, Call, Cut, CutBarrier, Disj, conj, disj, eq, fail
from .core.terms import Term, Variable, _cell, format_term, is_var, term_variables
from .errors import InputError, LogicpyError, PrologError, PrologSyntaxError, TermError
from .inputs import read_text
from .core import loops
from .core.equality import reify, unify_subst
from .core.index import ClauseIndex
from .core.clauses import (SELF_CALL, Branch, Build, Calls, all_of, ClauseScope, Inline, Name, NotCompiled,
                           compile_clauses, compile_loop, index_key, term_template, unify_template)
from .repl import arith
from .repl.goals import Interrupt, Relations, call_goal, control_construct, plain_call, term_builtin, translate
from .repl.reader import STANDARD, read_clauses, read_query, using

__all__ = ["Program", "consult", "consult_text", "LIBRARIES"]

Key = tuple[str, int]

_NOT_YET = object()
#: The call at which a fact without variables is compiled (`Clause._unified`).
COMPILED_AT = 500
_NO_BINDINGS: dict = {}  # the substitution of a term with no bindings (a clause given to `retract`)

#: The most clauses a relation given a loop has (`core.lists`): a predicate with more
#: does not run as one, and is not compared with their shapes.
_SHAPED_CLAUSES = 4


@dataclass(slots=True)
class Clause:
    """`head :- body` with its variables (renamed apart at every call); `body` is "true" for a
    fact; `key` is the first argument's principal functor (None: a variable, or no argument)."""

    head: tuple
    body: Term
    variables: Sequence
    key: Any = None
    order: int = field(default=0, init=False, repr=False)
    """Its place in the predicate's clause order (`core.index`)."""
    erased: bool = field(default=False, init=False, repr=False)
    """Whether it was removed (calls made before still run it)."""
    code: Any = field(default=_NOT_YET, init=False, repr=False)
    """`(s, K, barrier, *args) -> (s', K') | None`, made at the clause's first call: the clause
    compiled (`core.clauses`: the head unified inline against the arguments in the
    substitution s, the body's goals pushed on K), or run as written when it cannot be; a
    fact without variables is unified as it stands until its `COMPILED_AT`th call."""

    _copy: Any = field(default=None, init=False, repr=False)  # `renamed`'s copier, made when first needed

    def __post_init__(self) -> None:
        self.key = index_key(self.head[0]) if self.head else None

    def renamed(self) -> tuple[tuple, Term]:
        """A copy of (head arguments, body) with fresh variables: what runs a clause as written
        (in a state with constraints) and `retract` use; compiled clauses do not."""
        if self._copy is None:
            self._copy = _copier((self.head, self.body), self.variables)
        return self._copy()

    def compiled(self, predicate: "Predicate") -> Callable[..., Any]:
        """`code`, made now if not yet."""
        if self.code is _NOT_YET:
            ground_fact = self.body == "true" and not self.variables
            self.code = self._unified(predicate) if ground_fact else self._compile(predicate)
        return self.code

    def _compile(self, predicate: "Predicate") -> Callable[..., Any]:
        try:
            return _compile_clause(self, predicate.program.relations)
        except NotCompiled:
            def as_written(S: Any, K: Any, barrier: CutBarrier | None, *args: Term) -> tuple[Any, Any]:
                return S, (predicate._clause_goal(self, args, barrier), K)
            return as_written

    def _unified(self, predicate: "Predicate") -> Callable[..., Any]:
        """`code` for a fact without variables until it is compiled: each argument unified
        with the head's in turn (an unbound one bound to it, an atom or integer compared,
        anything else by `unify_subst`), about 1.5 times as slow a call as compiled code
        but with nothing to make first: compiling costs as much as some hundreds of calls,
        and a table of facts each looked up a few times is never compiled."""
        head, calls = self.head, 0

        def fact(S: Any, K: Any, barrier: CutBarrier | None, *args: Term) -> tuple[Any, Any] | None:
            nonlocal calls
            calls += 1
            if calls == COMPILED_AT:  # the following calls run compiled code
                self.code = self._compile(predicate)
            for a, h in zip(args, head):
                while a.__class__ is Variable:
                    bound = S.get(a, _NOT_YET)
                    if bound is _NOT_YET:
                        break
                    a = bound
                kind = a.__class__
                if kind is Variable:
                    S = S.set(a, h)
                elif (kind is str or kind is int) and h.__class__ is kind:
                    if a != h:
                        return None
                else:
                    S = unify_subst(a, h, S)
                    if S is False:
                        return None
            return S, K
        return fact


def _compile_clause(clause: Clause, relations: Relations) -> Callable[..., Any]:
    """The clause as one generated function (`Clause.compiled`), its body as
    `_body_templates` reads it."""
    names: dict = {}
    params = [f"_a{i}" for i in range(len(clause.head))]
    goals: list[Any] = [unify_template(Name(p), term_template(arg, names)) for p, arg in zip(params, clause.head)]
    barrier = Name("_lp_barrier")
    goals += _body_templates(_conjuncts(clause.body), names, relations, barrier, unifying=True)
    scope = ClauseScope(params, ("_lp_barrier",), list(names.values()))
    return compile_clauses("clause", scope, [goals], {}).clauses[0]


def _body_templates(goals: list[Term], names: dict, relations: Relations, barrier: Name,
                    unifying: bool = False) -> list[Any]:
    """The templates of body goals `goals` (of a clause, or of a branch): the arithmetic
    tests and `is/2` they begin with run in the clause's function (`Inline`: on integers as
    Python's operators, a value computed for a fresh variable bound to nothing), with
    `unifying` so do unifications before them (as head unifications); an if-then-else,
    `(If -> Then)` or negation after them whose condition is arithmetic tests is decided
    there too (`Branch`, its branches read alike); every other goal is a `_goal_template`."""
    out: list[Any] = []
    leading, inlined = True, False
    for g in goals:
        if g == "true":
            continue
        if leading:
            inline = _inline(g, names)
            if inline is not None:
                out.append(inline)
                inlined = True
                continue
            if unifying and not inlined and isinstance(g, tuple) and len(g) == 3 and g[0] == "=":
                out.append(unify_template(term_template(g[1], names), term_template(g[2], names)))
                continue
            leading = False
            branch = _branch(g, names, relations, barrier)
            if branch is not None:
                out.append(branch)
                continue
        out.append(_goal_template(g, names, relations, barrier))
    return out


def _branch(g: Term, names: dict, relations: Relations, barrier: Name) -> Branch | None:
    """`( If -> Then ; Else )`, `( If -> Then )` or `\\+ If` as a `Branch` when If is a
    conjunction of arithmetic comparisons, else None."""
    if isinstance(g, tuple) and len(g) == 3 and g[0] == ";" and _if_then(g[1]):
        condition, then, otherwise = g[1][1], g[1][2], _conjuncts(g[2])
    elif _if_then(g):
        condition, then, otherwise = g[1], g[2], None
    elif isinstance(g, tuple) and len(g) == 2 and g[0] == "\\+":
        condition, then, otherwise = g[1], "fail", []
    else:
        return None
    tests = [_inline(c, names) for c in _conjuncts(condition) if c != "true"]
    if not tests or any(t is None or t.target is not None for t in tests):
        return None
    return Branch(tests, _body_templates(_conjuncts(then), names, relations, barrier),  # type: ignore[arg-type]
                  None if otherwise is None else _body_templates(otherwise, names, relations, barrier), IfThenElse)


def _goal_template(g: Term, names: dict, relations: Relations, barrier: Name) -> Any:
    """The template of body goal g of a compiled clause: a predicate's or relation's call made
    directly, `!` a cut to the clause's `barrier`, conjunctions, disjunctions, if-then-else
    (`IfThenElse`, when the condition has no cut) and negation with their goals compiled
    alike, built-ins of terms made directly; any other goal translated when the body is
    built, as the toplevel translates it."""
    if g == "true":
        return Build(all_of, [])
    if g in ("fail", "false"):
        return Build(_any, [])
    if g == "!":
        return Build(Cut, [barrier])
    if isinstance(g, str) and plain_call(g, 0):
        return _call_template(relations, g, [])
    if isinstance(g, tuple) and g and isinstance(g[0], str):
        name, arity = g[0], len(g) - 1
        if plain_call(name, arity):
            return _call_template(relations, name, [term_template(a, names) for a in g[1:]])
        if name == "=" and arity == 2 and control_construct(name, arity):
            return unify_template(term_template(g[1], names), term_template(g[2], names))
        if control_construct(name, arity):
            if name == ",":
                return Build(all_of, [_goal_template(c, names, relations, barrier) for c in _conjuncts(g)])
            if name == ";" and _if_then(g[1]) and not _cuts(g[1][1]):
                return Build(IfThenElse, [_goal_template(c, names, relations, barrier) for c in (*g[1][1:], g[2])])
            if name == ";" and not _if_then(g[1]) and not (isinstance(g[1], tuple) and len(g[1]) == 3
                                                           and g[1][0] == "*->"):
                return Build(_any, [_goal_template(c, names, relations, barrier) for c in g[1:]])
            if name == "->" and not _cuts(g[1]):
                return Build(IfThenElse, [_goal_template(c, names, relations, barrier) for c in g[1:]])
            if name == "\\+" and not _cuts(g[1]):
                return Build(IfThenElse, [_goal_template(g[1], names, relations, barrier),
                                          Build(_any, []), Build(all_of, [])])
        made = term_builtin(name, arity)
        if made is not None:
            return Build(functools.partial(made, relations), [term_template(a, names) for a in g[1:]])
    return Build(_translator(relations), [term_template(g, names), barrier])


def _any(*goals: Any) -> Any:
    """Any of the goals, in order (none: `fail`)."""
    return fail if not goals else goals[0] if len(goals) == 1 else Disj(goals)


def _if_then(g: Term) -> bool:
    return isinstance(g, tuple) and len(g) == 3 and g[0] == "->"


def _cuts(g: Term) -> bool:
    """Whether goal term g holds a `!` anywhere (a condition that does runs as translated)."""
    stack = [g]
    while stack:
        t = stack.pop()
        if t == "!":
            return True
        if isinstance(t, tuple):
            stack.extend(t[1:])
    return False


#: Prolog's arithmetic comparisons as Python's operators on two integers.
_INT_COMPARISONS = {"<": "<", ">": ">", "=<": "<=", ">=": ">=", "=:=": "==", "=\\=": "!="}


def _inline(g: Term, names: dict) -> Inline | None:
    """`is/2` or an arithmetic comparison as an `Inline` goal of a compiled clause (its
    integer fast path when its expressions are made of integers and `+`/`-`), else None."""
    if not (isinstance(g, tuple) and len(g) == 3 and isinstance(g[0], str)):
        return None
    op, left, right = g
    if op == "is":
        return Inline(_evaluated, [term_template(right, names)], term_template(left, names),
                      _integer_expression(right, names))
    if op in _INT_COMPARISONS:
        a, b = _integer_expression(left, names), _integer_expression(right, names)
        fast = None if a is None or b is None else (_INT_COMPARISONS[op], a, b)
        return Inline(_COMPARED[op], [term_template(left, names), term_template(right, names)], None, fast)
    return None


#: Prolog's evaluable functions that are Python's operators on two integers.
_INT_OPERATORS = {"+": "+", "-": "-", "*": "*", "mod": "%", "//": "//"}


def _operand(t: Term, least: int) -> bool:
    """A variable, or an integer of at least `least` (an operand of a fast `//`)."""
    return t.__class__ is Variable or t.__class__ is int and t >= least


def _integer_expression(t: Term, names: dict) -> Any:
    """An `Inline` fast expression for arithmetic term t: integers and variables under
    `+`, `-`, `*`, `mod` (by a variable or a nonzero integer) and `//` (of a variable or a
    natural number, by a variable or a positive integer), which on such integers are
    Python's operators; None for any other."""
    if t.__class__ is int or t.__class__ is Variable:
        return term_template(t, names)
    if isinstance(t, tuple) and len(t) == 3 and t[0] in _INT_OPERATORS:
        if t[0] == "mod" and not (t[2].__class__ is Variable or t[2].__class__ is int and t[2] != 0):
            return None
        if t[0] == "//" and not (_operand(t[1], 0) and _operand(t[2], 1)):
            return None
        a, b = _integer_expression(t[1], names), _integer_expression(t[2], names)
        return None if a is None or b is None else (_INT_OPERATORS[t[0]], a, b)
    return None


def _evaluated(s: Any, expr: Term) -> Any:
    """is/2's value of `expr` in substitution s."""
    return arith.evaluate(reify(expr, s))


def _comparison(op: str) -> Callable[[Any, Term, Term], bool]:
    def compared(s: Any, a: Term, b: Term) -> bool:
        return arith.compare(op, reify(a, s), reify(b, s))
    return compared


_COMPARED = {op: _comparison(op) for op in _INT_COMPARISONS}


def _call_template(relations: Relations, name: str, args: list) -> Any:
    """The template of a call of `name` on `args` (templates): an `Apply` of the program's
    predicate made in the clause's code while it is the one by that name (`Calls`), else
    (none yet, or replaced) found when the body is built (`_caller`)."""
    caller = _caller(relations, name, len(args))
    predicate = relations.program.predicates.get((name, len(args)))
    return Build(caller, args) if predicate is None else Calls(predicate, args, caller)


def _caller(relations: Relations, name: str, arity: int) -> Callable[..., Any]:
    """A function of a call's arguments: the goal of the program's predicate `name/arity`
    as it is when the body is reached, else of the relation by that name."""
    predicates = relations.program.predicates
    key = (name, arity)

    def call(*args: Term) -> Any:
        predicate = predicates.get(key)
        if predicate is not None:
            return predicate.relation(*args)
        return call_goal(relations, name, args)
    return call


def _translator(relations: Relations) -> Callable[[Term, Any], Any]:
    def translated(term: Term, barrier: Any) -> Any:
        return translate(term, relations, barrier)
    return translated


def _copier(term: Term, variables: Sequence) -> Callable[[], Any]:
    """A function returning a copy of `term` with fresh variables in place of `variables`
    (compiled Python: a constructor per compound or list cell, ground parts shared)."""
    if not variables:
        return lambda: term
    index = {v: i for i, v in enumerate(variables)}
    constants: list = []

    def source(t: Term) -> tuple[str, bool]:  # (Python expression, holds a variable)
        if is_var(t):
            return f"v{index[t]}", True
        kind = type(t)
        if kind is tuple or kind is list or kind is ConsPair:
            parts = [source(a) for a in ((t.car, t.cdr) if kind is ConsPair else t)]
            if any(has for _, has in parts):
                inner = ", ".join(text for text, _ in parts)
                if kind is tuple:
                    return f"({inner},)", True
                return (f"[{inner}]", True) if kind is list else (f"_cell({inner})", True)
        constants.append(t)
        return f"k[{len(constants) - 1}]", False

    expression = source(term)[0]
    fresh = "".join(f"    v{i} = V()\n" for i in range(len(variables)))
    namespace: dict[str, Any] = {"V": Variable, "_cell": _cell, "k": constants}
    exec(f"def renamed():\n{fresh}    return {expression}\n", namespace)  # noqa: S102  code built above
    renamed: Callable[[], Any] = namespace["renamed"]
    return renamed


class Predicate(Procedure):
    """The clauses of `name/arity` (consulted or asserted) as a procedure (`core.procedures`:
    the one decision of how a call runs), and the relation that calls it (`relation`)."""

    arity: int

    def __init__(self, program: "Program", name: str, arity: int):
        self.program, self.name, self.arity = program, name, arity
        self.clauses = ClauseIndex(arity)
        """Its clauses in order, indexed on their arguments (`core.index`)."""
        self.clauses_for = self.clauses.matching  # what `Procedure.expand` asks: the candidates
        self.relation: Callable[..., Any] = self._call
        self._tabled: Any = None
        self._loop: Any = _NOT_YET  # the deterministic loop (`_make_loop`), made when first useful
        self._in_loop: frozenset = frozenset()  # ids of the clauses the loop runs itself
        self._runs: Any = _NOT_YET  # the loop the clauses run as (`core.loops`; None: none), made when first called
        self.looping = True
        """Whether a call of `name/arity` is still a call of this predicate (false once tabled
        or replaced): its loop goes round only then."""

    @property
    def key(self) -> Key:
        return self.name, self.arity

    def table(self) -> None:
        """Make the predicate a `tabled` relation (answers per call variant, left recursion ends)."""
        if self._tabled is None:
            from .core.tabling import tabled  # imported when a program first tables a predicate

            self._tabled = tabled(self._clauses_goal)
            self.relation = self._tabled
            self.looping = False
            self.program._tabled_predicates.add(self)

    def add(self, clause: Clause, at_end: bool) -> None:
        """Add `clause` after the others (`assertz`) or before them (`asserta`)."""
        self.clauses.add(clause, at_end)
        self._changed()

    def remove(self, clause: Clause) -> None:
        """Remove `clause`; calls already made still run it (the logical update view)."""
        self.clauses.remove(clause)
        self._changed()

    def _changed(self) -> None:
        """Clauses were added or removed: its loops are remade when next needed, and answers
        tabled so far may be wrong."""
        self._loop = _NOT_YET
        self._in_loop = frozenset()
        self._runs = _NOT_YET
        for predicate in self.program._tabled_predicates:
            predicate._tabled.clear()

    def _call(self, *args: Term) -> Apply:
        return Apply(self, args)

    _clauses_goal = _call

    def expand(self, S: Any, K: Any, args: tuple, search: Any) -> tuple[Any, Any] | None:
        """A call reached by the search (see `streams.Apply`), run as `Procedure.expand`
        decides: the candidate clauses' heads are unified now, the first that unifies goes
        on and the others are left as alternatives (choice points in Prolog order, whose cuts
        cut back to this call; tasks otherwise). In a state with constraints each clause runs
        as written, its head an `eq`."""
        if Interrupt.requested:
            Interrupt.requested = False
            raise KeyboardInterrupt
        return Procedure.expand(self, S, K, args, search)

    def explain(self) -> str:
        """How a call of it runs (`Procedure.explain`), a tabled predicate's calls through
        its table."""
        way = Procedure.explain(self)
        if self._tabled is None:
            return way
        name, _, how = way.partition(": ")
        return f"{name}: tabled (each call variant's answers kept, filled by its clauses); {how}"

    # ---- what `Procedure.expand` and `explain` ask of consulted clauses

    def describe_clauses(self) -> str:
        n = len(self.clauses)
        compiled = "each compiled at its first call"
        if any(c.body == "true" and not c.variables for c in self.clauses):
            compiled += f" (a fact without variables at its {COMPILED_AT}th)"
        parts = [f"{n} clause{'' if n == 1 else 's'}, {compiled}"]
        # the first argument's index when a clause's first argument is bound; another's once a call made it
        indexed = [i + 1 for i, index in enumerate(self.clauses.indexes)
                   if index is not None and (i or any(c.key is not None for c in self.clauses))]
        if n > 1 and indexed:
            parts.append(f"indexed on argument{'' if len(indexed) == 1 else 's'} {','.join(map(str, indexed))}")
        if self._loop is _NOT_YET:
            if any(self._calls_itself_last(c) for c in self.clauses):
                parts.append("a deterministic loop, made at the first call that goes round")
        elif self._loop is not None:
            parts.append("deterministic loop")
        return ", ".join(parts)

    def loop_runs(self) -> loops.Runs | None:
        runs = self._runs
        if runs is _NOT_YET:
            if not loops.ENABLED:
                return None
            runs = self._runs = self._runs_as()
        return runs

    def as_written(self, S: Any, K: Any, args: tuple, search: Any) -> tuple[Any, Any] | None:
        clauses = self.clauses.matching(args, getattr(S, "data", S))
        if not clauses:
            return None
        barrier = CutBarrier(search.stack) if search.order == "prolog" else None
        if len(clauses) == 1:
            return S, (self._clause_goal(clauses[0], args, barrier), K)
        return S, (disj(*(Call(self._clause_goal, (c, args, barrier)) for c in clauses)), K)

    def run_clause(self, clause: Clause, S: Any, K: Any, args: tuple, search: Any) -> Any:
        barrier = CutBarrier(search.stack) if search.order == "prolog" else None
        code = clause.code
        return (clause.compiled(self) if code is _NOT_YET else code)(S, K, barrier, *args)

    def run_alternatives(self, S: Any, K: Any, args: tuple, search: Any, clauses: Sequence[Clause]) -> tuple[Any, Any] | None:
        """`first_of` the clauses, compiled at their first call, with this call's cut barrier in
        Prolog order."""
        barrier = CutBarrier(search.stack) if search.order == "prolog" else None
        return first_of(S, K, (barrier, *args), search,
                        [c.compiled(self) if c.code is _NOT_YET else c.code for c in clauses], barrier)

    def deterministic_loop(self) -> Any:
        loop = self._loop
        return LOOP_LATER if loop is _NOT_YET else loop

    def enters(self, clause: Clause) -> bool:
        return id(clause) in self._in_loop

    def make_loop(self) -> Callable[..., Any] | None:
        self._loop = self._make_loop()
        return self._loop

    def again(self, args: tuple) -> Any:
        current = self.program.predicates.get(self.key)  # the predicate the name means now
        return call_goal(self.program.relations, self.name, args) if current is None else current.relation(*args)

    def _runs_as(self) -> loops.Runs | None:
        """The loop of a library relation with these clauses (`core.loops`: the same clauses
        up to variable names and argument order, `dif/2` as the core's), or None."""
        if len(self.clauses) > _SHAPED_CLAUSES:
            return None
        clauses = []
        for clause in self.clauses:
            body = []
            for g in _conjuncts(clause.body):
                if g == "true":
                    continue
                if not isinstance(g, tuple) or not g or not isinstance(g[0], str):
                    return None
                if g[0] == self.name and len(g) == self.arity + 1 and plain_call(self.name, self.arity):
                    body.append((loops.SELF, g[1:]))
                elif g[0] == "dif" and len(g) == 3 and ("dif", 2) not in self.program.predicates:
                    body.append((loops.DIF, g[1:]))
                else:
                    return None
            clauses.append((clause.head, body))
        return loops.runs_as(clauses) if clauses else None

    def _calls_itself_last(self, clause: Clause) -> bool:
        """Whether the clause's body is one call of this predicate (the deterministic loop
        goes round on it)."""
        body = [g for g in _conjuncts(clause.body) if g != "true"]
        return (len(body) == 1 and isinstance(body[0], tuple) and body[0][0] == self.name
                and len(body[0]) == self.arity + 1 and plain_call(self.name, self.arity))

    def _make_loop(self) -> Callable[..., Any] | None:
        """The clauses' deterministic loop (`core.clauses.compile_loop`): a call whose first
        argument selects one clause that has no body or whose body is one call of this
        predicate goes round again in one function; a clause with another body hands the call
        back. None when no first argument selects a single clause."""
        params = [f"_a{i}" for i in range(self.arity)]
        templates: list[list[Any] | None] = []
        names_used: set[str] = set()
        clauses = self.clauses.all()
        for clause in clauses:
            names: dict = {}
            body = [g for g in _conjuncts(clause.body) if g != "true"]
            goals: list[Any] | None = None
            try:
                heads = [unify_template(Name(p), term_template(a, names)) for p, a in zip(params, clause.head)]
                if not body:
                    goals = heads
                elif (len(body) == 1 and isinstance(body[0], tuple) and body[0][0] == self.name
                      and len(body[0]) == self.arity + 1 and plain_call(self.name, self.arity)):
                    goals = [*heads, Build(SELF_CALL, [term_template(a, names) for a in body[0][1:]])]
            except NotCompiled:
                goals = None
            names_used.update(names.values())
            templates.append(goals)
        scope = ClauseScope(params, (), sorted(names_used))
        self._in_loop = frozenset(id(c) for c, goals in zip(clauses, templates) if goals is not None)
        if not self._in_loop:  # every call would be handed back
            return None
        return compile_loop(f"{self.name}/{self.arity}", scope, templates, [c.key for c in clauses], self)

    def _clause_goal(self, clause: Clause, args: tuple, barrier: CutBarrier | None) -> Any:
        head, body = clause.renamed()
        if body == "true":
            return eq(args, head)
        return conj(eq(args, head), Call(translate, (body, self.program.relations, barrier)))


class Program(Mapping):
    """Consulted predicates by `"name/arity"`, each a relation (a function of its arguments
    returning a goal); `program.name(...)` calls the predicate `name` of that many arguments.
    `order` is the search order of `query` and initialization goals: "prolog" (depth first,
    clause order, cut) or "interleaved" (complete and fair)."""

    def __init__(self, relations: Relations | None = None, order: str = "prolog"):
        if order not in ORDERS:
            raise InputError(f"Program: order must be one of {', '.join(ORDERS)}, got {order!r}")
        self.order = order
        if relations is None:
            relations = Relations()
            relations.load("logicpy.core")
        self.relations = relations
        relations.program = self
        self.predicates: dict[Key, Predicate] = {}
        self._tabled_predicates: set[Predicate] = set()
        """Its tabled predicates: a change of any predicate clears their answers."""
        self._loaded: dict[str, set[Key]] = {}
        self._initialization: list[tuple[Term, str]] = []
        self.operators = STANDARD.copy()
        """The operators its text is read and written with (`op/3` changes them)."""
        self._directory = Path.cwd()
        """Where the file being loaded is: `include/1` and `ensure_loaded/1` look there."""
        self._in_tests = False
        """Inside a `begin_tests/end_tests` block (plunit's unit tests, not loaded)."""

    # ------------------------------------------------------------ the mapping

    def __getitem__(self, key: str) -> Callable[..., Any]:
        name, _, arity = key.rpartition("/")
        predicate = self.predicates.get((name, int(arity))) if arity.isdigit() else None
        if predicate is None:
            raise KeyError(key)
        return predicate.relation

    def __iter__(self) -> Iterator[str]:
        return (f"{name}/{arity}" for name, arity in self.predicates)

    def __len__(self) -> int:
        return len(self.predicates)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        arities = sorted(a for n, a in self.__dict__.get("predicates", {}) if n == name)
        if not arities:
            raise AttributeError(f"no predicate named {name}")
        if len(arities) == 1:
            return self.predicates[name, arities[0]].relation

        def by_arity(*args: Term) -> Any:
            predicate = self.predicates.get((name, len(args)))
            if predicate is None:
                raise PrologError(f"procedure {name}/{len(args)} does not exist")
            return predicate.relation(*args)
        by_arity.__name__ = name
        return by_arity

    def defined_by(self, path: str | Path) -> list[str]:
        """The predicates the file at `path` defined when it was last consulted, as `name/arity`."""
        return sorted(f"{n}/{a}" for n, a in self._loaded.get(str(Path(path).resolve()), ()))

    def lookup(self, name: str, arity: int) -> Callable[..., Any] | None:
        predicate = self.predicates.get((name, arity))
        return None if predicate is None else predicate.relation

    # ------------------------------------------------------------ loading

    def consult(self, path: str | Path) -> "Program":
        """Load the clauses and directives of a Prolog file; errors name file and line.
        Consulting a file again replaces the predicates it defined."""
        from .data import prolog_file

        path = prolog_file(path)
        text = read_text(path, empty=True)
        source, key = str(path), str(Path(path).resolve())
        for name in self._loaded.pop(key, ()):
            gone = self.predicates.pop(name, None)
            if gone is not None:
                gone.looping = False
                self._tabled_predicates.discard(gone)
        before, files = set(self.predicates), set(self._loaded)
        outer, self._directory = self._directory, Path(key).parent
        pending, self._initialization = self._initialization, []
        try:
            self.consult_text(text, source)
        finally:
            self._directory, self._initialization = outer, pending
        others = set().union(*(self._loaded[f] for f in set(self._loaded) - files))  # files it loaded in turn
        self._loaded[key] = set(self.predicates) - before - others
        return self

    def consult_text(self, text: str, source: str = "user") -> "Program":
        """Load clauses and directives from Prolog text (`source` names it in errors); text
        with a syntax error is refused whole."""
        with using(self.operators):
            try:
                terms = list(read_clauses(text))  # a syntax error anywhere: nothing is loaded
            except TermError as exc:
                raise PrologSyntaxError(f"{source}:{exc}") from None
            self._in_tests = False
            for term, line in terms:
                self.add_term(term, f"{source}:{line}")
            self._initialize()
        return self

    def query(self, text: str, n: int | None = None) -> list[dict[str, Term]]:
        """The answers (up to `n`) of a query in Prolog syntax, each the values of its named variables."""
        from .core.streams import run
        with using(self.operators):
            goal, variables = read_query(text)
            named = {name: v for name, v in variables.items() if not name.startswith("_")}
            answers = run(n or 0, tuple(named.values()), translate(goal, self.relations), order=self.order)
        return [dict(zip(named, answer)) for answer in answers]

    def add_term(self, term: Term, where: str) -> None:
        """One clause, fact or directive read from a program."""
        if isinstance(term, tuple) and len(term) == 2 and term[0] == ":-":
            return self.directive(term[1], where)
        if self._in_tests:
            return
        try:
            self.assertz(term)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None

    def directive(self, goal: Term, where: str) -> None:
        """`:- table p/2.` (tabled), `:- dynamic p/1.` and `:- discontiguous p/1.` (the predicate
        exists, with or without clauses), `:- initialization(G).` (G run once when the text is
        loaded), `:- include(F).` (F's clauses read here), `:- consult(F).` and `:- [F].` (F
        consulted), `:- ensure_loaded(F).` (F consulted unless it was), `:- use_module(library(L)).` for the libraries built in (`LIBRARIES`),
        `:- op(P, T, N).` (in force from the next clause on), plunit's `begin_tests/end_tests`
        blocks skipped; any other directive is run as a goal where it stands."""
        if self._in_tests:
            if isinstance(goal, tuple) and goal[0] == "end_tests":
                self._in_tests = False
            return
        if isinstance(goal, tuple) and len(goal) in (2, 3) and goal[0] == "begin_tests":
            self._in_tests = True
            return
        if (isinstance(goal, tuple) and len(goal) == 2 and goal[0] == "ensure_loaded"
                and isinstance(goal[1], tuple) and goal[1][0] == "library"):
            goal = ("use_module", goal[1])
        elif isinstance(goal, list) and goal:  # :- [file, ...]
            for spec in goal:
                self.directive(("consult", spec), where)
            return
        elif isinstance(goal, tuple) and len(goal) == 2 and goal[0] in ("include", "ensure_loaded", "consult"):
            path = self._file(goal[1], where)
            if goal[0] != "include":
                if goal[0] == "consult" or str(path.resolve()) not in self._loaded:
                    self.consult(path)
                return
            try:
                terms = list(read_clauses(read_text(path, empty=True)))
            except TermError as exc:
                raise PrologSyntaxError(f"{path}:{exc}") from None
            for term, line in terms:
                self.add_term(term, f"{path}:{line}")
            return
        if isinstance(goal, tuple) and len(goal) == 2 and goal[0] in ("table", "dynamic", "discontiguous"):
            for name, arity in _indicators(goal[1], where):
                predicate = self._predicate(name, arity, where)
                if goal[0] == "table":
                    predicate.table()
            return
        if isinstance(goal, tuple) and len(goal) == 2 and goal[0] == "initialization":
            self._initialization.append((goal[1], where))
            return
        if isinstance(goal, tuple) and goal[0] in ("op", ",") and all(
                isinstance(g, tuple) and len(g) == 4 and g[0] == "op" for g in _conjuncts(goal)):
            return  # op/3: the reader has already put it in force
        if (isinstance(goal, tuple) and len(goal) in (2, 3) and goal[0] == "use_module"
                and isinstance(goal[1], tuple) and len(goal[1]) == 2 and goal[1][0] == "library"):
            if goal[1][1] in LIBRARIES:
                return
            raise InputError(f"{where}: library({format_term(goal[1][1])}) is not one logicpy provides "
                             f"({', '.join(LIBRARIES)} are)")
        if isinstance(goal, tuple) and goal[0] in ("initialization", "module", "use_module"):
            raise InputError(f"{where}: directive {format_term(goal)} is not supported (table/1, dynamic/1, "
                             "discontiguous/1, initialization/1, include/1, consult/1, ensure_loaded/1 and "
                             "use_module(library(...)) are)")
        self._run(goal, where, "directive")  # any other directive is a goal, run once where it stands

    def _file(self, spec: Term, where: str) -> Path:
        """The file `include/1` or `ensure_loaded/1` names: relative to the file being loaded,
        `.pl` added when the name has none and no such file exists."""
        parts = []
        while isinstance(spec, tuple) and len(spec) == 3 and spec[0] == "/":  # sub/file
            parts.append(spec[2])
            spec = spec[1]
        parts.append(spec)
        if not all(isinstance(p, str) and p for p in parts):
            raise InputError(f"{where}: {format_term(spec)} is not a file name (write include('other.pl'))")
        path = self._directory / Path(*reversed(parts)).expanduser()
        if not path.exists() and path.suffix != ".pl" and path.with_name(path.name + ".pl").exists():
            path = path.with_name(path.name + ".pl")
        if not path.is_file():
            raise InputError(f"{where}: {spec}: no such file")
        return path

    def _initialize(self) -> None:
        """Run the `initialization/1` goals of the text just loaded, once each, in order."""
        goals, self._initialization = self._initialization, []
        for goal, where in goals:
            self._run(goal, where, "initialization goal")

    def _run(self, goal: Term, where: str, what: str) -> None:
        """Run `goal` once, as a directive or initialization goal at `where`; its failure is an error."""
        from .core.streams import run
        from .core.terms import var
        try:
            succeeded = run(1, var(), translate(goal, self.relations), order=self.order)
        except LogicpyError as exc:
            raise type(exc)(f"{where}: {what} {format_term(goal)}: {exc}") from None
        if not succeeded:
            raise InputError(f"{where}: {what} {format_term(goal)} failed")

    def _predicate(self, name: str, arity: int, where: str = "") -> Predicate:
        predicate = self.predicates.get((name, arity))
        if predicate is None:
            if control_construct(name, arity):
                prefix = f"{where}: " if where else ""
                raise InputError(f"{prefix}No permission to modify static procedure `{name}/{arity}'")
            predicate = self.predicates[name, arity] = Predicate(self, name, arity)
        return predicate

    # ------------------------------------------------------------ assert and retract

    def assertz(self, clause: Term) -> None:
        """Add `clause` (`Head :- Body` or a fact) after the predicate's clauses."""
        self._add(clause, at_end=True)

    def asserta(self, clause: Term) -> None:
        """Add `clause` before the predicate's clauses."""
        self._add(clause, at_end=False)

    def _add(self, clause: Term, at_end: bool) -> None:
        head, body = _split(clause)
        if is_var(body) or not isinstance(body, (str, tuple)):
            body = ("call", body)
        name, arity = _head_key(head)
        predicate = self._predicate(name, arity)
        variables = term_variables((head, body)) or ()  # a fact without variables shares the one empty tuple
        predicate.add(Clause(tuple(head[1:]) if isinstance(head, tuple) else (), body, variables), at_end)

    def declare(self, head: Term) -> None:
        """Make the predicate of `head` exist (with no clauses if it had none), as `dynamic/1` does."""
        self._predicate(*_head_key(head))

    def retracting(self, clause: Term, unify: Callable[[Term, Term], Any]) -> Iterator[Any]:
        """`retract(clause)`: for each clause that `unify(clause_term, stored)` accepts (a new
        state, or None), remove it and yield the state, in clause order, on backtracking."""
        head, body = _split(clause)
        if is_var(head):
            raise PrologError("retract/1: the clause's head is a variable (instantiation error)")
        predicate = self.predicates.get(_head_key(head))
        if predicate is None:
            return
        name, args = (head[0], tuple(head[1:])) if isinstance(head, tuple) else (head, ())
        for stored in predicate.clauses.matching(args, _NO_BINDINGS):
            stored_head, stored_body = stored.renamed()
            state = unify((head, body), ((name, *stored_head) if stored_head else name, stored_body))
            if state is not None and not stored.erased:
                predicate.remove(stored)
                yield state


#: SWI-Prolog's libraries whose predicates logicpy's engine has built in: `:- use_module(library(L))`
#: accepts them (plunit: its test blocks are skipped when a file is loaded).
LIBRARIES = ("clpfd", "lists", "apply", "dif", "tabling", "aggregate", "yall", "ordsets", "plunit")


def _conjuncts(goal: Term) -> list[Term]:
    """The goals of a conjunction `(A, B)`, left to right."""
    found, stack = [], [goal]
    while stack:
        g = stack.pop()
        if isinstance(g, tuple) and len(g) == 3 and g[0] == ",":
            stack.extend((g[2], g[1]))
        else:
            found.append(g)
    return found


def _split(clause: Term) -> tuple[Term, Term]:
    if isinstance(clause, tuple) and len(clause) == 3 and clause[0] == ":-":
        return clause[1], clause[2]
    return clause, "true"


def _head_key(head: Term) -> Key:
    if is_var(head):
        raise InputError("a clause's head is a variable (instantiation error)")
    if isinstance(head, str):
        return head, 0
    if isinstance(head, tuple) and head and isinstance(head[0], str):
        return head[0], len(head) - 1
    raise InputError(f"{format_term(head)} cannot be a clause's head (type error: callable expected)")


def _indicators(spec: Term, where: str) -> Iterator[Key]:
    """The `name/arity` of a directive's argument: one, a `,` sequence or a list."""
    stack = [spec]
    while stack:
        s = stack.pop()
        if isinstance(s, list):
            stack.extend(reversed(s))
        elif isinstance(s, tuple) and len(s) == 3 and s[0] == ",":
            stack.extend((s[2], s[1]))
        elif (isinstance(s, tuple) and len(s) == 3 and s[0] == "/" and isinstance(s[1], str)
              and isinstance(s[2], int) and not isinstance(s[2], bool) and s[2] >= 0):
            yield s[1], s[2]
        else:
            raise InputError(f"{where}: {format_term(s)} is not a predicate indicator (name/arity)")


def consult(path: str | Path, order: str = "prolog") -> Program:
    """The predicates of the Prolog file at `path`, each a logicpy relation (`order`: see `Program`)."""
    return Program(order=order).consult(path)


def consult_text(text: str, order: str = "prolog") -> Program:
    """The predicates of Prolog program text, each a logicpy relation (`order`: see `Program`)."""
    return Program(order=order).consult_text(text)

