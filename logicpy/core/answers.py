"""Answers as a logic programmer reads them: Prolog syntax, `_0, _1` per answer, constraints shown.

`run` keeps Python values for programs. `answers(n, term, *goals)` runs the same query
(the same search, `n` and `timeout=` meaning what they mean to `run`) and gives each
answer both ways: `Answer.value` (the Python value) and its text in
miniKanren's form, the reified term then the constraints still pending on it:
`[1|_0] :- dif(_0,2)`. Unbound variables are named `_0, _1, …` in order of appearance,
afresh in every answer; lists, partial lists and compounds are written in Prolog syntax;
the constraints are `logicpy.core.residual`'s canonical ones (disequalities, finite
domains, FD constraints pending between unlabelled variables), with a linear constraint
between two variables written as clpfd shows it (`_0 #< _1` for the canonical
`_0-_1 #=< -1`). `show(value)` writes one reified value the same way.

A tuple of values that is not a compound (run's `(x, y)`) is written as a list, and a value
that is not a Prolog term (a puzzle's `Date`, say) as its Python repr.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, overload

from cons.core import ConsPair  # type: ignore[import-untyped]
from kanren.constraints import ConstrainedState  # type: ignore[import-untyped]
from kanren.core import GoalType  # type: ignore[import-untyped]
from unification import Var, reify  # type: ignore[import-untyped]

from ..errors import TermError
from .residual import Residual, format_constraint, reify_with_constraints
from .streams import query_states, show_goals_with, take_answers
from .terms import String, Term, check_term, cons, format_term, var

__all__ = ["Answer", "Answers", "answers", "answers_of_states", "answer_in", "answer_of", "show",
           "readable_constraint"]


@dataclass(frozen=True)
class Answer:
    """One answer: `value` (the reified Python value) and its text, `term :- constraints`.

    `term_text` is the value in Prolog syntax, `constraints` the readable texts of the
    constraints pending on it, `names` the display name of each unbound variable of
    `value` (`_0`, `_1`, …; a non-term part by its repr), `residual` the canonical reading
    it comes from (`residual.term` is the value as shown).
    """

    value: Term
    term_text: str
    constraints: tuple[str, ...]
    names: Mapping[Var, str]
    residual: Residual
    opaque: Mapping[Var, Any] = field(default_factory=dict)
    """The parts of `value` that are not Prolog terms, by the variable standing for each in
    `residual.term` (its display name is the part's repr)."""

    @property
    def text(self) -> str:
        """`term :- c1, c2` (miniKanren's answer with its constraints), or the term alone."""
        return self.term_text + (" :- " + ", ".join(self.constraints) if self.constraints else "")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


class Answers(tuple):
    """The answers of one query, in order; shown one per line, and as an HTML table in a notebook."""

    @property
    def values(self) -> tuple[Term, ...]:
        """The Python values, as `run` gives them."""
        return tuple(a.value for a in self)

    def __repr__(self) -> str:
        if not self:
            return "no answers"
        return "\n".join(a.text for a in self)

    #: Rows a notebook shows before "… and N more" (as pandas caps a long frame).
    SHOWN = 50

    def _repr_html_(self) -> str:
        if not self:
            return "<p><em>no answers</em></p>"
        rows = "".join(
            f"<tr><td>{i}</td><td style='text-align:left'><code>{html.escape(a.term_text)}</code></td>"
            f"<td style='text-align:left'>{'<br>'.join(f'<code>{html.escape(c)}</code>' for c in a.constraints)}</td></tr>"
            for i, a in enumerate(self[:self.SHOWN], 1))
        more = len(self) - self.SHOWN
        tail = f"<p><em>… and {more:,} more ({len(self):,} answers)</em></p>" if more > 0 else ""
        return ("<table><thead><tr><th>#</th><th style='text-align:left'>answer</th>"
                f"<th style='text-align:left'>constraints</th></tr></thead><tbody>{rows}</tbody></table>{tail}")


@overload
def answers(n: None, term: Term, *goals: GoalType, timeout: float | None = None) -> Iterator[Answer]: ...


@overload
def answers(n: int, term: Term, *goals: GoalType, timeout: float | None = None) -> Answers: ...


def answers(n: int | None, term: Term, *goals: GoalType, timeout: float | None = None) -> Answers | Iterator[Answer]:
    """The first `n` answers of `goals` for `term`, each an `Answer`, as `run` gives values:
    all of them for n = 0, a lazy iterator for None. `timeout` (seconds) stops the search
    with `SearchTimeout`, whose `answers` are the `Answer`s found before it.

    >>> from logicpy.core import appendo, neq, var
    >>> x, y = var(), var()
    >>> answers(0, y, appendo([1], x, y), neq(x, [2]))
    [1|_0] :- dif(_0,[2])
    """
    found = take_answers("answers", n, answers_of_states(term, query_states("answers", n, goals, timeout)), timeout)
    return found if n is None else Answers(found)


def answers_of_states(term: Term, states: Iterable[Any], n: int | None = None) -> Iterator[Answer]:
    """Lazily, an `Answer` for `term` in each of `states` (the first `n`)."""
    for state in states if n is None else islice(states, n):
        yield answer_in(term, state)


def answer_in(term: Term, state: Any, names: Mapping[Var, str] | None = None) -> Answer:
    """`term` under `state` as an `Answer`; `names` fixes the display names of some variables
    of the reified term (a toplevel's query variables), the others are numbered `_0, _1, …`."""
    data = state.data if isinstance(state, ConstrainedState) else state
    value = reify(term, data)
    shown, opaque = _placeholders(value)
    reprs = {v: repr(obj) for v, obj in opaque.items()}
    answer = answer_of(value, reify_with_constraints(shown, state), {**reprs, **(names or {})})
    return Answer(answer.value, answer.term_text, answer.constraints, answer.names, answer.residual, opaque)


def answer_of(value: Term, residual: Residual, names: Mapping[Var, str] | None = None) -> Answer:
    """The `Answer` of a residual read elsewhere (`residual_from_goals` for Prolog's answers):
    `names` fixes some display names, the other variables are numbered `_0, _1, …`."""
    display: dict[Var, str] = dict(names or {})
    taken = set(display.values())
    k = 0
    for v, _ in sorted(residual.names.items(), key=lambda item: int(item[1][1:])):
        if v not in display:
            while f"_{k}" in taken:
                k += 1
            display[v] = f"_{k}"
            k += 1
    text = format_term(residual.term, display)
    constraints = tuple(readable_constraint(c, display) for c in residual.constraints) + tuple(
        format_term(c, display) for c in residual.foreign)
    return Answer(value, text, constraints, display, residual)


def show(value: Term) -> str:
    """A reified value in Prolog syntax, its variables `_0, _1, …` in order of appearance.

    >>> from logicpy.core import cons, var
    >>> show(cons(1, var()))
    '[1|_0]'
    """
    return answer_in(value, {}).term_text


def readable_constraint(goal: Term, names: Mapping[Var, str]) -> str:
    """A canonical constraint goal as clpfd shows it: `X-Y #=< -1` as `X #< Y`, `X-Y #= 2` as
    `X #= Y+2`; anything else as `format_constraint` writes it."""
    if isinstance(goal, tuple) and len(goal) == 3 and goal[0] in ("#=<", "#=", "#\\=") and isinstance(goal[2], int):
        pair = _difference(goal[1])
        if pair is not None:
            pos, neg = (format_constraint(v, names) for v in pair)
            c = goal[2]
            if goal[0] == "#=<" and c < 0:
                return f"{pos} #< {neg}" + ("" if c == -1 else f"{c + 1:+d}")
            return f"{pos} {goal[0]} {neg}" + ("" if c == 0 else f"{c:+d}")
    return format_constraint(goal, names)


def _difference(expr: Term) -> tuple[Var, Var] | None:
    """(P, N) if `expr` is P-N or -N+P for variables P, N (the canonical forms of a difference)."""
    if isinstance(expr, tuple) and len(expr) == 3:
        if expr[0] == "-" and isinstance(expr[1], Var) and isinstance(expr[2], Var):
            return expr[1], expr[2]
        if (expr[0] == "+" and isinstance(expr[2], Var) and isinstance(expr[1], tuple)
                and len(expr[1]) == 2 and expr[1][0] == "-" and isinstance(expr[1][1], Var)):
            return expr[2], expr[1][1]
    return None


def _placeholders(value: Term) -> tuple[Term, dict[Var, Any]]:
    """`value` with each part that is not a Prolog term replaced by a fresh variable, and
    the part each stands for. A loop (any depth); a list or tuple inside itself is refused."""
    try:
        return check_term(value), {}  # a term throughout (checked without recursion): nothing to replace
    except TermError:
        pass
    names: dict[Var, Any] = {}
    open_ids: set = set()  # the lists and tuples being rebuilt around this place
    root: list = [None]
    stack: list = [(value, root, 0)]
    while stack:
        t, into, slot = stack.pop()
        if t is _BUILD:
            kind, parts, key = into
            open_ids.discard(key)
            target, target_slot = slot
            target[target_slot] = (tuple(parts) if kind is tuple else
                                   cons(parts[0], parts[1]) if kind is ConsPair else parts)
            continue
        if isinstance(t, (Var, bool, str, int, String)):
            into[slot] = t
            continue
        if isinstance(t, list) or (isinstance(t, tuple) and not (t and isinstance(t[0], str))):
            items, kind = list(t), list  # a Python tuple of values (run's `(x, y)`) is written as a list
        elif isinstance(t, tuple):
            items, kind = list(t), tuple
        elif type(t) is ConsPair:
            items, kind = [t.car, t.cdr], ConsPair
        else:
            try:
                into[slot] = check_term(t)
            except TermError:
                v = var()
                names[v] = t
                into[slot] = v
            continue
        key = id(t)
        if key in open_ids:
            raise TermError("term: a list or compound that contains itself is not a term")
        if kind is not ConsPair:
            open_ids.add(key)
        parts = [None] * len(items)
        stack.append((_BUILD, (kind, parts, key if kind is not ConsPair else None), (into, slot)))
        stack.extend((x, parts, i) for i, x in enumerate(items))
    return root[0], names


_BUILD = object()
"""A marker on `_placeholders`'s stack: the parts above it make one term."""

show_goals_with(show)  # goals print as the calls that made them, `appendo([1],_0,_1)`
