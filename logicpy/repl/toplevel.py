"""`logicpy repl`: a toplevel like SWI-Prolog's over logicpy relations.

Each query is read in Prolog syntax (`reader.read_query`), made a kanren goal
(`goals.to_goal`) and run lazily; an answer is shown as its bindings to the variables the
user named, then the constraints still pending (`core.answers`), e.g.
`X = [1|_0], Y = _0` or `X in 1..3, X #< Y, Y in 2..sup`. On a terminal the toplevel
waits after each answer (`;` the next, Enter stop); piped, it prints every answer (up to
`limit`), one per line, then `false.` (no more answers) or `true.` (stopped at the limit).
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager, redirect_stdout
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, TextIO

from immutables import Map
from unification import Var, reify  # type: ignore[import-untyped]

from ..core.answers import Answer, answer_in, answer_of
from ..core.terms import Term, format_term, is_var, to_json
from ..errors import LogicpyError
from .goals import BUILTIN_NAMES, Interrupt, to_goal
from .relations import DEFAULT_MODULES, Relations
from .reader import read_query

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
            with _sigint_flag(), _integers_of_any_length(), redirect_stdout(printed):
                self._query(text.strip())
        except Halt:
            self._record = None
            raise
        except KeyboardInterrupt:
            Interrupt.requested = False
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
        shown = [(name, v) for name, v in variables.items() if not name.startswith("_")]
        if isinstance(term, tuple) and len(term) == 2 and term[0] == "time":
            return self._run(term[1], shown, timed=True)
        command = _COMMANDS.get(term if isinstance(term, str) else (term[0], len(term) - 1)
                                if isinstance(term, tuple) else None)
        if command is not None:
            return command(self, *(term[1:] if isinstance(term, tuple) else ()))
        return self._run(term, shown)

    def _run(self, term: Term, shown: list[tuple[str, Var]], timed: bool = False) -> None:
        goal = to_goal(term, self.relations, self.program.order)
        names = [name for name, _ in shown]
        query_vars = [v for _, v in shown]

        def answers() -> Iterator[Answer]:
            for state in goal(Map()):  # a logicpy state: Prolog identity
                data = getattr(state, "data", state)
                fixed: dict[Var, str] = {}
                for name, v in shown:
                    value = reify(v, data)
                    if is_var(value):
                        fixed.setdefault(value, name)
                yield answer_in(query_vars, state, fixed)

        self._show(answers(), names, timed)

    def _show(self, answers: Iterator[Answer], names: list[str], timed: bool = False) -> None:
        cpu, wall = time.process_time(), time.perf_counter()
        count, more = 0, False
        try:
            for answer in answers:
                count += 1
                line = bindings_text(answer, names)
                if self._record is not None:
                    self._record.setdefault("answers", []).append(answer_json(answer, names, line))
                    if count >= self.limit:
                        more = True
                        break
                elif self.ask is not None:
                    self.out.write(line + " ")
                    self.out.flush()
                    if self.ask() != ";":
                        self.out.write(".\n")
                        more = True
                        break
                    self.out.write(";\n")
                else:
                    self._say(line)
                    if count >= self.limit:
                        more = True
                        break
        finally:
            if timed:
                self._say(f"% {count} answer{'s' if count != 1 else ''}, "
                          f"{time.process_time() - cpu:.3f} s CPU, {time.perf_counter() - wall:.3f} s wall")
        if self._record is not None:
            self._record.setdefault("answers", [])
            self._record["more"] = more
        elif self.ask is None:
            self._say("true." if more else "false.")
        elif not more:
            self._say("false.")

    # ------------------------------------------------------------ SWI-Prolog

    def _swi(self, text: str) -> None:
        from .. import swi
        from ..core.residual import residual_from_goals
        module = self.prolog.name if self.prolog is not None else "user"
        answers = swi.query(text.strip().rstrip("."), module=module, limit=self.limit)
        names = list(answers[0]) if answers else []

        def shown() -> Iterator[Answer]:
            for bindings, residual in zip(answers, answers.residual):
                values = [bindings[n] for n in names]
                fixed: dict[Var, str] = {}
                for n, value in zip(names, values):
                    if is_var(value):
                        fixed.setdefault(value, n)
                yield answer_of(values, residual_from_goals(values, residual), fixed)

        self._show(shown(), names)

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
        parts.append(f"{name} = {format_term(value, display)}")
    parts.extend(answer.constraints)
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
    """Answer every query of `stream`; 0, or 2 if a query was bad."""
    try:
        for text in read_queries(iter(stream)):
            top.query(text)
    except Halt:
        pass
    top.end_clauses()
    return 2 if top.errors else 0


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
