"""`logicpy repl`: a toplevel like SWI-Prolog's over logicpy relations.

Each query is read in Prolog syntax (`reader.read_query`), made a goal of logicpy's search
(`goals.translate`) and run lazily; an answer is printed as SWI-Prolog's toplevel prints it
(`answer_text`): the bindings of the variables the user named, written by the one writer
(`builtins.write_text`, operators in place), then the constraints still pending, e.g.
`X = [1|_A], Y = _A` or `X in 1..3, X #< Y, Y in 2..sup`. The search is asked for one
answer ahead, so the last answer ends with `.` (`X is 2+3.` prints `X = 5.`), the others
with ` ;`; with none, `false.`. On a terminal the toplevel waits after an answer that is not
known to be the last (`;` the next, Enter stop); piped, it prints every answer (up to
`limit`, where it ends the line with ` .`), one per line.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, TextIO

from immutables import Map
from unification import Var, reify  # type: ignore[import-untyped]

from ..core.answers import Answer, answer_in, answer_of, readable_constraint
from ..core.disequality import disequalities
from ..core.equality import check_acyclic, walk
from ..core.streams import PAUSE, solve
from ..core.terms import Term, check_term, format_term, is_var, to_json, variables_in
from ..errors import LogicpyError, TermError
from .goals import BUILTIN_NAMES, Interrupt, translate  # first: goals loads builtins
from .builtins import occurrences, write_text  # noqa: I001
from .relations import DEFAULT_MODULES, Relations
from .reader import read_query, using

LOOKAHEAD = 0.25
"""Seconds a terminal session searches for the next answer before showing one: found or
none left, it knows whether to wait for ';' (as SWI knows from its choice points)."""

COMMANDS = {
    "help.": "this list",
    "consult('file.pl').": "load a Prolog program into logicpy's engine (also [file].)",
    "[user].": "type clauses (piped: until a line end_of_file.; on a terminal: until Ctrl-D)",
    "swi_consult('file.pl').": "load a Prolog file into SWI-Prolog (through logicpy.swi)",
    "swi: Goal.": "run Goal in SWI-Prolog, in the last file given to swi_consult",
    "crosscheck(Goal).": "run Goal with the logicpy relation and the Prolog predicate of that name; show differences",
    "use_module('pkg.module').": "load the relations of a Python module (its __all__ or public functions)",
    "time(Goal).": "run Goal and report the CPU and wall time",
    "set_prolog_flag(search_order, O).": "prolog (default: depth first, clause order, cut) or interleaved (fair)",
    "halt.": "leave (or Ctrl-D)",
}


class Halt(Exception):
    """`halt.`: the session ends."""


@dataclass
class Toplevel:
    """One session: the loaded relations, the last consulted Prolog file, where output goes."""

    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    limit: int = 1000
    ask: Callable[[], str] | None = None
    """Reads the user's key after an answer (';' next, anything else stop); None: print every answer."""
    relations: Relations = field(default_factory=Relations)
    prolog: Any = None
    errors: int = 0
    failures: int = 0
    """Queries that had no answer."""
    interrupted: bool = False
    """A query was stopped by Ctrl-C."""
    json: bool = False
    """Print one JSON line per query (`status` ok/none/error and `command` "repl", as every
    logicpy command's JSON; `query`, `answers` with `bindings` in logicpy's tagged
    JSON and `constraints`, `more`, or `result`/`messages` for commands, or `error`; `output`:
    what write/format printed)."""
    _record: dict[str, Any] | None = field(default=None, repr=False)
    reading_clauses: bool = False
    """After `[user].`: the lines are clauses until `end_of_file.`."""
    program: Any = None
    """The clauses defined here or consulted (a `logicpy.prolog.Program`)."""

    def __post_init__(self) -> None:
        from ..prolog import Program
        for name in DEFAULT_MODULES:
            self.relations.load(name)
        self.program = Program(self.relations)

    # ------------------------------------------------------------ one query

    def query(self, text: str) -> None:
        """Run one query (Prolog text, the final '.' optional) and print its answers or a one-line error."""
        Interrupt.requested = False
        if self.json:
            self._record = {"query": text.strip()}
        captured = io.StringIO()  # JSON mode: what write/format print, kept out of the JSON lines
        printed = captured if self.json else self.out
        try:
            with _sigint_flag(), _integers_of_any_length(), redirect_stdout(printed), using(self.program.operators):
                self._query(text.strip())
        except Halt:
            self._record = None
            raise
        except KeyboardInterrupt:
            Interrupt.requested = False
            self.interrupted = True
            self._say("% interrupted")
        except LogicpyError as exc:
            self._error(str(exc))
        except RecursionError:
            self._error("the query nested deeper than Python's recursion limit")
        except Exception as exc:  # a user's relation failing: one line, never a traceback
            self._error(f"{type(exc).__name__}: {exc}")
        if self.json and self._record is not None and captured.getvalue():
            self._record["output"] = captured.getvalue()
        with _integers_of_any_length():
            self._write_record()

    def _write_record(self) -> None:
        """In JSON mode, print the query's object (once)."""
        if self._record is not None:
            record, self._record = self._record, None
            status = ("error" if "error" in record else
                      "none" if record.get("answers") == [] or record.get("result") is False else "ok")
            self.out.write(json.dumps({"status": status, "command": "repl", **record}) + "\n")
            self.out.flush()

    def _query(self, text: str) -> None:
        if self.reading_clauses:
            return self._clause(text)
        if text.startswith("swi:"):
            return self._swi(text[4:])
        term, variables = read_query(text)
        if isinstance(term, list) and term:  # [file, ...]. and [user].
            for item in term:
                self.consult(item)
            return
        named = list(variables.items())  # `_X` too, as SWI shows it; `_` is never named
        if isinstance(term, tuple) and len(term) == 2 and term[0] == "time":
            return self._run(term[1], named, timed=True)
        command = _COMMANDS.get(term if isinstance(term, str) else (term[0], len(term) - 1)
                                if isinstance(term, tuple) else None)
        if command is not None:
            return command(self, *(term[1:] if isinstance(term, tuple) else ()))
        return self._run(term, named)

    def _run(self, term: Term, named: list[tuple[str, Var]], timed: bool = False) -> None:
        goal = translate(term, self.relations)

        def answers() -> Iterator[Any]:
            for state in solve(goal, Map(), order=self.program.order, pauses=True):  # a logicpy state
                yield state if state is PAUSE else answer_text(state, named)

        self._show(answers(), timed)

    def _show(self, answers: Iterator[Any], timed: bool = False) -> None:
        """Print the answers as SWI's toplevel does: each but the last ends with ' ;', the last
        with '.' when no other is left (determinism: the search is asked one answer ahead),
        `false.` when there is none; on a terminal the key after an answer decides."""
        cpu, wall = time.process_time(), time.perf_counter()
        count, more, line_open = 0, False, False
        ahead: io.StringIO | None = None
        try:
            shown = _next_answer(answers)
            while shown is not None:
                count += 1
                if self._record is not None:
                    self._record.setdefault("answers", []).append(answer_json(shown.answer, shown.names, shown.text))
                    if count >= self.limit:
                        more = True
                        break
                    shown = _next_answer(answers)
                    continue
                self.out.write(shown.text)
                self.out.flush()
                line_open = True
                if self.ask is None and count >= self.limit:
                    self.out.write(" .\n")  # stopped here, as SWI when Enter is pressed
                    line_open, more = False, True
                    break
                ahead = io.StringIO()  # what the search prints while looking ahead: shown after the line
                with redirect_stdout(ahead):
                    following = _next_answer(answers, LOOKAHEAD if self.ask is not None else None)
                if following is None:  # the last answer; output on the way is shown as SWI shows it
                    self.out.write(f" ;\n{ahead.getvalue()}false.\n" if ahead.getvalue() else ".\n")
                    line_open = False
                    break
                self.out.write(" ")
                if self.ask is not None:
                    self.out.flush()
                    if self.ask() != ";":
                        self.out.write(".\n" + ahead.getvalue())
                        line_open, more = False, True
                        break
                self.out.write(";\n" + ahead.getvalue())
                line_open = False
                shown = following if following is not _UNKNOWN else _next_answer(answers)
            else:
                self.failures += count == 0
                if self._record is None:
                    self._say("false.")
        except KeyboardInterrupt:
            if line_open:
                self.out.write("\n" + (ahead.getvalue() if ahead is not None else ""))
            raise
        finally:
            if timed:
                self._say(f"% {count} answer{'s' if count != 1 else ''}, "
                          f"{time.process_time() - cpu:.3f} s CPU, {time.perf_counter() - wall:.3f} s wall")
        if self._record is not None:
            self._record.setdefault("answers", [])
            self._record["more"] = more

    # ------------------------------------------------------------ SWI-Prolog

    def _swi(self, text: str) -> None:
        from .. import swi
        from ..core.residual import residual_from_goals
        module = self.prolog.name if self.prolog is not None else "user"
        answers = swi.query(text.strip().rstrip("."), module=module, limit=self.limit)
        names = list(answers[0]) if answers else []

        def shown() -> Iterator[Shown]:
            for bindings, residual in zip(answers, answers.residual):
                values = [bindings[n] for n in names]
                fixed: dict[Var, str] = {}
                for n, value in zip(names, values):
                    if is_var(value):
                        fixed.setdefault(value, n)
                answer = answer_of(values, residual_from_goals(values, residual), fixed)
                yield Shown(bindings_text(answer, names), answer, names)

        self._show(shown())

    def _clause(self, text: str) -> None:
        """A line of `[user].` input: a clause or directive, or `end_of_file.`."""
        if text.rstrip(". \t") == "end_of_file":
            self.reading_clauses = False
            self._say("true.")
            return
        self.program.consult_text(text if text.rstrip().endswith(".") else text + ".", "user")

    def end_clauses(self) -> None:
        """End of input while reading `[user].` clauses."""
        self.reading_clauses = False

    def consult(self, path: Term) -> None:
        if path == "user":
            self.reading_clauses = True
            return
        path = _path_of(path)
        if not isinstance(path, str):
            raise_input(f"consult/1 takes a file name, as consult('family.pl') or [family]; got {format_term(path)}")
        file = path if os.path.exists(path) or not os.path.exists(path + ".pl") else path + ".pl"
        self.program.consult(file)
        defined = self.program.defined_by(file)
        self._say(f"% consulted {file}: {len(defined)} predicate{'s' if len(defined) != 1 else ''}")
        self._say("true.")

    def swi_consult(self, path: Term) -> None:
        from .. import swi
        if not isinstance(path, str):
            raise_input(f"swi_consult/1 takes a file name in quotes, as swi_consult('prolog/lists.pl'); "
                        f"got {format_term(path)}")
        self.prolog = swi.consult(path)
        for w in self.prolog.warnings:
            self._say(f"% warning: {w}")
        self._say(f"% consulted {path} into SWI-Prolog")
        self._say("true.")

    def crosscheck(self, goal: Term) -> None:
        from ..crosscheck import crosscheck
        if self.prolog is None:
            raise_input("crosscheck/1: load a Prolog file into SWI-Prolog first (swi_consult('prolog/lists.pl').)")
        if not isinstance(goal, tuple) or not isinstance(goal[0], str):
            raise_input(f"crosscheck/1 takes a relation call, as crosscheck(appendo(X, Y, [1,2])); got {format_term(goal)}")
        relation = self.relations.table.get(goal[0])
        if relation is None:
            raise_input(f"crosscheck/1: no logicpy relation named {goal[0]} (help. lists them)")
        report = crosscheck(relation, self.prolog, goal, limit=self.limit)
        for line in report.render_text().splitlines():
            self._say("% " + line)
        self._say("true." if report.agree else "false.")

    # ------------------------------------------------------------ other commands

    def use_module(self, name: Term) -> None:
        if not isinstance(name, str):
            raise_input(f"use_module/1 takes a Python module name in quotes, as use_module('examples.zebra'); "
                        f"got {format_term(name)}")
        loaded = self.relations.load(name)
        self._say(f"% {len(loaded)} relations from {name}: {', '.join(sorted(loaded))}")
        self._say("true.")

    def set_prolog_flag(self, flag: Term, value: Term) -> None:
        from ..core.streams import ORDERS
        if flag != "search_order":
            raise_input(f"set_prolog_flag/2: unknown flag {format_term(flag)} (search_order is known)")
        if value not in ORDERS:
            raise_input(f"set_prolog_flag/2: search_order is prolog or interleaved, got {format_term(value)}")
        self.program.order = value
        self._say("true.")

    def help(self) -> None:
        self._say("% commands:")
        for command, what in COMMANDS.items():
            self._say(f"%   {command:<28} {what}")
        self._say("% built-ins: " + " ".join(BUILTIN_NAMES))
        by_module: dict[str, list[str]] = {}
        for name, module in self.relations.source.items():
            by_module.setdefault(module.__name__, []).append(name)
        for module_name, names in by_module.items():
            self._say(f"% from {module_name}: {' '.join(sorted(names))}")
        if len(self.program):
            self._say(f"% predicates: {' '.join(sorted(self.program))}")
        if self.prolog is not None:
            self._say(f"% SWI-Prolog: {self.prolog.path} (swi: Goal.)")
        self._say("true.")

    def halt(self) -> None:
        raise Halt

    # ------------------------------------------------------------ output

    def _say(self, line: str) -> None:
        if self._record is not None:
            if line in ("true.", "false."):
                self._record["result"] = line == "true."
            else:
                self._record.setdefault("messages", []).append(line.removeprefix("% "))
            return
        self.out.write(line + "\n")
        self.out.flush()

    def _error(self, message: str) -> None:
        self.errors += 1
        if self._record is not None:
            self._record["error"] = message
        self.out.flush()
        self.err.write(f"error: {message}\n")
        self.err.flush()


