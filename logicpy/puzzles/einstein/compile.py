"""Compile a game's clues to finite-domain goals (`logicpy.core.fd`): the FD model.

Every thing t gets a row variable `row[t]` in 1..n (the things of one kind, the *pivot*,
are fixed to rows 1..n in their listed order: the kind the numeric clues compare most, so
its values are constants, else the first kind), all different within a kind. A symbol `A::K`
lives in A's row, so `link` and `same` compare row variables. Orderings, adjacency
and arithmetic compare a *value* of the K-thing in A's row (its number, its rank in
the kind, or its alphabetic index), read through the *index* of that thing in K's list:
A's row itself when K is the pivot, else one variable p per (A, K) with
`elemento(p, rows of K, row[A])`, shared by every key of K. A value is its index shifted
by a constant when the keys count up one per thing (ranks, and numbers listed in order),
so most lookups add no variable and no propagator; other keys add an element of the
constant keys. A value written `Shifted(v, c)` is v + c until the atom folds c in.

Boolean rules are put in negation normal form: a negated atom becomes its complement
(`x < y` ↦ `y <= x`, `x = y + c` ↦ `x ≠ y + c`, a table ↦ the other rows), `and`
becomes a conjunction, and every disjunction becomes a constructive disjunction (`disjo`):
it prunes before search, and the choice between its alternatives is never labelled, so no
solution is found twice even where several alternatives hold. A top-level equality of two
variables (a `link` or `same` clue) unifies them.

Invariants: a formula is `True`, `False`, an atom, or `And`/`Or` of formulas without
constants inside; the goal labels only row variables.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterator, TypeGuard, Union

from kanren.core import fail, succeed
from unification import Var

from ...core import conj, eq, fd, run
from ...core.terms import is_var, var
from ...errors import InputError
from .model import ADJ_FUNCS, ARITH_FUNCS, Clue, Connective, Game, Grid, Relation, Rule
from .semantics import ARITH_TOLERANCE, arith, number, rank_key, resolve_kind

__all__ = ["FDModel", "compile_game", "iter_grids", "solve_fd", "MAX_CELLS", "MAX_TABLE", "TableTooBig", "check_size"]

Term = Union[int, Var]


@dataclass(frozen=True)
class Shifted:
    """The value of the variable `v` plus the int `c`: a lookup that is a row, or another
    lookup, moved by a constant (no variable or propagator of its own)."""

    v: Var
    c: int


Value = Union[int, Var, Shifted]


def _split(t: Value) -> tuple[Term, int]:
    """A value as a term and the constant added to it."""
    return (t.v, t.c) if isinstance(t, Shifted) else (t, 0)


def _plus(t: Value, c: int) -> Value:
    """The value t + c."""
    v, d = _split(t)
    if isinstance(v, int):
        return v + d + c
    return Shifted(v, d + c) if d + c else v

#: The most cells a game may have to fill (things × (kinds − 1)): the search goes one level
#: deeper per cell, and a grid this size already takes minutes to prove unique.
MAX_CELLS = 400
#: The most combinations of values an arithmetic clue's table may list.
MAX_TABLE = 250_000


class TableTooBig(Exception):
    """A clue's table would list more than `MAX_TABLE` combinations (`size` of them)."""

    def __init__(self, size: int):
        super().__init__(size)
        self.size = size

    def error(self, game: Game, clue: Clue) -> InputError:
        """The input error naming the game and the clue."""
        return InputError(f"{game.name or 'game'}: clue {clue.number}: its arithmetic has {self.size:,} combinations "
                          f"of values to tabulate; the limit is {MAX_TABLE:,}")


def check_size(game: Game) -> None:
    """Refuse (InputError) a game with more cells to fill than `MAX_CELLS`."""
    cells = game.size * (len(game.kinds) - 1)
    if cells > MAX_CELLS:
        raise InputError(f"{game.name or 'game'}: {game.size:,} things × {len(game.kinds)} kinds is {cells:,} cells "
                         f"to fill; the limit is {MAX_CELLS:,}")


