"""What each rule means, read directly on a candidate grid (einstein-solver's semantics).

The one reading of the game format, used by `verify` and the explanation engine; the FD
compiler (`compile.py`) is a second, independent implementation checked against it.

A rule depends only on *partners*: `view.partner(thing, kind)` is the thing of `kind` in
the row of `thing`, and `view.linked(a, b)` says whether a and b share a row. A symbol `A::B::C` is the thing of kind C in A's row (every link of a
row is shared, so the middle kinds do not matter). The rules, as einstein-solver has them:

- `link(a, b, …)`: some pair of the arguments shares a row (two arguments: they do).
- `same(a, b, …)`: all arguments are the same thing.
- `<`, `>`, `<=`, `>=`: the chain holds on the numbers read from the digits of the names
  (`"07-08"` is 708); with the `A` suffix, on the names compared as strings.
- `adj`: consecutive arguments have ranks (position in the sorted numbers of the first
  argument's kind) that differ by *at most* one, so a thing is adjacent to itself;
  `adj<` / `adj>`: each next rank is exactly one more / one less. `A` forms rank the
  case-folded names.
- `+ - * /` with literal L: folding the arguments' numbers left to right gives L
  (within 0.001).
- `and`, `or`, `xor` (exactly one), `nand` (not all), `nor` / `not` (none).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Callable, Protocol

from .model import ADJ_FUNCS, ARITH_FUNCS, Game, Relation, Rule, Symbol

__all__ = [
    "number",
    "holds",
    "GridView",
    "View",
    "resolve_kind",
    "rank_key",
    "ARITH_TOLERANCE",
    "arith",
]

#: How close an arithmetic result must be to the literal (einstein-solver's epsilon).
ARITH_TOLERANCE = 0.001


class View(Protocol):
    """What a rule may ask of a (full or partial) grid."""

    def partner(self, thing: str, kind: str) -> str:
        """The thing of `kind` in the row of `thing` (a different kind from thing's)."""

    def linked(self, a: str, b: str) -> bool:
        """Whether things a and b (of different kinds) share a row."""


def number(thing: str) -> int:
    """The number a thing stands for: the digits of its name read together.

    >>> number("07-08"), number("10")
    (708, 10)
    """
    return int("".join(c for c in thing if c.isdigit()))


def rank_key(func: str) -> Callable[[str], Any]:
    """The sort key adjacency ranks by: the number, or the case-folded name for `A` forms."""
    return str.casefold if func.endswith("A") else number


def resolve_kind(game: Game, symbol: Symbol) -> str:
    """The kind of the thing a symbol names: the last kind of its path, or its base's kind."""
    return symbol.path[-1] if symbol.path else game.kind_of(symbol.base).name


def _resolve(game: Game, symbol: Symbol, view: View) -> str:
    kind = resolve_kind(game, symbol)
    return symbol.base if game.kind_of(symbol.base).name == kind else view.partner(symbol.base, kind)


def _linked(game: Game, a: str, b: str, view: View) -> bool:
    return a == b if game.kind_of(a) == game.kind_of(b) else view.linked(a, b)


def _chain(values: list, test: Callable[[Any, Any], bool]) -> bool:
    return all(test(x, y) for x, y in zip(values, values[1:]))


_ORDER_TESTS: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda x, y: x < y,
    ">": lambda x, y: x > y,
    "<=": lambda x, y: x <= y,
    ">=": lambda x, y: x >= y,
}
_ADJ_TESTS: dict[str, Callable[[int, int], bool]] = {
    "adj": lambda i, j: abs(i - j) <= 1,
    "adj<": lambda i, j: j - i == 1,
    "adj>": lambda i, j: i - j == 1,
}


def arith(func: str, values: list[int]) -> float:
    """Fold the values left to right with + - * or / (NaN on division by zero).

    >>> arith("/", [8, 4]), arith("-", [10, 2, 3])
    (2.0, 5)
    """
    if func == "+":
        return sum(values)
    if func == "*":
        return math.prod(values)
    result: float = values[0]
    for v in values[1:]:
        if func == "-":
            result -= v
        elif v == 0:
            return math.nan
        else:
            result /= v
    return result


def _relation_holds(game: Game, rel: Relation, view: View) -> bool:
    func = rel.func
    if func == "link":
        bases = [s.base for s in rel.args]
        return any(_linked(game, a, b, view) for i, a in enumerate(bases) for b in bases[i + 1:])
    things = [_resolve(game, s, view) for s in rel.args]
    if func == "same":
        return len(set(things)) == 1
    if func in ADJ_FUNCS:
        key = rank_key(func)
        ranked = sorted(key(t) for t in game.kind_of(things[0]).things)
        ranks = [ranked.index(key(t)) for t in things]
        return _chain(ranks, _ADJ_TESTS[func.removesuffix("A")])
    if func in ARITH_FUNCS:
        assert rel.literal is not None
        return abs(arith(func, [number(t) for t in things]) - float(rel.literal)) < ARITH_TOLERANCE
    if func.endswith("A"):
        return _chain(things, _ORDER_TESTS[func[:-1]])
    return _chain([number(t) for t in things], _ORDER_TESTS[func])


def holds(game: Game, rule: Rule, view: View) -> bool:
    """True iff `rule` holds where `view` says which things share a row."""
    if isinstance(rule, Relation):
        return _relation_holds(game, rule, view) != rule.negated
    truths = [holds(game, r, view) for r in rule.args]
    op = rule.op
    if op == "and":
        return all(truths)
    if op == "or":
        return any(truths)
    if op == "xor":
        return sum(truths) == 1
    if op == "nand":
        return not all(truths)
    return not any(truths)  # nor, not


class GridView:
    """The view of a full grid (rows of thing names, one column per kind)."""

    def __init__(self, game: Game, grid: Sequence[Sequence[str]]):
        self._grid = grid
        self._row_of = {t: i for i, row in enumerate(grid) for t in row}
        self._column = {k.name: j for j, k in enumerate(game.kinds)}

    def partner(self, thing: str, kind: str) -> str:
        return self._grid[self._row_of[thing]][self._column[kind]]

    def linked(self, a: str, b: str) -> bool:
        return self._row_of[a] == self._row_of[b]
