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
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from ...errors import InputError

if TYPE_CHECKING:
    from .grammar import Grammar

__all__ = [
    "TYPES",
    "WORDS",
    "SILENT",
    "UTTERANCES",
    "GodType",
    "TRULY",
    "FALSELY",
    "RANDOM_FREE",
    "RANDOM_BOOLOS",
    "RANDOM_SILENT",
    "Semantics",
    "World",
    "ConcreteWorld",
    "Puzzle",
    "word_for",
    "type_title",
    "type_letters",
]

#: The god types every puzzle knows, in the order used for display and enumeration.
TYPES: tuple[str, ...] = ("truly", "falsely", "random")
#: The gods' two words; `SILENT` is the third outcome when a god cannot or will not answer.
WORDS: tuple[str, ...] = ("ja", "da")
SILENT = "silent"
UTTERANCES: tuple[str, ...] = (*WORDS, SILENT)

#: One letter per type name, for short forms like "TFR" (filled by every `GodType`).
_LETTERS: dict[str, str] = {}


def word_for(truth: bool, da_means_yes: bool) -> str:
    """The word that asserts `truth` in the language: da iff truth == (da means yes).

    >>> word_for(True, da_means_yes=False)
    'ja'
    """
    return "da" if truth == da_means_yes else "ja"


def type_title(name: str) -> str:
    """A type name as English shows it: 'always_da' -> 'Always da'."""
    return name.replace("_", " ").capitalize()


def type_letters(assignment: Iterable[str]) -> str:
    """Short form of an assignment, e.g. ('truly', 'falsely', 'random') -> 'TFR'."""
    return "".join(_LETTERS.get(t, t[:1].upper()) for t in assignment)


@dataclass(frozen=True, eq=False)
class GodType:
    """A kind of god, as a value: a name, a letter, and how it answers.

    `answer(truth, da_means_yes, choice)` is what the god utters ("ja", "da" or
    "silent") when asked a question whose truth is `truth`, in a world whose language is
    `da_means_yes`, having made the free choice `choice` (one of `choices`, drawn afresh
    at every question; `(None,)` for a god without free will).

    Under self-reference the same function decides by fixed point: the god may answer
    the word u only if `answer(truth of the question given that he answers u, ...) == u`,
    and stays silent if no word qualifies.

    A god who `lies_about_himself` judges every statement about himself falsely (an
    atom naming his position, or what he himself would answer) and all others truly;
    his answer function then applies to the truth as he judges it.

    A god with a memory has `states` (the hidden state he may start in, unknown to the
    asker) and `after(state, asked)` (his state after a question, `asked` telling whether
    it was put to him); his answer function then takes the state as a fourth argument.

    >>> always_da = GodType("always_da", "D", lambda truth, da_means_yes, choice: "da")
    >>> always_da.answer(False, True, None)
    'da'
    """

    name: str
    letter: str
    answer: Callable[[bool, bool, Any], str]
    choices: tuple[Any, ...] = (None,)
    description: str = ""
    states: tuple[Any, ...] = (None,)
    after: Callable[[Any, bool], Any] | None = None
    lies_about_himself: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise InputError(f"god type name {self.name!r} must be an identifier")
        if not isinstance(self.letter, str) or len(self.letter) != 1 or not self.letter.isalpha():
            raise InputError(f"god type {self.name!r}: letter must be one letter, got {self.letter!r}")
        object.__setattr__(self, "choices", tuple(self.choices))
        if not self.choices:
            raise InputError(f"god type {self.name!r}: needs at least one free choice (None for none)")
        object.__setattr__(self, "states", tuple(self.states))
        if not self.states:
            raise InputError(f"god type {self.name!r}: needs at least one state (None for none)")
        if self.stateful and self.after is None:
            raise InputError(f"god type {self.name!r}: several states need after(state, asked)")
        for state in self.states if self.stateful else ():
            for asked in (True, False):
                try:
                    nxt = self.after(state, asked)  # type: ignore[misc]
                except Exception as exc:
                    raise InputError(f"god type {self.name!r}: after({state!r}, {asked}) fails: {exc}") from None
                if nxt not in self.states:
                    raise InputError(f"god type {self.name!r}: after({state!r}, {asked}) = {nxt!r} "
                                     f"is not one of its states {self.states!r}")
        for truth, da_yes, choice, state in itertools.product((True, False), (True, False), self.choices, self.states):
            try:
                said = self.say(truth, da_yes, choice, state)
            except Exception as exc:
                raise InputError(f"god type {self.name!r}: its answer function fails on "
                                 f"(truth={truth}, da_means_yes={da_yes}, choice={choice!r}, state={state!r}): "
                                 f"{exc}") from None
            if said not in UTTERANCES:
                raise InputError(f"god type {self.name!r}: answer(truth={truth}, da_means_yes={da_yes}, "
                                 f"choice={choice!r}, state={state!r}) returned {said!r}; "
                                 f"expected one of {', '.join(UTTERANCES)}")
        known = _LETTERS.get(self.name)
        if known is not None and known != self.letter and self.name in TYPES:
            raise InputError(f"god type {self.name!r} is built in with letter {known!r}")
        _LETTERS[self.name] = self.letter

    @property
    def stateful(self) -> bool:
        """True iff the god has a memory (more than one state)."""
        return len(self.states) > 1

    def say(self, truth: bool, da_means_yes: bool, choice: Any, state: Any = None) -> str:
        """His utterance: `answer` with the state passed when he has one."""
        if self.stateful:
            return self.answer(truth, da_means_yes, choice, state)  # type: ignore[call-arg]
        return self.answer(truth, da_means_yes, choice)

    def next_state(self, state: Any, asked: bool) -> Any:
        """His state after a question (`asked`: it was put to him)."""
        return self.after(state, asked) if self.after is not None else state

    @property
    def can_be_silent(self) -> bool:
        """True iff some truth, language, choice and state make this god say nothing."""
        return any(self.say(t, d, c, st) == SILENT
                   for t, d, c, st in itertools.product((True, False), (True, False), self.choices, self.states))

    def __repr__(self) -> str:
        return f"GodType({self.name!r}, {self.letter!r}, choices={self.choices!r})"


