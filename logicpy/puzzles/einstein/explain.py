"""Explanation mode: a step-by-step deduction in grid terms, independent of the FD engine.

The state is the logic grid people draw: for every thing t and every other kind K, the
K-things that may still share t's row. Deduction repeats, to a fixpoint:

- *clue*: each clue is split into conjuncts; a conjunct is checked on every combination
  of the cells it reads, and a candidate with no supporting combination is ruled out
  ("clue 3 rules out Time–Guavas");
- *only one left*: a thing with one candidate in a kind is linked to it, and that
  candidate is ruled out for the thing's fellows;
- *only place*: a candidate that fits just one thing of a kind is linked to it;
- *no common partner*: a–d is ruled out when no thing of a third kind fits both.

When that stops short of a full grid, each open cell is tried: an assumption whose
propagation fails is ruled out ("assuming … fails"). Only when that too stops is a guess
made, taken from the solution the FD search found, and the trace says so.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .model import Clue, Connective, Game, Grid, Relation, Rule
from .semantics import holds, resolve_kind

__all__ = ["Step", "Explanation", "explain"]

#: A conjunct whose cells have more combinations than this is not used for deduction.
MAX_COMBINATIONS = 20_000

Cell = tuple[str, str]  # (thing, kind): the kind-thing in thing's row


@dataclass(frozen=True)
class Step:
    """One line of the trace; `kind` is "clue", "grid", "try", "guess" or "stuck".

    `pair` is the two things the step is about (empty for "stuck"); `linked` says
    whether it puts them in one row (True) or rules that out (False); `clue` is the clue
    it applies (None for grid rules); `grid`, when asked for, the candidates it leaves:
    for each thing of the first kind and each other kind, the things still possible.
    """

    kind: str
    text: str
    pair: tuple[str, ...] = ()
    linked: bool = False
    clue: int | None = None
    grid: Candidates | None = field(default=None, compare=False, repr=False)


#: (first-kind thing, kind) -> the things of kind still possible in that thing's row
Candidates = dict[tuple[str, str], tuple[str, ...]]


@dataclass(frozen=True)
class Explanation:
    """The deduction trace, and how many guesses it needed (0: propagation alone solved it)."""

    steps: tuple[Step, ...]
    guesses: int
    solved: bool
    game: Game | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        from .display import explanation_repr
        return explanation_repr(self)

    def _repr_html_(self) -> str:
        """Notebooks: see `display.explanation_html`."""
        from .display import explanation_html
        return explanation_html(self)


class _Contradiction(Exception):
    """Propagation emptied a cell (`cell` = (thing, kind)) or found a clue that cannot hold."""

    def __init__(self, why: str, cell: Cell | None = None, clue: int | None = None):
        super().__init__(why)
        self.cell, self.clue = cell, clue


@dataclass(frozen=True)
class _Conjunct:
    clue: int
    rule: Rule
    cells: tuple[Cell, ...]


class _PartialView:
    """The partner view of one combination of cell values."""

    def __init__(self, game: Game, values: dict[Cell, str]):
        self.game, self.values = game, values

    def partner(self, thing: str, kind: str) -> str:
        return self.values[thing, kind]

    def linked(self, a: str, b: str) -> bool:
        kind_b, kind_a = self.game.kind_of(b).name, self.game.kind_of(a).name
        if (a, kind_b) in self.values:
            return self.values[a, kind_b] == b
        return self.values[b, kind_a] == a


def _conjuncts(rule: Rule, positive: bool = True):
    """Split a rule into rules whose conjunction means the same (negation pushed inward)."""
    if isinstance(rule, Relation):
        rel = rule if positive else Relation(rule.func, rule.args, not rule.negated, rule.literal)
        if rel.func == "link" and rel.negated:
            yield from (Relation("link", pair, True) for pair in itertools.combinations(rel.args, 2))
        elif not rel.negated and rel.func not in ("link", "+", "-", "*", "/"):
            yield from (Relation(rel.func, pair, False, rel.literal) for pair in zip(rel.args, rel.args[1:]))
        else:
            yield rel
        return
    op = rule.op
    if (op == "and" and positive) or (op == "or" and not positive):
        for sub in rule.args:
            yield from _conjuncts(sub, positive)
    elif op in ("nor", "not") and positive:
        for sub in rule.args:
            yield from _conjuncts(sub, False)
    elif op == "nand" and not positive:
        for sub in rule.args:
            yield from _conjuncts(sub, True)
    else:
        yield rule if positive else Connective("not", (rule,))


class _Grid:
    """Candidate sets per cell, kept symmetric, with the trace of every change."""

    def __init__(self, game: Game, quotes: dict[int, str] | None = None, snapshots: bool = False):
        self.game = game
        self.cand: dict[Cell, set[str]] = {
            (t, k.name): set(k.things)
            for own in game.kinds for t in own.things for k in game.kinds if k is not own
        }
        self.steps: list[Step] = []
        self.announced: set[str] = set()
        self.quotes = quotes or {}
        self.cited: set[int] = set()
        self.snapshots = snapshots

    def copy(self) -> _Grid:
        other = _Grid.__new__(_Grid)
        other.game, other.steps, other.announced = self.game, [], set(self.announced)
        other.quotes, other.cited, other.snapshots = {}, set(), False
        other.cand = {c: set(v) for c, v in self.cand.items()}
        return other

    def cite(self, clue: int) -> str:
        """`clue N`, quoting its words the first time it is cited."""
        if clue in self.cited or clue not in self.quotes:
            return f"clue {clue}"
        self.cited.add(clue)
        return f"clue {clue} (“{self.quotes[clue]}”)"

    def record(self, step: Step) -> None:
        if self.snapshots:
            first = self.game.kinds[0]
            grid = {(t, k.name): tuple(x for x in k.things if x in self.cand[t, k.name])
                    for t in first.things for k in self.game.kinds[1:]}
            step = Step(step.kind, step.text, step.pair, step.linked, step.clue, grid)
        self.steps.append(step)

    def pair(self, a: str, b: str) -> str:
        kinds = self.game.kind_names
        first, second = sorted((a, b), key=lambda t: kinds.index(self.game.kind_of(t).name))
        return f"{first}–{second}"

    def remove(self, a: str, b: str, step_kind: str, reason: str, clue: int | None = None) -> bool:
        ka, kb = self.game.kind_of(a).name, self.game.kind_of(b).name
        if b not in self.cand[a, kb]:
            return False
        self.cand[a, kb].discard(b)
        self.cand[b, ka].discard(a)
        self.record(Step(step_kind, reason.format(pair=self.pair(a, b)), (a, b), False, clue))
        for cell in ((a, kb), (b, ka)):
            if not self.cand[cell]:
                raise _Contradiction(f"no {cell[1]} is left for {cell[0]}", cell)
        return True

    def link(self, a: str, b: str, reason: str, clue: int | None = None, step_kind: str = "grid") -> bool:
        """Make a and b share a row; True if anything changed."""
        ka, kb = self.game.kind_of(a).name, self.game.kind_of(b).name
        changed = False
        if b not in self.cand[a, kb]:
            raise _Contradiction(f"{a} cannot be with {b}", (a, kb), clue)
        if self.pair(a, b) not in self.announced:
            self.announced.add(self.pair(a, b))
            text = f"{reason}: {self.pair(a, b)}" if step_kind == "clue" else f"so {self.pair(a, b)} ({reason})"
            self.record(Step(step_kind, text, (a, b), True, clue))
            changed = True
        for other in list(self.cand[a, kb] - {b}):
            changed |= self.remove(a, other, "grid", "{pair} ruled out: " + f"{a} is with {b}")
        for other in list(self.cand[b, ka] - {a}):
            changed |= self.remove(b, other, "grid", "{pair} ruled out: " + f"{b} is with {a}")
        return changed

    @property
    def solved(self) -> bool:
        return all(len(v) == 1 for v in self.cand.values())


def _cells(game: Game, rule: Rule, weights: dict[str, int]) -> list[Cell]:
    """The cells a rule reads: partners of resolved symbols, one cell per linked pair."""
    if isinstance(rule, Connective):
        return [c for sub in rule.args for c in _cells(game, sub, weights)]
    cells = []
    if rule.func == "link":
        for a, b in itertools.combinations([s.base for s in rule.args], 2):
            if game.kind_of(a) != game.kind_of(b):
                a, b = (a, b) if weights.get(a, 0) >= weights.get(b, 0) else (b, a)
                cells.append((a, game.kind_of(b).name))
    else:
        for s in rule.args:
            kind = resolve_kind(game, s)
            if game.kind_of(s.base).name != kind:
                cells.append((s.base, kind))
    return cells


def _link_weights(rule: Rule, weights: dict[str, int]) -> dict[str, int]:
    """How often each thing appears in the rule's links (to read links from the busiest side)."""
    if isinstance(rule, Connective):
        for sub in rule.args:
            _link_weights(sub, weights)
    elif rule.func == "link":
        for s in rule.args:
            weights[s.base] = weights.get(s.base, 0) + 1
    return weights


