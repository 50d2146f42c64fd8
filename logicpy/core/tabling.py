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

The common case costs no term traversal: a call whose arguments are atoms, integers and
variables is keyed by one walk of its arguments, a ground answer of atoms and integers is
stored as the tuple it is (its own key), and a call takes such an answer by binding its
variables, without unification (the answer is an instance of the call).
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
from .terms import Variable, term_variables, var

__all__ = ["tabled", "TableStats"]


@dataclass(frozen=True)
class _Slot:
    """The i-th distinct variable of a call, in a variant key."""

    number: int


#: `_Slot(i)` for the flat keys, made once.
_SLOTS = [_Slot(i) for i in range(8)]
#: The first item of a flat call's variant key (`_call_key`), which no `hashable_key` starts with.
_FLAT = object()
_UNBOUND = object()
#: The variables of a ground answer.
_GROUND: list = []


@dataclass
class TableStats:
    """How a tabled relation's table was used: variants evaluated (misses) and calls
    answered from an existing entry, complete or still filling (hits)."""

    misses: int = 0
    hits: int = 0


@dataclass(eq=False)
class _Entry:
    """The answer table of one call variant.

    Invariants: `answers` are the distinct answers (argument tuples, each with its list of
    variables, empty for a ground answer) in the order found, `keys` their keys
    (`_answer_key`); `consumers` are the calls inside the evaluation waiting for answers;
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


def _call_key(args: tuple, S: Any) -> tuple[tuple, list, Any, tuple | None]:
    """A call's arguments reified in `S`, their variables, its variant key, and, for a *flat*
    call (each argument an atom, an integer or a variable), where its variables first
    occur, as (position, variable) pairs; None for any other call.

    In a plain substitution a call is read by one walk per argument; in any other state,
    or when an argument is bound to another term, by reification."""
    args_rf = None
    if S.__class__ is Map:
        get = S.get
        items: list = []
        for t in args:
            while t.__class__ is Variable:
                bound = get(t, _UNBOUND)
                if bound is _UNBOUND:
                    break
                t = bound
            kind = t.__class__
            if kind is not Variable and kind is not str and kind is not int:
                break
            items.append(t)
        else:
            args_rf = tuple(items)
    if args_rf is None:
        args_rf = reify(args, S)
    flat = _flat_key(args_rf)
    if flat is not None:
        key, variables, firsts = flat
        return args_rf, variables, key, firsts
    variables = term_variables(args_rf)
    return args_rf, variables, _variant_key(args_rf, variables), None


def _flat_key(args_rf: tuple) -> tuple[tuple, list, tuple] | None:
    """For reified arguments that are each an atom, an integer or a variable: the variant key
    (`_FLAT`, then the atoms, each variable as its `_Slot`), the variables, and where each
    first occurs as (position, variable) pairs. None for any other arguments."""
    key: list = [_FLAT]
    variables: list = []
    firsts: list = []
    for position, t in enumerate(args_rf):
        kind = t.__class__
        if kind is Variable:
            for number, v in enumerate(variables):
                if v is t:
                    break
            else:
                number = len(variables)
                variables.append(t)
                firsts.append((position, t))
            key.append(_SLOTS[number] if number < len(_SLOTS) else _Slot(number))
        elif kind is str or kind is int:
            key.append(t)
        else:
            return None
    return tuple(key), variables, tuple(firsts)


def _answer_key(answer: tuple, variables: list) -> Any:
    """An answer's key in its table: a ground answer of atoms and integers is its own key
    (no `hashable_key` is a tuple starting with an atom or an integer), any other its
    variant key."""
    if not variables:
        for t in answer:
            kind = t.__class__
            if kind is not str and kind is not int:
                break
        else:
            return answer
    return _variant_key(answer, variables)


def _unified(args: tuple, S: Any, answer: tuple, variables: list) -> Any:
    """`S` where the call's `args` unify with `answer`, its `variables` renamed apart; or False."""
    if variables:
        answer = _renamed(answer, variables, lambda _: var())
    return unify(args, answer, S)


