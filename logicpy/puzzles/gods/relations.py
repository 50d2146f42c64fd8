"""The gods' world as kanren relations, derived from the grammar rules and the semantics.

Each relation is a plain kanren goal, usable from a REPL in every direction that
terminates. A concrete world is the term ("world", [type, ...], "da_yes" | "da_no",
[Random's free answer or "none", ...]); truths are Python booleans.

Derived clauses: an atom rule becomes a fact table (its arguments, world, truth) filled by
evaluating its predicate on every concrete world; a connective becomes the fact table of
its truth table; `ask` becomes the table (position, truth of Q, world, truth) filled from
the semantics' utterance function. `evaluateo` is one `conde` clause per rule over them.

    >>> from logicpy.core import run, var
    >>> w = var()
    >>> len(run(0, w, evaluateo(("is", 1, "random"), w, True)))  # 2 orders x 2 languages x 2 free answers
    8
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any, Sequence

from kanren.core import GoalType, Zzz

from ...core import Table, conde, eq, lall, membero, var
from ...errors import InputError, ModeError
from .grammar import Grammar
from .model import TYPES, Puzzle

__all__ = ["questiono", "evaluateo", "replyo", "worldo", "godo"]


def _puzzle(puzzle: Puzzle | None) -> Puzzle:
    if puzzle is None:
        from . import CLASSIC

        return CLASSIC
    return puzzle


class _Tables:
    """The fact tables of one puzzle, each derived from one definition."""

    def __init__(self, puzzle: Puzzle):
        if puzzle.stateful:
            raise InputError(f"puzzle {puzzle.name!r}: the relations do not model gods with a memory "
                             "(their world term has no state); solve and verify do")
        worlds = puzzle.concrete_worlds
        terms = [w.to_term() for w in worlds]
        positions = range(1, puzzle.n_positions + 1)
        sem = puzzle.semantics
        self.worlds = Table.from_rows("world", [(t,) for t in terms], 1)
        self.gods = Table.from_rows("god", [(p, w.type_at(p), t) for w, t in zip(worlds, terms) for p in positions], 3)
        replies = [
            (p, truth, t, puzzle.utter(w.type_at(p), truth, w.da_means_yes, w.free_at(p)))
            for w, t in zip(worlds, terms) for p in positions for truth in (True, False)
        ]
        self.replies = Table.from_rows("reply", replies, 4)
        self.rules: dict[str, Table] = {}
        for rule in puzzle.grammar.rules:
            if rule.role == "atom":
                domains = [positions if k == "position" else puzzle.types for k in rule.kinds]
                rows = [
                    (*args, t, rule.holds(w, *args))
                    for args in itertools.product(*domains) for w, t in zip(worlds, terms)
                ]
            elif rule.role == "connective":
                rows = [
                    (*row, out)
                    for row, out in zip(itertools.product((False, True), repeat=rule.arity), rule.truth_table)
                ]
            else:
                rows = [(p, truth, t, said == "da") for p, truth, t, said in replies]
            self.rules[rule.name] = Table.from_rows(rule.name, rows, len(rows[0]))


@lru_cache(maxsize=32)
def _tables(puzzle: Puzzle) -> _Tables:
    return _Tables(puzzle)


def worldo(world: Any, puzzle: Puzzle | None = None) -> GoalType:
    """worldo(?world): True iff world is one of the puzzle's concrete worlds of one step.

    >>> from logicpy.core import run, var
    >>> w = var()
    >>> run(0, w, worldo(("world", ["truly", w, "random"], "da_yes", ["none", "none", "da"])))
    ('falsely',)
    """
    return _tables(_puzzle(puzzle)).worlds(world)


def godo(position: Any, god_type: Any, world: Any, puzzle: Puzzle | None = None) -> GoalType:
    """godo(?position, ?type, ?world): True iff the god at position has that type in world.

    >>> from logicpy.core import run, var
    >>> p = var()
    >>> run(0, p, godo(p, "random", ("world", ["truly", "random", "falsely"], "da_no", ["none", "ja", "none"])))
    (2,)
    """
    return _tables(_puzzle(puzzle)).gods(position, god_type, world)


def questiono(
    q: Any,
    max_complexity: int,
    grammar: Grammar | None = None,
    n_positions: int | None = None,
    types: Sequence[str] | None = None,
) -> GoalType:
    """questiono(?q, +max_complexity): True iff q is a question of complexity <= max_complexity.

    Defaults are the classic puzzle's grammar, 3 positions and 3 types. Terminates for
    any q since the bound is an integer.

    >>> from logicpy.core import run, var
    >>> q = var()
    >>> run(0, q, questiono(("not", q), 1, n_positions=1, types=["truly"]))
    (('true',), ('false',), ('is', 1, 'truly'))
    """
    if isinstance(max_complexity, bool) or not isinstance(max_complexity, int):
        raise ModeError(f"questiono: max_complexity must be an integer bound, got {max_complexity!r}")
    classic = _puzzle(None)
    grammar = grammar or classic.grammar
    n_positions = n_positions or classic.n_positions
    types = tuple(types or TYPES)
    domains = {"position": list(range(1, n_positions + 1)), "type": list(types)}

    def clause(rule):
        args = [var(kind) for kind in rule.kinds]
        goals = [eq(q, (rule.name, *args))]
        for kind, a in zip(rule.kinds, args):
            if kind == "question":
                goals.append(Zzz(questiono, a, max_complexity - 1, grammar, n_positions, types))
            else:
                goals.append(membero(a, domains[kind]))
        return goals

    clauses = [clause(r) for r in grammar.rules if r.role == "atom" or max_complexity > 0]
    return conde(*clauses)


def _evalo(q: Any, world: Any, truth: Any, tables: _Tables, grammar: Grammar) -> GoalType:
    clauses = []
    for rule in grammar.rules:
        args = [var(kind) for kind in rule.kinds]
        table = tables.rules[rule.name]
        if rule.role == "atom":
            clauses.append([eq(q, (rule.name, *args)), table(*args, world, truth)])
        elif rule.role == "connective":
            truths = [var("t") for _ in args]
            clauses.append(
                [eq(q, (rule.name, *args))]
                + [Zzz(_evalo, a, world, t, tables, grammar) for a, t in zip(args, truths)]
                + [table(*truths, truth)]
            )
        else:
            position, sub = args
            inner = var("t")
            clauses.append([
                eq(q, ("ask", position, sub)),
                Zzz(_evalo, sub, world, inner, tables, grammar),
                table(position, inner, world, truth),
            ])
    return conde(*clauses)


def evaluateo(q: Any, world: Any, truth: Any, puzzle: Puzzle | None = None) -> GoalType:
    """evaluateo(?q, ?world, ?truth): True iff question q has that truth in the concrete world.

    An unbound world ranges over the puzzle's concrete worlds (finite). Terminates when q
    is ground or bounded by `questiono` first; with q unbound it enumerates without end
    (take `run(n, ...)`).

    >>> from logicpy.core import run, var
    >>> t = var()
    >>> run(0, t, evaluateo(("ask", 1, ("true",)), ("world", ["falsely", "truly", "random"], "da_no", ["none", "none", "ja"]), t))
    (True,)
    """
    p = _puzzle(puzzle)
    tables = _tables(p)
    return lall(tables.worlds(world), _evalo(q, world, truth, tables, p.grammar))


def replyo(position: Any, q: Any, world: Any, word: Any, puzzle: Puzzle | None = None) -> GoalType:
    """replyo(?position, ?q, ?world, ?word): the god at position, asked q in world, utters word.

    Terminates when q is ground (or bounded by `questiono` first).

    >>> from logicpy.core import run, var
    >>> p = var()
    >>> run(0, p, replyo(p, ("true",), ("world", ["truly", "falsely", "random"], "da_yes", ["none", "none", "ja"]), "da"))
    (1,)
    """
    p = _puzzle(puzzle)
    tables = _tables(p)
    inner = var("t")
    return lall(tables.worlds(world), _evalo(q, world, inner, tables, p.grammar), tables.replies(position, inner, world, word))