def _consistent(game: Game, values: dict[Cell, str]) -> bool:
    """A combination may be part of a grid: fellows differ, and mirrored cells agree."""
    seen: dict[tuple[str, str, str], str] = {}
    for (thing, kind), other in values.items():
        key = (game.kind_of(thing).name, kind, other)
        if seen.setdefault(key, thing) != thing:
            return False
        mirror = values.get((other, game.kind_of(thing).name))
        if mirror is not None and mirror != thing:
            return False
    return True


def _filter(grid: _Grid, conj: _Conjunct) -> bool:
    """Rule out the candidates of the conjunct's cells that no combination supports;
    a positive link of two things is stated as that link."""
    game, cells = grid.game, conj.cells
    rule = conj.rule
    if isinstance(rule, Relation) and rule.func == "link" and not rule.negated and len(rule.args) == 2:
        a, b = rule.args[0].base, rule.args[1].base
        if game.kind_of(a) != game.kind_of(b):
            if grid.pair(a, b) in grid.announced:
                return False
            return grid.link(a, b, grid.cite(conj.clue), conj.clue, "clue")
    domains = [sorted(grid.cand[c]) for c in cells]
    total = 1
    for d in domains:
        total *= len(d)
    if total > MAX_COMBINATIONS:
        return False
    supported: list[set[str]] = [set() for _ in cells]
    found = False
    for combo in itertools.product(*domains):
        values = dict(zip(cells, combo))
        if _consistent(game, values) and holds(game, conj.rule, _PartialView(game, values)):
            found = True
            for s, v in zip(supported, combo):
                s.add(v)
    if not found:
        raise _Contradiction(f"clue {conj.clue} cannot hold", clue=conj.clue)
    changed = False
    for (thing, _), domain, keep in zip(cells, domains, supported):
        for other in domain:
            if other not in keep:
                cited = grid.cite(conj.clue)
                changed |= grid.remove(thing, other, "clue", f"{cited} rules out " + "{pair}", conj.clue)
    return changed


