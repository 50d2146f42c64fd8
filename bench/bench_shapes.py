"""Relations of varied shapes written in Python with `@relation`, beside the same programs in SWI-Prolog.

    python -m bench shapes

Each row is a relation a user writes with `eq`/`conde` (and `lto`/`leqo`/`neq` where the
Prolog program compares or uses dif/2): Peano addition run backwards and multiplication,
a type checker for the simply typed lambda calculus, an interpreter of boolean
expressions, the towers of Hanoi, quicksort, flattening a tree forwards and backwards,
the zebra puzzle, paths in a grid, binary search trees and naive reverse. The same
programs are in prolog/relations_suite.pl, each row's work a goal `row_NAME(A)` there.

Times are CPU seconds, best of 3, all answers of the row's query (the Prolog order, as
SWI runs it); SWI is timed inside Prolog. Each answer, written as Prolog text, is compared
with SWI's in the same run. Each row is run a second time with `loops.disabled()`, every
relation run as its clauses (no shape loop), and both columns end with the median and the
worst ratio to SWI, set beside the aims by `python -m bench`.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
from dataclasses import dataclass
from typing import Any, Callable

from bench.common import (PROLOG_DIR, SHAPES_SUITE, SHAPES_SUITE_CLAUSES, fmt_seconds, measure, print_table,
                          record_suite, swipl_seconds)
from logicpy.core import Table, conde, cons, eq, format_term, leqo, loops, lto, neq, relation, run, var, vars

SWI_FILE = PROLOG_DIR / "relations_suite.pl"


def peano(n: int) -> Any:
    """n as z, s(z), s(s(z)), ..."""
    term: Any = "z"
    for _ in range(n):
        term = ("s", term)
    return term


def peano_int(term: Any) -> int:
    n = 0
    while term != "z":
        term, n = term[1], n + 1
    return n


# Peano arithmetic ------------------------------------------------------------------------

@relation
def addo(x, y, z):
    a, b = vars(2)
    return conde([eq(x, "z"), eq(y, z)], [eq(x, ("s", a)), eq(z, ("s", b)), addo(a, y, b)])


@relation
def mulo(x, y, z):
    a, p = vars(2)
    return conde([eq(x, "z"), eq(z, "z")], [eq(x, ("s", a)), mulo(a, y, p), addo(p, y, z)])


# simply typed lambda calculus --------------------------------------------------------------

@relation
def lookupo(env, x, t):
    y, t0, rest = vars(3)
    return conde([eq(env, cons(("-", y, t0), rest)), eq(x, y), eq(t, t0)],
                 [eq(env, cons(("-", y, t0), rest)), neq(x, y), lookupo(rest, x, t)])


@relation
def typeo(env, term, ty):
    x, b, a, r, f, arg = vars(6)
    return conde([eq(term, ("v", x)), lookupo(env, x, ty)],
                 [eq(term, ("lam", x, b)), eq(ty, ("arrow", a, r)), typeo(cons(("-", x, a), env), b, r)],
                 [eq(term, ("ap", f, arg)), typeo(env, f, ("arrow", a, ty)), typeo(env, arg, a)])


@relation
def type_allo(env, terms, types):
    t, ts, ty, tys = vars(4)
    return conde([eq(terms, []), eq(types, [])],
                 [eq(terms, cons(t, ts)), eq(types, cons(ty, tys)), typeo(env, t, ty), type_allo(env, ts, tys)])


def numeral_body(n: int) -> Any:
    body: Any = ("v", "x")
    for _ in range(n):
        body = ("ap", ("v", "f"), body)
    return body


TYPED_TERMS = [("ap", ("lam", "f", ("lam", "x", numeral_body(n))), ("lam", "y", ("ap", ("v", "g"), ("ap", ("v", "g"), ("v", "y")))))
               for n in range(1, 21)]


# an interpreter of boolean expressions ---------------------------------------------------

@relation
def and_(a, b, v):
    return conde([eq(a, 0), eq(b, 0), eq(v, 0)], [eq(a, 0), eq(b, 1), eq(v, 0)],
                 [eq(a, 1), eq(b, 0), eq(v, 0)], [eq(a, 1), eq(b, 1), eq(v, 1)])


@relation
def or_(a, b, v):
    return conde([eq(a, 0), eq(b, 0), eq(v, 0)], [eq(a, 0), eq(b, 1), eq(v, 1)],
                 [eq(a, 1), eq(b, 0), eq(v, 1)], [eq(a, 1), eq(b, 1), eq(v, 1)])


@relation
def xor_(a, b, v):
    return conde([eq(a, 0), eq(b, 0), eq(v, 0)], [eq(a, 0), eq(b, 1), eq(v, 1)],
                 [eq(a, 1), eq(b, 0), eq(v, 1)], [eq(a, 1), eq(b, 1), eq(v, 0)])


@relation
def neg_(a, v):
    return conde([eq(a, 0), eq(v, 1)], [eq(a, 1), eq(v, 0)])


@relation
def ato(p, env, v):
    q, rest, first = vars(3)
    return conde([eq(p, "z"), eq(env, cons(v, rest))], [eq(p, ("s", q)), eq(env, cons(first, rest)), ato(q, rest, v)])


@relation
def valueo(e, env, v):
    p, x, y, a, b = vars(5)
    return conde([eq(e, ("var", p)), ato(p, env, v)],
                 [eq(e, ("and", x, y)), valueo(x, env, a), valueo(y, env, b), and_(a, b, v)],
                 [eq(e, ("or", x, y)), valueo(x, env, a), valueo(y, env, b), or_(a, b, v)],
                 [eq(e, ("xor", x, y)), valueo(x, env, a), valueo(y, env, b), xor_(a, b, v)],
                 [eq(e, ("not", x)), valueo(x, env, a), neg_(a, v)])


def expression(depth: int, i: int) -> Any:
    """The same tree as relations_suite.pl's expression/3."""
    if depth == 0:
        return ("var", peano(i % 6))
    x, y = expression(depth - 1, 2 * i), expression(depth - 1, 2 * i + 1)
    return {0: ("xor", x, y), 1: ("and", x, y), 2: ("or", x, ("not", y)), 3: ("xor", x, y)}[depth % 4]


