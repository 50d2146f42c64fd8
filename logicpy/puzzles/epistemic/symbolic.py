"""The symbolic engine: a story's worlds and every formula's meaning as binary decision diagrams.

A model is a knowledge structure in SMCDEL's sense: propositional variables, a BDD `θ` of the
worlds that exist, and for each agent the variables it observes. The worlds possible after k
statements are one BDD `alive_k ⊆ θ`; a public announcement is a conjunction; and
`knows(a, φ)` is `∀ H_a (alive → φ)`, H_a being the variables `a` does not observe. "a knows
which" is "a knows whether each hidden variable of the world's key is true, in a class that is
not empty". So a statement costs a few BDD operations, whatever the number of worlds: the
muddy children over 2**60 worlds are a few thousand small BDDs.

Two encodings:

- *valuations* (`propositional.Valuations`): the story's atoms are the variables; agents,
  facts and questions must be the propositional ones of `propositional.py`.
- *tabulated*: a story over a listed set of secrets. Each agent's view (and every other view
  or question a formula names) becomes a block of bits holding its class id, plus bits that
  tell apart worlds every agent confuses; `θ` is the set of the worlds' codes. It answers
  every story the explicit engine answers, and gives the same masks back as numpy arrays.

BDDs come from `dd`: CUDD (`dd.cudd`) where it is installed, the pure-Python `dd.autoref`
otherwise. A formula kind this engine does not evaluate raises `Unsupported`; `solve`'s
`auto` then uses the explicit engine.
"""

from __future__ import annotations

import atexit
import sys
from bisect import bisect_left
from dataclasses import MISSING, dataclass, fields
from functools import reduce
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...errors import InputError, LogicpyError
from ...extras import install_hint
from .model import (
    NOTHING, And, At, Common, Distributed, Fact, Formula, Knows, KnowsWhether, KnowsWhich, Not, Or, Projection, Seeing,
    Statement, Story,
)
from .propositional import AtomCount, AtomsFact, HiddenAtoms, Valuations

__all__ = ["Unsupported", "backend", "solve_symbolic", "SymbolicRun", "SymbolicResult", "SymbolicStep",
           "WorldSet", "LISTED"]

#: How many surviving secrets a symbolic result lists (the count is always exact).
LISTED = 1000


class Unsupported(LogicpyError):
    """The symbolic engine cannot evaluate this story (a formula kind, fact or view it cannot encode)."""


def _leak_report(exc: BaseException | None) -> bool:
    return isinstance(exc, AssertionError) and "referenced upon shutdown" in str(exc)


def _quiet_at_exit() -> None:
    """At exit, CUDD complains when Python frees a manager before nodes still held (by a traceback,
    say) in a reference cycle; the process is ending, so that report is dropped, and only it."""
    excepthook, unraisablehook = sys.excepthook, sys.unraisablehook

    def on_exception(kind: Any, value: Any, tb: Any) -> None:
        if not _leak_report(value):
            excepthook(kind, value, tb)

    def on_unraisable(unraisable: Any) -> None:
        if not _leak_report(unraisable.exc_value):
            unraisablehook(unraisable)

    sys.excepthook, sys.unraisablehook = on_exception, on_unraisable


#: The most atoms of a valuation model (world numbers stay int64).
ATOMS = 62
#: One BDD manager per package for the whole process: structures declare their own variables in it.
#: (A manager per structure could be freed by the cycle collector before the nodes that need it.)
_MANAGERS: dict[str, Any] = {}
_SERIAL = [0]


def backend(prefer: str = "cudd") -> tuple[str, Any]:
    """The BDD package in use ("cudd", else "autoref") and its manager: variables keep the order
    they are declared in (no reordering); the atoms `p61` … `p0` hold the first levels."""
    import importlib

    for name in dict.fromkeys((prefer, "cudd", "autoref")):
        if name in _MANAGERS:
            return name, _MANAGERS[name]
        try:
            module = importlib.import_module(f"dd.{name}")
        except ImportError:
            continue
        if name == "cudd":
            atexit.register(_quiet_at_exit)
        bdd = _MANAGERS[name] = module.BDD()
        bdd.configure(reordering=False)
        bdd.declare(*(f"p{i}" for i in reversed(range(ATOMS))))
        return name, bdd
    raise InputError(f"the symbolic engine needs dd: {install_hint('symbolic')}")


