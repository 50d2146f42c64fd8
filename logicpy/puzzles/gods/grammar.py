"""The question grammar as data: one `Rule` per line, each with ONE definition of meaning.

A question is a logicpy term headed by its rule name, positions from 1:
("true",), ("is", 2, "random"), ("and", Q1, Q2), ("ask", 1, Q) ... Its JSON form is the
same as a list. From a rule's single definition everything else is derived: the kanren
clauses (`relations.py`), the bit-vector signatures (`universe.py`), the plain
evaluator below, English and JSON.

- `atom(name, kinds, predicate, template)`: no question arguments; `predicate(world,
  *args)` is the truth in a concrete world (complexity 0).
- `connective(name, arity, function, template)`: question arguments only; `function`
  maps the children's truths to a truth (complexity 1 + max of the children).
- `ask` is built in: "would the god at p answer Q with da" (its truth depends on the
  semantics).
- `answer` (self-reference, under the `explode*` semantics): ("answer", "ja") is "your
  answer to this question is ja": true in a concrete world iff the answer hypothesised
  for the god actually asked is ja. Inside an embedded `ask` it still means the asked
  god's answer to the whole question, so a question's truth depends on one
  hypothesised answer, and the god answers by fixed point (see `model.GodType`).

Extending is one line:

>>> implies = connective("implies", 2, lambda a, b: (not a) or b, "if {0} then {1}")
>>> grammar = CLASSIC_GRAMMAR.extend(implies)
>>> english(("implies", ("is", 1, "random"), ("false",)), grammar)
'if god 1 is Random then false'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from ...errors import InputError
from .model import WORDS, ConcreteWorld, type_title

__all__ = [
    "Rule",
    "Grammar",
    "Question",
    "atom",
    "connective",
    "ASK",
    "ANSWER",
    "CLASSIC_GRAMMAR",
    "SEED_GRAMMAR",
    "complexity",
    "english",
    "evaluate",
    "atom_truth",
    "check_question",
    "question_to_json",
    "question_from_json",
]

#: A question term: a tuple headed by its rule name.
Question = tuple

KINDS = ("position", "type", "word", "question")


class Speaker(Protocol):
    """What `evaluate` needs of a puzzle (or a semantics): the utterance of a god type."""

    def utter(self, god_type: str, truth: bool, da_means_yes: bool, free: Any, state: Any = None) -> str: ...


@dataclass(frozen=True, eq=False)
class Rule:
    """One grammar rule: a name, argument kinds, an English template, one meaning.

    `meaning` is a predicate of (concrete world, *args) for an atom, a boolean function
    of the children's truths for a connective, and None for the built-in `ask`.
    """

    name: str
    kinds: tuple[str, ...]
    template: str
    meaning: Callable[..., Any] | None

    @property
    def role(self) -> str:
        """"atom", "connective" or "ask"."""
        if self.meaning is None:
            return "ask"
        return "connective" if "question" in self.kinds else "atom"

    def holds(self, *args: Any) -> bool:
        """The rule's meaning applied to args: an atom's truth in a world, a connective's output."""
        if self.meaning is None:
            raise TypeError(f"rule {self.name!r} (ask) has no meaning of its own: it is evaluated by asking")
        return bool(self.meaning(*args))

    @property
    def arity(self) -> int:
        """Number of arguments."""
        return len(self.kinds)

    @property
    def truth_table(self) -> tuple[bool, ...]:
        """A connective's output for each input row of itertools.product((False, True), ...)."""
        return tuple(
            self.holds(*row) for row in itertools.product((False, True), repeat=self.arity)
        )

    def __repr__(self) -> str:
        return f"Rule({self.name}/{self.arity}: {self.template!r})"


def atom(name: str, kinds: Sequence[str], predicate: Callable[..., bool], template: str) -> Rule:
    """An atomic rule: `predicate(world, *args)` over position/type/word arguments.

    >>> lying = atom("lying", ["position"], lambda w, p: w.type_at(p) == "falsely", "god {0} lies")
    >>> lying.role
    'atom'
    """
    kinds = tuple(kinds)
    _check_rule_shape(name, kinds, template)
    if "question" in kinds:
        raise InputError(f"rule {name!r}: an atom takes position/type/word arguments only, got {kinds}")
    return Rule(name, kinds, template, predicate)


def connective(name: str, arity: int, function: Callable[..., bool], template: str) -> Rule:
    """A connective: `function(*truths)` of its `arity` question arguments.

    >>> connective("nand", 2, lambda a, b: not (a and b), "not both {0} and {1}").truth_table
    (True, True, True, False)
    """
    if not isinstance(arity, int) or arity < 1:
        raise InputError(f"rule {name!r}: a connective needs arity >= 1, got {arity!r}")
    kinds = ("question",) * arity
    _check_rule_shape(name, kinds, template)
    rule = Rule(name, kinds, template, function)
    try:
        rule.truth_table
    except Exception as exc:
        raise InputError(f"rule {name!r}: its function fails on booleans: {exc}") from None
    return rule


