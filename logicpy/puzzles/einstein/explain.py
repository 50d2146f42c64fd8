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

How it is fast (the deductions and their order are those of a plain sweep, so the trace and
the difficulty it measures do not depend on these):

- a cell's candidates are a bitset, bit r the r-th of its kind's things in name order;
- each conjunct's supporting combinations are worked out once, when the main grid first looks
  at it (a table); later looks only read the table against the candidates;
- an agenda keyed by cell: each rule at each place (a conjunct; "only one left" for a cell;
  "no common partner" for a thing and a kind) is an item, and a change to a cell puts on the
  agenda only the items that read it. A sweep takes the due items in the order a full sweep
  would, and skips the rest (they would find nothing);
- an assumption is first tried quietly (no trace), and its final grid is kept: when it is
  tried again after the grid has lost candidates, only those losses are applied to the kept
  grid and propagated. The result is the same, because propagation removes candidates by
  monotone rules, so it ends at the one greatest fixpoint whatever the order. Only a failing
  assumption is then re-run with its trace, for its chain.
"""

from __future__ import annotations

import heapq
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

    `rule` and `basis` say what the step follows from, so that it can be checked from the
    candidates before it: "clue" (the clue `clue`); "only" (basis (thing, kind): that cell
    has one candidate left); "with" (basis (x, y): x is with y, so not with y's fellows);
    "no-common" (basis (kind,): no thing of that kind fits both); "assumed", "guess". A
    "try" step has its failed assumption's `chain`: the assumption, then every fact the
    contradiction needs, each citing its own rule, then the contradiction itself (kind
    "contradiction": rule "empty" with basis (thing, kind), rule "clue", or rule "with"
    with basis (x, y): x was linked to y though ruled out).
    """

    kind: str
    text: str
    pair: tuple[str, ...] = ()
    linked: bool = False
    clue: int | None = None
    grid: Candidates | None = field(default=None, compare=False, repr=False)
    rule: str = field(default="", compare=False)
    basis: tuple[str, ...] = field(default=(), compare=False)
    chain: tuple[Step, ...] = field(default=(), compare=False, repr=False)


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
    """Propagation emptied a cell (`cell` = (thing, kind)), found a clue that cannot hold, or
    linked a ruled-out pair (`pair`); `premises` are the trial's facts (step indices) it rests on."""

    def __init__(self, why: str, cell: Cell | None = None, clue: int | None = None,
                 premises: tuple[int, ...] = (), pair: tuple[str, str] | None = None):
        super().__init__(why)
        self.cell, self.clue, self.premises, self.pair = cell, clue, premises, pair


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


