"""Queries in Prolog syntax: the core's canonical reader (`terms.parse_term`) plus operators.

`read_query("X #< Y, label([X,Y]).")` gives `(",", ("#<", X, Y), ("label", [X, Y]))` and the
query's named variables. The operators are SWI-Prolog's standard ones and clpfd's, with
their priorities and associativity; everything else (atoms, numbers, strings, lists,
partial lists, canonical compounds, variable names, `_` always fresh) is read by the core.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NoReturn

from unification import Var  # type: ignore[import-untyped]

from ..core.terms import _OPENED, Term, _make_partial, _Parser
from ..errors import TermError

#: Infix operators: name -> (priority, type), as SWI-Prolog and library(clpfd) declare them.
INFIX: dict[str, tuple[int, str]] = {
    ":-": (1200, "xfx"), ";": (1100, "xfy"), "|": (1100, "xfy"), "->": (1050, "xfy"), "*->": (1050, "xfy"),
    ",": (1000, "xfy"),
    **{op: (700, "xfx") for op in ("=", "\\=", "==", "\\==", "=@=", "\\=@=", "@<", "@>", "@=<", "@>=", "=..", "is", "=:=", "=\\=",
                                   "<", ">", "=<", ">=", "#=", "#\\=", "#<", "#>", "#=<", "#>=", "in", "ins")},
    "..": (450, "xfx"), **{op: (500, "yfx") for op in ("+", "-", "\\/", "/\\")},
    **{op: (400, "yfx") for op in ("*", "/", "//", "mod", "rem", "div", "xor", "<<", ">>")},
    "**": (200, "xfx"), "^": (200, "xfy"), ":": (200, "xfy"),
}

#: Prefix operators: name -> (priority, type).
PREFIX: dict[str, tuple[int, str]] = {
    ":-": (1200, "fx"), "?-": (1200, "fx"),
    **{op: (1150, "fx") for op in ("dynamic", "discontiguous", "initialization", "table")},
    "\\+": (900, "fy"), "-": (200, "fy"), "+": (200, "fy"), "\\": (200, "fy")}

_STARTS = ("var", "name", "number", "qatom", "string")


class _QueryParser(_Parser):
    """The core's reader with an operator-precedence layer around its terms."""

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
        opened by the core's `_start`: each argument, element or tail an expression of priority 999."""
        args: list[Term] = []
        while True:
            args.append(self._expr(999))
            kind, text, pos = self._next()
            if text == "," and kind == "punct":
                continue
            if bracket == "(" and text == ")" and kind == "punct":
                return (head, *args)
            if bracket == "[" and text == "]" and kind == "punct":
                return args
            if bracket == "[" and text == "|" and kind == "punct":
                tail = self._expr(999)
                self._expect("]")
                return _make_partial(args, tail, head, self)
            closers = "')'" if bracket == "(" else "']' or '|'"
            self._fail(pos, f"expected ',' or {closers}, found {text or 'end of text'!r}")

    def _expr(self, most: int) -> Term:
        left, left_priority = self._prefixed(most)
        while True:
            op = self._infix()
            if op is None:
                return left
            name, (priority, kind) = op
            left_most = priority - 1 if kind[0] == "x" else priority
            right_most = priority - 1 if kind[2] == "x" else priority
            if priority > most or left_priority > left_most:
                return left
            kind_, text, pos = self._peek()
            if kind_ == "number":  # "X-1": the scanner read "-1" as one number; keep the "1"
                self.ahead = ("number", text[1:], pos + 1)
            else:
                self._next()
            left, left_priority = (name, left, self._expr(right_most)), priority

    def _infix(self) -> tuple[str, tuple[int, str]] | None:
        kind, text, _ = self._peek()
        if kind == "number" and text.startswith("-"):
            return "-", INFIX["-"]
        if kind in ("symbol", "name", "punct") and text in INFIX and text != ".":
            return text, INFIX[text]
        return None

    def _prefixed(self, most: int) -> tuple[Term, int]:
        kind, text, pos = self._peek()
        if kind == "punct" and text == "(":
            self._next()
            inner = self._expr(1200)
            self._expect(")")
            return inner, 0
        if kind in ("symbol", "name") and text in PREFIX:
            self._next()
            nkind, ntext, npos = self._peek()
            if ntext == "(" and npos == pos + len(text):  # functional notation: -(1)
                self._next()
                return self._arguments("(", text), 0
            if nkind in _STARTS or (nkind == "punct" and ntext in "([{") or (nkind == "symbol" and ntext in PREFIX):
                priority, type_ = PREFIX[text]
                arg = self._expr(priority if type_ == "fy" else priority - 1)
                return (text, arg), priority if priority <= most else 0
            return text, 0
        term = self._start()
        if term is _OPENED:
            term = self._arguments(*self.opened)
        return term, 0


def read_query(text: str) -> tuple[Term, dict[str, Var]]:
    """The query in `text` (Prolog syntax, the final '.' optional) and its named variables,
    in order of first appearance (`_` and names starting with `_` included)."""
    variables: dict[str, Any] = {}
    try:
        return _QueryParser(text, variables).parse(), variables
    except RecursionError:  # the operator layer recurses; a typed query is never this deep
        raise TermError("query: nested too deeply to read (use logicpy.core.parse_term for deep data)") from None


#: Quoted text (kept) or a block comment (blanked) in a program.
_QUOTED_OR_COMMENT = re.compile(r"""'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|/\*.*?\*/""", re.DOTALL)


class _ClauseParser(_QueryParser):
    """Clauses of a program, one after the other, each ending with '.'; errors name the line."""

    start = 0

    def clauses(self) -> Iterator[tuple[Term, int]]:
        while self._peek()[0] != "end":
            self.variables.clear()
            start = self.start = self._peek()[2]
            term = self._expr(1200)
            kind, text, pos = self._next()
            if kind != "symbol" or text != ".":
                self._fail(pos, f"unexpected {text or 'end of text'!r} (a '.' or an operator missing?)")
            yield term, self.text.count("\n", 0, start) + 1

    def _fail(self, pos: int, why: str) -> NoReturn:
        if pos >= len(self.text.rstrip()):  # the text ended inside a clause: name the clause's line
            pos = self.start
        raise TermError(f"{self.text.count(chr(10), 0, pos) + 1}: syntax error: {why}")


def read_clauses(text: str) -> Iterator[tuple[Term, int]]:
    """The clauses and directives of program `text` (Prolog syntax, block and line comments
    allowed), each with the line it starts on; a syntax error is a `TermError` starting
    with the line number."""
    text = _QUOTED_OR_COMMENT.sub(
        lambda m: m.group() if m.group()[0] in "'\"" else re.sub(r"[^\n]", " ", m.group()), text)
    try:
        yield from _ClauseParser(text, {}).clauses()
    except RecursionError:
        raise TermError("1: a clause nested too deeply to read") from None
