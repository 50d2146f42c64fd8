"""The gods' world: types, semantics, hidden worlds, one-step concrete worlds, and puzzles.

A *hidden world* (`World`) is what the asker wants to learn and what persists across
questions: the type of the god at each position and the gods' language. A *concrete
world* (`ConcreteWorld`) is a hidden world plus Random's free answer at this one step;
every question is evaluated in a concrete world, and Random draws a fresh free answer at
each step.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from ...errors import InputError

if TYPE_CHECKING:
    from .grammar import Grammar

__all__ = [
    "TYPES",
    "WORDS",
    "Semantics",
    "World",
    "ConcreteWorld",
    "Puzzle",
    "word_for",
    "type_letters",
]

#: The god types, in the order used for display and enumeration.
TYPES: tuple[str, ...] = ("truly", "falsely", "random")
#: The gods' two words; `"silent"` joins them under the silent semantics.
WORDS: tuple[str, ...] = ("ja", "da")


def word_for(truth: bool, da_means_yes: bool) -> str:
    """The word that asserts `truth` in the language: da iff truth == (da means yes).

    >>> word_for(True, da_means_yes=False)
    'ja'
    """
    return "da" if truth == da_means_yes else "ja"


def type_letters(assignment: Iterable[str]) -> str:
    """Short form of an assignment, e.g. ('truly', 'falsely', 'random') -> 'TFR'."""
    return "".join(t[0].upper() for t in assignment)


class Semantics(str, Enum):
    """How Random answers (Truly and Falsely are the same under all three).

    FREE:   the seed's reading: Random utters ja or da freely; a hypothetical about what
            Random would say reads that same free answer.
    BOOLOS: Random is truthful or lying at random (Boolos' wording); it utters the word
            for truth(Q) xor lying, and hypotheticals about it use the same bit.
    SILENT: like FREE, but Random may also stay silent; trees become ternary.
    """

    FREE = "free"
    BOOLOS = "boolos"
    SILENT = "silent"

    @property
    def free_answers(self) -> tuple[str, ...]:
        """The values of Random's free choice at one step."""
        if self is Semantics.BOOLOS:
            return ("truthful", "lying")
        if self is Semantics.SILENT:
            return ("ja", "da", "silent")
        return ("ja", "da")

    @property
    def utterances(self) -> tuple[str, ...]:
        """What a god can utter: the branches of a question node, in order."""
        return ("ja", "da", "silent") if self is Semantics.SILENT else WORDS

    def utter(self, god_type: str, truth: bool, da_means_yes: bool, free: str | None) -> str:
        """The utterance of a god of `god_type` asked a question whose truth is `truth`."""
        if god_type == "truly":
            return word_for(truth, da_means_yes)
        if god_type == "falsely":
            return word_for(not truth, da_means_yes)
        if self is Semantics.BOOLOS:
            return word_for(truth != (free == "lying"), da_means_yes)
        return str(free)

    @classmethod
    def parse(cls, value: "str | Semantics") -> "Semantics":
        """The semantics named `value`; InputError naming the value otherwise."""
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise InputError(f"unknown semantics {value!r} (choose from {names})") from None


@dataclass(frozen=True)
class World:
    """A hidden world: the type at each position (from 1) and the language."""

    assignment: tuple[str, ...]
    da_means_yes: bool

    def type_at(self, position: int) -> str:
        """The type of the god at `position` (counting from 1)."""
        return self.assignment[position - 1]

    def __str__(self) -> str:
        return f"{type_letters(self.assignment)}/{'da=yes' if self.da_means_yes else 'da=no'}"


@dataclass(frozen=True)
class ConcreteWorld:
    """A hidden world plus Random's free answer at one step (None where no Random stands).

    As a logicpy term: ("world", [type, ...], "da_yes" | "da_no", [free or "none", ...]).
    """

    world: World
    free: tuple[str | None, ...]

    def type_at(self, position: int) -> str:
        """The type of the god at `position` (counting from 1)."""
        return self.world.type_at(position)

    def free_at(self, position: int) -> str | None:
        """Random's free answer at `position` this step (None if that god is not Random)."""
        return self.free[position - 1]

    @property
    def da_means_yes(self) -> bool:
        """True iff "da" means yes in this world."""
        return self.world.da_means_yes

    def to_term(self) -> tuple:
        """This concrete world as a logicpy term."""
        return (
            "world",
            list(self.world.assignment),
            "da_yes" if self.da_means_yes else "da_no",
            ["none" if f is None else f for f in self.free],
        )

    @classmethod
    def from_term(cls, term: tuple) -> "ConcreteWorld":
        """Inverse of `to_term` (the term must be ground)."""
        _, assignment, language, free = term
        return cls(
            World(tuple(assignment), language == "da_yes"),
            tuple(None if f == "none" else f for f in free),
        )

    def __str__(self) -> str:
        frees = ",".join(f for f in self.free if f is not None)
        return f"{self.world}" + (f" random:{frees}" if frees else "")


def _default_grammar() -> "Grammar":
    from .grammar import CLASSIC_GRAMMAR

    return CLASSIC_GRAMMAR


@dataclass(frozen=True)
class Puzzle:
    """A gods puzzle: positions, candidate type assignments, semantics, grammar, languages.

    Build one with `Puzzle.permutations` (a multiset of gods in unknown order, optionally
    restricted per position) or `Puzzle.choices` (each position from its own type set).
    `languages` lists the possible values of "da means yes" (both by default).
    """

    n_positions: int
    assignments: tuple[tuple[str, ...], ...]
    semantics: Semantics = Semantics.FREE
    grammar: "Grammar" = field(default_factory=_default_grammar)
    languages: tuple[bool, ...] = (True, False)
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "semantics", Semantics.parse(self.semantics))
        if self.n_positions < 1:
            raise InputError(f"a puzzle needs at least one god, got n_positions={self.n_positions}")
        if not self.assignments:
            raise InputError(f"puzzle {self.name or '?'}: no type assignment satisfies the constraints")
        for a in self.assignments:
            if len(a) != self.n_positions or any(t not in TYPES for t in a):
                raise InputError(f"puzzle {self.name or '?'}: bad type assignment {a!r}")
        if len(set(self.assignments)) != len(self.assignments):
            raise InputError(f"puzzle {self.name or '?'}: repeated type assignment")
        if not self.languages or len(set(self.languages)) != len(self.languages):
            raise InputError(f"puzzle {self.name or '?'}: languages must be distinct booleans")
        if len(self.hidden_worlds) > 64:
            raise InputError(
                f"puzzle {self.name or '?'}: {len(self.hidden_worlds)} hidden worlds; at most 64 are supported"
            )

    # -- constructors -------------------------------------------------------------------
    @classmethod
    def permutations(
        cls,
        types: Sequence[str] = TYPES,
        *,
        allowed: Mapping[int, Iterable[str]] | None = None,
        known: Mapping[int, str] | None = None,
        **options,
    ) -> "Puzzle":
        """Gods of the multiset `types` in unknown order.

        `allowed` maps a position to the types that may stand there; `known` fixes a
        position's type. Other keyword options are the dataclass fields.

        >>> Puzzle.permutations(allowed={1: ["truly", "falsely"]}).n_assignments
        4
        """
        types = tuple(types)
        _check_types(types, "types")
        n = len(types)
        restrict = _restrictions(n, allowed, known)
        assignments = sorted(
            {p for p in itertools.permutations(types) if all(p[i] in restrict[i] for i in range(n))},
            key=lambda a: [TYPES.index(t) for t in a],
        )
        return cls(n, tuple(assignments), **options)

    @classmethod
    def choices(cls, allowed: Sequence[Iterable[str]], **options) -> "Puzzle":
        """Each position independently of any type in its own set (e.g. knights and knaves).

        >>> Puzzle.choices([["truly", "falsely"]] * 2).n_assignments
        4
        """
        sets = [tuple(t for t in TYPES if t in set(s)) for s in allowed]
        for i, s in enumerate(allowed, 1):
            _check_types(tuple(s), f"position {i}")
        return cls(len(sets), tuple(itertools.product(*sets)), **options)

    # -- derived ------------------------------------------------------------------------
    @property
    def n_assignments(self) -> int:
        """How many type assignments are possible."""
        return len(self.assignments)

    @cached_property
    def types(self) -> tuple[str, ...]:
        """The types that occur in some assignment (the grammar's type domain)."""
        present = {t for a in self.assignments for t in a}
        return tuple(t for t in TYPES if t in present)

    @cached_property
    def hidden_worlds(self) -> tuple[World, ...]:
        """All hidden worlds; index = language index × n_assignments + assignment index."""
        return tuple(World(a, lang) for lang in self.languages for a in self.assignments)

    @cached_property
    def concrete_worlds(self) -> tuple[ConcreteWorld, ...]:
        """All concrete worlds of one step, grouped by hidden world in that order."""
        return tuple(cw for h in self.hidden_worlds for cw in self.concrete_worlds_of(h))

    def concrete_worlds_of(self, world: World) -> tuple[ConcreteWorld, ...]:
        """The concrete worlds of one step that extend `world` (one per free-answer choice)."""
        options = [self.semantics.free_answers if t == "random" else (None,) for t in world.assignment]
        return tuple(ConcreteWorld(world, free) for free in itertools.product(*options))

    def with_options(self, **changes) -> "Puzzle":
        """A copy with some fields changed (semantics, grammar, languages, name)."""
        from dataclasses import replace

        return replace(self, **changes)

    def __str__(self) -> str:
        shown = ", ".join(type_letters(a) for a in self.assignments)
        gods = "1 god" if self.n_positions == 1 else f"{self.n_positions} gods"
        assignments = "1 assignment" if self.n_assignments == 1 else f"{self.n_assignments} assignments"
        return (
            f"{self.name or 'puzzle'}: {gods}, {assignments} "
            f"({shown}), semantics {self.semantics.value}"
        )


def _check_types(types: tuple[str, ...], what: str) -> None:
    for t in types:
        if t not in TYPES:
            raise InputError(f"{what}: unknown god type {t!r} (choose from {', '.join(TYPES)})")


def _restrictions(
    n: int, allowed: Mapping[int, Iterable[str]] | None, known: Mapping[int, str] | None
) -> list[set[str]]:
    """Per position (0-based) the set of types allowed there."""
    restrict = [set(TYPES) for _ in range(n)]
    for kind, mapping in (("allowed", allowed or {}), ("known", known or {})):
        for position, types in mapping.items():
            if not isinstance(position, int) or not 1 <= position <= n:
                raise InputError(f"{kind}: position {position!r} is not between 1 and {n}")
            types = (types,) if isinstance(types, str) else tuple(types)
            _check_types(types, f"{kind} at position {position}")
            restrict[position - 1] &= set(types)
    return restrict