_COMMANDS: dict[Any, Callable[..., None]] = {
    "help": Toplevel.help, "halt": Toplevel.halt,
    ("consult", 1): Toplevel.consult, ("swi_consult", 1): Toplevel.swi_consult, ("crosscheck", 1): Toplevel.crosscheck, ("use_module", 1): Toplevel.use_module,
    ("set_prolog_flag", 2): Toplevel.set_prolog_flag,
}


@contextmanager
def _sigint_flag() -> Iterator[None]:
    """While a query runs, Ctrl-C also sets `Interrupt.requested` (see there); main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, frame: Any) -> None:
        Interrupt.requested = True
        raise KeyboardInterrupt

    def unraisable(info: Any) -> None:  # an interrupt dropped in a callback: the flag carries it
        if not isinstance(info.exc_value, KeyboardInterrupt):
            previous_hook(info)

    previous, previous_hook = signal.signal(signal.SIGINT, on_sigint), sys.unraisablehook
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook


@contextmanager
def _integers_of_any_length() -> Iterator[None]:
    """While a query runs, integers of any length are read and written (as SWI does);
    Python's default stops at 4,300 digits."""
    get, set_ = getattr(sys, "get_int_max_str_digits", None), getattr(sys, "set_int_max_str_digits", None)
    if get is None or set_ is None:  # a Python without the limit
        yield
        return
    previous = get()
    set_(0)
    try:
        yield
    finally:
        set_(previous)


