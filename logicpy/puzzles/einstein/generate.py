"""Generate games: a random hidden grid, true clues drawn about it, until unique, then minimised.

    g = generate(kinds=4, things=5, seed=7)        # reproducible with the same seed
    g.game, g.solution, g.difficulty, g.measures   # the game (clues worded in English), its answer
    verify(g.game, g.solution).ok                  # True; the game has no other solution

Clues are drawn true of the hidden grid from every clue type the format has (`CLUE_TYPES`):
link, !link, same, orderings, adjacency, xor / or / nand of two facts, and arithmetic.
They are added until the FD search finds one solution, then dropped in a random order
wherever the rest still pin the solution (runs of clues at once while that holds; a clue
that a known grid other than the hidden one breaks alone is kept without a search), so no
clue of the result can be removed. Kinds have up to 10 things. Difficulty is measured by
what the explainer needs (see `difficulty_of`); asking for one retries derived seeds until
a game of that difficulty comes out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable, Optional

from ...errors import InputError, LogicpyError
from .model import Clue, Connective, Game, Grid, Kind, Relation, Rule, Symbol
from .semantics import GridView

__all__ = ["CLUE_TYPES", "DIFFICULTIES", "Generated", "generate", "difficulty_of", "english", "is_minimal"]

#: Clue types and how often each is drawn.
CLUE_TYPES = {"link": 4, "!link": 5, "same": 1, "order": 3, "adj": 2, "xor": 1, "or": 1, "nand": 1, "arith": 1}
DIFFICULTIES = ("easy", "medium", "hard")
#: Failed assumptions that make a game hard (fewer, but some: medium).
HARD_TRIES = 3
#: Derived seeds tried for a requested difficulty before giving up.
ATTEMPTS = 60

#: A progress callback: (stage, done, total or None), or None for none.
Progress = Optional[Callable[[str, int, Optional[int]], None]]


@dataclass(frozen=True)
class _Theme:
    """A kind with its words: how to name its thing as a subject, as a fact, as its negation."""

    name: str
    things: tuple[str, ...]
    subject: str  # "the owner of the {}"
    fact: str  # "keeps the {}"
    no_fact: str  # "does not keep the {}"
    attribute: str = ""  # numeric kinds: "age", "house number"


_PEOPLE = _Theme("Person", ("Alice", "Bruno", "Chloe", "Dmitri", "Esther", "Farid", "Greta", "Hiro", "Ingrid",
                            "Jonas"),
                 "{}", "is {}", "is not {}")
_NUMERIC = (
    _Theme("House", tuple(str(i) for i in range(1, 11)), "the person in house {}", "lives in house {}",
           "does not live in house {}", "house number"),
    _Theme("Age", ("21", "24", "27", "30", "33", "36", "39", "42", "45", "48"), "the {}-year-old", "is {} years old",
           "is not {} years old", "age"),
)
_CATEGORIES = (
    _Theme("Nationality", ("Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese", "Italian", "Swede", "Dane",
                            "German", "Brazilian"),
           "the {}", "is the {}", "is not the {}"),
    _Theme("Colour", ("red", "green", "ivory", "yellow", "blue", "white", "black", "orange", "purple", "grey"),
           "the person in the {} house", "lives in the {} house", "does not live in the {} house"),
    _Theme("Pet", ("dog", "snails", "fox", "horse", "zebra", "cat", "parrot", "hamster", "rabbit", "tortoise"),
           "the owner of the {}", "keeps the {}", "does not keep the {}"),
    _Theme("Drink", ("coffee", "tea", "milk", "juice", "water", "cocoa", "lemonade", "cider", "beer", "soda"),
           "the {} drinker", "drinks {}", "does not drink {}"),
    _Theme("Instrument", ("piano", "violin", "cello", "flute", "drums", "harp", "oboe", "guitar", "trumpet", "banjo"),
           "the {} player", "plays the {}", "does not play the {}"),
    _Theme("Sport", ("tennis", "chess", "rugby", "golf", "squash", "judo", "polo", "curling", "hockey", "rowing"),
           "the person who plays {}", "plays {}", "does not play {}"),
    _Theme("Car", ("Ford", "Fiat", "Volvo", "Skoda", "Honda", "Mini", "Lada", "Saab", "Audi", "Opel"),
           "the {} driver", "drives a {}", "does not drive a {}"),
)
MAX_KINDS = 1 + len(_NUMERIC) + len(_CATEGORIES)
MAX_THINGS = 10


@dataclass(frozen=True)
class Generated:
    """A generated game, its (only) solution, and how hard the explainer found it."""

    game: Game
    solution: Grid
    difficulty: str
    measures: dict
    seed: int


def _themes(kinds: int) -> list[_Theme]:
    """People first, then house numbers, then categories and ages alternating."""
    order = [_PEOPLE, _NUMERIC[0], _CATEGORIES[0], _CATEGORIES[1], _NUMERIC[1], *_CATEGORIES[2:]]
    return order[:kinds]


class _Drawer:
    """Draws rules true (or false) of a hidden grid."""

    def __init__(self, game: Game, hidden: Grid, themes: dict[str, _Theme], rng: random.Random):
        self.game, self.hidden, self.themes, self.rng = game, hidden, themes, rng
        self.numeric = [k for k in game.kinds if themes[k.name].attribute]

    def _row_of(self, thing: str) -> int:
        return next(i for i, row in enumerate(self.hidden) if thing in row)

    def _pair(self, linked: bool) -> tuple[str, str]:
        ka, kb = self.rng.sample(range(len(self.game.kinds)), 2)
        r = self.rng.randrange(self.game.size)
        s = r if linked else self.rng.choice([i for i in range(self.game.size) if i != r])
        return self.hidden[r][ka], self.hidden[s][kb]

    def fact(self, true: bool) -> Relation:
        """A link that holds (true) or a link that does not (false)."""
        a, b = self._pair(true)
        return Relation("link", (Symbol(a), Symbol(b)))

    def draw(self, kind: str) -> Rule | None:
        """A rule of clue type `kind`, true of the hidden grid (None when the game has no use for it)."""
        rng = self.rng
        if kind == "link":
            return self.fact(True)
        if kind == "!link":
            a, b = self._pair(False)
            return Relation("link", (Symbol(a), Symbol(b)), negated=True)
        if kind == "same":
            linked = rng.random() < 0.5
            a, b = self._pair(linked)
            first = self.game.kinds[0].name
            pa, pb = (Symbol(a, (first,)) if self.game.kind_of(a).name != first else Symbol(a),
                      Symbol(b, (first,)) if self.game.kind_of(b).name != first else Symbol(b))
            return Relation("same", (pa, pb), negated=not linked)
        if kind in ("xor", "or", "nand"):
            first_true = {"xor": True, "or": True, "nand": False}[kind]
            second_true = {"xor": False, "or": rng.random() < 0.5, "nand": rng.random() < 0.5}[kind]
            parts = [self.fact(first_true), self.fact(second_true)]
            rng.shuffle(parts)
            return Connective(kind, tuple(parts))
        if not self.numeric:
            return None
        k = rng.choice(self.numeric)
        j = self.game.kinds.index(k)
        rows = rng.sample(range(self.game.size), 2)
        if kind == "adj":  # bases of one kind, so they sit in different rows and "next to" is exact
            ranked = sorted(range(self.game.size), key=lambda i: int(self.hidden[i][j]))
            at = rng.randrange(self.game.size - 1)
            rows = [ranked[at], ranked[at + 1]]
        base_kind = rng.choice([i for i in range(len(self.game.kinds)) if i != j] or [j])
        if kind in ("adj", "arith"):
            base_kinds = [base_kind, base_kind]
        else:
            base_kinds = [base_kind, rng.choice([i for i in range(len(self.game.kinds)) if i != j])]
        syms = tuple(Symbol(self.hidden[r][b], (k.name,)) for r, b in zip(rows, base_kinds))
        x, y = (int(self.hidden[r][j]) for r in rows)
        if kind == "adj":
            return Relation(rng.choice(["adj<", "adj"]), syms)
        if kind == "arith":
            if x < y:
                syms, x, y = syms[::-1], y, x
            return Relation("-", syms, literal=str(x - y))
        op = rng.choice(["<", "<="]) if x < y else rng.choice([">", ">="])
        return Relation(op, syms)


def _solutions(kinds: tuple[Kind, ...], rules: list[Rule], limit: int) -> list[Grid]:
    from .compile import solve_fd

    return solve_fd(Game(kinds, tuple(Clue(i, (r,)) for i, r in enumerate(rules, 1))), limit=limit)


def _unique(game: Game) -> bool:
    from .solve import solve

    return solve(game, max_solutions=2).status == "unique"


class _Searches:
    """The generator's searches over one set of kinds: by one incremental SAT solver (each
    rule encoded once, the hidden grid forbidden, questions asked under assumptions) when
    python-sat can be imported, else each by a new FD search."""

    def __init__(self, kinds: tuple[Kind, ...], hidden: Grid):
        from .solve import choose_engine

        self.kinds, self.hidden = kinds, hidden
        self.oracle = None
        if choose_engine("auto")[0] == "sat":
            from .sat import Oracle

            self.oracle = Oracle(kinds)
            self.oracle.forbid(hidden)

    def other(self, rules: list[Rule]) -> Grid | None:
        """A grid other than the hidden one where every rule holds, or None."""
        if self.oracle is not None:
            return self.oracle.find(rules)
        return next((g for g in _solutions(self.kinds, rules, 2) if g != self.hidden), None)

    def breaking(self, rest: list[Rule], dropped: list[Rule]) -> Grid | None:
        """A grid where every rule of `rest` holds and one of `dropped` fails, or None.

        For a game with one solution, None says the rest pin it without the rules dropped:
        another solution would break one of them, so this one search replaces a proof of
        uniqueness from scratch (and is far smaller)."""
        if self.oracle is not None:
            return self.oracle.find(rest, dropped)
        found = _solutions(self.kinds, [*rest, Connective("or", tuple(_negation(r) for r in dropped))], 1)
        return found[0] if found else None


def _negation(rule: Rule) -> Rule:
    """The negation of a drawn rule as alternatives of facts (¬xor(a, b) is (a and b) or
    (not a and not b)), so that a disjunction of negations has no disjunction inside another."""
    if isinstance(rule, Relation):
        return replace(rule, negated=not rule.negated)
    a, b = rule.args
    if rule.op == "xor":
        return Connective("or", (Connective("and", (a, b)), Connective("and", (_negation(a), _negation(b)))))
    if rule.op == "or":
        return Connective("and", (_negation(a), _negation(b)))
    return Connective("and", (a, b))  # nand


def _renumbered(kinds: tuple[Kind, ...], rules: list[Rule], themes: dict[str, _Theme], name: str) -> Game:
    game = Game(kinds, (), name)
    clues = tuple(Clue(i, (r,), text=english(game, r, themes)) for i, r in enumerate(rules, 1))
    return replace(game, clues=clues)


def is_minimal(game: Game) -> bool:
    """True iff dropping any one clue leaves the game with more than one solution."""
    return all(not _unique(replace(game, clues=game.clues[:i] + game.clues[i + 1:])) for i in range(len(game.clues)))


class _Witnesses:
    """Grids other than the hidden one, each kept as the clues of the current set it breaks.

    A grid that breaks exactly one clue of the set proves that clue needed (without it the
    grid would be a second solution), and it stays a proof while other clues are dropped,
    so such a clue is kept without a search."""

    def __init__(self, clues: set[int]):
        self.clues = set(clues)  # the current set
        self._breaks: list[set[int]] = []
        self._by_clue: dict[int, list[int]] = {}
        self.needed: set[int] = set()

    def add(self, broken: set[int]) -> None:
        broken = broken & self.clues
        if not broken:  # the search and the direct reading of the clues disagree
            raise LogicpyError("internal error: a grid other than the hidden one meets every clue of a unique set")
        for c in broken:
            self._by_clue.setdefault(c, []).append(len(self._breaks))
        self._breaks.append(broken)
        if len(broken) == 1:
            self.needed |= broken

    def drop(self, clue: int) -> None:
        self.clues.discard(clue)
        for w in self._by_clue.pop(clue, ()):
            broken = self._breaks[w]
            broken.discard(clue)
            if len(broken) == 1:
                self.needed |= broken


class _Near(GridView):
    """The view of the hidden grid, changed in place by cycles of a column's things over some rows."""

    def __init__(self, game: Game, hidden: Grid):
        cells = [list(row) for row in hidden]
        super().__init__(game, cells)
        self._cells = cells

    def rotate(self, column: int, rows: tuple[int, ...]) -> list[str]:
        """Move the thing of `column` in rows[i] to rows[i + 1] (the last to the first); the things moved."""
        moved = [self._cells[r][column] for r in rows]
        for r, t in zip(rows, moved[-1:] + moved[:-1]):
            self._cells[r][column] = t
            self._row_of[t] = r
        return moved