def _states(args: tuple, firsts: tuple | None, S: Any, answers: list,
            consumer: "_Consumer | None" = None) -> Iterator[Any]:
    """States of `S` where `args` equal each of `answers` (answers of the call's variant), to
    the end of the list, answers added while reading included; for a `consumer`, from the
    answers it has not read, and it is asleep once they are all read.

    For a flat call (`firsts`, see `_call_key`) in a plain substitution, a ground answer is
    taken by binding the call's variables to the answer's items at their first positions:
    the answer is an instance of the call, so nothing else can differ. Any other answer or
    state is unified."""
    i = 0 if consumer is None else consumer.seen
    plain = firsts is not None and S.__class__ is Map
    one = plain and len(firsts) == 1  # type: ignore[arg-type]
    if one:
        position, v = firsts[0]  # type: ignore[index]
        bind = S.set
    while i < len(answers):
        answer, variables = answers[i]
        i += 1
        if variables or not plain:
            S_hit = _unified(args, S, answer, variables)
            if S_hit is False:
                continue
        elif one:
            S_hit = bind(v, answer[position])
        elif firsts:
            S_hit = S.mutate()
            for p, w in firsts:  # type: ignore[union-attr]
                S_hit[w] = answer[p]
            S_hit = S_hit.finish()
        else:
            S_hit = S
        yield S_hit
    if consumer is not None:
        consumer.seen = i
        consumer.awake = False


