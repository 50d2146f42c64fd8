"""List relations on long lists: logicpy.core's, a user's, kanren 1.0.5's and SWI-Prolog's.

    python -m bench lists

Each query runs on logicpy's built-in relation (`membero`, `appendo`, `selecto`,
`adjacento`); on a user's relation with the textbook clauses of member/2, append/3,
select/3 and nextto/3 (`my_member`, ... below), which runs as the built-in's loop
(`logicpy.core.loops`); on the same user relation with `loops.disabled()`, its clauses run
as clauses by the clause compiler; on kanren's own relation where it has one; and on SWI's
library predicate. kanren's membero/appendo recurse once per element and raise
RecursionError past about 170 elements, so kanren runs only at 150; the others run at 150,
10,000 and 100,000. Times are CPU seconds, best of 3 (SWI: timed inside Prolog, building
the list included); memory is the peak Python heap of one traced run of the built-in. Every
engine's answer is checked against the one computed in Python (SWI's by its length, sum,
first and last element).

A second table reverses 100,000 and 1,000,000 elements with the accumulator `reverseo`
(a user's relation: `eq(xs, cons(h, t))` on a Python list) beside SWI's reverse/2 (an
accumulator over numlist): each run in a child process of its own, CPU seconds of the
reversal and the child's peak resident memory, the reversed lists compared.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

import kanren
from rich.markup import escape

from bench.common import PROLOG_DIR, fmt_bytes, fmt_seconds, measure, print_table, swipl_seconds
from logicpy import core
from logicpy.core import adjacento, appendo, conde, cons, eq, loops, membero, relation, selecto, vars

SIZES = (150, 10_000, 100_000)
KANREN_SIZE = 150
SWI_FILE = PROLOG_DIR / "lists.pl"


# A user's list relations: Prolog's textbook clauses, in @relation.

@relation
def my_member(x, xs):
    """member(X, [X|_]). member(X, [_|T]) :- member(X, T)."""
    h, t = vars(2)
    return conde([eq(xs, cons(x, t))], [eq(xs, cons(h, t)), my_member(x, t)])


@relation
def my_append(xs, ys, zs):
    """append([], L, L). append([H|T], L, [H|R]) :- append(T, L, R)."""
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), my_append(t, ys, r)])


@relation
def my_select(x, xs, ys):
    """select(X, [X|T], T). select(X, [H|T], [H|R]) :- select(X, T, R)."""
    h, t, r = vars(3)
    return conde([eq(xs, cons(x, t)), eq(ys, t)], [eq(xs, cons(h, t)), eq(ys, cons(h, r)), my_select(x, t, r)])


@relation
def my_nextto(x, y, xs):
    """nextto(X, Y, [X,Y|_]). nextto(X, Y, [_|T]) :- nextto(X, Y, T)."""
    h, t = vars(2)
    return conde([eq(xs, cons(x, y, t))], [eq(xs, cons(h, t)), my_nextto(x, y, t)])


#: each user relation and the built-in whose loop it runs as
USER_RELATIONS = {my_member: membero, my_append: appendo, my_select: selecto, my_nextto: adjacento}


@dataclass(frozen=True)
class Operation:
    """A query on the list `xs` of 1..N: `query(lib, rel, xs)` is a function running it with
    the relation `rel` (`lib`, logicpy.core or kanren, gives run, var and eq) on logicpy's
    `builtin`, the `user`'s relation, and `kanren`'s (None: kanren has none); `expected(xs)`
    is what run gives. SWI runs `swi` (N the size); `swi_answer` binds A to `digest` of the
    expected answer."""

    builtin: Callable
    user: Callable
    kanren: Callable | None
    query: Callable[[Any, Callable, list], Callable[[], Any]]
    expected: Callable[[list], tuple]
    swi: str
    swi_answer: str
    digest: Callable[[tuple], Any]


def _member_last(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    q = lib.var()
    return lambda: lib.run(1, q, rel(xs[-1], xs), lib.eq(q, True))


def _member_all(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    x = lib.var()
    return lambda: lib.run(0, x, rel(x, xs))


def _append_forward(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    z = lib.var()
    return lambda: lib.run(1, z, rel(xs, xs, z))


def _append_backward(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    x = lib.var()
    return lambda: lib.run(1, x, rel(x, [xs[-1]], xs))


def _select_last(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    r = lib.var()
    return lambda: lib.run(1, r, rel(xs[-1], xs, r))


def _before_last(lib: Any, rel: Callable, xs: list) -> Callable[[], Any]:
    x = lib.var()
    return lambda: lib.run(1, x, rel(x, xs[-1], xs))


def _digest(xs: list) -> list:
    """What SWI prints of a list of integers: its length, sum, first and last element."""
    return [len(xs), sum(xs), xs[0], xs[-1]]


_SWI_DIGEST = "length(Xs,Len), sum_list(Xs,Sum), Xs=[F|_], last(Xs,La), A=[Len,Sum,F,La]"

#: query name -> what it runs
OPERATIONS: dict[str, Operation] = {
    "member(last, L)": Operation(
        membero, my_member, kanren.membero, _member_last, lambda xs: (True,),
        "numlist(1,N,L), once(member(N,L))", "numlist(1,N,L), aggregate_all(count, once(member(N,L)), A)", len),
    "member(X, L), all": Operation(
        membero, my_member, kanren.membero, _member_all, tuple,
        "numlist(1,N,L), findall(X, member(X,L), _)", f"numlist(1,N,L), findall(X, member(X,L), Xs), {_SWI_DIGEST}",
        lambda r: _digest(list(r))),
    "append(L, L, Z)": Operation(
        appendo, my_append, kanren.appendo, _append_forward, lambda xs: (xs + xs,),
        "numlist(1,N,L), append(L,L,_)", f"numlist(1,N,L), append(L,L,Xs), {_SWI_DIGEST}", lambda r: _digest(r[0])),
    "append(X, [last], L)": Operation(
        appendo, my_append, kanren.appendo, _append_backward, lambda xs: (xs[:-1],),
        "numlist(1,N,L), once(append(_,[N],L))", f"numlist(1,N,L), once(append(Xs,[N],L)), {_SWI_DIGEST}",
        lambda r: _digest(r[0])),
    "select(last, L, R)": Operation(
        selecto, my_select, None, _select_last, lambda xs: (xs[:-1],),
        "numlist(1,N,L), once(select(N,L,_))", f"numlist(1,N,L), once(select(N,L,Xs)), {_SWI_DIGEST}",
        lambda r: _digest(r[0])),
    "nextto(X, last, L)": Operation(
        adjacento, my_nextto, None, _before_last, lambda xs: (xs[-2],),
        "numlist(1,N,L), once(nextto(_,N,L))", "numlist(1,N,L), once(nextto(A,N,L))", lambda r: r[0]),
}


def as_clauses(fn: Callable[[], Any]) -> Callable[[], Any]:
    """`fn` run with every relation as its clauses (`loops.disabled()`, read at each call)."""
    def clauses() -> Any:
        with loops.disabled():
            return fn()
    return clauses


def _time(fn: Callable[[], Any], expected: tuple, memory: bool = False) -> tuple[str, str, bool | None]:
    """Best of 3 CPU seconds of `fn`, its peak heap (`memory`), whether it gave `expected`
    (None: it gave no answer, RecursionError)."""
    try:
        m = measure(fn, repeat=3, trace_memory=memory)
    except RecursionError:
        return "RecursionError", "n/a", None
    ok = m.result == expected
    return fmt_seconds(m.seconds) + ("" if ok else " (wrong answer!)"), fmt_bytes(m.peak_bytes), ok


def swi_answers(op: Operation) -> dict[int, Any]:
    """SWI's answer digest for `op` at each size (empty when swipl is not installed)."""
    if shutil.which("swipl") is None:
        return {}
    goal = (f"forall(member(N, [{','.join(map(str, SIZES))}]), "
            f"(({op.swi_answer}) -> format('~w ~w~n', [N, A]) ; format('~w none~n', [N])))")
    out = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt", str(SWI_FILE)],
                         capture_output=True, text=True, check=True).stdout
    answers = {}
    for line in out.splitlines():
        size, answer = line.split(" ", 1)
        answers[int(size)] = json.loads(answer) if answer != "none" else None
    return answers