def _check_rule_shape(name: str, kinds: tuple[str, ...], template: str) -> None:
    if not isinstance(name, str) or not name.isidentifier():
        raise InputError(f"rule name {name!r} must be an identifier")
    for kind in kinds:
        if kind not in KINDS:
            raise InputError(f"rule {name!r}: unknown argument kind {kind!r} (choose from {', '.join(KINDS)})")
    try:
        template.format(*["x"] * len(kinds))
    except (IndexError, KeyError, ValueError) as exc:
        raise InputError(f"rule {name!r}: template {template!r} does not fit {len(kinds)} arguments: {exc}") from None


#: "Would the god at p answer Q with da": built in, its meaning comes from the semantics.
ASK = Rule("ask", ("position", "question"), "god {0} would answer da to [{1}]", None)
#: "Your answer to this question is w": the asked god's own answer, hypothesised (self-reference).
ANSWER = atom("answer", ("word",), lambda w, word: w.answer == word, "your answer to this question is {0}")


@dataclass(frozen=True)
class Grammar:
    """An ordered set of rules; `extend` returns a new grammar with more rules."""

    rules: tuple[Rule, ...]

    def __post_init__(self) -> None:
        names = [r.name for r in self.rules]
        for name in names:
            if names.count(name) > 1:
                raise InputError(f"grammar: rule {name!r} is defined twice")

    def extend(self, *rules: Rule) -> "Grammar":
        """This grammar plus `rules` (names must be new)."""
        for r in rules:
            if not isinstance(r, Rule):
                raise InputError(f"grammar.extend: {r!r} is not a Rule (build one with atom() or connective())")
        return Grammar(self.rules + tuple(rules))

    def without(self, *names: str) -> "Grammar":
        """This grammar minus the named rules."""
        for name in names:
            self.rule(name)
        return Grammar(tuple(r for r in self.rules if r.name not in names))

    def rule(self, name: str) -> Rule:
        """The rule called `name`; InputError naming it otherwise."""
        for r in self.rules:
            if r.name == name:
                return r
        raise InputError(f"unknown question operator {name!r} (grammar has: {', '.join(self.names)})")

    @property
    def names(self) -> tuple[str, ...]:
        """Rule names in order."""
        return tuple(r.name for r in self.rules)

    def __str__(self) -> str:
        return "\n".join(f"{r.name}/{r.arity} ({r.role}): {r.template}" for r in self.rules)


def _is(w: ConcreteWorld, p: int, t: str) -> bool:
    return w.type_at(p) == t


#: The issue's grammar, one rule per line.
CLASSIC_GRAMMAR = Grammar((
    atom("true", (), lambda w: True, "true"),
    atom("false", (), lambda w: False, "false"),
    atom("is", ("position", "type"), _is, "god {0} is {1}"),
    connective("not", 1, lambda a: not a, "not {0}"),
    connective("and", 2, lambda a, b: a and b, "{0} and {1}"),
    connective("or", 2, lambda a, b: a or b, "{0} or {1}"),
    connective("xor", 2, lambda a, b: a != b, "{0} xor {1}"),
    ASK,
))

#: The grammar of aduriseti/3gods: the classic one without `not`.
SEED_GRAMMAR = CLASSIC_GRAMMAR.without("not")


# -- questions as terms ----------------------------------------------------------------
def check_question(q: Any, grammar: Grammar, n_positions: int, types: Sequence[str], where: str = "question") -> None:
    """Raise InputError naming the path of the first bad part of `q`, if any."""
    if not isinstance(q, tuple) or not q or not isinstance(q[0], str):
        raise InputError(f"{where}: expected a question term like ('is', 1, 'random'), got {q!r}")
    rule = grammar.rule(q[0]) if q[0] in grammar.names else None
    if rule is None:
        raise InputError(f"{where}: unknown question operator {q[0]!r} (grammar has: {', '.join(grammar.names)})")
    if len(q) - 1 != rule.arity:
        raise InputError(f"{where}: {q[0]!r} takes {rule.arity} argument(s), got {len(q) - 1}")
    for i, (kind, arg) in enumerate(zip(rule.kinds, q[1:]), 1):
        here = f"{where}[{i}]"
        if kind == "position":
            if isinstance(arg, bool) or not isinstance(arg, int) or not 1 <= arg <= n_positions:
                raise InputError(f"{here}: position must be an integer from 1 to {n_positions}, got {arg!r}")
        elif kind == "type":
            if arg not in types:
                raise InputError(f"{here}: type must be one of {', '.join(types)}, got {arg!r}")
        elif kind == "word":
            if arg not in WORDS:
                raise InputError(f"{here}: word must be one of {', '.join(WORDS)}, got {arg!r}")
        else:
            check_question(arg, grammar, n_positions, types, here)