@dataclass(frozen=True)
class Atom:
    """`op` is "eq" (x = y + c), "neq", "lt" (x < y + c), "le" or "table"."""

    op: str
    x: Term = 0
    y: Term = 0
    c: int = 0
    xs: tuple[Term, ...] = ()
    rows: frozenset[tuple[int, ...]] = frozenset()
    universe: frozenset[tuple[int, ...]] = frozenset()


@dataclass(frozen=True)
class And:
    parts: tuple[Formula, ...]


@dataclass(frozen=True)
class Or:
    parts: tuple[Formula, ...]


Formula = Union[bool, Atom, And, Or]

_COMPLEMENT = {"eq": "neq", "neq": "eq"}


def _atom(op: str, x: Value, y: Value, c: int = 0) -> Formula:
    """An order or equality atom `x op y + c`, shifts moved into c, folded to a bool when both sides are known."""
    (x, a), (y, b) = _split(x), _split(y)
    c += b - a
    if isinstance(x, int) and isinstance(y, int):
        return {"eq": x == y + c, "neq": x != y + c, "lt": x < y + c, "le": x <= y + c}[op]
    return Atom(op, x, y, c)


def _table(values: list[Value], domains: list[list[int]], test: Callable[[tuple[int, ...]], bool]) -> Formula:
    """The tuples of the values (each ranging over its domain) that pass `test`, over the
    values' own terms (a shifted value's term ranges over its domain shifted back)."""
    size = 1
    for d in domains:
        size *= len(d)
    if size > MAX_TABLE:
        raise TableTooBig(size)
    xs, shifts = zip(*map(_split, values))
    domains = [[v - c for v in d] for d, c in zip(domains, shifts)]
    universe = frozenset(itertools.product(*domains))
    rows = frozenset(r for r in universe if test(tuple(v + c for v, c in zip(r, shifts))))
    if all(isinstance(x, int) for x in xs) or not rows or rows == universe:
        return bool(rows)
    return Atom("table", xs=tuple(xs), rows=rows, universe=universe)


def _and(parts) -> Formula:
    flat: list[Formula] = []
    for p in parts:
        if p is False:
            return False
        if p is not True:
            flat.extend(p.parts if isinstance(p, And) else (p,))
    return True if not flat else flat[0] if len(flat) == 1 else And(tuple(flat))


def _or(parts) -> Formula:
    flat: list[Formula] = []
    for p in parts:
        if p is True:
            return True
        if p is not False:
            flat.extend(p.parts if isinstance(p, Or) else (p,))
    return False if not flat else flat[0] if len(flat) == 1 else Or(tuple(flat))


def negate(f: Formula) -> Formula:
    """The negation normal form of ¬f."""
    if isinstance(f, bool):
        return not f
    if isinstance(f, And):
        return _or(negate(p) for p in f.parts)
    if isinstance(f, Or):
        return _and(negate(p) for p in f.parts)
    if f.op in _COMPLEMENT:
        return Atom(_COMPLEMENT[f.op], f.x, f.y, f.c)
    if f.op == "lt":  # ¬(x < y + c) ⇔ y <= x - c
        return Atom("le", f.y, f.x, -f.c)
    if f.op == "le":  # ¬(x <= y + c) ⇔ y < x - c
        return Atom("lt", f.y, f.x, -f.c)
    return Atom("table", xs=f.xs, rows=f.universe - f.rows, universe=f.universe)


