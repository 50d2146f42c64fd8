"""Solve and count a game's solutions, each checked clue by clue (`verify.check`; while
counting, each clue on the rows it reads), and the Result type.

Two engines find solutions: a CDCL SAT solver on the game's CNF (`sat.py`, CaDiCaL from
python-sat: it learns from conflicts, which the hard grids need) and the FD search
(`compile.py`: propagation and dom/wdeg labelling). `solve` uses the SAT solver unless told
otherwise or python-sat cannot be imported; `count` always uses the FD search, which splits a
grid into independent parts instead of visiting every solution."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from ...core.fd import STRATEGIES
from ...errors import InputError, LogicpyError
from .compile import iter_grids, sort_key
from .model import Connective, Game, Grid, Rule
from .semantics import holds
from .verify import check

__all__ = ["Result", "solve", "count", "checked_grids", "ENGINES", "ENGINE_NAMES", "choose_engine", "free_kinds", "upper_bound", "keep_limit", "DEFAULT_MAX", "MAX_KEEP_BYTES"]

#: Solutions `solve` keeps unless told otherwise: enough to show, few enough to stay quick.
DEFAULT_MAX = 1000
#: How solutions may be found: "auto" (the SAT solver when python-sat can be imported, else the
#: FD search), "sat" (the same, named), "fd" (FD propagation and search).
ENGINES = ("auto", "sat", "fd")
#: What an engine is called in messages.
ENGINE_NAMES = {"sat": "SAT solver", "fd": "FD search"}


def choose_engine(engine: str) -> tuple[str, str]:
    """The engine that answers ("sat" or "fd") and a note when it is not the one asked for
    (python-sat cannot be imported), else ""."""
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "fd":
        return "fd", ""
    from .sat import available

    if available():
        return "sat", ""
    return "fd", "python-sat cannot be imported: solved by the FD search"


@dataclass(frozen=True)
class Result:
    """Solutions of a game, in a deterministic order (by the things' listed order).

    `complete` is False when the search stopped at a cap: there are more solutions than
    `solutions` holds. `engine` is the one that found them ("sat" or "fd"; "" when not
    searched for); `note` says why it is not the one asked for, when it is not.
    """

    game: Game
    solutions: tuple[Grid, ...]
    complete: bool = True
    engine: str = field(default="", compare=False)
    note: str = field(default="", compare=False)

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def status(self) -> str:
        """`unique`, `ambiguous(n)`, `ambiguous(n+)` (at least n, search capped) or `none`."""
        if self.count == 1 and self.complete:
            return "unique"
        return f"ambiguous({self.count}{'' if self.complete else '+'})" if self.solutions else "none"

    @property
    def verdict(self) -> str:
        """The one-line summary: "unique solution", "3 solutions", "at least 1,000 solutions", "no solution"."""
        if not self.complete:
            return f"at least {self.count:,} solutions"
        if self.count == 1:
            return "unique solution"
        return f"{self.count:,} solutions" if self.solutions else "no solution"

    def __repr__(self) -> str:
        from .display import result_repr
        return result_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.result_html`."""
        from .display import result_html
        return result_html(self)

    @property
    def differing_cells(self) -> tuple[tuple[str, str], ...]:
        """(first-kind thing, kind) of every cell whose content differs between solutions."""
        if self.count < 2:
            return ()
        first = self.solutions[0]
        return tuple(
            (first[i][0], kind.name)
            for i in range(self.game.size)
            for j, kind in enumerate(self.game.kinds)
            if any(s[i][j] != first[i][j] for s in self.solutions)
        )


def solve(
    game: Game, strategy: str = "wdeg", max_solutions: int | None = None,
    progress: Callable[[int], None] | None = None, engine: str = "auto",
) -> Result:
    """The solutions of the game (every one, or the first `max_solutions`), each verified clue by clue.

    Parameters
    ----------
    strategy : labelling order for the FD search, a key of `logicpy.core.fd.STRATEGIES`:
        "wdeg" (dom/wdeg, default: first-fail turned towards the constraints that fail),
        "ff" (first-fail) or "leftmost".
    engine : "auto" (default: the SAT solver, or the FD search when python-sat cannot be
        imported), "sat" or "fd"; see `ENGINES`. The result says which answered.
    max_solutions : stop after this many; the result says whether there were more. Never
        more than `keep_limit(game)` are kept (what fits in `MAX_KEEP_BYTES`).
    progress : called with the number found so far, every `PROGRESS_EVERY` solutions.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if max_solutions is not None and max_solutions < 1:
        raise InputError(f"the most solutions to keep must be at least 1, got {max_solutions}")
    used, note = choose_engine(engine)
    cap = keep_limit(game)
    if max_solutions is None or max_solutions > cap:
        max_solutions = cap if upper_bound(game) > cap else max_solutions
    found: list[Grid] = []
    complete = True
    for grid in checked_grids(game, strategy, used):
        if max_solutions is not None and len(found) == max_solutions:
            complete = False
            break
        found.append(grid)
        if progress is not None and len(found) % PROGRESS_EVERY == 0:
            progress(len(found))
    found.sort(key=lambda g: sort_key(game, g))
    return Result(game, tuple(found), complete, used, note)


def checked_grids(game: Game, strategy: str = "wdeg", engine: str = "auto") -> Iterator[Grid]:
    """The game's solutions as the engine finds them (see `ENGINES`; `strategy` for the FD
    search), each checked clue by clue before it is given."""
    used, _ = choose_engine(engine)
    if used == "sat":
        from . import sat

        grids = sat.iter_grids(game)
    else:
        grids = iter_grids(game, strategy)
    for grid in grids:
        problems = check(game, grid)
        if problems:  # the engine's model and the direct reading of the rules disagree
            raise LogicpyError(f"{game.name or 'game'}: internal error, {used.upper()} solution fails: {problems[0]}")
        yield grid


#: How often (in solutions found) `solve` and `count` report progress.
PROGRESS_EVERY = 1000
#: The memory `solve` may fill with the solutions it keeps.
MAX_KEEP_BYTES = 256 * 2**20


def grid_bytes(game: Game) -> int:
    """About how much memory one kept solution takes (its tuples; the names are shared)."""
    return 56 + 8 * game.size + game.size * (56 + 8 * len(game.kinds))


def keep_limit(game: Game) -> int:
    """The most solutions of the game `solve` keeps: those that fit in `MAX_KEEP_BYTES`."""
    return MAX_KEEP_BYTES // grid_bytes(game)


def count(game: Game, strategy: str = "wdeg", progress: Callable[[int], None] | None = None) -> int:
    """How many solutions the game has, counted without keeping them (each one still verified).

    The search splits the grid into parts that no clue links once enough rows are fixed, and
    multiplies their counts (see `_Split`), so the solutions need not be visited one by one;
    with `strategy` "leftmost" it labels rows in order, else the row most clues read first
    (smallest domain first among those). A kind no clue
    mentions can be arranged in any of its n! orders whatever the rest is, so it is not
    searched: the count of the game without it is multiplied by n!.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    free = free_kinds(game)
    factor = math.factorial(game.size) ** len(free)
    if free:
        game = replace(game, kinds=tuple(k for k in game.kinds if k.name not in free))
    tell = None if progress is None else (lambda n: progress(n * factor))
    return _Split(game, strategy == "leftmost", tell).count() * factor


