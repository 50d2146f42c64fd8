"""Einstein logic-grid games: all solutions by logicpy's two engines, time and peak memory per game.

    python -m bench einstein

Each game is solved (every solution found, so a unique one is also proved unique) by
logicpy's default engine, the SAT solver (the game's CNF built in Python and solved by
CaDiCaL through python-sat), and by the FD search (propagation + dom/wdeg labelling); each
time is a whole `solve` call, building the model included, reading the file excluded.

Games: einstein-solver's three 4 x 5 games (both syntaxes read the same), the examples
here (classic zebra 6 x 5, bake sale 4 x 4), and an 8 x 8 grid generated from a fixed
seed, and the minimised games `logicpy einstein generate` made (bench/einstein_games/
generated_*.txt, rows x kinds: 6 x 6 twice (one rated hard), 5 x 8 rated hard, 7 x 9 and
8 x 10; grids over 40 cells are not rated). Beside them, OR-Tools CP-SAT on the same
model (`bench/einstein_cpsat.py`, when the `bench` extra is installed), and einstein-solver's
own world-enumerating solver when
EINSTEIN_SOLVER_DIR names a checkout (its `src/` is imported in a subprocess);
otherwise that column says how to enable it. Aim: each game < 20 ms and < 50 MB; 8 x 8 < 1 s; the minimised 6 x 6 and 8 x 10 < 0.15 s.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from bench.common import ROOT, fmt_bytes, fmt_seconds, measure, print_table
from logicpy.puzzles.einstein import Clue, Game, Kind, Relation, Symbol, load_game, solve, verify
from logicpy.puzzles.einstein.compile import solve_fd
from logicpy.puzzles.einstein.generate import CLUE_TYPES

#: the peer's games, in the shared folder beside the checkout (or beside its worktree folder)
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"


def generated_game(size: int = 8, kinds: int = 8, seed: int = 2025) -> tuple[Game, tuple]:
    """A size x kinds game with a hidden solution, clued until the FD search finds it unique.

    Clues are true statements about the hidden grid, drawn at random: links, non-links,
    and `<` / `adj` on the numeric kinds (every other kind is numbered).
    """
    rng = random.Random(seed)
    kind_list = []
    for k in range(kinds):
        letter = chr(ord("A") + k)
        names = [f"{letter}{i}" if k % 2 else f"{letter}-{chr(ord('a') + i)}" for i in range(1, size + 1)]
        kind_list.append(Kind(f"K{letter}", tuple(names)))
    first, *others = kind_list
    columns = [list(first.things)] + [rng.sample(k.things, size) for k in others]
    hidden = tuple(zip(*columns))
    numeric = [k for k in kind_list if k.name[-1] in "BDFH"]
    clues: list[Clue] = []
    while True:
        row_a, row_b = rng.sample(hidden, 2)
        roll = rng.random()
        if roll < 0.35:
            a, b = rng.sample(row_a, 2)
            rel = Relation("link", (Symbol(a), Symbol(b)))
        elif roll < 0.7:
            rel = Relation("link", (Symbol(rng.choice(row_a)), Symbol(rng.choice(row_b))), negated=True)
        else:
            kind = rng.choice(numeric)
            j = kind_list.index(kind)
            x, y = Symbol(rng.choice(row_a), (kind.name,)), Symbol(rng.choice(row_b), (kind.name,))
            ranks = sorted(kind.things, key=lambda t: int(t[1:]))
            gap = ranks.index(row_b[j]) - ranks.index(row_a[j])
            rel = Relation("adj<", (x, y)) if gap == 1 else Relation("<" if gap > 0 else ">", (x, y))
        clues.append(Clue(len(clues) + 1, (rel,)))
        game = Game(tuple(kind_list), tuple(clues), f"generated {size}x{kinds}")
        if len(clues) % 10 == 0 and len(solve_fd(game, limit=2)) == 1:
            return game, hidden


def _games() -> list[tuple[str, Game]]:
    games = []
    for name in ("time_to_quit", "valentine", "spring_blooms"):
        path = PEERS / f"{name}.json"
        if path.exists():
            games.append((name, load_game(path)))
    games += [(p.stem, load_game(p)) for p in sorted(EXAMPLES.glob("*.json"))]
    game, hidden = generated_game()
    assert verify(game, hidden)
    games.append(("generated 8x8", game))
    # minimised games from `logicpy einstein generate` (unique, no clue to spare): the hard set
    games += [(p.stem, load_game(p)) for p in sorted((ROOT / "bench" / "einstein_games").glob("generated_*.txt"))]
    return games


def _cpsat(game: Game) -> str:
    """OR-Tools CP-SAT's CPU time on the same model (two solves: find, then prove unique)."""
    try:
        from bench.einstein_cpsat import cpsat_count
    except ImportError:
        return "n/a (pip install ortools)"
    try:
        m = measure(lambda: cpsat_count(game, limit=2), repeat=3, trace_memory=False)
    except ImportError:
        return "n/a (pip install ortools)"
    return f"{fmt_seconds(m.seconds)} ({m.result}{'+' if m.result == 2 else ''} sol.)"