def _bits(count: int) -> int:
    """Bits needed to write the numbers 0 .. count-1."""
    return max(0, int(count - 1).bit_length())


class _Structure:
    """Variables (in level order), θ, what each agent observes, and the BDD of a fact, a view, a question."""

    bdd: Any
    names: list[str]
    offset: int  # the level of names[0]; the structure's variables hold the levels after it
    theta: Any
    observed: dict[str, frozenset[str]]
    key: list[str]  # the variables that tell every two worlds apart

    def fact(self, f: Fact) -> Any:
        raise NotImplementedError

    def view(self, agent: str, projection: Projection) -> frozenset[str]:
        raise NotImplementedError

    def question(self, projection: Projection) -> list[Any]:
        """BDDs whose values in a world determine the question's answer there."""
        raise NotImplementedError

    def children(self, u: Any) -> tuple[Any, Any]:
        """The low and high cofactors of a non-constant node (complement edges resolved)."""
        low, high = u.low, u.high
        if getattr(u, "negated", False):
            low, high = ~low, ~high
        return low, high

    def count(self, u: Any) -> int:
        """How many assignments of all the variables satisfy `u` (exact, any size)."""
        memo: dict[Any, int] = {}
        n = len(self.names)
        bdd = self.bdd

        def models(v: Any) -> tuple[int, int]:  # (count over the variables from v's level, that level)
            if v == bdd.false:
                return 0, n
            if v == bdd.true:
                return 1, n
            hit = memo.get(v)
            level = v.level - self.offset
            if hit is None:
                total = 0
                for child in self.children(v):
                    c, at = models(child)
                    total += c << (at - level - 1)
                hit = memo[v] = total
            return hit, level

        c, at = models(u)
        return c << at

    def codes(self, u: Any, limit: int | None = None) -> Iterator[int]:
        """The satisfying assignments of `u` as integers (the variable at level 0 is the highest
        bit), in increasing order, at most `limit` of them."""
        n = len(self.names)
        bdd = self.bdd
        done = 0

        def walk(v: Any, level: int, prefix: int) -> Iterator[int]:
            if v == bdd.false:
                return
            at = n if v == bdd.true else v.level - self.offset
            free = at - level
            for middle in range(1 << free):  # the variables skipped between level and v's level
                head = (prefix << free) | middle
                if at == n:
                    yield head
                else:
                    low, high = self.children(v)
                    yield from walk(low, at + 1, head << 1)
                    yield from walk(high, at + 1, (head << 1) | 1)

        for code in walk(u, 0, 0):
            yield code
            done += 1
            if limit is not None and done >= limit:
                return


class _ValuationStructure(_Structure):
    """Atoms as variables: `p{n-1}` at the top level, so codes are the worlds' own numbers."""

    def __init__(self, story: Story, manager: Any):
        worlds = story.worlds
        assert isinstance(worlds, Valuations)
        self.n = worlds.n
        self.bdd = manager
        self.names = [f"p{i}" for i in reversed(range(self.n))]
        self.offset = ATOMS - self.n
        self.theta = self.bdd.true
        self.key = list(self.names)
        self.observed = {agent: self.view(agent, p) for agent, p in story.agents.items()}

    def atom(self, i: int) -> Any:
        if not 0 <= i < self.n:
            raise InputError(f"atom {i} is not one of the {self.n} atoms")
        return self.bdd.var(f"p{i}")

    def fact(self, f: Fact) -> Any:
        if not isinstance(f, AtomsFact):
            raise Unsupported(f"the fact {f.text!r} is not stated over atoms")
        atoms = sorted(set(f.atoms))
        high = len(atoms) if f.at_most is None else min(f.at_most, len(atoms))
        rows = self.counts(atoms, high)
        return reduce(lambda a, b: a | b, rows[max(f.at_least, 0):high + 1], self.bdd.false)

    def view(self, agent: str, projection: Projection) -> frozenset[str]:
        if projection is NOTHING:
            return frozenset()
        if not isinstance(projection, HiddenAtoms):
            raise Unsupported(f"{agent}'s view ({projection.name or 'a projection'}) is not stated over atoms")
        return frozenset(self.names) - {f"p{i}" for i in projection.hidden}

    def question(self, projection: Projection) -> list[Any]:
        if not isinstance(projection, AtomCount):
            raise Unsupported(f"the question {projection.name!r} is not stated over atoms")
        atoms = sorted(set(projection.atoms))
        return self.counts(atoms, len(atoms))

    def counts(self, atoms: Sequence[int], top: int) -> list[Any]:
        """For j = 0 .. top, the BDD of "exactly j of `atoms` are true"."""
        bdd = self.bdd
        row = [bdd.true] + [bdd.false] * top  # row[j]: exactly j of the atoms seen so far
        for i in atoms:
            p = self.atom(i)
            row = [(~p & row[j]) | (p & row[j - 1]) if j else ~p & row[0] for j in range(top + 1)]
        return row

    def exactly(self, atoms: Sequence[int], k: int) -> Any:
        """Exactly `k` of `atoms` are true."""
        return self.counts(atoms, k)[k]