def _path_of(term: Term) -> Term:
    """A file name written as a term: `family`, `'dir/family.pl'` or `dir/family`."""
    if isinstance(term, tuple) and len(term) == 3 and term[0] == "/":
        head, tail = _path_of(term[1]), _path_of(term[2])
        if isinstance(head, str) and isinstance(tail, str):
            return f"{head}/{tail}"
    return term


def raise_input(message: str) -> NoReturn:
    from ..errors import InputError
    raise InputError(message)


def bindings_text(answer: Answer, names: list[str]) -> str:
    """`X = [1|_0], Y = _0, dif(_0,2)`: each named variable's value (left out when it is
    unbound and shown by its own name), then the constraints; `true` if nothing."""
    display = dict(answer.names)
    parts = []
    for name, value in zip(names, answer.residual.term):
        if is_var(value) and display.get(value) == name:
            continue
        parts.append(f"{name} = {write_text(value, quoted=True, names=display, spacing=True, priority=699)}")
    parts.extend(write_text(c, quoted=True, names=display, spacing=True) if isinstance(c, tuple) and c[0] == "dif"
                 else readable_constraint(c, display) for c in answer.residual.constraints)
    parts.extend(format_term(c, display) for c in answer.residual.foreign)
    return ", ".join(parts) if parts else "true"