@dataclass
class FDModel:
    """The FD variables of a game and the goals that tie them to the rules."""

    game: Game
    rows: dict[str, Term] = field(default_factory=dict)
    definitions: list = field(default_factory=list)
    structure: list = field(default_factory=list)
    _indices: dict[tuple[str, str], Term] = field(default_factory=dict)
    _lookups: dict[tuple[str, str, str], Value] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pivot = self.pivot
        others = [k for k in self.game.kinds if k is not pivot]
        n = self.game.size
        for i, thing in enumerate(pivot.things, 1):
            self.rows[thing] = i
        for kind in others:
            row_vars = [var(f"row[{t}]") for t in kind.things]
            self.rows.update(zip(kind.things, row_vars))
            for v in row_vars:
                self._define("dom", v, list(range(1, n + 1)))
            self._define("all_different", row_vars)

    @cached_property
    def _number_rank(self) -> dict[str, int]:
        """Each numbered thing's rank among the game's numbers (equal numbers, equal ranks).

        Orderings compare ranks, so FD domains stay as small as the game however large its
        numbers (dates, 10^12); arithmetic maps ranks back to numbers (`numbers`).
        """
        keys = {t: _digits_key(t) for k in self.game.kinds for t in k.things if any(c.isdigit() for c in t)}
        ranks = {key: i for i, key in enumerate(sorted(set(keys.values())))}
        return {t: ranks[key] for t, key in keys.items()}

    @cached_property
    def numbers(self) -> dict[int, int]:
        """The number each rank stands for."""
        return {r: number(t) for t, r in self._number_rank.items()}

    def _define(self, what: str, *args) -> None:
        """Add a defining constraint: ("dom", v, values), ("all_different", vs) or
        ("element", i, xs, v); kept as data (`structure`, for other solvers) and as an FD goal."""
        self.structure.append((what, *args))
        if what == "dom":
            self.definitions.append(fd.domo(*args))
        elif what == "all_different":
            # singles only: on these grids Régin's matching costs more than the search it saves
            self.definitions.append(fd.all_differento(args[0], matching=False))
        else:
            self.definitions.append(fd.elemento(*args))

    @cached_property
    def pivot(self):
        """The kind whose things are fixed to rows 1..n: the one the numeric clues use most
        (its values are then constants in the lookups), else the first kind.

        Arithmetic counts three times and adjacency twice per argument: their tables and
        offset equalities gain most from constant values (measured on generated 6 × 6 games:
        one proof of uniqueness took 0.01 s with ages as rows, over 100 s with people).
        """
        uses = {k.name: 0 for k in self.game.kinds}

        def count(rule: Rule) -> None:
            if isinstance(rule, Connective):
                for sub in rule.args:
                    count(sub)
            elif rule.func in ADJ_FUNCS + ARITH_FUNCS or rule.func in ("<", ">", "<=", ">="):
                weight = 3 if rule.func in ARITH_FUNCS else 2 if rule.func in ADJ_FUNCS else 1
                for s in rule.args:
                    uses[resolve_kind(self.game, s)] += weight

        for clue in self.game.clues:
            for rule in clue.rules:
                count(rule)
        best = max(self.game.kinds, key=lambda k: uses[k.name])
        return best if uses[best.name] > uses[self.game.kinds[0].name] else self.game.kinds[0]

    @property
    def row_vars(self) -> list[Var]:
        """The variables to label: the rows of every thing outside the first kind."""
        return [v for v in self.rows.values() if is_var(v)]

    def value(self, base: str, kind: str, key: str) -> Value:
        """`key` ("number", "alpha", or "rank" / "rankA") of the `kind`-thing in base's row.

        It is the key of the `kind`-thing at `index(base, kind)`: that index shifted when the
        keys count up one per thing in the listed order (no variable of its own), else a
        variable tied to the index by an element of the constant keys.
        """
        f = self._key(key, kind)
        if self.game.kind_of(base).name == kind:
            return f(base)
        if (base, kind, key) not in self._lookups:
            keys = [f(t) for t in self.game.kind(kind).things]
            at = self.index(base, kind)
            if all(k - j == keys[0] for j, k in enumerate(keys)):
                self._lookups[base, kind, key] = _plus(at, keys[0] - 1)
            elif isinstance(at, int):
                self._lookups[base, kind, key] = keys[at - 1]
            else:
                v = var(f"{key}({base}::{kind})")
                self._define("element", at, keys, v)
                self._lookups[base, kind, key] = v
        return self._lookups[base, kind, key]

    def index(self, base: str, kind: str) -> Term:
        """Which `kind`-thing shares base's row, as its place in the kind's list (from 1).

        For the pivot it is base's row itself; for another kind a variable p with
        `element(p, rows of the kind, row of base)`: every key of the kind is read through it.
        """
        if kind == self.pivot.name:
            return self.rows[base]
        if (base, kind) not in self._indices:
            things = self.game.kind(kind).things
            p = var(f"{kind}({base})")
            self._define("dom", p, list(range(1, len(things) + 1)))
            self._define("element", p, [self.rows[t] for t in things], self.rows[base])
            self._indices[base, kind] = p
        return self._indices[base, kind]

    def domain(self, kind: str, key: str) -> list[int]:
        """The values `key` takes on the things of `kind`, sorted."""
        f = self._key(key, kind)
        return sorted({f(t) for t in self.game.kind(kind).things})

    def _key(self, key: str, kind: str) -> Callable[[str], int]:
        if key == "number":
            return self._number_rank.__getitem__
        if key == "alpha":
            names = sorted(t for k in self.game.kinds for t in k.things)
            return names.index
        order = rank_key("adjA" if key == "rankA" else "adj")
        ranked = sorted(order(t) for t in self.game.kind(kind).things)
        return lambda t: ranked.index(order(t))

    # -- rules to formulas ---------------------------------------------------

    def formula(self, rule: Rule) -> Formula:
        """The NNF formula of a rule."""
        if isinstance(rule, Connective):
            parts = [self.formula(r) for r in rule.args]
            if rule.op == "and":
                return _and(parts)
            if rule.op == "or":
                return _or(parts)
            if rule.op == "nand":
                return _or(negate(p) for p in parts)
            if rule.op == "xor":
                return _or(
                    _and([p] + [negate(q) for j, q in enumerate(parts) if j != i]) for i, p in enumerate(parts)
                )
            return _and(negate(p) for p in parts)  # nor, not
        f = self._relation(rule)
        return negate(f) if rule.negated else f

    def _relation(self, rel: Relation) -> Formula:
        game, func = self.game, rel.func
        if func == "link":
            bases = [s.base for s in rel.args]
            return _or(self._linked(a, b) for a, b in itertools.combinations(bases, 2))
        if func == "same":
            if len({resolve_kind(game, s) for s in rel.args}) > 1:
                return False  # things of different kinds are different things
            rows = [self.rows[s.base] for s in rel.args]
            return _and(_atom("eq", x, y) for x, y in zip(rows, rows[1:]))
        kinds = [resolve_kind(game, s) for s in rel.args]
        if func in ADJ_FUNCS:
            key = "rankA" if func.endswith("A") else "rank"
            # ranks are taken within the first argument's kind (validated: all one kind)
            r = [self.value(s.base, kinds[0], key) for s in rel.args]
            pairs = list(zip(r, r[1:]))
            adj = func.removesuffix("A")
            if adj == "adj<":
                return _and(_atom("eq", j, i, 1) for i, j in pairs)
            if adj == "adj>":
                return _and(_atom("eq", i, j, 1) for i, j in pairs)
            return _and(_and([_atom("le", i, j, 1), _atom("le", j, i, 1)]) for i, j in pairs)
        if func in ARITH_FUNCS:
            xs = [self.value(s.base, k, "number") for s, k in zip(rel.args, kinds)]
            domains = [[x] if isinstance(x, int) else self.domain(k, "number") for x, k in zip(xs, kinds)]
            assert rel.literal is not None, "the loader requires a literal on arithmetic clues"
            target = float(rel.literal)
            numbers = self.numbers
            return _table(xs, domains, lambda vs: abs(arith(func, [numbers[v] for v in vs]) - target) < ARITH_TOLERANCE)
        key = "alpha" if func.endswith("A") else "number"
        v = [self.value(s.base, k, key) for s, k in zip(rel.args, kinds)]
        pairs = list(zip(v, v[1:]))
        op = func.removesuffix("A")
        if op == "<":
            return _and(_atom("lt", x, y) for x, y in pairs)
        if op == ">":
            return _and(_atom("lt", y, x) for x, y in pairs)
        if op == "<=":
            return _and(_atom("le", x, y) for x, y in pairs)
        return _and(_atom("le", y, x) for x, y in pairs)  # >=

    def _linked(self, a: str, b: str) -> Formula:
        if self.game.kind_of(a) == self.game.kind_of(b):
            return a == b
        return _atom("eq", self.rows[a], self.rows[b])


