"""The loops of the list relations, and the list relations that are not clauses.

`member_loop`, `append_loop`, `select_loop`, `nextto_loop` and `rember_loop` are the goals
that the clauses of member/2, append/3, select/3, nextto/3 and rembero run as (`lists`
defines the relations by their clauses; `loops` gives them these): the clauses' answers in
their order, computed in one pass. `lengtho`, `permuteo`, `distincto` and `nth1o` are
relations of their own here: their meaning needs integers or tests of how bound a list
is, which no clauses of the core state.

Every goal here is a plain kanren goal (state -> stream of states) that walks proper lists
in a loop: no recursion per element, so 100,000-element lists cost milliseconds and no
RecursionError (kanren 1.0.5's `membero`/`appendo` recurse per element and fail past ~170
elements). Partial lists (`cons(h, T)`) are extended the way Prolog extends them, lazily
and in order, so `run(5, ...)` over an unbounded relation returns.

No goal runs long without giving the search its turn: a scan yields `PAUSE` after every
`SCAN` elements, an endless enumeration after every `SCAN` attempts in a row that find
nothing (`_found`: a clause whose head does not match costs its call no turn either), and
a long list is built in slices, so other branches and time limits are served whatever the
lists. A list longer than `MAX_LIST` is a `ResourceError` before anything is built. On a cyclic list (made
without the occurs check) member's and append's loops enumerate without end, as member/2
and append/3 do; the other loops raise `CyclicList` when they are made, and their relation
runs its clauses instead; the relations here raise `TermError` (length/2's type error).

member's and nextto's loops over a short proper list (a table of records, say) answer at
once, as a tuple. A tuple pattern is matched against each element in one pass (`_fit`):
its atoms and integers first, so a record that clashes is ruled out before anything is
bound, then its other elements, the bindings written into one `MapMutation` made at the
first binding; what that loop does not know (deeper terms, floats, cons cells) goes to
`unify_mutation`, and states with constraint stores or the occurs check to `unify`.
"""

from __future__ import annotations

from itertools import count
from typing import Any, Generator, Iterable, Iterator

from cons.core import ConsPair
from immutables import Map
from kanren.core import GoalType

from ..errors import ModeError, ResourceError, TermError, shown
from ._spine import EMPTY, Cycle, CyclicList, bindings, chain, check_list_argument, hashable_key, is_open, post, spine, walk
from .disequality import neq
from .equality import State, reify_dict, unify, unify_mutation, unify_subst
from .streams import PAUSE, named
from .terms import Variable, is_var, var, variables_in, vars

__all__ = ["member_loop", "append_loop", "select_loop", "nextto_loop", "rember_loop", "rember_runs_clauses",
           "lengtho", "permuteo", "distincto", "nth1o", "MAX_LIST", "check_list_size"]


#: Elements a scan looks at between two `PAUSE`s.
SCAN = 1_000

#: The most elements a goal puts into one new list (a fresh variable costs about 64 bytes
#: and a microsecond): a longer one is a `ResourceError` before anything is built, as
#: SWI-Prolog's stack limit (length(L, 10^9): "Stack limit (1.0Gb) exceeded").
MAX_LIST = 4_000_000


def check_list_size(goal: Any, n: int) -> None:
    """`ResourceError` naming `goal` (a term: its functor and arguments) when a list of `n`
    elements is longer than `MAX_LIST`."""
    if n > MAX_LIST:
        raise ResourceError(f"{shown(goal)}: resource error: a list of {n:,} elements is longer than the "
                            f"{MAX_LIST:,} a goal builds (logicpy.core.listloops.MAX_LIST)")


def _fresh(n: int) -> Generator[Any, None, list]:
    """`n` fresh variables, as a generator whose return value is their list: a `PAUSE`
    after every `SCAN` * 100 of them, so the search's clock is read while a long one is made."""
    out: list = []
    while n - len(out) > SCAN * 100:
        out.extend([var() for _ in range(SCAN * 100)])
        yield PAUSE
    out.extend([var() for _ in range(n - len(out))])
    return out


#: Types whose values unify exactly when they compare equal, with no bindings to make (an
#: int never equals a str; floats and bools are left to unification: 1 == 1.0 == True in
#: Python, not in Prolog).
_ATOMIC = frozenset({int, str})