ENVIRONMENTS = [[(n >> (5 - k)) & 1 for k in range(6)] for n in range(64)]


# lists: append, Hanoi, quicksort, flatten, nrev -------------------------------------------

@relation
def app(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app(t, ys, r)])


@relation
def hanoio(n, src, dst, via, moves):
    m, before, after = vars(3)
    return conde([eq(n, "z"), eq(moves, [])],
                 [eq(n, ("s", m)), hanoio(m, src, via, dst, before), hanoio(m, via, dst, src, after),
                  app(before, cons(("-", src, dst), after), moves)])


@relation
def partitiono(xs, pivot, small, large):
    y, ys, s, g = vars(4)
    return conde([eq(xs, []), eq(small, []), eq(large, [])],
                 [eq(xs, cons(y, ys)), eq(small, cons(y, s)), leqo(y, pivot), partitiono(ys, pivot, s, large)],
                 [eq(xs, cons(y, ys)), eq(large, cons(y, g)), lto(pivot, y), partitiono(ys, pivot, small, g)])


@relation
def qsorto(xs, sorted_):
    x, rest, small, large, ss, sl = vars(6)
    return conde([eq(xs, []), eq(sorted_, [])],
                 [eq(xs, cons(x, rest)), partitiono(rest, x, small, large), qsorto(small, ss), qsorto(large, sl),
                  app(ss, cons(x, sl), sorted_)])


SHUFFLED = [(i * 7919 + 13) % 1000 for i in range(200)]


@relation
def flato(tree, xs, rest):
    x, left, right, mid = vars(4)
    return conde([eq(tree, ("leaf", x)), eq(xs, cons(x, rest))],
                 [eq(tree, ("node", left, right)), flato(left, xs, mid), flato(right, mid, rest)])


@relation
def unflato(tree, xs):
    x, left, right, a, aa, b, bb = vars(7)
    return conde([eq(tree, ("leaf", x)), eq(xs, [x])],
                 [eq(tree, ("node", left, right)), app(cons(a, aa), cons(b, bb), xs), unflato(left, cons(a, aa)),
                  unflato(right, cons(b, bb))])


def full_tree(depth: int, i: int) -> Any:
    if depth == 0:
        return ("leaf", i)
    return ("node", full_tree(depth - 1, 2 * i), full_tree(depth - 1, 2 * i + 1))


@relation
def nrevo(xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrevo(t, r), app(r, [h], ys)])


# the zebra puzzle ---------------------------------------------------------------------------

@relation
def right_of(x, y, hs):
    rest, first = vars(2)
    return conde([eq(hs, cons(y, cons(x, rest)))], [eq(hs, cons(first, rest)), right_of(x, y, rest)])


@relation
def next_to(x, y, hs):
    return conde([right_of(x, y, hs)], [right_of(y, x, hs)])


@relation
def in_(x, xs):
    rest, first = vars(2)
    return conde([eq(xs, cons(x, rest))], [eq(xs, cons(first, rest)), in_(x, rest)])


def h(colour: Any = None, nation: Any = None, pet: Any = None, drink: Any = None, smoke: Any = None) -> tuple:
    """A house term h(Colour, Nation, Pet, Drink, Smoke); a field not given is a fresh variable."""
    return ("h", *(var() if f is None else f for f in (colour, nation, pet, drink, smoke)))


