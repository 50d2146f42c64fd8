"""Stories as files: a puzzle stated in TOML, without Python.

    name = "Cheryl's birthday"
    question = "Cheryl's birthday"
    show = "{month} {day}"                  # how a world is written (default: its fields)

    [worlds]                                # one of: rows, or ranges/values with `where`
    fields = ["month", "day"]
    rows = [["May", 15], ["May", 16], ...]
    # ranges = { x = [2, 99], y = [3, 99] }   (integers, inclusive)
    # values = { hat = ["red", "white"] }
    # where = "x < y and x + y <= 100"

    [agents]                                # what each is told: an expression of the fields
    Albert = "month"                        # (a list of them for several; "" for nothing)
    Bernard = "day"

    [[statements]]
    speaker = "Albert"
    says = "I don't know when it is, but I know that Bernard does not know too."
    means = "not knows(Albert) and knows(Albert, not knows(Bernard))"
    when = "now"                            # or "at first", "after statement N"

    [[statements]]                          # a private look: Anne sees Bill's hat; the
    speaker = "Anne"                        # others see her look, not what she sees
    says = "(looks at Bill's hat)"
    to = ["Anne"]
    observes = "bill"

Expressions are Python's arithmetic, comparisons, `and`/`or`/`not`, `in`, `abs`, `min`,
`max`, over the fields. In `means`: `knows(A)` (A knows the world), `knows_which(A, expr)`
(knows the value of expr), `knows(A, φ)`, `knows_whether(A, φ)`, `common([A, B], φ)`,
`distributed([A, B], φ)`, `initially(φ)`, `at(k, φ)`; an agent is its bare name or a
string. With `to = [group]` a statement is private: the group learns whether it holds,
the others only that they did (with `unnoticed = true`: the group is told it, and the
others do not notice); with `to` and `observes = expr`, the group sees expr.
A statement's `means` may be a list of parts ("I still don't know, but I know that
…"): they are read together (one statement) or split (each part announced in turn, the
next judged after it); `reading` chooses, and `stories(...)` gives every reading asked for.
Errors name the file and line.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from dataclasses import dataclass, replace
from functools import partial
from itertools import product
from typing import Any, Callable

from ...errors import InputError
from ...inputs import read_text
from .model import (
    NOTHING, And, At, Formula, Not, Or, Projection, Statement, Story, common, distributed, fact, knows, knows_whether,
    knows_which, learns_privately, learns_whether, observes,
)

__all__ = ["StoryFile", "read_story", "parse_story", "READINGS"]

#: How a statement made of several parts is read.
READINGS = {"together": "each statement's parts are said at once, all judged at the same moment",
            "split": "each part is announced in turn, the next one judged after it"}

_FUNCTIONS: dict[str, Callable[..., Any]] = {"abs": abs, "min": min, "max": max, "len": len}
_EPISTEMIC = {"knows", "knows_which", "knows_whether", "common", "distributed", "initially", "at"}


@dataclass(frozen=True)
class StoryFile:
    """A story read from a file: each reading's `Story` and the reading the file asks for."""

    path: str
    stories: dict[str, Story]
    default: str
    has_parts: bool


