"""Prolog arithmetic as SWI-Prolog 9 evaluates it (default flags): `evaluate` for is/2,
`compare` for =:= =\\= < > =< >=.

Integers are exact at any size; an operation on an integer and a float converts the
integer to the nearest float first (so comparisons round big integers, as SWI does);
`/` of two integers is an integer when it divides exactly, else a float; `//` truncates
toward zero, `div` floors; `mod` takes the divisor's sign, `rem` the dividend's. Floats
stay finite: a result that would be infinite is a `float_overflow` evaluation error, an
undefined one (sqrt(-1), 0.0/0) an `undefined` one. Errors are `PrologError`s carrying
ISO's error term (`error(evaluation_error(zero_divisor), Culprit)`), worded as SWI's
toplevel words them. As in SWI, arguments are evaluated right to left before their
function is looked up, and the first failure decides the error: `foo + 1/0` is a
zero_divisor error.

An integer result estimated at more than `MAX_INTEGER_BITS` bits is refused before it
is computed, at once, with a resource error (`2^(2^40)` would need 128 GiB).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn, Union

from unification import Var  # type: ignore[import-untyped]

from ..core.terms import String, Term, format_term, is_var
from ..errors import PrologError

__all__ = ["MAX_INTEGER_BITS", "evaluate", "compare", "COMPARISONS", "FUNCTIONS"]

Number = Union[int, float]

#: The largest integer is/2 computes: 2^20 bits (128 KiB, about 315,000 digits). Python
#: computes far larger ones quickly, but writes them in decimal in quadratic time (this
#: size in about a second, 2^23 bits in minutes); SWI's own limit is its 1 GiB stack.
MAX_INTEGER_BITS = 1 << 20


# ---------------------------------------------------------------- errors


def _error(formal: Term, message: str, culprit: Term) -> NoReturn:
    where = "" if culprit is None else f" (in {format_term(culprit)})"
    raise PrologError(message + where, ("error", formal, culprit if culprit is not None else Var()))


def _evaluation(kind: str, culprit: Term) -> NoReturn:
    _error(("evaluation_error", kind), f"Arithmetic: evaluation error: `{kind}'", culprit)


def _type(kind: str, value: Term, culprit: Term) -> NoReturn:
    article = "an integer" if isinstance(value, int) else "a float" if isinstance(value, float) else "a term"
    _error(("type_error", kind, value), f"Type error: `{kind}' expected, found `{format_term(value)}' ({article})",
           culprit)


def _instantiation() -> NoReturn:
    raise PrologError("Arguments are not sufficiently instantiated", ("error", "instantiation_error", Var()))


def _too_big(bits: int, culprit: Term) -> NoReturn:
    _error(("resource_error", "memory"),
           f"Arithmetic: resource error: the result would have about {bits} bits; is/2 computes integers "
           f"of up to {MAX_INTEGER_BITS} bits", culprit)


# ---------------------------------------------------------------- numbers


def _float(x: Number, culprit: Term) -> float:
    """`x` as a float, the nearest one; an integer beyond the floats is a float_overflow."""
    if isinstance(x, float):
        return x
    try:
        return float(x)
    except OverflowError:
        _evaluation("float_overflow", culprit)


def _finite(x: float, culprit: Term) -> float:
    if math.isinf(x):
        _evaluation("float_overflow", culprit)
    if math.isnan(x):
        _evaluation("undefined", culprit)
    return x


def _integers(args: tuple[Number, ...], culprit: Term) -> tuple[int, ...]:
    for a in args:
        if not isinstance(a, int):
            _type("integer", a, culprit)
    return args  # type: ignore[return-value]


def _guard(bits: int, culprit: Term) -> None:
    if bits > MAX_INTEGER_BITS:
        _too_big(bits, culprit)


def _float_op(op: Callable[[float, float], float]) -> Callable[..., Number]:
    def apply(a: Number, b: Number, culprit: Term) -> Number:
        try:
            return _finite(op(_float(a, culprit), _float(b, culprit)), culprit)
        except OverflowError:
            _evaluation("float_overflow", culprit)
    return apply


def _mixed(int_op: Callable[[int, int], int], float_op: Callable[[float, float], float]) -> Callable[..., Number]:
    """An operation exact on two integers, on floats otherwise."""
    on_floats = _float_op(float_op)

    def apply(a: Number, b: Number, culprit: Term) -> Number:
        if isinstance(a, int) and isinstance(b, int):
            return int_op(a, b)
        return on_floats(a, b, culprit)
    return apply


def _times(a: Number, b: Number, culprit: Term) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        _guard(a.bit_length() + b.bit_length() - 1, culprit)
        return a * b
    return _float_op(lambda x, y: x * y)(a, b, culprit)


def _divide(a: Number, b: Number, culprit: Term) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            _evaluation("zero_divisor", culprit)
        if a % b == 0:
            return a // b
    x, y = _float(a, culprit), _float(b, culprit)
    if y == 0:
        _evaluation("undefined" if x == 0 else "zero_divisor", culprit)
    return _finite(x / y, culprit)


def _integer_division(kind: str) -> Callable[..., int]:
    def apply(a: Number, b: Number, culprit: Term) -> int:
        x, y = _integers((a, b), culprit)
        if y == 0:
            _evaluation("zero_divisor", culprit)
        if kind == "//":
            q = abs(x) // abs(y)
            return q if (x < 0) == (y < 0) else -q
        if kind == "rem":
            r = abs(x) % abs(y)
            return -r if x < 0 else r
        return x // y if kind == "div" else x % y
    return apply


def _shift(left: bool) -> Callable[..., int]:
    def apply(a: Number, b: Number, culprit: Term) -> int:
        x, n = _integers((a, b), culprit)
        if not left:
            n = -n
        if n >= 0:
            if x:
                _guard(x.bit_length() + n, culprit)
            return x << n
        if -n >= x.bit_length():
            return -1 if x < 0 else 0
        return x >> -n
    return apply


def _power(a: Number, b: Number, culprit: Term) -> Number:
    """`^` and `**` (the same in SWI without rationals): 1 for a zero exponent, exact on
    integers with a natural exponent, else a float; 0 to a negative power divides by zero."""
    if b == 0:
        return 1
    if isinstance(a, int) and a in (0, 1) and not (a == 0 and b < 0):
        return a
    if isinstance(a, int) and isinstance(b, int):
        if a == 0:
            _evaluation("zero_divisor", culprit)
        if a == -1:
            return 1 if b % 2 == 0 else -1
        if b > 0:
            _guard((abs(a).bit_length() - 1) * b + 1, culprit)
            return a ** b
    x, y = _float(a, culprit), _float(b, culprit)
    if x == 0 and y < 0:
        _evaluation("zero_divisor", culprit)
    if x < 0 and y != int(y):
        _evaluation("undefined", culprit)
    try:
        return _finite(math.pow(x, y), culprit)
    except OverflowError:
        _evaluation("float_overflow", culprit)


def _extreme(larger: bool) -> Callable[..., Number]:
    """max/min: compared as `compare` does; of two equal numbers the float, and of two
    equal floats max's +0.0 and min's -0.0."""
    def apply(a: Number, b: Number, culprit: Term) -> Number:
        order = _order(a, b)
        if order != 0:
            return a if (order > 0) == larger else b
        if isinstance(a, float) and isinstance(b, float):
            return a if (math.copysign(1, a) > 0) == larger else b
        return a if isinstance(a, float) else b
    return apply


def _gcd(a: Number, b: Number, culprit: Term) -> int:
    x, y = _integers((a, b), culprit)
    return math.gcd(x, y)


def _msb(a: Number, culprit: Term) -> int:
    (x,) = _integers((a,), culprit)
    if x < 1:
        _error(("domain_error", "not_less_than_one", x), f"Domain error: `not_less_than_one' expected, found `{x}'",
               culprit)
    return x.bit_length() - 1


def _bitwise(op: Callable[[int, int], int]) -> Callable[..., int]:
    def apply(a: Number, b: Number, culprit: Term) -> int:
        x, y = _integers((a, b), culprit)
        return op(x, y)
    return apply


def _complement(a: Number, culprit: Term) -> int:
    (x,) = _integers((a,), culprit)
    return ~x


def _sign(a: Number, culprit: Term) -> Number:
    if isinstance(a, int):
        return (a > 0) - (a < 0)
    return 1.0 if a > 0 else -1.0 if a < 0 else 0.0


def _rounding(to_int: Callable[[float], int]) -> Callable[..., int]:
    def apply(a: Number, culprit: Term) -> int:
        return a if isinstance(a, int) else to_int(a)
    return apply


def _nearest(x: float) -> int:
    """The integer nearest `x`, halves away from zero (exact: `x - trunc(x)` is a float)."""
    n = int(x)
    if abs(x - n) >= 0.5:
        n += 1 if x > 0 else -1
    return n


def _part(integer: bool) -> Callable[..., Number]:
    def apply(a: Number, culprit: Term) -> Number:
        if isinstance(a, int):
            return a if integer else 0
        fraction, whole = math.modf(a)
        return whole if integer else fraction
    return apply


def _on_float(fn: Callable[[float], float]) -> Callable[..., float]:
    """A float function of one argument; a domain error is `undefined`."""
    def apply(a: Number, culprit: Term) -> float:
        try:
            return _finite(fn(_float(a, culprit)), culprit)
        except OverflowError:
            _evaluation("float_overflow", culprit)
        except ValueError:
            _evaluation("undefined", culprit)
    return apply


def _log(a: Number, culprit: Term) -> float:
    x = _float(a, culprit)
    if x == 0:  # log(0) is -infinity
        _evaluation("float_overflow", culprit)
    return _on_float(math.log)(x, culprit)


def _atan2(a: Number, b: Number, culprit: Term) -> float:
    return math.atan2(_float(a, culprit), _float(b, culprit))


def _sqrt(a: Number, culprit: Term) -> float:
    return _on_float(math.sqrt)(a, culprit)


#: The evaluable functions by (name, arity); each takes its evaluated arguments and the term.
FUNCTIONS: dict[tuple[str, int], Callable[..., Number]] = {
    ("+", 2): _mixed(lambda a, b: a + b, lambda x, y: x + y),
    ("-", 2): _mixed(lambda a, b: a - b, lambda x, y: x - y),
    ("*", 2): _times,
    ("/", 2): _divide,
    ("//", 2): _integer_division("//"),
    ("div", 2): _integer_division("div"),
    ("mod", 2): _integer_division("mod"),
    ("rem", 2): _integer_division("rem"),
    ("min", 2): _extreme(False),
    ("max", 2): _extreme(True),
    ("gcd", 2): _gcd,
    ("**", 2): _power,
    ("^", 2): _power,
    (">>", 2): _shift(False),
    ("<<", 2): _shift(True),
    ("/\\", 2): _bitwise(lambda a, b: a & b),
    ("\\/", 2): _bitwise(lambda a, b: a | b),
    ("xor", 2): _bitwise(lambda a, b: a ^ b),
    ("atan2", 2): _atan2,
    ("atan", 2): _atan2,
    ("-", 1): lambda a, culprit: -a,
    ("+", 1): lambda a, culprit: a,
    ("\\", 1): _complement,
    ("abs", 1): lambda a, culprit: abs(a),
    ("sign", 1): _sign,
    ("msb", 1): _msb,
    ("sqrt", 1): _sqrt,
    ("truncate", 1): _rounding(int),
    ("integer", 1): _rounding(_nearest),
    ("round", 1): _rounding(_nearest),
    ("ceiling", 1): _rounding(math.ceil),
    ("ceil", 1): _rounding(math.ceil),
    ("floor", 1): _rounding(math.floor),
    ("float", 1): lambda a, culprit: _float(a, culprit),
    ("float_integer_part", 1): _part(True),
    ("float_fractional_part", 1): _part(False),
    ("exp", 1): _on_float(math.exp),
    ("log", 1): _log,
    ("sin", 1): _on_float(math.sin),
    ("cos", 1): _on_float(math.cos),
    ("tan", 1): _on_float(math.tan),
    ("asin", 1): _on_float(math.asin),
    ("acos", 1): _on_float(math.acos),
    ("atan", 1): _on_float(math.atan),
}

#: The evaluable atoms.
CONSTANTS: dict[str, Callable[[], Number]] = {
    "pi": lambda: math.pi,
    "e": lambda: math.e,
    "epsilon": lambda: 2.220446049250313e-16,
    "cputime": time.process_time,
    "realtime": lambda: int(time.time()),
}


# ---------------------------------------------------------------- evaluation


def evaluate(expr: Term) -> Number:
    """The value of the arithmetic expression `expr` (is/2's right side, already walked),
    or a `PrologError` with ISO's error term."""
    kind = expr.__class__
    if kind is int:
        return expr
    if kind is tuple and len(expr) == 3 and expr[1].__class__ is int and expr[2].__class__ is int:
        op = expr[0]  # integers added or subtracted: what the loop below would do, at once
        if op == "+":
            return expr[1] + expr[2]
        if op == "-":
            return expr[1] - expr[2]
    values: list[Number] = []
    todo: list[tuple[bool, Term]] = [(False, expr)]  # (arguments done?, term)
    while todo:
        done, term = todo.pop()
        if done:
            n = len(term) - 1
            args = values[len(values) - n:][::-1]  # evaluated last to first
            del values[len(values) - n:]
            fn = FUNCTIONS.get((term[0], n))
            if fn is None:
                _not_evaluable(term[0], n)
            values.append(fn(*args, term))
            continue
        if isinstance(term, bool):
            _not_evaluable("true" if term else "false", 0)
        if isinstance(term, (int, float)):
            values.append(term)
        elif is_var(term):
            _instantiation()
        elif isinstance(term, str):
            constant = CONSTANTS.get(term)
            if constant is None:
                _not_evaluable(term, 0)
            values.append(constant())
        elif isinstance(term, tuple) and term and isinstance(term[0], str):
            todo.append((True, term))
            todo.extend((False, arg) for arg in term[1:])
        elif isinstance(term, list) and len(term) == 1:  # "a" as [a]: its character code
            item = term[0]
            values.append(ord(item) if isinstance(item, str) and len(item) == 1 else evaluate(item))
        elif isinstance(term, String) and len(term.text) == 1:
            values.append(ord(term.text))
        elif isinstance(term, Fraction) and term.denominator == 1:
            values.append(int(term))
        else:
            _type("evaluable", term, term)
    return values[0]


def _not_evaluable(name: str, arity: int) -> NoReturn:
    indicator = ("/", name, arity)
    raise PrologError(f"Arithmetic: `{format_term(name)}/{arity}' is not a function",
                      ("error", ("type_error", "evaluable", indicator), Var()))


def _order(a: Number, b: Number) -> int:
    """-1, 0 or 1 as `a` is below, equal to or above `b`; an integer against a float is
    first converted to the nearest float (beyond the floats: an infinity), as in SWI."""
    if isinstance(a, int) != isinstance(b, int):
        a, b = _as_float(a), _as_float(b)
    return (a > b) - (a < b)


def _as_float(x: Number) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


#: The arithmetic comparisons: name -> test of `_order`'s result.
COMPARISONS: dict[str, Callable[[int], bool]] = {
    "=:=": lambda o: o == 0, "=\\=": lambda o: o != 0, "<": lambda o: o < 0, ">": lambda o: o > 0,
    "=<": lambda o: o <= 0, ">=": lambda o: o >= 0,
}


def compare(op: str, a: Term, b: Term) -> bool:
    """`a op b` for an arithmetic comparison `op` (`=:=`, `<`, ...): both sides evaluated."""
    return COMPARISONS[op](_order(evaluate(a), evaluate(b)))