def _digits_key(thing: str) -> tuple[int, str]:
    """Sorts names as the numbers their digits spell, without converting them to int."""
    digits = "".join(c for c in thing if c.isdigit()).lstrip("0")
    return len(digits), digits


def _goal(f: Formula):
    """The kanren goal of a formula."""
    if f is True:
        return succeed
    if f is False:
        return fail
    if isinstance(f, And):
        return conj(_goal(p) for p in f.parts)
    if isinstance(f, Or):
        # the choice between alternatives is never labelled: a solution is found once even
        # when several alternatives hold, so they need not exclude each other
        return fd.disjo(*(_goals(p) for p in f.parts))
    if f.op == "eq":
        return fd.eq_offseto(f.x, f.y, f.c)
    if f.op == "neq":
        return fd.neq_offseto(f.x, f.y, f.c)
    if f.op == "lt":
        return fd.lto(f.x, f.y, f.c)
    if f.op == "le":
        return fd.leqo(f.x, f.y, f.c)
    return fd.tableo(list(f.xs), [list(r) for r in sorted(f.rows)])


def _goals(f: Formula) -> list:
    """The goals of a formula's conjuncts (an alternative of `disjo` is a list of FD goals)."""
    return [_goal(p) for p in f.parts] if isinstance(f, And) else [_goal(f)]


