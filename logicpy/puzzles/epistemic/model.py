"""The language of stories: projections, formulas and statements, as plain data.

A formula is a frozen dataclass; nothing here evaluates anything. The fast engine
(`solve.py`) and the independent verifier (`verify.py`) each interpret these types in
their own way, so the story is the only thing they share.

Vocabulary: a *secret* is one candidate world; an *agent* sees a `Projection` of it;
the *model at moment k* is the set of secrets left after the first k statements.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator

from ...errors import InputError

__all__ = [
    "Projection", "Formula", "Fact", "TRUE", "Knows", "KnowsWhich", "KnowsWhether", "Not", "And", "Or",
    "At", "Seeing", "Common", "Distributed", "Action", "Statement", "knows", "knows_which", "knows_whether",
    "fact", "initially", "seeing", "common", "distributed", "learns_whether", "observes",
    "learns_privately", "agents_named", "NOTHING",
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


#: The formula true everywhere (the precondition of an observation).
TRUE = Fact(lambda secret: True, "true")


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
class Common(Formula):
    """`formula` is common knowledge in `group`: it holds in every possible world reachable from
    this one by any chain of the group's indistinguishabilities (everybody knows, and everybody
    knows that everybody knows, and so on)."""

    group: tuple[str, ...]
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class Distributed(Formula):
    """`formula` is distributed knowledge in `group`: it holds in every possible world that no
    member can tell from this one (what they would know by pooling what they see)."""

    group: tuple[str, ...]
    formula: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.formula,)


@dataclass(frozen=True, eq=False)
class Action:
    """What a `group` learns in private, as an action model of dynamic epistemic logic.

    The events are `events` (formulas whose truth excludes each other: in each world exactly
    one can happen, and worlds where none can are removed) or, with `observes`, the values of
    a projection (one event per value). The group tells the events apart; every other agent
    knows that it happened but not which event it was: it learns that the group learned
    whether, not what.

    With `unnoticed`, the one event (`events[0]`, "the group is told it") may also not have
    happened at all, and the others cannot tell: every world is copied, once where the
    group was told (if it is true there) and once where nothing happened (`actions.py`).
    """

    group: tuple[str, ...]
    events: tuple[Formula, ...] = ()
    observes: Projection | None = None
    unnoticed: bool = False

    def children(self) -> tuple[Formula, ...]:
        return self.events


@dataclass(frozen=True, eq=False)
class Statement:
    """One announcement: who says it, the puzzle's own sentence, and what it means.

    Without `action` it is public: every world where `formula` is false is removed. With an
    `action`, `formula` is its precondition (the worlds where no event can happen go) and the
    action's group learns which event happened (`learns_whether`, `observes`).
    """

    speaker: str
    sentence: str
    formula: Formula
    action: Action | None = None

    def __post_init__(self) -> None:
        _need(isinstance(self.speaker, str), "Statement", "speaker", "a name (a str)", self.speaker)
        _need(isinstance(self.sentence, str), "Statement", "sentence", "a str", self.sentence)
        _need(isinstance(self.formula, Formula), "Statement", "formula", "a formula (knows(...), fact(...), …)",
              self.formula)
        _need(self.action is None or isinstance(self.action, Action), "Statement", "action",
              "an Action (learns_whether, observes)", self.action)


def _need(ok: bool, who: str, argument: str, what: str, value: Any) -> None:
    """Raise an InputError naming the builder, the argument and the value unless `ok`."""
    if not ok:
        shown = repr(value)
        raise InputError(f"{who}: {argument} must be {what}, got {shown if len(shown) <= 60 else shown[:57] + '...'}")


def _agent(who: str, agent: Any) -> str:
    _need(isinstance(agent, str) and agent != "", who, "agent", "a name (a non-empty str)", agent)
    return agent


def _formula(who: str, formula: Any, argument: str = "formula") -> Formula:
    _need(isinstance(formula, Formula), who, argument, "a formula (knows(...), fact(...), …)", formula)
    return formula


def _group(who: str, group: Any) -> tuple[str, ...]:
    try:
        members = (group,) if isinstance(group, str) else tuple(group)
    except TypeError:
        members = ()
    _need(bool(members) and all(isinstance(a, str) and a for a in members), who, "group",
          "agent names (a str or a non-empty sequence of them)", group)
    return members


def _view(who: str, view: Any, argument: str) -> Projection:
    _need(callable(view), who, argument, "a Projection or a function of the secret", view)
    return as_projection(view)


def knows(agent: str, formula: Formula) -> Knows:
    return Knows(_agent("knows", agent), _formula("knows", formula))


def knows_which(agent: str, question: Projection | Callable | None = None) -> KnowsWhich:
    return KnowsWhich(_agent("knows_which", agent),
                      None if question is None else _view("knows_which", question, "question"))


def knows_whether(agent: str, formula: Formula) -> KnowsWhether:
    return KnowsWhether(_agent("knows_whether", agent), _formula("knows_whether", formula))


def fact(test: Callable[[Any], bool], text: str, vectorized: bool = False) -> Fact:
    _need(callable(test), "fact", "test", "a function of the secret", test)
    _need(isinstance(text, str), "fact", "text", "a str saying the fact in words", text)
    return Fact(test, text, vectorized)


def initially(formula: Formula) -> At:
    """`formula` before any statement was made ("at first I didn't know")."""
    return At(0, _formula("initially", formula))


def seeing(agent: str, view: Projection | Callable, formula: Formula) -> Seeing:
    """`formula` had `agent` seen `view` (`NOTHING`: "I couldn't have known without peeking")."""
    return Seeing(_agent("seeing", agent), _view("seeing", view, "view"), _formula("seeing", formula))


def common(group: str | Iterable[str], formula: Formula) -> Common:
    """`formula` is common knowledge among `group`."""
    return Common(_group("common", group), _formula("common", formula))


def distributed(group: str | Iterable[str], formula: Formula) -> Distributed:
    """`formula` is distributed knowledge in `group`."""
    return Distributed(_group("distributed", group), _formula("distributed", formula))


def learns_whether(speaker: str, sentence: str, group: str | Iterable[str], formula: Formula) -> Statement:
    """A group announcement: `group` learns whether `formula` holds (where it is true, they learn
    it); the other agents learn only that the group learned whether."""
    formula = _formula("learns_whether", formula)
    return Statement(speaker, sentence, Or((formula, Not(formula))),
                     Action(_group("learns_whether", group), (formula, Not(formula))))


def observes(speaker: str, sentence: str, group: str | Iterable[str], view: Projection | Callable) -> Statement:
    """A private observation: `group` sees `view` of the secret (a card shown, a hat peeked at);
    the other agents learn only that the group saw it."""
    return Statement(speaker, sentence, TRUE, Action(_group("observes", group),
                                                     observes=_view("observes", view, "view")))


def learns_privately(speaker: str, sentence: str, group: str | Iterable[str], formula: Formula) -> Statement:
    """A private announcement: `group` is told `formula`, and the others do not notice (for all
    they know, nothing happened). The worlds are copied (`actions.expanded`)."""
    formula = _formula("learns_privately", formula)
    return Statement(speaker, sentence, TRUE, Action(_group("learns_privately", group), (formula,), unnoticed=True))


def agents_named(formula: Formula) -> set[str]:
    """Every agent a formula mentions."""
    named = {f.agent for f in formula.walk() if isinstance(f, (Knows, KnowsWhich, KnowsWhether, Seeing))}
    return named.union(*(f.group for f in formula.walk() if isinstance(f, (Common, Distributed))))


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

    def __post_init__(self) -> None:
        _need(isinstance(self.name, str), "Story", "name", "a str", self.name)
        try:
            count = len(self.worlds)
        except TypeError:
            count = -1
        _need(count > 0, "Story", "worlds", "a non-empty sequence of secrets", self.worlds)
        _need(isinstance(self.agents, dict) and bool(self.agents)
              and all(isinstance(a, str) and isinstance(p, Projection) for a, p in self.agents.items()),
              "Story", "agents", "a dict of agent name -> Projection", self.agents)
        statements = tuple(self.statements) if isinstance(self.statements, (list, tuple)) else None
        _need(statements is not None and all(isinstance(s, Statement) for s in statements), "Story",
              "statements", "a sequence of Statement", self.statements)
        object.__setattr__(self, "statements", statements)

    def on(self, worlds: Any) -> Story:
        """The same story told over other worlds."""
        return replace(self, worlds=worlds)
