"""The explainer as it was before its agenda (issue 14): candidate sets, and every rule swept over
the whole grid until nothing changes, each assumption propagated from scratch.

Kept as the baseline `bench_explain` times `logicpy.puzzles.einstein.explain` against, and that
a slow test checks it against: the two must give the same trace, step for step. The one change
from the code it was: a link rules out the fellows in name order (it took them in set order, so
its traces varied between runs). `explain_by_sweeps(game, solution)` returns an `Explanation`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from logicpy.puzzles.einstein.explain import (
    MAX_COMBINATIONS, Explanation, Step, _cells, _conjuncts, _consistent, _Contradiction, _link_weights,
    _PartialView, _quote,
)
from logicpy.puzzles.einstein.model import Game, Grid, Relation, Rule
from logicpy.puzzles.einstein.semantics import holds

__all__ = ["explain_by_sweeps"]

Cell = tuple[str, str]  # (thing, kind): the kind-thing in thing's row


@dataclass(frozen=True)
class _Conjunct:
    clue: int
    rule: Rule
    cells: tuple[Cell, ...]


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
        for other in sorted(self.cand[a, kb] - {b}):
            changed |= self.remove(a, other, "grid", "{pair} ruled out: " + f"{a} is with {b}")
        for other in sorted(self.cand[b, ka] - {a}):
            changed |= self.remove(b, other, "grid", "{pair} ruled out: " + f"{b} is with {a}")
        return changed

    @property
    def solved(self) -> bool:
        return all(len(v) == 1 for v in self.cand.values())


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
                grid.remove(a, c, "try", f"assume {pair}: so {why}; so {pair} is ruled out")  # the chain is not kept
                return True
    return False


def explain_by_sweeps(game: Game, solution: Grid | None = None, grids: bool = False) -> Explanation:
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