def _mentions(game: Game, rule: Rule) -> tuple[set[str], set[int]]:
    """The things a rule names and the columns it reads through `::` paths: all it depends on."""
    if isinstance(rule, Connective):
        things: set[str] = set()
        columns: set[int] = set()
        for sub in rule.args:
            t, c = _mentions(game, sub)
            things |= t
            columns |= c
        return things, columns
    return ({s.base for s in rule.args},
            {game.kinds.index(game.kind(k)) for s in rule.args for k in s.path})


def _near_witnesses(game: Game, hidden: Grid, rules: list[Rule], witnesses: _Witnesses) -> None:
    """Add to `witnesses` the grids one small change away from the hidden one: a column's things
    swapped or cycled over two or three rows, or two rows swapped in two columns at once.

    Only the clues that name a thing moved, or read the column changed, can break; the rest
    still hold as they do on the hidden grid."""
    from .semantics import holds

    by_thing: dict[str, list[int]] = {}
    by_column: dict[int, list[int]] = {}
    for i in witnesses.clues:
        things, read = _mentions(game, rules[i])
        for t in things:
            by_thing.setdefault(t, []).append(i)
        for c in read:
            by_column.setdefault(c, []).append(i)
    near = _Near(game, hidden)
    n, columns = game.size, list(range(len(game.kinds)))

    def breaks(changes: list[tuple[int, tuple[int, ...]]]) -> set[int]:
        touched: set[int] = set()
        for column, rows in changes:
            for t in near.rotate(column, rows):
                touched.update(by_thing.get(t, ()))
            touched.update(by_column.get(column, ()))
        broken = {i for i in touched if not holds(game, rules[i], near)}
        for column, rows in reversed(changes):
            near.rotate(column, rows[::-1])
        return broken

    pairs = [(r, s) for r in range(n) for s in range(r + 1, n)]
    for column in columns:
        for pair in pairs:
            witnesses.add(breaks([(column, pair)]))
        for r, s in pairs:
            for u in range(s + 1, n):
                witnesses.add(breaks([(column, (r, s, u))]))
                witnesses.add(breaks([(column, (r, u, s))]))
    for pair in pairs:
        for a in columns:
            for b in range(a + 1, len(game.kinds)):
                if len(game.kinds) > 2:  # else the two columns are all: the same rows
                    witnesses.add(breaks([(a, pair), (b, pair)]))


