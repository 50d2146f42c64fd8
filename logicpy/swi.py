"""The SWI-Prolog bridge: consult files into their own modules, run queries, get logicpy terms.

The only module that imports `pyswip`, and only when first used. Terms cross the
bridge as text in canonical Prolog syntax (`logicpy.core.terms.format_term` one way,
`parse_term` the other), so none of pyswip's own conversions are used: they crash on
integers of 2^63 or more and on rationals, return strings as bytes, turn a Python str
into a Prolog string instead of an atom, and hand out `Functor` objects whose `==`
crashes the process. Every call goes through one Prolog predicate, `serve/3` of the
module below, which reads a request term and always answers with a reply term: goals
run inside `catch/3` (never the tracer), under `call_with_time_limit/2` when a time
limit is given, and print messages of a consulted file are collected, not printed.

All Prolog work runs on one engine thread with a C stack of `C_STACK_BYTES`: SWI writes
and reads terms by C recursion, and embedded (pyswip starts it with `--nosignals`) it has
no guard against overflowing the C stack, so a deep term killed the process. The bridge
measures every term before it is written or read (`MAX_DEPTH`, a quarter of what that
stack holds), and the calling thread only waits, in short slices, so any exception raised
in it (Ctrl-C, an alarm, a notebook's interrupt) reaches it and stops the query in the
engine before it propagates: the bridge stays usable. `halt/0,1` end the query, not Python.
"""

from __future__ import annotations

import atexit
import ctypes
import itertools
import queue
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unification import Var  # type: ignore[import-untyped]

from logicpy.core.terms import String, Term, format_term, parse_term
from logicpy.errors import (
    InputError,
    PrologBusy,
    PrologError,
    PrologSyntaxError,
    PrologTimeout,
    PrologUnavailable,
    TermError,
)

__all__ = ["available", "consult", "query", "PrologModule", "Answers", "Message", "MAX_DEPTH"]

INSTALL_HINT = (
    "install SWI-Prolog (Debian: apt-get install swi-prolog-nox) and pyswip (pip install 'logicpy-engine[prolog]')"
)

#: The deepest term (compounds and lists inside each other) that crosses the bridge either way.
MAX_DEPTH = 100_000

#: The C stack of the engine thread. SWI-Prolog writes a term with about 470 bytes of C
#: stack per level and reads one with about 600: this stack holds some 570,000 levels
#: written and 440,000 read (measured), four times `MAX_DEPTH`. Only touched pages are used.
C_STACK_BYTES = 256 * 2**20

#: Seconds a caller waits for its job between looks at pending exceptions.
WAIT = 0.05

#: Seconds of repeated exceptions after which an interrupted caller stops waiting for its job.
GIVE_UP = 5.0

def _bridge_source() -> str:
    """The text of the bridge module (shipped as `logicpy/data/bridge.pl`), `MAX_DEPTH` in place."""
    from .data import ROOT

    return (ROOT / "bridge.pl").read_text(encoding="utf-8").replace("@MAX_DEPTH@", str(MAX_DEPTH))

_PL_STRING, _REP_UTF8 = 6, 0x00100000
_CVT_ATOM, _CVT_STRING, _BUF_STACK = 0x1, 0x2, 0x00010000
_PL_Q_NODEBUG, _PL_Q_CATCH_EXCEPTION = 0x04, 0x08


class _Job:
    """One request for the engine thread: its text, then its reply text or exception."""

    __slots__ = ("number", "text", "reply", "error", "done")

    def __init__(self, number: int, text: str):
        self.number, self.text = number, text
        self.reply: str | None = None
        self.error: BaseException | None = None
        self.done = threading.Lock()  # held until the engine thread has served the job
        self.done.acquire()


