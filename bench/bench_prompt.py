"""The same relations defined in a file and typed at a prompt (exec of `<stdin>`, `python -`).

    python -m bench prompt

An `@relation` is compiled from its code object, so where its text comes from should not
matter. Four relations of different shapes, one text: naive reverse of 100 with a user
append (bench_relations' `app3`/`nrev_relational`, their source reused), Peano addition
(forwards, 400 + 400, and backwards, every split of 60), Towers of Hanoi with 10 discs
(1,023 moves appended), and a type checker of a simply typed lambda calculus with de Bruijn
indices over a term nested 150 deep. Each runs from a module imported from a file and from
the same text compiled as `<stdin>` and `exec`'d, in this process; the ratio is the aim
(<= 1.2x). Beside them: the same text run as written at every call (what a relation
without source cost before it was read from its bytecode), and SWI-Prolog on the same
clauses. Then naive reverse timed inside two fresh interpreters, one running a file and
one reading the program on stdin (`python -`).

CPU seconds, best of 5 (as written: once; SWI timed inside Prolog, best of 3). Every row checks its answer against a
plain Python computation, and the file's answers against the prompt's.
"""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from bench import bench_relations
from bench.common import AT_A_PROMPT, IN_A_FILE, ROOT, fmt_seconds, measure, print_table, record, swipl_seconds
from logicpy.core import format_term, var

#: The relations, one text for every way of defining them (nrev and its append: bench_relations').
PROGRAM = "\n".join([
    "from logicpy.core import conde, cons, eq, relation, run, var, vars\n",
    inspect.getsource(bench_relations.app3.relation.fn),
    inspect.getsource(bench_relations.nrev_relational.relation.fn),
    '''\
@relation
def pluso(a, b, c):
    a1, c1 = vars(2)
    return conde([eq(a, "z"), eq(b, c)], [eq(a, ("s", a1)), eq(c, ("s", c1)), pluso(a1, b, c1)])


@relation
def hanoio(n, a, b, c, moves):
    n1, m1, m2 = vars(3)
    return conde([eq(n, "z"), eq(moves, [])],
                 [eq(n, ("s", n1)), hanoio(n1, a, c, b, m1), hanoio(n1, c, b, a, m2),
                  app3(m1, cons(("move", a, b), m2), moves)])


@relation
def lookupo(env, n, t):
    m, rest, other = vars(3)
    return conde([eq(n, "z"), eq(env, cons(t, rest))],
                 [eq(n, ("s", m)), eq(env, cons(other, rest)), lookupo(rest, m, t)])


@relation
def typedo(env, e, t):
    """The type t of lambda term e in environment env (a list, de Bruijn indices into it)."""
    k, n, b, a, r, f, x, left, right = vars(9)
    return conde([eq(e, ("lit", k)), eq(t, "int")],
                 [eq(e, ("var", n)), lookupo(env, n, t)],
                 [eq(e, ("lam", b)), eq(t, ("arrow", a, r)), typedo(cons(a, env), b, r)],
                 [eq(e, ("app", f, x)), typedo(env, f, ("arrow", a, t)), typedo(env, x, a)],
                 [eq(e, ("add", left, right)), eq(t, "int"), typedo(env, left, "int"), typedo(env, right, "int")])
'''])

#: The same clauses in Prolog, for SWI-Prolog's figures.
PROLOG = """\
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
plus(z, Y, Y).
plus(s(X), Y, s(Z)) :- plus(X, Y, Z).
hanoi(z, _, _, _, []).
hanoi(s(N), A, B, C, Ms) :- hanoi(N, A, C, B, M1), hanoi(N, C, B, A, M2), app(M1, [move(A,B)|M2], Ms).
lookup(z, [T|_], T).
lookup(s(M), [_|Env], T) :- lookup(M, Env, T).
typed(_, lit(_), int).
typed(Env, var(N), T) :- lookup(N, Env, T).
typed(Env, lam(B), arrow(A, R)) :- typed([A|Env], B, R).
typed(Env, app(F, X), T) :- typed(Env, F, arrow(A, T)), typed(Env, X, A).
typed(Env, add(L, R), int) :- typed(Env, L, int), typed(Env, R, int).
"""


def peano(n: int) -> Any:
    term: Any = "z"
    for _ in range(n):
        term = ("s", term)
    return term


def nested_term(depth: int) -> Any:
    """An int-typed term `depth` applications deep, each applying a lambda that adds its argument."""
    term: Any = ("lit", 0)
    for k in range(depth):
        term = ("app", ("lam", ("add", ("var", "z"), term)), ("lit", k))
    return term