TRULY = GodType("truly", "T", lambda truth, da_yes, _: word_for(truth, da_yes), description="always speaks truly")
FALSELY = GodType("falsely", "F", lambda truth, da_yes, _: word_for(not truth, da_yes),
                  description="always speaks falsely")
#: Random in the free reading: says ja or da freely, whatever the question.
RANDOM_FREE = GodType("random", "R", lambda truth, da_yes, choice: choice, ("ja", "da"),
                      "says ja or da at random")
#: Boolos' Random: truthful or lying at random (a coin flip per question).
RANDOM_BOOLOS = GodType("random", "R", lambda truth, da_yes, choice: word_for(truth != (choice == "lying"), da_yes),
                        ("truthful", "lying"), "truthful or lying at random")
#: Random that may also stay silent (Uzquiano's amended puzzle).
RANDOM_SILENT = GodType("random", "R", lambda truth, da_yes, choice: choice, ("ja", "da", SILENT),
                        "says ja or da, or stays silent, at random")


class Semantics(str, Enum):
    """How Random answers, and whether questions may refer to their own answer.

    FREE:   the free reading: Random utters ja or da freely; a hypothetical about what
            Random would say reads that same free answer.
    BOOLOS: Random is truthful or lying at random (Boolos' wording); it utters the word
            for truth(Q) xor lying, and hypotheticals about it use the same bit.
    SILENT: like FREE, but Random may also stay silent; trees become ternary.
    EXPLODE, EXPLODE_SILENT, EXPLODE_BOOLOS: FREE, SILENT and BOOLOS plus self-reference:
            the grammar gains "your answer to this question is ja/da", every god answers
            by fixed point, and a god with no consistent answer is silent (his head
            explodes). EXPLODE is the setting of Rabern & Rabern (2008) and Uzquiano's
            (2010) two-question solution; EXPLODE_SILENT is Uzquiano's amended puzzle,
            which Wheeler & Barahona (2012) show needs three questions; EXPLODE_BOOLOS is
            Boolos' own Random with exploding heads.
    """

    FREE = "free"
    BOOLOS = "boolos"
    SILENT = "silent"
    EXPLODE = "explode"
    EXPLODE_SILENT = "explode-silent"
    EXPLODE_BOOLOS = "explode-boolos"

    @property
    def random(self) -> GodType:
        """Random's god type under this semantics."""
        if self in (Semantics.BOOLOS, Semantics.EXPLODE_BOOLOS):
            return RANDOM_BOOLOS
        if self in (Semantics.SILENT, Semantics.EXPLODE_SILENT):
            return RANDOM_SILENT
        return RANDOM_FREE

    @property
    def self_reference(self) -> bool:
        """True iff questions may refer to the asked god's own answer (heads may explode)."""
        return self.value.startswith("explode")

    def god(self, name: str) -> GodType:
        """The built-in god type called `name` under this semantics."""
        if name == "truly":
            return TRULY
        if name == "falsely":
            return FALSELY
        if name == "random":
            return self.random
        raise InputError(f"unknown god type {name!r} (choose from {', '.join(TYPES)})")

    def utter(self, god_type: str, truth: bool, da_means_yes: bool, free: Any, state: Any = None) -> str:
        """The utterance of a built-in god asked a question whose truth is `truth`."""
        return self.god(god_type).say(truth, da_means_yes, free, state)

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
    """A hidden world: the type at each position (from 1), the language, and the state of
    each god with a memory (`states`: one per position, None for a god without; empty
    when no god has one)."""

    assignment: tuple[str, ...]
    da_means_yes: bool
    states: tuple[Any, ...] = ()

    def type_at(self, position: int) -> str:
        """The type of the god at `position` (counting from 1)."""
        return self.assignment[position - 1]

    def state_at(self, position: int) -> Any:
        """The state of the god at `position` (None if he has no memory)."""
        return self.states[position - 1] if self.states else None

    def __str__(self) -> str:
        shown = ",".join(str(st) for st in self.states if st is not None)
        return (f"{type_letters(self.assignment)}/{'da=yes' if self.da_means_yes else 'da=no'}"
                + (f"/{shown}" if shown else ""))


