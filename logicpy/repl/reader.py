"""Queries and programs in Prolog syntax: the core's canonical reader (`terms.parse_term`) plus operators.

`read_query("X #< Y, label([X,Y]).")` gives `(",", ("#<", X, Y), ("label", [X, Y]))` and the
query's named variables. The operators are SWI-Prolog's standard ones and clpfd's, with
their priorities and types, plus those `op/3` declares (`Operators`, one table per program
and session); arguments and list elements may be operator terms above 999 (`f(a:-b)`), as
SWI reads them. Beyond the core's syntax it reads curly terms (`{a,b}` is `'{}'((a,b))`),
character codes (`0'a`, `0'\\n`, `0''`), `0x1F`, `0o17`, `0b101` and digit groups
(`1_000_000`); everything else (atoms, numbers, strings, lists, partial lists, canonical
compounds, variable names, `_` always fresh) is read by the core.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NoReturn

from unification import Var  # type: ignore[import-untyped]

from ..core.terms import _OPENED, _TOKEN, _UNESCAPE, Term, _compound, _make_partial, _Parser
from ..errors import PrologError, TermError

#: Infix operators: name -> (priority, type), as SWI-Prolog and library(clpfd) declare them.
INFIX: dict[str, tuple[int, str]] = {
    ":-": (1200, "xfx"), "-->": (1200, "xfx"), ";": (1100, "xfy"), "|": (1100, "xfy"), "->": (1050, "xfy"),
    "*->": (1050, "xfy"), ",": (1000, "xfy"), ":=": (800, "xfx"),
    **{op: (700, "xfx") for op in ("=", "\\=", "==", "\\==", "=@=", "\\=@=", "@<", "@>", "@=<", "@>=", "=..", "is",
                                   "=:=", "=\\=", "<", ">", "=<", ">=", ">:<", ":<", "as", "#=", "#\\=", "#<",
                                   "#>", "#=<", "#>=", "in", "ins")},
    "..": (450, "xfx"), **{op: (500, "yfx") for op in ("+", "-", "\\/", "/\\")},
    **{op: (400, "yfx") for op in ("*", "/", "//", "mod", "rem", "div", "rdiv", "xor", "<<", ">>")},
    "**": (200, "xfx"), "^": (200, "xfy"), ":": (200, "xfy"),
    # library(clpfd)'s reification
    "#<==>": (760, "yfx"), "#==>": (750, "xfy"), "#<==": (750, "yfx"), "#\\/": (740, "yfx"), "#\\": (730, "yfx"),
    "#/\\": (720, "yfx"),
}

#: Prefix operators: name -> (priority, type).
PREFIX: dict[str, tuple[int, str]] = {
    ":-": (1200, "fx"), "?-": (1200, "fx"),
    **{op: (1150, "fx") for op in ("dynamic", "discontiguous", "initialization", "meta_predicate",
                                   "module_transparent", "multifile", "public", "thread_local", "table")},
    "\\+": (900, "fy"), "#\\": (710, "fy"), "-": (200, "fy"), "+": (200, "fy"), "\\": (200, "fy"), "$": (1, "fx")}

_TYPES = {"xfx": "infix", "xfy": "infix", "yfx": "infix", "fy": "prefix", "fx": "prefix", "xf": "postfix",
          "yf": "postfix"}


class Operators:
    """An operator table: `infix`, `prefix` and `postfix` map a name to (priority, type)."""

    def __init__(self, infix: dict[str, tuple[int, str]] | None = None,
                 prefix: dict[str, tuple[int, str]] | None = None,
                 postfix: dict[str, tuple[int, str]] | None = None):
        self.infix = dict(INFIX if infix is None else infix)
        self.prefix = dict(PREFIX if prefix is None else prefix)
        self.postfix = dict(postfix or {})

    def op(self, priority: Term, type_: Term, names: Term) -> None:
        """`op/3`: declare (priority 1..1200) or remove (0) operators, with ISO's errors."""
        if not isinstance(priority, int) or isinstance(priority, bool):
            _error("integer", priority, "type_error") if not _is_var(priority) else _instantiation()
        if not 0 <= priority <= 1200:
            _error("operator_priority", priority, "domain_error")
        if _is_var(type_):
            _instantiation()
        if type_ not in _TYPES:
            _error("operator_specifier", type_, "domain_error" if isinstance(type_, str) else "type_error")
        for name in _names(names):
            if name == "," or (name == "|" and (_TYPES[type_] != "infix" or 0 < priority < 1001)):
                raise PrologError(f"op/3: No permission to create operator `{name}'",
                                  ("error", ("permission_error", "create", "operator", name), ("context", "op/3", None)))
            table = getattr(self, _TYPES[type_])
            if priority == 0:
                table.pop(name, None)
            else:
                table[name] = (priority, type_)

    def copy(self) -> "Operators":
        return Operators(self.infix, self.prefix, self.postfix)

    def defined(self, name: str) -> list[tuple[int, str]]:
        """The (priority, type) of every definition of `name`, for current_op/3."""
        return [table[name] for table in (self.prefix, self.infix, self.postfix) if name in table]


