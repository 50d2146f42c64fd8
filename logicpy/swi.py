"""The SWI-Prolog bridge: consult files into their own modules, run queries, get logicpy terms.

The only module that imports `pyswip`, and only when first used. Terms cross the
bridge as text in canonical Prolog syntax (`logicpy.core.terms.format_term` one way,
`parse_term` the other), so none of pyswip's own conversions are used: they crash on
integers of 2^63 or more and on rationals, return strings as bytes, turn a Python str
into a Prolog string instead of an atom, and hand out `Functor` objects whose `==`
crashes the process. Every call goes through one Prolog predicate, `serve/2` of the
module below, which reads a request term and always answers with a reply term: goals
run inside `catch/3` (never the tracer), under `call_with_time_limit/2` when a time
limit is given, and print messages of a consulted file are collected, not printed.
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unification import Var

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

__all__ = ["available", "consult", "query", "PrologModule", "Answers", "Message"]

INSTALL_HINT = (
    "install SWI-Prolog (Debian: apt-get install swi-prolog-nox) and pyswip (pip install 'logicpy[prolog]')"
)

_BRIDGE_SOURCE = r"""
:- module(logicpy_bridge, []).
:- use_module(library(time)).
:- use_module(library(solution_sequences)).
:- use_module(library(apply)).

:- thread_local collecting/0, collected/4.
:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

% While a file loads, its errors and warnings are recorded instead of printed.
user:message_hook(Term, Kind, Lines) :-
    logicpy_bridge:collecting,
    ( Kind == error ; Kind == warning ), !,
    logicpy_bridge:location(Term, File, Line),
    logicpy_bridge:lines_text(Lines, Text),
    assertz(logicpy_bridge:collected(Kind, File, Line, Text)).

location(error(_, file(File, Line, _, _)), File, Line) :- !.
location(_, File, Line) :- source_location(File, Line), !.
location(_, '', 0).

lines_text(Lines, Text) :-
    with_output_to(string(Text), print_message_lines(current_output, '', Lines)).

message_text(Term, Text) :-
    (   catch(phrase('$messages':translate_message(Term), Lines), _, fail)
    ->  lines_text(Lines, Text)
    ;   format(string(Text), "~q", [Term])
    ).

canonical(Term, VariableNames, Text) :-
    with_output_to(string(Text),
        write_term(Term, [quoted(true), ignore_ops(true), dotlists(false),
                          brace_terms(false), variable_names(VariableNames)])).

%!  serve(+RequestText, -ReplyText) is det.
%   The one entry point of the bridge: never fails, never throws. The reply is one
%   line per term (quoted text never holds a raw newline): the reply term, then the
%   answers of a query.
serve(RequestText, ReplyText) :-
    catch(( term_string(Request, RequestText), handle(Request, Reply, Answers) ),
          E, ( error_reply(E, Reply), Answers = [] )),
    canonical(Reply, [], Head),
    atomic_list_concat([Head|Answers], '\n', ReplyAtom),
    atom_string(ReplyAtom, ReplyText).

error_reply(E, error(TermText, Message)) :-
    canonical(E, [], TermText),
    shown_error(E, Shown),
    message_text(Shown, Message).

% The bridge's own frames (findall, catch) are no use in a message.
shown_error(error(Formal, context(Frame, Extra)), error(Formal, context(_, Extra))) :-
    nonvar(Frame),
    ( Frame = '$bags':_ ; Frame = system:catch/3 ), !.
shown_error(E, E).

handle(Request, Reply, []) :-
    Request \= query(_, _, _, _, _, _, _), !,
    handle(Request, Reply).
handle(query(GoalText, ReadModule, Module, Shown, Limit, Timeout, Capture), Reply, Texts) :-
    term_string(Goal, GoalText, [variable_names(Bindings), module(ReadModule)]),
    shown_bindings(Shown, Bindings, Answer),
    limited(Limit, Module:Goal, Limited),
    timed(Timeout, findall(Answer, Limited, Answers), Timed),
    captured(Capture, Timed, Output, Run),
    catch(Run, E, true),
    (   var(E)
    ->  maplist(answer_text, Answers, Texts),
        Reply = answers(Output)
    ;   Texts = [],
        (   time_out(E)
        ->  Reply = timeout
        ;   error_reply(E, Reply)
        )
    ).

handle(consult(File, Module), consulted(Messages)) :-
    retractall(collected(_, _, _, _)),
    setup_call_cleanup(
        assertz(collecting),
        catch(load_files(Module:File, [if(true)]), E, record(E)),
        retractall(collecting)),
    findall(message(K, F, L, T), retract(collected(K, F, L, T)), Messages).