class _Ranks(dict):
    """mask -> the ranks of its set bits, lowest first (worked out once per mask)."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        ranks, rest = [], mask
        while rest:
            low = rest & -rest
            ranks.append(low.bit_length() - 1)
            rest ^= low
        self[mask] = result = tuple(ranks)
        return result


class _Numbering:
    """Things and cells as numbers, for bitset grids.

    Thing id = kind index × size + the rank of its name in its kind (so the bits of a cell run in
    name order, the order steps are taken in); cell id = thing id × kinds + kind index.
    """

    def __init__(self, game: Game):
        self.kinds, self.size = len(game.kinds), game.size
        self.names: list[str] = []
        for kind in game.kinds:
            self.names += sorted(kind.things)
        self.id = {name: i for i, name in enumerate(self.names)}
        self.kind_names = game.kind_names
        self.declared = [[self.id[t] for t in kind.things] for kind in game.kinds]  # the game's order
        self.ranks = _Ranks()

    def kind(self, thing: int) -> int:
        return thing // self.size

    def cell(self, thing: int, kind: int) -> int:
        return thing * self.kinds + kind

    def member(self, kind: int, rank: int) -> int:
        return kind * self.size + rank


@dataclass
class _Conjunct:
    """A conjunct of a clue, with the cells it reads (as names, as (thing id, kind index), as cell
    ids); `link` the two things of a positive two-thing link; `table` its supporting combinations
    (tuples of ranks, one per cell), worked out on the main grid when it first looks (every later
    grid is a subset of that one)."""

    clue: int
    rule: Rule
    cells: tuple[Cell, ...]
    places: tuple[tuple[int, int], ...]
    ids: tuple[int, ...]
    link: tuple[int, int] | None
    table: list[tuple[int, ...]] | None


#: The deduction rules, as the first field of an agenda item.
_CLUE, _ONLY_ONE, _ONLY_PLACE, _NO_COMMON_PARTNER = range(4)


class _Plan:
    """What every grid of one game shares: its numbering, its conjuncts, the agenda items (every
    rule at every place, in the order a sweep takes them) and which items read which cell."""

    def __init__(self, game: Game):
        self.game = game
        self.num = num = _Numbering(game)
        kinds, size = num.kinds, num.size
        self.conjuncts = self._conjuncts(game)
        # agenda items in sweep order: every conjunct; per pair of kinds the "only one left" and
        # "only place" rules; then "no common partner" per thing and later kind
        self.items: list[tuple[int, int]] = [(_CLUE, j) for j in range(len(self.conjuncts))]
        n_cells = kinds * size * kinds
        self.only_one_at, self.only_place_at, self.partners_at = [0] * n_cells, [0] * n_cells, [0] * n_cells
        for own in range(kinds):
            for kind in range(kinds):
                if kind == own:
                    continue
                for t in num.declared[own]:
                    self.only_one_at[t * kinds + kind] = len(self.items)
                    self.items.append((_ONLY_ONE, t * kinds + kind))
                for c in num.declared[kind]:  # the column of c among own's things is the cell (c, own)
                    self.only_place_at[c * kinds + own] = len(self.items)
                    self.items.append((_ONLY_PLACE, c * kinds + own))
        for ka, kb in itertools.combinations(range(kinds), 2):
            for a in num.declared[ka]:
                self.partners_at[a * kinds + kb] = len(self.items)
                self.items.append((_NO_COMMON_PARTNER, a * kinds + kb))
        readers: list[list[int]] = [[] for _ in range(n_cells)]
        for j, conj in enumerate(self.conjuncts):
            for cell in conj.ids:
                readers[cell].append(j)
        #: the items that read a cell: its conjuncts, "only one left" and "only place"
        self.readers = [(*readers[c], self.only_one_at[c], self.only_place_at[c]) for c in range(n_cells)]
        self.third = [[[kc for kc in range(kinds) if kc not in (ka, kb)] for kb in range(kinds)] for ka in range(kinds)]
        # For a change to the cell (x, kc): per third kind kb, the cell (x, kb) whose candidates d to
        # scan, the cell (d, kc) of the first (d = base + 0; + r × kinds for rank r), and the "no
        # common partner" item of the pair (x, d): fixed when x's kind is the earlier, else found
        # at the cell (d, x's kind) of the first d (+ r × kinds).
        self.partner_scans = [
            tuple((x * kinds + kb, kb * size * kinds + kc,
                   self.partners_at[x * kinds + kb] if x // size < kb else -1, kb * size * kinds + x // size)
                  for kb in self.third[x // size][kc])
            if kc != x // size else ()
            for x in range(kinds * size) for kc in range(kinds)]
        self.tried = [(t, k) for own in range(kinds) for t in num.declared[own] for k in range(own + 1, kinds)]

    def _conjuncts(self, game: Game) -> list[_Conjunct]:
        num = self.num
        conjuncts = []
        for clue in game.clues:
            for rule in clue.rules:
                for part in _conjuncts(rule):
                    cells = tuple(dict.fromkeys(_cells(game, part, _link_weights(part, {}))))
                    places = tuple((num.id[t], game.kind_names.index(k)) for t, k in cells)
                    link = None
                    if isinstance(part, Relation) and part.func == "link" and not part.negated and len(part.args) == 2:
                        a, b = part.args[0].base, part.args[1].base
                        if game.kind_of(a) != game.kind_of(b):
                            link = (num.id[a], num.id[b])
                    conjuncts.append(_Conjunct(clue.number, part, cells, places,
                                               tuple(num.cell(t, k) for t, k in places), link, None))
        return conjuncts

    def supports(self, conj: _Conjunct, masks: list[int]) -> list[tuple[int, ...]]:
        """The combinations of the masks' candidates that are consistent and satisfy the conjunct."""
        game, num = self.game, self.num
        table = []
        for combo in itertools.product(*(num.ranks[m] for m in masks)):
            values = {cell: num.names[num.member(k, r)] for cell, (_, k), r in zip(conj.cells, conj.places, combo)}
            if _consistent(game, values) and holds(game, conj.rule, _PartialView(game, values)):
                table.append(combo)
        return table