def _is_var(t: Any) -> bool:
    return isinstance(t, Var)


def _names(names: Term) -> list[str]:
    items = names if isinstance(names, list) else [names]
    for name in items:
        if _is_var(name):
            _instantiation()
        if isinstance(name, list) and not name:
            name = "[]"
        if not isinstance(name, str):
            _error("atom", name, "type_error")
    return [n if isinstance(n, str) else "[]" for n in items]


def _instantiation() -> NoReturn:
    raise PrologError("op/3: Arguments are not sufficiently instantiated",
                      ("error", "instantiation_error", ("context", "op/3", None)))


def _error(kind: str, value: Term, error: str) -> NoReturn:
    from ..core.terms import format_term
    what = "Type error" if error == "type_error" else "Domain error"
    raise PrologError(f"op/3: {what}: `{kind}' expected, found `{format_term(value)}'",
                      ("error", (error, kind, value), ("context", "op/3", None)))


STANDARD = Operators()
"""SWI-Prolog's and clpfd's operators; never changed (programs and sessions change copies)."""

_current: ContextVar[Operators] = ContextVar("operators", default=STANDARD.copy())


def operators() -> Operators:
    """The operator table in force: the running program's or session's (`using`), else the
    process's own (a copy of `STANDARD`)."""
    return _current.get()


@contextmanager
def using(table: Operators) -> Iterator[Operators]:
    """Read and write with `table` (and let `op/3` change it) inside the block."""
    token = _current.set(table)
    try:
        yield table
    finally:
        _current.reset(token)


#: The core's tokens, with Prolog's other number forms first: character codes, hexadecimal,
#: octal and binary integers, and digit groups.
_TOKEN_MORE = re.compile(
    r"""(?P<more>-?(?:0'(?:''|\\(?:x[0-9a-fA-F]+\\?|[0-7]+\\?|.)|[^\\\n])|0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+
                       |[0-9]+(?:_[0-9]+)+(?![0-9_])(?!\.[0-9])))""" + "|" + _TOKEN.pattern,
    re.VERBOSE | re.DOTALL)


def _code(text: str) -> int:
    """The value of `0'c` (text after the sign)."""
    body = text[2:]
    if body == "''":
        return 39
    if body.startswith("\\") and len(body) > 1:
        escaped = body[1:]
        if len(escaped) > 1 and escaped[0] == "x":
            return int(escaped[1:].rstrip("\\"), 16)
        if escaped[0] in "01234567":
            return int(escaped.rstrip("\\"), 8)
        if escaped in _UNESCAPE:
            return ord(_UNESCAPE[escaped]) if _UNESCAPE[escaped] else -1
        raise ValueError(text)
    return ord(body)

_STARTS = ("var", "name", "number", "qatom", "string")


