"""The language of stories: projections, formulas and statements, as plain data.

A formula is a frozen dataclass; nothing here evaluates anything. The fast engine
(`solve.py`) and the independent verifier (`verify.py`) each interpret these types in
their own way, so the story is the only thing they share.

Vocabulary: a *secret* is one candidate world; an *agent* sees a `Projection` of it;
the *model at moment k* is the set of secrets left after the first k statements.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

__all__ = [
    "Projection", "Formula", "Fact", "Knows", "KnowsWhich", "KnowsWhether", "Not", "And", "Or",
    "At", "Seeing", "Statement", "knows", "knows_which", "knows_whether", "fact", "initially",
    "seeing", "agents_named", "NOTHING",
]


@dataclass(frozen=True, eq=False)
class Projection:
    """A function of the secret (what an agent sees, or what a question asks).

    `name` says what it is in words ("the month"); with `vectorized`, `fn` also maps a numpy
    array of secrets elementwise in one call (it must still work on a single secret).
    `show` turns a value into words for explanations (default `str`).
    """

    fn: Callable[[Any], Any]
    name: str = ""
    vectorized: bool = False
    show: Callable[[Any], str] = str

    def __call__(self, secret: Any) -> Any:
        return self.fn(secret)


#: What an agent sees in a model where it sees nothing (for `seeing(agent, NOTHING, …)`).
NOTHING = Projection(lambda secret: (), "nothing", show=lambda value: "nothing")


def as_projection(view: Any, name: str = "") -> Projection:
    """A Projection as is; a plain callable wrapped in one."""
    return view if isinstance(view, Projection) else Projection(view, name)


class Formula:
    """A statement about the secret and who knows what; `~`, `&`, `|` build Not/And/Or."""

    def __invert__(self) -> Formula:
        return Not(self)

    def __and__(self, other: Formula) -> Formula:
        return And((self, other))

    def __or__(self, other: Formula) -> Formula:
        return Or((self, other))

    def children(self) -> tuple[Formula, ...]:
        return ()

    def walk(self) -> Iterator[Formula]:
        """This formula and every formula inside it."""
        yield self
        for child in self.children():
            yield from child.walk()


@dataclass(frozen=True, eq=False)
class Fact(Formula):
    """True where `test(secret)` holds; `text` says it in words ("the brothers are twins")."""

    test: Callable[[Any], bool]
    text: str
    vectorized: bool = False


@dataclass(frozen=True, eq=False)
class Knows(Formula):
    """The agent knows `formula`: it holds in every world the agent cannot tell apart."""

    agent: str
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class KnowsWhich(Formula):
    """The agent knows the secret (or, with `question`, the value of that projection): exactly
    one secret (one value) is possible among the worlds it cannot tell apart. Where no world
    of its class is possible (in a `Seeing` model the story so far may rule out the world
    itself), it does not know; `Knows` and `KnowsWhether` then hold vacuously."""

    agent: str
    question: Projection | None = None


@dataclass(frozen=True, eq=False)
class KnowsWhether(Formula):
    """The agent knows whether `formula` holds (knows it, or knows its negation)."""

    agent: str
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class Not(Formula):
    """Negation."""

    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class And(Formula):
    """Conjunction of the parts (flattened when built with `&`)."""

    parts: tuple[Formula, ...]

    def __post_init__(self) -> None:
        flat: list[Formula] = []
        for part in self.parts:
            flat.extend(part.parts if isinstance(part, And) else (part,))
        object.__setattr__(self, "parts", tuple(flat))

    def children(self) -> tuple[Formula, ...]:
        return self.parts


@dataclass(frozen=True, eq=False)
class Or(Formula):
    """Disjunction of the parts."""

    parts: tuple[Formula, ...]

    def children(self) -> tuple[Formula, ...]:
        return self.parts


@dataclass(frozen=True, eq=False)
class At(Formula):
    """`formula` evaluated at an earlier moment: in the model after the first `moment` statements."""

    moment: int
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class Seeing(Formula):
    """`formula` in the model where `agent` sees `view` instead (the story so far replayed there)."""

    agent: str
    view: Projection
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class Statement:
    """One public announcement: who says it, the puzzle's own sentence, and what it means."""

    speaker: str
    sentence: str
    formula: Formula


def knows(agent: str, formula: Formula) -> Knows:
    return Knows(agent, formula)


def knows_which(agent: str, question: Projection | Callable | None = None) -> KnowsWhich:
    return KnowsWhich(agent, None if question is None else as_projection(question))


def knows_whether(agent: str, formula: Formula) -> KnowsWhether:
    return KnowsWhether(agent, formula)


def fact(test: Callable[[Any], bool], text: str, vectorized: bool = False) -> Fact:
    return Fact(test, text, vectorized)


def initially(formula: Formula) -> At:
    """`formula` before any statement was made ("at first I didn't know")."""
    return At(0, formula)


def seeing(agent: str, view: Projection | Callable, formula: Formula) -> Seeing:
    """`formula` had `agent` seen `view` (`NOTHING`: "I couldn't have known without peeking")."""
    return Seeing(agent, as_projection(view), formula)


def agents_named(formula: Formula) -> set[str]:
    """Every agent a formula mentions."""
    return {f.agent for f in formula.walk() if isinstance(f, (Knows, KnowsWhich, KnowsWhether, Seeing))}


@dataclass(frozen=True, eq=False)
class Story:
    """Worlds (the candidate secrets), agents (name -> what each sees) and the statements.

    A classic instance is a constant; a variant is `story.on(other_worlds)` or new data.
    `show` renders a secret in words; `question` names what the reader wants to know; `answer`,
    when given, is that question as a projection (the muddy children: how many are muddy), so
    several surviving secrets can still give one answer.
    """

    name: str
    worlds: Any  # a sequence of distinct secrets, or a numpy array of them
    agents: dict[str, Projection]
    statements: tuple[Statement, ...]
    show: Callable[[Any], str] = str
    question: str = "the secret"
    answer: Projection | None = None
    #: Worlds left after each statement, known in closed form, and why (an independent check
    #: for models too large for the naive evaluator: the muddy children).
    expected_counts: tuple[int, ...] | None = None
    expected_because: str = ""

    def on(self, worlds: Any) -> Story:
        """The same story told over other worlds."""
        return replace(self, worlds=worlds)