def _one(kinds: int, things: int, seed: int, types: dict[str, int], progress: Progress = None) -> tuple[Game, Grid]:
    """A unique, minimal game from `seed`; `progress(stage, done, total)` is told each step."""
    tell = progress or (lambda stage, done, total: None)
    rng = random.Random(seed)
    themes = _themes(kinds)
    kind_list = tuple(Kind(t.name, t.things[:things]) for t in themes)
    by_name = {t.name: t for t in themes}
    columns = [list(kind_list[0].things)] + [rng.sample(k.things, things) for k in kind_list[1:]]
    hidden: Grid = tuple(zip(*columns))
    game = Game(kind_list, ())
    drawer = _Drawer(game, hidden, by_name, rng)
    names, weights = zip(*types.items())
    rules: list[Rule] = []
    seen: set[Rule] = set()
    states = [rng.getstate()]  # the generator's state after each rule drawn

    def draw() -> None:
        while True:
            rule = drawer.draw(rng.choices(names, weights)[0])
            if rule is not None and rule not in seen:
                seen.add(rule)
                rules.append(rule)
                states.append(rng.getstate())
                return

    searches = _Searches(kind_list, hidden)  # its solver is freed with it
    others: list[Grid] = []  # solutions other than the hidden grid met on the way

    def unique(m: int) -> bool:
        found = searches.other(rules[:m])
        if found is not None:
            others.append(found)
        return found is None

    # the shortest prefix of the drawn rules with one solution (more rules, fewer solutions):
    # drawn in doubling batches, then found by bisection
    low, high = things - 1, things  # the prefix of `low` rules is not known to be unique
    while True:
        while len(rules) < high:
            draw()
        tell(f"seed {seed}: drawing clues ({len(rules)})", 0, None)
        if unique(high):
            break
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        tell(f"seed {seed}: drawing clues ({middle})", 0, None)
        low, high = (low, middle) if unique(middle) else (middle, high)
    del rules[high:]
    rng.setstate(states[high])  # as if drawing had stopped there
    order = list(range(len(rules)))
    rng.shuffle(order)
    # drop, in that order, every clue the others make redundant. A clue that some grid other
    # than the hidden one breaks alone is kept without a search (see `_Witnesses`): such grids
    # come from the searches, and from trying every small change of the hidden grid. The
    # others go in runs: a run is dropped at once when the rest pin the solution (then one by
    # one would drop each of them too); it doubles after two drops in a row and halves after
    # a refusal, down to the single clue it keeps
    from .semantics import GridView, holds

    witnesses = _Witnesses(set(order))
    full = Game(kind_list, tuple(Clue(i, (r,)) for i, r in enumerate(rules, 1)))
    for grid in others:
        view = GridView(full, grid)
        witnesses.add({i for i, r in enumerate(rules) if not holds(full, r, view)})
    _near_witnesses(full, hidden, rules, witnesses)
    done, run_length, dropped_last = 0, 4, True
    while done < len(order):
        tell(f"seed {seed}: minimising {len(rules)} clues", done, len(order))
        if order[done] in witnesses.needed:
            done += 1
            continue
        chunk = [i for i in order[done:] if i not in witnesses.needed][:run_length]
        rest = witnesses.clues - set(chunk)
        witness = searches.breaking([rules[i] for i in sorted(rest)], [rules[i] for i in chunk])
        if witness is None:
            for i in chunk:
                witnesses.drop(i)
            while done < len(order) and (order[done] not in witnesses.clues or order[done] in witnesses.needed):
                done += 1
            run_length *= 2 if dropped_last else 1
            dropped_last = True
        else:
            view = GridView(full, witness)
            witnesses.add({i for i in chunk if not holds(full, rules[i], view)})
            run_length = max(1, len(chunk) // 2)
            dropped_last = False
    final = [r for j, r in enumerate(rules) if j in witnesses.clues]
    return _renumbered(kind_list, final, by_name, f"generated {things}x{kinds} seed {seed}"), hidden


def difficulty_of(game: Game, solution: Grid) -> tuple[str, dict]:
    """How hard the explainer finds a game: easy (clues and "only one left" suffice), medium
    (one or two failed assumptions), hard (`HARD_TRIES` or more, or a guess); with the counts."""
    from .explain import explain

    explanation = explain(game, solution)
    tries = sum(s.kind == "try" for s in explanation.steps)
    measures = {"clue_steps": sum(s.kind == "clue" for s in explanation.steps), "failed_assumptions": tries,
                "guesses": explanation.guesses}
    level = "hard" if explanation.guesses or tries >= HARD_TRIES else "medium" if tries else "easy"
    return level, measures


def generate(
    kinds: int = 4, things: int = 5, seed: int | None = None, difficulty: str | None = None,
    clue_types: list[str] | None = None, progress: Progress = None,
) -> Generated:
    """A game with a unique solution and no clue to spare (see the module docstring).

    `seed` makes it reproducible (a random one is chosen and reported otherwise);
    `difficulty` one of DIFFICULTIES; `clue_types` a subset of CLUE_TYPES; `progress(stage,
    done, total)` is called as the work goes (total None when unknown).
    """
    if not 2 <= kinds <= MAX_KINDS:
        raise InputError(f"--kinds must be between 2 and {MAX_KINDS}, got {kinds}")
    if not 2 <= things <= MAX_THINGS:
        raise InputError(f"--things must be between 2 and {MAX_THINGS}, got {things}")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise InputError(f"unknown difficulty {difficulty!r}; choose one of {', '.join(DIFFICULTIES)}")
    types = dict(CLUE_TYPES)
    if clue_types:
        unknown = [t for t in clue_types if t not in CLUE_TYPES]
        if unknown:
            raise InputError(f"unknown clue type(s) {', '.join(unknown)}; choose from {', '.join(CLUE_TYPES)}")
        types = {t: w for t, w in CLUE_TYPES.items() if t in clue_types}
    if not set(types) & {"link", "!link", "same", "xor", "or", "nand"} and kinds < 3:
        raise InputError("with only numeric clue types a game needs at least 3 kinds")
    if not set(types) & {"link", "!link", "same", "xor", "or", "nand"}:
        raise InputError("choose at least one of link, !link, same, xor, or, nand: numeric clues alone cannot "
                         "tell the non-numeric kinds apart")
    if seed is None:
        seed = random.randrange(2**31)
    for attempt in range(ATTEMPTS if difficulty else 1):
        sub_seed = seed if attempt == 0 else seed * 1000 + attempt
        game, hidden = _one(kinds, things, sub_seed, types, progress)
        if progress:
            progress(f"seed {sub_seed}: rating ({attempt + 1} of at most {ATTEMPTS if difficulty else 1} seeds)", 0, None)
        level, measures = difficulty_of(game, hidden)
        if difficulty is None or level == difficulty:
            return Generated(game, hidden, level, measures, sub_seed)
    raise InputError(f"no {difficulty} game came out of {ATTEMPTS} seeds from {seed} for {things} things × {kinds} "
                     f"kinds; try another size, seed or clue types")


# -- English ---------------------------------------------------------------------------------


def english(game: Game, rule: Rule, themes: dict[str, _Theme] | None = None) -> str:
    """A rule as an English sentence ("The Englishman lives in the red house.")."""
    text = _clause(game, rule, themes or {t.name: t for t in (_PEOPLE, *_NUMERIC, *_CATEGORIES)})
    return text[0].upper() + text[1:] + "."


def _subject(themes, game: Game, thing: str) -> str:
    return themes[game.kind_of(thing).name].subject.format(thing)


def _value(themes, game: Game, symbol: Symbol) -> str:
    kind = symbol.path[-1] if symbol.path else game.kind_of(symbol.base).name
    if game.kind_of(symbol.base).name == kind:
        return symbol.base
    return f"the {themes[kind].attribute} of {_subject(themes, game, symbol.base)}"


_ORDER_WORDS = {"<": "is less than", "<=": "is at most", ">": "is greater than", ">=": "is at least"}


def _clause(game: Game, rule: Rule, themes) -> str:
    if isinstance(rule, Connective):
        a, b = (_clause(game, r, themes) for r in rule.args)
        return {"xor": f"either {a}, or {b}, but not both", "or": f"{a}, or {b}, or both",
                "nand": f"it is not true both that {a} and that {b}"}[rule.op]
    args = rule.args
    if rule.func == "link":
        a, b = args[0].base, args[1].base
        theme = themes[game.kind_of(b).name]
        return f"{_subject(themes, game, a)} {(theme.no_fact if rule.negated else theme.fact).format(b)}"
    if rule.func == "same":
        who = [_subject(themes, game, s.base) for s in args]
        return f"{who[0]} and {who[1]} are {'different people' if rule.negated else 'the same person'}"
    x, y = (_value(themes, game, s) for s in args)
    if rule.func == "adj<":
        kind = themes[args[0].path[-1]]
        return f"{y} is the next {kind.attribute} after {x}"
    if rule.func == "adj":
        kind = themes[args[0].path[-1]]
        return f"{x} and {y} are next to each other in order of {kind.attribute}"
    if rule.func == "-":
        return f"{x} is {rule.literal} more than {y}"
    return f"{x} {_ORDER_WORDS[rule.func]} {y}"