class _QueryParser(_Parser):
    """The core's reader with an operator-precedence layer around its terms."""

    def __init__(self, text: str, variables: Any):
        self.ops = operators()
        self.later: list[tuple[str, str, int]] = []  # the token after `ahead`, once looked at
        super().__init__(text, variables)

    def _next(self) -> tuple[str, str, int]:
        token = self.ahead
        self.ahead = self.later.pop() if self.later else next(self.tokens)
        return token

    def _after(self) -> tuple[str, str, int]:
        """The token after the next one."""
        if not self.later:
            self.later.append(next(self.tokens))
        return self.later[-1]

    def _scan(self, text: str) -> Iterator[tuple[str, str, int]]:
        pos = 0
        while pos < len(text):
            m = _TOKEN_MORE.match(text, pos)
            if not m:
                self._fail(pos, f"unexpected character {text[pos]!r}")
            kind = m.lastgroup or ""
            if kind != "space":
                yield ("number" if kind == "more" else kind), m.group(), pos
            pos = m.end()
        while True:
            yield "end", "", len(text)

    def _number(self, text: str, pos: int) -> Term:
        sign = -1 if text.startswith("-") else 1
        body = text.lstrip("-")
        try:
            if body.startswith("0'"):
                code = _code(body)
                if code < 0:
                    raise ValueError(body)
                return sign * code
            if body[:2] in ("0x", "0o", "0b"):
                return sign * int(body, 0)
        except ValueError:
            self._fail(pos, f"{text} is not a character code")
        if "_" in body:
            return sign * int(body.replace("_", ""))
        return super()._number(text, pos)

    def parse(self) -> Term:
        term = self._expr(1200)
        if self._peek()[0] == "symbol" and self._peek()[1] == ".":
            self._next()
        kind, text, pos = self._peek()
        if kind != "end":
            self._fail(pos, f"unexpected {text!r} (an operator or ',' missing?)")
        return term

    def _arguments(self, bracket: str, head: Any) -> Term:
        """The rest of a compound (`bracket` "(", functor `head`) or list ("[", its position)
        opened by the core's `_start`: each argument, element or tail an expression where ','
        (and '|' in a list) separates, as SWI reads them (`f(a:-b)` is `f((a:-b))`)."""
        args: list[Term] = []
        stop = "," if bracket == "(" else ",|"
        while True:
            args.append(self._expr(1200, stop))
            kind, text, pos = self._next()
            if text == "," and kind == "punct":
                continue
            if bracket == "(" and text == ")" and kind == "punct":
                return _compound(head, args)
            if bracket == "[" and text == "]" and kind == "punct":
                return args
            if bracket == "[" and text == "|" and kind == "punct":
                tail = self._expr(1200, stop)
                self._expect("]")
                return _make_partial(args, tail)
            closers = "')'" if bracket == "(" else "']' or '|'"
            self._fail(pos, f"expected ',' or {closers}, found {text or 'end of text'!r}")

    def _expr(self, most: int, stop: str = "") -> Term:
        left, left_priority = self._prefixed(most, stop)
        while True:
            kind_, text, pos = self._peek()
            postfix = self.ops.postfix.get(text) if kind_ in ("symbol", "name") else None
            op = self._infix(stop)
            if postfix is not None and (op is None or not self._starts_term_after()):
                priority, type_ = postfix
                if priority > most or left_priority > (priority - 1 if type_ == "xf" else priority):
                    return left
                self._next()
                left, left_priority = (text, left), priority
                continue
            if op is None:
                return left
            name, (priority, kind) = op
            left_most = priority - 1 if kind[0] == "x" else priority
            right_most = priority - 1 if kind[2] == "x" else priority
            if priority > most or left_priority > left_most:
                return left
            if kind_ == "number":  # "X-1": the scanner read "-1" as one number; keep the "1"
                self.ahead = ("number", text[1:], pos + 1)
            else:
                self._next()
            left, left_priority = (name, left, self._expr(right_most, stop)), priority

    def _starts_term_after(self) -> bool:
        """Whether the token after the next one can start a term (tells infix from postfix)."""
        kind, text, _ = self._after()
        return kind in _STARTS or (kind == "punct" and text in "([{") or (kind == "symbol" and text != ".")

    def _infix(self, stop: str = "") -> tuple[str, tuple[int, str]] | None:
        kind, text, _ = self._peek()
        infix = self.ops.infix
        if kind == "number" and text.startswith("-") and "-" in infix:
            return "-", infix["-"]
        if kind == "punct" and text in stop:
            return None
        if kind in ("symbol", "name", "punct") and text in infix and text != ".":
            return text, infix[text]
        if kind == "qatom" and text[1:-1] in infix and text[1:-1] not in (",", "|"):
            return text[1:-1], infix[text[1:-1]]
        return None

    def _prefixed(self, most: int, stop: str = "") -> tuple[Term, int]:
        kind, text, pos = self._peek()
        if kind == "punct" and text == "(":
            self._next()
            inner = self._expr(1200)
            self._expect(")")
            return inner, 0
        if kind == "punct" and text == "{" and self._after()[1] != "}":
            self._next()
            inner = self._expr(1200)
            self._expect("}")
            return ("{}", inner), 0
        prefix = self.ops.prefix
        if kind in ("symbol", "name") and text in prefix:
            self._next()
            nkind, ntext, npos = self._peek()
            if ntext == "(" and npos == pos + len(text):  # functional notation: -(1)
                self._next()
                return self._arguments("(", text), 0
            if nkind in _STARTS or (nkind == "punct" and ntext in "([{") or (
                    nkind == "symbol" and ntext in prefix and not self._is_infix_next()):
                priority, type_ = prefix[text]
                if nkind == "name" and ntext in self.ops.infix and ntext not in prefix and self._starts_term_after():
                    return text, 0  # `- mod 2`: the prefix operator is an operand
                arg = self._expr(priority if type_ == "fy" else priority - 1, stop)
                return (text, arg), priority if priority <= most else 0
            return text, (max(p for p, _ in self.ops.defined(text)) if nkind == "symbol" and ntext in self.ops.infix
                          else 0)
        term = self._start()
        if term is _OPENED:
            term = self._arguments(*self.opened)
        return term, 0

    def _is_infix_next(self) -> bool:
        """The next token (a symbol) is an infix operator followed by no term: `- = x` reads `-` as an atom."""
        kind, text, _ = self.ahead
        return text in self.ops.infix and text not in self.ops.prefix and self._starts_term_after()