def complexity(q: Question, grammar: Grammar) -> int:
    """0 for an atom, 1 + the largest child's complexity for a rule with question arguments.

    >>> complexity(("ask", 1, ("and", ("true",), ("is", 2, "random"))), CLASSIC_GRAMMAR)
    2
    """
    rule = grammar.rule(q[0])
    children = [a for kind, a in zip(rule.kinds, q[1:]) if kind == "question"]
    return 1 + max(complexity(c, grammar) for c in children) if children else 0


def english(q: Question, grammar: Grammar, _inside_ask: bool = False) -> str:
    """The question in English, from the rules' templates.

    Inside an embedded `ask`, "this question" (self-reference) still means the whole
    question put to the god asked, and is spelled so.

    >>> english(("ask", 1, ("is", 2, "random")), CLASSIC_GRAMMAR)
    'god 1 would answer da to [god 2 is Random]'
    >>> english(("ask", 1, ("answer", "ja")), CLASSIC_GRAMMAR.extend(ANSWER))
    'god 1 would answer da to [your answer to the whole question is ja]'
    """
    rule = grammar.rule(q[0])
    if rule is ANSWER and _inside_ask:
        return f"your answer to the whole question is {q[1]}"
    parts = []
    for kind, arg in zip(rule.kinds, q[1:]):
        if kind == "type":
            parts.append(type_title(arg))
        elif kind == "question":
            text = english(arg, grammar, _inside_ask or rule.role == "ask")
            child = grammar.rule(arg[0])
            wrap = rule.role == "connective" and child.role == "connective" and child.arity > 1
            parts.append(f"({text})" if wrap else text)
        else:
            parts.append(str(arg))
    return rule.template.format(*parts)


def evaluate(q: Question, world: ConcreteWorld, grammar: Grammar, speaker: Speaker) -> bool:
    """The truth of `q` in a concrete world: the plain recursive evaluator (no bitsets).

    `speaker` (a `Puzzle`, or a `Semantics` for the built-in gods) says what a god
    utters; under self-reference `world.answer` is the asked god's hypothesised answer.
    """
    rule = grammar.rule(q[0])
    if rule.role == "ask":
        position, sub = q[1], q[2]
        judged_by = speaker.view_of(position, world) if hasattr(speaker, "view_of") else None
        truth = evaluate(sub, world.with_view(judged_by), grammar, speaker)
        said = speaker.utter(world.type_at(position), truth, world.da_means_yes, world.free_at(position),
                             world.state_at(position))
        return (said == "da") != (world.view == position)
    if rule.role == "atom":
        return atom_truth(rule, world, q[1:])
    return rule.holds(*(evaluate(c, world, grammar, speaker) for c in q[1:]))


def atom_truth(rule: Rule, world: ConcreteWorld, args: Sequence[Any]) -> bool:
    """An atom's truth in a concrete world, as judged there: an atom naming the position of a
    god who lies about himself (`world.view`) is judged false when true and true when false."""
    truth = rule.holds(world, *args)
    if world.view is not None and any(k == "position" and a == world.view for k, a in zip(rule.kinds, args)):
        return not truth
    return truth


def question_to_json(q: Question) -> list:
    """The JSON form: the same term with lists for tuples.

    >>> question_to_json(("ask", 1, ("is", 2, "random")))
    ['ask', 1, ['is', 2, 'random']]
    """
    return [question_to_json(a) if isinstance(a, tuple) else a for a in q]


def question_from_json(data: Any, grammar: Grammar, n_positions: int, types: Sequence[str], where: str = "question") -> Question:
    """Read a question from its JSON form, validated; errors name the path of the bad field."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise InputError(f"{where}: expected a question list like [\"is\", 1, \"random\"], got {data!r}")
    name = data[0]
    if name not in grammar.names:
        raise InputError(f"{where}: unknown question operator {name!r} (grammar has: {', '.join(grammar.names)})")
    rule = grammar.rule(name)
    if len(data) - 1 != rule.arity:
        raise InputError(f"{where}: {name!r} takes {rule.arity} argument(s), got {len(data) - 1}")
    args = [
        question_from_json(a, grammar, n_positions, types, f"{where}[{i}]") if kind == "question" else a
        for i, (kind, a) in enumerate(zip(rule.kinds, data[1:]), 1)
    ]
    q = (name, *args)
    check_question(q, grammar, n_positions, types, where)
    return q
