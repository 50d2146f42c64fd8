"""Load-time checks of a game, with messages that name the clue, rule and argument.

Both readers (JSON and text notation) call `validate` on the model they build, so a game
is checked the same way whatever its format. Every failure is an `InputError`.
"""

from __future__ import annotations

from ...errors import InputError
from .model import ADJ_FUNCS, ARITH_FUNCS, Connective, Game, Relation, Rule
from .semantics import resolve_kind

__all__ = ["validate"]

_NUMERIC_FUNCS = frozenset(("<", ">", "<=", ">=", "adj", "adj<", "adj>") + ARITH_FUNCS)


def validate(game: Game, source: str = "<game>") -> None:
    """Raise InputError naming the culprit if the game is not well formed."""
    _check_kinds(game, source)
    for clue in game.clues:
        where = clue.where or f"{source}: clue {clue.number}"
        if not clue.rules:
            raise InputError(f"{where}: the clue has no rules")
        for i, rule in enumerate(clue.rules, 1):
            _check_rule(game, rule, f"{where}, rule {i}")


_NAME_RULE = "must be non-empty, contain no '::' and not begin or end with ':' (symbols join names with '::')"


def _is_name(name: str) -> bool:
    return bool(name) and "::" not in name and not name.startswith(":") and not name.endswith(":")


def _check_kinds(game: Game, source: str) -> None:
    if not game.kinds:
        raise InputError(f"{source}: the game has no kinds")
    seen_kinds: set[str] = set()
    owner: dict[str, str] = {}
    size = len(game.kinds[0].things)
    for kind in game.kinds:
        if not _is_name(kind.name):
            raise InputError(f"{source}: kind name {kind.name!r} {_NAME_RULE}")
        if kind.name in seen_kinds:
            raise InputError(f"{source}: kind {kind.name!r} is defined twice")
        seen_kinds.add(kind.name)
        if len(kind.things) != size:
            raise InputError(
                f"{source}: kinds must have equal sizes: {game.kinds[0].name!r} has {size} things, "
                f"{kind.name!r} has {len(kind.things)}"
            )
        for thing in kind.things:
            if not _is_name(thing):
                raise InputError(f"{source}: thing name {thing!r} in kind {kind.name!r} {_NAME_RULE}")
            if thing in owner:
                raise InputError(f"{source}: thing {thing!r} appears in kind {owner[thing]!r} and in kind {kind.name!r}")
            owner[thing] = kind.name
    if size == 0:
        raise InputError(f"{source}: kinds must have at least one thing")


def _check_rule(game: Game, rule: Rule, where: str) -> None:
    if isinstance(rule, Connective):
        if not rule.args:
            raise InputError(f"{where}: {rule.op!r} needs at least one rule")
        for i, sub in enumerate(rule.args, 1):
            _check_rule(game, sub, f"{where} > {rule.op} argument {i}")
        return
    _check_relation(game, rule, where)


def _check_relation(game: Game, rel: Relation, where: str) -> None:
    minimum = 1 if rel.func in ARITH_FUNCS else 2
    if len(rel.args) < minimum:
        raise InputError(f"{where}: {rel.name!r} needs at least {minimum} thing arguments, got {len(rel.args)}")
    if rel.literal is not None:
        try:
            float(rel.literal)
        except ValueError:
            raise InputError(f"{where}: {rel.name!r} needs a number as first argument, got {rel.literal!r}") from None
    kinds = []
    for symbol in rel.args:
        try:
            game.kind_of(symbol.base)
        except KeyError:
            raise InputError(f"{where}: unknown thing {symbol.base!r} in argument {str(symbol)!r}") from None
        for kind in symbol.path:
            if kind not in game.kind_names:
                raise InputError(f"{where}: unknown kind {kind!r} in argument {str(symbol)!r}")
        kinds.append(resolve_kind(game, symbol))
    if rel.func in ADJ_FUNCS or rel.func == "same":
        if len(set(kinds)) > 1:
            listed = ", ".join(f"{str(s)!r} ({k})" for s, k in zip(rel.args, kinds))
            raise InputError(f"{where}: {rel.name!r} needs arguments of one kind, got {listed}")
    if rel.func in _NUMERIC_FUNCS:
        for symbol, kind in zip(rel.args, kinds):
            candidates = [symbol.base] if game.kind_of(symbol.base).name == kind else game.kind(kind).things
            # adj ranks the whole kind, so every thing of it needs a number
            if rel.func in ADJ_FUNCS:
                candidates = game.kind(kind).things
            for thing in candidates:
                if not any(c.isdigit() for c in thing):
                    raise InputError(
                        f"{where}: {rel.name!r} compares numbers, but {thing!r} (kind {kind!r}, "
                        f"from argument {str(symbol)!r}) has no digits in its name"
                    )