class _Engine:
    """libswipl with the bridge module loaded, and the one thread that runs Prolog for logicpy.

    Callers hand that thread a `_Job` and wait for it; waiting, not running Prolog, is
    what lets Ctrl-C (KeyboardInterrupt) reach the caller, who then stops the job.
    """

    def __init__(self) -> None:
        try:
            import pyswip.core as core  # the only pyswip import in logicpy; starts SWI-Prolog
        except Exception as exc:  # ImportError, or pyswip failing to find libswipl
            raise PrologUnavailable(f"SWI-Prolog cannot be used ({exc}): {INSTALL_HINT}") from None
        lib = ctypes.CDLL(core._lib._name)
        self.lib = lib
        lib.PL_get_nchars.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
                                      ctypes.POINTER(ctypes.c_char_p), ctypes.c_uint]
        lib.PL_put_chars.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p]
        lib.PL_put_int64.argtypes = [ctypes.c_size_t, ctypes.c_int64]
        lib.PL_new_term_refs.restype = ctypes.c_size_t
        lib.PL_open_foreign_frame.restype = ctypes.c_size_t
        lib.PL_discard_foreign_frame.argtypes = [ctypes.c_size_t]
        lib.PL_predicate.restype = ctypes.c_void_p
        lib.PL_predicate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
        lib.PL_open_query.restype = ctypes.c_size_t
        lib.PL_open_query.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
        lib.PL_next_solution.argtypes = [ctypes.c_size_t]
        lib.PL_cut_query.argtypes = [ctypes.c_size_t]
        lib.PL_exception.argtypes = [ctypes.c_size_t]
        lib.PL_exception.restype = ctypes.c_size_t
        lib.PL_chars_to_term.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.PL_call.argtypes = [ctypes.c_size_t, ctypes.c_void_p]
        lib.PL_thread_attach_engine.argtypes = [ctypes.c_void_p]
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._numbers = itertools.count(1)
        started = _Job(0, "")
        stack = threading.stack_size()
        threading.stack_size(C_STACK_BYTES)
        try:
            self.thread = threading.Thread(target=self._run, args=(started,), name="logicpy-prolog", daemon=True)
            self.thread.start()
        finally:
            threading.stack_size(stack)
        started.done.acquire()
        if started.error is not None:
            raise started.error
        atexit.register(self._stop)  # registered after pyswip's PL_cleanup, so it runs first

    # ------------------------------------------------------------ the engine thread

    def _run(self, started: _Job) -> None:
        """The engine thread: attach a Prolog engine, load the bridge, then serve jobs until None."""
        lib = self.lib
        try:
            if lib.PL_thread_attach_engine(None) < 0:
                raise PrologUnavailable("could not give the bridge's thread a Prolog engine")
            load = (
                "thread_alias(logicpy_engine), "
                f"setup_call_cleanup(open_string({format_term(String(_bridge_source()))}, S), "
                "load_files(logicpy_bridge, [stream(S), silent(true)]), close(S))"
            )
            if not self._call_goal(load):
                raise PrologUnavailable(f"could not load logicpy's bridge module into SWI-Prolog: {INSTALL_HINT}")
            self.serve_predicate = lib.PL_predicate(b"serve", 3, b"logicpy_bridge")
        except BaseException as exc:
            started.error = exc
            started.done.release()
            return
        started.done.release()
        while (job := self._jobs.get()) is not None:
            try:
                job.reply = self._serve(job)
            except BaseException as exc:
                job.error = exc
            job.done.release()
        lib.PL_thread_destroy_engine()

    def _call_goal(self, text: str) -> bool:
        """Run the goal `text` once in the calling thread's engine; True iff it succeeded."""
        lib = self.lib
        frame = lib.PL_open_foreign_frame()
        try:
            goal = lib.PL_new_term_refs(1)
            return bool(lib.PL_chars_to_term(text.encode(), goal) and lib.PL_call(goal, None))
        finally:
            lib.PL_discard_foreign_frame(frame)

    def _serve(self, job: _Job) -> str:
        """Run serve(Job, Request, Reply) and return the reply text."""
        lib = self.lib
        data = job.text.encode("utf-8")
        frame = lib.PL_open_foreign_frame()
        try:
            args = lib.PL_new_term_refs(3)
            lib.PL_put_int64(args, job.number)
            lib.PL_put_chars(args + 1, _PL_STRING | _REP_UTF8, len(data), data)
            qid = lib.PL_open_query(None, _PL_Q_NODEBUG | _PL_Q_CATCH_EXCEPTION, self.serve_predicate, args)
            try:
                if not lib.PL_next_solution(qid):
                    if self._text(lib.PL_exception(qid), _CVT_ATOM) == "$aborted":
                        return "aborted"
                    raise PrologError("the bridge predicate serve/3 failed (out of memory or stack?)")
                text = self._text(args + 2, _CVT_STRING)
                if text is None:
                    raise PrologError("the bridge returned no reply text")
                return text
            finally:
                lib.PL_cut_query(qid)
        finally:
            lib.PL_discard_foreign_frame(frame)

    def _text(self, term: int, kind: int) -> str | None:
        """The text of an atom (`_CVT_ATOM`) or string (`_CVT_STRING`) term, or None."""
        size, text = ctypes.c_size_t(), ctypes.c_char_p()
        if not term or not self.lib.PL_get_nchars(term, ctypes.byref(size), ctypes.byref(text),
                                                  kind | _REP_UTF8 | _BUF_STACK):
            return None
        return ctypes.string_at(text, size.value).decode("utf-8")

    # ------------------------------------------------------------ callers

    def call(self, request: str) -> str:
        """Have the engine thread serve `request`; return the reply text.

        The caller waits in slices of `WAIT` seconds, so an exception raised in this thread by
        anything (Ctrl-C, `alarm.time_limit`'s `TimeUp`, `_thread.interrupt_main()` in a
        notebook, which sends no signal) is raised within a slice. Any such exception stops
        the job in the engine first, then propagates; the bridge stays usable.
        """
        if threading.current_thread() is self.thread:
            raise PrologBusy(
                "a Prolog query is already running in this thread (called back from Prolog?); "
                "nested queries are refused"
            )
        job = _Job(next(self._numbers), request)
        self._jobs.put(job)
        try:
            while not job.done.acquire(timeout=WAIT):
                pass
        except BaseException:
            self._interrupt(job)
            raise
        if job.error is not None:
            raise job.error
        assert job.reply is not None
        return job.reply

    def _interrupt(self, job: _Job) -> None:
        """Stop `job` in the engine (thread_signal/2 from this thread's own engine) and wait for
        it to end; another exception while waiting (a second Ctrl-C, an alarm ringing again)
        signals it again and keeps waiting, so no job outlives its caller's exception (unless
        exceptions keep coming for `GIVE_UP` seconds: the job then ends in the background)."""
        lib = self.lib
        give_up = time.monotonic() + GIVE_UP
        while True:
            try:
                attached = lib.PL_thread_self() == -1 and lib.PL_thread_attach_engine(None) >= 0
                try:
                    self._call_goal(f"thread_signal(logicpy_engine, logicpy_bridge:interrupt({job.number}))")
                finally:
                    if attached:
                        lib.PL_thread_destroy_engine()
                while not job.done.acquire(timeout=WAIT):
                    pass
                return
            except BaseException:
                if time.monotonic() > give_up:  # stuck where Prolog looks at no signal: stop waiting
                    return

    def _stop(self) -> None:
        """At exit: end the engine thread before pyswip's PL_cleanup (if it is not stuck in a job)."""
        self._jobs.put(None)
        self.thread.join(timeout=1)


