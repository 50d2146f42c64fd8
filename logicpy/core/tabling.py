"""Tabled relations: each distinct call is solved once, to a fixpoint, and its answers
are shared by every call of the same variant, recursive calls included (SLG resolution's
answer tables, on logicpy's search, with SWI-Prolog's local scheduling).

A call is identified by its arguments up to variable renaming (a *variant*), so
`patho(a, Y)` and `patho(a, Z)` share one table entry. A variant's entry is filled by an
*evaluation*: a search of its own whose tasks are the entry's *producer* (the relation's
body run from a fresh state; each answer reaching its end is added to the table if it is
new up to renaming) and everything the producer calls. Inside an evaluation, a call of a
variant not yet tabled joins it (one more producer), and a call of a variant it is still
filling is a *consumer*: kept as (state, continuation) -- logicpy's search holds
continuations as data, so a suspended call is just that pair -- and resumed once with each
answer already in the table and with each new answer as it arrives. So left-recursive and
mutually recursive relations end with all their answers whenever the set of answers is
finite (answers are a set, as in SWI-Prolog's tabling).

An evaluation is *complete* when it has nothing left to explore; then all its entries are
complete, and every later call replays them without search. A call made outside an
evaluation (from the query, or from a goal run apart such as the condition of `onceo`,
`conda`, `condu` or a negation) first runs that evaluation to completion, a slice of its
steps per turn of the caller's search (so the caller's other branches and time limit keep
their turns), and only then reads the table. When that evaluation is the very one the
call runs inside (a negation in a tabled body of a table the body is still filling), the
variant is evaluated afresh, apart, as a *copy* (with the unfinished variants it needs),
and the complete copy then completes the table. Negation and committed choice therefore
see complete tables and answer as SWI-Prolog does for stratified programs. A variant
needed again while its copy is being evaluated depends on itself through such a goal
(`p :- \\+ p`, not stratified) and is refused with `ModeError`, as are answers that carry
constraints (`neq`, domains), which a table cannot replay. An evaluation left unfinished
(every caller gone, or an error inside it) discards its entries.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Iterator, cast

from immutables import Map

from ..errors import ModeError, shown
from ._spine import hashable_key
from .equality import reify, unify
from .streams import PAUSE, Scheduled, Search, goal_text, solve
from .terms import term_variables, var

__all__ = ["tabled", "TableStats"]


@dataclass(frozen=True)
class _Slot:
    """The i-th distinct variable of a call, in a variant key."""

    number: int


@dataclass
class TableStats:
    """How a tabled relation's table was used: variants evaluated (misses) and calls
    answered from an existing entry, complete or still filling (hits)."""

    misses: int = 0
    hits: int = 0


@dataclass(eq=False)
class _Entry:
    """The answer table of one call variant.

    Invariants: `answers` are the distinct answers (reified argument tuples, each with its
    list of variables) in the order found, `keys` their variant keys; `consumers` are
    (args, state, continuation) of the calls inside the evaluation waiting for answers;
    `evaluation` is the one filling it, None once complete.
    """

    answers: list = field(default_factory=list)
    keys: set = field(default_factory=set)
    consumers: list = field(default_factory=list)
    evaluation: "_Evaluation | None" = None


def _renamed(term: Any, variables: list, new: Callable[[int], Any]) -> Any:
    """`term` with its i-th variable replaced by `new(i)`."""
    return reify(term, {v: new(i) for i, v in enumerate(variables)}) if variables else term


def tabled(relation: Callable[..., Any]) -> Callable[..., Any]:
    """Table `relation` (a function returning a goal) per call variant (see module).

    Every call's answers are the distinct answers of the relation for that variant,
    unified with the caller's arguments in the caller's own state (so its constraints
    still apply); recursion through the tabled relation, left recursion included, ends
    whenever that set is finite. The wrapper has `.stats` (a `TableStats`) and `.clear()`.

    >>> from logicpy.core import conde, eq, run, var, Table
    >>> edge = Table.from_rows("edge", [(1, 2), (2, 3), (3, 1)])
    >>> @tabled
    ... def patho(x, y):
    ...     z = var()
    ...     return conde([patho(x, z), edge(z, y)], [edge(x, y)])
    >>> q = var()
    >>> sorted(run(0, q, patho(1, q)))
    [1, 2, 3]
    """
    tabling = _Tabling(relation)

    @functools.wraps(relation)
    def tabled_relation(*args: Any) -> _TabledCall:
        return _TabledCall(tabling, args)

    tabled_relation.stats = tabling.stats  # type: ignore[attr-defined]
    tabled_relation.clear = tabling.clear  # type: ignore[attr-defined]
    return tabled_relation


def _variant_key(term: Any, variables: list) -> Any:
    """A hashable key equal for two terms iff they are variants (equal up to renaming);
    `variables` are the term's own (`term_variables(term)`)."""
    return hashable_key(_renamed(term, variables, _Slot))