def zebra(owner: Any, drinker: Any) -> list:
    """The puzzle's goals (the same order as relations_suite.pl's zebra/2)."""
    houses = [h(nation="norwegian"), var(), h(drink="milk"), var(), var()]
    hs = var()
    return [eq(hs, houses), in_(h("red", "english"), hs), in_(h(nation="spanish", pet="dog"), hs),
            in_(h("green", drink="coffee"), hs), in_(h(nation="ukrainian", drink="tea"), hs),
            right_of(h("green"), h("ivory"), hs), in_(h(pet="snails", smoke="oldgold"), hs),
            in_(h("yellow", smoke="kools"), hs), next_to(h(smoke="chesterfield"), h(pet="fox"), hs),
            next_to(h(smoke="kools"), h(pet="horse"), hs), in_(h(drink="juice", smoke="luckystrike"), hs),
            in_(h(nation="japanese", smoke="parliament"), hs), next_to(h(nation="norwegian"), h("blue"), hs),
            in_(h(nation=owner, pet="zebra"), hs), in_(h(nation=drinker, drink="water"), hs)]


# paths in a grid ----------------------------------------------------------------------------

GRID = Table.from_rows("edge", [(x, y) for x in range(66) for y in (x + 10, x + 1)
                                if (y == x + 10 and x // 10 < 6) or (y == x + 1 and x % 10 < 6)])


@relation
def patho(x, y, path):
    z, rest = vars(2)
    return conde([eq(x, y), eq(path, [x])], [GRID(x, z), patho(z, y, rest), eq(path, cons(x, rest))])


# binary search trees ------------------------------------------------------------------------

@relation
def inserto(tree, key, out):
    left, k0, right, l1, r1 = vars(5)
    return conde([eq(tree, "nil"), eq(out, ("t", "nil", key, "nil"))],
                 [eq(tree, ("t", left, k0, right)), lto(key, k0), inserto(left, key, l1), eq(out, ("t", l1, k0, right))],
                 [eq(tree, ("t", left, k0, right)), lto(k0, key), inserto(right, key, r1), eq(out, ("t", left, k0, r1))],
                 [eq(tree, ("t", left, key, right)), eq(out, tree)])


@relation
def insert_allo(keys, tree, out):
    k, ks, t1 = vars(3)
    return conde([eq(keys, []), eq(out, tree)], [eq(keys, cons(k, ks)), inserto(tree, k, t1), insert_allo(ks, t1, out)])


@relation
def foundo(tree, key):
    left, k0, right = vars(3)
    return conde([eq(tree, ("t", left, key, right))],
                 [eq(tree, ("t", left, k0, right)), lto(key, k0), foundo(left, key)],
                 [eq(tree, ("t", left, k0, right)), lto(k0, key), foundo(right, key)])


@relation
def found_allo(tree, keys):
    k, ks = vars(2)
    return conde([eq(keys, [])], [eq(keys, cons(k, ks)), foundo(tree, k), found_allo(tree, ks)])


@relation
def in_ordero(tree, keys):
    left, k, right, ls, rs = vars(5)
    return conde([eq(tree, "nil"), eq(keys, [])],
                 [eq(tree, ("t", left, k, right)), in_ordero(left, ls), in_ordero(right, rs), app(ls, cons(k, rs), keys)])


# the rows -----------------------------------------------------------------------------------

def _all(q: Any, *goals: Any) -> tuple:
    return run(0, q, *goals, order="prolog")


def peano_add_splits() -> int:
    x, y = vars(2)
    return len(_all((x, y), addo(x, y, peano(60))))


def peano_mul() -> int:
    q = var()
    return peano_int(_all(q, mulo(peano(25), peano(25), q))[0])


def typecheck() -> Any:
    q = var()
    return _all(q, type_allo([("-", "g", ("arrow", "o", "o"))], TYPED_TERMS, q))[0]


def interpreter() -> list:
    e, q = expression(8, 1), var()
    return [v for env in ENVIRONMENTS for v in _all(q, valueo(e, env, q))]


def hanoi() -> int:
    q = var()
    return len(_all(q, hanoio(peano(9), "a", "c", "b", q))[0])


def quicksort() -> Any:
    q = var()
    return _all(q, qsorto(SHUFFLED, q))[0]


def flatten() -> Any:
    q = var()
    return _all(q, flato(full_tree(9, 1), q, []))[0]


def flatten_backwards() -> int:
    q = var()
    return len(_all(q, unflato(q, [1, 2, 3, 4, 5, 6, 7, 8])))


def zebra_all() -> list:
    o, d = vars(2)
    return [("-", a, b) for a, b in _all((o, d), *zebra(o, d))]


def paths() -> int:
    q = var()
    return len(_all(q, patho(0, 66, q)))


def bst() -> Any:
    t, q = vars(2)
    return _all(q, insert_allo(SHUFFLED, "nil", t), found_allo(t, SHUFFLED), in_ordero(t, q))[0]


def nrev() -> Any:
    q = var()
    return _all(q, nrevo(list(range(1, 101)), q))[0]


@dataclass(frozen=True)
class Row:
    """A row of the suite: its name, its work, the Python function that does it and returns
    the answer, and the name of its goal row_NAME(A) in relations_suite.pl."""

    name: str
    work: str
    run: Callable[[], Any]
    goal: str


ROWS = [
    Row("Peano add, backwards", "all X + Y = 60 (61 answers)", peano_add_splits, "peano_add"),
    Row("Peano multiply", "25 × 25", peano_mul, "peano_mul"),
    Row("type checker", "types of 20 lambda terms", typecheck, "typecheck"),
    Row("interpreter", "511-node expression × 64 environments", interpreter, "interpreter"),
    Row("Hanoi", "9 discs, moves appended (511)", hanoi, "hanoi"),
    Row("quicksort", "200 numbers", quicksort, "quicksort"),
    Row("flatten", "512-leaf tree, difference list", flatten, "flatten"),
    Row("flatten, backwards", "every tree of 8 leaves (429)", flatten_backwards, "flatten_backwards"),
    Row("zebra", "all solutions", zebra_all, "zebra"),
    Row("graph paths", "all 924 paths across a 7×7 grid", paths, "paths"),
    Row("binary search tree", "insert 200, look each up, in order", bst, "bst"),
    Row("naive reverse", "100 elements, user append", nrev, "nrev"),
]


def swi_answer(goal: str) -> str:
    """SWI-Prolog's answer to row_GOAL(A), written canonically ("n/a" without swipl)."""
    if shutil.which("swipl") is None:
        return "n/a"
    done = subprocess.run(["swipl", "-q", "-g", f"row_{goal}(A), write_canonical(A), nl", "-t", "halt",
                           str(SWI_FILE)], capture_output=True, text=True, timeout=120)
    return done.stdout.strip() if done.returncode == 0 else f"error: {done.stderr.strip()[:200]}"


def as_clauses(fn: Callable[[], Any]) -> Callable[[], Any]:
    """`fn` run with every relation as its clauses (`loops.disabled()`)."""
    def clauses() -> Any:
        with loops.disabled():
            return fn()
    return clauses


def main() -> None:
    rows: list[list[str]] = []
    ratios: list[float] = []
    clause_ratios: list[float] = []
    wrong: list[str] = []
    for row in ROWS:
        mine = measure(row.run, repeat=3, trace_memory=False)
        clauses = measure(as_clauses(row.run), repeat=3, trace_memory=False)
        swi = swipl_seconds(SWI_FILE, f"row_{row.goal}(_)")
        expected = swi_answer(row.goal)
        answers = (format_term(mine.result), format_term(clauses.result))
        same = "n/a" if expected == "n/a" else "yes" if all(a == expected for a in answers) else "NO"
        if same == "NO":
            wrong.append(f"{row.name}: {answers[0][:50]!r} / as clauses {answers[1][:50]!r}, SWI {expected[:50]!r}")
        texts = []
        for m, kept in ((mine, ratios), (clauses, clause_ratios)):
            if isinstance(swi, float) and swi > 0:
                if same == "yes":
                    kept.append(m.seconds / swi)
                texts.append(f"{m.seconds / swi:,.1f}x")
            else:
                texts.append("n/a")
        rows.append([row.name, row.work, fmt_seconds(mine.seconds), texts[0], fmt_seconds(clauses.seconds), texts[1],
                     fmt_seconds(swi), same])
    print_table("Relations of varied shapes (@relation, Prolog order, all answers) vs SWI-Prolog, CPU, best of 3",
                ["relation", "work", "logicpy", "/ SWI", "loops.disabled()", "/ SWI", "SWI-Prolog", "equal"], rows)
    for suite, kept, label in ((SHAPES_SUITE, ratios, "as they run"), (SHAPES_SUITE_CLAUSES, clause_ratios,
                                                                        "with loops.disabled()")):
        if kept:
            record_suite(suite, kept)
            print(f"{label}: {len(kept)} of {len(ROWS)} rows with SWI's answer, median {statistics.median(kept):,.1f}x "
                  f"SWI, worst {max(kept):,.1f}x (aims: median <= 10x, each <= 25x)")
    if wrong:
        print("Answers that differ from SWI's (left out of the median): " + "; ".join(wrong))


if __name__ == "__main__":
    main()