def _proper(tail: Any) -> bool:
    """True iff a spine's tail closes a proper list."""
    return type(tail) is list


def _found(attempts: Iterable[Any]) -> Iterator[Any]:
    """The states among `attempts` (False for one that found nothing), in order, and a
    `PAUSE` after every `SCAN` attempts in a row that found nothing. A clause's head that does
    not unify costs its call no turn of the search, so an answer comes in the turn its
    clauses would give it; an endless run of misses still gives the search its turn."""
    misses = 0
    for S in attempts:
        if S is False:
            misses += 1
            if misses == SCAN:
                misses = 0
                yield PAUSE
        else:
            misses = 0
            yield S


def _grow(items: list, tail: Any, S: Any, width: int) -> Iterator[tuple[Any, list]]:
    """Windows of `width` consecutive elements that reach into the open `tail`, by start.

    Grows the tail one fresh element at a time (each step O(1), as Prolog's recursion
    does), yielding (state, window) for each window ending in a new element; the tail
    stays open after it. Endless unless the tail cannot grow.
    """
    recent = items[len(items) - width + 1:] if width > 1 else []
    while True:
        item, rest = var(), var()
        S = unify(tail, ConsPair(item, rest), S)
        if S is False:
            return
        recent.append(item)
        if len(recent) >= width:
            recent = recent[len(recent) - width:]
            yield S, recent
        tail = rest


def _lists_by_length(tail: Any, S: Any, shortest: int) -> Iterator[Any]:
    """States binding the open `tail` to proper lists of fresh variables, shortest first. Endless."""
    for extra in count(shortest):
        S_long = unify(tail, vars(extra), S)
        yield PAUSE if S_long is False else S_long


def _ground(term: Any) -> bool:
    """True iff the reified `term` holds no logic variable."""
    return next(variables_in(term), None) is None


_UNBOUND = object()


def _bindings_of(S: Any) -> Map | None:
    """The `Map` of bindings a record match may extend for `S`: its own for a `Map`, a
    `State`'s when it has no constraint store and no occurs check; else None (unify in full)."""
    kind = S.__class__
    if kind is Map:
        return S
    if kind is State and not S.constraints and not S.occurs_check:
        return S.data
    return None


def _as_state(found: list, S: Any) -> list:
    """The extended bindings `found` as states of `S`'s kind (see `_bindings_of`)."""
    return found if S.__class__ is Map else [State(s, None, False) for s in found]


class _Record:
    """A tuple pattern (a record such as `("edge", A, 3, B)`) ready to be matched
    against the terms of a list: its atoms and integers (`checks`, (position, value) pairs,
    the first position last: a record's name is shared by every candidate, so it rules
    little out), then its other elements (`rest`, (position, element) pairs, in order)."""

    __slots__ = ("term", "size", "checks", "rest")

    def __init__(self, term: tuple):
        self.term = term
        self.size = len(term)
        self.checks = [(i, t) for i, t in reversed(list(enumerate(term))) if t.__class__ is str or t.__class__ is int]
        self.rest = [(i, t) for i, t in enumerate(term) if not (t.__class__ is str or t.__class__ is int)]


def _record_of(pattern: Any, prepared: _Record | None) -> _Record | None:
    """The `_Record` of a walked `pattern`: `prepared` when it is that pattern's, a new one for
    another tuple, None for any other term."""
    if prepared is not None and prepared.term is pattern:
        return prepared
    return _Record(pattern) if pattern.__class__ is tuple else None


def _may_fit(record: _Record, term: Any, get: Any) -> bool:
    """False when `term` (walked in the bindings' `get`) cannot unify with the `record`'s
    pattern for a reason `_fit` finds first: an atom or integer of the pattern clashes, or
    the term is an atom, an integer, a list or a tuple of another length. Binds nothing."""
    while term.__class__ is Variable:
        term = get(term, _UNBOUND)
        if term is _UNBOUND:
            return True
    kind = term.__class__
    if kind is not tuple:
        return not (kind is str or kind is int or kind is list or kind is ConsPair)
    if len(term) != record.size:
        return False
    for i, c in record.checks:
        t = term[i]
        while t.__class__ is Variable:
            t = get(t, _UNBOUND)
        if t is c or t is _UNBOUND:
            continue
        kind = t.__class__
        if kind is c.__class__:
            if t != c:
                return False
        elif kind is str or kind is int or kind is tuple or kind is list:
            return False
    return True