class _Consumer:
    """A call inside an evaluation of a variant it is still filling: its arguments, state,
    `firsts` (see `_call_key`) and continuation; `seen` answers of the entry read so far.

    A consumer is one frame reading the table from `seen` on (`_states`), `awake` while it
    is on a task's stack: an answer added meanwhile is read by that frame, and only an
    answer added when it has read them all queues it again. A cut in its continuation (in
    Prolog order) drops the frame, and with it the answers it has not read, as a cut after
    a call drops the call's other answers."""

    __slots__ = ("args", "firsts", "S", "K", "seen", "awake")

    def __init__(self, args: tuple, firsts: tuple | None, S: Any, K: Any):
        self.args, self.firsts, self.S, self.K = args, firsts, S, K
        self.seen = 0
        self.awake = True

    def wake(self, entry: _Entry, search: Search) -> None:
        """The entry has an answer this consumer, asleep, has not read: go on with it."""
        self.awake = True
        search.spawn(_states(self.args, self.firsts, self.S, entry.answers, self), self.K)


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
    """The end of a producer's body: record the answer; feed it to the waiting consumers.
    `fresh_args` is the producer's call; `slots`, for a flat one, the positions of its
    variables (every occurrence), else None."""

    __slots__ = ("tabling", "entry", "fresh_args", "slots")

    def __init__(self, tabling: "_Tabling", entry: _Entry, fresh_args: tuple, flat: bool):
        self.tabling = tabling
        self.entry = entry
        self.fresh_args = fresh_args
        self.slots = tuple(i for i, t in enumerate(fresh_args) if t.__class__ is Variable) if flat else None

    def schedule(self, S: Any, K: Any, search: Search):
        slots = self.slots
        if slots is not None and S.__class__ is Map:  # a ground answer of atoms and integers is its own key
            items = list(self.fresh_args)
            get = S.get
            for i in slots:
                t = get(items[i], _UNBOUND)
                while t.__class__ is Variable:
                    t = get(t, _UNBOUND)
                kind = t.__class__
                if kind is not str and kind is not int:  # unbound (_UNBOUND), or another term
                    break
                items[i] = t
            else:
                answer = tuple(items)
                entry = self.entry
                if answer not in entry.keys:
                    _Tabling.record(entry, answer, _GROUND, answer, search)
                return None
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
        self.members: list[tuple[_Tabling, Any, _Entry, tuple, bool]] = []
        self.copies: dict[tuple[_Tabling, Any], _Entry] = {}
        self.running = False
        self.waiting = 0
        self.lost = False
        self.done = False

    @staticmethod
    def of(search: Search) -> "_Evaluation | None":
        hooks = search.on_finish
        return hooks[0] if hooks and type(hooks[0]) is _Evaluation else None

    def add(self, tabling: "_Tabling", key: Any, entry: _Entry, fresh_args: tuple, flat: bool,
            copy: bool = False) -> None:
        """Evaluate `entry` here: its producer runs the relation's body on `fresh_args`."""
        entry.evaluation = self
        self.members.append((tabling, key, entry, fresh_args, flat))
        if copy:
            self.copies[(tabling, key)] = entry
            tabling.copies.setdefault(key, []).append(entry)
        if self.search is not None:
            self._produce(tabling, entry, fresh_args, flat)

    def _produce(self, tabling: "_Tabling", entry: _Entry, fresh_args: tuple, flat: bool) -> None:
        assert self.search is not None
        body = tabling.relation(*fresh_args)
        self.search.spawn((Map(),), (body, (_NewAnswer(tabling, entry, fresh_args, flat), None)))

    def start(self, search: Search) -> None:
        self.search = search
        search.on_finish.insert(0, self)
        search.on_abandon.append(self.abandon)
        for tabling, _, entry, fresh_args, flat in self.members:
            self._produce(tabling, entry, fresh_args, flat)

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
        for tabling, key, entry, _, _ in self.members:
            entry.evaluation = None
            entry.consumers.clear()
            if self.copies.get((tabling, key)) is entry:
                tabling.copies[key].remove(entry)
                tabling.adopt(key, entry)

    def abandon(self) -> None:
        self.lost = self.done = True
        for tabling, key, entry, _, _ in self.members:
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
        args_rf, arg_variables, key, firsts = _call_key(args, S)
        here = _Evaluation.of(search)
        entry = self.entries.get(key)
        if here is not None:
            entry = here.copies.get((self, key), entry)
        if entry is not None and entry.evaluation is None:
            self.stats.hits += 1
            return _states(args, firsts, S, entry.answers), K
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
            (here or _Evaluation()).add(self, key, entry, fresh_args, firsts is not None, copy)
        else:
            self.stats.hits += 1
        assert entry.evaluation is not None
        if entry.evaluation is here:  # a call inside the evaluation: a consumer, fed as answers come
            consumer = _Consumer(args, firsts, S, K)
            entry.consumers.append(consumer)
            return _states(args, firsts, S, entry.answers, consumer), K
        return self._completed(entry, args_rf, args, firsts, S), K

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
            self.record(entry, answer, variables, _answer_key(answer, variables), search)
        entry.evaluation = None
        entry.consumers.clear()

    def _completed(self, entry: _Entry, args_rf: tuple, args: tuple, firsts: tuple | None,
                   S: Any) -> Iterator[Any]:
        """The answers of a call made outside the entry's evaluation: the evaluation is run to
        completion first (a slice of its steps per turn of the caller's search), then the
        table replayed. The caller counts as waiting from now on, not from its first turn."""
        evaluation = entry.evaluation
        assert evaluation is not None
        evaluation.waiting += 1
        return self._awaited(entry, evaluation, args_rf, args, firsts, S)

    def _awaited(self, entry: _Entry, evaluation: _Evaluation, args_rf: tuple, args: tuple,
                 firsts: tuple | None, S: Any) -> Iterator[Any]:
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
        yield from _states(args, firsts, S, entry.answers)

    def add_answer(self, entry: _Entry, fresh_args: tuple, S: Any, search: Search | None) -> None:
        """Record the producer's answer `fresh_args` in `S`, if it is new."""
        if S.__class__ is not Map and any(getattr(store, "lvar_constraints", None)
                                          for store in getattr(S, "constraints", {}).values()):
            raise ModeError(f"tabled {self.name}: an answer to {shown((self.name, *fresh_args))} carries "
                            "constraints (dif, domains), which a table cannot replay")
        answer = reify(fresh_args, S)
        variables = term_variables(answer)
        self.record(entry, answer, variables, _answer_key(answer, variables), search)

    @staticmethod
    def record(entry: _Entry, answer: tuple, variables: list, key: Any, search: Search | None) -> None:
        """Add `answer` (with its variables and key) to `entry` unless it is there; its
        consumers go on with it."""
        keys = entry.keys
        if key in keys:
            return
        keys.add(key)
        entry.answers.append((answer, variables))
        if search is not None:
            for consumer in entry.consumers:
                if not consumer.awake:  # (an awake one reads it from its frame)
                    consumer.wake(entry, search)

    def clear(self) -> None:
        self.entries.clear()
        self.copies.clear()
        self.stats.misses = self.stats.hits = 0
