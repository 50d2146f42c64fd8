"""The vocabulary of a logic-grid game, as frozen dataclasses (no parsing, no solving).

    Kind        a category with its things, e.g. Person: Bianca, Charlie, …
    Symbol      a name in a rule: `Time` (a thing) or `Time::Last Day` (the Last Day
                in Time's row); chains `A::B::C` read left to right
    Relation    an atomic rule over symbols: `link`, `same`, `<`, `adj`, `+`, …,
                possibly negated (`!link`)
    Connective  a boolean rule over rules: `and`, `or`, `xor`, `nand`, `nor`, `not`
    Clue        a numbered list of rules that must all hold
    Game        kinds plus clues; a solution is a grid with one row per thing of the
                first kind and one column per kind
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Union

__all__ = [
    "Kind",
    "Symbol",
    "Relation",
    "Connective",
    "Rule",
    "Clue",
    "Game",
    "Grid",
    "LINK_FUNCS",
    "ORDER_FUNCS",
    "ADJ_FUNCS",
    "ARITH_FUNCS",
    "RELATION_FUNCS",
    "CONNECTIVES",
]

#: Functions over things that compare rows only.
LINK_FUNCS = ("link", "same")
#: Orderings: numeric on the digits of a name, or alphabetic with the `A` suffix.
ORDER_FUNCS = ("<", ">", "<=", ">=", "<A", ">A", "<=A", ">=A")
#: Adjacency of ranks within a kind, numeric or alphabetic.
ADJ_FUNCS = ("adj", "adj<", "adj>", "adjA", "adj<A", "adj>A")
#: Arithmetic with a literal result as first argument: `["/", "2", "X", "Y"]` is X / Y = 2.
ARITH_FUNCS = ("+", "-", "*", "/")
RELATION_FUNCS = LINK_FUNCS + ORDER_FUNCS + ADJ_FUNCS + ARITH_FUNCS
#: Boolean operators whose arguments are rules.
CONNECTIVES = ("and", "or", "xor", "nand", "nor", "not")

#: A solution: one row per thing of the first kind, one thing name per kind.
Grid = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Kind:
    """A category of things, e.g. Kind("Fruit", ("Apples", "Guavas", …))."""

    name: str
    things: tuple[str, ...]


@dataclass(frozen=True)
class Symbol:
    """`base` is a thing name; `path` the kinds after `::` (empty for the thing itself)."""

    base: str
    path: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Symbol:
        """Split `A::B::C` into its base and path.

        >>> Symbol.parse("Time::Last Day")
        Symbol(base='Time', path=('Last Day',))
        """
        base, *path = text.split("::")
        return cls(base, tuple(path))

    def __str__(self) -> str:
        return "::".join((self.base, *self.path))


@dataclass(frozen=True)
class Relation:
    """An atomic rule: `func` over `args`, negated by `negated`; `literal` for + - * /."""

    func: str
    args: tuple[Symbol, ...]
    negated: bool = False
    literal: str | None = None

    @property
    def name(self) -> str:
        """The function name as written in the modern syntax, e.g. `!link`."""
        return ("!" if self.negated else "") + self.func


@dataclass(frozen=True)
class Connective:
    """A boolean rule: `op` (one of CONNECTIVES) over sub-rules."""

    op: str
    args: tuple[Rule, ...]


Rule = Union[Relation, Connective]


@dataclass(frozen=True)
class Clue:
    """Rules that must all hold; `number` counts from 1; `where` locates it in its source;
    `text` is its wording for people (English), when it has one."""

    number: int
    rules: tuple[Rule, ...]
    where: str = field(default="", compare=False)
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class Game:
    """A logic-grid game: kinds (all of one size) and numbered clues.

    `warnings` says what the reader accepted that is probably a mistake (see `validate`).
    """

    kinds: tuple[Kind, ...]
    clues: tuple[Clue, ...]
    name: str = field(default="", compare=False)
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def _repr_html_(self) -> str:
        """In a notebook: the empty grid and the numbered clues."""
        from .render import html_game

        return html_game(self)

    @property
    def size(self) -> int:
        """Things per kind (the number of rows of a solution)."""
        return len(self.kinds[0].things)

    @property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.kinds)

    def kind(self, name: str) -> Kind:
        """The kind called `name` (KeyError when there is none)."""
        return self._kinds_by_name[name]

    def kind_of(self, thing: str) -> Kind:
        """The kind that thing belongs to (KeyError when unknown)."""
        return self._kinds_by_thing[thing]

    @cached_property
    def _kinds_by_name(self) -> dict[str, Kind]:
        return {k.name: k for k in self.kinds}

    @cached_property
    def _kinds_by_thing(self) -> dict[str, Kind]:
        return {t: k for k in reversed(self.kinds) for t in k.things}