class _TabulatedStructure(_Structure):
    """A listed set of secrets coded by class ids: one block of bits per view or question."""

    def __init__(self, story: Story, manager: Any):
        from .solve import Model, classes_of

        self.story = story
        self.model = Model.of(story)
        n = self.model.n
        blocks: dict[int, tuple[Projection, np.ndarray, int]] = {}  # id(projection) -> (it, ids, classes)
        for agent, projection in story.agents.items():
            ids, count = self.model.views[agent]
            blocks.setdefault(id(projection), (projection, np.asarray(ids, dtype=np.int64), count))
        extra: list[Projection] = []
        for statement in story.statements:
            for sub in statement.formula.walk():
                if isinstance(sub, Seeing) and sub.view is not NOTHING:
                    extra.append(sub.view)
                elif isinstance(sub, KnowsWhich) and sub.question is not None:
                    extra.append(sub.question)
        key_blocks = list(blocks)
        for projection in extra:
            if id(projection) not in blocks:
                ids, count = classes_of(projection, story.worlds, f"the projection {projection.name!r}")
                blocks[id(projection)] = (projection, np.asarray(ids, dtype=np.int64), count)
        # worlds every agent's view confuses get a residual number among themselves
        if key_blocks:
            vectors = np.stack([blocks[b][1] for b in key_blocks], axis=1)
            _, group = np.unique(vectors, axis=0, return_inverse=True)
            group = group.reshape(-1)
        else:
            group = np.zeros(n, dtype=np.int64)
        order = np.argsort(group, kind="stable")
        rank = np.empty(n, dtype=np.int64)
        starts = np.searchsorted(group[order], group[order], side="left")
        rank[order] = np.arange(n) - starts
        residual = (None, rank, int(rank.max()) + 1 if n else 1)
        self.bdd = manager
        _SERIAL[0] += 1
        self.names = []
        self.block_vars: dict[int, list[str]] = {}
        columns: list[np.ndarray] = []
        coded: list[tuple[int, tuple[Any, np.ndarray, int]]] = [*blocks.items(), (0, residual)]
        for number, (block, (_, ids, count)) in enumerate(coded):
            names = [f"s{_SERIAL[0]}_{number}_{j}" for j in range(_bits(count))]
            self.block_vars[block] = names
            self.names += names
            columns += [(ids >> (len(names) - 1 - j)) & 1 for j in range(len(names))]
        if len(self.names) > 62:
            raise Unsupported(f"the worlds need {len(self.names)} bits, more than 62")
        self.bdd.declare(*self.names)
        self.offset = self.bdd.level_of_var(self.names[0]) if self.names else 0
        residual_vars = self.block_vars[0]
        self.key = [v for b in key_blocks for v in self.block_vars[b]] + residual_vars
        width = len(self.names)
        self.code_of = np.zeros(n, dtype=np.int64)  # every world's code, level 0 the highest bit
        for j, column in enumerate(columns):
            self.code_of |= column.astype(np.int64) << (width - 1 - j)
        self.sorted_codes = np.sort(self.code_of)
        self.index_by_sorted = np.argsort(self.code_of)
        self.theta = self.set_of(np.ones(n, dtype=bool))
        self.observed = {agent: frozenset(self.block_vars[id(p)]) for agent, p in story.agents.items()}
        self._facts: dict[int, Any] = {}
        self._keep: list[Any] = []

    def set_of(self, mask: np.ndarray) -> Any:
        """The BDD of the worlds where `mask` is true (over every variable: within θ)."""
        codes = np.unique(self.code_of[mask])
        return self._build(codes.tolist(), 0)

    def _build(self, codes: list[int], level: int) -> Any:
        """The BDD of a sorted list of distinct codes, from `level` down."""
        bdd = self.bdd
        width = len(self.names)
        if not codes:
            return bdd.false
        if level == width:
            return bdd.true
        bit = 1 << (width - 1 - level)
        split = bisect_left(codes, (codes[0] >> (width - level) << (width - level)) | bit)
        low = self._build(codes[:split], level + 1)
        high = self._build(codes[split:], level + 1)
        return bdd.ite(bdd.var(self.names[level]), high, low)

    def fact(self, f: Fact) -> Any:
        hit = self._facts.get(id(f))
        if hit is None:
            secrets = self.story.worlds
            try:
                if f.vectorized:
                    truth = np.asarray(f.test(np.asarray(secrets)), dtype=bool).reshape(self.model.n)
                else:
                    truth = np.fromiter((bool(f.test(s)) for s in secrets), dtype=bool, count=self.model.n)
            except Exception as exc:  # noqa: BLE001 - any failure of user code is reported
                raise InputError(f"fact {f.text!r} fails on the worlds: {exc}") from None
            hit = self._facts[id(f)] = self.set_of(truth)
            self._keep.append(f)
        return hit

    def view(self, agent: str, projection: Projection) -> frozenset[str]:
        if projection is NOTHING:
            return frozenset()
        return frozenset(self.block_vars[id(projection)])

    def question(self, projection: Projection) -> list[Any]:
        return [self.bdd.var(v) for v in self.block_vars[id(projection)]]

    def mask(self, u: Any) -> np.ndarray:
        """The worlds in `u`, as a boolean array over the story's worlds."""
        out = np.zeros(self.model.n, dtype=bool)
        codes = np.fromiter(self.codes(u & self.theta), dtype=np.int64)
        if len(codes):
            out[self.index_by_sorted[np.searchsorted(self.sorted_codes, codes)]] = True
        return out

    def world(self, index: int) -> dict[str, bool]:
        """World `index` as an assignment of every variable."""
        code = int(self.code_of[index])
        width = len(self.names)
        return {name: bool(code >> (width - 1 - j) & 1) for j, name in enumerate(self.names)}


