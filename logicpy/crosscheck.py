"""Cross-check a logicpy relation against a Prolog predicate: which answers only one side gives.

Both sides solve the same goal, `name(arg, ...)`: SWI-Prolog runs it in the consulted
file's module, and the Python relation is called with the same arguments as logicpy
terms (Prolog variables become fresh logic variables, shared between occurrences). Each
answer is the solved goal with the constraints still pending on it (Prolog's residual
goals; logicpy's disequalities and finite domains), both in the canonical form of
`logicpy.core.residual`: variables `_0, _1, …` in order of appearance, so answers equal
up to renaming (`_G123` against `~_5`) compare equal, and `dif(X, 1)` matches `neq(x, 1)`.
Also the `logicpy crosscheck` command.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator

from cons.core import ConsPair  # type: ignore[import-untyped]
from unification import Var  # type: ignore[import-untyped]

from logicpy import swi
from logicpy.alarm import TimeUp, time_limit
from logicpy.cli_contract import EXIT, emit
from logicpy.core.residual import Residual, answers_with_constraints, residual_from_goals
from logicpy.core.terms import String, Term, cons, format_term, var
from logicpy.errors import InputError, PrologError, PrologSyntaxError, PrologTimeout
from .core.terms import is_var

__all__ = ["crosscheck", "CrosscheckReport", "EXIT_STATUS", "resolve_relation", "register"]

STATUS = {"agree": "ok", "differ": "none", "cannot compare": "undecided", "timeout": "timeout"}
"""The command's status for each verdict (`logicpy.cli_contract`)."""

EXIT_STATUS = {verdict: EXIT[status] for verdict, status in STATUS.items()}
"""The command's exit status for each verdict (2 is bad input, as for every command)."""

LIMIT_HINT = "the goal may have infinitely many answers: pass --limit N (limit=N) to compare the first N"

EXTRA_ANSWERS = 20
"""Without a limit, the logicpy side stops this many different answers past Prolog's count
(the answers then differ for certain; an endless relation would never end)."""


class _LogicpyExpired(Exception):
    """The logicpy side ran past its time limit between answers (`crosscheck` turns it, and
    `TimeUp` within an answer, into the verdict "timeout")."""


