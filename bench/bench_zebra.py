"""The zebra puzzle, all solutions, on several engines: the same clues in the same order.

    python -m bench zebra

- logicpy relations: examples/zebra.py with logicpy.core's membero/adjacento;
- plain kanren: the same model with kanren 1.0.5's own membero, and adjacency as
  membership in the list of neighbouring pairs (the idiom of kanren's README);
- SWI-Prolog: prolog/zebra.pl (member/2, nextto/3), timed inside Prolog; its solutions
  are also printed and compared with each engine's (atoms as written in Prolog: "Old Gold"
  is old_gold).

`ENGINES` maps a name to a function returning the solutions (lists of house terms); other
benchmarks and engines (a finite-domain entry, say) add to it. Times are CPU seconds,
best of the repeats; memory is the peak Python heap of one traced run.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from typing import Any, Callable

import kanren

from bench.common import PROLOG_DIR, ROOT, ZEBRA, fmt_bytes, fmt_seconds, measure, print_table, record, swipl_seconds
from bench.bench_fd import zebra_fd_houses


def _load_example():
    spec = importlib.util.spec_from_file_location("example_zebra", ROOT / "logicpy" / "data" / "examples" / "zebra.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


zebra = _load_example()


def _kanren_adjacent(a: Any, b: Any, houses: list) -> Any:
    """b directly after a, plain-kanren style: (a, b) is one of the neighbouring pairs."""
    return kanren.membero((a, b), list(zip(houses, houses[1:])))


PLAIN_KANREN = zebra.Relations(member=kanren.membero, adjacent=_kanren_adjacent)

ENGINES: dict[str, Callable[[], Any]] = {
    "logicpy relations": lambda: zebra.solve(zebra.LOGICPY),
    "plain kanren": lambda: zebra.solve(PLAIN_KANREN),
    "logicpy FD": zebra_fd_houses,  # finite-domain model, examples/zebra_fd.py
}

#: Repeats per engine: the slow ones run once.
REPEATS = {"plain kanren": 1}

SWI_FILE = PROLOG_DIR / "zebra.pl"
SWI_GOAL = "findall(H, zebra(H), _)"


#: Prints each solution of zebra.pl on a line, its houses' fields space-separated, houses ';'-separated.
SWI_PRINT = ("forall(zebra(H), (forall(member(h(A,B,C,D,E), H), format('~w ~w ~w ~w ~w;', [A,B,C,D,E])), nl))")


def _prolog_atom(value: Any) -> str:
    """How zebra.pl writes a field's value: "Old Gold" -> old_gold."""
    return str(value).lower().replace(" ", "_")


def _as_prolog(solutions: Any) -> list[list[tuple[str, ...]]]:
    """Solutions (lists of house terms) as zebra.pl writes them."""
    return [[tuple(_prolog_atom(v) for v in house[1:]) for house in houses] for houses in solutions]


def swi_solutions() -> list[list[tuple[str, ...]]] | None:
    """Every solution of zebra.pl as SWI-Prolog finds it, in its order; None without swipl."""
    if shutil.which("swipl") is None:
        return None
    out = subprocess.run(["swipl", "-q", "-g", SWI_PRINT, "-t", "halt", str(SWI_FILE)],
                         capture_output=True, text=True, check=True).stdout
    return [[tuple(house.split()) for house in line.split(";") if house.strip()] for line in out.splitlines() if line]


def _answer(solutions: Any) -> str:
    """'Norwegian / Japanese' for the one expected solution, else what went wrong."""
    solutions = list(solutions)
    if len(solutions) != 1:
        return f"{len(solutions)} solutions"
    houses = solutions[0]
    broken = zebra.verify(houses)
    if broken:
        return f"wrong: breaks {broken[0]}"
    return f"{zebra.who(houses, 'drink', 'water')} / {zebra.who(houses, 'pet', 'zebra')}"


def main() -> None:
    """Time every engine and print the table, with ratios to SWI-Prolog and to logicpy."""
    rows = []
    times: dict[str, float | None] = {}
    swi_found = swi_solutions()
    for name, solve in ENGINES.items():
        m = measure(solve, repeat=REPEATS.get(name, 3), trace_memory=name not in REPEATS)
        times[name] = m.seconds
        same = "n/a" if swi_found is None else "yes" if _as_prolog(m.result) == swi_found else "NO"
        rows.append([name, fmt_seconds(m.seconds), fmt_bytes(m.peak_bytes), _answer(m.result), same])
    swi = swipl_seconds(SWI_FILE, SWI_GOAL, repeat=5)
    times["SWI-Prolog (zebra.pl)"] = swi
    swi_answer = "swipl missing" if swi_found is None else f"{len(swi_found)} solution{'' if len(swi_found) == 1 else 's'}"
    rows.append(["SWI-Prolog (zebra.pl)", fmt_seconds(swi), "n/a", swi_answer, "n/a"])
    base = times["logicpy relations"]
    record(ZEBRA, base, swi)
    for row in rows:
        t = times[row[0]]
        row.insert(2, f"{t / swi:,.0f}x" if t and swi else "n/a")
        row.insert(3, f"{t / base:.2f}x" if t and base else "n/a")
    print_table("Zebra puzzle, all solutions (CPU time, best of repeats)",
                ["engine", "time", "vs SWI", "vs logicpy", "peak heap", "water / zebra", "same solutions as SWI"], rows)


if __name__ == "__main__":
    main()