class _Located(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


def _line_of(lines: list[str], pattern: str, start: int = 0, section: str | None = None, nth: int = 0) -> int:
    """The 1-based number of the line matching `pattern`, searching from `start` (or from the
    `nth` occurrence of the header `section`); the section's line, or 1, when none matches."""
    if section is not None:
        heads = [n for n, text in enumerate(lines) if text.strip() == section]
        start = heads[nth] if nth < len(heads) else 0
    for n in range(start, len(lines)):
        if n > start and lines[n].lstrip().startswith("[") and section is not None:
            break
        if re.search(pattern, lines[n]):
            return n + 1
    return start + 1


def _key(name: str, assigned: bool = True) -> str:
    """The pattern of a line setting `name` (quoted or not), or of a `[name]` header."""
    if name.startswith("["):
        return r"^\s*" + re.escape(name) + r"\s*$"
    return r"^\s*\"?" + re.escape(name) + r"\"?\s*" + ("=" if assigned else "")


# ------------------------------------------------------------------ expressions

class _Expression:
    """A checked expression over the fields, compiled from Python syntax to a closure."""

    def __init__(self, text: str, fields: list[str], where: str):
        self.text = text
        try:
            tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as exc:
            raise InputError(f"{where}: {text!r} is not an expression ({exc.msg})") from None
        self.fields = fields
        self.where = where
        self.fn = self._compile(tree)

    def _compile(self, node: ast.AST) -> Callable[[tuple], Any]:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            value = node.value
            return lambda w: value
        if isinstance(node, ast.Name):
            if node.id not in self.fields:
                raise InputError(f"{self.where}: unknown name {node.id!r} in {self.text!r}; the fields are "
                                 f"{', '.join(self.fields)}")
            i = self.fields.index(node.id)
            return lambda w: w[i]
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self._compile(e) for e in node.elts]
            return lambda w: tuple(f(w) for f in items)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            op, a, b = _BINARY[type(node.op)], self._compile(node.left), self._compile(node.right)
            return lambda w: op(a(w), b(w))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
            a = self._compile(node.operand)
            return (lambda w: -a(w)) if isinstance(node.op, ast.USub) else (lambda w: not a(w))
        if isinstance(node, ast.BoolOp):
            parts = [self._compile(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return lambda w: all(p(w) for p in parts)
            return lambda w: any(p(w) for p in parts)
        if isinstance(node, ast.Compare) and all(type(o) in _COMPARE for o in node.ops):
            first = self._compile(node.left)
            rest = [(_COMPARE[type(o)], self._compile(c)) for o, c in zip(node.ops, node.comparators)]

            def compare(w: tuple) -> bool:
                left = first(w)
                for op, right in rest:
                    value = right(w)
                    if not op(left, value):
                        return False
                    left = value
                return True
            return compare
        if isinstance(node, ast.IfExp):
            test, yes, no = self._compile(node.test), self._compile(node.body), self._compile(node.orelse)
            return lambda w: yes(w) if test(w) else no(w)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
                and not node.keywords):
            fn, args = _FUNCTIONS[node.func.id], [self._compile(a) for a in node.args]
            return lambda w: fn(*(a(w) for a in args))
        raise InputError(f"{self.where}: {ast.unparse(node)!r} is not allowed in an expression (fields, numbers, "
                         f"strings, arithmetic, comparisons, and/or/not, in, abs, min, max)")

    def __call__(self, world: tuple) -> Any:
        try:
            return self.fn(world)
        except Exception as exc:  # noqa: BLE001 - the user's expression on one world
            raise InputError(f"{self.where}: {self.text!r} fails on the world {world!r}: {exc}") from None


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a ** b,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


# ------------------------------------------------------------------ formulas

class _Formulas:
    """`means` text -> a Formula, over the story's fields and agents."""

    def __init__(self, fields: list[str], agents: list[str], where: str):
        self.fields, self.agents, self.where = fields, agents, where

    def parse(self, text: str) -> Formula:
        try:
            tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as exc:
            raise InputError(f"{self.where}: {text!r} is not a formula ({exc.msg})") from None
        return self.formula(tree)

    def _epistemic(self, node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _EPISTEMIC
                   for n in ast.walk(node))

    def agent(self, node: ast.AST) -> str:
        name = node.id if isinstance(node, ast.Name) else node.value if (
            isinstance(node, ast.Constant) and isinstance(node.value, str)) else None
        if name not in self.agents:
            raise InputError(f"{self.where}: {ast.unparse(node)!r} is not an agent; the agents are "
                             f"{', '.join(self.agents)}")
        return name  # type: ignore[return-value]

    def group(self, node: ast.AST) -> tuple[str, ...]:
        items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
        return tuple(self.agent(i) for i in items)

    def formula(self, node: ast.AST) -> Formula:
        if not self._epistemic(node):
            test = _Expression(ast.unparse(node), self.fields, self.where)
            return fact(test, ast.unparse(node))
        if isinstance(node, ast.BoolOp):
            parts = tuple(self.formula(v) for v in node.values)
            return And(parts) if isinstance(node.op, ast.And) else Or(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return Not(self.formula(node.operand))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _EPISTEMIC:
            name, args = node.func.id, node.args
            arity = {"knows": (1, 2), "knows_which": (1, 2), "knows_whether": (2,), "common": (2,),
                     "distributed": (2,), "initially": (1,), "at": (2,)}[name]
            if len(args) not in arity or node.keywords:
                raise InputError(f"{self.where}: {name} takes {' or '.join(map(str, arity))} arguments: "
                                 f"{ast.unparse(node)!r}")
            if name == "knows" and len(args) == 1 or name == "knows_which" and len(args) == 1:
                return knows_which(self.agent(args[0]))
            if name == "knows_which":
                question = _Expression(ast.unparse(args[1]), self.fields, self.where)
                return knows_which(self.agent(args[0]), Projection(question, ast.unparse(args[1])))
            if name == "knows":
                return knows(self.agent(args[0]), self.formula(args[1]))
            if name == "knows_whether":
                return knows_whether(self.agent(args[0]), self.formula(args[1]))
            if name in ("common", "distributed"):
                build = common if name == "common" else distributed
                return build(self.group(args[0]), self.formula(args[1]))
            if name == "initially":
                return At(0, self.formula(args[0]))
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, int)):
                raise InputError(f"{self.where}: at(k, φ) needs a statement number k: {ast.unparse(node)!r}")
            return At(args[0].value, self.formula(args[1]))
        raise InputError(f"{self.where}: {ast.unparse(node)!r} mixes knowledge with arithmetic; write "
                         "knowledge with not/and/or around knows(...), common(...), …")


