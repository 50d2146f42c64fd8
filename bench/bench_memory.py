"""Memory of deep and long runs: tail calls, a Peano sum, deep recursion, beside SWI-Prolog.

    python -m bench memory
    python -m bench.bench_memory count_cut peano

Each work runs once in a fresh process on each engine: CPU seconds of the goal alone
(consulting and building the input excluded) and the process's peak resident memory
(`wait4`'s ru_maxrss, start-up included; an empty run of each engine is the first row).
logicpy runs Prolog order from source (set LOGICPY_PURE=1 to time the pure-Python
core). A deterministic tail call should run in constant memory on both engines: the
count rows at 10^6 and their half at 5·10^5 show it (the same peak for both sizes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from bench.common import ROOT, fmt_bytes, fmt_seconds, print_table
from logicpy.core import conde, eq, relation, vars

#: Prolog programs counting to N by a deterministic tail call, as users write them.
COUNTS = {
    "count_cut": "count(N, N) :- !.\ncount(I, N) :- I1 is I + 1, count(I1, N).\n",
    "count_guard": "count(I, N) :- I < N, I1 is I + 1, count(I1, N).\ncount(N, N).\n",
    "count_ite": "count(I, N) :- ( I >= N -> true ; I1 is I + 1, count(I1, N) ).\n",
}

#: Deep recursion that is not a tail call: the length of a list counted on the way back.
LENGTH = "len([], 0).\nlen([_|T], N) :- len(T, N0), N is N0 + 1.\n"

#: Peano addition, the same clauses as the `@relation` `addo` below.
PEANO = "add(z, Y, Y).\nadd(s(X), Y, s(Z)) :- add(X, Y, Z).\n" \
        "peano(0, z) :- !.\npeano(N, s(P)) :- M is N - 1, peano(M, P).\n"

#: The works: name -> (what it does, its size).
WORKS = {
    "empty": ("start-up, nothing run", 0),
    **{name: (f"tail-recursive count to 10^6 ({name.removeprefix('count_')})", 1_000_000) for name in COUNTS},
    "count_cut_half": ("the same (cut), to 5·10^5", 500_000),
    "length": ("non-tail recursion: length of a 10^5 list", 100_000),
    "length_double": ("the same, 2·10^5", 200_000),
    "peano": ("Peano add of 400,000 (@relation addo)", 400_000),
}


@relation
def addo(x, y, z):  # type: ignore[no-untyped-def]
    """x + y = z on Peano numbers (`z`, `("s", n)`)."""
    a, b = vars(2)
    return conde([eq(x, "z"), eq(y, z)], [eq(x, ("s", a)), eq(z, ("s", b)), addo(a, y, b)])


def _logicpy(name: str, size: int) -> float:
    """CPU seconds of the work on logicpy (run in the child process)."""
    import time

    from logicpy.core import run, var
    from logicpy.prolog import consult_text

    if name == "empty":
        return 0.0
    if name == "peano":
        x: object = "z"
        for _ in range(size):
            x = ("s", x)
        q = var()
        start = time.process_time()
        answer = run(1, q, addo(x, "z", q))
        seconds = time.process_time() - start
        total, levels = answer[0], 0
        while total != "z":
            total, levels = total[1], levels + 1
        assert levels == size, "wrong sum"
        return seconds
    program = consult_text(LENGTH if name.startswith("length") else COUNTS[name.removesuffix("_half")])
    if name.startswith("length"):
        program.query(f"numlist(1, {size}, L), len(L, N)", 1)  # warm: the clauses compiled
        goal = f"numlist(1, {size}, L), len(L, N)"
    else:
        goal = f"count(0, {size})"
    start = time.process_time()
    answers = program.query(goal, 1)
    seconds = time.process_time() - start
    assert answers, f"{goal} failed"
    return seconds


def _swi_goal(name: str, size: int) -> tuple[str, str]:
    """(program text, goal printing the CPU seconds of the work) for SWI-Prolog."""
    timed = "statistics(cputime, T0), {}, statistics(cputime, T1), T is T1 - T0, format('~6f~n', [T])"
    if name == "empty":
        return "", "format('0~n')"
    if name == "peano":
        return PEANO, f"peano({size}, X), " + timed.format("add(X, z, _)")
    if name.startswith("length"):
        return LENGTH, f"numlist(1, {size}, L), " + timed.format("len(L, _)")
    return COUNTS[name.removesuffix("_half")], timed.format(f"count(0, {size})")


def run_apart(command: list[str], stdin: str | None = None) -> tuple[str, int]:
    """(standard output, peak resident bytes) of a child process, waited for here so that its
    own peak is read."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    if stdin is not None:
        child.stdin.write(stdin)
    child.stdin.close()
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:3])}: {err.strip()[-300:]}")
    return out, usage.ru_maxrss * 1024


def logicpy_figures(name: str) -> tuple[float, int]:
    size = WORKS[name][1]
    out, peak = run_apart([sys.executable, "-c", f"from bench.bench_memory import _logicpy; "
                                                 f"print(_logicpy({name!r}, {size}))"])
    return float(out.split()[-1]), peak


def swi_figures(name: str) -> tuple[float, int] | None:
    if shutil.which("swipl") is None:
        return None
    program, goal = _swi_goal(name, WORKS[name][1])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "work.pl"
        path.write_text(program)
        out, peak = run_apart(["swipl", "-q", "--stack_limit=8g", "-g", goal, "-t", "halt", str(path)])
    return float(out.split()[-1]), peak


def main(argv: list[str] | None = None) -> None:
    names = argv or list(WORKS)
    unknown = [n for n in names if n not in WORKS]
    if unknown:
        sys.exit(f"unknown work(s): {', '.join(unknown)}; available: {', '.join(WORKS)}")
    rows = []
    for name in names:
        seconds, peak = logicpy_figures(name)
        swi = swi_figures(name)
        swi_seconds, swi_peak = swi if swi is not None else (None, None)
        ratio = f"{seconds / swi_seconds:,.0f}x" if swi_seconds else "n/a"
        memory = f"{peak / swi_peak:.1f}x" if swi_peak else "n/a"
        rows.append([name, WORKS[name][0], fmt_seconds(seconds) if name != "empty" else "-", fmt_bytes(peak),
                     fmt_seconds(swi_seconds) if name != "empty" else "-", fmt_bytes(swi_peak),
                     ratio if name != "empty" else "-", memory])
    pure = "pure Python" if os.environ.get("LOGICPY_PURE") else "compiled core when built"
    print_table(f"Deep and long runs: logicpy (Prolog order, {pure}) vs SWI-Prolog, CPU and peak RSS, one run each",
                ["work", "what", "logicpy", "peak RSS", "SWI-Prolog", "SWI peak RSS", "CPU ratio", "RSS ratio"], rows)
    print(textwrap.fill(
        "Peak RSS is the whole process's, start-up included (the empty row). Constant memory shows as the same "
        "peak at 5·10^5 and 10^6; linear memory as a difference proportional to the size (length rows).",
        width=120))


if __name__ == "__main__":
    main(sys.argv[1:])
