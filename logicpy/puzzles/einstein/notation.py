"""A small text notation for games: one kind or clue a line, read into the same model.

    # Time to quit                       comment lines start with '#'
    kind Person: Bianca, Charlie, Ricky, Roger, Trenton
    kind Last Day: 01-13, 05-28, 07-08, 08-08, 09-23
    1. !link(Kiwis, 07-08, People, Trenton, Guavas)
    2. Time::Last Day < Newsweek::Last Day
    3. Time !link Guavas; Ricky::Last Day > Time::Last Day
    4. xor(Trenton link 09-23, Apples link 09-23)
    5. Lily::Number / Blue::Number = 2

A clue is its rules separated by `;` (its number `N.` is optional but, when written,
must count up from 1). A rule is either infix, `A OP B` — operators are the JSON
function names (`link`, `!same`, `<`, `adj<A`, …) written between spaces, chains like
`A < B < C` allowed for orderings and adjacency, and arithmetic as `A + B = 7` or
`A / B != 2` — or a call `FUNC(arg, …)`: for link/same over more than two things,
negated chains, and the boolean functions `and or xor nand nor not` over rules.
Names may contain spaces; a name that would read as something else is written in
double quotes ("A + B"). A line `#: sentence` just before a clue is that clue's wording
for people (kept as `Clue.text`, quoted by explanations).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from ...errors import InputError
from ...inputs import read_text
from .model import (
    ADJ_FUNCS,
    ARITH_FUNCS,
    CONNECTIVES,
    ORDER_FUNCS,
    RELATION_FUNCS,
    Clue,
    Connective,
    Game,
    Kind,
    Relation,
    Rule,
    Symbol,
)
from .validate import MAX_NESTING, validate

__all__ = ["load_text", "parse_text", "dump_text", "rule_text"]

_OPERATORS = frozenset(RELATION_FUNCS) | {"!" + f for f in RELATION_FUNCS} | {"=", "!="}
_FUNCTIONS = frozenset(CONNECTIVES) | _OPERATORS - {"=", "!="}
_TOKEN = re.compile(
    r'\s+|(?P<quoted>"(?:[^"\\]|\\.)*")|(?P<punct>[(),;]|(?<!:):(?=\s|$))|(?P<word>(?:[^\s(),;":]|::|:(?!\s|$))+)'
)


def load_text(path: str | Path) -> Game:
    """Read and validate a game written in the text notation."""
    path = Path(path)
    return parse_text(read_text(path), source=str(path), name=path.stem)


def parse_text(text: str, source: str = "<text>", name: str = "") -> Game:
    """Parse and validate a game given in the text notation."""
    kinds: list[Kind] = []
    clues: list[Clue] = []
    said = ""  # the text of a `#: sentence` line, for the clue that follows it
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#:"):
            said = stripped[2:].strip()
            continue
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{source}:{lineno}"
        tokens = _tokens(stripped, where)
        if tokens[0] == ("word", "kind"):
            if clues:
                raise InputError(f"{where}: kinds must come before the clues")
            kinds.append(_kind(tokens[1:], where))
            continue
        number = len(clues) + 1
        if tokens[0][0] == "word" and re.fullmatch(r"\d+\.", tokens[0][1]):
            written = int(tokens[0][1][:-1])
            if written != number:
                raise InputError(f"{where}: clue numbers must count up from 1: expected {number}., got {written}.")
            tokens = tokens[1:]
        where = f"{where}: clue {number}"
        parser = _Parser(tokens, where)
        rules = [parser.rule()] if tokens else []  # `N.` alone: an empty clue (einstein-solver: true)
        while parser.accept(";"):
            rules.append(parser.rule())
        parser.expect_end()
        clues.append(Clue(number, tuple(rules), where, said))
        said = ""
    if not kinds:
        raise InputError(f"{source}: no 'kind NAME: thing, thing, …' lines")
    game = Game(tuple(kinds), tuple(clues), name)
    return replace(game, warnings=validate(game, source))


def _tokens(text: str, where: str) -> list[tuple[str, str]]:
    """(type, text) pairs: 'word', 'quoted' (already unquoted), or the punctuation itself."""
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise InputError(f"{where}: cannot read {text[pos:pos + 20]!r}")
        if m.group("quoted"):
            tokens.append(("quoted", json.loads(m.group("quoted"))))
        elif m.group("punct"):
            tokens.append((m.group("punct"), m.group("punct")))
        elif m.group("word"):
            tokens.append(("word", m.group("word")))
        pos = m.end()
    return tokens


def _kind(tokens: list[tuple[str, str]], where: str) -> Kind:
    parser = _Parser(tokens, where)
    name = parser.name("a kind name")
    parser.expect(":")
    things = [parser.name("a thing")]
    while parser.accept(","):
        things.append(parser.name("a thing"))
    parser.expect_end()
    return Kind(name, tuple(things))


class _Parser:
    """Recursive descent over one line's tokens."""

    def __init__(self, tokens: list[tuple[str, str]], where: str):
        self.tokens, self.i, self.where, self.depth = tokens, 0, where, 0

    def peek(self, offset: int = 0) -> tuple[str, str] | None:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else None

    def accept(self, punct: str) -> bool:
        if self.peek() == (punct, punct):
            self.i += 1
            return True
        return False

    def expect(self, punct: str) -> None:
        if not self.accept(punct):
            raise InputError(f"{self.where}: expected {punct!r} {self._at()}")

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise InputError(f"{self.where}: unexpected {token[1]!r}")

    def _at(self) -> str:
        token = self.peek()
        return f"before {token[1]!r}" if token else "at the end of the line"

    def name(self, what: str) -> str:
        """A quoted name, or words up to punctuation or an operator."""
        token = self.peek()
        if token and token[0] == "quoted":
            self.i += 1
            return token[1]
        words = []
        while (token := self.peek()) and token[0] == "word" and token[1] not in _OPERATORS:
            words.append(token[1])
            self.i += 1
        if not words:
            raise InputError(f"{self.where}: expected {what} {self._at()}")
        return " ".join(words)

    def rule(self) -> Rule:
        token, following = self.peek(), self.peek(1)
        if token and token[0] == "word" and token[1] in _FUNCTIONS and following == ("(", "("):
            self.i += 2
            return self._call(token[1])
        return self._infix()

    def _call(self, func: str) -> Rule:
        if func in CONNECTIVES:
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise InputError(f"{self.where}: nesting too deep (limit {MAX_NESTING})")
            args = [] if self.peek() == (")", ")") else [self.rule()]
            while self.accept(","):
                args.append(self.rule())
            self.expect(")")
            self.depth -= 1
            return Connective(func, tuple(args))
        names = [self.name("an argument")]
        while self.accept(","):
            names.append(self.name("an argument"))
        self.expect(")")
        negated, base = func.startswith("!"), func.lstrip("!")
        literal = None
        if base in ARITH_FUNCS:
            literal, names = names[0], names[1:]
        return Relation(base, tuple(Symbol.parse(n) for n in names), negated, literal)

    def _infix(self) -> Relation:
        symbols = [Symbol.parse(self.name("a thing or a function call"))]
        ops: list[str] = []
        while (token := self.peek()) and token[0] == "word" and token[1] in _OPERATORS - {"=", "!="}:
            ops.append(token[1])
            self.i += 1
            symbols.append(Symbol.parse(self.name(f"a thing after {token[1]!r}")))
        if not ops:
            raise InputError(f"{self.where}: expected an operator such as 'link' or '<' {self._at()}")
        if len(set(ops)) > 1:
            raise InputError(f"{self.where}: one rule uses one operator, got {' and '.join(dict.fromkeys(ops))}")
        op = ops[0]
        negated, base = op.startswith("!"), op.lstrip("!")
        if base in ARITH_FUNCS:
            token = self.peek()
            if negated or not token or token[1] not in ("=", "!="):
                raise InputError(f"{self.where}: arithmetic is written 'A {base} B = N' or 'A {base} B != N'")
            self.i += 1
            literal = self.name("a number")
            return Relation(base, tuple(symbols), token[1] == "!=", literal)
        if len(symbols) > 2 and (negated or base not in ORDER_FUNCS + ADJ_FUNCS):
            raise InputError(f"{self.where}: write {op}({', '.join(map(str, symbols))}) for more than two things")
        return Relation(base, tuple(symbols), negated)