def _fit(record: _Record, term: Any, s: Map, m: Any) -> Any:
    """Unify the `record`'s pattern with `term` in the bindings `s` as extended by the
    mutation `m` (None: not extended yet; one is made at the first binding): `m` or the
    mutation now holding the bindings (None when none was needed), or False.

    The pattern's atoms and integers are compared first, so most records that do not fit
    are ruled out before anything is bound. Variables, atoms and integers are matched here,
    anything else by `unify_mutation`. Bindings go as `unify` makes them: the pattern's
    variable to the term's side when both are variables."""
    get = s.get if m is None else m.get
    while term.__class__ is Variable:
        nxt = get(term, _UNBOUND)
        if nxt is _UNBOUND:
            if m is None:
                m = s.mutate()
            m[term] = record.term
            return m
        term = nxt
    kind = term.__class__
    if kind is not tuple or len(term) != record.size:
        if kind is str or kind is int or kind is list or kind is tuple or kind is ConsPair:
            return False  # an atom, an integer, a list or a list cell never unifies with a tuple
        return unify_mutation(record.term, term, s.mutate() if m is None else m)
    for i, c in record.checks:
        t = term[i]
        while t.__class__ is Variable:
            nxt = get(t, _UNBOUND)
            if nxt is _UNBOUND:
                if m is None:
                    m = s.mutate()
                    get = m.get
                m[t] = c
                break
            t = nxt
        else:
            if t is c:
                continue
            kind = t.__class__
            if kind is c.__class__:
                if t != c:
                    return False
            elif kind is str or kind is int or kind is tuple or kind is list:
                return False
            else:
                m = unify_mutation(c, t, s.mutate() if m is None else m)
                if m is False:
                    return False
                get = m.get
    for i, u in record.rest:
        t = term[i]
        if u is t:
            continue
        while u.__class__ is Variable:
            nxt = get(u, _UNBOUND)
            if nxt is _UNBOUND:
                break
            u = nxt
        while t.__class__ is Variable:
            nxt = get(t, _UNBOUND)
            if nxt is _UNBOUND:
                break
            t = nxt
        if u is t:
            continue
        if m is None:
            m = s.mutate()
            get = m.get
        kind = u.__class__
        if kind is Variable:
            m[u] = t
        elif t.__class__ is Variable:
            m[t] = u
        elif kind is t.__class__ and (kind is str or kind is int):
            if u != t:
                return False
        else:
            m = unify_mutation(u, t, m)
            if m is False:
                return False
            get = m.get
    return m


def _atom_in(x: Any, item: Any, s: Map) -> Any:
    """The bindings `s` extended so that the atom or integer `x` unifies with `item` (of
    another type than x's, or a variable), or False."""
    get = s.get
    while item.__class__ is Variable:
        nxt = get(item, _UNBOUND)
        if nxt is _UNBOUND:
            return s.set(item, x)
        item = nxt
    kind = item.__class__
    if kind is x.__class__:
        return s if item == x else False
    if kind is str or kind is int or kind is tuple or kind is list:
        return False
    return unify_subst(x, item, s)


def _member_hits(x: Any, items: list, s: Map, record: _Record | None) -> list:
    """The bindings `s` extended so that the walked `x` unifies with each of `items` in turn,
    for those it unifies with, in order (`record`: `x` prepared, when it is a tuple)."""
    out = []
    if record is not None:
        for item in items:
            m = _fit(record, item, s, None)
            if m is not False:
                out.append(s if m is None else m.finish())
        return out
    kind = x.__class__
    if kind is str or kind is int:
        for item in items:
            if item.__class__ is not kind:
                found = _atom_in(x, item, s)
                if found is not False:
                    out.append(found)
            elif item == x:  # the same test unification makes, without its dispatch
                out.append(s)
        return out
    get = s.get
    if kind is Variable:
        for item in items:
            while item.__class__ is Variable:
                nxt = get(item, _UNBOUND)
                if nxt is _UNBOUND:
                    break
                item = nxt
            out.append(s if item is x else s.set(x, item))
        return out
    for item in items:
        found = unify_subst(x, item, s)
        if found is not False:
            out.append(found)
    return out