def list_rows() -> list[list[str]]:
    """One row per query and size: the built-in, the user's relation as a loop and as
    clauses, kanren, SWI, and whether every engine gave the expected answer."""
    rows = []
    for name, op in OPERATIONS.items():
        swi_digests = swi_answers(op)
        for size in SIZES:
            items = list(range(1, size + 1))
            expected = op.expected(items)
            builtin, heap, ok_builtin = _time(op.query(core, op.builtin, items), expected, memory=True)
            user, _, ok_user = _time(op.query(core, op.user, items), expected)
            clauses, _, ok_clauses = _time(as_clauses(op.query(core, op.user, items)), expected)
            oks = [ok_builtin, ok_user, ok_clauses]
            if op.kanren is None:
                kanren_time = "none"
            elif size <= KANREN_SIZE:
                kanren_time, _, ok_kanren = _time(op.query(kanren, op.kanren, items), expected)
                oks.append(ok_kanren)
            else:
                kanren_time = "not run"
            swi = swipl_seconds(SWI_FILE, op.swi.replace("N", str(size)))
            if swi_digests:
                oks.append(swi_digests.get(size) == op.digest(expected))
            rows.append([escape(name), f"{size:,}", builtin, user, clauses, heap, kanren_time, fmt_seconds(swi),
                         "yes" if all(ok is not False for ok in oks) else "NO"])
    return rows


REVERSE_SIZES = (100_000, 1_000_000)

