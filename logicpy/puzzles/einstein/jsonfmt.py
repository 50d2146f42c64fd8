"""einstein-solver's JSON game format: read (modern `!` and legacy `-` negation) and write.

A game is `{"kinds": [{"name", "things"}], "clues": [[rule, …], …]}` (logicpy adds an
optional `"english": [sentence, …]`, one per clue, which einstein-solver ignores); a rule is
`{"func": F, "args": [...]}` whose args are symbol strings, or rules for the boolean
functions. Negation is the `!` prefix (`!link`); files written before May 2025 use `-`
(`-link`), and a lone `-` over rules means `not`. The arithmetic functions take the
literal result first: `{"func": "/", "args": ["2", "X::Number", "Y::Number"]}`.
Writing always uses the modern syntax. Loading validates (see `validate`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...inputs import parse_json as read_json_text, read_text
from .model import (
    ARITH_FUNCS,
    CONNECTIVES,
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

__all__ = ["load_json", "parse_json", "game_from_data", "game_to_data", "dump_json"]


def load_json(path: str | Path) -> Game:
    """Read and validate a JSON game file; errors name the file and line or clue."""
    path = Path(path)
    return parse_json(read_text(path), source=str(path), name=path.stem)


def parse_json(text: str, source: str = "<json>", name: str = "") -> Game:
    """Parse and validate a JSON game given as text."""
    return game_from_data(read_json_text(text, source), source=source, name=name)


def game_from_data(data: Any, source: str = "<json>", name: str = "") -> Game:
    """Build and validate a Game from decoded JSON data."""
    if not isinstance(data, dict):
        raise InputError(f"{source}: a game is a JSON object with 'kinds' and 'clues'")
    for key in ("kinds", "clues"):
        if not isinstance(data.get(key), list):
            raise InputError(f"{source}: '{key}' must be a list")
    texts = data.get("english", [])
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InputError(f"{source}: 'english' must be a list of strings (one per clue)")
    kinds = tuple(_kind(k, f"{source}: kind {i}") for i, k in enumerate(data["kinds"], 1))
    clues = []
    for number, clue in enumerate(data["clues"], 1):
        where = f"{source}: clue {number}"
        if not isinstance(clue, list):
            raise InputError(f"{where}: a clue must be a list of rules")
        rules = tuple(_rule(r, f"{where}, rule {i}", where) for i, r in enumerate(clue, 1))
        clues.append(Clue(number, rules, where, texts[number - 1] if number <= len(texts) else ""))
    game = Game(kinds, tuple(clues), name)
    return replace(game, warnings=validate(game, source))


def _kind(data: Any, where: str) -> Kind:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise InputError(f"{where}: a kind is an object with a string 'name' and a list 'things'")
    things = data.get("things")
    if not isinstance(things, list) or not all(isinstance(t, str) for t in things):
        raise InputError(f"{where} ({data['name']}): 'things' must be a list of strings")
    return Kind(data["name"], tuple(things))


def _rule(data: Any, where: str, clue: str, depth: int = 1) -> Rule:
    if depth > MAX_NESTING:
        raise InputError(f"{clue}: nesting too deep (limit {MAX_NESTING})")
    if not isinstance(data, dict) or "func" not in data or not isinstance(data.get("args"), list):
        raise InputError(f"{where}: a rule is an object with 'func' and a list 'args'")
    func, args = data["func"], data["args"]
    if not isinstance(func, str):
        raise InputError(f"{where}: 'func' must be a string, got {func!r}")
    if func in CONNECTIVES or func == "!" or (func == "-" and args and all(isinstance(a, dict) for a in args)):
        op = "not" if func in ("!", "-") else func
        subs = (_rule(a, f"{where} > {func} argument {i}", clue, depth + 1) for i, a in enumerate(args, 1))
        return Connective(op, tuple(subs))
    negated = func[:1] in ("!", "-") and func not in ARITH_FUNCS
    base = func[1:] if negated else func
    if base not in RELATION_FUNCS or (negated and func.startswith("-") and base in ARITH_FUNCS):
        raise InputError(f"{where}: unknown function {func!r}")
    if not all(isinstance(a, str) for a in args):
        raise InputError(f"{where}: the arguments of {func!r} must be thing names (strings)")
    literal = None
    if base in ARITH_FUNCS:
        if not args:
            raise InputError(f"{where}: {func!r} needs its result as first argument")
        literal, args = str(args[0]), args[1:]
    return Relation(base, tuple(Symbol.parse(a) for a in args), negated, literal)


def game_to_data(game: Game) -> dict[str, Any]:
    """The JSON data of a game, in the modern `!` syntax (and the clues' English, if any)."""
    data: dict[str, Any] = {
        "kinds": [{"name": k.name, "things": list(k.things)} for k in game.kinds],
        "clues": [[_rule_data(r) for r in clue.rules] for clue in game.clues],
    }
    if any(clue.text for clue in game.clues):
        data["english"] = [clue.text for clue in game.clues]
    return data


def _rule_data(rule: Rule) -> dict[str, Any]:
    if isinstance(rule, Connective):
        return {"func": rule.op, "args": [_rule_data(r) for r in rule.args]}
    args = [str(s) for s in rule.args]
    if rule.literal is not None:
        args.insert(0, rule.literal)
    return {"func": rule.name, "args": args}


def dump_json(game: Game) -> str:
    """The game as JSON text (modern syntax, 2-space indent)."""
    return json.dumps(game_to_data(game), indent=2, ensure_ascii=False) + "\n"