def member_loop(x: Any, xs: Any) -> GoalType:
    """The goal of member/2's clauses (`lists.membero`): one answer per matching position,
    in order; O(len(xs)) on a proper list. On a partial list it goes on to extend the tail
    without end."""
    record = _Record(x) if x.__class__ is tuple else None  # a record pattern, prepared once

    def hits(S, x_rf, items):
        """The states where `x_rf` unifies with an item of `items`, in order."""
        s = _bindings_of(S)
        if s is not None:
            return _as_state(_member_hits(x_rf, items, s, _record_of(x_rf, record)), S)
        out = []
        atomic = type(x_rf) in _ATOMIC
        for item in items:
            if atomic and type(item) in _ATOMIC:
                if item == x_rf:  # the same test unification makes: no binding, no store to wake
                    out.append(S)
                continue
            S_hit = unify(x_rf, item, S)
            if S_hit is not False:
                out.append(S_hit)
        return out

    def scan(S, x_rf, items):
        for lo in range(0, len(items), SCAN):
            if lo:
                yield PAUSE
            yield from hits(S, x_rf, items[lo:lo + SCAN])

    def endless(S, x_rf, items, tail):
        yield from scan(S, x_rf, items)
        if type(tail) is Cycle:
            again = items[tail.start:]
            yield from _found(rounds(S, x_rf, again))
        if is_open(tail):
            yield from _found(unify(x, item, S_grown) for S_grown, (item,) in _grow(items, tail, S, 1))

    def rounds(S, x_rf, again):
        """The states where `x_rf` unifies with an element of the cycle `again`, round after
        round without end; False for each element of a round with none."""
        while True:
            found = hits(S, x_rf, again)
            yield from found if found else [False] * len(again)

    def membero_goal(S):
        items, tail = (xs, EMPTY) if xs.__class__ is list else spine(xs, S, cyclic=True)
        x_rf = x if x.__class__ is tuple else walk(x, S)
        if tail.__class__ is list and len(items) <= SCAN:  # a short proper list: every answer now, as a tuple
            if S.__class__ is Map:
                return tuple(_member_hits(x_rf, items, S, record if x_rf is x else _record_of(x_rf, None)))
            return tuple(hits(S, x_rf, items))
        return endless(S, x_rf, items, tail)

    return membero_goal


def append_loop(xs: Any, ys: Any, zs: Any) -> GoalType:
    """The goal of append/3's clauses (`lists.appendo`): one answer in O(len(xs)) when xs is
    a proper list, the splits that fit in order when zs is (only one when ys is proper
    too); otherwise longer and longer xs."""

    def appendo_goal(S):
        x_items, x_tail = spine(xs, S)
        if not is_open(x_tail):  # one answer or none: a tuple, no generator step
            if _proper(x_tail):
                S_done = unify(zs, chain(x_items, walk(ys, S)), S)
                if S_done is not False:
                    return (S_done,)
            return ()
        # zs starts with xs's known elements; what is left is x_tail followed by ys.
        rest = var()
        S = unify(zs, chain(x_items, rest), S)
        if S is False:
            return ()
        r_items, r_tail = spine(rest, S, cyclic=True)
        if r_tail.__class__ is Cycle:  # zs is cyclic: every split, without end (append/3 does the same)
            return _cyclic_splits(x_tail, ys, rest, S)
        return splits(S, x_tail, r_items, r_tail, *spine(ys, S))  # (a cyclic ys: CyclicList, here)

    def splits(S, x_tail, r_items, r_tail, y_items, y_tail):
        # ys's known elements end the rest: only splits that leave room for them, and only
        # one when both lists are proper (appendo(X, [last], long_list) stays O(n)).
        last_split = len(r_items) - len(y_items) if _proper(r_tail) else len(r_items)
        first_split = last_split if _proper(r_tail) and _proper(y_tail) else 0
        for split in range(max(first_split, 0), last_split + 1):
            S_split = unify(x_tail, r_items[:split], S)
            if S_split is not False:
                S_split = unify(ys, chain(r_items[split:], r_tail), S_split)
            if S_split is not False:
                yield S_split
            elif split % SCAN == SCAN - 1:
                yield PAUSE
        if is_open(r_tail):
            # xs's tail is the rest's known elements then k more, which also start the
            # rest's open tail, ys after them: both grown one element at a time.
            yield from _found(longer(S, x_tail, r_items, r_tail))

    def longer(S, x_tail, r_items, r_tail):
        """The states where xs's tail is the rest's known elements then 1, 2, ... more (False
        where ys cannot follow them), without end unless the lists cannot grow."""
        x_more = var()
        S = unify(x_tail, chain(r_items, x_more), S)
        while S is not False:
            item, x_rest, r_rest = var(), var(), var()
            S = unify(x_more, ConsPair(item, x_rest), S)
            if S is not False:
                S = unify(r_tail, ConsPair(item, r_rest), S)
            if S is False:
                return
            S_long = unify(x_rest, [], S)
            yield S_long if S_long is False else unify(r_rest, ys, S_long)
            x_more, r_tail = x_rest, r_rest

    return appendo_goal