@dataclass(frozen=True)
class CrosscheckReport:
    """The outcome of one cross-check: answer counts, the answers only one side gives, a verdict.

    Answers are canonical texts of the solved goal with its residual constraints
    (`f(_0) :- dif(_0,1)`). `verdict` is "agree" (the same set of answers), "differ",
    "cannot compare" (the answers differ, and one of those differing holds a constraint
    with no form common to both sides, such as `freeze/2` or a custom propagator:
    `reason` names it) or "timeout" (`reason` says which side ran past `timeout`).
    `limited` is True when a side stopped at `limit` answers: the two sides then
    compare first answers only, so a difference may come from answer order. Without a
    limit, a logicpy side giving `EXTRA_ANSWERS` more different answers than Prolog stops
    there ("differ", with `reason` saying so).
    """

    goal: str
    prolog_file: str
    relation: str
    logicpy_answers: int
    prolog_answers: int
    common: int
    only_logicpy: tuple[str, ...]
    only_prolog: tuple[str, ...]
    limit: int | None
    limited: bool
    verdict: str = "agree"
    reason: str = ""

    @property
    def agree(self) -> bool:
        """True iff both sides give the same set of answers, constraints included."""
        return self.verdict == "agree"

    @property
    def exit_status(self) -> int:
        """0 agree, 1 differ, 3 cannot compare, 4 timeout (2 is bad input)."""
        return EXIT_STATUS[self.verdict]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (`agree` included); `from_json` reads it back."""
        data = asdict(self)
        data["only_logicpy"], data["only_prolog"] = list(self.only_logicpy), list(self.only_prolog)
        return {**data, "agree": self.agree}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CrosscheckReport":
        """The report `to_json` wrote (also inside the `--json` line of `logicpy crosscheck`)."""
        fields = {k: v for k, v in data.items() if k not in ("agree", "status", "command")}
        fields.setdefault("verdict", "agree" if data.get("agree") else "differ")  # written before verdicts
        fields["only_logicpy"] = tuple(fields["only_logicpy"])
        fields["only_prolog"] = tuple(fields["only_prolog"])
        return cls(**fields)

    def render_text(self) -> str:
        """A verdict line, then the answers only one side gives."""
        lines = [f"{self.goal}: {self.prolog_file} against {self.relation}"]
        if self.verdict == "timeout":
            lines.append(f"inconclusive: {self.reason}")
        elif self.agree:
            lines.append(f"agree on {self.common} answer{'s' if self.common != 1 else ''}")
        else:
            counts = (f"{self.common} answers in common, "
                      f"{len(self.only_logicpy)} only from logicpy, {len(self.only_prolog)} only from Prolog")
            lines.append(f"cannot compare: {self.reason} ({counts})" if self.verdict == "cannot compare"
                         else f"differ: {counts}" + (f" ({self.reason})" if self.reason else ""))
            for side, answers in (("logicpy", self.only_logicpy), ("Prolog", self.only_prolog)):
                if answers:
                    lines.append(f"only {side} ({len(answers)}):")
                    lines.extend(f"  {a}" for a in answers)
        if self.logicpy_answers != self.prolog_answers and self.agree:
            lines.append(f"(with repeats: logicpy gave {self.logicpy_answers} answers, Prolog {self.prolog_answers})")
        if self.limited:
            lines.append(f"(first {self.limit} answers of each side compared)")
        return "\n".join(lines)


def resolve_relation(spec: str) -> Callable[..., Any]:
    """The Python relation named `MODULE:NAME` (e.g. `logicpy.core.lists:appendo`)."""
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise InputError(f"--against {spec!r}: expected MODULE:RELATION, e.g. logicpy.core.lists:appendo")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(f"--against {spec!r}: cannot import module {module_name!r} ({exc})") from None
    relation = getattr(module, name, None)
    if not callable(relation):
        raise InputError(f"--against {spec!r}: module {module_name} has no relation {name!r}")
    return relation


def crosscheck(
    relation: Callable[..., Any] | str,
    prolog_file: str | Path | swi.PrologModule,
    goal: str | Term,
    *,
    limit: int | None = None,
    timeout: float | None = None,
) -> CrosscheckReport:
    """Solve `goal` with SWI-Prolog (in `prolog_file`) and with `relation`; report the differences.

    `goal` is Prolog text such as `"append(X, Y, [1,2,3])"` or a logicpy term; the
    relation (a callable, or `"module:name"`) is called with the goal's arguments.
    Answers are compared with their residual constraints. `limit` caps the answers taken
    from each side (needed for infinite relations: without it, running out of memory
    raises `InputError` suggesting it); `timeout` bounds each side in seconds, a side
    running past it gives the verdict "timeout".
    For example `crosscheck(appendo, "prolog/lists.pl", "append(X, Y, [1, 2])")` reports
    3 common answers and none only one side gives.
    """
    relation_name = relation if isinstance(relation, str) else _qualified_name(relation)
    if isinstance(relation, str):
        relation = resolve_relation(relation)
    module = prolog_file if isinstance(prolog_file, swi.PrologModule) else swi.consult(prolog_file)
    term = _read_goal(goal, module) if isinstance(goal, str) else goal
    args = term[1:] if isinstance(term, tuple) else ()
    goal_text = goal if isinstance(goal, str) else format_term(goal)
    _check_arity(relation, relation_name, args, goal_text)
    report = partial(CrosscheckReport, goal_text, str(module.path), relation_name)

    try:
        answers = module.query(term, limit=limit, timeout=timeout)
    except PrologTimeout:
        return report(0, 0, 0, (), (), limit, False, "timeout",
                      f"the Prolog side ran past the time limit of {timeout} s")
    except PrologError as exc:
        if limit is None and _out_of_resources(exc):
            raise InputError(f"{goal_text}: Prolog ran out of stack collecting every answer; {LIMIT_HINT}") from None
        raise
    prolog = [residual_from_goals(_substitute(term, answer), residual)
              for answer, residual in zip(answers, answers.residual)]
    prolog_texts = {a.text: a for a in prolog}
    logicpy: list[Residual] = []
    logicpy_texts: dict[str, Residual] = {}
    # Without a limit, more different answers than Prolog's (and EXTRA_ANSWERS to show) settle it.
    most = None if limit is not None else len(prolog_texts) + EXTRA_ANSWERS
    try:
        with time_limit(timeout):
            for _, answer in zip(_counter(limit, timeout), answers_with_constraints(term, relation(*args))):
                logicpy.append(answer)
                logicpy_texts.setdefault(answer.text, answer)
                if most is not None and len(logicpy_texts) > most:
                    break
    except (_LogicpyExpired, TimeUp):
        return report(len(logicpy), len(prolog), 0, (), (), limit, False, "timeout",
                      f"the logicpy side ran past the time limit of {timeout} s "
                      f"(after {len(logicpy)} answers; Prolog gave {len(prolog)})")
    except (RecursionError, MemoryError) as exc:
        if limit is None:
            raise InputError(f"{goal_text}: the logicpy side ran out of "
                             f"{'stack' if isinstance(exc, RecursionError) else 'memory'}; {LIMIT_HINT}") from None
        raise

    only_logicpy = [a for t, a in logicpy_texts.items() if t not in prolog_texts]
    only_prolog = [a for t, a in prolog_texts.items() if t not in logicpy_texts]
    verdict, reason = "agree", ""
    if only_logicpy or only_prolog:
        verdict = "differ"
        if most is not None and len(logicpy_texts) > most:
            reason = (f"logicpy stopped after {len(logicpy_texts)} different answers, more than Prolog's "
                      f"{len(prolog_texts)}; {LIMIT_HINT}")
        for side, answer in [("logicpy", a) for a in only_logicpy] + [("Prolog", a) for a in only_prolog]:
            if answer.foreign:
                verdict = "cannot compare"
                reason = (f"a {side} answer holds {format_term(answer.foreign[0], dict(answer.names))}, "
                          f"a constraint the other side has no form for")
                break
    return report(
        len(logicpy), len(prolog), len(prolog_texts.keys() & logicpy_texts.keys()),
        tuple(a.text for a in only_logicpy), tuple(a.text for a in only_prolog),
        limit, limit is not None and limit in (len(prolog), len(logicpy)), verdict, reason,
    )


def _out_of_resources(exc: PrologError) -> bool:
    """True iff `exc` is Prolog's resource error (its stack or memory ran out)."""
    term = exc.term
    if isinstance(term, str):  # an error term that could not cross the bridge: read its text
        return term.startswith("error(resource_error(")
    return (isinstance(term, tuple) and len(term) == 3 and term[0] == "error"
            and isinstance(term[1], tuple) and term[1][0] == "resource_error")