def structure_of(story: Story, prefer: str = "cudd") -> _Structure:
    """The knowledge structure of a story: valuations as they are, listed secrets tabulated."""
    _, manager = backend(prefer)
    if isinstance(story.worlds, Valuations):
        return _ValuationStructure(story, manager)
    return _TabulatedStructure(story, manager)


@dataclass(frozen=True, eq=False)
class WorldSet:
    """A set of worlds held as a BDD (a mask too large to list): count, membership, the first few."""

    structure: Any
    node: Any

    @property
    def count(self) -> int:
        return self.structure.count(self.node & self.structure.theta)

    def __getitem__(self, index: int) -> bool:
        world = {name: bool(int(index) >> i & 1) for i, name in enumerate(reversed(self.structure.names))}
        return self.structure.bdd.let(world, self.node) == self.structure.bdd.true

    def first(self, limit: int) -> list[int]:
        """The smallest `limit` world numbers in the set, in increasing order."""
        return list(self.structure.codes(self.node, limit))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = np.zeros(1 << len(self.structure.names), dtype=bool)
        out[np.fromiter(self.structure.codes(self.node), dtype=np.int64)] = True
        return out if dtype is None else out.astype(dtype)


class SymbolicRun:
    """A story told on a knowledge structure: `alive` BDDs per moment, formulas' BDDs on demand.

    `mask(k)` and `truth(f, k)` give numpy arrays over the story's worlds for listed secrets
    (as the explicit engine's `Run`), `WorldSet`s for valuations.
    """

    def __init__(self, structure: _Structure, statements: Sequence[Statement],
                 observed: dict[str, frozenset[str]] | None = None):
        self.structure = structure
        self.bdd = structure.bdd
        self.statements = tuple(statements)
        self.observed = dict(structure.observed if observed is None else observed)
        self.all_vars = frozenset(structure.names)
        self.alive: list[Any] = [structure.theta]
        self._cache: dict[tuple[int, int], Any] = {}
        self._keep: list[Any] = []
        self._counterfactuals: dict[tuple[str, int], SymbolicRun] = {}
        self.model = getattr(structure, "model", None)

    def alive_at(self, moment: int) -> Any:
        """The BDD of the worlds possible after `moment` statements."""
        while len(self.alive) <= moment:
            k = len(self.alive) - 1
            self.alive.append(self.alive[k] & self.meaning(self.statements[k].formula, k))
            for key in [key for key in self._cache if 0 <= key[1] < k]:  # as the explicit Run, keep memory flat
                del self._cache[key]
        return self.alive[moment]

    def mask(self, moment: int) -> Any:
        return self._shown(self.alive_at(moment))

    def truth(self, formula: Formula, moment: int) -> Any:
        return self._shown(self.meaning(formula, moment))

    def _shown(self, u: Any) -> Any:
        if isinstance(self.structure, _TabulatedStructure):
            return self.structure.mask(u)
        return WorldSet(self.structure, u)

    def holds_at(self, formula: Formula, moment: int, world: int) -> bool:
        """Whether `formula` holds at world number `world` after `moment` statements: knowledge is
        read in that world's class alone (alive and φ with the agent's observed variables fixed)."""
        if isinstance(self.structure, _TabulatedStructure):
            assignment = self.structure.world(world)
        else:
            assignment = {name: bool(int(world) >> i & 1) for i, name in enumerate(reversed(self.structure.names))}
        return self._holds(formula, moment, assignment)

    def _holds(self, f: Formula, k: int, world: dict[str, bool]) -> bool:
        bdd = self.bdd
        if isinstance(f, Not):
            return not self._holds(f.formula, k, world)
        if isinstance(f, And):
            return all(self._holds(p, k, world) for p in f.parts)
        if isinstance(f, Or):
            return any(self._holds(p, k, world) for p in f.parts)
        if isinstance(f, At):
            return self._holds(f.formula, f.moment, world)
        if isinstance(f, (Knows, KnowsWhether)):
            seen = {name: world[name] for name in self.observed[f.agent]}
            cell = bdd.let(seen, self.alive_at(k)) if seen else self.alive_at(k)
            phi = self.meaning(f.formula, k)
            phi = bdd.let(seen, phi) if seen else phi
            if isinstance(f, Knows):
                return cell & ~phi == bdd.false
            return cell & ~phi == bdd.false or cell & phi == bdd.false
        return bdd.let(world, self.meaning(f, k)) == bdd.true

    def meaning(self, formula: Formula, moment: int) -> Any:
        """The BDD of the worlds where `formula` holds after `moment` statements (meaningful within alive)."""
        if isinstance(formula, (Not, And, Or, At)):
            return self._evaluate(formula, moment)
        key = (id(formula), -1 if isinstance(formula, Fact) else moment)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._evaluate(formula, moment)
            self._keep.append(formula)
        return hit

    def _hidden(self, agent: str) -> frozenset[str]:
        if agent not in self.observed:
            raise InputError(f"unknown agent {agent!r}; the agents are {', '.join(self.observed)}")
        return self.all_vars - self.observed[agent]

    def _knows(self, hidden: frozenset[str], alive: Any, phi: Any) -> Any:
        return self.bdd.forall(hidden, ~alive | phi) if hidden else ~alive | phi

    def _evaluate(self, f: Formula, k: int) -> Any:
        bdd = self.bdd
        if isinstance(f, Fact):
            return self.structure.fact(f)
        if isinstance(f, Not):
            return ~self.meaning(f.formula, k)
        if isinstance(f, And):
            return reduce(lambda a, b: a & b, (self.meaning(p, k) for p in f.parts), bdd.true)
        if isinstance(f, Or):
            return reduce(lambda a, b: a | b, (self.meaning(p, k) for p in f.parts), bdd.false)
        if isinstance(f, At):
            return self.meaning(f.formula, f.moment)
        if isinstance(f, Seeing):
            key = (f.agent, id(f.view))
            other = self._counterfactuals.get(key)
            if other is None:
                self._hidden(f.agent)
                observed = {**self.observed, f.agent: self.structure.view(f.agent, f.view)}
                other = self._counterfactuals[key] = SymbolicRun(self.structure, self.statements, observed)
            return other.meaning(f.formula, k)
        if isinstance(f, Distributed):  # pooled observations: hidden only what no member observes
            for agent in f.group:
                self._hidden(agent)
            seen = frozenset().union(*(self.observed[agent] for agent in f.group))
            return self._knows(self.all_vars - seen, self.alive_at(k), self.meaning(f.formula, k))
        if isinstance(f, Common):  # the greatest X with X = everybody in the group knows (φ and X)
            alive, phi = self.alive_at(k), self.meaning(f.formula, k)
            hiddens = [self._hidden(agent) for agent in f.group]
            x = bdd.true
            while True:
                target = phi & x
                new = reduce(lambda a, b: a & b, (self._knows(h, alive, target) for h in hiddens), bdd.true)
                if new == x:
                    return x
                x = new
        if not isinstance(f, (Knows, KnowsWhich, KnowsWhether)):
            raise Unsupported(f"the symbolic engine does not evaluate {type(f).__name__} formulas")
        hidden = self._hidden(f.agent)
        alive = self.alive_at(k)
        if isinstance(f, Knows):
            return self._knows(hidden, alive, self.meaning(f.formula, k))
        if isinstance(f, KnowsWhether):
            phi = self.meaning(f.formula, k)
            return self._knows(hidden, alive, phi) | self._knows(hidden, alive, ~phi)
        # knows which: some world in its class, and every hidden bit of the key (or the question) the same there
        parts = ([bdd.var(v) for v in self.structure.key if v in hidden] if f.question is None
                 else self.structure.question(f.question))
        out = bdd.exist(hidden, alive) if hidden else alive
        for v in parts:
            out &= self._knows(hidden, alive, v) | self._knows(hidden, alive, ~v)
        return out