_engine: _Engine | None = None
_lock = threading.Lock()


def _request(request: Term) -> str:
    """Send one request term, return the reply text (the reply term, then one line per answer)."""
    global _engine
    with _lock:
        if _engine is None:
            _engine = _Engine()
    return _engine.call(format_term(request))


def available() -> bool:
    """True iff SWI-Prolog and pyswip can be used here (loads them on first call)."""
    try:
        _serve("ping", "ping")
    except PrologUnavailable:
        return False
    return True


def _serve(request: Term, doing: str) -> Term:
    """Send one request term, return its reply term; `doing` names the request in errors."""
    reply = parse_term(_request(request).split("\n", 1)[0])
    _raise_for(reply, doing)
    return reply


def _raise_for(reply: Term, doing: str) -> None:
    """Raise what an interrupted, aborted, halted or refused request means; else return."""
    if reply == "interrupted":
        raise KeyboardInterrupt
    if reply == "aborted":
        raise PrologError(f"abort/0 was called: {doing} was abandoned (the bridge stays usable)", "$aborted")
    if isinstance(reply, tuple) and reply[0] == "halted":
        called = "halt" if reply[1] == "unknown" else f"halt({reply[1]})"
        raise PrologError(
            f"{called} was called: the SWI-Prolog bridge does not end the Python process, it stopped "
            f"{doing} there (sys.exit ends Python)", ("halt", reply[1]))
    if isinstance(reply, tuple) and reply[0] == "refused":
        _, what, why = reply
        if isinstance(what, tuple):  # binding(Name)
            what = f"the answer's binding of {what[1]}"
        else:
            what = {"residual": "a residual constraint of the answer", "error": "the error term"}[what]
        if why == "cyclic":
            raise PrologError(f"{what} of {doing} is cyclic: logicpy terms are acyclic", why)
        if why[0] == "too_deep":
            raise TermError(
                f"{what} of {doing} is nested {why[1]:,} deep; terms deeper than {why[2]:,} do not cross "
                "the bridge (SWI-Prolog writes and reads terms by C recursion, and its C stack would overflow)")
        kind = _UNCROSSABLE.get(why[1], f"an SWI-Prolog {why[1]} blob")
        raise TermError(f"{kind} cannot cross the bridge: {why[2].text} (in {what} of {doing})")