def _cyclic_splits(x_tail: Any, ys: Any, rest: Any, S: Any) -> Iterator[Any]:
    """States where `x_tail` is the first k elements of the cyclic list `rest` and `ys` the
    rest from there, for k = 0, 1, 2, ...; endless."""
    return _found(_cyclic_split_attempts(x_tail, ys, rest, S))


def _cyclic_split_attempts(x_tail: Any, ys: Any, rest: Any, S: Any) -> Iterator[Any]:
    """`_cyclic_splits`'s states, False for a split that does not fit."""
    d = bindings(S)
    prefix: list = []
    cell = walk(rest, S)
    while True:
        S_split = unify(x_tail, list(prefix), S)
        yield S_split if S_split is False else unify(ys, cell, S_split)
        prefix.append(cell.car)
        cell = walk(cell.cdr, d)


@named
def lengtho(xs: Any, n: Any) -> GoalType:
    """lengtho(?xs, ?n): True iff list xs has n elements (n a non-negative int).

    Terminates when xs is a proper list or n is an integer; with both open it generates
    lists of length 0, 1, 2, ... without end, like Prolog's length/2.

    >>> from logicpy.core import appendo, run, var
    >>> xs = var()
    >>> run(0, xs, lengtho(xs, 2), lengtho([7, 8], 2), appendo([7], [8], xs))
    ([7, 8],)
    """
    check_list_argument("lengtho", "xs", xs)

    def lengtho_goal(S):
        items, tail = spine(xs, S)
        n_rf = walk(n, S)
        if not is_var(n_rf) and (type(n_rf) is not int):
            raise TermError(f"lengtho: the length must be an integer or a variable, got {shown(n_rf)}")
        if not is_open(tail):
            if _proper(tail):
                S_done = unify(n_rf, len(items), S)
                if S_done is not False:
                    yield S_done
            return
        if is_var(n_rf):
            for extra, S_long in enumerate(_lists_by_length(tail, S, 0)):
                S_done = False if S_long is PAUSE else unify(n_rf, extra + len(items), S_long)
                yield PAUSE if S_done is False else S_done
        elif n_rf >= len(items):
            check_list_size(("lengtho", xs, n_rf), n_rf)
            fresh = yield from _fresh(n_rf - len(items))
            S_done = unify(tail, fresh, S)
            if S_done is not False:
                yield S_done

    return lengtho_goal


def select_loop(x: Any, xs: Any, ys: Any) -> GoalType:
    """The goal of select/3's clauses (`lists.selecto`): one answer per position, in order,
    when xs or ys is a proper list; with both open, the clauses' own rounds (`_select_open`)."""

    def selecto_goal(S):
        x_items, x_tail = spine(xs, S)
        if not is_open(x_tail):  # a proper list, or one ending in a non-list: its cells
            return _taken_out(x, ys, S, x_items, x_tail, False)
        y_items, y_tail = spine(ys, S)
        if not is_open(y_tail):
            return _put_in(x, xs, S, y_items, y_tail, False)
        return _select_open(x, xs, ys, S)

    return selecto_goal


