"""The fast evaluator: worlds are indices, each agent's view is a partition into class ids.

A formula's meaning at a moment is a boolean array over all worlds. With `ids` an agent's
class of each world and `alive` the worlds left at that moment, `knows(a, φ)` is true in a
world iff no alive world of its class falsifies φ: one scatter into a per-class flag array
and one gather back. Every other operator is one or two numpy operations, so a statement
costs O(worlds), whatever the number of agents or classes.

A model may be a disjoint union of independent models (a *batch*): `base` gives each
world's component and every view is refined by it, so ten thousand ten-date puzzles are
one 100,000-world model evaluated in one pass. "Sees nothing" then means "sees only the
component".

Invariants: for `views[a] = (ids, count)`, every id lies in `range(count)`; masks only shrink
with time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ...errors import InputError
from .actions import expanded
from .propositional import Valuations
from .model import (
    NOTHING, And, At, Common, Distributed, Fact, Formula, Knows, KnowsWhether, KnowsWhich, Not, Or,
    Projection, Seeing, Statement, Story, agents_named,
)

__all__ = ["Model", "Run", "Step", "Result", "solve", "check_story", "classes_of", "secret_at", "ENGINES",
           "engine_for", "explicit_bytes", "MEMORY_LIMIT", "size_text"]

#: The engines `solve` can use: `auto` picks by the model's size (see `engine_for`).
ENGINES = ("auto", "explicit", "symbolic")
#: `auto` tells stories over valuations of more atoms than this symbolically (2**16 = 65,536 worlds).
AUTO_ATOMS = 16
#: The explicit engine's memory per world and per agent (class ids, truth arrays, masks), in bytes.
BYTES_PER_WORLD, BYTES_PER_AGENT_WORLD = 40, 20
#: The most memory a command lets a model take (an estimate above it is refused before building it).
MEMORY_LIMIT = 1_000_000_000


def classes_of(projection: Projection, secrets: Any, what: str) -> tuple[np.ndarray, int]:
    """Class ids of every secret under `projection`, and the number of classes.

    A projection that raises on some secret is an `InputError` naming `what` and the secret.
    """
    n = len(secrets)
    if projection.vectorized:
        try:
            values = np.asarray(projection.fn(np.asarray(secrets)))
        except Exception as exc:  # noqa: BLE001 - any failure of user code is reported
            raise InputError(f"{what} fails on the worlds: {exc}") from None
        if values.shape[:1] != (n,):
            raise InputError(f"{what} gave {values.shape[:1]} values for {n} worlds")
        if values.dtype.kind in "iu" and values.ndim == 1 and (n == 0 or (values.min() >= 0 and values.max() < 4 * n + 64)):
            return values.astype(np.int32 if n < 2**29 else np.int64), int(values.max()) + 1 if n else 0
        if values.ndim > 1:
            values = values.reshape(n, -1)
            _, ids = np.unique(values, axis=0, return_inverse=True)
        else:
            _, ids = np.unique(values, return_inverse=True)
        ids = ids.reshape(-1).astype(np.int32 if n < 2**29 else np.int64)
        return ids, int(ids.max()) + 1 if n else 0
    index: dict[Any, int] = {}
    ids = np.empty(n, dtype=np.int64)
    for i, secret in enumerate(secrets):
        try:
            value = projection.fn(secret)
            ids[i] = index.setdefault(value, len(index))
        except Exception as exc:  # noqa: BLE001
            raise InputError(f"{what} fails on world {secret!r}: {exc}") from None
    return ids, len(index)


def secret_at(worlds: Any, index: int) -> Any:
    """The secret of world `index` as a plain Python value (rows of an array become tuples)."""
    secret = worlds[int(index)]
    if isinstance(secret, np.ndarray):
        return tuple(int(x) for x in secret)
    return secret.item() if isinstance(secret, np.generic) else secret


def check_story(story: Story) -> None:
    """The worlds are distinct; statements name only the story's agents and refer only to earlier moments."""
    if not isinstance(story.worlds, (np.ndarray, Valuations)):
        seen: set[Any] = set()
        for secret in story.worlds:
            if secret in seen:
                raise InputError(f"{story.name}: the world {story.show(secret)!r} is listed twice")
            seen.add(secret)
    for number, statement in enumerate(story.statements, 1):
        named = agents_named(statement.formula) | set(statement.action.group if statement.action else ())
        for agent in sorted(named):
            if agent not in story.agents:
                raise InputError(
                    f"statement {number} ({statement.speaker}: {statement.sentence!r}): unknown agent "
                    f"{agent!r}; the agents are {', '.join(story.agents)}"
                )
        for sub in statement.formula.walk():
            if isinstance(sub, At) and not 0 <= sub.moment <= number - 1:
                raise InputError(
                    f"statement {number} ({statement.speaker}): refers to moment {sub.moment}, "
                    f"which is not before it (moments 0..{number - 1})"
                )