#: What a dict or non-text blob in an answer is, named for users.
_UNCROSSABLE = {
    "dict": "an SWI dict",
    "stream": "an SWI stream handle",
    "clause": "an SWI clause reference",
    "record": "an SWI recorded-database reference",
    "thread": "an SWI thread handle",
    "mutex": "an SWI mutex",
    "trie": "an SWI trie",
}


def _short(text: str) -> str:
    """`text` for a message: whole if short, else its start."""
    return text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)"


# ---------------------------------------------------------------- consult


@dataclass(frozen=True)
class Message:
    """An error or warning SWI-Prolog reported while loading a file."""

    kind: str
    file: str
    line: int
    text: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file and self.file not in self.text else ""
        return f"{where}{self.text}"


@dataclass(frozen=True)
class PrologModule:
    """A consulted file: its module name, its path, and the warnings loading it gave."""

    name: str
    path: Path
    warnings: tuple[Message, ...] = field(default=())

    def query(self, goal: Term | str, **options: Any) -> "Answers":
        """`query(goal, module=self.name, **options)`."""
        return query(goal, module=self.name, **options)


def consult(path: str | Path, module: str | None = None) -> PrologModule:
    """Load the Prolog file at `path` into its own module (default: the file's absolute path).

    Files that are not modules and define the same predicates therefore do not
    overwrite each other (SWI-Prolog keeps a non-module file in one module: loading it
    again into another raises `PrologError`). An error while loading (a syntax error,
    or a directive that raises, `halt` included) raises `PrologSyntaxError` or
    `PrologError` naming the file and line, and nothing of the file stays loaded;
    warnings (a directive that fails, a singleton variable) are kept on the result,
    not printed.
    """
    from .data import prolog_file

    file = prolog_file(path).resolve()
    name = module or str(file)
    try:
        reply = _serve(("consult", str(file), name), f"consulting {file}")
    except (PrologError, KeyboardInterrupt) as exc:  # halted, aborted or interrupted part-way
        if not isinstance(exc, PrologUnavailable):
            _serve(("unload", str(file)), f"unloading {file}")
        raise
    messages = [Message(kind, file_, line, text.text.strip()) for (_, kind, file_, line, text) in reply[1]]
    refused = [m for m in messages if m.kind == "refused"]
    if refused:  # load_files/2 itself refused: nothing was loaded or changed
        raise PrologError(str(refused[0]), [str(m) for m in refused])
    errors = [m for m in messages if m.kind == "error"]
    if errors:
        _serve(("unload", str(file)), f"unloading {file}")  # SWI kept the rest of the file: take it out
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        error = PrologSyntaxError if any("Syntax error" in m.text for m in errors) else PrologError
        raise error(f"{errors[0]}{more}; nothing of {file.name} stays loaded", [str(m) for m in errors])
    return PrologModule(name, file, tuple(messages))


# ---------------------------------------------------------------- query


class Answers(list):
    """The answers of a query (dicts of bindings), plus `output` (what Prolog printed, if
    captured) and `residual`: per answer, the constraints left on its variables as goals
    (e.g. `("dif", X, "a")`), sharing variables with the bindings."""

    output: str = ""
    residual: list[list[Term]]