#: A child process: reverse range(N) with the README's accumulator relation; print JSON.
_LOGICPY_REVERSE = """
import json, resource, sys, time
from logicpy.core import conde, cons, eq, relation, run, var, vars

@relation
def reverseo(xs, acc, ys):
    h, t = vars(2)
    return conde([eq(xs, []), eq(acc, ys)], [eq(xs, cons(h, t)), reverseo(t, cons(h, acc), ys)])

n = int(sys.argv[1])
items, q = list(range(1, n + 1)), var()
start = time.process_time()
(answer,) = run(1, q, reverseo(items, [], q))
seconds = time.process_time() - start
try:  # this process's own peak: ru_maxrss would also count the parent's, from before the exec
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_kib": peak,
                  "answer": [len(answer), answer[:3], answer[-3:], sum(answer)]}))
"""

#: A child process: run swipl on reverse/2 of numlist(1, N) and report its peak memory.
_SWI_REVERSE = """
import json, resource, subprocess, sys
goal = ("numlist(1,{n},L), statistics(cputime,T0), reverse(L,R), statistics(cputime,T1), T is T1-T0, "
        "length(R,Len), R=[A,B,C|_], append(_,[X,Y,Z],R), sum_list(R,S), "
        "format('~w ~w ~w ~w ~w ~w ~w ~w~n',[T,Len,A,B,C,X,Y,Z]), format('~w~n',[S])").format(n=sys.argv[1])
out = subprocess.run(["swipl", "-q", "-g", goal, "-t", "halt"], capture_output=True, text=True, check=True).stdout
first, second = out.split()[:8], out.split()[8]
t, length, *ends = first
print(json.dumps({"seconds": float(t), "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "answer": [int(length), [int(e) for e in ends[:3]], [int(e) for e in ends[3:]], int(second)]}))
"""


def _child(program: str, n: int) -> dict | str:
    """The JSON a child process prints for size `n`, or why it gave none."""
    try:
        done = subprocess.run([sys.executable, "-c", program, str(n)], capture_output=True, text=True, timeout=1800)
    except subprocess.TimeoutExpired:
        return "> 1800 s"
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["failed"])[-1][:60]
    return json.loads(done.stdout)


def reverse_rows() -> list[list[str]]:
    """One row per size: logicpy's and SWI's reversal, time and peak memory, answers compared."""
    rows = []
    for n in REVERSE_SIZES:
        mine = _child(_LOGICPY_REVERSE, n)
        swi = _child(_SWI_REVERSE, n) if shutil.which("swipl") else "no swipl"
        expected = [n, [n, n - 1, n - 2], [3, 2, 1], n * (n + 1) // 2]
        cells = []
        for got in (mine, swi):
            if isinstance(got, str):
                cells += [escape(got), "n/a"]
            else:
                ok = "" if got["answer"] == expected else " (wrong answer!)"
                cells += [fmt_seconds(got["seconds"]) + ok, fmt_bytes(got["peak_kib"] * 1024)]
        same = "yes" if not isinstance(mine, str) and not isinstance(swi, str) and mine["answer"] == swi["answer"] else "-"
        rows.append([f"{n:,}", *cells, same])
    return rows


def main() -> None:
    """Print one row per query and size, then the accumulator reversal."""
    print_table("List relations on long lists: logicpy, kanren 1.0.5, SWI-Prolog (CPU time, best of 3)",
                ["query", "length", "built-in", "user (loop)", "as clauses", "peak heap", "kanren", "SWI-Prolog",
                 "equal"], list_rows())
    runs = ", ".join(f"{user.__name__} as {core_relation.__name__}'s"
                     for user, core_relation in USER_RELATIONS.items()
                     if getattr(user.relation.compile().runs, "name", None) == core_relation.__name__)
    print(textwrap.fill(
        "L is [1, ..., N], last is N; the first answer, but every answer of member(X, L), all. "
        f"built-in: {', '.join(r.__name__ for r in USER_RELATIONS.values())}. "
        f"user (loop): {', '.join(r.__name__ for r in USER_RELATIONS)}, Prolog's textbook clauses of member/2, "
        f"append/3, select/3 and nextto/3 in @relation, run as the built-ins' loops ({runs or 'none is'}). "
        "as clauses: the same user relations with loops.disabled(), their clauses run by the clause compiler. "
        "peak heap: one traced run of the built-in. kanren: its membero/appendo at 150 only (RecursionError past "
        "about 170); it has no select/3 or nextto/3 (none). equal: every engine's answers are the ones computed "
        "in Python (SWI's compared by length, sum, first and last element).", width=120))
    print_table("Accumulator reverse, one child process per run (CPU time of the reversal, peak resident memory)",
                ["length", "logicpy reverseo", "logicpy peak RSS", "SWI reverse/2", "SWI peak RSS", "same answer"],
                reverse_rows())


if __name__ == "__main__":
    main()