def read_query(text: str) -> tuple[Term, dict[str, Var]]:
    """The query in `text` (Prolog syntax, the final '.' optional) and its named variables,
    in order of first appearance (`_` and names starting with `_` included)."""
    variables: dict[str, Any] = {}
    try:
        return _QueryParser(text, variables).parse(), variables
    except RecursionError:  # the operator layer recurses; a typed query is never this deep
        raise TermError("query: nested too deeply to read (use logicpy.core.parse_term for deep data)") from None


#: A character code or quoted text (kept) or a block comment (blanked) in a program.
_QUOTED_OR_COMMENT = re.compile(
    r"""0'(?:''|\\(?:x[0-9a-fA-F]+\\?|[0-7]+\\?|.)|[^\\\n])|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|/\*.*?\*/""",
    re.DOTALL)


class _ClauseParser(_QueryParser):
    """Clauses of a program, one after the other, each ending with '.'; errors name the line.
    An `op/3` directive changes the table in force before the next clause is read."""

    start = 0

    def clauses(self) -> Iterator[tuple[Term, int]]:
        line, counted = 1, 0  # `line`: the number of the line that text position `counted` is on
        while self._peek()[0] != "end":
            self.variables.clear()
            start = self.start = self._peek()[2]
            term = self._expr(1200)
            kind, text, pos = self._next()
            if kind != "symbol" or text != ".":
                self._fail(pos, f"unexpected {text or 'end of text'!r} (a '.' or an operator missing?)")
            line += self.text.count("\n", counted, start)
            counted = start
            for declared in _op_directives(term):
                try:
                    self.ops.op(*declared)
                except PrologError as exc:
                    raise TermError(f"{line}: {exc}") from None
            yield term, line

    def _fail(self, pos: int, why: str) -> NoReturn:
        if pos >= len(self.text.rstrip()):  # the text ended inside a clause: name the clause's line
            pos = self.start
        raise TermError(f"{self.text.count(chr(10), 0, pos) + 1}: syntax error: {why}")


def _op_directives(term: Term) -> list[tuple[Term, Term, Term]]:
    """The `op/3` calls of a directive `:- op(P, T, N)` (or several joined by ',')."""
    if not (isinstance(term, tuple) and len(term) == 2 and term[0] == ":-"):
        return []
    found, stack = [], [term[1]]
    while stack:
        goal = stack.pop()
        if isinstance(goal, tuple) and len(goal) == 3 and goal[0] == ",":
            stack.extend((goal[2], goal[1]))
        elif isinstance(goal, tuple) and len(goal) == 4 and goal[0] == "op":
            found.append(goal[1:])
    return found


def read_clauses(text: str) -> Iterator[tuple[Term, int]]:
    """The clauses and directives of program `text` (Prolog syntax, block and line comments
    allowed), each with the line it starts on; a syntax error is a `TermError` starting
    with the line number. `:- op(...)` directives take effect in the operator table in
    force (`operators()`) as they are read."""
    text = _QUOTED_OR_COMMENT.sub(
        lambda m: m.group() if m.group()[0] in "'\"0" else re.sub(r"[^\n]", " ", m.group()), text)
    try:
        yield from _ClauseParser(text, {}).clauses()
    except RecursionError:
        raise TermError("1: a clause nested too deeply to read") from None