@dataclass(frozen=True, repr=False)
class SymbolicStep:
    """One statement and the worlds possible before and after it, as `WorldSet`s."""

    statement: Statement
    before: WorldSet
    after: WorldSet

    @property
    def count(self) -> int:
        """How many worlds the statement leaves."""
        return self.after.count

    def __repr__(self) -> str:
        from .display import step_repr

        return step_repr(self)  # type: ignore[arg-type]

    @property
    def removed_count(self) -> int:
        return self.before.count - self.after.count

    @property
    def kept(self) -> np.ndarray:
        """Numbers of the worlds the statement leaves (refused above `LISTED` x 1000)."""
        if self.count > LISTED * 1000:
            raise InputError(f"{self.count:,} worlds are left: too many to list")
        return np.asarray(self.after.first(self.count), dtype=np.int64)


def _public(statement: Statement) -> bool:
    """A plain `Statement`, every field beyond speaker, sentence and formula at its default: an
    announcement to everyone, the only kind this engine tells."""
    if type(statement) is not Statement:
        return False
    for field in fields(statement):
        if field.name in ("speaker", "sentence", "formula"):
            continue
        default = field.default if field.default is not MISSING else (
            field.default_factory() if field.default_factory is not MISSING else MISSING)
        if getattr(statement, field.name) != default:
            return False
    return True


