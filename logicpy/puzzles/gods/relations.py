"""The gods' world as relations of logicpy's core, derived from the grammar rules and the semantics.

Each relation is a goal of the core, usable from a REPL in every direction that
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
from typing import Any, Iterator, Sequence

from kanren.core import GoalType
from unification import reify, unify

from ...core import Table, conde, conj, eq, relation, var
from ...errors import InputError, ModeError
from .grammar import Grammar, evaluate
from .model import WORDS, Puzzle
from ...core.terms import is_var

__all__ = ["questiono", "evaluateo", "replyo", "worldo", "godo"]


def _puzzle(puzzle: Puzzle | None) -> Puzzle:
    """The puzzle a relation is about: `puzzle`, or the classic one for None."""
    if puzzle is None:
        from . import CLASSIC

        return CLASSIC
    if not isinstance(puzzle, Puzzle):
        from ...errors import InputError, shown

        raise InputError(f"the puzzle option of a gods relation must be a Puzzle, got {shown(puzzle)} "
                         "(the relations take their logical arguments only; the classic puzzle is the default)")
    return puzzle


class _Tables:
    """The fact tables of one puzzle, each derived from one definition.

    Under self-reference a concrete world also holds the asked god's hypothesised answer
    (the fifth element of its term), as in the universe.
    """

    def __init__(self, puzzle: Puzzle):
        if puzzle.stateful or puzzle.views:
            raise InputError(f"puzzle {puzzle.name!r}: the relations do not model gods with a memory or "
                             "who lie about themselves (their world term has neither); solve and verify do")
        worlds = puzzle.concrete_worlds
        if puzzle.self_reference:
            worlds = tuple(w.with_answer(u) for w in worlds for u in WORDS)
        terms = [w.to_term() for w in worlds]
        self.concrete = worlds
        self.terms = terms
        self.index = {_key(t): i for i, t in enumerate(terms)}
        positions = range(1, puzzle.n_positions + 1)
        sem = puzzle.semantics
        self.worlds = Table.from_rows("world", [(t,) for t in terms], 1)
        self.gods = Table.from_rows("god", [(p, w.type_at(p), t) for w, t in zip(worlds, terms) for p in positions], 3)
        replies = [
            (p, truth, t, puzzle.utter(w.type_at(p), truth, w.da_means_yes, w.free_at(p), w.state_at(p)))
            for w, t in zip(worlds, terms) for p in positions for truth in (True, False)
        ]
        self.replies = Table.from_rows("reply", replies, 4)
        self.rules: dict[str, Table] = {}
        for rule in puzzle.grammar.rules:
            if rule.role == "atom":
                domains = [positions if k == "position" else WORDS if k == "word" else puzzle.types for k in rule.kinds]
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
    puzzle: Puzzle | None = None,
) -> GoalType:
    """questiono(?q, +max_complexity): True iff q is a question of complexity <= max_complexity.

    The grammar, positions and types are the puzzle's (`puzzle=`, default the classic
    one); `grammar`, `n_positions` and `types` override them one by one. Terminates for
    any q since the bound is an integer. Questions come in complexity order, atoms
    first; a partly bound q is filled in part by part (its bound parts are not enumerated).

    >>> from logicpy.core import run, var
    >>> q = var()
    >>> run(0, q, questiono(("not", q), 1, n_positions=1, types=["truly"]))
    (('true',), ('false',), ('is', 1, 'truly'))
    """
    if isinstance(max_complexity, bool) or not isinstance(max_complexity, int):
        raise ModeError(f"questiono: max_complexity must be an integer bound, got {max_complexity!r}")
    base = _puzzle(puzzle)
    terms = _terms(grammar or base.grammar, n_positions or base.n_positions, tuple(types or base.types))

    def questiono_goal(S):
        for term in terms.matching(reify(q, S), max_complexity):
            S_next = unify(q, term, S)
            if S_next is not False:
                yield S_next

    return questiono_goal


class _Terms:
    """Question terms of one grammar and domain, generated lazily level by level.

    Levels below the one being generated are kept as lists (the children); the top level
    streams. `matching(pattern, c)` generates only terms that can match a partly bound
    pattern, filling it part by part.
    """

    def __init__(self, grammar: Grammar, n_positions: int, types: tuple[str, ...]):
        self.grammar = grammar
        self.domains: dict[str, tuple] = {"position": tuple(range(1, n_positions + 1)), "type": types, "word": WORDS}
        self._levels: list[list[tuple]] = []

    def level(self, k: int) -> list[tuple]:
        """Every term of complexity exactly k (kept)."""
        while len(self._levels) <= k:
            self._levels.append(list(self._exact(len(self._levels))))
        return self._levels[k]

    def _exact(self, k: int) -> Iterator[tuple]:
        for rule in self.grammar.rules:
            slots = [i for i, kind in enumerate(rule.kinds) if kind == "question"]
            if bool(slots) != (k > 0):
                continue
            if not slots:
                yield from ((rule.name, *args) for args in itertools.product(*(self.domains[k_] for k_ in rule.kinds)))
                continue
            below = [t for j in range(k - 1) for t in self.level(j)]
            top = self.level(k - 1)
            # The first question argument of complexity k-1 is at slot `first`.
            for first in range(len(slots)):
                options: list[Sequence[Any]] = []
                for i, kind in enumerate(rule.kinds):
                    if kind != "question":
                        options.append(self.domains[kind])
                    else:
                        n = slots.index(i)
                        options.append(below if n < first else top if n == first else below + top)
                yield from ((rule.name, *args) for args in itertools.product(*options))

    def upto(self, c: int) -> Iterator[tuple]:
        """Every term of complexity <= c, in complexity order (the last level streamed)."""
        for k in range(c + 1):
            yield from (self.level(k) if k < c else self._exact(k))

    def matching(self, pattern: Any, c: int) -> Iterator[tuple]:
        """Terms of complexity <= c that may unify with `pattern` (a reified, partly bound term)."""
        if is_var(pattern):
            yield from self.upto(c)
            return
        if not (isinstance(pattern, tuple) and pattern and isinstance(pattern[0], str)):
            return
        if pattern[0] not in self.grammar.names:
            raise InputError(f"questiono: unknown question operator {pattern[0]!r} "
                             f"(grammar has: {', '.join(self.grammar.names)})")
        rule = self.grammar.rule(pattern[0])
        if len(pattern) - 1 != rule.arity or ("question" in rule.kinds and c < 1):
            return
        options = []
        for kind, arg in zip(rule.kinds, pattern[1:]):
            if kind == "question":
                options.append(list(self.matching(arg, c - 1)))
            else:
                options.append([v for v in self.domains[kind] if is_var(arg) or arg == v])
        yield from ((rule.name, *args) for args in itertools.product(*options))


@lru_cache(maxsize=16)
def _terms(grammar: Grammar, n_positions: int, types: tuple[str, ...]) -> _Terms:
    return _Terms(grammar, n_positions, types)


@relation
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
                + [_evalo(a, world, t, tables, grammar) for a, t in zip(args, truths)]
                + [table(*truths, truth)]
            )
        else:
            position, sub = args
            inner = var("t")
            clauses.append([
                eq(q, ("ask", position, sub)),
                _evalo(sub, world, inner, tables, grammar),
                table(position, inner, world, truth),
            ])
    return conde(*clauses)


# Its clauses are made by Python code from the grammar at each call: it runs as written, on
# purpose (the clause compiler would only say so).
_evalo.relation.compiled, _evalo.relation.why = None, "its clauses are made from the grammar at each call"  # type: ignore[attr-defined]


def evaluateo(q: Any, world: Any, truth: Any, puzzle: Puzzle | None = None) -> GoalType:
    """evaluateo(?q, ?world, ?truth): True iff question q has that truth in the concrete world.

    An unbound world ranges over the puzzle's concrete worlds (finite). Terminates when q
    is ground or bounded by `questiono` first; with q unbound it enumerates without end
    (take `run(n, ...)`). A ground q is evaluated directly by the rules' meanings (the
    plain evaluator), a partly bound one clause by clause; an unknown operator, or a
    ground world that is not one of the puzzle's, is an InputError naming it.

    >>> from logicpy.core import run, var
    >>> t = var()
    >>> run(0, t, evaluateo(("ask", 1, ("true",)), ("world", ["falsely", "truly", "random"], "da_no", ["none", "none", "ja"]), t))
    (True,)
    """
    p = _puzzle(puzzle)
    tables = _tables(p)

    def evaluateo_goal(S):
        q_now, world_now = reify(q, S), reify(world, S)
        _check_parts(q_now, p)
        worlds = tables.terms
        if _ground(world_now):
            key = _key(world_now)
            if key not in tables.index:
                raise InputError(f"evaluateo: {world_now!r} is not a concrete world of puzzle "
                                 f"{p.name or '?'} ({p.n_positions} gods, types {', '.join(p.types)})")
            worlds = [tables.terms[tables.index[key]]]
        if not _ground(q_now):
            yield from conj(tables.worlds(world), _evalo(q, world, truth, tables, p.grammar))(S)
            return
        for term in worlds:
            value = evaluate(q_now, tables.concrete[tables.index[_key(term)]], p.grammar, p)
            S_next = unify((world, truth), (term, value), S)
            if S_next is not False:
                yield S_next

    return evaluateo_goal


def _ground(term: Any) -> bool:
    if is_var(term):
        return False
    if isinstance(term, (tuple, list)):
        return all(_ground(t) for t in term)
    return True


def _key(term: Any) -> Any:
    """A hashable form of a ground term (lists become tuples)."""
    return tuple(_key(t) for t in term) if isinstance(term, (tuple, list)) else term


def _check_parts(q: Any, puzzle: Puzzle, where: str = "question") -> None:
    """InputError for the first bound part of q that no rule of the grammar can match."""
    if is_var(q):
        return
    if not (isinstance(q, tuple) and q and isinstance(q[0], str)):
        raise InputError(f"evaluateo: {where} must be a question term like ('is', 1, 'random'), got {q!r}")
    if q[0] not in puzzle.grammar.names:
        raise InputError(f"evaluateo: {where}: unknown question operator {q[0]!r} "
                         f"(grammar has: {', '.join(puzzle.grammar.names)})")
    rule = puzzle.grammar.rule(q[0])
    if len(q) - 1 != rule.arity:
        raise InputError(f"evaluateo: {where}: {q[0]!r} takes {rule.arity} argument(s), got {len(q) - 1}")
    for i, (kind, arg) in enumerate(zip(rule.kinds, q[1:]), 1):
        if kind == "question":
            _check_parts(arg, puzzle, f"{where}[{i}]")


def replyo(position: Any, q: Any, world: Any, word: Any, puzzle: Puzzle | None = None) -> GoalType:
    """replyo(?position, ?q, ?world, ?word): the god at position, asked q in world, utters word.

    Terminates when q is ground (or bounded by `questiono` first).

    >>> from logicpy.core import run, var
    >>> p = var()
    >>> run(0, p, replyo(p, ("true",), ("world", ["truly", "falsely", "random"], "da_yes", ["none", "none", "ja"]), "da"))
    (1,)
    """
    p = _puzzle(puzzle)
    if p.self_reference:
        raise InputError(f"replyo: puzzle {p.name!r} answers by fixed point (self-reference), which the "
                         "relations do not model; use verify.utterances")
    tables = _tables(p)
    inner = var("t")
    return conj(evaluateo(q, world, inner, p), tables.replies(position, inner, world, word))
