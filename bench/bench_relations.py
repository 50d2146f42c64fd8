"""The relational core on programs a Prolog user writes: logicpy vs plain kanren vs SWI.

    python -m bench relations

- naive reverse of 100 elements: with logicpy's `appendo`, and fully relational
  (`eq`/`conde` and a recursive `@relation` append). The user's append has append/3's
  clauses, so it runs as `appendo`'s loop (`logicpy.core.loops`); the third row runs the
  same program with `loops.disabled()`, every relation as its clauses (the clause
  compiler's figure). Plain kanren runs that program with its own `conde`/`Zzz` (it needs
  a raised recursion limit for this depth);
- a long answer stream followed by another goal (kanren's `lall` is quadratic there):
  `membero` over 8,000 then `succeed`, all permutations of 8 then `succeed`;
- a two-hop join `e(X, Y), e(Y, Z)` over 20,000 facts;
- a left-recursive tabled transitive closure over 1,000 edges (400 nodes), from one
  node and all pairs, against SWI's `:- table`.

Times are CPU seconds, best of 3 (SWI timed inside Prolog, prolog/relations.pl). Every
row checks its answer count against SWI's or a plain Python computation; the tabled
closures check their answer sets against those SWI's tables give (and those against a
plain Python closure).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from typing import Any, Callable

import kanren

from bench.common import PROLOG_DIR, fmt_seconds, measure, print_table, record, swipl_seconds
from logicpy.core import (Table, appendo, conde, cons, eq, loops, membero, permuteo, relation, run, succeed, tabled, var,
                          vars)

SWI_FILE = PROLOG_DIR / "relations.pl"


@relation
def app3(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app3(t, ys, r)])


@relation
def nrev_relational(xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrev_relational(t, r), app3(r, [h], ys)])


@relation
def nrev_appendo(xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrev_appendo(t, r), appendo(r, [h], ys)])


def k_app3(xs, ys, zs):
    h, t, r = vars(3)
    return kanren.conde([kanren.eq(xs, []), kanren.eq(ys, zs)],
                        [kanren.eq(xs, cons(h, t)), kanren.eq(zs, cons(h, r)), kanren.core.Zzz(k_app3, t, ys, r)])


def k_nrev(xs, ys):
    h, t, r = vars(3)
    return kanren.conde([kanren.eq(xs, []), kanren.eq(ys, [])],
                        [kanren.eq(xs, cons(h, t)), kanren.core.Zzz(k_nrev, t, r), kanren.core.Zzz(k_app3, r, [h], ys)])


def _kanren_deep(fn: Callable[[], Any]) -> Callable[[], Any]:
    def deep():
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(20_000)
        try:
            return fn()
        finally:
            sys.setrecursionlimit(limit)
    return deep


def as_clauses(fn: Callable[[], Any]) -> Callable[[], Any]:
    """`fn` run with every relation as its clauses (`loops.disabled()`, read at each call)."""
    def clauses():
        with loops.disabled():
            return fn()
    return clauses


def edges_20000() -> Table:
    e = Table("e", 2)
    e.extend((i % 10_000, (i * 7919 + 13 + i // 10_000) % 10_000) for i in range(20_000))
    return e


TEDGES = sorted({(i % 400, (i * 7919 + 13 + i // 400) % 400) for i in range(1000)})


def closure_from(start: int) -> set:
    succ: dict = {}
    for a, b in TEDGES:
        succ.setdefault(a, set()).add(b)
    seen, todo = set(), [start]
    while todo:
        for n in succ.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


class Answers(frozenset):
    """A set of answers, shown by its size (a row's "wrong" note stays one line)."""

    def __repr__(self) -> str:
        return f"{len(self):,} answers"


def swi_closure(goal: str, python: frozenset) -> Answers:
    """The answers SWI's tabled `tpath` prints for `goal` (one per line, pairs as X-Y), after
    checking them against `python` (the closure computed in Python); `python` when swipl
    is not installed."""
    if shutil.which("swipl") is None:
        return Answers(python)
    out = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(SWI_FILE)],
                         capture_output=True, text=True, check=True).stdout
    swi = Answers(tuple(map(int, line.split("-"))) if "-" in line else int(line) for line in out.split())
    if swi != python:
        raise SystemExit(f"SWI's tabled closure differs from the Python closure ({goal})")
    return swi