def solve_symbolic(story: Story) -> Any:
    """Tell the story on its BDD knowledge structure.

    Listed secrets give the explicit engine's `Result` (numpy masks, same explanations);
    valuations give a `SymbolicResult`, whose steps count and list their worlds lazily.
    """
    from .solve import Result, Step, check_story, secret_at

    check_story(story)
    for statement in story.statements:
        if not _public(statement):
            raise Unsupported(f"statement {statement.sentence!r} is not a public announcement")
    structure = structure_of(story)
    run = SymbolicRun(structure, story.statements)
    last = len(story.statements)
    if isinstance(structure, _TabulatedStructure):
        steps = [Step(statement, run.mask(k), run.mask(k + 1)) for k, statement in enumerate(story.statements)]
        final = np.flatnonzero(run.mask(last))
        solutions = [secret_at(story.worlds, int(i)) for i in final]
        status = "none" if not solutions else "unique" if len(solutions) == 1 else "ambiguous"
        return Result(story, status, solutions, steps, run)  # type: ignore[arg-type]
    sets = [WorldSet(structure, run.alive_at(k)) for k in range(last + 1)]
    symbolic_steps = [SymbolicStep(statement, sets[k], sets[k + 1]) for k, statement in enumerate(story.statements)]
    total = sets[-1].count
    status = "none" if total == 0 else "unique" if total == 1 else "ambiguous"
    return SymbolicResult(story, status, sets[-1].first(LISTED), symbolic_steps, run, total)  # type: ignore[arg-type]


