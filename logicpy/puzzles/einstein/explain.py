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

    def record(self, step: Step) -> None:
        if self.snapshots:
            num, game = self.num, self.game
            grid = {}
            for t in num.declared[0]:
                for k in range(1, num.kinds):
                    mask = self.cand[num.cell(t, k)]
                    grid[num.names[t], game.kinds[k].name] = tuple(
                        num.names[x] for x in num.declared[k] if mask >> (x - k * num.size) & 1)
            step = Step(step.kind, step.text, step.pair, step.linked, step.clue, grid)
        self.steps.append(step)

    def pair(self, a: str, b: str) -> str:
        """`first–second`, in the order of their kinds."""
        return self.pair_of(self.num.id[a], self.num.id[b])

    def pair_of(self, a: int, b: int) -> str:
        names = self.num.names
        return f"{names[min(a, b)]}–{names[max(a, b)]}"

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

    def remove(self, a: int, b: int, step_kind: str, reason: str, clue: int | None = None) -> bool:
        """Rule out a–b (things of different kinds); True if it was still possible."""
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
            self.record(Step(step_kind, reason.format(pair=self.pair_of(a, b)), (names[a], names[b]), False, clue))
        for thing, kind, cell in ((a, kb, cell_a), (b, ka, cell_b)):
            if not self.cand[cell]:
                raise _Contradiction(f"no {num.kind_names[kind]} is left for {num.names[thing]}",
                                     (num.names[thing], num.kind_names[kind]))
        return True

    def link(self, a: int, b: int, reason: str, clue: int | None = None, step_kind: str = "grid") -> None:
        """Make a and b share a row (stating it once, when recording)."""
        num = self.num
        ka, kb = a // num.size, b // num.size
        names = num.names
        if not self.cand[a * num.kinds + kb] >> (b - kb * num.size) & 1:
            raise _Contradiction(f"{names[a]} cannot be with {names[b]}", (names[a], num.kind_names[kb]), clue)
        key = (min(a, b), max(a, b))
        if self.recording and key not in self.announced:
            self.announced.add(key)
            pair = self.pair_of(a, b)
            text = f"{reason}: {pair}" if step_kind == "clue" else f"so {pair} ({reason})"
            self.record(Step(step_kind, text, (names[a], names[b]), True, clue))
        for x, y, kind in ((a, b, kb), (b, a, ka)):
            base = kind * num.size
            for r in num.ranks[self.cand[x * num.kinds + kind] & ~(1 << (y - base))]:
                why = "{pair} ruled out: " + f"{names[x]} is with {names[y]}" if self.recording else ""
                self.remove(x, base + r, "grid", why)

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
            grid.link(a, b, grid.cite(conj.clue), conj.clue, "clue")
        return
    masks = [grid.cand[c] for c in conj.ids]
    table = conj.table
    if table is None:
        total = 1
        for m in masks:
            total *= m.bit_count()
        if total > MAX_COMBINATIONS:
            return
        table = grid.plan.supports(conj, masks)
        if grid.removed is not None:  # the main grid: later grids only have fewer candidates
            conj.table = table
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
    if not found:
        raise _Contradiction(f"clue {conj.clue} cannot hold", clue=conj.clue)
    num = grid.num
    for (thing, kind), mask, keep in zip(conj.places, masks, supported):
        for r in num.ranks[mask & ~keep]:
            reason = f"{grid.cite(conj.clue)} rules out " + "{pair}" if grid.recording else ""
            grid.remove(thing, num.member(kind, r), "clue", reason, conj.clue)


def _only_one(grid: _Grid, cell: int) -> None:
    """A thing with one candidate left in a kind is linked to it."""
    mask, num = grid.cand[cell], grid.num
    if not mask & (mask - 1):
        t, kind = divmod(cell, num.kinds)
        reason = f"the only {num.kind_names[kind]} left for {num.names[t]}" if grid.recording else ""
        grid.link(t, kind * num.size + mask.bit_length() - 1, reason)


def _only_place(grid: _Grid, cell: int) -> None:
    """A thing c that fits one thing of a kind (the cell (c, own) has one candidate) is linked to it."""
    homes, num = grid.cand[cell], grid.num
    if not homes & (homes - 1):
        c, own = divmod(cell, num.kinds)
        home = own * num.size + homes.bit_length() - 1
        others = grid.cand[home * num.kinds + c // num.size]
        if others & (others - 1):
            reason = f"the only {num.kind_names[own]} left for {num.names[c]}" if grid.recording else ""
            grid.link(home, c, reason)


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
                reason = "{pair} ruled out: " + f"no {num.kind_names[kc]} fits both" if grid.recording else ""
                grid.remove(a, d, "grid", reason)
                break


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
        from .solve import verify

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
            try:
                trial.link(a, c, "assumed")
                _propagate(trial)
            except _Contradiction as why:
                pair = grid.pair_of(a, c)
                grid.remove(a, c, "try", f"assume {pair}: " + _chain(trial, why) + "; so {pair} is ruled out")
                return True
            raise AssertionError(f"assuming {grid.pair_of(a, c)} failed quietly but not with its trace")
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
                             (num.names[a], num.names[choice]), True))
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