def answer_json(answer: Answer, names: list[str], text: str) -> dict[str, Any]:
    """An answer as JSON-ready data: its line, each named variable's value (tagged JSON,
    variables by their display names, a value that is no Prolog term as `{"python": repr}`)
    and the constraints' texts."""
    display = dict(answer.names)
    opaque = {display[v] for v in answer.opaque}

    def tagged(data: Any) -> Any:  # a part that is not a Prolog term: {"python": its repr}
        if isinstance(data, dict) and set(data) == {"var"} and data["var"] in opaque:
            return {"python": data["var"]}
        if isinstance(data, dict):
            return {k: tagged(v) for k, v in data.items()}
        if isinstance(data, list):
            return [tagged(v) for v in data]
        return data

    bindings = {name: tagged(to_json(value, display)) for name, value in zip(names, answer.residual.term)}
    return {"text": text, "bindings": bindings, "constraints": list(answer.constraints)}


# ---------------------------------------------------------------- answers as SWI-Prolog prints them


class Shown:
    """One answer as printed: `text` (`X = 1+2, Y = f(_A, _A)`, or `true`), with `names` its
    bindings' order, and the `Answer` it reads (canonical values and constraints, for JSON),
    made when first asked for."""

    def __init__(self, text: str, answer: Answer | Callable[[], Answer], names: list[str]):
        self.text, self.names, self._answer = text, names, answer

    @property
    def answer(self) -> Answer:
        if not isinstance(self._answer, Answer):
            self._answer = self._answer()
        return self._answer