def _check_arity(relation: Callable[..., Any], name: str, args: tuple[Term, ...], goal_text: str) -> None:
    try:
        inspect.signature(relation).bind(*args)
    except TypeError:
        raise InputError(f"{name} cannot be called with the {len(args)} arguments of {goal_text}") from None
    except ValueError:  # no signature to check (a builtin): let the call decide
        pass


def _qualified_name(relation: Callable[..., Any]) -> str:
    return f"{getattr(relation, '__module__', '?')}:{getattr(relation, '__qualname__', repr(relation))}"


def _read_goal(text: str, module: swi.PrologModule) -> Term:
    """The goal text as a logicpy term, read by Prolog in the file's module (its operators)."""
    t = var("goal")
    try:
        [answer] = module.query(("term_string", t, String(text), [("module", module.name)]))
    except PrologSyntaxError as exc:
        raise InputError(f"goal {text!r}: {_syntax_error_text(exc.term)} (a Prolog syntax error)") from None
    term = answer[t]
    if is_var(term) or not isinstance(term, (str, tuple)):
        raise InputError(f"goal {text!r}: expected a callable term like append(X, Y, [1,2,3])")
    return term


def _syntax_error_text(term: object) -> str:
    """What error(syntax_error(What), string(Text, Position)) says, e.g. "operator expected near character 8"."""
    if isinstance(term, tuple) and len(term) == 3 and isinstance(term[1], tuple) and len(term[1]) == 2:
        what = str(term[1][1]).replace("_", " ")
        context = term[2]
        if isinstance(context, tuple) and len(context) == 3 and context[0] == "string":
            return f"{what} near character {context[2]}"
        return what
    return str(term)