# ------------------------------------------------------------------ the file

def _when(text: Any, number: int, where: str) -> tuple[int | None, str]:
    """`when` -> (the moment it names, or None for now; its words)."""
    if text is None or text == "now":
        return None, "now"
    if not isinstance(text, str):
        raise InputError(f"{where}: when must be a string, got {text!r}")
    words = text.strip().lower()
    if words in ("at first", "initially", "at the start", "before anything was said"):
        return 0, "at first, before any statement"
    match = re.fullmatch(r"after statement (\d+)", words)
    if match and 1 <= int(match.group(1)) < number:
        return int(match.group(1)), f"after statement {match.group(1)}"
    raise InputError(f"{where}: when must be \"now\", \"at first\" or \"after statement N\" (N before this "
                     f"statement), got {text!r}")


def _need(table: dict, key: str, kind: type | tuple, where: str, what: str) -> Any:
    if key not in table:
        raise InputError(f"{where}: missing {key} ({what})")
    value = table[key]
    if not isinstance(value, kind):
        raise InputError(f"{where}: {key} must be {what}, got {value!r}")
    return value


def _worlds(spec: Any, lines: list[str], path: str) -> tuple[list[str], list[tuple]]:
    here = f"{path}:{_line_of(lines, _key('[worlds]'))}"
    if not isinstance(spec, dict):
        raise InputError(f"{here}: [worlds] must be a table (fields and rows, or ranges/values and where)")
    fields = _need(spec, "fields", list, here, "a list of field names")
    if not fields or not all(isinstance(f, str) and f.isidentifier() for f in fields) or len(set(fields)) < len(fields):
        raise InputError(f"{path}:{_line_of(lines, _key('fields'))}: fields must be distinct names, got {fields!r}")
    if "rows" in spec:
        rows = spec["rows"]
        at = f"{path}:{_line_of(lines, _key('rows'))}"
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == len(fields) for r in rows):
            raise InputError(f"{at}: rows must be a list of rows of {len(fields)} values ({', '.join(fields)})")
        worlds = [tuple(r) for r in rows]
    else:
        ranges, values = spec.get("ranges", {}), spec.get("values", {})
        at = f"{path}:{_line_of(lines, _key('ranges') + '|' + _key('values'))}"
        if not isinstance(ranges, dict) or not isinstance(values, dict):
            raise InputError(f"{at}: ranges and values must be tables: field = [low, high] or field = [values]")
        domains = []
        for field in fields:
            if field in ranges:
                low_high = ranges[field]
                if not (isinstance(low_high, list) and len(low_high) == 2 and all(type(v) is int for v in low_high)):
                    raise InputError(f"{at}: range of {field} must be [low, high] (integers), got {low_high!r}")
                domains.append(range(low_high[0], low_high[1] + 1))
            elif field in values and isinstance(values[field], list) and values[field]:
                domains.append(values[field])
            else:
                raise InputError(f"{at}: field {field!r} needs a range [low, high] or a list of values (or give rows)")
        worlds = list(product(*domains))
        if "where" in spec:
            where = _need(spec, "where", str, at, "a condition on the fields")
            test = _Expression(where, fields, f"{path}:{_line_of(lines, _key('where'))}")
            worlds = [w for w in worlds if test(w)]
    if len(set(worlds)) < len(worlds):
        seen: set = set()
        twice = next(w for w in worlds if w in seen or seen.add(w))  # type: ignore[func-returns-value]
        raise InputError(f"{path}:{_line_of(lines, _key('rows'))}: the world {list(twice)!r} is listed twice")
    if not worlds:
        raise InputError(f"{here}: no worlds (the ranges are empty or nothing meets `where`)")
    return fields, worlds