@dataclass(frozen=True)
class ConcreteWorld:
    """A hidden world plus each god's free choice at one step (None for a god without one).

    Under self-reference, `answer` is the answer hypothesised for the god being asked
    ("ja" or "da"): a question's truth may depend on it. It is None otherwise.

    As a logicpy term: ("world", [type, ...], "da_yes" | "da_no", [free or "none", ...]),
    with the hypothesised answer as a fifth element when there is one.
    """

    world: World
    free: tuple[Any, ...]
    answer: str | None = None
    view: int | None = None

    def type_at(self, position: int) -> str:
        """The type of the god at `position` (counting from 1)."""
        return self.world.type_at(position)

    def free_at(self, position: int) -> Any:
        """The free choice of the god at `position` this step (None if he has none)."""
        return self.free[position - 1]

    def state_at(self, position: int) -> Any:
        """The state of the god at `position` this step (None if he has no memory)."""
        return self.world.state_at(position)

    @property
    def da_means_yes(self) -> bool:
        """True iff "da" means yes in this world."""
        return self.world.da_means_yes

    def with_answer(self, answer: str | None) -> "ConcreteWorld":
        """This concrete world with the asked god's answer hypothesised to be `answer`."""
        return ConcreteWorld(self.world, self.free, answer, self.view)

    def with_view(self, view: int | None) -> "ConcreteWorld":
        """This concrete world as judged by a god who lies about himself at position `view` (None: truly)."""
        return ConcreteWorld(self.world, self.free, self.answer, view)

    def to_term(self) -> tuple:
        """This concrete world as a logicpy term."""
        term = (
            "world",
            list(self.world.assignment),
            "da_yes" if self.da_means_yes else "da_no",
            ["none" if f is None else f for f in self.free],
        )
        return term if self.answer is None else (*term, self.answer)

    @classmethod
    def from_term(cls, term: tuple) -> "ConcreteWorld":
        """Inverse of `to_term` (the term must be ground)."""
        _, assignment, language, free, *answer = term
        return cls(
            World(tuple(assignment), language == "da_yes"),
            tuple(None if f == "none" else f for f in free),
            answer[0] if answer else None,
        )

    def __str__(self) -> str:
        frees = ",".join(str(f) for f in self.free if f is not None)
        said = f" answering {self.answer}" if self.answer else ""
        return f"{self.world}" + (f" free:{frees}" if frees else "") + said


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
    gods: tuple[GodType, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "semantics", Semantics.parse(self.semantics))
        object.__setattr__(self, "gods", tuple(self.gods))
        _check_gods(self.gods)
        if self.semantics.self_reference and "answer" not in self.grammar.names:
            from .grammar import ANSWER

            object.__setattr__(self, "grammar", self.grammar.extend(ANSWER))
        if self.n_positions < 1:
            raise InputError(f"a puzzle needs at least one god, got n_positions={self.n_positions}")
        if not self.assignments:
            raise InputError(f"puzzle {self.name or '?'}: no type assignment satisfies the constraints")
        for a in self.assignments:
            if len(a) != self.n_positions or any(t not in self.type_names for t in a):
                raise InputError(f"puzzle {self.name or '?'}: bad type assignment {a!r}")
        if "answer" in self.grammar.names and not self.semantics.self_reference:
            raise InputError(
                f"puzzle {self.name or '?'}: the grammar's self-referential 'answer' atom needs a semantics "
                f"where heads may explode ({', '.join(s.value for s in Semantics if s.self_reference)})")
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
        names = _names(options.get("gods", ()))
        _check_types(types, "types", names)
        n = len(types)
        restrict = _restrictions(n, allowed, known, names)
        assignments = sorted(
            {p for p in itertools.permutations(types) if all(p[i] in restrict[i] for i in range(n))},
            key=lambda a: [names.index(t) for t in a],
        )
        return cls(n, tuple(assignments), **options)

    @classmethod
    def choices(cls, allowed: Sequence[Iterable[str]], **options) -> "Puzzle":
        """Each position independently of any type in its own set (e.g. knights and knaves).

        >>> Puzzle.choices([["truly", "falsely"]] * 2).n_assignments
        4
        """
        names = _names(options.get("gods", ()))
        sets = [tuple(t for t in names if t in set(s)) for s in allowed]
        for i, s in enumerate(allowed, 1):
            _check_types(tuple(s), f"position {i}", names)
        return cls(len(sets), tuple(itertools.product(*sets)), **options)

    # -- derived ------------------------------------------------------------------------
    @property
    def n_assignments(self) -> int:
        """How many type assignments are possible."""
        return len(self.assignments)

    @cached_property
    def type_names(self) -> tuple[str, ...]:
        """Every type this puzzle knows: the built-in ones, then its own `gods`."""
        return _names(self.gods)

    @cached_property
    def types(self) -> tuple[str, ...]:
        """The types that occur in some assignment (the grammar's type domain)."""
        present = {t for a in self.assignments for t in a}
        return tuple(t for t in self.type_names if t in present)

    def god(self, name: str) -> GodType:
        """The god type called `name`: one of the puzzle's own, else a built-in one."""
        for g in self.gods:
            if g.name == name:
                return g
        return self.semantics.god(name)

    def utter(self, god_type: str, truth: bool, da_means_yes: bool, free: Any, state: Any = None) -> str:
        """The utterance of a god of `god_type` (in `state`) asked a question whose truth is `truth`."""
        return self.god(god_type).say(truth, da_means_yes, free, state)

    @property
    def self_reference(self) -> bool:
        """True iff questions may refer to the asked god's own answer."""
        return self.semantics.self_reference

    @cached_property
    def views(self) -> bool:
        """True iff some god of the puzzle lies about himself (truths then depend on who judges)."""
        return any(self.god(t).lies_about_himself for t in self.types)

    def view_of(self, position: int, world: "World | ConcreteWorld") -> int | None:
        """Whose statements the god at `position` judges falsely: his own position, or None."""
        return position if self.god(world.type_at(position)).lies_about_himself else None

    @cached_property
    def utterances(self) -> tuple[str, ...]:
        """What the gods can utter: the branches of a question node, in order."""
        if self.self_reference or any(self.god(t).can_be_silent for t in self.types):
            return UTTERANCES
        return WORDS

    @cached_property
    def stateful(self) -> bool:
        """True iff some god of the puzzle has a memory (the hidden world then holds his state)."""
        return any(self.god(t).stateful for t in self.types)

    @cached_property
    def hidden_worlds(self) -> tuple[World, ...]:
        """All hidden worlds: by language, then assignment (index = language index ×
        n_assignments + assignment index when no god has a memory), then initial states."""
        if not self.stateful:
            return tuple(World(a, lang) for lang in self.languages for a in self.assignments)
        return tuple(
            World(a, lang, states)
            for lang in self.languages for a in self.assignments
            for states in itertools.product(*(self.god(t).states for t in a))
        )

    def after(self, world: World, position: int) -> World:
        """The hidden world after a question put to the god at `position` (gods with a memory move on)."""
        if not world.states:
            return world
        return World(world.assignment, world.da_means_yes, tuple(
            self.god(t).next_state(st, p == position) for p, (t, st) in enumerate(zip(world.assignment, world.states), 1)
        ))

    @cached_property
    def transitions(self) -> dict[int, tuple[int, ...]]:
        """Per position: hidden world index -> its index after a question put to that god."""
        index = {h: i for i, h in enumerate(self.hidden_worlds)}
        return {p: tuple(index[self.after(h, p)] for h in self.hidden_worlds)
                for p in range(1, self.n_positions + 1)}

    @cached_property
    def concrete_worlds(self) -> tuple[ConcreteWorld, ...]:
        """All concrete worlds of one step, grouped by hidden world in that order."""
        return tuple(cw for h in self.hidden_worlds for cw in self.concrete_worlds_of(h))

    def concrete_worlds_of(self, world: World) -> tuple[ConcreteWorld, ...]:
        """The concrete worlds of one step that extend `world` (one per combination of free choices)."""
        options = [self.god(t).choices for t in world.assignment]
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