class Model:
    """Worlds 0..n-1 (their secrets kept for facts), every agent's view as class ids, and the
    projections those ids came from (for explanations)."""

    def __init__(self, secrets: Any, views: dict[str, tuple[np.ndarray, int]], projections: dict[str, Projection],
                 base: np.ndarray | None = None, components: int = 1):
        self.secrets = secrets
        self.n = len(secrets)
        self.views = views
        self.projections = projections
        self.base = np.zeros(self.n, dtype=np.int64) if base is None else base
        self.components = components

    @classmethod
    def of(cls, story: Story) -> Model:
        """The model of a story's worlds and agents (checks the story first)."""
        check_story(story)
        views = {a: classes_of(p, story.worlds, f"agent {a}'s view ({p.name or 'projection'})")
                 for a, p in story.agents.items()}
        return cls(story.worlds, views, dict(story.agents))

    @classmethod
    def batch(cls, pool: Sequence[Any], agents: dict[str, Projection], samples: np.ndarray) -> Model:
        """The disjoint union of one model per row of `samples` (indices into `pool`)."""
        count, width = samples.shape
        flat = samples.reshape(-1)
        base = np.repeat(np.arange(count, dtype=np.int64), width)
        views = {}
        for a, p in agents.items():
            pool_ids, k = classes_of(p, pool, f"agent {a}'s view")
            views[a] = (base * k + pool_ids[flat], count * k)
        return cls([pool[i] for i in flat], views, dict(agents), base, count)

    def with_view(self, agent: str, projection: Projection) -> Model:
        """The same model where `agent` sees `projection` (within each component) instead."""
        if projection is NOTHING:  # one class per component, without calling it on every world
            ids, k = np.zeros(self.n, dtype=np.int32), 1
        else:
            ids, k = classes_of(projection, self.secrets, f"the view given to {agent}")
        views = {**self.views, agent: (self.base * k + ids, self.components * k)}
        return Model(self.secrets, views, {**self.projections, agent: projection}, self.base, self.components)