def _taken_out(x: Any, rest: Any, S: Any, items: list, tail: Any, first: bool) -> Iterator[Any]:
    """The states where x unifies with an element of `items` (a list's cells before `tail`,
    a list or a non-list) and `rest` with the list without it, in order. With `first`
    (rembero's), each after x `neq` the elements before it, and last, for a proper list,
    `rest` the whole list with x `neq` them all."""
    S_before = S
    x_rf = walk(x, S)
    atomic = type(x_rf) in _ATOMIC
    for i, item in enumerate(items):
        if atomic and type(item) in _ATOMIC:  # the test unification makes, and neq's: no binding
            if item != x_rf:
                if i % SCAN == SCAN - 1:
                    yield PAUSE
                continue
            S_hit = S_before
        else:
            S_hit = unify(x, item, S_before)
        if S_hit is not False:
            S_hit = unify(rest, chain(items[:i] + items[i + 1:], tail), S_hit)
        if S_hit is not False:
            yield S_hit
        elif i % SCAN == SCAN - 1:
            yield PAUSE
        if first:
            S_before = post(neq(x, item), S_before)
            if S_before is None:
                return
    if first and _proper(tail):
        S_absent = unify(rest, items, S_before)
        if S_absent is not False:
            yield S_absent


def _put_in(x: Any, whole: Any, S: Any, items: list, tail: Any, first: bool) -> Iterator[Any]:
    """The states where `whole` is the list of `items` (before `tail`) with x put in at
    each place, in order. With `first` (rembero's), each after x `neq` the elements before
    it, and last, for a proper list, `whole` the list itself with x `neq` them all."""
    S_before = S
    for i in range(len(items) + 1):
        S_hit = unify(whole, chain(items[:i] + [x] + items[i:], tail), S_before)
        if S_hit is not False:
            yield S_hit
        elif i % SCAN == SCAN - 1:
            yield PAUSE
        if first and i < len(items):
            S_before = post(neq(x, items[i]), S_before)
            if S_before is None:
                return
    if first and _proper(tail):
        S_absent = unify(whole, items, S_before)
        if S_absent is not False:
            yield S_absent


def _select_open(x: Any, xs: Any, ys: Any, S: Any) -> Iterator[Any]:
    """select/3's two clauses run round by round, for lists neither of which is proper: at
    each cell, xs = [x|T] with ys = T, then xs = [H|T], ys = [H|R] and on with T and R."""
    return _found(_select_open_attempts(x, xs, ys, S))


def _select_open_attempts(x: Any, xs: Any, ys: Any, S: Any) -> Iterator[Any]:
    """`_select_open`'s states, False at a cell where x cannot be taken out."""
    while True:
        rest = var()
        S_hit = unify(xs, ConsPair(x, rest), S)
        yield S_hit if S_hit is False else unify(ys, rest, S_hit)
        head, xs_rest, ys_rest = var(), var(), var()
        S = unify(xs, ConsPair(head, xs_rest), S)
        if S is not False:
            S = unify(ys, ConsPair(head, ys_rest), S)
        if S is False:
            return
        xs, ys = xs_rest, ys_rest


def rember_loop(x: Any, xs: Any, ys: Any) -> GoalType:
    """The goal of the clauses of `lists.rembero` when xs or ys is a proper list: one answer
    per position x unifies with, in order, each after `neq`s from the elements before it,
    then xs unchanged with x `neq` every element. `rember_runs_clauses` says when not."""

    def rembero_goal(S):
        x_items, x_tail = spine(xs, S)
        if not is_open(x_tail):  # a proper list, or one ending in a non-list: its cells
            return _taken_out(x, ys, S, x_items, x_tail, True)
        return _put_in(x, xs, S, *spine(ys, S), True)

    return rembero_goal


def rember_runs_clauses(S: Any, x: Any, xs: Any, ys: Any) -> bool:
    """True when neither xs nor ys is a proper list or ends in one, or one is cyclic:
    `rembero`'s clauses run then (an endless enumeration, whose order depends on the
    search's; a cyclic list, which they go round)."""
    try:
        return is_open(spine(xs, S)[1]) and is_open(spine(ys, S)[1])
    except CyclicList:
        return True