def parse_story(text: str, path: str = "<story>") -> StoryFile:
    """The story in TOML `text` (`path` names it in errors): every reading of it."""
    if sys.version_info < (3, 11):
        raise InputError(f"{path}: reading a story file needs Python 3.11 or later (tomllib)")
    tomllib = importlib.import_module("tomllib")  # the standard library's from 3.11
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise InputError(f"{path}:{match.group(1) if match else 1}: not valid TOML: {exc}") from None
    lines = text.splitlines()
    top = f"{path}:1"
    known = {"name", "question", "show", "reading", "worlds", "agents", "statements", "answer"}
    extra = sorted(set(data) - known)
    if extra:
        raise InputError(f"{path}:{_line_of(lines, _key(extra[0], False))}: unknown key {extra[0]!r}; "
                         f"a story has {', '.join(sorted(known))}")
    name = data.get("name", path)
    if not isinstance(name, str):
        raise InputError(f"{path}:{_line_of(lines, _key('name'))}: name must be a string")
    fields, worlds = _worlds(_need(data, "worlds", dict, top, "a [worlds] table"), lines, path)
    agents_spec = _need(data, "agents", dict, top, "an [agents] table: name = what the agent is told")
    agents: dict[str, Projection] = {}
    for agent, view in agents_spec.items():
        at = f"{path}:{_line_of(lines, _key(agent))}"
        texts = view if isinstance(view, list) else [view]
        if not all(isinstance(t, str) for t in texts):
            raise InputError(f"{at}: what {agent} is told must be an expression or a list of them, got {view!r}")
        parts = [_Expression(t, fields, at) for t in texts if t.strip()]
        agents[agent] = NOTHING if not parts else Projection(partial(_seen, parts), " and ".join(
            t for t in texts if t.strip()), show=_shown)
    if not agents:
        raise InputError(f"{path}:{_line_of(lines, _key('[agents]'))}: a story needs at least one agent")
    show_text = data.get("show")
    if show_text is not None and not isinstance(show_text, str):
        raise InputError(f"{path}:{_line_of(lines, _key('show'))}: show must be a format string like "
                         "\"{month} {day}\"")
    try:
        if show_text is not None:
            show_text.format(**dict(zip(fields, worlds[0])))
    except (KeyError, IndexError, ValueError) as exc:
        raise InputError(f"{path}:{_line_of(lines, _key('show'))}: show names an unknown field: {exc}") from None

    def show(w: tuple) -> str:
        if show_text is not None:
            return show_text.format(**dict(zip(fields, w)))
        return ", ".join(f"{f} {v}" for f, v in zip(fields, w)) if len(fields) > 1 else str(w[0])

    answer = None
    if "answer" in data:
        at = f"{path}:{_line_of(lines, _key('answer'))}"
        text = _need(data, "answer", str, at, "an expression of the fields")
        answer = Projection(_Expression(text, fields, at), text)
    said = data.get("statements", [])
    if not isinstance(said, list) or not all(isinstance(s, dict) for s in said):
        raise InputError(f"{top}: statements must be [[statements]] tables")
    parsed: list[tuple[str, str, list[Formula], str, Any]] = []
    for number, entry in enumerate(said, 1):
        def line_of(key: str) -> str:
            return f"{path}:{_line_of(lines, _key(key, False), section='[[statements]]', nth=number - 1)}"

        at = line_of("")
        unknown = sorted(set(entry) - {"speaker", "says", "means", "when", "to", "observes", "unnoticed"})
        if unknown:
            raise InputError(f"{line_of(unknown[0])}: unknown key {unknown[0]!r} in statement {number}; a "
                             "statement has speaker, says, means or observes, when, to, unnoticed")
        speaker = _need(entry, "speaker", str, at, "who says it")
        says = _need(entry, "says", str, at, "the sentence")
        private = None
        if "to" in entry:
            group = entry["to"] if isinstance(entry["to"], list) else [entry["to"]]
            for member in group:
                if member not in agents:
                    raise InputError(f"{line_of('to')}: {member!r} is not an agent; the agents are {', '.join(agents)}")
            private = tuple(group)
        unnoticed = entry.get("unnoticed", False)
        if not isinstance(unnoticed, bool) or unnoticed and (private is None or "observes" in entry):
            raise InputError(f"{line_of('unnoticed')}: unnoticed = true needs `to` and `means` (a private "
                             "announcement the others do not notice)")
        if "observes" in entry:
            if private is None or "means" in entry:
                raise InputError(f"{line_of('observes')}: observes needs `to` (who looks) and no `means`")
            seen = _need(entry, "observes", str, at, "an expression of the fields")
            parsed.append((speaker, says, [], "now",
                           (private, Projection(_Expression(seen, fields, line_of("observes")), seen,
                                                show=_shown_value))))
            continue
        means = _need(entry, "means", (str, list), at, "a formula, or a list of its parts")
        where = line_of("means")
        texts = means if isinstance(means, list) else [means]
        if not texts or not all(isinstance(t, str) for t in texts):
            raise InputError(f"{where}: means must be a formula or a non-empty list of them")
        if private is not None and len(texts) > 1:
            raise InputError(f"{where}: a statement made `to` a group has one part")
        moment, words = _when(entry.get("when"), number, line_of("when"))
        formulas = [_Formulas(fields, list(agents), where).parse(t) for t in texts]
        if moment is not None:
            formulas = [At(moment, f) for f in formulas]
        parsed.append((speaker, says, formulas, words, ("unnoticed", private) if unnoticed else private))
    has_parts = any(len(f) > 1 for _, _, f, _, _ in parsed)
    default = data.get("reading", "split" if has_parts else "together")
    if default not in READINGS:
        raise InputError(f"{path}:{_line_of(lines, _key('reading'))}: reading must be "
                         f"{' or '.join(READINGS)}, got {default!r}")
    stories = {}
    for reading in READINGS:
        move = _mover(parsed, reading)
        statements: list[Statement] = []
        for speaker, says, formulas, words, private in parsed:
            note = "" if words == "now" else f" [judged {words}]"
            formulas = [move(f) for f in formulas]
            if isinstance(private, tuple) and len(private) == 2 and isinstance(private[1], Projection):
                statements.append(observes(speaker, says, private[0], private[1]))
            elif isinstance(private, tuple) and private[0] == "unnoticed":
                statements.append(learns_privately(speaker, says + note, private[1], formulas[0]))
            elif private is not None:
                statements.append(learns_whether(speaker, says + note, private, formulas[0]))
            elif reading == "together" or len(formulas) == 1:
                statements.append(Statement(speaker, says + note, And(tuple(formulas)) if len(formulas) > 1
                                            else formulas[0]))
            else:
                pieces = _pieces(says, len(formulas))
                statements += [Statement(speaker, piece + note, f) for piece, f in zip(pieces, formulas)]
        stories[reading] = Story(name, tuple(worlds), agents, tuple(statements), show,
                                 data.get("question", "the world"), answer)
    return StoryFile(path, stories, default, has_parts)


