"""Load-time checks of a game, with messages that name the clue, rule and argument.

Both readers (JSON and text notation) call `validate` on the model they build, so a game
is checked the same way whatever its format. Every failure is an `InputError`; what
einstein-solver accepts but is probably a mistake comes back as warnings:

- an empty clue holds (it has no rules to break);
- a connective with no rules: `and`, `nor`, `not` of none hold, `or`, `xor`, `nand` don't;
- a relation with one argument: `link(x)` never holds (no pair shares a row), `same(x)`,
  orderings and adjacency over one thing always do, arithmetic folds one number;
- `same` across kinds never holds (things of different kinds are different things).
"""

from __future__ import annotations

from ...errors import InputError
from .model import ADJ_FUNCS, ARITH_FUNCS, Connective, Game, Relation, Rule
from .semantics import resolve_kind

__all__ = ["validate", "MAX_NESTING", "MAX_DIGITS"]

#: How deeply connectives may nest in one rule (the readers stop there, with an error).
MAX_NESTING = 100
#: The most digits a number read from a name may have (Python's int-from-text limit).
MAX_DIGITS = 4300

_NUMERIC_FUNCS = frozenset(("<", ">", "<=", ">=", "adj", "adj<", "adj>") + ARITH_FUNCS)


def validate(game: Game, source: str = "<game>") -> tuple[str, ...]:
    """Raise InputError naming the culprit if the game is not well formed; return the warnings."""
    _check_kinds(game, source)
    warnings: list[str] = []
    for clue in game.clues:
        where = clue.where or f"{source}: clue {clue.number}"
        if not clue.rules:
            warnings.append(f"{where}: the clue has no rules, so it always holds")
        for i, rule in enumerate(clue.rules, 1):
            _check_rule(game, rule, f"{where}, rule {i}", warnings)
    return tuple(warnings)


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
                where = f"twice in kind {kind.name!r}" if owner[thing] == kind.name else (
                    f"in kind {owner[thing]!r} and in kind {kind.name!r}")
                raise InputError(f"{source}: thing {thing!r} appears {where}")
            owner[thing] = kind.name
    if size == 0:
        raise InputError(f"{source}: kinds must have at least one thing")


_EMPTY_CONNECTIVE = {"and": True, "nor": True, "not": True, "or": False, "xor": False, "nand": False}


def _check_rule(game: Game, rule: Rule, where: str, warnings: list[str], depth: int = 1) -> None:
    if isinstance(rule, Connective):
        if depth > MAX_NESTING:
            raise InputError(f"{where}: nesting too deep (limit {MAX_NESTING})")
        if not rule.args:
            truth = "always holds" if _EMPTY_CONNECTIVE[rule.op] else "never holds"
            warnings.append(f"{where}: {rule.op!r} of no rules {truth}")
        for i, sub in enumerate(rule.args, 1):
            _check_rule(game, sub, f"{where} > {rule.op} argument {i}", warnings, depth + 1)
        return
    _check_relation(game, rule, where, warnings)


def _check_relation(game: Game, rel: Relation, where: str, warnings: list[str]) -> None:
    if not rel.args:
        raise InputError(f"{where}: {rel.name!r} needs at least one thing argument")
    if len(rel.args) == 1 and rel.func not in ARITH_FUNCS:
        truth = "never holds" if (rel.func == "link") != rel.negated else "always holds"
        warnings.append(f"{where}: {rel.name!r} of one thing {truth}")
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
    if rel.func == "same" and len(set(kinds)) > 1:
        truth = "always holds" if rel.negated else "never holds"
        warnings.append(f"{where}: {rel.name!r} across kinds {truth} (things of different kinds differ)")
    if rel.func in ADJ_FUNCS:
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
                digits = sum(c.isdigit() for c in thing)
                if digits > MAX_DIGITS:
                    raise InputError(
                        f"{where}: {rel.name!r} compares numbers, but {thing[:20]!r}… (kind {kind!r}) has "
                        f"{digits} digits (limit {MAX_DIGITS})"
                    )
                if not digits:
                    raise InputError(
                        f"{where}: {rel.name!r} compares numbers, but {thing!r} (kind {kind!r}, "
                        f"from argument {str(symbol)!r}) has no digits in its name"
                    )