def workloads(ns: dict[str, Any]) -> list[tuple[str, Callable[[], Any], str, Any]]:
    """(name, the query run with namespace `ns`'s relations, SWI goal, expected answer)."""
    run = ns["run"]
    q, x, y = var(), var(), var()
    hundred = list(range(1, 101))
    four_hundred, sixty, ten = peano(400), peano(60), peano(10)
    term = nested_term(150)

    def hanoi_count() -> int:
        return len(run(1, q, ns["hanoio"](ten, "a", "b", "c", q))[0])

    return [
        ("nrev 100, user append", lambda: run(1, q, ns["nrev_relational"](hundred, q))[0],
         "numlist(1,100,L), nrev(L,_)", hundred[::-1]),
        ("Peano 400 + 400", lambda: run(1, q, ns["pluso"](four_hundred, four_hundred, q))[0],
         f"plus({format_term(four_hundred)}, {format_term(four_hundred)}, _)", peano(800)),
        ("Peano x + y = 60, all", lambda: len(run(0, (x, y), ns["pluso"](x, y, sixty))),
         f"findall(X-Y, plus(X, Y, {format_term(sixty)}), _)", 61),
        ("Hanoi, 10 discs", hanoi_count, f"hanoi({format_term(ten)}, a, b, c, _)", 1_023),
        ("type check, depth 150", lambda: run(1, q, ns["typedo"]([], term, q))[0],
         f"typed([], {format_term(term)}, _)", "int"),
    ]


def in_a_file(folder: Path) -> dict[str, Any]:
    """The program's namespace, imported from a file (its source can be read)."""
    (folder / "bench_prompt_program.py").write_text(PROGRAM)
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("bench_prompt_program")
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("bench_prompt_program", None)
    return vars(module)


def typed_at_a_prompt() -> dict[str, Any]:
    """The program's namespace, compiled as `<stdin>` (no source to read) and executed."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(PROGRAM, "<stdin>", "exec"), namespace)  # noqa: S102  the benchmark's own program
    return namespace


def as_written() -> dict[str, Any]:
    """The program's namespace typed at a prompt, every relation run as written at each call."""
    namespace = typed_at_a_prompt()
    for name in ("app3", "nrev_relational", "pluso", "hanoio", "lookupo", "typedo"):
        namespace[name].relation.compiled = None
    return namespace


#: Naive reverse timed inside a fresh interpreter (the program text, then this).
TIMED = """
import time
q = var()
hundred = list(range(1, 101))
best = float("inf")
for _ in range(5):
    start = time.process_time()
    answer = run(1, q, nrev_relational(hundred, q))[0]
    best = min(best, time.process_time() - start)
assert answer == hundred[::-1]
assert nrev_relational.relation.compile() is not None, nrev_relational.relation.why
print(best)
"""


def subprocess_seconds(folder: Path) -> tuple[float, float]:
    """(seconds from `python file.py`, seconds from `python -` reading the same text)."""
    script = PROGRAM + TIMED
    (folder / "nrev_program.py").write_text(script)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])

    def timed(args: list[str], stdin: str | None = None) -> float:
        done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, env=env,
                              check=True, timeout=600)
        return float(done.stdout.split()[-1])

    return timed([str(folder / "nrev_program.py")]), timed(["-"], stdin=script)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        swi_file = folder / "prompt.pl"
        swi_file.write_text(PROLOG)
        spaces = {"file": in_a_file(folder), "prompt": typed_at_a_prompt(), "as written": as_written()}
        for name in ("app3", "nrev_relational", "pluso", "hanoio", "lookupo", "typedo"):
            for where in ("file", "prompt"):
                if spaces[where][name].relation.compile() is None:
                    raise SystemExit(f"{name} ({where}) is not compiled: {spaces[where][name].relation.why}")
        rows = []
        totals = {"file": 0.0, "prompt": 0.0}
        runs = {where: workloads(ns) for where, ns in spaces.items()}
        for i, (name, _, swi_goal, expected) in enumerate(runs["file"]):
            seconds = {}
            notes = []
            for where in ("file", "prompt", "as written"):
                m = measure(runs[where][i][1], repeat=1 if where == "as written" else 5, trace_memory=False)
                seconds[where] = m.seconds
                if m.result != expected:
                    notes.append(f"{where} wrong: {str(m.result)[:30]}")
            totals["file"] += seconds["file"]
            totals["prompt"] += seconds["prompt"]
            swi = swipl_seconds(swi_file, swi_goal)
            vs_swi = f"{seconds['file'] / swi:,.1f}x" if isinstance(swi, float) and swi > 0 else "n/a"
            rows.append([name + (f" ({'; '.join(notes)})" if notes else ""), fmt_seconds(seconds["file"]),
                         fmt_seconds(seconds["prompt"]), f"{seconds['prompt'] / seconds['file']:.2f}x",
                         fmt_seconds(seconds["as written"]), f"{seconds['as written'] / seconds['file']:,.0f}x",
                         fmt_seconds(swi), vs_swi])
        record(IN_A_FILE, totals["file"], None)
        record(AT_A_PROMPT, totals["prompt"], None)
        rows.append(["all five", fmt_seconds(totals["file"]), fmt_seconds(totals["prompt"]),
                     f"{totals['prompt'] / totals['file']:.2f}x", "", "", "", ""])
        print_table("The same relations in a file and typed at a prompt (CPU time, best of 5; as written once)",
                    ["work", "file", "<stdin>", "<stdin> / file", "as written", "/ file", "SWI-Prolog", "file / SWI"],
                    rows)
        from_file, from_stdin = subprocess_seconds(folder)
        print_table("Naive reverse 100 in a fresh interpreter (CPU time, best of 5)",
                    ["python file.py", "python - (program on stdin)", "stdin / file"],
                    [[fmt_seconds(from_file), fmt_seconds(from_stdin), f"{from_stdin / from_file:.2f}x"]])


if __name__ == "__main__":
    main()