def _grid_rules(grid: _Grid) -> bool:
    """One pass of the grid rules; True if anything changed."""
    game, changed = grid.game, False
    for own in game.kinds:
        for kind in game.kinds:
            if kind is own:
                continue
            for t in own.things:
                if len(grid.cand[t, kind.name]) == 1:
                    (c,) = grid.cand[t, kind.name]
                    changed |= grid.link(t, c, f"the only {kind.name} left for {t}")
            for c in kind.things:
                homes = [t for t in own.things if c in grid.cand[t, kind.name]]
                if len(homes) == 1 and len(grid.cand[homes[0], kind.name]) > 1:
                    changed |= grid.link(homes[0], c, f"the only {own.name} left for {c}")
    for ka, kb in itertools.combinations(game.kinds, 2):
        for a in ka.things:
            for d in sorted(grid.cand[a, kb.name]):
                for kc in game.kinds:
                    if kc is ka or kc is kb:
                        continue
                    if not grid.cand[a, kc.name] & grid.cand[d, kc.name]:
                        changed |= grid.remove(a, d, "grid", "{pair} ruled out: " + f"no {kc.name} fits both")
                        break
    return changed


def _propagate(grid: _Grid, conjuncts: list[_Conjunct]) -> None:
    """Apply clues and grid rules until nothing changes (raises _Contradiction)."""
    while True:
        changed = False
        for conj in conjuncts:
            changed |= _filter(grid, conj)
        changed |= _grid_rules(grid)
        if not changed:
            return