def swi_nrev(python: list) -> list:
    """The list SWI's `nrev` gives for 1..100, after checking it against `python` (the
    reversal in Python); `python` when swipl is not installed."""
    if shutil.which("swipl") is None:
        return python
    out = subprocess.run(["swipl", "-q", "-g", "numlist(1,100,L), nrev(L,R), print(R), nl", "-t", "halt",
                          str(SWI_FILE)], capture_output=True, text=True, check=True).stdout
    swi = [int(n) for n in out.strip().strip("[]").split(",")]
    if swi != python:
        raise SystemExit("SWI's naive reverse differs from the Python reversal")
    return swi


def main() -> None:
    q, x, y, z = var(), var(), var(), var()
    hundred = list(range(1, 101))
    e = edges_20000()
    assert len(e) == 20_000
    two_hop_expected = sum(len(e._index[0].get(b, [])) for _, b in e)
    tedge = Table.from_rows("tedge", TEDGES)

    @tabled
    def tpath(a, b):
        c = var()
        return conde([tpath(a, c), tedge(c, b)], [tedge(a, b)])

    def tabled_closure():
        tpath.clear()
        return Answers(run(0, q, tpath(0, q)))

    def tabled_closure_all():
        tpath.clear()
        return Answers(run(0, (x, z), tpath(x, z)))

    runs = app3.relation.compile().runs  # type: ignore[attr-defined]
    if runs is None or runs.name != "appendo":
        raise SystemExit("the user's append no longer runs as appendo's loop: the naive reverse rows' names are wrong")
    reversed_100 = swi_nrev(hundred[::-1])
    eight = list(range(1, 9))
    items = list(range(8_000))
    # name -> (logicpy, plain kanren or None, SWI goal, expected result)
    rows_spec: list[tuple[str, Callable, Callable | None, str, Any]] = [
        ("naive reverse 100 (logicpy appendo)", lambda: run(1, q, nrev_appendo(hundred, q))[0], None,
         "numlist(1,100,L), nrev(L,_)", reversed_100),
        ("naive reverse 100, user append (runs as appendo's loop)", lambda: run(1, q, nrev_relational(hundred, q))[0],
         None, "numlist(1,100,L), nrev(L,_)", reversed_100),
        ("naive reverse 100, user clauses run as clauses", as_clauses(lambda: run(1, q, nrev_relational(hundred, q))[0]),
         _kanren_deep(lambda: kanren.run(1, q, k_nrev(hundred, q))[0]), "numlist(1,100,L), nrev(L,_)", reversed_100),
        ("membero over 8,000, then succeed", lambda: len(run(0, x, membero(x, items), succeed)),
         lambda: len(kanren.run(0, x, kanren.lall(membero(x, items), succeed))),
         "numlist(1,8000,L), findall(X, (member(X,L), true), _)", 8_000),
        ("permutations of 8, then succeed", lambda: len(run(0, x, permuteo(eight, x), succeed)), None,
         "findall(P, (permutation([1,2,3,4,5,6,7,8],P), true), _)", 40_320),
        ("two-hop join over 20,000 facts", lambda: len(run(0, (x, z), e(x, y), e(y, z))), None,
         "two_hop(_)", two_hop_expected),
        ("tabled left-recursive closure, 1,000 edges: from one node", tabled_closure, None, "closure_from(0, _)",
         swi_closure("forall(tpath(0, Y), writeln(Y))", frozenset(closure_from(0)))),
        ("… all pairs (once)", tabled_closure_all, None, "closure_all(_)",
         swi_closure("forall(tpath(X, Y), writeln(X-Y))",
                     frozenset((a, b) for a in {a for a, _ in TEDGES} for b in closure_from(a)))),
    ]
    rows = []
    for name, mine, theirs, swi_goal, expected in rows_spec:
        m = measure(mine, repeat=1 if name.endswith("(once)") else 3, trace_memory=False)
        ok = "" if m.result == expected else f" (wrong: {str(m.result)[:40]} != {str(expected)[:40]})"
        k = measure(theirs, repeat=1, trace_memory=False) if theirs else None
        k_text = "not run" if k is None else fmt_seconds(k.seconds) + ("" if k.result == expected else " (wrong)")
        swi = swipl_seconds(SWI_FILE, swi_goal)
        ratio = f"{m.seconds / swi:,.1f}x" if isinstance(swi, float) and swi > 0 else "n/a"
        record(name, m.seconds, swi)
        rows.append([name, fmt_seconds(m.seconds) + ok, k_text, fmt_seconds(swi), ratio])
    print_table("Relational programs (CPU time, best of 3; kanren once)",
                ["program", "logicpy", "plain kanren", "SWI-Prolog", "logicpy / SWI"], rows)


if __name__ == "__main__":
    main()