def _match_all(S: Any, pool: list, targets: list) -> Iterator[Any]:
    """States unifying each target with a distinct pool element (as many as targets).

    Depth-first over choices in pool order, with an explicit stack: permutations of long
    lists never cost recursion depth.
    """
    frames = [[S, pool, 0]]
    tries = 0
    while frames:
        tries += 1
        if tries == SCAN:
            tries = 0
            yield PAUSE
        frame = frames[-1]
        S_k, pool_k, start = frame
        if len(frames) - 1 == len(targets):
            frames.pop()
            yield S_k
            continue
        target = targets[len(frames) - 1]
        for i in range(start, len(pool_k)):
            S_next = unify(target, pool_k[i], S_k)
            if S_next is not False:
                frame[2] = i + 1
                frames.append([S_next, pool_k[:i] + pool_k[i + 1:], 0])
                break
        else:
            frames.pop()


@named
def permuteo(xs: Any, ys: Any) -> GoalType:
    """permuteo(?xs, ?ys): True iff list ys is a permutation of list xs.

    Terminates when xs or ys is a proper list (n! answers at most, in lexicographic order
    of positions; once when both are ground, checked by counting in O(n)); with both open
    it enumerates lengths 0, 1, 2, ... like Prolog's permutation/2.

    >>> from logicpy.core import run, var
    >>> xs = var()
    >>> run(0, xs, permuteo(xs, [1, 2, 3]))
    ([1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1])
    """
    check_list_argument("permuteo", "xs", xs)
    check_list_argument("permuteo", "ys", ys)

    def same_length(S, items, other):
        """Bind `other` to a list as long as `items`; then match its elements to items."""
        S_sized = unify(other, vars(len(items)), S) if is_open(spine(other, S)[1]) else S
        if S_sized is False:
            return
        other_items, other_tail = spine(other, S_sized)
        if not _proper(other_tail) or len(other_items) != len(items):
            return
        items_rf = reify_dict(items, bindings(S_sized))
        other_rf = reify_dict(other_items, bindings(S_sized))
        if _ground(items_rf) and _ground(other_rf):
            if _counts(items_rf) == _counts(other_rf):
                yield S_sized
            return
        yield from _match_all(S_sized, items, other_items)

    def permuteo_goal(S):
        x_items, x_tail = spine(xs, S)
        y_items, y_tail = spine(ys, S)
        if _proper(x_tail):
            yield from same_length(S, x_items, ys)
        elif _proper(y_tail):
            yield from same_length(S, y_items, xs)
        elif is_open(x_tail) and is_open(y_tail):
            for S_long in _lists_by_length(x_tail, S, max(0, len(y_items) - len(x_items))):
                yield PAUSE
                if S_long is not PAUSE:
                    yield from same_length(S_long, spine(xs, S_long)[0], ys)

    return permuteo_goal


def _counts(items: list) -> dict:
    """How often each element of the reified, ground `items` occurs, keyed by its hashable form."""
    tally: dict = {}
    for item in items:
        key = hashable_key(item)
        tally[key] = tally.get(key, 0) + 1
    return tally


@named
def distincto(xs: Any) -> GoalType:
    """distincto(+xs): True iff the elements of the proper list xs are pairwise different.

    Posts kanren `neq` constraints between every pair not yet decided, so they compose
    with later unifications; all-ground lists are checked by hashing in O(n). Raises
    ModeError on a partial list (its unknown elements cannot be constrained).

    >>> from logicpy.core import run, var, membero
    >>> q = var()
    >>> run(0, q, distincto([1, q]), membero(q, [1, 2, 3]))
    (2, 3)
    """
    check_list_argument("distincto", "xs", xs)

    def distincto_goal(S):
        items, tail = spine(xs, S)
        if is_open(tail):
            raise ModeError(f"distincto needs a proper list, got a partial list ending in the unbound {shown(tail)}")
        if not _proper(tail):
            return
        items_rf = reify_dict(items, bindings(S))
        ground = [_ground(item) for item in items_rf]
        if all(ground):
            if len({hashable_key(item) for item in items_rf}) == len(items_rf):
                yield S
            return
        pairs = 0
        for i, a in enumerate(items_rf):
            for j in range(i + 1, len(items_rf)):
                pairs += 1
                if pairs == SCAN:  # n * (n - 1) / 2 pairs: the search's turn after each SCAN of them
                    pairs = 0
                    yield PAUSE
                if ground[i] and ground[j]:
                    if hashable_key(a) == hashable_key(items_rf[j]):
                        return
                    continue
                S = post(neq(a, items_rf[j]), S)
                if S is None:
                    return
        yield S

    return distincto_goal