def answer_text(state: Any, named: list[tuple[str, Var]]) -> Shown:
    """The answer `state` gives the query's named variables, as SWI-Prolog's toplevel writes
    it: variables bound to the same value grouped (`X = Y, Y = a`), a variable bound to a
    term containing itself written by its name (`X = f(X)`), the other variables `_A`, `_B`
    where met twice and `_` where once, operators in place, `dif/2` as SWI keeps it
    (`dif(f(X, Y), f(a, b))`), then the finite-domain constraints; `true` if nothing."""
    state, terms, cyclic = _cut_cycles(state, named)
    data = getattr(state, "data", state)
    values = [reify(t, data) for t in terms]
    fixed: dict[Var, str] = dict(cyclic)
    for (name, _), value in zip(named, values):
        if is_var(value):
            fixed.setdefault(value, name)
    answer: Answer | Callable[[], Answer]
    if not getattr(state, "constraints", None) and _plain(values):  # no store, no Python object: the fast way
        fd: list[Term] = []
        foreign: list[Term] = []
        difs: list[tuple[Term, Term]] = []
        opaque: Mapping[Var, Any] = {}
        answer = lambda: answer_in(terms, state, fixed)  # noqa: E731  made for JSON only
    else:
        answer = answer_in(terms, state, fixed)
        values = list(answer.residual.term)
        fd = [c for c in answer.residual.constraints if not (isinstance(c, tuple) and c[0] == "dif")]
        foreign = list(answer.residual.foreign)
        pairs = disequalities(state)
        difs = _linked_difs([reify(pair, data) for pair in pairs], set(variables_in([values, fd]))) if pairs else []
        opaque = {v: answer.names[v] for v in answer.opaque}
    groups: dict[Any, list[int]] = {}
    for i, value in enumerate(values):
        groups.setdefault(_group_key(value) if len(values) > 1 else i, []).append(i)
    display: dict[Var, str] = {**cyclic, **opaque}
    for members in groups.values():
        if is_var(values[members[0]]) and values[members[0]] not in opaque:
            display[values[members[0]]] = named[members[-1]][0]
    taken = {name for name, _ in named}
    counts: dict[Var, int] = {}
    for v in occurrences([values, fd, foreign, difs]):
        if v not in display:
            counts[v] = counts.get(v, 0) + 1
    letters = (f"_{chr(ord('A') + k % 26)}{k // 26 if k >= 26 else ''}" for k in itertools.count())
    for v, k in counts.items():
        display[v] = "_" if k == 1 else next(n for n in letters if n not in taken)
    parts: list[str] = []
    for members in groups.values():
        first = values[members[0]]
        chain = [named[i][0] for i in members]
        if is_var(first) and first not in opaque:
            if len(chain) > 1:
                parts.append(", ".join(f"{a} = {b}" for a, b in zip(chain, chain[1:])))
            continue
        text = write_text(first, quoted=True, names=display, spacing=True, priority=699)
        if isinstance(first, str) and _is_operator(first):  # `X = (:-)`
            text = f"({text})"
        parts.append(", ".join(f"{a} = {b}" for a, b in zip(chain, chain[1:])) + (", " if len(chain) > 1 else "")
                     + f"{chain[-1]} = {text}")
    parts.extend(readable_constraint(c, display) for c in fd)
    parts.extend(write_text(("dif", a, b), quoted=True, names=display, spacing=True) for a, b in difs)
    parts.extend(format_term(c, display) for c in foreign)
    return Shown(", ".join(parts) if parts else "true", answer, [name for name, _ in named])


def _group_key(value: Term) -> Any:
    """Equal for identical terms only (variables by identity, 1 and 1.0 apart)."""
    if is_var(value):
        return value
    if isinstance(value, (str, int, float)):
        return (type(value), value)
    return format_term(value, _IdNames())


def _plain(values: list[Term]) -> bool:
    """Whether `values` are Prolog terms throughout (no Python object inside)."""
    try:
        check_term(values)
    except TermError:
        return False
    return True


class _IdNames(dict):
    """Variable names by identity, so equal texts mean identical terms."""

    def __missing__(self, v: Var) -> str:
        self[v] = name = f"_{id(v)}"
        return name


