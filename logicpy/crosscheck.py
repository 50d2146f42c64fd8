"""Cross-check a logicpy relation against a Prolog predicate: which answers only one side gives.

Both sides solve the same goal, `name(arg, ...)`: SWI-Prolog runs it in the consulted
file's module, and the Python relation is called with the same arguments as logicpy
terms (Prolog variables become fresh logic variables, shared between occurrences). Each
answer is the goal's argument tuple after solving, written in canonical Prolog text
with variables numbered in order of appearance, so answers equal up to renaming of
variables (`_G123` against `~_5`) compare equal. Also the `logicpy crosscheck` command.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from cons.core import ConsPair
from kanren import run
from unification import Var

from logicpy import swi
from logicpy.core.terms import String, Term, format_term, var
from logicpy.errors import InputError, LogicpyError, PrologSyntaxError

__all__ = ["crosscheck", "CrosscheckReport", "CrosscheckTimeout", "resolve_relation", "register"]


class CrosscheckTimeout(LogicpyError, TimeoutError):
    """The logicpy side of a cross-check ran past its time limit."""


@dataclass(frozen=True)
class CrosscheckReport:
    """The outcome of one cross-check: answer counts and the answers only one side gives.

    Answers are canonical Prolog texts of the solved goal (variables `_G0`, `_G1`, ...).
    `limited` is True when a side stopped at `limit` answers: the two sides then
    compare first answers only, so a difference may come from answer order.
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

    @property
    def agree(self) -> bool:
        """True iff both sides give the same set of answers."""
        return not self.only_logicpy and not self.only_prolog

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (`agree` included); `from_json` reads it back."""
        data = asdict(self)
        data["only_logicpy"], data["only_prolog"] = list(self.only_logicpy), list(self.only_prolog)
        return {**data, "agree": self.agree}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CrosscheckReport":
        """The report `to_json` wrote."""
        fields = {k: v for k, v in data.items() if k != "agree"}
        fields["only_logicpy"] = tuple(fields["only_logicpy"])
        fields["only_prolog"] = tuple(fields["only_prolog"])
        return cls(**fields)

    def render_text(self) -> str:
        """A verdict line, then the answers only one side gives."""
        head = f"{self.goal}: {self.prolog_file} against {self.relation}"
        if self.agree:
            lines = [head, f"agree on {self.common} answer{'s' if self.common != 1 else ''}"]
        else:
            lines = [head, f"differ: {self.common} answers in common, "
                           f"{len(self.only_logicpy)} only from logicpy, {len(self.only_prolog)} only from Prolog"]
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
    `limit` caps the answers taken from each side (needed for infinite relations);
    `timeout` bounds each side in seconds (`PrologTimeout`, `CrosscheckTimeout`).
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

    prolog = [_solved(term, answer) for answer in module.query(term, limit=limit, timeout=timeout)]
    with _time_limit(timeout, goal_text):
        found = run(None, tuple(args), relation(*args))
        logicpy = [_solved_args(term, answer) for _, answer in zip(_counter(limit, timeout, goal_text), found)]

    prolog_set, logicpy_set = set(prolog), set(logicpy)
    return CrosscheckReport(
        goal=goal_text,
        prolog_file=str(module.path),
        relation=relation_name,
        logicpy_answers=len(logicpy),
        prolog_answers=len(prolog),
        common=len(prolog_set & logicpy_set),
        only_logicpy=tuple(a for a in dict.fromkeys(logicpy) if a not in prolog_set),
        only_prolog=tuple(a for a in dict.fromkeys(prolog) if a not in logicpy_set),
        limit=limit,
        limited=limit is not None and limit in (len(prolog), len(logicpy)),
    )


def _check_arity(relation: Callable[..., Any], name: str, args: tuple, goal_text: str) -> None:
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
        [answer] = module.query(("term_string", t, String(text)))
    except PrologSyntaxError as exc:
        raise InputError(f"goal {text!r}: {exc.term[1][1].replace('_', ' ')} "
                         f"(a Prolog syntax error) near character {exc.term[2][2]}") from None
    term = answer[t]
    if isinstance(term, Var) or not isinstance(term, (str, tuple)):
        raise InputError(f"goal {text!r}: expected a callable term like append(X, Y, [1,2,3])")
    return term


def _substitute(term: Term, bindings: dict[Var, Term]) -> Term:
    """`term` with the variables bound in `bindings` replaced (Prolog answers are fully dereferenced)."""
    if isinstance(term, Var):
        return bindings.get(term, term)
    if isinstance(term, list):
        return [_substitute(x, bindings) for x in term]
    if isinstance(term, tuple):
        return (term[0], *(_substitute(x, bindings) for x in term[1:]))
    if type(term) is ConsPair:
        return ConsPair(_substitute(term.car, bindings), _substitute(term.cdr, bindings))
    return term


def _solved(goal: Term, answer: dict[Var, Term]) -> str:
    """One Prolog answer as the canonical text of the solved goal."""
    return format_term(_substitute(goal, answer), numbered=True)


def _solved_args(goal: Term, args: tuple) -> str:
    """One logicpy answer (the reified argument tuple) as the canonical text of the solved goal."""
    return format_term((goal[0], *args) if isinstance(goal, tuple) else goal, numbered=True)


def _counter(limit: int | None, timeout: float | None, goal_text: str) -> Iterator[int]:
    """Count answers up to `limit`, checking the deadline between answers."""
    deadline = None if timeout is None else time.monotonic() + timeout
    n = 0
    while limit is None or n < limit:
        if deadline is not None and time.monotonic() > deadline:
            raise CrosscheckTimeout(f"the logicpy side of {goal_text} ran past its time limit of {timeout} s")
        yield n
        n += 1


@contextmanager
def _time_limit(seconds: float | None, goal_text: str) -> Iterator[None]:
    """Interrupt a long Python computation with SIGALRM (main thread only; else between answers)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise CrosscheckTimeout(f"the logicpy side of {goal_text} ran past its time limit of {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- command line

EXAMPLE = """example:
  logicpy crosscheck prolog/lists.pl 'append(X, Y, [1,2,3])' --against logicpy.core.lists:appendo
  logicpy crosscheck prolog/lists.pl 'length(L, N)' --against logicpy.core.lists:lengtho --limit 6

exit status: 0 when both sides agree, 1 when they differ, 2 on bad input."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `crosscheck` subcommand."""
    parser = subparsers.add_parser(
        "crosscheck",
        help="compare a logicpy relation with a Prolog predicate",
        description="Solve GOAL with SWI-Prolog (in FILE.pl) and with a Python relation; "
                    "print 'agree on N answers' or the answers only one side gives.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE.pl", help="the Prolog file to consult (into its own module)")
    parser.add_argument("goal", metavar="GOAL", help="a Prolog goal, e.g. 'append(X, Y, [1,2,3])'")
    parser.add_argument("--against", metavar="MODULE:RELATION", required=True,
                        help="the Python relation called with GOAL's arguments "
                             "(MODULE is imported from the current directory or the installed packages)")
    parser.add_argument("--limit", type=int, metavar="N", help="take at most N answers from each side")
    parser.add_argument("--timeout", type=float, metavar="S", help="time limit in seconds for each side")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit {args.limit}: must be a positive integer")
    if os.getcwd() not in sys.path:  # MODULE is found from the current directory, as with `python -m`
        sys.path.insert(0, os.getcwd())
    report = crosscheck(args.against, args.file, args.goal, limit=args.limit, timeout=args.timeout)
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print(report.render_text())
    return 0 if report.agree else 1