@dataclass(frozen=True, repr=False)
class SymbolicResult:
    """A story's outcome on valuations: status, the first `LISTED` surviving secrets, exact counts."""

    story: Story
    status: str
    solutions: list[Any]
    steps: list[SymbolicStep]
    run: SymbolicRun
    total: int

    @property
    def count(self) -> int:
        return self.total

    def __repr__(self) -> str:
        first = symbolic_verdict(self).splitlines()[0]
        if len(first) > 120:
            first = first[:119] + "…"
        return f"<cheryl result: {first}; {len(self.story.worlds):,} candidates, {len(self.steps)} statements>"

    @property
    def listed_all(self) -> bool:
        return len(self.solutions) == self.total

    def answers(self) -> list[Any] | None:
        """The distinct answers to the story's question among all survivors (None when unknown)."""
        answer = self.story.answer
        if answer is None:
            return None
        structure = self.run.structure
        if isinstance(answer, AtomCount) and isinstance(structure, _ValuationStructure):
            alive = self.run.alive_at(len(self.story.statements))
            return [k for k in range(len(answer.atoms) + 1)
                    if alive & structure.exactly(answer.atoms, k) != structure.bdd.false]
        if self.listed_all:
            return sorted({answer.fn(s) for s in self.solutions})
        return None


#: How many worlds a step of `symbolic_text` lists.
SHOWN = 12


def _listing(story: Story, worlds: list[int], total: int) -> str:
    shown = [story.show(w) for w in worlds[:SHOWN]]
    more = total - len(shown)
    return ", ".join(shown) + (f", … ({more:,} more)" if more > 0 else "")


def symbolic_verdict(result: SymbolicResult) -> str:
    """`unique solution: …`, `N solutions: …` (and the unique answer), or `no solution: …`."""
    show = result.story.show
    if result.status == "unique":
        return f"unique solution: {show(result.solutions[0])}"
    if result.status == "ambiguous":
        text = f"{result.count:,} solutions: {_listing(result.story, result.solutions, result.count)}"
        answers = result.answers()
        if answers is not None and len(answers) == 1:
            assert result.story.answer is not None
            text += f"\nunique answer: {result.story.answer.name} is {answers[0]}"
        return text
    last = next((k for k, step in enumerate(result.steps) if step.count == 0), None)
    if last is None:
        return "no solution: there are no candidates at all"
    return (f"no solution: statement {last + 1} ({result.steps[last].statement.speaker}) is false in every world "
            "still possible")


def symbolic_text(result: SymbolicResult) -> str:
    """The story as steps, each with the number of candidates left and the first few of them."""
    story = result.story
    lines = [f"{story.name}: {len(story.worlds):,} candidates"]
    for k, step in enumerate(result.steps):
        lines.append(f"{k + 1}. {step.statement.speaker}: \"{step.statement.sentence}\"")
        count = step.count
        listed = _listing(story, step.after.first(SHOWN), count) if count else "nothing"
        lines.append(f"   left ({count:,}): {listed}")
    lines += ["", symbolic_verdict(result)]
    return "\n".join(lines)


def symbolic_data(result: SymbolicResult, verified: str) -> dict[str, Any]:
    """The result as JSON-ready data, as `render.result_to_data` gives it; lists say when they are cut."""
    story = result.story
    steps = []
    for step in result.steps:
        count = step.count
        steps.append({"speaker": step.statement.speaker, "sentence": step.statement.sentence, "left": count,
                      "candidates": [story.show(w) for w in step.after.first(LISTED)],
                      "candidates_listed": min(count, LISTED), "removed": step.removed_count})
    return {
        "story": story.name, "question": story.question, "status": result.status,
        "solutions": [story.show(s) for s in result.solutions], "values": list(result.solutions),
        "solutions_listed": len(result.solutions), "count": result.count, "answers": result.answers(),
        "steps": steps, "verified": verified, "engine": "symbolic",
    }