def _answers_for(args: Any, answers: list, S: Any, stop: int | None = None):
    """States of `S` where `args` unify with each answer, renamed apart, up to `stop`.

    `answers` holds (answer, its variables) pairs; a ground answer is used as it is."""
    for i, (answer, variables) in enumerate(answers):
        if stop is not None and i >= stop:
            return
        if variables:
            answer = _renamed(answer, variables, lambda _: var())
        S_hit = unify(args, answer, S)
        if S_hit is not False:
            yield S_hit


class _TabledCall(Scheduled):
    """A call of a tabled relation: consumes (and, for a new variant, produces) its entry."""

    __slots__ = ("tabling", "args")

    def __init__(self, tabling: "_Tabling", args: tuple):
        self.tabling = tabling
        self.args = args

    def schedule(self, S: Any, K: Any, search: Search):
        return self.tabling.call(self.args, S, K, search)

    def __repr__(self) -> str:
        return goal_text(self.tabling.name, self.args)


class _NewAnswer(Scheduled):
    """The end of a producer's body: record the answer; feed it to the waiting consumers."""

    __slots__ = ("tabling", "entry", "fresh_args")

    def __init__(self, tabling: "_Tabling", entry: _Entry, fresh_args: tuple):
        self.tabling = tabling
        self.entry = entry
        self.fresh_args = fresh_args

    def schedule(self, S: Any, K: Any, search: Search):
        self.tabling.add_answer(self.entry, self.fresh_args, S, search)
        return None


class _Evaluation:
    """The search that fills a set of entries to completion: their producers and the calls
    made inside them are its tasks (one strongly connected set of calls, or more).

    It is driven from outside a slice of steps at a time (`step`) and is complete when
    nothing is left to explore; an evaluation abandoned before that (an error inside it, or
    every caller gone) discards its entries. `copies` are its entries that are not the
    relation's own: variants it needed while another evaluation it runs inside was still
    filling them, evaluated here afresh and handed to the relation when complete. The first
    of its search's `on_finish` hooks is the evaluation itself, which is how a call made
    inside it is recognised (`of`).
    """

    __slots__ = ("states", "search", "members", "copies", "running", "waiting", "lost", "done")

    def __init__(self) -> None:
        self.states = cast(Generator[Any, None, None], solve(_Evaluate(self), Map(), pauses=True))
        self.search: Search | None = None
        self.members: list[tuple[_Tabling, Any, _Entry, tuple]] = []
        self.copies: dict[tuple[_Tabling, Any], _Entry] = {}
        self.running = False
        self.waiting = 0
        self.lost = False
        self.done = False

    @staticmethod
    def of(search: Search) -> "_Evaluation | None":
        hooks = search.on_finish
        return hooks[0] if hooks and type(hooks[0]) is _Evaluation else None

    def add(self, tabling: "_Tabling", key: Any, entry: _Entry, fresh_args: tuple, copy: bool = False) -> None:
        """Evaluate `entry` here: its producer runs the relation's body on `fresh_args`."""
        entry.evaluation = self
        self.members.append((tabling, key, entry, fresh_args))
        if copy:
            self.copies[(tabling, key)] = entry
            tabling.copies.setdefault(key, []).append(entry)
        if self.search is not None:
            self._produce(tabling, entry, fresh_args)

    def _produce(self, tabling: "_Tabling", entry: _Entry, fresh_args: tuple) -> None:
        assert self.search is not None
        body = tabling.relation(*fresh_args)
        self.search.spawn((Map(),), (body, (_NewAnswer(tabling, entry, fresh_args), None)))

    def start(self, search: Search) -> None:
        self.search = search
        search.on_finish.insert(0, self)
        search.on_abandon.append(self.abandon)
        for tabling, _, entry, fresh_args in self.members:
            self._produce(tabling, entry, fresh_args)

    def step(self, needed: "_Tabling", args: tuple) -> None:
        """A slice of the evaluation's steps, for a call of `needed` on `args` made outside it."""
        if self.running:
            raise _loop(needed, args)
        self.running = True
        try:
            next(self.states, None)
        finally:
            self.running = False

    def __call__(self) -> None:
        """The search has explored everything: every member is complete."""
        self.done = True
        for tabling, key, entry, _ in self.members:
            entry.evaluation = None
            entry.consumers.clear()
            if self.copies.get((tabling, key)) is entry:
                tabling.copies[key].remove(entry)
                tabling.adopt(key, entry)

    def abandon(self) -> None:
        self.lost = self.done = True
        for tabling, key, entry, _ in self.members:
            if self.copies.get((tabling, key)) is entry:
                tabling.copies[key].remove(entry)
            elif tabling.entries.get(key) is entry:
                del tabling.entries[key]

    def release(self) -> None:
        """One caller waiting outside fewer; the last one gone ends an unfinished evaluation."""
        self.waiting -= 1
        if self.waiting == 0 and not self.running and not self.done:
            self.states.close()


def _loop(tabling: "_Tabling", args: tuple) -> ModeError:
    return ModeError(f"tabled {tabling.name}: {shown((tabling.name, *args))} depends on itself through a "
                     "negation, once or if-then-else (\\+, onceo, conda, condu), so its table cannot be "
                     "complete before that goal reads it (the program is not stratified)")