class _Grid:
    """Candidate bitsets per cell, kept symmetric, with the trace of every change (when `recording`)
    and the agenda: the items whose cells changed since they last looked, due in this sweep (`now`,
    a heap of positions after `cursor`) or the next (`later`)."""

    def __init__(self, plan: _Plan, quotes: dict[int, str] | None = None, snapshots: bool = False,
                 recording: bool = True, cand: list[int] | None = None):
        num = plan.num
        self.plan, self.game, self.num = plan, plan.game, num
        fresh = cand is None
        self.cand: list[int] = [(1 << num.size) - 1] * (num.kinds * num.size * num.kinds) if cand is None else cand
        self.steps: list[Step] = []
        self.announced: set[tuple[int, int]] = set()  # linked pairs (lower id first) already stated
        self.quotes = quotes or {}
        self.cited: set[int] = set()
        self.snapshots, self.recording = snapshots, recording
        self.removed: list[tuple[int, int]] | None = None  # the main grid's removals (see `_Trials`)
        # a traced trial (`tracking`) keeps what each of its facts rests on: per step, the earlier
        # steps it needs; per cell, the steps that took candidates from it; per pair, its link step
        self.tracking = False
        self.base: list[int] = []  # a traced trial's candidates when it began (the main grid's)
        self.because: list[tuple[int, ...]] = []
        self.cell_facts: dict[int, list[int]] = {}
        self.link_fact: dict[tuple[int, int], int] = {}
        self.removal_fact: dict[tuple[int, int], int] = {}
        # a fresh grid has every item due; one made from a fixpoint has none
        self.queued = bytearray(b"\1" * len(plan.items) if fresh else len(plan.items))
        self.now: list[int] = list(range(len(plan.items))) if fresh else []
        self.later: list[int] = []
        self.cursor = -1

    def copy(self, recording: bool = True) -> _Grid:
        """The same candidates, as a fixpoint (nothing due until something changes)."""
        other = _Grid(self.plan, recording=recording, cand=list(self.cand))
        if recording:
            other.announced = set(self.announced)
        return other

    def cite(self, clue: int) -> str:
        """`clue N`, quoting its words the first time it is cited."""
        if clue in self.cited or clue not in self.quotes:
            return f"clue {clue}"
        self.cited.add(clue)
        return f"clue {clue} (“{self.quotes[clue]}”)"

    def record(self, step: Step, premises: tuple[int, ...] = ()) -> None:
        if self.tracking:
            self.because.append(premises)
        if self.snapshots:
            num, game = self.num, self.game
            grid = {}
            for t in num.declared[0]:
                for k in range(1, num.kinds):
                    mask = self.cand[num.cell(t, k)]
                    grid[num.names[t], game.kinds[k].name] = tuple(
                        num.names[x] for x in num.declared[k] if mask >> (x - k * num.size) & 1)
            step = Step(step.kind, step.text, step.pair, step.linked, step.clue, grid, step.rule, step.basis,
                        step.chain)
        self.steps.append(step)

    def pair(self, a: str, b: str) -> str:
        """`first–second`, in the order of their kinds."""
        return self.pair_of(self.num.id[a], self.num.id[b])

    def pair_of(self, a: int, b: int) -> str:
        names = self.num.names
        return f"{names[min(a, b)]}–{names[max(a, b)]}"

    def facts_in(self, *cells: int) -> tuple[int, ...]:
        """The traced steps that took candidates from these cells."""
        if len(cells) == 1:
            return tuple(self.cell_facts.get(cells[0], ()))
        return tuple(sorted({i for c in cells for i in self.cell_facts.get(c, ())}))

    def _changed(self, cell: int, thing: int) -> None:
        """Put on the agenda the items that may now find something: those that read the cell, and
        "no common partner" for each pair (thing, d) with d in another kind that the cell's kind
        now leaves no common partner."""
        plan, cand, queued, kinds = self.plan, self.cand, self.queued, self.num.kinds
        cursor, now, later = self.cursor, self.now, self.later
        due = list(plan.readers[cell])
        mine, partners_at, ranks = cand[cell], plan.partners_at, self.num.ranks
        for row_cell, d_cell, item, item_cell in plan.partner_scans[cell]:
            for r in ranks[cand[row_cell]]:
                if not mine & cand[d_cell + r * kinds]:
                    due.append(item if item >= 0 else partners_at[item_cell + r * kinds])
        for position in due:
            if not queued[position]:
                queued[position] = 1
                heapq.heappush(now if position > cursor else later, position)

    def remove(self, a: int, b: int, step_kind: str, reason: str, clue: int | None = None, rule: str = "",
               basis: tuple[str, ...] = (), premises: tuple[int, ...] = (), chain: tuple[Step, ...] = ()) -> bool:
        """Rule out a–b (things of different kinds) by `rule` (see `Step`); True if it was still possible."""
        num = self.num
        ka, kb = a // num.size, b // num.size
        cell_a, cell_b = a * num.kinds + kb, b * num.kinds + ka
        bit = 1 << (b - kb * num.size)
        if not self.cand[cell_a] & bit:
            return False
        self.cand[cell_a] &= ~bit
        self.cand[cell_b] &= ~(1 << (a - ka * num.size))
        self._changed(cell_a, a)
        self._changed(cell_b, b)
        if self.removed is not None:
            self.removed.append((a, b))
        if self.recording:
            names = num.names
            self.record(Step(step_kind, reason.replace("{pair}", self.pair_of(a, b)), (names[a], names[b]), False,
                             clue, None, rule, basis, chain), premises)
            if self.tracking:
                index = len(self.steps) - 1
                self.cell_facts.setdefault(cell_a, []).append(index)
                self.cell_facts.setdefault(cell_b, []).append(index)
                self.removal_fact[min(a, b), max(a, b)] = index
        for thing, kind, cell in ((a, kb, cell_a), (b, ka, cell_b)):
            if not self.cand[cell]:
                raise _Contradiction(f"no {num.kind_names[kind]} is left for {num.names[thing]}",
                                     (num.names[thing], num.kind_names[kind]), premises=self.facts_in(cell))
        return True

    def link(self, a: int, b: int, reason: str, clue: int | None = None, step_kind: str = "grid", rule: str = "",
             basis: tuple[str, ...] = (), premises: tuple[int, ...] = ()) -> None:
        """Make a and b share a row by `rule` (see `Step`), stating it once when recording."""
        num = self.num
        ka, kb = a // num.size, b // num.size
        names = num.names
        key = (min(a, b), max(a, b))
        if not self.cand[a * num.kinds + kb] >> (b - kb * num.size) & 1:
            ruled_out = (self.removal_fact[key],) if key in self.removal_fact else ()
            raise _Contradiction(f"{names[a]} cannot be with {names[b]}", clue=clue, premises=ruled_out,
                                 pair=(names[a], names[b]))
        if self.recording and key not in self.announced:
            self.announced.add(key)
            pair = self.pair_of(a, b)
            text = f"{reason}: {pair}" if step_kind == "clue" else f"so {pair} ({reason})"
            self.record(Step(step_kind, text, (names[a], names[b]), True, clue, None, rule, basis), premises)
            if self.tracking:
                self.link_fact[key] = len(self.steps) - 1
        because = (self.link_fact[key],) if key in self.link_fact else ()
        for x, y, kind in ((a, b, kb), (b, a, ka)):
            base = kind * num.size
            for r in num.ranks[self.cand[x * num.kinds + kind] & ~(1 << (y - base))]:
                if self.recording:
                    self.remove(x, base + r, "grid", "{pair} ruled out: " + f"{names[x]} is with {names[y]}",
                                rule="with", basis=(names[x], names[y]), premises=because)
                else:
                    self.remove(x, base + r, "grid", "")

    @property
    def solved(self) -> bool:
        num = self.num
        return all(self.cand[num.cell(t, k)].bit_count() == 1
                   for t in range(num.kinds * num.size) for k in range(num.kinds) if k != t // num.size)


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


def _filter(grid: _Grid, index: int) -> None:
    """Rule out the candidates of the conjunct's cells that no combination supports;
    a positive link of two things is stated as that link."""
    conj = grid.plan.conjuncts[index]
    if conj.link is not None:
        a, b = conj.link
        if not grid.recording:
            grid.link(a, b, "", conj.clue, "clue")
        elif (min(a, b), max(a, b)) not in grid.announced:
            grid.link(a, b, grid.cite(conj.clue), conj.clue, "clue", rule="clue")
        return
    masks = [grid.cand[c] for c in conj.ids]
    table = conj.table
    own_table = table is None
    if table is None:
        total = 1
        for m in masks:
            total *= m.bit_count()
        if total > MAX_COMBINATIONS:
            return
        table = grid.plan.supports(conj, masks)
        if grid.removed is not None:  # the main grid: later grids only have fewer candidates
            conj.table = table
            own_table = False
    supported = [0] * len(masks)
    found = False
    for combo in table:
        for m, r in zip(masks, combo):
            if not m >> r & 1:
                break
        else:
            found = True
            for i, r in enumerate(combo):
                supported[i] |= 1 << r
    everything = grid.tracking and own_table  # a table of this trial's grid shows no blocked combination
    if not found:
        why = (grid.facts_in(*conj.ids) if everything else _blockers(grid, conj, table, masks, None, 0)
               ) if grid.tracking else ()
        raise _Contradiction(f"clue {conj.clue} cannot hold", clue=conj.clue, premises=why)
    num = grid.num
    for i, ((thing, kind), mask, keep) in enumerate(zip(conj.places, masks, supported)):
        for r in num.ranks[mask & ~keep]:
            reason = f"{grid.cite(conj.clue)} rules out " + "{pair}" if grid.recording else ""
            why = (grid.facts_in(*conj.ids) if everything else _blockers(grid, conj, table, masks, i, r)
                   ) if grid.tracking else ()
            grid.remove(thing, num.member(kind, r), "clue", reason, conj.clue, "clue", premises=why)


def _blockers(grid: _Grid, conj: _Conjunct, table: list[tuple[int, ...]], masks: list[int],
              at: int | None, rank: int) -> tuple[int, ...]:
    """The trial's removals that leave no supporting combination with rank `rank` in cell `at`
    (every combination when `at` is None): for each combination the trial blocked, one removal
    that blocks it, preferring those already chosen."""
    num, base, chosen = grid.num, grid.base, []
    for combo in table:
        if at is not None and combo[at] != rank:
            continue
        blocking = []
        for cell, (thing, kind), m, r in zip(conj.ids, conj.places, masks, combo):
            if not m >> r & 1:
                if not base[cell] >> r & 1:  # blocked before the trial began
                    break
                other = num.member(kind, r)
                blocking.append(grid.removal_fact[min(thing, other), max(thing, other)])
        else:
            if blocking and not any(b in chosen for b in blocking):
                chosen.append(blocking[0])
    return tuple(sorted(chosen))


def _only_one(grid: _Grid, cell: int) -> None:
    """A thing with one candidate left in a kind is linked to it."""
    mask, num = grid.cand[cell], grid.num
    if not mask & (mask - 1):
        t, kind = divmod(cell, num.kinds)
        if grid.recording:
            grid.link(t, kind * num.size + mask.bit_length() - 1,
                      f"the only {num.kind_names[kind]} left for {num.names[t]}", rule="only",
                      basis=(num.names[t], num.kind_names[kind]), premises=grid.facts_in(cell) if grid.tracking else ())
        else:
            grid.link(t, kind * num.size + mask.bit_length() - 1, "")


def _only_place(grid: _Grid, cell: int) -> None:
    """A thing c that fits one thing of a kind (the cell (c, own) has one candidate) is linked to it."""
    homes, num = grid.cand[cell], grid.num
    if not homes & (homes - 1):
        c, own = divmod(cell, num.kinds)
        home = own * num.size + homes.bit_length() - 1
        others = grid.cand[home * num.kinds + c // num.size]
        if others & (others - 1):
            if grid.recording:
                grid.link(home, c, f"the only {num.kind_names[own]} left for {num.names[c]}", rule="only",
                          basis=(num.names[c], num.kind_names[own]),
                          premises=grid.facts_in(cell) if grid.tracking else ())
            else:
                grid.link(home, c, "")


def _no_common_partner(grid: _Grid, cell: int) -> None:
    """a–d is ruled out (for each candidate d of the cell (a, kb)) when no thing of a third kind fits both."""
    num, cand = grid.num, grid.cand
    kinds = num.kinds
    a, kb = divmod(cell, kinds)
    base = kb * num.size
    thirds = grid.plan.third[a // num.size][kb]
    for r in num.ranks[cand[cell]]:
        d = base + r
        for kc in thirds:
            if not cand[a * kinds + kc] & cand[d * kinds + kc]:
                if grid.recording:
                    grid.remove(a, d, "grid", "{pair} ruled out: " + f"no {num.kind_names[kc]} fits both",
                                rule="no-common", basis=(num.kind_names[kc],),
                                premises=_apart(grid, a, d, kc) if grid.tracking else ())
                else:
                    grid.remove(a, d, "grid", "")
                break


def _apart(grid: _Grid, a: int, d: int, kc: int) -> tuple[int, ...]:
    """The trial's removals that leave a and d no common candidate of kind kc: for each thing of kc
    both had when the trial began, its removal from one of them."""
    num, kinds, base = grid.num, grid.num.kinds, grid.base
    both = base[a * kinds + kc] & base[d * kinds + kc]
    why = []
    for r in num.ranks[both]:
        c = num.member(kc, r)
        x = a if (min(a, c), max(a, c)) in grid.removal_fact else d
        why.append(grid.removal_fact[min(x, c), max(x, c)])
    return tuple(sorted(why))


_RULES = {_CLUE: _filter, _ONLY_ONE: _only_one, _ONLY_PLACE: _only_place, _NO_COMMON_PARTNER: _no_common_partner}


def _propagate(grid: _Grid) -> None:
    """Apply clues and grid rules until nothing changes (raises _Contradiction): sweeps over the
    agenda in item order, each taking only the items whose cells changed since they last looked."""
    items, queued = grid.plan.items, grid.queued
    grid.now += grid.later  # a new sweep, from the first item
    heapq.heapify(grid.now)
    grid.later, grid.cursor = [], -1
    while True:
        if not grid.now:
            if not grid.later:
                return
            grid.now, grid.later, grid.cursor = grid.later, [], -1
        position = heapq.heappop(grid.now)
        queued[position] = 0
        grid.cursor = position
        rule, place = items[position]
        _RULES[rule](grid, place)


class _Trials:
    """Quiet trials of assumptions on the main grid, each kept at its fixpoint and brought up to
    date with the main grid's removals since (see the module docstring). A pair of a known
    solution is never tried: propagation is sound, so assuming it cannot fail."""

    def __init__(self, grid: _Grid, solution: Grid | None):
        from .verify import verify

        self.grid = grid
        self.removed: list[tuple[int, int]] = []
        grid.removed = self.removed
        self.kept: dict[tuple[int, int], tuple[list[int], int]] = {}
        ids = grid.num.id
        self.true = ({(ids[a], ids[b]) for row in solution for a in row for b in row if a != b}
                     if solution is not None and verify(grid.game, solution) else set())

    def fails(self, a: int, b: int) -> bool:
        """Whether assuming a–b leads propagation to a contradiction on the main grid."""
        if (a, b) in self.true:
            return False
        main = self.grid
        kept = self.kept.get((a, b))
        try:
            if kept is None:
                trial = main.copy(recording=False)
                trial.link(a, b, "")
            else:
                cand, seen = kept
                kinds, size = main.num.kinds, main.num.size
                lost = [(x, y) for x, y in self.removed[seen:] if cand[x * kinds + y // size] >> (y % size) & 1]
                if not lost:  # its fixpoint is still inside the main grid
                    self.kept[a, b] = (cand, len(self.removed))
                    return False
                trial = _Grid(main.plan, recording=False, cand=list(cand))
                for x, y in lost:
                    trial.remove(x, y, "grid", "")
            _propagate(trial)
        except _Contradiction:
            self.kept.pop((a, b), None)
            return True
        self.kept[a, b] = (trial.cand, len(self.removed))
        return False


def _try_cells(grid: _Grid, trials: _Trials) -> bool:
    """Rule out the first open pairing whose assumption fails by propagation; True if one did."""
    num = grid.num
    for a, kind in grid.plan.tried:
        cands = grid.cand[num.cell(a, kind)]
        if not cands & (cands - 1):
            continue
        for r in num.ranks[cands]:
            c = num.member(kind, r)
            if not trials.fails(a, c):
                continue
            trial = grid.copy()  # again, with its trace, for the chain
            trial.tracking, trial.base = True, grid.cand
            try:
                trial.link(a, c, "assumed", rule="assumed")
                _propagate(trial)
            except _Contradiction as why:
                pair = grid.pair_of(a, c)
                chain = _chain(trial, why)
                grid.remove(a, c, "try", f"assume {pair}: {_chain_text(chain)}; so " + "{pair} is ruled out",
                            rule="assumed", chain=chain)
                return True
            raise AssertionError(f"assuming {grid.pair_of(a, c)} failed quietly but not with its trace")
    return False


def _chain(trial: _Grid, why: _Contradiction) -> tuple[Step, ...]:
    """Why an assumption failed: the assumption, then every fact of the trial the contradiction
    rests on (and only those), in the order found, each citing its clue or grid rule, then the
    contradiction."""
    need, todo = set(why.premises), list(why.premises)
    while todo:
        for p in trial.because[todo.pop()]:
            if p not in need:
                need.add(p)
                todo.append(p)
    need.discard(0)  # the first step states the assumption itself
    game = trial.game
    items = [trial.steps[0]] + [_chain_item(game, trial.steps[i]) for i in sorted(need)]
    basis: tuple[str, ...]
    if why.cell is not None:
        rule, basis = "empty", why.cell
    elif why.clue is not None:
        rule, basis = "clue", ()
    else:
        rule, basis = "with", why.pair or ()
    items.append(Step("contradiction", f"so {why}", why.pair or (), False, why.clue, None, rule, basis))
    return tuple(items)


def _chain_text(chain: tuple[Step, ...]) -> str:
    """A chain in words: its facts, those a link implies left out ("Al is with red", so not with
    blue), removals of one thing's partners by one rule grouped, then the contradiction."""
    items = [item for item in chain[1:-1] if item.rule != "with"]
    parts: list[tuple[str, list[str], str]] = []  # (head, things, tail): "Al is not with " [1, 2] " (…)"
    fixed = ""  # the thing the open group is about
    for i, item in enumerate(items):
        if item.linked:
            parts.append((item.text, [], ""))
            continue
        tail = "" if item.rule == "clue" else f" (no {item.basis[0]} fits both)"
        if parts and parts[-1][1] and parts[-1][2] == tail and fixed in item.pair and _lead(items[i - 1]) == _lead(item):
            parts[-1][1].append(item.pair[1] if item.pair[0] == fixed else item.pair[0])
            continue
        nxt = items[i + 1] if i + 1 < len(items) else None
        shared = [t for t in item.pair if nxt is not None and not nxt.linked and t in nxt.pair
                  and _lead(nxt) == _lead(item)]
        fixed = shared[0] if shared else item.pair[0]
        other = item.pair[1] if item.pair[0] == fixed else item.pair[0]
        head = (f"by clue {item.clue}, " if item.rule == "clue" else "") + f"{fixed} is not with "
        parts.append((head, [other], tail))
    words = [head + (_either(things) if things else "") + tail for head, things, tail in parts]
    return ("then " + "; ".join(words) + "; " if words else "") + chain[-1].text


def _lead(item: Step) -> tuple:
    """What removals must share to be grouped: the rule and its clue or kind."""
    return item.rule, item.clue, item.basis


def _either(things: list[str]) -> str:
    return things[0] if len(things) == 1 else ", ".join(things[:-1]) + " or " + things[-1]


def _chain_item(game: Game, step: Step) -> Step:
    """A trial's step as a chain item: the same fact and rule, worded to stand in a chain."""
    a, b = step.pair
    if step.linked:
        pair = f"{a}–{b}" if game.kind_names.index(game.kind_of(a).name) < game.kind_names.index(
            game.kind_of(b).name) else f"{b}–{a}"
        thing, kind = step.basis or ("", "")
        text = f"by clue {step.clue}, {pair}" if step.rule == "clue" else f"{pair} (the only {kind} left for {thing})"
    elif step.rule == "with":
        x, y = step.basis
        text = f"{x} is not with {b if a == x else a} ({x} is with {y})"
    elif step.rule == "clue":
        text = f"by clue {step.clue}, {a} is not with {b}"
    else:
        text = f"{a} is not with {b} (no {step.basis[0]} fits both)"
    return Step(step.kind, text, step.pair, step.linked, step.clue, None, step.rule, step.basis)


def explain(game: Game, solution: Grid | None = None, grids: bool = False) -> Explanation:
    """The deduction trace of a game; `solution` (from `solve`) supplies any needed guesses;
    with `grids`, each step keeps the candidate grid it leaves (for `render_explanation`)."""
    from .compile import check_size

    check_size(game)
    plan = _Plan(game)
    grid, guesses = _Grid(plan, {c.number: _quote(c) for c in game.clues}, grids), 0
    trials = _Trials(grid, solution)  # before the first look: it marks the main grid
    num = plan.num
    try:
        while True:
            _propagate(grid)
            if grid.solved or _try_cells(grid, trials):
                if grid.solved:
                    break
                continue
            if solution is None:
                grid.record(Step("stuck", "propagation stops here and no solution is known to guess from"))
                break
            open_cells = ((t, k) for own in range(num.kinds) for t in num.declared[own]
                          for k in range(num.kinds) if k != own and grid.cand[num.cell(t, k)].bit_count() > 1)
            a, kind = min(open_cells, key=lambda c: (grid.cand[num.cell(*c)].bit_count(), num.kind(c[0])))
            row = next(r for r in solution if num.names[a] in r)
            choice = num.id[row[kind]]
            guesses += 1
            grid.record(Step("guess", f"propagation stops; guess {grid.pair_of(a, choice)} (1 of "
                                      f"{grid.cand[num.cell(a, kind)].bit_count()} candidates for {num.names[a]})",
                             (num.names[a], num.names[choice]), True, rule="guess"))
            grid.announced.add((min(a, choice), max(a, choice)))  # the guess line states the link
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
