"""logicpy's single term representation, shared by the core, the Prolog bridge and JSON.

    Prolog                 Python (logicpy)                       JSON (`to_json`)
    ---------------------  -------------------------------------  -----------------------------------
    atom  foo              str  "foo"                             "foo"
    integer, float         int (any size), float (finite)         number
    rational 1r3           fractions.Fraction(1, 3)               {"rational": "1/3"}
    string "text"          String("text")                         {"string": "text"}
    [a, b]                 list  ["a", "b"]                       ["a", "b"]
    [a | T] (partial)      cons("a", T)   (a cons pair, as kanren)   {"list": ["a"], "tail": {"var": "T"}}
    [a | f(b)]             cons("a", ("f", "b"))  (a cell: any tail)  {"list": ["a"], "tail": {"functor": "f", ...}}
    f(a, B)                tuple ("f", "a", B): the functor first {"functor": "f", "args": ["a", {"var": "B"}]}
    variable               `var()`, a kanren `Var` (`Variable`)   {"var": "B"}

Compound terms are tuples so that kanren unifies and reifies them without any
extension, and they stay hashable for tabling and signatures. A list cell is no compound:
logicpy's unifier never unifies the two (the `cons` package reads a tuple as a sequence).
Two more forms of a proper list appear inside a search and mean exactly the list they
stand for: `cons(h, xs)` with a list `xs` (a cell in front of the list, not a copy of it)
and `Suffix(xs, k)`, the list `xs[k:]` sharing `xs` (what a list's tail is bound to when
it meets a cons pair).
Answers are always plain lists. One-way conversions:
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

from cons.core import ConsPair
from unification import Var

from logicpy.errors import TermError

__all__ = [
    "var",
    "vars",
    "Variable",
    "cons",
    "Suffix",
    "String",
    "Term",
    "check_term",
    "format_term",
    "parse_term",
    "to_json",
    "from_json",
    "variable_name",
    "is_var",
]

#: Any logicpy term (see the module table); a type alias for documentation.
Term = Any


#: Numbers the tokens of logicpy's variables (`next` on it is atomic: threads may share it).
_TOKEN_SLOT: Any = Var.__dict__["token"]
_TOKENS = count(1)


class Variable(Var):
    """logicpy's logic variable: a `unification.Var` (every kanren goal and `isvar` accept
    it) that is equal only to itself and hashes by identity, so a lookup in a substitution
    costs no Python call. Its token (`x_12`) is for display, numbered when first asked for
    (`object.__new__(Variable)` is a fresh variable too: what compiled clauses make). Copies
    are the variable itself; unpickling makes a fresh variable of the same name.
    """

    __slots__ = ()

    def __new__(cls, prefix: str = "") -> Variable:
        obj = object.__new__(cls)
        if prefix:
            obj.token = f"{prefix}_{next(_TOKENS)}"
        return obj

    @property  # type: ignore[override]
    def token(self) -> str:  # a property, not `__getattr__`: that would slow every attribute look-up
        try:
            return _TOKEN_SLOT.__get__(self, Var)
        except AttributeError:
            token = f"_{next(_TOKENS)}"
            _TOKEN_SLOT.__set__(self, token)
            return token

    @token.setter
    def token(self, value: str) -> None:
        _TOKEN_SLOT.__set__(self, value)

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


class Suffix:
    """The proper list `items[start:]`, sharing `items` instead of copying it (0 < start <
    len(items)); immutable, and never shown to users: answers read it as a plain list."""

    __slots__ = ("items", "start")

    def __init__(self, items: list, start: int):
        self.items = items
        self.start = start

    def __len__(self) -> int:
        return len(self.items) - self.start

    def to_list(self) -> list:
        """The elements as a new Python list."""
        return self.items[self.start:]

    def __eq__(self, other: object) -> bool:
        if type(other) is Suffix:
            other = other.to_list()
        return type(other) is list and self.to_list() == other

    __hash__ = None  # type: ignore[assignment]  # unhashable, as the list it stands for

    def __repr__(self) -> str:
        return f"Suffix({self.to_list()!r})"


def is_var(term: Any) -> bool:
    """True iff `term` is a logic variable. `isinstance(term, Var)` would hash any other
    term (`unification` looks it up among its global variables), and a long cons chain's
    hash recurses along it."""
    kind = term.__class__
    return kind is Variable or kind is Var or (kind not in _NOT_VARIABLES and issubclass(kind, Var))


#: Types that are never logic variables, known without a subclass test.
_NOT_VARIABLES = frozenset({str, int, float, bool, list, tuple, ConsPair, Fraction})


def term_variables(term: Any) -> list:
    """The distinct logic variables of a term, in order of first appearance (term_variables/2)."""
    return list(variables_in(term))


def variables_in(term: Any) -> Iterator[Var]:
    """The distinct logic variables of `term` in order of first appearance, lazily; a loop,
    so any depth and length. A mapping inside is read by its keys (as a raw linear
    constraint's coefficients are)."""
    seen: set = set()
    stack = [term]
    while stack:
        t = stack.pop()
        kind = t.__class__
        if kind is str or kind is int:
            continue
        if kind is tuple:
            stack.extend(reversed(t))
        elif is_var(t):
            if t not in seen:
                seen.add(t)
                yield t
        elif isinstance(t, (list, tuple)):
            stack.extend(reversed(t))
        elif type(t) is Suffix:
            stack.extend(reversed(t.to_list()))
        elif isinstance(t, Mapping):
            stack.extend(reversed(list(t)))
        elif issubclass(type(t), ConsPair):
            stack.extend((t.cdr, t.car))


def rest_of(items: list, start: int) -> list | Suffix:
    """The proper list `items[start:]` without copying: `[]` past the end, else a `Suffix`."""
    if start >= len(items):
        return []
    return Suffix(items, start) if start else items


def list_parts(term: Any) -> tuple[list, int] | None:
    """(items, start) of a list or `Suffix` (the elements are items[start:]); else None."""
    kind = type(term)
    if kind is list:
        return term, 0
    if kind is Suffix:
        return term.items, term.start
    return None


def cons(head: Any, *more: Any) -> Any:
    """The list cell [head | tail] (`cons(a, b, tail)` is [a, b | tail]).

    On a list tail the cells go in front of it without copying it (a list built by
    consing one element at a time costs linear time and memory); `cons(h, [])` is `[h]`.
    Any other tail (a variable, an atom, a compound term) ends the cells as it is:
    `cons("a", ("f", "b"))` is `[a|f(b)]`, where the `cons` package would make the tuple
    `("a", "f", "b")`, the compound a(f,b).

    >>> format_term(cons(1, 2, [3])), format_term(cons(1, var("t")))
    ('[1,2,3]', '[1|T]')
    """
    *heads, tail = (head,) + more  # (not `(head, *more)`: Cython compiles this module)
    if not heads:
        raise TypeError("cons needs a head and a tail")
    if (type(tail) is list or type(tail) is Suffix) and len(tail) == 0:
        tail = [heads.pop()]
    for item in reversed(heads):
        tail = _cell(item, tail)
    return tail


def _cell(head: Any, tail: Any) -> ConsPair:
    """A cons pair as it is: `ConsPair(h, list)` would copy the list into a new one."""
    pair = object.__new__(ConsPair)
    pair.car = head
    pair.cdr = tail
    return pair


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
    """Check `value` and everything inside it, with an explicit stack (any size, any depth);
    a list or compound that contains itself is refused."""
    stack: list = [(value, None)]
    open_ids: set = set()
    while stack:
        value, where = stack.pop()
        if value is _CLOSE:
            open_ids.discard(where)
            continue
        if isinstance(value, (str, bool, int, String, Fraction)) or is_var(value):
            continue
        kind = type(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise TermError(f"{_path(path, where)}: {value!r} is not a logicpy term (only finite floats)")
            continue
        if isinstance(value, list) or kind is Suffix:
            items, start = (value, 0) if kind is not Suffix else (value.items, value.start)
            _enter(value, where, path, open_ids, stack)
            stack.extend((items[i], (where, "", i - start)) for i in range(len(items) - 1, start - 1, -1))
        elif isinstance(value, tuple):
            if not value or not isinstance(value[0], str):
                raise TermError(f"{_path(path, where)}: {value!r} is not a compound term "
                                "(a tuple needs a str functor first, like ('f', 'a'))")
            if value[0] == "[|]" and len(value) == 3:
                raise TermError(f"{_path(path, where)}: functor '[|]'/2 is Prolog's list cell; "
                                "write a list or cons(head, tail)")
            _enter(value, where, path, open_ids, stack)
            stack.extend((value[i], (where, "", i)) for i in range(len(value) - 1, 0, -1))
        elif kind is ConsPair:
            items, tail = _unroll(value)
            stack.append((tail, (where, ".tail", None)))
            stack.extend((items[i], (where, ".list", i)) for i in range(len(items) - 1, -1, -1))
        else:
            raise TermError(
                f"{_path(path, where)}: {_short(value)} is not a logicpy term "
                "(atoms are str, compounds are tuples (\"f\", arg, ...))"
            )


_CLOSE = object()
"""A marker on `_check`'s stack: the container whose id follows is complete."""


def _enter(value: Any, where: Any, path: str, open_ids: set, stack: list) -> None:
    """Note that the container `value` is open (its elements follow on `stack`, after the
    closing marker pushed here); refuse a cycle."""
    stack.append((_CLOSE, _opened(value, open_ids, path, where)))


def _opened(value: Any, open_ids: set, path: str = "term", where: Any = None) -> int:
    """Add the list, `Suffix` or tuple `value` to the containers open around the current
    place and return its key (to discard when it closes); one already open is a cycle."""
    key = id(value.items) if type(value) is Suffix else id(value)
    if key in open_ids:
        raise TermError(f"{_path(path, where)}: a list or compound that contains itself is not a term")
    open_ids.add(key)
    return key


def _path(root: str, where: Any) -> str:
    """The place `where` (a chain (parent, step, index) from the root) as Python indexing."""
    steps = []
    while where is not None:
        where, step, i = where
        steps.append(step if i is None else f"{step}[{i}]")
    return root + "".join(reversed(steps))


def _short(value: Any) -> str:
    """`repr(value)`, cut to 200 characters."""
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _unroll(pair: ConsPair) -> tuple[list, Any]:
    """The items and the final tail of a chain of cons pairs; a proper list at the end
    (a list or `Suffix`) is taken into the items and the tail is then `[]`."""
    items = []
    while type(pair) is ConsPair:
        items.append(pair.car)
        pair = pair.cdr
    parts = list_parts(pair)
    if parts is not None:
        items.extend(parts[0][parts[1]:])
        return items, []
    return items, pair


def _cons_chain(items: list, tail: Term) -> Term:
    """The list of `items` ending in `tail` (a list tail gives a plain list; any other
    tail, a compound term included, ends a chain of list cells)."""
    if isinstance(tail, list):
        return items + tail
    for item in reversed(items):
        tail = _cell(item, tail)
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
    the tail of a partial list (or None), True for a partial list, the container's id].
    """
    frames: list[list[Any]] = []
    frame: list[Any]
    open_ids: set = set()
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
        elif isinstance(term, (list, tuple)) or type(term) is ConsPair or type(term) is Suffix:
            if isinstance(term, list):
                frame = [term, 0, 0, "]", None, False, id(term)]
                append("[")
            elif type(term) is Suffix:
                frame = [term.items, term.start, term.start, "]", None, False, id(term.items)]
                append("[")
            elif isinstance(term, tuple):
                if not term or not isinstance(term[0], str) or (term[0] == "[|]" and len(term) == 3):
                    _check(term, _where(frames))
                frame = [term, 1, 1, ")", None, False, id(term)]
                append(_atom_text(term[0]) + "(")
            else:
                items, tail = _unroll(term)
                frame = [items, 0, 0, "]", tail, type(tail) is not list, None]
                append("[")
            if max_depth is not None and len(frames) >= max_depth:
                raise TermError(f"{_where(frames)}: nested more than {max_depth:,} deep "
                                "(compounds and lists inside each other)")
            if frame[6] is not None:
                if frame[6] in open_ids:
                    raise TermError(f"{_where(frames)}: a list or compound that contains itself has no Prolog text")
                open_ids.add(frame[6])
            frames.append(frame)
        elif is_var(term):
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
            open_ids.discard(frame[6])
            frames.pop()
        else:
            return


def _where(frames: list[list]) -> str:
    """The writer's place in the term, as Python indexing from `term` (as `check_term` names it);
    past 12 steps, the first 8 and the last 3."""
    steps = [(".tail" if i > len(args) else f".list[{i - 1}]") if partial else f"[{i - 1 - first * (closer == ']')}]"
             for args, i, first, closer, _, partial, _ in frames]
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
                    term = _make_partial(args, term)
                else:
                    args.append(term)
                    kind, text, pos = self._next()
                    if text == ",":
                        break
                    if bracket == "(" and text == ")" and kind == "punct":
                        term = _compound(head, args)
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


def _compound(name: str, args: list) -> Term:
    """The compound `name(args...)` read: '[|]'(H, T) is the list cell [H|T], as in SWI-Prolog."""
    if name == "[|]" and len(args) == 2:
        return _make_partial(args[:1], args[1])
    return (name, *args)


def _make_partial(items: list, tail: Term) -> Term:
    """The list `[items | tail]` as read (a tail that is a list cell itself joins it)."""
    if type(tail) is ConsPair:
        more, tail = _unroll(tail)
        items = items + more
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
    """The JSON form of `term`, built with an explicit stack: each container is made at once
    and its slots filled as their elements are converted (any size, any depth)."""
    root: list = [None]
    stack: list = [(term, root, 0, None)]
    open_ids: set = set()
    while stack:
        term, into, slot, where = stack.pop()
        kind = type(term)
        if term is _CLOSE:
            open_ids.discard(slot)
            continue
        if kind is list or kind is tuple or kind is Suffix:
            stack.append((_CLOSE, None, _opened(term, open_ids, path, where), None))
        if kind is str or kind is int:
            into[slot] = term
        elif isinstance(term, bool):
            into[slot] = "true" if term else "false"
        elif isinstance(term, (str, int)):
            into[slot] = term
        elif isinstance(term, float):
            into[slot] = check_term(term, _path(path, where))
        elif isinstance(term, Fraction):
            into[slot] = {"rational": f"{term.numerator}/{term.denominator}"}
        elif isinstance(term, String):
            into[slot] = {"string": term.text}
        elif isinstance(term, list) or kind is Suffix:
            items = term if kind is not Suffix else term.to_list()
            into[slot] = out = [None] * len(items)
            stack.extend(reversed([(x, out, i, (where, "", i)) for i, x in enumerate(items)]))
        elif isinstance(term, tuple):
            if not term or not isinstance(term[0], str):
                check_term(term, _path(path, where))
            into[slot] = {"functor": term[0], "args": (out := [None] * (len(term) - 1))}
            stack.extend(reversed([(x, out, i - 1, (where, "", i)) for i, x in enumerate(term) if i]))
        elif is_var(term):
            into[slot] = {"var": namer(term)}
        elif kind is ConsPair:
            items, tail = _unroll(term)
            if type(tail) is list:
                into[slot] = out = [None] * len(items)
                stack.extend(reversed([(x, out, i, (where, ".list", i)) for i, x in enumerate(items)]))
                continue
            into[slot] = node = {"list": (out := [None] * len(items)), "tail": None}
            stack.append((tail, node, "tail", (where, ".tail", None)))
            stack.extend(reversed([(x, out, i, (where, ".list", i)) for i, x in enumerate(items)]))
        else:
            check_term(term, _path(path, where))
    return root[0]


def from_json(data: Any, variables: MutableMapping[str, Var] | None = None) -> Term:
    """The term that `to_json` encoded as `data`; one name is one (fresh) variable.

    Malformed data raises `TermError` naming the place, e.g. `json["args"][0]`.

    >>> from_json({"functor": "f", "args": [{"var": "X"}, {"var": "X"}]})  # doctest: +ELLIPSIS
    ('f', ~X_..., ~X_...)
    """
    return _from_json(data, {} if variables is None else variables, "json")


def _from_json(data: Any, variables: MutableMapping[str, Var], path: str) -> Term:
    """The term `data` encodes, built with an explicit stack: a list is filled slot by slot;
    a compound or partial list is assembled (`_BUILD`) once its parts are read."""
    root: list = [None]
    stack: list = [(data, root, 0, None)]
    while stack:
        data, into, slot, where = stack.pop()
        if data is _BUILD:
            make, parts, at = into
            target, target_slot = at
            target[target_slot] = make(parts, slot)
            continue
        if isinstance(data, bool):
            into[slot] = "true" if data else "false"
        elif isinstance(data, (str, int)):
            into[slot] = data
        elif isinstance(data, float):
            into[slot] = check_term(data, _path(path, where))
        elif isinstance(data, list):
            into[slot] = out = [None] * len(data)
            stack.extend(reversed([(x, out, i, (where, "", i)) for i, x in enumerate(data)]))
        elif isinstance(data, Mapping):
            into[slot] = _from_json_object(data, variables, path, where, into, slot, stack)
        else:
            raise TermError(f"{_path(path, where)}: {_short(data)} is not a JSON-encoded logicpy term")
    return root[0]


_BUILD = object()
"""A marker on `_from_json`'s stack: the parts read above it make one compound or partial list."""


def _from_json_object(data: Mapping, variables: MutableMapping[str, Var], path: str, where: Any,
                      into: list, slot: Any, stack: list) -> Any:
    """The term of a JSON object (`{"var": ...}` etc.), or None with its parts queued on
    `stack` under a `_BUILD` marker that will store the assembled term at into[slot]."""
    keys = set(data)
    if keys == {"functor", "args"} and isinstance(data["functor"], str) and isinstance(data["args"], list):
        parts: list = [data["functor"], *([None] * len(data["args"]))]
        stack.append((_BUILD, (lambda p, _: tuple(p), parts, (into, slot)), None, None))
        stack.extend(reversed([(x, parts, i + 1, (where, '["args"]', i)) for i, x in enumerate(data["args"])]))
        return None
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
        n = len(data["list"])
        parts = [None] * (n + 1)

        def partial(p: list, _: Any) -> Term:
            return _cons_chain(p[:n], p[n])

        stack.append((_BUILD, (partial, parts, (into, slot)), None, None))
        stack.append((data["tail"], parts, n, (where, '["tail"]', None)))
        stack.extend(reversed([(x, parts, i, (where, '["list"]', i)) for i, x in enumerate(data["list"])]))
        return None
    raise TermError(f"{_path(path, where)}: {_short(data)} is not a JSON-encoded logicpy term")