class Run:
    """A story told on a model: the alive mask at each moment, formulas' truth arrays on demand."""

    def __init__(self, model: Model, statements: Sequence[Statement]):
        self.model = model
        self.statements = tuple(statements)
        self.masks: list[np.ndarray] = [np.ones(model.n, dtype=bool)]
        self._cache: dict[tuple[int, int], np.ndarray] = {}
        self._keep: list[Any] = []  # keeps cached formulas alive so their ids stay unique
        self._counterfactuals: dict[tuple[str, int], Run] = {}
        self._views: dict[tuple[str, int], tuple[np.ndarray, int]] = {}
        self._events: dict[int, tuple[np.ndarray, int]] = {}

    def view(self, agent: str, moment: int) -> tuple[np.ndarray, int]:
        """`agent`'s classes after `moment` statements: its view of the secret, refined by the
        event of every earlier action whose group it is in (the product update, for actions whose
        events exclude each other: one event per world, so no world is copied)."""
        ids, count = self.model.views[agent]
        actions = [j for j, s in enumerate(self.statements[:moment]) if s.action and agent in s.action.group]
        if not actions:
            return ids, count
        key = (agent, actions[-1])
        hit = self._views.get(key)
        if hit is None:
            for j in actions:  # refined one action at a time, ids kept below the number of worlds
                events, kinds = self.events(j)
                _, ids = np.unique(ids.astype(np.int64) * (kinds + 1) + (events + 1), return_inverse=True)
                ids = ids.reshape(-1)
            hit = self._views[key] = (ids, int(ids.max()) + 1 if len(ids) else 0)
        return hit

    def events(self, j: int) -> tuple[np.ndarray, int]:
        """The event of statement j's action in each world (-1 where none can happen), and how many
        events there are; an InputError if two events can happen in one possible world."""
        hit = self._events.get(j)
        if hit is None:
            action = self.statements[j].action
            assert action is not None
            if action.unnoticed:
                raise InputError(f"statement {j + 1} copies worlds (learns_privately): tell the story with solve()")
            if action.observes is not None:
                hit = classes_of(action.observes, self.model.secrets, f"what statement {j + 1} observes")
            else:
                truths = np.stack([self.truth(e, j) for e in action.events]) & self.mask(j)
                if (truths.sum(axis=0) > 1).any():
                    w = int(np.flatnonzero(truths.sum(axis=0) > 1)[0])
                    raise InputError(f"statement {j + 1}: two of its events can happen in the world "
                                     f"{secret_at(self.model.secrets, w)!r}; an action's events must exclude each other")
                hit = (np.where(truths.any(axis=0), truths.argmax(axis=0), -1), len(action.events))
            self._events[j] = hit
        return hit

    def mask(self, moment: int) -> np.ndarray:
        """Worlds still possible after the first `moment` statements."""
        while len(self.masks) <= moment:
            k = len(self.masks) - 1
            self.masks.append(self.masks[k] & self.truth(self.statements[k].formula, k))
            self._forget_before(k)
        return self.masks[moment]

    def _forget_before(self, moment: int) -> None:
        """Drop cached truth arrays of moments before `moment` (recomputed if asked again)."""
        for key in [key for key in self._cache if 0 <= key[1] < moment]:
            del self._cache[key]

    def truth(self, formula: Formula, moment: int) -> np.ndarray:
        """Where `formula` holds, in the model after `moment` statements (meaningful on alive worlds)."""
        if isinstance(formula, (Not, And, Or, At)):  # cheap to rebuild from cached parts: not kept
            return self._evaluate(formula, moment)
        key = (id(formula), -1 if isinstance(formula, Fact) else moment)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._evaluate(formula, moment)
            self._keep.append(formula)
        return hit

    def holds_at(self, f: Formula, k: int, w: int) -> bool:
        """Whether `f` holds at world `w` after `k` statements, looking only at the worlds it depends on
        (one world's "who knows" costs its agents' classes, not a truth array over every world)."""
        cached = self._cache.get((id(f), -1 if isinstance(f, Fact) else k))
        if cached is not None:
            return bool(cached[w])
        model = self.model
        if isinstance(f, Fact):
            secret = model.secrets[w:w + 1] if f.vectorized else [model.secrets[w]]
            try:
                value = f.test(np.asarray(secret)) if f.vectorized else f.test(secret[0])
                return bool(np.asarray(value).reshape(-1)[0])
            except Exception as exc:  # noqa: BLE001
                raise InputError(f"fact {f.text!r} fails on the worlds: {exc}") from None
        if isinstance(f, Not):
            return not self.holds_at(f.formula, k, w)
        if isinstance(f, And):
            return all(self.holds_at(p, k, w) for p in f.parts)
        if isinstance(f, Or):
            return any(self.holds_at(p, k, w) for p in f.parts)
        if isinstance(f, At):
            return self.holds_at(f.formula, f.moment, w)
        if not isinstance(f, (Knows, KnowsWhich, KnowsWhether)):
            return bool(self.truth(f, k)[w])
        ids, _ = self.view(f.agent, k)
        cell = np.flatnonzero(self.mask(k) & (ids == ids[w]))
        if isinstance(f, KnowsWhich):
            if f.question is None:
                return len(cell) == 1
            return len({_plain(f.question.fn(model.secrets[int(v)])) for v in cell}) == 1
        truths = [self.holds_at(f.formula, k, int(v)) for v in cell]
        return all(truths) if isinstance(f, Knows) else all(truths) or not any(truths)

    def _evaluate(self, f: Formula, k: int) -> np.ndarray:
        model = self.model
        if isinstance(f, Fact):
            secrets = model.secrets
            try:
                if f.vectorized:
                    return np.asarray(f.test(np.asarray(secrets)), dtype=bool).reshape(model.n)
                return np.fromiter((bool(f.test(s)) for s in secrets), dtype=bool, count=model.n)
            except Exception as exc:  # noqa: BLE001
                raise InputError(f"fact {f.text!r} fails on the worlds: {exc}") from None
        if isinstance(f, Not):
            return ~self.truth(f.formula, k)
        if isinstance(f, And):
            out = np.ones(model.n, dtype=bool)
            for part in f.parts:
                out &= self.truth(part, k)
            return out
        if isinstance(f, Or):
            out = np.zeros(model.n, dtype=bool)
            for part in f.parts:
                out |= self.truth(part, k)
            return out
        if isinstance(f, At):
            return self.truth(f.formula, f.moment)
        if isinstance(f, Seeing):
            key = (f.agent, id(f.view))
            other = self._counterfactuals.get(key)
            if other is None:
                other = self._counterfactuals[key] = Run(model.with_view(f.agent, f.view), self.statements)
            return other.truth(f.formula, k)
        if isinstance(f, Common):
            return self._common(f, k)
        if isinstance(f, Distributed):
            return self._distributed(f, k)
        assert isinstance(f, (Knows, KnowsWhich, KnowsWhether)), f"unknown formula {f!r}"
        ids, classes = self.view(f.agent, k)
        alive = self.mask(k)
        if isinstance(f, KnowsWhich):
            if f.question is None:  # the agent knows the secret: one alive world in its class
                return np.bincount(ids[alive], minlength=classes)[ids] == 1
            answer, answers = classes_of(f.question, model.secrets, f"question {f.question.name!r}")
            pairs = np.unique(ids[alive].astype(np.int64) * answers + answer[alive])
            return np.bincount(pairs // answers, minlength=classes)[ids] == 1
        if isinstance(f, Knows):
            flagged = np.zeros(classes, dtype=bool)
            flagged[ids[alive & ~self.truth(f.formula, k)]] = True
            return ~flagged[ids]
        if isinstance(f, KnowsWhether):
            phi = self.truth(f.formula, k)
            some_true = np.zeros(classes, dtype=bool)
            some_false = np.zeros(classes, dtype=bool)
            some_true[ids[alive & phi]] = True
            some_false[ids[alive & ~phi]] = True
            return ~(some_true & some_false)[ids]
        raise TypeError(f"not a formula: {f!r}")

    def components(self, group: tuple[str, ...], k: int) -> np.ndarray:
        """For each world, the lowest-numbered possible world it reaches through the group's
        views at moment k (chains of "cannot tell apart", through possible worlds only); -1 for
        worlds no longer possible. Labels spread class by class, with pointer jumping."""
        alive = np.flatnonzero(self.mask(k))
        label = np.arange(len(alive))
        views = [self.view(a, k)[0][alive] for a in group]
        while True:
            before = label
            for ids in views:
                low = np.full(int(ids.max()) + 1 if len(ids) else 0, len(alive))
                np.minimum.at(low, ids, label)
                label = low[ids]
            while not np.array_equal(label[label], label):
                label = label[label]
            if np.array_equal(label, before):
                break
        out = np.full(self.model.n, -1, dtype=np.int64)
        out[alive] = alive[label]
        return out

    def _common(self, f: Common, k: int) -> np.ndarray:
        """C_G φ: no possible world reachable through the group falsifies φ."""
        reach = self.components(f.group, k)
        failing = np.zeros(self.model.n, dtype=bool)
        failing[reach[(reach >= 0) & ~self.truth(f.formula, k)]] = True
        return ~failing[np.maximum(reach, 0)]

    def _distributed(self, f: Distributed, k: int) -> np.ndarray:
        """D_G φ: φ holds in every possible world that looks the same to every member."""
        ids = np.stack([self.view(a, k)[0] for a in f.group], axis=1)
        _, pooled = np.unique(ids, axis=0, return_inverse=True)
        pooled = pooled.reshape(-1)
        flagged = np.zeros(int(pooled.max()) + 1, dtype=bool)
        flagged[pooled[self.mask(k) & ~self.truth(f.formula, k)]] = True
        return ~flagged[pooled]


@dataclass(frozen=True)
class Step:
    """One statement and the worlds possible before and after it (boolean masks)."""

    statement: Statement
    before: np.ndarray
    after: np.ndarray

    def __repr__(self) -> str:
        from .display import step_repr
        return step_repr(self)

    @property
    def kept(self) -> np.ndarray:
        """Indices of the worlds the statement leaves."""
        return np.flatnonzero(self.after)

    @property
    def removed(self) -> np.ndarray:
        """Indices of the worlds the statement removes."""
        return np.flatnonzero(self.before & ~self.after)

    @property
    def count(self) -> int:
        """How many worlds the statement leaves."""
        return int(np.count_nonzero(self.after))


@dataclass(frozen=True)
class Result:
    """A story's outcome: status ("unique", "ambiguous", "none"), surviving secrets, the steps."""

    story: Story
    status: str
    solutions: list[Any]
    steps: list[Step]
    run: Run

    @property
    def count(self) -> int:
        return len(self.solutions)

    def __repr__(self) -> str:
        from .display import result_repr
        return result_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.result_html`."""
        from .display import result_html
        return result_html(self)

    def cell(self, agent: str, secret: Any, moment: int) -> list[Any]:
        """The secrets `agent` considers possible after `moment` statements, told `secret`'s part."""
        worlds = self.story.worlds
        index = next((i for i in range(len(worlds)) if secret_at(worlds, i) == secret), None)
        if index is None:
            raise InputError(f"{secret!r} is not one of the story's worlds")
        if agent not in self.run.model.views:
            raise InputError(f"unknown agent {agent!r}; the agents are {', '.join(self.run.model.views)}")
        ids, _ = self.run.view(agent, moment)
        return [secret_at(worlds, int(i)) for i in np.flatnonzero(self.run.mask(moment) & (ids == ids[index]))]


def _plain(value: Any) -> Any:
    """A projection's value as a hashable plain value (numpy scalars and rows unwrapped)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return tuple(value) if isinstance(value, list) else value


def explicit_bytes(story: Story) -> int:
    """About how much memory the explicit engine needs for `story` (worlds x agents)."""
    n = len(story.worlds)
    return n * (BYTES_PER_WORLD + BYTES_PER_AGENT_WORLD * len(story.agents))


def engine_for(story: Story, engine: str = "auto") -> str:
    """The engine `solve` uses: `explicit` or `symbolic`. `auto` tells valuations of more than
    `AUTO_ATOMS` atoms symbolically (when `dd` is installed) and every listed set of secrets explicitly."""
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine != "auto":
        return engine
    if isinstance(story.worlds, Valuations) and story.worlds.n > AUTO_ATOMS:
        from importlib.util import find_spec

        if find_spec("dd") is not None or explicit_bytes(story) > MEMORY_LIMIT:
            return "symbolic"
    return "explicit"


def solve(story: Story, engine: str = "auto") -> Result:
    """Tell the story on its worlds; every statement keeps the worlds where it is true.

    `engine`: "explicit" (numpy arrays over every world), "symbolic" (BDDs, `symbolic.py`) or
    "auto" (by the model's size, see `engine_for`; explicit where the symbolic engine cannot
    evaluate a formula). Both give the same survivors after every statement.
    """
    if not isinstance(story, Story):
        raise InputError(f"solve: story must be a Story, got {type(story).__name__}")
    chosen = engine_for(story, engine)
    if chosen == "symbolic":
        from .symbolic import Unsupported, solve_symbolic

        try:
            return solve_symbolic(story)
        except Unsupported as exc:
            if engine == "symbolic" or isinstance(story.worlds, Valuations) and explicit_bytes(story) > MEMORY_LIMIT:
                raise InputError(f"{exc}: the symbolic engine cannot tell this story; use the explicit engine") from None
    if isinstance(story.worlds, Valuations) and explicit_bytes(story) > MEMORY_LIMIT:
        raise InputError(f"the explicit engine lists every world: 2**{story.worlds.n} worlds would need about "
                         f"{size_text(explicit_bytes(story))}, over the limit of {size_text(MEMORY_LIMIT)}; use the "
                         "symbolic engine")
    story = expanded(story)  # worlds copied by the private announcements nobody else notices
    run = Run(Model.of(story), story.statements)
    steps = []
    for k, statement in enumerate(story.statements):
        steps.append(Step(statement, run.mask(k), run.mask(k + 1)))
    final = np.flatnonzero(run.mask(len(story.statements)))
    solutions = [secret_at(story.worlds, int(i)) for i in final]
    status = "none" if not solutions else "unique" if len(solutions) == 1 else "ambiguous"
    return Result(story, status, solutions, steps, run)


def size_text(n: int) -> str:
    """Bytes in words: 3.2 GB, 512 MB."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n / 1e3:,.0f} kB"