class _Evaluate(Scheduled):
    """The root goal of an evaluation's search: starts its producers (it has no answer)."""

    __slots__ = ("evaluation",)

    def __init__(self, evaluation: _Evaluation):
        self.evaluation = evaluation

    def schedule(self, S: Any, K: Any, search: Search):
        self.evaluation.start(search)
        return None


class _Tabling:
    """The table of one tabled relation: entries by variant key, and the evaluation rules."""

    def __init__(self, relation: Callable[..., Any]):
        self.relation = relation
        self.name = relation.__name__
        self.entries: dict[Any, _Entry] = {}
        self.copies: dict[Any, list[_Entry]] = {}
        self.stats = TableStats()

    def call(self, args: tuple, S: Any, K: Any, search: Search):
        args_rf = reify(args, S)
        arg_variables = term_variables(args_rf)
        key = _variant_key(args_rf, arg_variables)
        here = _Evaluation.of(search)
        entry = self.entries.get(key)
        if here is not None:
            entry = here.copies.get((self, key), entry)
        if entry is not None and entry.evaluation is None:
            self.stats.hits += 1
            return _answers_for(args, entry.answers, S), K
        filling = None if entry is None else entry.evaluation
        if entry is None or (filling is not None and filling is not here and filling.running):
            # new; or being filled by an evaluation this call runs inside, past a negation,
            # once or if-then-else that must not wait for it: evaluated afresh as a copy
            copy = entry is not None
            if copy and any(c.evaluation is not None and c.evaluation.running for c in self.copies.get(key, ())):
                raise _loop(self, args_rf)
            self.stats.misses += 1
            entry = _Entry()
            if not copy:
                self.entries[key] = entry
            fresh_args = _renamed(args_rf, arg_variables, lambda _: var())
            (here or _Evaluation()).add(self, key, entry, fresh_args, copy)
        else:
            self.stats.hits += 1
        assert entry.evaluation is not None
        if entry.evaluation is here:  # a call inside the evaluation: a consumer, fed as answers come
            entry.consumers.append((args, S, K))
            return _answers_for(args, entry.answers, S, stop=len(entry.answers)), K
        return self._completed(entry, args_rf, args, S), K

    def adopt(self, key: Any, copy: _Entry) -> None:
        """A complete copy of variant `key`: its answers complete the relation's own entry (its
        waiting consumers get the ones they lack), or it becomes that entry."""
        entry = self.entries.get(key)
        if entry is None:
            self.entries[key] = copy
            return
        if entry.evaluation is None:
            return
        search = entry.evaluation.search
        for answer, variables in copy.answers:
            answer_key = _variant_key(answer, variables)
            if answer_key not in entry.keys:
                entry.keys.add(answer_key)
                entry.answers.append((answer, variables))
                if search is not None:
                    for args, S_consumer, K in entry.consumers:
                        search.spawn(_answers_for(args, [(answer, variables)], S_consumer), K)
        entry.evaluation = None
        entry.consumers.clear()

    def _completed(self, entry: _Entry, args_rf: tuple, args: tuple, S: Any) -> Iterator[Any]:
        """The answers of a call made outside the entry's evaluation: the evaluation is run to
        completion first (a slice of its steps per turn of the caller's search), then the
        table replayed. The caller counts as waiting from now on, not from its first turn."""
        evaluation = entry.evaluation
        assert evaluation is not None
        evaluation.waiting += 1
        return self._awaited(entry, evaluation, args_rf, args, S)

    def _awaited(self, entry: _Entry, evaluation: _Evaluation, args_rf: tuple, args: tuple,
                 S: Any) -> Iterator[Any]:
        try:
            while entry.evaluation is not None:
                evaluation.step(self, args_rf)
                if evaluation.lost:
                    raise ModeError(f"tabled {self.name}: the evaluation of {shown((self.name, *args_rf))} "
                                    "was stopped by an error")
                if entry.evaluation is not None:
                    yield PAUSE
        finally:
            evaluation.release()
        yield from _answers_for(args, entry.answers, S)

    def add_answer(self, entry: _Entry, fresh_args: tuple, S: Any, search: Search) -> None:
        if any(getattr(store, "lvar_constraints", None) for store in getattr(S, "constraints", {}).values()):
            raise ModeError(f"tabled {self.name}: an answer to {shown((self.name, *fresh_args))} carries "
                            "constraints (dif, domains), which a table cannot replay")
        answer = reify(fresh_args, S)
        variables = term_variables(answer)
        key = _variant_key(answer, variables)
        if key in entry.keys:
            return
        entry.keys.add(key)
        answered = [(answer, variables)]
        entry.answers.append(answered[0])
        for args, S_consumer, K in entry.consumers:
            search.spawn(_answers_for(args, answered, S_consumer), K)

    def clear(self) -> None:
        self.entries.clear()
        self.copies.clear()
        self.stats.misses = self.stats.hits = 0