def query(
    goal: Term | str,
    *,
    module: str = "user",
    limit: int | None = None,
    timeout: float | None = None,
    capture_output: bool = False,
) -> Answers:
    """Run `goal` in `module` and return its answers as dicts of logicpy terms.

    `goal` is Prolog text (a `str`, read with the module's operators; answers are keyed
    by variable name, leaving out names that start with `_`) or a logicpy term (a tuple
    with logic variables; answers are keyed by those `Var` objects, and a variable left
    unbound comes back as itself). `limit` caps the number of answers, `timeout` (in
    seconds) raises `PrologTimeout`, and `capture_output=True` puts what the goal printed
    in `Answers.output` instead of on standard output. Constraints left on the answer's
    variables (dif/2, clpfd) are in `Answers.residual`. No answers means the goal failed.

    Raises `PrologError` with the Prolog error term as `.term` (an undefined predicate is
    an existence error), and `PrologSyntaxError` for unreadable goal text. `halt` and
    `abort` in the goal raise `PrologError` (the bridge never ends Python); Ctrl-C stops
    the goal and raises `KeyboardInterrupt`. A term nested more than `MAX_DEPTH` deep
    either way, or an answer holding an SWI dict or blob, raises `TermError`.
    """
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise InputError(f"limit must be a positive integer, got {limit!r}")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r}")
    names: dict[Var, str] = {}
    if isinstance(goal, str):
        text, read_module, shown = goal, module, "public"
        _check_nesting(text)
    else:
        try:
            text = format_term(goal, names, max_depth=MAX_DEPTH)
        except TermError as exc:
            raise TermError(f"the goal cannot cross the bridge: {exc}") from None
        read_module, shown = "logicpy_bridge", "all"
    request = ("query", String(text), read_module, module, shown,
               "none" if limit is None else limit, "none" if timeout is None else float(timeout),
               "true" if capture_output else "false")
    head, *lines = _request(request).split("\n")
    reply = parse_term(head)
    if reply == "timeout":
        raise PrologTimeout(f"query ran past its time limit of {timeout} s: {_short(text)}")
    _raise_for(reply, f"the query {_short(text)}")
    if reply[0] == "error":
        raise _prolog_error(reply, text)
    variables = {name: v for v, name in names.items()}
    answers = Answers()
    answers.residual = []
    for line in lines:
        _, bindings, residual = parse_term(line, dict(variables))
        answers.append({variables.get(name, name): value for (_, name, value) in bindings})
        answers.residual.append(residual)
    answers.output = reply[1].text if isinstance(reply[1], String) else ""
    return answers


def _check_nesting(text: str) -> None:
    """Refuse goal text whose brackets nest more than `MAX_DEPTH` deep (SWI reads them by C recursion).

    Operators are read without recursion, so text no longer than `MAX_DEPTH` is always
    safe; longer text is measured by its brackets (quoted ones included: an over-count).
    """
    if len(text) <= MAX_DEPTH:
        return
    depth = deepest = 0
    for bracket in re.findall(r"[(\[{]|[)\]}]", text):
        depth += 1 if bracket in "([{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise TermError(f"the goal text nests brackets {deepest:,} deep; terms deeper than {MAX_DEPTH:,} "
                        "do not cross the bridge (SWI-Prolog reads them by C recursion)")


def _prolog_error(reply: Term, goal_text: str) -> PrologError:
    """The exception for an error reply: the parsed error term and SWI's own message."""
    _, term_text, message = reply
    try:
        term = parse_term(term_text.text)
    except TermError:
        term = term_text.text  # e.g. a stream handle: no logicpy representation
    text = message.text.strip() if isinstance(message, String) else str(term)
    if len(text) > 2000:
        text = f"{text[:2000]}... ({len(text):,} characters)"
    if _is_syntax_error(term):
        what = term[1][1] if isinstance(term[1][1], str) else format_term(term[1][1])
        context = term[2]
        if isinstance(context, tuple) and context[0] == "string" and len(context) == 3:
            return PrologSyntaxError(
                f"syntax error ({what.replace('_', ' ')}) at character {context[2]} of the goal {goal_text!r}", term
            )
        return PrologSyntaxError(f"{text} (in query: {_short(goal_text)})", term)
    return PrologError(f"{text} (in query: {_short(goal_text)})", term)


def _is_syntax_error(term: Term) -> bool:
    """True iff `term` is error(syntax_error(_), _)."""
    return (isinstance(term, tuple) and len(term) == 3 and term[0] == "error"
            and isinstance(term[1], tuple) and term[1][0] == "syntax_error" and len(term[1]) == 2)