def compile_game(game: Game) -> tuple[FDModel, list]:
    """The FD model of a game and the goals of its clues, conjunctions first."""
    check_size(game)
    model = FDModel(game)
    formulas = []
    for clue in game.clues:
        try:
            formulas += [model.formula(r) for r in clue.rules]
        except TableTooBig as big:
            raise big.error(game, clue) from None
    formula = _and(formulas)
    parts = list(formula.parts) if isinstance(formula, And) else [formula]
    parts.sort(key=lambda p: len(p.parts) if isinstance(p, Or) else 0)
    return model, [eq(p.x, p.y) if _is_alias(p) else _goal(p) for p in parts]


def _is_alias(f: Formula) -> TypeGuard[Atom]:
    """True iff f says two row or value variables are one (a `link` or `same` clue): the
    compiler unifies them, so the store and the search see one variable, not two and an equality."""
    return isinstance(f, Atom) and f.op == "eq" and f.c == 0 and is_var(f.x) and is_var(f.y)


def iter_grids(game: Game, strategy: str = "wdeg") -> Iterator[Grid]:
    """The solution grids of the game, lazily, in search order (FD propagation and labelling)."""
    model, clue_goals = compile_game(game)
    row_vars = model.row_vars
    answers = run(None, tuple(row_vars), conj(*model.definitions, *clue_goals, fd.labelo(row_vars, strategy)))
    things = [t for t, v in model.rows.items() if is_var(v)]
    fixed = [(t, r) for t, r in model.rows.items() if isinstance(r, int)]
    column = {t: j for j, kind in enumerate(game.kinds) for t in kind.things}
    first_index = {t: i for i, t in enumerate(game.kinds[0].things)}
    for answer in answers:
        grid = [[""] * len(game.kinds) for _ in range(game.size)]
        for t, r in itertools.chain(zip(things, answer), fixed):
            grid[r - 1][column[t]] = t
        grid.sort(key=lambda row: first_index[row[0]])  # rows in the first kind's order
        yield tuple(map(tuple, grid))


def solve_fd(game: Game, strategy: str = "wdeg", limit: int | None = None) -> list[Grid]:
    """Every solution grid of the game (or the first `limit` found), sorted by the things' listed order."""
    grids = list(itertools.islice(iter_grids(game, strategy), limit))
    return sorted(grids, key=lambda g: sort_key(game, g))


def sort_key(game: Game, grid: Grid) -> tuple[int, ...]:
    """Orders grids by the listed order of their things, cell by cell."""
    return tuple(game.kinds[j].things.index(t) for row in grid for j, t in enumerate(row))