handle(ping, pong).
handle(unload(File), done) :-
    unload_file(File).
record(E) :-
    location(E, File, Line),
    message_text(E, Text),
    assertz(collected(error, File, Line, Text)).

shown_bindings(all, Bindings, Bindings).
shown_bindings(public, Bindings, Shown) :-
    exclude(underscore_name, Bindings, Shown).

underscore_name(Name = _) :- sub_atom(Name, 0, _, _, '_').

limited(none, Goal, Goal) :- !.
limited(N, Goal, limit(N, Goal)).

timed(none, Goal, Goal) :- !.
timed(Seconds, Goal, call_with_time_limit(Seconds, Goal)).

captured(false, Goal, "", Goal).
captured(true, Goal, Output, with_output_to(string(Output), Goal)).

time_out(time_limit_exceeded).
time_out(time_limit_exceeded(_)).

% An answer is its bindings list and its residual goals; still-unbound goal variables
% keep their names.
answer_text(Bindings, Text) :-
    (   acyclic_term(Bindings)
    ->  true
    ;   throw(error(representation_error(cyclic_term), context(logicpy_answer/1, 'logicpy terms are acyclic')))
    ),
    copy_term(Bindings, Plain, Residual),   % constraints (dif/2, clpfd) as goals
    include(unbound_binding, Plain, Names),
    canonical(answer(Plain, Residual), Names, Text).

