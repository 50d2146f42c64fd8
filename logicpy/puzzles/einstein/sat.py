"""A game as a CNF formula, solved by a CDCL SAT solver (CaDiCaL, from `python-sat`).

The encoding reads the rules as `semantics` states them, independently of the FD model
(`compile.py`), so each checks the other:

- a Boolean per (row, kind after the first, thing of that kind): the thing sits in that row
  (row i holds the i-th thing of the first kind); exactly one thing per row and kind, and
  exactly one row per thing;
- `linked(a, b)` is a Boolean defined by the rows (a and b share a row), made once per pair;
- a symbol `A::K` stands for the thing of kind K in A's row: "it is t" is `linked(A, t)`;
- a relation over values (`same`, orderings, adjacency, arithmetic) is the set of value
  tuples that satisfy it, read with `semantics.holds` on the things themselves, encoded as a
  Boolean equivalent to "the arguments take an allowed tuple" (binary relations with the
  support encoding, which lets unit propagation prune both arguments; chains pair by pair);
- connectives are Tseitin definitions; each clue's rules are asserted.

The solver finds a grid; each next one is found after a clause forbidding all found so far,
so proving a solution unique is one more (incremental) call.
"""

from __future__ import annotations

import itertools
import math
from typing import Iterator, Sequence

from .compile import MAX_TABLE, TableTooBig
from .model import ADJ_FUNCS, ORDER_FUNCS, Game, Grid, Kind, Relation, Rule, Symbol
from .semantics import holds, resolve_kind

__all__ = ["available", "iter_grids", "Encoding", "Oracle", "SOLVER"]

#: The python-sat solver used: CaDiCaL 1.9.5 (on the bench grids within 15 % of the fastest
#: python-sat solver, MiniSat 2.2; see docs/performance.md).
SOLVER = "cadical195"
#: Conflicts per call to the solver: between calls Python runs, so a `--timeout` alarm can ring
#: (the search goes on from what it has learnt).
CONFLICT_BUDGET = 20_000
#: Up to this many things per kind, "exactly one" is written pairwise; above, by a sequential counter.
PAIRWISE_MAX = 16
#: Relations whose truth on several arguments is their truth on each consecutive pair.
_CHAINS = frozenset(ORDER_FUNCS + ADJ_FUNCS + ("same",))

TRUE = 1  # variable 1 is asserted true; -TRUE is false