def _einstein_solver(path: Path | None) -> str:
    """einstein-solver's CPU time and solution count on a game file, or why there is none."""
    checkout = os.environ.get("EINSTEIN_SOLVER_DIR")
    if not checkout:
        return "n/a (set EINSTEIN_SOLVER_DIR)"
    if path is None:
        return "n/a (not an einstein-solver file)"
    script = (  # its progress bar package is replaced by a no-op when it is not installed
        "import sys, time, types; sys.path.insert(0, sys.argv[1])\n"
        "try:\n    import progressbar\nexcept ImportError:\n"
        "    sys.modules['progressbar'] = types.SimpleNamespace(progressbar=lambda it: it)\n"
        "from game import Game; from solve import find_solutions\n"
        "g = Game.parse_json(sys.argv[2]); t = time.process_time(); s = find_solutions(g)\n"
        "print(time.process_time() - t, len(s))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(Path(checkout) / "src"), str(path)],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:60]
    seconds, count = done.stdout.split()[-2:]
    return f"{fmt_seconds(float(seconds))} ({count} sol.)"


#: The minimised grids of the CP-SAT comparison: (things, kinds) sizes, seeds 1..GRID_SEEDS each.
GRID_SIZES = ((6, 6), (6, 8), (7, 7), (7, 9), (8, 8), (8, 10), (10, 10))
GRID_SEEDS = 5
GRID_DIR = ROOT / "bench" / "data" / "einstein_grids"


def make_grids() -> None:
    """Write the comparison's grids (`python -m bench.bench_einstein --make-grids`): each unique
    and minimised by the generator, from a fixed seed, kept as files so every run sees the same."""
    import importlib

    from logicpy.puzzles.einstein import save_game

    one = importlib.import_module("logicpy.puzzles.einstein.generate")._one
    GRID_DIR.mkdir(parents=True, exist_ok=True)
    for things, kinds in GRID_SIZES:
        for seed in range(1, GRID_SEEDS + 1):
            path = GRID_DIR / f"grid_{things}x{kinds}_seed{seed}.txt"
            if not path.exists():
                game, _ = one(kinds, things, seed, dict(CLUE_TYPES))
                save_game(game, path)
                print(f"wrote {path.name}: {len(game.clues)} clues", flush=True)


def main() -> None:
    rows = []
    for name, game in _games():
        sat = measure(lambda: solve(game, engine="sat"), repeat=3)
        fd = measure(lambda: solve(game, engine="fd"), repeat=3)
        assert sat.result.solutions == fd.result.solutions, name
        path = PEERS / f"{name}.json"
        rows.append([
            name,
            f"{game.size} x {len(game.kinds)}",
            str(len(game.clues)),
            sat.result.status,
            fmt_seconds(sat.seconds),
            fmt_seconds(fd.seconds),
            fmt_bytes(fd.peak_bytes),
            _cpsat(game),
            _einstein_solver(path if path.exists() else None),
        ])
    print_table(
        "Einstein games: all solutions, best of 3 CPU: logicpy's SAT engine (default) and FD search "
        "(peak heap: the FD search's Python heap)",
        ["game", "rows x kinds", "clues", "status", "SAT", "FD", "peak heap", "CP-SAT (1 worker)", "einstein-solver"],
        rows,
    )
    compare_grids()


def compare_grids() -> None:
    """logicpy beside CP-SAT on the kept minimised grids: per size, then the median and worst ratio."""
    import statistics

    try:
        from bench.einstein_cpsat import cpsat_count
        import ortools  # noqa: F401
    except ImportError:
        print("\nminimised grids: CP-SAT is not installed (pip install ortools), no comparison")
        return
    from logicpy.puzzles.einstein.solve import choose_engine

    default = choose_engine("auto")[0]
    paths = sorted(GRID_DIR.glob("grid_*.txt"))
    rows = []
    ratios: dict[str, list[float]] = {"sat": [], "fd": []}
    by_size: dict[str, list[float]] = {}
    for path in paths:
        game = load_game(path)
        ours = {engine: measure(lambda: solve(game, engine=engine), repeat=3, trace_memory=False)
                for engine in ("sat", "fd")}
        theirs = measure(lambda: cpsat_count(game, limit=2, presolve=False), repeat=3, trace_memory=False)
        assert theirs.result == 1, path.name
        for engine, m in ours.items():
            assert m.result.status == "unique", (path.name, engine)
            ratios[engine].append(m.seconds / theirs.seconds)
        by_size.setdefault(f"{game.size} x {len(game.kinds)}", []).append(ratios[default][-1])
        rows.append([path.stem, str(len(game.clues)), fmt_seconds(ours["sat"].seconds),
                     fmt_seconds(ours["fd"].seconds), fmt_seconds(theirs.seconds),
                     f"{ratios['sat'][-1]:.2f}x", f"{ratios['fd'][-1]:.2f}x"])
    print_table(
        f"Minimised generated grids (bench/data/einstein_grids/, {len(paths)} games): find and prove the unique "
        "solution, best of 3 CPU; CP-SAT with 1 worker and presolve off (OR-Tools 9.15's presolve wrongly "
        "answers INFEASIBLE on such encodings)",
        ["grid", "clues", "logicpy SAT", "logicpy FD", "CP-SAT", "SAT ratio", "FD ratio"], rows,
    )
    print(f"per size, logicpy's default engine ({default}) against CP-SAT:")
    for size, values in by_size.items():
        print(f"  {size}: median ratio {statistics.median(values):.2f}x, worst {max(values):.2f}x")
    for engine, values in ratios.items():
        mark = " (the default engine)" if engine == default else ""
        print(f"all {len(values)} grids, {engine}{mark}: median ratio {statistics.median(values):.2f}x, "
              f"worst {max(values):.2f}x (aim: median <= 1.5x, worst <= 3x)")


if __name__ == "__main__":
    make_grids() if sys.argv[1:] == ["--make-grids"] else main()
