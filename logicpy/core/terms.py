"""logicpy's single term representation, shared by the core, the Prolog bridge and JSON.

    Prolog                 Python (logicpy)                       JSON (`to_json`)
    ---------------------  -------------------------------------  -----------------------------------
    atom  foo              str  "foo"                             "foo"
    integer, float         int (any size), float (finite)         number
    rational 1r3           fractions.Fraction(1, 3)               {"rational": "1/3"}
    string "text"          String("text")                         {"string": "text"}
    [a, b]                 list  ["a", "b"]                       ["a", "b"]
    [a | T] (partial)      cons("a", T)   (cons package, as kanren)  {"list": ["a"], "tail": {"var": "T"}}
    f(a, B)                tuple ("f", "a", B): the functor first {"functor": "f", "args": ["a", {"var": "B"}]}
    variable               `var()`, a kanren `Var` (`Variable`)   {"var": "B"}

Compound terms are tuples so that kanren unifies and reifies them without any
extension, and they stay hashable for tabling and signatures. One-way conversions:
`True`/`False` become the atoms `true`/`false`, and a `Fraction` whose denominator is 1
is the integer in Prolog. `None`, dicts, sets, infinities, NaN and other Python objects
are not terms: `check_term` names them and where they sit.

`format_term` writes Prolog text in canonical syntax (no operators: `+(1,2)`), which
`parse_term` reads back; the Prolog bridge sends and receives terms as that text.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from itertools import count
from typing import Any, Iterator, Mapping, MutableMapping, NoReturn

from cons import cons
from cons.core import ConsPair
from unification import Var

from logicpy.errors import TermError

__all__ = [
    "var",
    "vars",
    "Variable",
    "cons",
    "String",
    "Term",
    "check_term",
    "format_term",
    "parse_term",
    "to_json",
    "from_json",
    "variable_name",
]

#: Any logicpy term (see the module table); a type alias for documentation.
Term = Any


#: Numbers the tokens of logicpy's variables (`next` on it is atomic: threads may share it).
_TOKENS = count(1)


class Variable(Var):
    """logicpy's logic variable: a `unification.Var` (every kanren goal and `isvar` accept
    it) that is equal only to itself and hashes by identity, so a lookup in a substitution
    costs no Python call. Its token (`x_12`) is for display. Copies are the variable itself;
    unpickling makes a fresh variable of the same name.
    """

    __slots__ = ()

    def __new__(cls, prefix: str = "") -> Variable:
        obj = object.__new__(cls)
        obj.token = f"{prefix}_{next(_TOKENS)}"
        return obj

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __copy__(self) -> Variable:
        return self

    def __deepcopy__(self, memo: Any) -> Variable:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return Variable, (variable_name(self),)


def var(name: str | None = None) -> Var:
    """A fresh logic variable; `name` is only for display, never shared.

    kanren's own `var("x")` returns the same variable for the same name, silently
    linking two unrelated uses; this one never does.

    >>> var("x") is var("x")
    False
    """
    return Variable(name or "")


def vars(n: int, name: str | None = None) -> list[Var]:
    """`n` fresh logic variables.

    >>> len(set(vars(3)))
    3
    """
    return [var(name) for _ in range(n)]


@dataclass(frozen=True)
class String:
    """A Prolog string ("text"), distinct from an atom (a Python `str`)."""

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TermError(f"String text must be str, got {type(self.text).__name__} {self.text!r}")


# ---------------------------------------------------------------- validation


def check_term(value: Any, path: str = "term") -> Any:
    """Return `value` unchanged if it is a logicpy term, else raise `TermError` naming the culprit.

    The error names the offending value and its place, written as Python indexing
    from `path` (e.g. `term[2][0]`; `.tail` for the tail of a partial list).

    >>> check_term(("f", "a", [1, None]))
    Traceback (most recent call last):
    ...
    logicpy.errors.TermError: term[2][1]: None is not a logicpy term (atoms are str, compounds are tuples ("f", arg, ...))
    """
    _check(value, path)
    return value


def _check(value: Any, path: str) -> None:
    if isinstance(value, (str, bool, int, String, Fraction, Var)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TermError(f"{path}: {value!r} is not a logicpy term (only finite floats)")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
    elif isinstance(value, tuple):
        if not value or not isinstance(value[0], str):
            raise TermError(
                f"{path}: {value!r} is not a compound term (a tuple needs a str functor first, like ('f', 'a'))"
            )
        if value[0] == "[|]" and len(value) == 3:
            raise TermError(f"{path}: functor '[|]'/2 is Prolog's list cell; write a list or cons(head, tail)")
        for i, item in enumerate(value[1:], start=1):
            _check(item, f"{path}[{i}]")
    elif type(value) is ConsPair:
        items, tail = _unroll(value)
        for i, item in enumerate(items):
            _check(item, f"{path}.list[{i}]")
        if not isinstance(tail, (Var, str, int, float, Fraction, String)) or isinstance(tail, bool):
            raise TermError(f"{path}.tail: {tail!r} cannot end a partial list (a variable or an atomic term)")
        _check(tail, f"{path}.tail")
    else:
        raise TermError(
            f"{path}: {value!r} is not a logicpy term (atoms are str, compounds are tuples (\"f\", arg, ...))"
        )


def _unroll(pair: ConsPair) -> tuple[list, Any]:
    """The items and the final tail of a chain of cons pairs."""
    items = []
    while type(pair) is ConsPair:
        items.append(pair.car)
        pair = pair.cdr
    return items, pair


def _cons_chain(items: list, tail: Term) -> Term:
    """The partial list of `items` ending in `tail` (a list tail gives a plain list)."""
    if isinstance(tail, list):
        return items + tail
    for item in reversed(items):
        tail = ConsPair(item, tail)
    return tail


# ---------------------------------------------------------------- variable names


def variable_name(v: Var) -> str:
    """The display name a variable was created with (`var("x")` → "x"), or "" if none."""
    token = v.token
    if not isinstance(token, str):
        return ""
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9]*)_\d+", token)
    if m:
        return m.group(1)
    return token if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", token) else ""


class _Namer:
    """Gives each variable of one text or document a distinct, stable name."""

    def __init__(self, names: MutableMapping[Var, str] | None, numbered: bool):
        self.names: MutableMapping[Var, str] = {} if names is None else names
        self.used = set(self.names.values())
        self.numbered = numbered

    def __call__(self, v: Var) -> str:
        name = self.names.get(v)
        if name is None:
            base = "" if self.numbered else variable_name(v)
            if base:
                base = base[0].upper() + base[1:]
                name, k = base, 1
                while name in self.used:
                    name, k = f"{base}{k}", k + 1
            else:
                k = len(self.used)
                while f"_G{k}" in self.used:
                    k += 1
                name = f"_G{k}"
            self.names[v] = name
            self.used.add(name)
        return name


# ---------------------------------------------------------------- Prolog text

_SOLO_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*")
_SYMBOL_ATOM = re.compile(r"[#$&*+\-/:<=>?@^~\\]+")
_SYMBOL_CHARS = "#$&*+-./:<=>?@^~\\"
_ESCAPES = {"\\": "\\\\", "'": "\\'", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
            "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def _quote(text: str, quote: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES and (ch not in "'\"" or ch == quote):
            out.append(_ESCAPES[ch])
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\x{ord(ch):x}\\")
        else:
            out.append(ch)
    return quote + "".join(out) + quote


def _atom_text(name: str) -> str:
    if _SOLO_ATOM.fullmatch(name):  # ASCII only: non-ASCII atoms are always quoted
        return name
    if _SYMBOL_ATOM.fullmatch(name) and "/*" not in name:
        return name
    return _quote(name, "'")


def _float_text(x: float) -> str:
    text = repr(x)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def format_term(
    term: Term, names: MutableMapping[Var, str] | None = None, *, numbered: bool = False, max_depth: int | None = None
) -> str:
    """`term` as Prolog text in canonical syntax, quoting atoms where needed.

    Variables are written by their display name (`var("x")` → `X`), or `_G<n>`;
    pass a dict as `names` to fix or collect the names used. With `numbered=True`
    every variable is named `_G0`, `_G1`, ... in order of first appearance, so two
    terms equal up to renaming of variables give the same text. Terms of any depth
    are written (there is no recursion); with `max_depth`, a term nested deeper
    (compounds and lists inside each other) raises `TermError` instead.

    >>> print(format_term(("point", 1, "New York", [String("x"), Fraction(1, 3)], var("z"))))
    point(1,'New York',["x",1r3],Z)
    """
    namer = _Namer(names, numbered)
    out: list[str] = []
    _write(term, namer, out, max_depth)
    return "".join(out)


def _write(term: Term, namer: _Namer, out: list[str], max_depth: int | None) -> None:
    """Append the text of `term` to `out`, keeping the open compounds and lists on a stack.

    A frame is [arguments, index of the next one, index of the first, closing text,
    the tail of a partial list (or None), True for a partial list].
    """
    frames: list[list[Any]] = []
    frame: list[Any]
    append = out.append
    while True:
        if isinstance(term, str):
            append(_atom_text(term))
        elif isinstance(term, bool):
            append("true" if term else "false")
        elif isinstance(term, int):
            append(str(term))
        elif isinstance(term, float) and math.isfinite(term):
            append(_float_text(term))
        elif isinstance(term, Fraction):
            append(str(term.numerator) if term.denominator == 1 else f"{term.numerator}r{term.denominator}")
        elif isinstance(term, String):
            append(_quote(term.text, '"'))
        elif isinstance(term, list) and not term:
            append("[]")
        elif isinstance(term, (list, tuple)) or type(term) is ConsPair:
            if isinstance(term, list):
                frame = [term, 0, 0, "]", None, False]
                append("[")
            elif isinstance(term, tuple):
                if not term or not isinstance(term[0], str) or (term[0] == "[|]" and len(term) == 3):
                    _check(term, _where(frames))
                frame = [term, 1, 1, ")", None, False]
                append(_atom_text(term[0]) + "(")
            else:
                items, tail = _unroll(term)
                if not isinstance(tail, (Var, str, int, float, Fraction, String)) or isinstance(tail, bool):
                    _check(term, _where(frames))
                frame = [items, 0, 0, "]", tail, True]
                append("[")
            if max_depth is not None and len(frames) >= max_depth:
                raise TermError(f"{_where(frames)}: nested more than {max_depth:,} deep "
                                "(compounds and lists inside each other)")
            frames.append(frame)
        elif isinstance(term, Var):  # after the compounds: this test hashes its argument
            append(namer(term))
        else:
            _check(term, _where(frames))
        while frames:  # the next argument to write; close what is complete
            frame = frames[-1]
            args, i = frame[0], frame[1]
            if i < len(args):
                if i > frame[2]:
                    append(",")
                frame[1] = i + 1
                term = args[i]
                break
            if frame[5] and i == len(args):
                append("|")
                frame[1] = i + 1
                term = frame[4]
                break
            append(frame[3])
            frames.pop()
        else:
            return


def _where(frames: list[list]) -> str:
    """The writer's place in the term, as Python indexing from `term` (as `check_term` names it);
    past 12 steps, the first 8 and the last 3."""
    steps = [(".tail" if i > len(args) else f".list[{i - 1}]") if partial else f"[{i - 1}]"
             for args, i, _, _, _, partial in frames]
    if len(steps) > 12:
        steps = [*steps[:8], f"...({len(steps) - 11:,} more)...", *steps[-3:]]
    return "term" + "".join(steps)


_TOKEN = re.compile(
    r"""
    (?P<space>\s+|%[^\n]*)
  | (?P<number>-?[0-9]+(?:r[0-9]+|(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?:Inf|NaN)?))
  | (?P<var>[_A-Z][\w]*)
  | (?P<name>(?:[^\W\d_]|[\u1885\u1886\u2118\u212e\u309b\u309c])(?:\w|[^\x00-\x7f\s])*)
  | (?P<qatom>'(?:[^'\\]|\\x[0-9a-fA-F]+\\|\\[0-7]+\\|\\.|'')*')
  | (?P<string>"(?:[^"\\]|\\x[0-9a-fA-F]+\\|\\[0-7]+\\|\\.|"")*")
  | (?P<symbol>(?:[#$&*+\-./:<=>?@^~\\]|[^\x00-\x7f\w\s])+)
  | (?P<punct>[()\[\]{},|!;])
    """,
    re.VERBOSE | re.DOTALL,
)
"""Tokens of canonical text. SWI writes some non-ASCII atoms unquoted: a letter and what
follows it (combining marks included) is one name, a run of ASCII symbol characters and
non-ASCII non-letters one symbol atom (Unicode's Other_ID_Start characters such as ℘
start names); a capital (category Lu) first is a variable."""


def parse_term(text: str, variables: MutableMapping[str, Var] | None = None) -> Term:
    """Read one term in canonical Prolog syntax (as `format_term` and `write_canonical` write it).

    Operators are not parsed: write `+(1,2)`, not `1+2`. Named variables are looked
    up in (and added to) `variables`, so the same name is the same `Var`; `_` is
    always fresh. Terms of any depth are read (there is no recursion). Malformed
    text raises `TermError` naming the position.

    >>> parse_term("f('A b', [1, 2|T], \\"s\\", 2r4, -(1))")  # doctest: +ELLIPSIS
    ('f', 'A b', ConsPair(1, ConsPair(2, ~T_...)), String(text='s'), Fraction(1, 2), ('-', 1))
    """
    return _Parser(text, {} if variables is None else variables).parse()


class _Parser:
    def __init__(self, text: str, variables: MutableMapping[str, Var]):
        self.text = text
        self.variables = variables
        self.tokens = self._scan(text)
        self.ahead = next(self.tokens)
        self.opened: tuple[str, Any] = ("", None)

    def _scan(self, text: str) -> Iterator[tuple[str, str, int]]:
        """Tokens (kind, text, position), lazily, then ("end", "", len(text)) forever."""
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                self._fail(pos, f"unexpected character {text[pos]!r}")
            kind = m.lastgroup or ""  # every alternative of _TOKEN is a named group
            if kind != "space":
                yield kind, m.group(), pos
            pos = m.end()
        while True:
            yield "end", "", len(text)

    def _fail(self, pos: int, why: str) -> NoReturn:
        raise TermError(f"cannot read Prolog term at character {pos} of {self.text[:200]!r}: {why}")

    def _peek(self) -> tuple[str, str, int]:
        return self.ahead

    def _next(self) -> tuple[str, str, int]:
        token = self.ahead
        self.ahead = next(self.tokens)
        return token

    def _expect(self, value: str) -> None:
        kind, text, pos = self._next()
        if text != value or kind not in ("punct", "symbol"):
            self._fail(pos, f"expected {value!r}, found {text or 'end of text'!r}")

    def parse(self) -> Term:
        term = self._term()
        if self._peek()[0] == "symbol" and self._peek()[1] == ".":
            self._next()
        kind, text, pos = self._peek()
        if kind != "end":
            self._fail(pos, f"unexpected {text!r} after the term")
        return term

    def _term(self) -> Term:
        """Read one term, keeping the compounds and lists still open on a stack (no recursion).

        The innermost open one is `bracket` ("(" for a compound, "[" for a list, "|" for
        a partial list's tail), `head` (the functor, or the list's position) and `args`
        (the arguments read so far); the ones around it wait on `outer`.
        """
        outer: list[tuple[str, Any, list]] = []
        bracket: str = ""
        head: Any = None
        args: list | None = None
        while True:
            term = self._start()
            if term is _OPENED:
                if args is not None:
                    outer.append((bracket, head, args))
                (bracket, head), args = self.opened, []
                continue
            while args is not None:  # the term read completes an argument; close what is complete
                if bracket == "|":
                    self._expect("]")
                    term = _make_partial(args, term, head, self)
                else:
                    args.append(term)
                    kind, text, pos = self._next()
                    if text == ",":
                        break
                    if bracket == "(" and text == ")" and kind == "punct":
                        term = (head, *args)
                    elif bracket == "[" and text == "]" and kind == "punct":
                        term = args
                    elif bracket == "[" and text == "|" and kind == "punct":
                        bracket = "|"
                        break
                    else:
                        closers = "')'" if bracket == "(" else "']' or '|'"
                        self._fail(pos, f"expected ',' or {closers}, found {text or 'end of text'!r}")
                bracket, head, args = outer.pop() if outer else ("", None, None)
            else:
                return term

    def _start(self) -> Term:
        """An atomic term or a complete empty compound or list; or, for one with arguments
        to read, `_OPENED`, with its bracket and functor (or position) in `self.opened`."""
        kind, text, pos = self._next()
        if kind == "number":
            return self._number(text, pos)
        if kind == "var" or (kind == "name" and unicodedata.category(text[0]) == "Lu"):
            if text == "_":
                return var()
            if text not in self.variables:
                name = text.lstrip("_")
                self.variables[text] = var(name if name[:1].isalpha() else None)
            return self.variables[text]
        if kind == "string":
            return String(_unquote(text, pos, self))
        if kind in ("name", "qatom", "symbol") or (kind == "punct" and text in "!;|,"):
            name = _unquote(text, pos, self) if kind == "qatom" else text
            if kind == "punct" and text in "|,":
                self._fail(pos, f"unexpected {text!r}")
            ahead = self.ahead
            if ahead[1] != "(" or ahead[2] != pos + len(text):
                return name  # an atom (tested here: the commonest case)
            return self._maybe_compound(name, pos + len(text), name)
        if kind == "punct" and text == "[":
            if self._peek()[1] == "]":
                self._next()
                return self._maybe_compound("[]", pos + 2, [])
            self.opened = ("[", pos)
            return _OPENED
        if kind == "punct" and text == "{":
            self._expect("}")
            return self._maybe_compound("{}", pos + 2, "{}")
        self._fail(pos, f"unexpected {text or 'end of text'!r}")

    def _maybe_compound(self, name: str, end: int, plain: Term) -> Term:
        """`name(` right at `end` opens a compound (`name()` is one without arguments); else `plain`."""
        _, text, pos = self.ahead
        if text == "(" and pos == end:
            self._next()
            if self.ahead[1] == ")":
                self._next()
                return (name,)
            self.opened = ("(", name)
            return _OPENED
        return plain

    def _number(self, text: str, pos: int) -> Term:
        sign = -1 if text.startswith("-") else 1
        body = text.lstrip("-")
        if body.endswith(("Inf", "NaN")):
            self._fail(pos, f"{text} is not finite; logicpy terms hold finite floats only")
        if "r" in body:
            num, den = body.split("r")
            return Fraction(sign * int(num), int(den))
        if "." in body or "e" in body or "E" in body:
            return sign * float(body)
        return sign * int(body)


_OPENED = object()
"""What `_Parser._start` returns after opening a compound or list whose arguments follow."""


_UNESCAPE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
             "e": "\x1b", "s": " ", "z": "", "\\": "\\", "'": "'", '"': '"', "`": "`", "\n": ""}


def _unquote(token: str, pos: int, parser: _Parser) -> str:
    quote, body = token[0], token[1:-1]
    if "\\" not in body and quote not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == quote:  # doubled quote
            out.append(quote)
            i += 2
        elif ch != "\\":
            out.append(ch)
            i += 1
        else:
            nxt = body[i + 1]
            m = re.match(r"x([0-9a-fA-F]+)\\|([0-7]+)\\|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})", body[i + 1:])
            if m:
                digits = m.group(1) or m.group(2) or m.group(3) or m.group(4)
                out.append(chr(int(digits, 8 if m.group(2) else 16)))
                i += 1 + m.end()
            elif nxt in _UNESCAPE:
                out.append(_UNESCAPE[nxt])
                i += 2
            else:
                parser._fail(pos + i, f"unknown escape \\{nxt}")
    return "".join(out)


def _make_partial(items: list, tail: Term, pos: int, parser: _Parser) -> Term:
    if type(tail) is ConsPair:
        more, tail = _unroll(tail)
        items = items + more
    if isinstance(tail, tuple):
        parser._fail(pos, "a list ending in a compound term ([a|f(b)]) has no logicpy representation")
    return _cons_chain(items, tail)


# ---------------------------------------------------------------- JSON


def to_json(term: Term, names: MutableMapping[Var, str] | None = None) -> Any:
    """`term` as JSON-ready data (see the module table); lossless except bool → atom.

    Variables get distinct names within one call (or as fixed in `names`).

    >>> to_json(("f", "a", [1, String("s")], Fraction(1, 3)))
    {'functor': 'f', 'args': ['a', [1, {'string': 's'}], {'rational': '1/3'}]}
    """
    return _to_json(term, _Namer(names, False), "term")


def _to_json(term: Term, namer: _Namer, path: str) -> Any:
    if isinstance(term, bool):
        return "true" if term else "false"
    if isinstance(term, (str, int)):
        return term
    if isinstance(term, float):
        return check_term(term, path)
    if isinstance(term, Fraction):
        return {"rational": f"{term.numerator}/{term.denominator}"}
    if isinstance(term, String):
        return {"string": term.text}
    if isinstance(term, list):
        return [_to_json(x, namer, f"{path}[{i}]") for i, x in enumerate(term)]
    if isinstance(term, tuple):
        check_term(term[:1] if term else term, path)
        return {"functor": term[0], "args": [_to_json(x, namer, f"{path}[{i}]") for i, x in enumerate(term[1:], 1)]}
    if isinstance(term, Var):
        return {"var": namer(term)}
    if type(term) is ConsPair:
        check_term(term, path)
        items, tail = _unroll(term)
        return {"list": [_to_json(x, namer, f"{path}.list[{i}]") for i, x in enumerate(items)],
                "tail": _to_json(tail, namer, f"{path}.tail")}
    return check_term(term, path)


def from_json(data: Any, variables: MutableMapping[str, Var] | None = None) -> Term:
    """The term that `to_json` encoded as `data`; one name is one (fresh) variable.

    Malformed data raises `TermError` naming the place, e.g. `json["args"][0]`.

    >>> from_json({"functor": "f", "args": [{"var": "X"}, {"var": "X"}]})  # doctest: +ELLIPSIS
    ('f', ~X_..., ~X_...)
    """
    return _from_json(data, {} if variables is None else variables, "json")


def _from_json(data: Any, variables: MutableMapping[str, Var], path: str) -> Term:
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, (str, int)):
        return data
    if isinstance(data, float):
        return check_term(data, path)
    if isinstance(data, list):
        return [_from_json(x, variables, f"{path}[{i}]") for i, x in enumerate(data)]
    if isinstance(data, Mapping):
        keys = set(data)
        if keys == {"functor", "args"} and isinstance(data["functor"], str) and isinstance(data["args"], list):
            return (data["functor"], *(_from_json(x, variables, f'{path}["args"][{i}]')
                                       for i, x in enumerate(data["args"])))
        if keys == {"var"} and isinstance(data["var"], str):
            name = data["var"]
            if name == "_":
                return var()
            if name not in variables:
                variables[name] = var(name.lstrip("_") or None)
            return variables[name]
        if keys == {"string"} and isinstance(data["string"], str):
            return String(data["string"])
        if keys == {"rational"} and isinstance(data["rational"], str):
            m = re.fullmatch(r"(-?\d+)/(\d+)", data["rational"])
            if m and int(m.group(2)) != 0:
                return Fraction(int(m.group(1)), int(m.group(2)))
        if keys == {"list", "tail"} and isinstance(data["list"], list) and data["list"]:
            items = [_from_json(x, variables, f'{path}["list"][{i}]') for i, x in enumerate(data["list"])]
            tail = _from_json(data["tail"], variables, f'{path}["tail"]')
            return check_term(_cons_chain(items, tail), path)
    raise TermError(f"{path}: {data!r} is not a JSON-encoded logicpy term")