def available() -> bool:
    """Whether python-sat can be imported (else the FD search answers)."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class Encoding:
    """The CNF of a game: `clauses`, `cells[r][j][v]` (the variable "thing v of kind j sits in
    row r", j >= 1) and `top` (the highest variable)."""

    def __init__(self, game: Game):
        self.game = game
        self.top = TRUE
        self.clauses: list[list[int]] = [[TRUE]]
        n, k = game.size, len(game.kinds)
        self.index = {t: (j, v) for j, kind in enumerate(game.kinds) for v, t in enumerate(kind.things)}
        self.cells = [[[0] * n] + [[self._new() for _ in range(n)] for _ in range(1, k)] for _ in range(n)]
        for j in range(1, k):
            for r in range(n):
                self._exactly_one([self.cells[r][j][v] for v in range(n)])
            for v in range(n):
                self._exactly_one([self.cells[r][j][v] for r in range(n)])
        self._links: dict[tuple[str, str], int] = {}
        self._relations: dict[Relation, int] = {}
        self._tables: dict[tuple, frozenset[tuple[int, int]]] = {}
        for clue in game.clues:
            try:
                for rule in clue.rules:
                    self.add([self.rule(rule)])
            except TableTooBig as big:
                raise big.error(game, clue) from None

    # -- clauses -------------------------------------------------------------

    def _new(self) -> int:
        self.top += 1
        return self.top

    def add(self, clause: list[int]) -> None:
        """Add a clause, leaving out false literals; a clause with a true one is dropped."""
        if TRUE in clause:
            return
        self.clauses.append([x for x in clause if x != -TRUE])

    def _exactly_one(self, xs: list[int]) -> None:
        self.clauses.append(xs)
        if len(xs) <= PAIRWISE_MAX:
            self.clauses += [[-a, -b] for a, b in itertools.combinations(xs, 2)]
            return
        # sequential counter: s_i says one of xs[0..i] is true
        s = [self._new() for _ in xs[:-1]]
        for i, x in enumerate(xs):
            if i < len(s):
                self.clauses.append([-x, s[i]])
            if i > 0:
                self.clauses.append([-x, -s[i - 1]])
                if i < len(s):
                    self.clauses.append([-s[i - 1], s[i]])

    def _define_or(self, parts: list[int]) -> int:
        """A literal equivalent to the disjunction of parts."""
        if TRUE in parts:
            return TRUE
        parts = [p for p in parts if p != -TRUE]
        if not parts:
            return -TRUE
        if len(parts) == 1:
            return parts[0]
        y = self._new()
        self.add([-y, *parts])
        for p in parts:
            self.add([y, -p])
        return y

    def _define_and(self, parts: list[int]) -> int:
        return -self._define_or([-p for p in parts])

    # -- the grid ------------------------------------------------------------

    def linked(self, a: str, b: str) -> int:
        """The literal "a and b share a row" (things of one kind: whether they are one thing)."""
        (ja, va), (jb, vb) = self.index[a], self.index[b]
        if ja == jb:
            return TRUE if va == vb else -TRUE
        if ja == 0:
            return self.cells[va][jb][vb]
        if jb == 0:
            return self.cells[vb][ja][va]
        key = (a, b) if (ja, va) < (jb, vb) else (b, a)
        lit = self._links.get(key)
        if lit is None:
            lit = self._links[key] = self._new()
            for r in range(self.game.size):
                x, y = self.cells[r][ja][va], self.cells[r][jb][vb]
                self.clauses += [[-lit, -x, y], [-lit, x, -y], [lit, -x, -y]]
        return lit

    def _value(self, symbol: Symbol) -> tuple[str, list[int]]:
        """The kind of the thing a symbol names and, per thing t of it, the literal "it is t"."""
        kind = resolve_kind(self.game, symbol)
        return kind, [self.linked(symbol.base, t) for t in self.game.kind(kind).things]

    def grid(self, model: list[int]) -> Grid:
        """The grid a model of the clauses describes."""
        kinds, n = self.game.kinds, self.game.size
        rows = []
        for r in range(n):
            row = [kinds[0].things[r]]
            for j in range(1, len(kinds)):
                cells = self.cells[r][j]
                row.append(kinds[j].things[next(v for v in range(n) if model[cells[v] - 1] > 0)])
            rows.append(tuple(row))
        return tuple(rows)

    def blocking(self, grid: Grid) -> list[int]:
        """The clause that every grid but this one satisfies (empty when the grid has one kind)."""
        return [-self.cells[r][j][self.index[t][1]] for r, row in enumerate(grid) for j, t in enumerate(row) if j]

    # -- rules ---------------------------------------------------------------

    def rule(self, rule: Rule) -> int:
        """A literal equivalent to the rule."""
        if isinstance(rule, Relation):
            key = Relation(rule.func, rule.args, False, rule.literal)
            lit = self._relations.get(key)
            if lit is None:
                lit = self._relations[key] = self._relation(key)
            return -lit if rule.negated else lit
        parts = [self.rule(r) for r in rule.args]
        op = rule.op
        if op == "and":
            return self._define_and(parts)
        if op == "or":
            return self._define_or(parts)
        if op == "nand":
            return -self._define_and(parts)
        if op == "xor":
            return self._xor(parts)
        return -self._define_or(parts)  # nor, not

    def _xor(self, parts: list[int]) -> int:
        """A literal equivalent to "exactly one of parts"."""
        y = self._new()
        self.add([-y, *parts])
        for a, b in itertools.combinations(parts, 2):
            self.add([-y, -a, -b])
        for i, p in enumerate(parts):
            self.add([y, -p, *(q for j, q in enumerate(parts) if j != i)])
        return y

    def _relation(self, rel: Relation) -> int:
        if rel.func == "link":
            bases = [s.base for s in rel.args]
            return self._define_or([self.linked(a, b) for a, b in itertools.combinations(bases, 2)])
        values = [self._value(s) for s in rel.args]
        kinds = tuple(kind for kind, _ in values)
        if len(values) > 2 and rel.func in _CHAINS and len(set(kinds)) == 1:
            return self._define_and([
                self._table_literal(Relation(rel.func, (a, b)), [x, y])
                for a, b, x, y in zip(rel.args, rel.args[1:], values, values[1:])
            ])
        return self._table_literal(rel, values)

    def _holds(self, rel: Relation, things: tuple[str, ...]) -> bool:
        """Whether rel holds of these things (one per argument), read by `semantics.holds`."""
        return holds(self.game, Relation(rel.func, tuple(map(Symbol, things)), False, rel.literal), _NO_VIEW)

    def _table_literal(self, rel: Relation, values: list[tuple[str, list[int]]]) -> int:
        """A literal equivalent to "the arguments' values form a tuple that satisfies rel"."""
        columns = [self.game.kind(kind).things for kind, _ in values]
        hots = [lits for _, lits in values]
        # the values each argument may take (a thing named outright has one)
        options = [[i for i, x in enumerate(h) if x != -TRUE] for h in hots]
        size = math.prod(map(len, options))
        if size > MAX_TABLE:
            raise TableTooBig(size)
        y = self._new()
        if len(hots) == 2:  # support encoding, in both directions and for both truth values
            key = (rel.func, rel.literal, tuple(kind for kind, _ in values))
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = frozenset(
                    (i, j) for i in range(len(columns[0])) for j in range(len(columns[1]))
                    if self._holds(rel, (columns[0][i], columns[1][j])))
            (a, b), (ia, ib) = hots, options
            for lit, truth in ((y, True), (-y, False)):
                for i in ia:
                    self.add([-lit, -a[i], *(b[j] for j in ib if ((i, j) in table) == truth)])
                for j in ib:
                    self.add([-lit, -b[j], *(a[i] for i in ia if ((i, j) in table) == truth)])
            return y
        for combo in itertools.product(*options):
            ok = self._holds(rel, tuple(c[i] for c, i in zip(columns, combo)))
            self.add([-h[i] for h, i in zip(hots, combo)] + [y if ok else -y])
        return y


class _NoView:
    """Rules over things themselves (no `::` path) never ask the grid anything."""

    def partner(self, thing: str, kind: str) -> str:
        raise AssertionError("a rule over things read the grid")

    def linked(self, a: str, b: str) -> bool:
        raise AssertionError("a rule over things read the grid")


_NO_VIEW = _NoView()


def iter_grids(game: Game) -> Iterator[Grid]:
    """The solution grids of the game, lazily, each next one found after forbidding those before."""
    from pysat.solvers import Solver

    enc = Encoding(game)
    with Solver(name=SOLVER, bootstrap_with=enc.clauses) as solver:
        while _solve(solver):
            grid = enc.grid(solver.get_model())
            yield grid
            block = enc.blocking(grid)
            if not block:
                return
            solver.add_clause(block)


class Oracle:
    """One incremental solver for many questions over the same kinds (the generator's): each
    rule is encoded once, as a literal, and a question assumes the rules it needs. The
    solver is freed with the oracle."""

    def __init__(self, kinds: tuple[Kind, ...]):
        from pysat.solvers import Solver

        self.enc = Encoding(Game(kinds, ()))
        self.solver = Solver(name=SOLVER, bootstrap_with=self.enc.clauses)
        self._sent = len(self.enc.clauses)
        self._literals: dict[Rule, int] = {}

    def _literal(self, rule: Rule) -> int:
        lit = self._literals.get(rule)
        if lit is None:
            lit = self._literals[rule] = self.enc.rule(rule)
            self.solver.append_formula(self.enc.clauses[self._sent:])
            self._sent = len(self.enc.clauses)
        return lit

    def forbid(self, grid: Grid) -> None:
        """No later answer is this grid."""
        self.solver.add_clause(self.enc.blocking(grid))

    def find(self, holding: list[Rule], failing: Sequence[Rule] = ()) -> Grid | None:
        """A grid (not forbidden) where every rule of `holding` holds and, if `failing` is
        given, one of its rules fails; None if there is none."""
        assumptions = [self._literal(r) for r in holding]
        if failing:
            some = self.enc._new()  # assumed now, retired after
            self.solver.add_clause([-some, *(-self._literal(r) for r in failing)])
            assumptions.append(some)
        found = _solve(self.solver, assumptions)
        grid = self.enc.grid(self.solver.get_model()) if found else None
        if failing:
            self.solver.add_clause([-some])
        return grid


def _solve(solver, assumptions: Sequence[int] = ()) -> bool:
    """Whether the clauses so far have a model (under the assumed literals), asked in slices
    of `CONFLICT_BUDGET` conflicts."""
    while True:
        solver.conf_budget(CONFLICT_BUDGET)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
