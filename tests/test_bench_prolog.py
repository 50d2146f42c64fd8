"""The classic Prolog benchmark programs (prolog/bench/, timed by `python -m bench prolog`),
each run once at a small size on logicpy's engine: the answer is checked against one
computed here in Python, and against SWI-Prolog's for the same goal."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from logicpy.core import loops
from logicpy.core.terms import format_term
from logicpy.prolog import consult

BENCH = Path(__file__).resolve().parent.parent / "logicpy" / "data" / "prolog" / "bench"


def _tak(x: int, y: int, z: int) -> int:
    return z if x <= y else _tak(_tak(x - 1, y, z), _tak(y - 1, z, x), _tak(z - 1, x, y))


def _value(t, x: float) -> float:
    """The value at `x` of an expression term in x (+ - * / ^ log, unary -)."""
    if t == "x":
        return x
    if isinstance(t, (int, float)):
        return t
    op, *args = t
    v = [_value(a, x) for a in args]
    if op == "-" and len(v) == 1:
        return -v[0]
    return {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
            "/": lambda a, b: a / b, "^": lambda a, b: a ** b}[op](*v) if len(v) == 2 else math.log(v[0])


def _numbers(name: str, pattern: str) -> list:
    return re.findall(pattern, (BENCH / name).read_text())


def check_nrev(a) -> None:
    assert a == list(range(30, 0, -1))


def check_queens(a) -> None:
    count, first = a[1], a[2]
    assert a[0] == "-" and count == 4  # 6 queens have 4 solutions
    assert sorted(first) == list(range(1, 7))
    assert all(abs(first[i] - first[j]) != j - i for i in range(6) for j in range(i + 1, 6))


def check_crypt(a) -> None:
    assert len(a) == 1
    x, y, p1, p2, p = a[0]
    assert (x * (y % 10), x * (y // 10), x * y) == (p1, p2, p)
    pattern = {"o": "13579", "e": "02468"}
    for number, shape in zip((x, y, p1, p2, p), ("oee", "ee", "eoee", "eoe", "ooee")):
        assert len(str(number)) == len(shape)
        assert all(d in pattern[s] for d, s in zip(str(number), shape))


def check_deriv(a) -> None:
    ops8, divide10, log10, times10 = a
    x, h = 1.5, 1e-6
    f = lambda x: (x + 1) * ((x ** 2 + 2) * (x ** 3 + 3))  # noqa: E731
    assert _value(ops8, x) == pytest.approx((f(x + h) - f(x - h)) / (2 * h), rel=1e-6)
    assert _value(divide10, x) == pytest.approx(-8 * x ** -9)
    assert _value(times10, x) == pytest.approx(10 * x ** 9)
    assert format_term(log10).count("log") == 45  # the derivative of each nested log: 1 + ... + 9


def check_poly(a) -> None:
    program = consult(BENCH / "poly.pl")
    assert program.query("run(3, P), coefficient_sum(P, S)", 1)[0]["S"] == 4 ** 3
    assert a[0] == "poly" and a[1] == "x" and [t[1] for t in a[2]] == [0, 1, 2]


def check_primes(a) -> None:
    assert a == [n for n in range(2, 99) if all(n % d for d in range(2, n))]


def check_qsort(a) -> None:
    numbers = [int(n) for n in _numbers("qsort.pl", r"numbers\(\[([\d,\s]+)\]\)")[0].split(",")]
    assert len(numbers) == 50 and a == sorted(numbers)


def check_query(a) -> None:
    population = {c: int(n) for c, n in _numbers("query.pl", r"population\((\w+), (\d+)\)")}
    area = {c: int(n) for c, n in _numbers("query.pl", r"area\((\w+), (\d+)\)")}
    density = {c: population[c] * 1000 // area[c] for c in population}
    expected = [[c1, d1, c2, d2] for c1, d1 in density.items() for c2, d2 in density.items()
                if d1 > d2 and 20 * d1 < 21 * d2]
    assert len(population) == 30 and a == expected and expected


def check_tak(a) -> None:
    assert a == _tak(12, 8, 4) == 5


def check_zebra(a) -> None:
    assert len(a) == 1
    owner, water, houses = a[0]
    assert (owner, water) == ("japanese", "norwegian")
    colours = [h[1] for h in houses]
    assert sorted(h[2] for h in houses) == ["english", "japanese", "norwegian", "spanish", "ukrainian"]
    assert houses[0][2] == "norwegian" and houses[2][4] == "milk"
    assert colours.index("green") == colours.index("ivory") + 1


CASES: list[tuple[str, str, Callable]] = [
    ("nrev", "run(2, A)", check_nrev),
    ("queens", "run(6, A)", check_queens),
    ("crypt", "run(1, A)", check_crypt),
    ("deriv", "run(2, A)", check_deriv),
    ("poly", "run(2, A)", check_poly),
    ("primes", "run(2, A)", check_primes),
    ("qsort", "run(2, A)", check_qsort),
    ("query", "run(2, A)", check_query),
    ("tak", "tak(12, 8, 4, A)", check_tak),
    ("zebra", "run(1, A)", check_zebra),
]


def swi_answer(name: str, goal: str) -> str:
    done = subprocess.run(["swipl", "-q", "-g", f"{goal}, write_canonical(A), nl", "-t", "halt",
                           str(BENCH / f"{name}.pl")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(("name", "goal", "check"), CASES, ids=[c[0] for c in CASES])
def test_benchmark_program(name: str, goal: str, check: Callable) -> None:
    answers = consult(BENCH / f"{name}.pl").query(goal)
    assert len(answers) == 1  # each program's goal is deterministic
    check(answers[0]["A"])
    if shutil.which("swipl"):
        assert swi_answer(name, goal) == format_term(answers[0]["A"])


def test_every_program_is_benchmarked_and_tested() -> None:
    from bench.bench_prolog import PROGRAMS

    files = sorted(p.stem for p in BENCH.glob("*.pl"))
    assert files == sorted(PROGRAMS) == sorted(c[0] for c in CASES)
    for name in files:
        assert consult(BENCH / f"{name}.pl").defined_by(BENCH / f"{name}.pl").count("bench/1") == 1


#: The predicates of the programs with the clauses of a library list relation, and the
#: relation whose loop each runs as.
AS_LOOPS = {
    "nrev": {("concat", 3): "appendo"},
    "queens": {("take", 3): "selecto"},
    "zebra": {("among", 2): "membero", ("right_of", 3): "adjacento"},
}


@pytest.mark.parametrize(("name", "goal", "check"), CASES, ids=[c[0] for c in CASES])
def test_the_predicates_run_as_loops_give_the_answers_of_their_clauses(name: str, goal: str, check: Callable) -> None:
    program = consult(BENCH / f"{name}.pl")
    looped = program.query(goal)
    ran = {key: p._runs.name for key, p in program.predicates.items() if isinstance(p._runs, loops.Runs)}
    assert ran == AS_LOOPS.get(name, {})
    with loops.disabled():
        as_clauses = consult(BENCH / f"{name}.pl").query(goal)
    assert [format_term(a["A"]) for a in as_clauses] == [format_term(a["A"]) for a in looped]