def _substitute(term: Term, bindings: dict[Var, Term]) -> Term:
    """`term` with the variables bound in `bindings` replaced (Prolog answers are fully dereferenced)."""
    if is_var(term):
        return bindings.get(term, term)
    if isinstance(term, list):
        return [_substitute(x, bindings) for x in term]
    if isinstance(term, tuple):
        return (term[0], *(_substitute(x, bindings) for x in term[1:]))
    if type(term) is ConsPair:
        return cons(_substitute(term.car, bindings), _substitute(term.cdr, bindings))  # a tuple tail stays a tail
    return term


def _counter(limit: int | None, timeout: float | None) -> Iterator[int]:
    """Count answers up to `limit`, checking the deadline between answers."""
    deadline = None if timeout is None else time.monotonic() + timeout
    n = 0
    while limit is None or n < limit:
        if deadline is not None and time.monotonic() > deadline:
            raise _LogicpyExpired
        yield n
        n += 1


# ---------------------------------------------------------------- command line

EXAMPLE = """example:
  logicpy crosscheck lists 'append(X, Y, [1,2,3])' --against logicpy.core.lists:appendo
  logicpy crosscheck lists 'length(L, N)' --against logicpy.core.lists:lengtho --limit 6
  logicpy crosscheck constraints 'neq(X, 1)' --against logicpy.core:neq

Answers are compared with the constraints pending on them (dif/2, clpfd domains and
linear constraints), both sides in one canonical form. The verdicts: agree (ok), differ
(none), cannot compare (undecided: an answer that differs holds a constraint one side
cannot express), timeout; an endless goal without --limit is an error."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `crosscheck` subcommand."""
    parser = subparsers.add_parser(
        "crosscheck",
        help="compare a logicpy relation with a Prolog predicate",
        description="Solve GOAL with SWI-Prolog (in FILE.pl) and with a Python relation; "
                    "print 'agree on N answers' or the answers only one side gives, "
                    "each with the constraints pending on it.",
        epilog=EXAMPLE,
    )
    parser.add_argument("file", metavar="FILE.pl", help="the Prolog file to consult (into its own module); or a shipped one by name, "
                             "e.g. lists (`logicpy files` lists them)")
    parser.add_argument("goal", metavar="GOAL", help="a Prolog goal, e.g. 'append(X, Y, [1,2,3])'")
    parser.add_argument("--against", metavar="MODULE:RELATION", required=True,
                        help="the Python relation called with GOAL's arguments "
                             "(MODULE is imported from the current directory or the installed packages)")
    parser.add_argument("--limit", type=int, metavar="N", help="take at most N answers from each side")
    parser.add_argument("--timeout", type=float, metavar="S", help="time limit in seconds for each side")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit {args.limit}: must be a positive integer")
    if os.getcwd() not in sys.path:  # MODULE is found from the current directory, as with `python -m`
        sys.path.insert(0, os.getcwd())
    report = crosscheck(args.against, args.file, args.goal, limit=args.limit, timeout=args.timeout)
    if args.json:
        return emit(args, STATUS[report.verdict], report.to_json())
    print(report.render_text())
    return report.exit_status