def _seen(parts: list[_Expression], world: tuple) -> tuple:
    return tuple(p(world) for p in parts)


def _shown_value(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _shown(value: tuple) -> str:
    return ", ".join(map(str, value)) or "nothing"


def _pieces(sentence: str, count: int) -> list[str]:
    """A sentence cut into `count` parts at ", but " / "; " / ", and " (the whole sentence,
    numbered, when it does not cut that way)."""
    parts = [p.strip() for p in re.split(r",\s*but\s+|;\s*|,\s*and\s+", sentence) if p.strip()]
    if len(parts) == count:
        return [p if p.endswith((".", "!", "?")) else p + "…" for p in parts]
    return [f"{sentence} (part {k} of {count})" for k in range(1, count + 1)]


def _mover(parsed: list, reading: str) -> Callable[[Formula], Formula]:
    """In the split reading, `at(k, …)` and `after statement k` count the file's statements:
    each is moved to the moment after statement k's last part (the identity otherwise)."""
    if reading == "together" or not any(len(f) > 1 for _, _, f, _, _ in parsed):
        return lambda f: f
    ends = [0]
    for _, _, formulas, _, _ in parsed:
        ends.append(ends[-1] + max(1, len(formulas)))

    def move(f: Formula) -> Formula:
        if isinstance(f, At):
            return At(ends[f.moment] if f.moment < len(ends) else f.moment, move(f.formula))
        if isinstance(f, (And, Or)):
            return type(f)(tuple(move(p) for p in f.parts))
        if isinstance(f, Not):
            return Not(move(f.formula))
        inner = getattr(f, "formula", None)
        if isinstance(inner, Formula):
            return replace(f, formula=move(inner))  # type: ignore[type-var]
        return f

    return move


def read_story(path: str) -> StoryFile:
    """The story in the TOML file at `path` (or a shipped story's name: `logicpy files` lists them)."""
    from ...data import story_file

    found = story_file(path)
    return parse_story(read_text(str(found)), str(path))