def _names(gods: Iterable[GodType]) -> tuple[str, ...]:
    """The built-in type names followed by the names of `gods`."""
    return TYPES + tuple(g.name for g in gods)


def _check_gods(gods: tuple[GodType, ...]) -> None:
    seen: set[str] = set(TYPES)
    for g in gods:
        if not isinstance(g, GodType):
            raise InputError(f"gods: {g!r} is not a GodType (build one with GodType(name, letter, answer))")
        if g.name in seen:
            raise InputError(f"gods: the type name {g.name!r} is already taken")
        seen.add(g.name)


def _check_types(types: tuple[str, ...], what: str, names: tuple[str, ...] = TYPES) -> None:
    for t in types:
        if t not in names:
            raise InputError(f"{what}: unknown god type {t!r} (choose from {', '.join(names)})")


def _restrictions(
    n: int, allowed: Mapping[int, Iterable[str]] | None, known: Mapping[int, str] | None,
    names: tuple[str, ...] = TYPES,
) -> list[set[str]]:
    """Per position (0-based) the set of types allowed there."""
    restrict = [set(names) for _ in range(n)]
    for kind, mapping in (("allowed", allowed or {}), ("known", known or {})):
        for position, types in mapping.items():
            if not isinstance(position, int) or not 1 <= position <= n:
                raise InputError(f"{kind}: position {position!r} is not between 1 and {n}")
            types = (types,) if isinstance(types, str) else tuple(types)
            _check_types(types, f"{kind} at position {position}", names)
            restrict[position - 1] &= set(types)
    return restrict
