"""Einstein explanations and difficulty rating: `logicpy einstein --explain` and `generate`'s rating.

    python -m bench explain

Games: the bake sale example, einstein-solver's valentine (six failed assumptions), the
minimised games `logicpy einstein generate` made (bench/einstein_games/: 6 x 6 and 8 rows x
10 kinds), the 8 x 8 grid of `bench_einstein`, and a 12 x 10 grid clued the same way (with
LOGICPY_BENCH_EXPLAIN_BIG=1 in the environment; generating it takes minutes of FD search). For each: the trace's size, the
difficulty it measures (the same `difficulty_of` that `generate` uses), and the CPU time of
`explain` beside the explainer it replaced (`bench/einstein_explain_sweep.py`: candidate sets,
whole-grid sweeps, each assumption propagated from scratch), which is stopped after
`SWEEP_CAP` seconds. Where the baseline finishes, the two traces must be equal step for step.
Aim: the 8 x 10 explained and rated in a few seconds.
"""

from __future__ import annotations

import multiprocessing
import os

from bench.common import ROOT, fmt_seconds, measure, print_table
from logicpy.puzzles.einstein import Game, explain, load_game, solve

#: CPU seconds the baseline explainer may take on one game before it is stopped.
SWEEP_CAP = 60.0


def _games(big: bool) -> list[tuple[str, Game]]:
    from bench.bench_einstein import PEERS, generated_game

    games = [("bake_sale", load_game(ROOT / "logicpy" / "data" / "examples" / "einstein" / "bake_sale.txt"))]
    if (PEERS / "valentine.json").exists():
        games.append(("valentine", load_game(PEERS / "valentine.json")))
    games += [(p.stem, load_game(p)) for p in sorted((ROOT / "bench" / "einstein_games").glob("generated_*.txt"))]
    games.append(("generated 8x8", generated_game()[0]))
    if big:
        games.append(("generated 12x10", generated_game(size=12, kinds=10)[0]))
    return games


def _sweep(game: Game, solution, out) -> None:
    import resource
    import time

    from bench.einstein_explain_sweep import explain_by_sweeps

    resource.setrlimit(resource.RLIMIT_CPU, (int(SWEEP_CAP), int(SWEEP_CAP) + 1))  # stopped by SIGXCPU
    start = time.process_time()
    steps = explain_by_sweeps(game, solution).steps
    out.send((time.process_time() - start, [(s.kind, s.text, s.pair, s.linked, s.clue) for s in steps]))


def _baseline(game: Game, solution) -> tuple[float | None, list | None]:
    """The baseline's CPU seconds and steps, or (None, None) when it passes SWEEP_CAP CPU seconds."""
    receive, send = multiprocessing.Pipe(duplex=False)
    proc = multiprocessing.Process(target=_sweep, args=(game, solution, send), daemon=True)
    proc.start()
    while proc.is_alive() and not receive.poll(0.5):
        pass
    result = receive.recv() if receive.poll() else (None, None)
    proc.join()
    return result


def main() -> None:
    from logicpy.puzzles.einstein.generate import difficulty_of

    rows = []
    for name, game in _games(os.environ.get("LOGICPY_BENCH_EXPLAIN_BIG") == "1"):
        (solution,) = solve(game).solutions
        m = measure(lambda: explain(game, solution), repeat=1, trace_memory=False)
        steps = m.result.steps
        level, measures = difficulty_of(game, solution)
        seconds, base_steps = _baseline(game, solution)
        same = "—" if base_steps is None else (
            "same" if base_steps == [(s.kind, s.text, s.pair, s.linked, s.clue) for s in steps] else "DIFFERENT")
        rows.append([
            name, f"{game.size} x {len(game.kinds)}", str(len(game.clues)), str(len(steps)),
            f"{measures['failed_assumptions']} / {measures['guesses']}", level, fmt_seconds(m.seconds),
            fmt_seconds(seconds) if seconds is not None else f"> {SWEEP_CAP:.0f} s (stopped)", same,
        ])
    print_table(
        "Einstein --explain and difficulty rating, CPU (agenda explainer vs the whole-grid sweeps it replaced)",
        ["game", "rows x kinds", "clues", "steps", "failed assumptions / guesses", "difficulty", "explain",
         "sweeps (before)", "trace"],
        rows,
    )


if __name__ == "__main__":
    main()