# -- writing ---------------------------------------------------------------------------


def _plain(name: str) -> bool:
    """True iff a name reads back as itself without quotes."""
    words = name.split(" ")
    return (
        bool(name)
        and all(words)
        and not set(name) & set('(),;"\t\n')
        and not re.search(r"(?<!:):(?!:)", name)
        and not any(w in _OPERATORS or w == "kind" for w in words)
        and not re.fullmatch(r"\d+\..*", name)
    )


def _name(name: str) -> str:
    return name if _plain(name) else json.dumps(name, ensure_ascii=False)


def _symbol(symbol: Symbol) -> str:
    parts = (symbol.base, *symbol.path)
    text = "::".join(parts)
    return text if all(_plain(p) for p in parts) else json.dumps(text, ensure_ascii=False)


def rule_text(rule: Rule) -> str:
    """One rule in the text notation (`Time::Last Day < Newsweek::Last Day`)."""
    if isinstance(rule, Connective):
        return f"{rule.op}({', '.join(rule_text(r) for r in rule.args)})"
    args = [_symbol(s) for s in rule.args]
    if rule.func in ARITH_FUNCS and len(args) > 1:
        return f" {rule.func} ".join(args) + (" != " if rule.negated else " = ") + _name(rule.literal or "")
    if rule.func in ARITH_FUNCS:
        args.insert(0, _name(rule.literal or ""))
    elif len(args) == 2 or (not rule.negated and rule.func in ORDER_FUNCS + ADJ_FUNCS):
        return f" {rule.name} ".join(args)
    return f"{rule.name}({', '.join(args)})"


def dump_text(game: Game) -> str:
    """The game in the text notation (reads back to an equal game)."""
    lines = [f"kind {_name(k.name)}: {', '.join(_name(t) for t in k.things)}" for k in game.kinds]
    for clue in game.clues:
        if clue.text:
            lines.append(f"#: {clue.text}")
        lines.append((f"{clue.number}. " + "; ".join(rule_text(r) for r in clue.rules)).rstrip())
    return "\n".join(lines) + "\n"