def free_kinds(game: Game) -> set[str]:
    """The kinds, after the first, that no rule mentions (by a thing of theirs or in a `::` path)."""
    used: set[str] = set()

    def visit(rule: Rule) -> None:
        if isinstance(rule, Connective):
            for sub in rule.args:
                visit(sub)
            return
        for symbol in rule.args:
            used.add(game.kind_of(symbol.base).name)
            used.update(symbol.path)

    for clue in game.clues:
        for rule in clue.rules:
            visit(rule)
    return {k.name for k in game.kinds[1:] if k.name not in used}


def upper_bound(game: Game) -> int:
    """The most solutions a game of its shape can have: every order of every kind after the first."""
    return math.factorial(game.size) ** (len(game.kinds) - 1)


class _Split:
    """Counts a game's solutions by FD search that splits into independent parts.

    Where the unfixed rows fall into groups that no unchecked clue spans, the solutions are
    every combination of each group's own, so the groups are counted apart and multiplied.
    What a clue spans is read on the domains: the rows of the things it names and, for
    `A::K`, the things of K that may still share A's row. A kind spans only the things whose
    rows may meet (each group of them fills rows no other can take). Each clue is read
    directly on the rows as soon as all it depends on is fixed (`verify`'s reading, on the
    part of the grid it looks at), once for all the grids that share that part: every grid
    counted has had every clue checked, and every column its things in distinct rows.
    """

    def __init__(self, game: Game, leftmost: bool, progress: Callable[[int], None] | None):
        from .compile import compile_game

        self.game, self.leftmost, self.progress = game, leftmost, progress
        self.model, self.goals = compile_game(game)
        rows = self.model.rows
        self.kind_rows = {k.name: tuple(rows[t] for t in k.things) for k in game.kinds}
        # a check: (what, its reads: (row term, kind read in that row or None), things
        # that must sit in distinct rows, or None for a clue)
        self.checks: list[tuple[str, tuple, tuple | None]] = []
        self.rules: dict[int, tuple[Rule, ...]] = {}
        for clue in game.clues:
            reads: list[tuple[str, str | None]] = []
            for rule in clue.rules:
                _reads(game, rule, reads)
            self.rules[len(self.checks)] = clue.rules
            self.checks.append((f"clue {clue.number}", tuple(dict.fromkeys(
                (rows[base], kind) for base, kind in reads)), None))
        for kind in game.kinds:
            self.checks.append((f"the {kind.name} column", (), self.kind_rows[kind.name]))
        self.found = 0

    def count(self) -> int:
        from ...core import conj, run

        result: list[int] = []

        def split_count(S):
            start = list(dict.fromkeys(self.model.row_vars))
            result.append(self._node(S, start, list(range(len(self.checks))), top=True))
            yield S

        for _ in run(1, (), conj(*self.model.definitions, *self.goals, split_count)):
            pass
        return result[0] if result else 0

    def _spans(self, i: int, data, store, unfixed: set) -> list:
        """The unfixed row variables check i may depend on, given the domains."""
        from ...core.fd.store import walk

        what, reads, distinct = self.checks[i]
        if distinct is not None:
            return [u for u in (walk(t, data) for t in distinct) if u in unfixed]
        out = []
        for term, kind in reads:
            b = walk(term, data)
            if b in unfixed:
                out.append(b)
            if kind is None:
                continue
            for t in self.kind_rows[kind]:
                u = walk(t, data)
                if u in unfixed and (store.contains(store.domains[u], b) if b.__class__ is int
                                     else store.meets(store.domains[u], store.domains[b])):
                    out.append(u)
        return out

    def _node(self, S, variables: list, pending: list[int], top: bool = False) -> int:
        """The solutions of the part `variables` of the grid in state S, `pending` its unchecked
        checks; `top`: these solutions are solutions of the whole grid (no part beside them)."""
        from ...core.fd.store import bind, walk

        data, store = _state(S)
        open_, singles = [], {}
        for x in variables:
            t = walk(x, data)
            if t.__class__ is int:
                continue
            value = store.value(t)
            if value is None:
                open_.append(t)
            else:
                singles[t] = value
        if singles:
            S, _ = bind(S, list(singles.items()))
            if S is False:
                return 0
            data, store = _state(S)
        unfixed = set(t for t in open_ if walk(t, data).__class__ is not int)
        open_ = [t for t in dict.fromkeys(open_) if t in unfixed]
        due, still = [], []
        for i in pending:
            spans = self._spans(i, data, store, unfixed)
            if spans:
                still.append((i, spans))
            else:
                due.append(i)
        if due:
            self._check(due, data)
        if not open_:
            if top:
                self._add(1)
            return 1
        degree = dict.fromkeys(open_, 0)  # how many clues still read each variable
        for i, spans in still:
            if self.checks[i][2] is None:
                for u in set(spans):
                    degree[u] += 1
        parts = self._parts(open_, still, data, store)
        total = 1
        for part, checks in parts:
            n = self._matching(part, checks, data, store)
            if n is None and len(parts) == 1:
                return self._branch(S, part, checks, degree, top)
            total *= self._branch(S, part, checks, degree, False) if n is None else n
            if not total:
                return 0
        if top:
            self._add(total)
        return total

    def _add(self, n: int) -> None:
        """Count n more solutions of the whole grid, telling `progress` every PROGRESS_EVERY."""
        before, self.found = self.found, self.found + n
        if self.progress is not None and before // PROGRESS_EVERY != self.found // PROGRESS_EVERY:
            self.progress(self.found // PROGRESS_EVERY * PROGRESS_EVERY)

    def _check(self, due: list[int], data) -> None:
        view = _RowsView(self.game, self.model.rows, data)
        for i in due:
            what, _, distinct = self.checks[i]
            try:
                if distinct is None:
                    ok = all(holds(self.game, r, view) for r in self.rules[i])
                else:
                    rows = [view.row(t) for t in distinct]
                    ok = len(set(rows)) == len(rows)
            except KeyError:
                ok = False
            if not ok:
                raise LogicpyError(f"{self.game.name or 'game'}: internal error, FD solution fails: {what}")

    def _parts(self, open_: list, pending: list[tuple[int, list]], data, store) -> list[tuple[list, list[int]]]:
        """The open variables in groups no pending check spans, each with its checks; a
        kind's check is cut where its things' domains fall into groups that do not meet."""
        from ...core.fd.store import walk

        parent = {t: t for t in open_}

        def find(t):
            while parent[t] is not t:
                parent[t] = parent[parent[t]]
                t = parent[t]
            return t

        def join(ts) -> None:
            root = find(ts[0])
            for u in ts[1:]:
                r = find(u)
                if r is not root:
                    parent[r] = root

        anchored: list[tuple[int, object]] = []
        for i, spans in pending:
            what, _, distinct = self.checks[i]
            if distinct is None:
                join(spans)
                anchored.append((i, spans[0]))
                continue
            pieces = _meeting(spans, store)
            if len(pieces) == 1:
                join(spans)
                anchored.append((i, spans[0]))
                continue
            fixed = tuple(t for t in distinct if walk(t, data).__class__ is int)
            for piece in pieces:
                join(piece)
                self.checks.append((what, (), fixed + tuple(piece)))
                anchored.append((len(self.checks) - 1, piece[0]))
        groups: dict = {}
        for t in open_:
            groups.setdefault(find(t), ([], []))[0].append(t)
        for i, t in anchored:
            groups[find(t)][1].append(i)
        return list(groups.values())

    def _matching(self, variables: list, pending: list[int], data, store) -> int | None:
        """When the only check left on a part is that its things sit in distinct rows (of one
        kind), the number of ways to place them so, row by row over the rows they may take;
        else None."""
        from ...core.fd.store import walk

        distinct = self.checks[pending[0]][2] if len(pending) == 1 else None
        if distinct is None:
            return None
        terms = [walk(t, data) for t in distinct]
        taken = {t for t in terms if t.__class__ is int}
        if sorted(variables, key=id) != sorted((t for t in terms if t.__class__ is not int), key=id):
            return None
        ways: dict[frozenset, int] = {frozenset(): 1}
        for v in variables:
            values = [x for x in store.values(store.domains[v]) if x not in taken]
            step: dict[frozenset, int] = {}
            for used, n in ways.items():
                for x in values:
                    if x not in used:
                        key = used | {x}
                        step[key] = step.get(key, 0) + n
            ways = step
        return sum(ways.values())

    def _branch(self, S, variables: list, pending: list[int], degree: dict, top: bool) -> int:
        """The solutions of part `variables`: the sum over the values of one of its variables
        (the first, or the one most clues read, smallest domain first: fixing it cuts most)."""
        from ...core.fd.store import bind

        store = _state(S)[1]
        if self.leftmost:
            x = variables[0]
        else:
            x = min(variables, key=lambda t: (-degree[t], store.count(store.domains[t])))
        total = 0
        for value in list(store.values(store.domains[x])):
            S2, _ = bind(S, [(x, value)])
            if S2 is not False:
                total += self._node(S2, variables, pending, top)
        return total


def _state(S) -> tuple:
    """The substitution of a search state and its FD store (None when it has none)."""
    from kanren.constraints import ConstrainedState

    from ...core.fd.store import FDStore

    if isinstance(S, ConstrainedState):
        return S.data, S.constraints.get(FDStore)
    return S, None


def _meeting(variables: list, store) -> list[list]:
    """The variables in groups whose domains meet (directly or through others)."""
    pieces: list[tuple[list, object]] = []
    for v in variables:
        d = store.domains[v]
        joined = [p for p in pieces if store.meets(p[1], d)]
        merged = [v]
        for p in joined:
            merged += p[0]
            d = store.union(d, p[1])
            pieces.remove(p)
        pieces.append((merged, d))
    return [p[0] for p in pieces]


def _reads(game: Game, rule: Rule, reads: list) -> None:
    """Add to `reads` what the truth of `rule` depends on: (thing, None) for a thing's row,
    (thing, kind) for the thing of that kind in its row (`A::…::K`)."""
    if isinstance(rule, Connective):
        for sub in rule.args:
            _reads(game, sub, reads)
        return
    for symbol in rule.args:
        kind = symbol.path[-1] if symbol.path else None
        reads.append((symbol.base, None if kind is None or kind == game.kind_of(symbol.base).name else kind))


class _RowsView:
    """The things whose rows are fixed in a substitution, as `semantics.View` reads a grid
    (a thing whose row is not fixed is a KeyError)."""

    def __init__(self, game: Game, rows: dict, data):
        self.game, self.rows, self.data = game, rows, data

    def row(self, term) -> int:
        """The row a row term is fixed to."""
        from ...core.fd.store import walk

        r = walk(term, self.data)
        if r.__class__ is not int:
            raise KeyError(term)
        return r

    def partner(self, thing: str, kind: str) -> str:
        from ...core.fd.store import walk

        r = self.row(self.rows[thing])
        for t in self.game.kind(kind).things:
            if walk(self.rows[t], self.data) == r:
                return t
        raise KeyError(kind)

    def linked(self, a: str, b: str) -> bool:
        return self.row(self.rows[a]) == self.row(self.rows[b])
