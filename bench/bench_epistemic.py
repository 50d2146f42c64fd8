"""Who knows what on both engines: muddy children n = m = 20, 40, 60 and Sum and Product, explicit vs symbolic vs plain.

    python -m bench epistemic

Each run is one child process (`python -m bench.bench_epistemic --one ENGINE PUZZLE`), so
its CPU seconds and peak resident memory are its own (interpreter and numpy included,
about 40 MB). Engines: `explicit` (numpy arrays over every world), `symbolic` (BDDs, dd
with CUDD), `plain` (the naive evaluator of `verify.py`: sets and dicts, world by world,
as a plain baseline). A run is stopped after `CAP` seconds; the explicit engine refuses a
model over its memory limit, which shows as "refused". The muddy-children runs include the
"who knows" table of the actual world (every child, before every statement), as the
command prints it. Aims: n = m = 40 under 5 s and n = 60 under 60 s, each under 500 MB;
Sum and Product under 0.5 s.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from bench.common import fmt_seconds, print_table

CAP = 60
ENGINES = ("explicit", "symbolic", "plain")
PUZZLES = {"muddy 20": (20, "< 10 s"), "muddy 40": (40, "< 5 s, < 500 MB"), "muddy 60": (60, "< 60 s, < 500 MB"),
           "sum-product": (100, "< 0.5 s")}


def one(engine: str, puzzle: str) -> dict:
    """Solve one puzzle on one engine in this process: answer, CPU seconds, peak RSS."""
    from logicpy.errors import InputError
    from logicpy.puzzles.epistemic import muddy_children, sum_product
    from logicpy.puzzles.epistemic.solve import solve
    from logicpy.puzzles.epistemic.stories import muddy_knowers
    from logicpy.puzzles.epistemic.verify import survivors

    size = PUZZLES[puzzle][0]
    story = muddy_children(size, size) if puzzle.startswith("muddy") else sum_product(size)
    start = time.process_time()
    try:
        if engine == "plain":
            if len(story.worlds) > 2**22:
                raise InputError(f"{len(story.worlds):,} worlds")
            found = sorted(survivors(story))
            answer = [story.show(story.worlds[i]) for i in found]
        else:
            result = solve(story, engine)
            answer = [story.show(s) for s in result.solutions]
            if puzzle.startswith("muddy"):
                knowers = muddy_knowers(result, (1 << size) - 1)
                assert len(knowers[-1]) == size and not any(knowers[:-1])
    except InputError as exc:
        return {"refused": str(exc)}
    seconds = time.process_time() - start
    return {"seconds": seconds, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "answer": answer[:3]}


def measure(engine: str, puzzle: str) -> dict:
    """`one` in a child process, stopped after `CAP` seconds."""
    try:
        out = subprocess.run([sys.executable, "-m", "bench.bench_epistemic", "--one", engine, puzzle],
                             capture_output=True, text=True, timeout=CAP, check=True).stdout
    except subprocess.TimeoutExpired:
        return {"capped": True}
    return json.loads(out.splitlines()[-1])


def cell(figures: dict) -> str:
    if figures.get("capped"):
        return f"> {CAP} s"
    if "refused" in figures:
        return "refused"
    return f"{fmt_seconds(figures['seconds'])}, {figures['rss'] / 1e6:,.0f} MB"


def main() -> None:
    rows = []
    for puzzle, (size, aim) in PUZZLES.items():
        figures = {engine: measure(engine, puzzle) for engine in ENGINES}
        answers = {json.dumps(f["answer"]) for f in figures.values() if "answer" in f}
        worlds = f"2^{size}" if puzzle.startswith("muddy") else "2,352"
        rows.append([puzzle, worlds, *(cell(figures[e]) for e in ENGINES), aim,
                     "same" if len(answers) == 1 else "DIFFER"])
    print_table("Who knows what: CPU seconds and peak memory per child process (one run each)",
                ["puzzle", "worlds", "explicit", "symbolic", "plain (naive evaluator)", "aim", "answers"], rows)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(one(sys.argv[2], sys.argv[3])))
    else:
        main()