@named
def nth1o(n: Any, xs: Any, x: Any) -> GoalType:
    """nth1o(?n, ?xs, ?x): True iff x is the n-th element of list xs, counting from 1 (nth1/3).

    Terminates when xs is a proper list or n is an integer; O(n) to reach the element.
    Otherwise it goes on to extend the list without end.

    >>> from logicpy.core import run, var
    >>> n = var()
    >>> run(0, n, nth1o(n, ["a", "b", "a"], "a"))
    (1, 3)
    """
    check_list_argument("nth1o", "xs", xs)

    def nth1o_goal(S):
        items, tail = spine(xs, S)
        n_rf = walk(n, S)
        if is_var(n_rf):
            for i, item in enumerate(items):
                S_hit = unify((n_rf, x), (i + 1, item), S)
                if S_hit is not False:
                    yield S_hit
                elif i % SCAN == SCAN - 1:
                    yield PAUSE
            if is_open(tail):
                for i, (S_grown, window) in enumerate(_grow(items, tail, S, 1), len(items)):
                    S_hit = unify((n_rf, x), (i + 1, window[0]), S_grown)
                    yield PAUSE if S_hit is False else S_hit
            return
        if type(n_rf) is not int:
            raise TermError(f"nth1o: the index must be an integer or a variable, got {shown(n_rf)}")
        if 1 <= n_rf <= len(items):
            S_hit = unify(x, items[n_rf - 1], S)
        elif n_rf > len(items) and is_open(tail):
            check_list_size(("nth1o", n_rf, xs, x), n_rf)
            fresh = yield from _fresh(n_rf - len(items))
            S_hit = unify(tail, chain(fresh, var()), S)
            S_hit = S_hit if S_hit is False else unify(x, fresh[-1], S_hit)
        else:
            S_hit = False
        if S_hit is not False:
            yield S_hit

    return nth1o_goal


def nextto_loop(x: Any, y: Any, xs: Any) -> GoalType:
    """The goal of nextto/3's clauses (`lists.adjacento`): one answer per position, in
    order; O(len(xs)) on a proper list, endless on a partial one."""
    x_record = _Record(x) if x.__class__ is tuple else None  # record patterns, prepared once
    y_record = _Record(y) if y.__class__ is tuple else None

    def adjacento_goal(S):
        items, tail = (xs, EMPTY) if xs.__class__ is list else spine(xs, S)
        if tail.__class__ is not list or len(items) > SCAN:
            return scan(S, items, tail)
        return tuple(hits(S, items, 0, len(items) - 1))  # a short proper list: every answer now

    def hits(S, items, lo, hi):
        """The states where (x, y) unifies with (items[i], items[i + 1]), lo <= i < hi, in order."""
        s = _bindings_of(S)
        if s is None:
            pair = (x, y)
            return [S_hit for S_hit in (unify(pair, (items[i], items[i + 1]), S) for i in range(lo, hi))
                    if S_hit is not False]
        x_rf = x if x.__class__ is tuple else walk(x, s)
        y_rf = y if y.__class__ is tuple else walk(y, s)
        x_rec, y_rec = _record_of(x_rf, x_record), _record_of(y_rf, y_record)
        y_atom = type(y_rf) in _ATOMIC
        found = []
        get = s.get
        for i in range(lo, hi):
            after = items[i + 1]
            if y_rec is not None and not _may_fit(y_rec, after, get):
                continue  # before binding anything for x
            if y_atom and type(after) in _ATOMIC and after != y_rf:
                continue  # the same test unification makes, before binding anything for x
            m = _fit(x_rec, items[i], s, None) if x_rec is not None else unify_mutation(x_rf, items[i], s.mutate())
            if m is not False:
                m = _fit(y_rec, after, s, m) if y_rec is not None else unify_mutation(y_rf, after, s.mutate() if m is None else m)
                if m is not False:
                    found.append(s if m is None else m.finish())
        return _as_state(found, S)

    def scan(S, items, tail):
        last = len(items) - 1
        for lo in range(0, last, SCAN):
            if lo:
                yield PAUSE
            yield from hits(S, items, lo, min(lo + SCAN, last))
        if is_open(tail):
            pair = (x, y)
            yield from _found(unify(pair, tuple(window), S_grown) for S_grown, window in _grow(items, tail, S, 2))

    return adjacento_goal