def _is_operator(atom: str) -> bool:
    from .reader import operators
    table = operators()
    return atom in table.infix or atom in table.prefix or atom in table.postfix


def _linked_difs(pairs: list[tuple[Term, Term]], linked: set) -> list[tuple[Term, Term]]:
    """The disequalities about the answer: ground ones, and those sharing a variable with it
    (directly or through another kept one)."""
    kept = [False] * len(pairs)
    changed = True
    while changed:
        changed = False
        for i, pair in enumerate(pairs):
            if not kept[i]:
                vs = set(variables_in(pair))
                if not vs or vs & linked:
                    kept[i], changed = True, True
                    linked |= vs
    return [p for p, k in zip(pairs, kept) if k]


def _cut_cycles(state: Any, named: list[tuple[str, Var]]) -> tuple[Any, list[Term], dict[Var, str]]:
    """The state and terms to show for the named variables: a variable whose value contains
    itself is unbound in the state and shown as its binding, so `X = f(X)` reads by name
    (a cycle through unnamed variables only is left, and refused)."""
    data = getattr(state, "data", state)
    cyclic: dict[Var, str] = {}
    for name, v in named:
        try:
            check_acyclic(v, data)
        except TermError:
            cyclic[v] = name
    if not cyclic:
        return state, [v for _, v in named], {}
    terms = [walk(v, data) if v in cyclic else v for _, v in named]
    cut = data
    for v in cyclic:
        cut = cut.delete(v)
    return (state.copy(cut) if hasattr(state, "constraints") else cut), terms, cyclic


_UNKNOWN = object()
"""What `_next_answer` gives when its time ran out before it knew."""


def _next_answer(answers: Iterator[Any], within: float | None = None) -> Any:
    """The next answer (PAUSEs skipped), None if there is none; with `within` seconds,
    `_UNKNOWN` once they have passed without either."""
    deadline = None if within is None else time.perf_counter() + within
    for item in answers:
        if item is not PAUSE:
            return item
        if deadline is not None and time.perf_counter() > deadline:
            return _UNKNOWN
    return None


# ---------------------------------------------------------------- the loop


def read_queries(lines: Iterator[str]) -> Iterator[str]:
    """Queries from lines of text: each ends at a line ending in '.', comments and blank lines skipped."""
    pending: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("?-"):
            stripped = stripped[2:].strip()
        if not stripped or (stripped.startswith("%") and not pending):
            continue
        pending.append(stripped)
        if stripped.endswith("."):
            yield " ".join(pending)
            pending = []
    if pending:
        yield " ".join(pending)


def run_piped(top: Toplevel, stream: TextIO) -> int:
    """Answer every query of `stream`; the exit status: 130 if a query was interrupted, else 2 if
    one was bad, else 1 if one had no answer, else 0."""
    try:
        for text in read_queries(iter(stream)):
            top.query(text)
    except Halt:
        pass
    top.end_clauses()
    return 130 if top.interrupted else 2 if top.errors else 1 if top.failures else 0


def run_terminal(top: Toplevel) -> int:
    """The interactive loop: line editing and history (readline), a key after each answer."""
    try:
        import readline
    except ImportError:  # not on every platform: plain input() then
        readline = None  # type: ignore[assignment]
    history = os.environ.get("LOGICPY_HISTORY", os.path.expanduser("~/.logicpy_history"))
    if readline is not None:
        try:
            readline.read_history_file(history)
        except OSError:
            pass
    top.ask = _read_key
    print("logicpy toplevel: queries in Prolog syntax end with '.'; help. lists what is loaded, Ctrl-D leaves.")
    try:
        while True:
            try:
                text = input("|: " if top.reading_clauses else "?- ")
                while not text.strip().endswith("."):
                    if not text.strip():
                        break
                    text += " " + input("|    ")
            except KeyboardInterrupt:
                print()
                continue
            except EOFError:
                print()
                if top.reading_clauses:  # Ctrl-D ends [user]. input, not the session
                    top.end_clauses()
                    continue
                break
            if not text.strip():
                continue
            try:
                top.query(text)
            except Halt:
                break
    finally:
        if readline is not None:
            try:
                readline.write_history_file(history)
            except OSError:
                pass
    return 0


def _read_key() -> str:
    """One key from the terminal, unechoed (';', ' ', 'n' mean: the next answer)."""
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # TCSAFLUSH (the default) would drop a key typed ahead
        key = sys.stdin.read(1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    return ";" if key in (";", " ", "n") else key