def _try_cells(grid: _Grid, conjuncts: list[_Conjunct]) -> bool:
    """Rule out every open pairing whose assumption fails by propagation; True if any did."""
    game = grid.game
    for (a, kind), cands in list(grid.cand.items()):
        if game.kinds.index(game.kind_of(a)) > game.kind_names.index(kind) or len(cands) < 2:
            continue
        for c in sorted(cands):
            trial = grid.copy()
            try:
                trial.link(a, c, "assumed")
                _propagate(trial, conjuncts)
            except _Contradiction as why:
                pair = grid.pair(a, c)
                grid.remove(a, c, "try", f"assume {pair}: " + _chain(trial, why) + "; so {pair} is ruled out")
                return True
    return False


#: The most links a failed assumption's chain lists before it elides the rest.
CHAIN_LINKS = 6


def _chain(trial: _Grid, why: _Contradiction) -> str:
    """Why an assumption failed, as a short chain: the links it forced, by which clue or grid
    rule, then how the emptied cell lost its last candidates."""
    steps = trial.steps[1:]  # the first step states the assumption itself
    links = [s for s in steps if s.linked]
    parts = []
    for s in links[:CHAIN_LINKS]:
        parts.append(f"by clue {s.clue} {trial.pair(*s.pair)}" if s.clue else f"{trial.pair(*s.pair)} ({_reason(s)})")
    if len(links) > CHAIN_LINKS:
        parts.append(f"… {len(links) - CHAIN_LINKS} more links")
    if why.cell is not None:  # how the emptied cell lost its candidates during the trial
        thing, kind = why.cell
        lost = [s for s in steps if not s.linked and thing in s.pair and
                any(trial.game.kind_of(t).name == kind for t in s.pair if t != thing)]
        for s in lost[-4:]:
            other = next(t for t in s.pair if t != thing)
            if s.clue:
                parts.append(f"by clue {s.clue} {thing} is not with {other}")
            else:
                parts.append(f"{thing} is not with {other} ({s.text.partition(': ')[2]})")
    head = "then " + "; ".join(parts) + "; " if parts else ""
    return head + f"so {why}"


def _reason(step: Step) -> str:
    """The parenthesised reason of a grid step ("the only Pet left for Al")."""
    return step.text[step.text.find("(") + 1:-1] if "(" in step.text else step.text


def explain(game: Game, solution: Grid | None = None, grids: bool = False) -> Explanation:
    """The deduction trace of a game; `solution` (from `solve`) supplies any needed guesses;
    with `grids`, each step keeps the candidate grid it leaves (for `render_explanation`)."""
    conjuncts = []
    for clue in game.clues:
        for rule in clue.rules:
            for part in _conjuncts(rule):
                cells = tuple(dict.fromkeys(_cells(game, part, _link_weights(part, {}))))
                conjuncts.append(_Conjunct(clue.number, part, cells))
    grid, guesses = _Grid(game, {c.number: _quote(c) for c in game.clues}, grids), 0
    try:
        while True:
            _propagate(grid, conjuncts)
            if grid.solved or _try_cells(grid, conjuncts):
                if grid.solved:
                    break
                continue
            if solution is None:
                grid.record(Step("stuck", "propagation stops here and no solution is known to guess from"))
                break
            a, kind = min(
                (c for c, v in grid.cand.items() if len(v) > 1),
                key=lambda c: (len(grid.cand[c]), game.kinds.index(game.kind_of(c[0]))),
            )
            row = next(r for r in solution if a in r)
            choice = row[game.kind_names.index(kind)]
            guesses += 1
            grid.record(Step("guess", f"propagation stops; guess {grid.pair(a, choice)} "
                                      f"(1 of {len(grid.cand[a, kind])} candidates for {a})", (a, choice), True))
            grid.announced.add(grid.pair(a, choice))  # the guess line states the link
            grid.link(a, choice, "guessed")
    except _Contradiction as why:
        grid.record(Step("stuck", f"contradiction: {why}; the game has no solution"))
    return Explanation(tuple(grid.steps), guesses, grid.solved, game)


def _quote(clue: Clue) -> str:
    """A clue's words: its English when it has some, else its rules in the text notation."""
    if clue.text:
        return clue.text
    from .notation import rule_text

    return "; ".join(rule_text(r) for r in clue.rules)