unbound_binding(_ = Value) :- var(Value).
"""

_PL_STRING, _REP_UTF8 = 6, 0x00100000
_CVT_STRING, _BUF_STACK = 0x2, 0x00010000
_PL_Q_NODEBUG, _PL_Q_CATCH_EXCEPTION = 0x04, 0x08


class _Engine:
    """The loaded libswipl with the bridge module consulted; calls `serve/2`."""

    def __init__(self) -> None:
        try:
            import pyswip.core as core  # the only pyswip import in logicpy
        except Exception as exc:  # ImportError, or pyswip failing to find libswipl
            raise PrologUnavailable(f"SWI-Prolog cannot be used ({exc}): {INSTALL_HINT}") from None
        lib = ctypes.CDLL(core._lib._name)
        self.lib = lib
        lib.PL_get_nchars.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t),
                                      ctypes.POINTER(ctypes.c_char_p), ctypes.c_uint]
        lib.PL_put_chars.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p]
        lib.PL_new_term_refs.restype = ctypes.c_size_t
        lib.PL_open_foreign_frame.restype = ctypes.c_size_t
        lib.PL_discard_foreign_frame.argtypes = [ctypes.c_size_t]
        lib.PL_predicate.restype = ctypes.c_void_p
        lib.PL_predicate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
        lib.PL_open_query.restype = ctypes.c_size_t
        lib.PL_open_query.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
        lib.PL_next_solution.argtypes = [ctypes.c_size_t]
        lib.PL_cut_query.argtypes = [ctypes.c_size_t]
        lib.PL_chars_to_term.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.PL_call.argtypes = [ctypes.c_size_t, ctypes.c_void_p]
        lib.PL_thread_attach_engine.argtypes = [ctypes.c_void_p]
        self._attach()
        load = (
            f"setup_call_cleanup(open_string({format_term(String(_BRIDGE_SOURCE))}, S), "
            "load_files(logicpy_bridge, [stream(S), silent(true)]), close(S))"
        )
        frame = lib.PL_open_foreign_frame()
        try:
            goal = lib.PL_new_term_refs(1)
            if not (lib.PL_chars_to_term(load.encode(), goal) and lib.PL_call(goal, None)):
                raise PrologUnavailable(f"could not load logicpy's bridge module into SWI-Prolog: {INSTALL_HINT}")
        finally:
            lib.PL_discard_foreign_frame(frame)
        self.serve = lib.PL_predicate(b"serve", 2, b"logicpy_bridge")

    def _attach(self) -> bool:
        """Give the calling Python thread a Prolog engine if it has none; True if attached now."""
        if self.lib.PL_thread_self() != -1:
            return False
        if self.lib.PL_thread_attach_engine(None) < 0:
            raise PrologError("could not attach a Prolog engine to this Python thread")
        return True

    def call(self, request: str) -> str:
        """Run serve(Request, Reply) and return the reply text."""
        lib = self.lib
        attached = self._attach()
        try:
            return self._call(request)
        finally:
            if attached:  # a Python thread that may end: give its engine back now
                lib.PL_thread_destroy_engine()

    def _call(self, request: str) -> str:
        lib = self.lib
        data = request.encode("utf-8")
        frame = lib.PL_open_foreign_frame()
        try:
            args = lib.PL_new_term_refs(2)
            lib.PL_put_chars(args, _PL_STRING | _REP_UTF8, len(data), data)
            qid = lib.PL_open_query(None, _PL_Q_NODEBUG | _PL_Q_CATCH_EXCEPTION, self.serve, args)
            try:
                if not lib.PL_next_solution(qid):
                    raise PrologError("the bridge predicate serve/2 failed (out of memory or stack?)")
                size, text = ctypes.c_size_t(), ctypes.c_char_p()
                if not lib.PL_get_nchars(args + 1, ctypes.byref(size), ctypes.byref(text),
                                         _CVT_STRING | _REP_UTF8 | _BUF_STACK):
                    raise PrologError("the bridge returned no reply text")
                return ctypes.string_at(text, size.value).decode("utf-8")
            finally:
                lib.PL_cut_query(qid)
        finally:
            lib.PL_discard_foreign_frame(frame)


_engine: _Engine | None = None
_lock = threading.Lock()
_owner: int | None = None


def _serve(request: Term) -> Term:
    """Send one request term, return the reply term; one request at a time."""
    return parse_term(_request(request).split("\n", 1)[0])


def _request(request: Term) -> str:
    """Send one request term, return the reply text (the reply term, then one line per answer)."""
    global _engine, _owner
    me = threading.get_ident()
    if _owner == me:
        raise PrologBusy(
            "a Prolog query is already running in this thread (called back from Prolog?); "
            "nested queries are refused"
        )
    with _lock:
        _owner = me
        try:
            if _engine is None:
                _engine = _Engine()
            return _engine.call(format_term(request))
        finally:
            _owner = None


def available() -> bool:
    """True iff SWI-Prolog and pyswip can be used here (loads them on first call)."""
    try:
        _serve("ping")
    except PrologUnavailable:
        return False
    return True


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
    again into another raises `PrologError`). A syntax error raises `PrologSyntaxError`
    naming the file and line, and nothing of the file stays loaded; other load errors
    raise `PrologError`; warnings are kept on the result, not printed.
    """
    file = Path(path).resolve()
    if not file.is_file():
        raise InputError(f"{path}: no such Prolog file")
    name = module or str(file)
    reply = _serve(("consult", str(file), name))
    messages = [Message(kind, file_, line, text.text.strip()) for (_, kind, file_, line, text) in reply[1]]
    errors = [m for m in messages if m.kind == "error"]
    if errors:
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        if any("Syntax error" in m.text for m in errors):
            _serve(("unload", str(file)))  # SWI loaded the good clauses: take them out again
            raise PrologSyntaxError(f"{errors[0]}{more}; nothing of {file.name} stays loaded",
                                    [str(m) for m in errors])
        raise PrologError(f"{errors[0]}{more}", [str(m) for m in errors])
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
    an existence error), and `PrologSyntaxError` for unreadable goal text.
    """
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise InputError(f"limit must be a positive integer, got {limit!r}")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r}")
    names: dict[Var, str] = {}
    if isinstance(goal, str):
        text, read_module, shown = goal, module, "public"
    else:
        text, read_module, shown = format_term(goal, names), "logicpy_bridge", "all"
    request = ("query", String(text), read_module, module, shown,
               "none" if limit is None else limit, "none" if timeout is None else float(timeout),
               "true" if capture_output else "false")
    head, *lines = _request(request).split("\n")
    reply = parse_term(head)
    if reply == "timeout":
        raise PrologTimeout(f"query ran past its time limit of {timeout} s: {text}")
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


def _prolog_error(reply: Term, goal_text: str) -> PrologError:
    """The exception for an error reply: the parsed error term and SWI's own message."""
    _, term_text, message = reply
    try:
        term = parse_term(term_text.text)
    except TermError:
        term = term_text.text  # e.g. a stream handle: no logicpy representation
    text = message.text.strip() if isinstance(message, String) else str(term)
    if _is_syntax_error(term):
        what = term[1][1] if isinstance(term[1][1], str) else format_term(term[1][1])
        context = term[2]
        if isinstance(context, tuple) and context[0] == "string" and len(context) == 3:
            return PrologSyntaxError(
                f"syntax error ({what.replace('_', ' ')}) at character {context[2]} of the goal {goal_text!r}", term
            )
        return PrologSyntaxError(f"{text} (in query: {goal_text})", term)
    return PrologError(f"{text} (in query: {goal_text})", term)


def _is_syntax_error(term: Term) -> bool:
    """True iff `term` is error(syntax_error(_), _)."""
    return (isinstance(term, tuple) and len(term) == 3 and term[0] == "error"
            and isinstance(term[1], tuple) and term[1][0] == "syntax_error" and len(term[1]) == 2)
