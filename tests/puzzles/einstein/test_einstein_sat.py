"""The SAT engine (the game's CNF solved by CaDiCaL) against the FD search and brute force:
the same solution sets on the stored grids, the peers' games and random games with nested
connectives; the same answers for none and several solutions; the fallback without python-sat."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest

from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.puzzles.einstein import Clue, Connective, Game, Kind, Relation, Symbol, load_game, parse_text, solve
from logicpy.puzzles.einstein import sat
from logicpy.puzzles.einstein.semantics import GridView, holds
from logicpy.puzzles.einstein.solve import checked_grids
from logicpy.puzzles.einstein.validate import validate
from tests.puzzles.einstein.brute import brute_force

ROOT = Path(__file__).resolve().parents[3]
GRIDS = ROOT / "bench" / "data" / "einstein_grids"
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
needs_peers = pytest.mark.skipif(not PEERS.exists(), reason="../shared/peers/einstein-solver is not present")
#: Grids the FD search takes over half a second to solve.
SLOW_FD = {"grid_10x10_seed2", "grid_10x10_seed3", "grid_10x10_seed4", "grid_8x10_seed2"}


def _both(game: Game, **kw) -> tuple:
    by_sat, by_fd = solve(game, engine="sat", **kw), solve(game, engine="fd", **kw)
    assert (by_sat.engine, by_fd.engine) == ("sat", "fd")
    return by_sat, by_fd


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=[pytest.mark.slow] if p.stem in SLOW_FD else [], id=p.stem)
    for p in sorted(GRIDS.glob("grid_*.txt"))
])
def test_stored_grids_have_the_same_unique_solution_by_both_engines(path):
    by_sat, by_fd = _both(load_game(path))
    assert by_sat.status == "unique" and by_sat.solutions == by_fd.solutions


def test_games_of_many_solutions_give_the_same_solutions_by_both_engines():
    game = load_game(GRIDS / "count_8x10_seed12.txt")
    game = Game(game.kinds, game.clues[:-1], game.name)  # 26,879 solutions without its last clue
    by_sat, by_fd = _both(game, max_solutions=50)
    assert by_sat.status == by_fd.status == "ambiguous(50+)"
    assert len(set(by_sat.solutions)) == 50  # not the same 50: each engine meets others first
    for name, dropped, n in (("grid_8x8_seed3", 2, 144), ("grid_7x7_seed2", 1, 124), ("grid_6x8_seed2", 2, 67)):
        game = load_game(GRIDS / f"{name}.txt")
        by_sat, by_fd = _both(Game(game.kinds, game.clues[:-dropped], game.name))
        assert by_sat.solutions == by_fd.solutions and by_sat.status == f"ambiguous({n})"


@needs_peers
@pytest.mark.parametrize("name", ["time_to_quit", "valentine", "spring_blooms"])
def test_peer_games_give_their_expected_solutions_by_both_engines(name):
    expected = json.loads((PEERS / "expected_solutions.json").read_text())["games"][name]["solutions"]
    by_sat, by_fd = _both(load_game(PEERS / f"{name}.json"))
    assert by_sat.solutions == by_fd.solutions == tuple(tuple(map(tuple, s)) for s in expected)


@pytest.mark.parametrize("name", ["zebra", "bake_sale"])
def test_shipped_examples_agree(name):
    by_sat, by_fd = _both(load_game(name))
    assert by_sat.solutions == by_fd.solutions and by_sat.status == "unique"


# -- random games with nested connectives, against brute force ----------------------------

KINDS = (
    Kind("Person", ("Al", "Bo", "Cy", "Di")),
    Kind("Floor", ("1", "2", "3", "4")),
    Kind("Pet", ("ant", "bat", "cow", "dog")),
    Kind("Age", ("20", "30", "45", "50")),
)
FUNCS = ["link", "link", "same", "<", ">=", "<A", ">=A", "adj", "adj<", "adj>A", "+", "-", "*", "/"]


def _relation(rng: random.Random, kinds: tuple[Kind, ...]) -> Relation:
    things = [t for k in kinds for t in k.things]
    func = rng.choice(FUNCS)
    arity = rng.choice([1, 2, 2, 2, 3])
    if func == "link":
        return Relation("link", tuple(Symbol(t) for t in rng.sample(things, arity)), rng.random() < 0.4)
    numeric = [k.name for k in kinds if all(t.isdigit() for t in k.things)]
    named = [k.name for k in kinds if k.name not in numeric]
    path = rng.choice(named if func in ("same", "<A", ">=A", "adj>A") else numeric)

    def symbol() -> Symbol:
        base = rng.choice(things)
        kind = next(k.name for k in kinds if base in k.things)
        return Symbol(base) if kind == path else Symbol(base, (path,))

    literal = str(rng.choice([1, 2, 3, 50, 70, 0.5])) if func in "+-*/" else None
    return Relation(func, tuple(symbol() for _ in range(arity)), rng.random() < 0.3, literal)


def _rule(rng: random.Random, kinds: tuple[Kind, ...], depth: int):
    if depth < 3 and rng.random() < 0.45:
        op = rng.choice(["and", "or", "xor", "nand", "nor", "not"])
        width = 1 if op == "not" else rng.choice([0, 2, 2, 3])
        return Connective(op, tuple(_rule(rng, kinds, depth + 1) for _ in range(width)))
    return _relation(rng, kinds)


def random_game(seed: int, kinds: tuple[Kind, ...] = KINDS[:3]) -> Game:
    """Random rules; for an even seed, only rules true of a hidden grid (so it has a solution)."""
    rng = random.Random(seed)
    if seed % 2:
        rules = [_rule(rng, kinds, 0) for _ in range(rng.randint(1, 6))]
    else:
        hidden = tuple(zip(kinds[0].things, *(rng.sample(k.things, len(k.things)) for k in kinds[1:])))
        view = GridView(Game(kinds, ()), hidden)
        rules, wanted = [], rng.randint(4, 14)
        while len(rules) < wanted:
            rule = _rule(rng, kinds, 0)
            if holds(Game(kinds, ()), rule, view):
                rules.append(rule)
    clues = tuple(Clue(i + 1, (rule,)) for i, rule in enumerate(rules))
    game = Game(kinds, clues, f"random {seed}")
    validate(game)  # a game the readers would accept
    return game


@pytest.mark.parametrize("seed", range(60))
def test_random_nested_games_match_brute_force(seed):
    game = random_game(seed, KINDS[:3] if seed % 3 else (KINDS[0], KINDS[1], KINDS[3]))
    expected = brute_force(game)
    by_sat, by_fd = _both(game)
    assert by_sat.solutions == by_fd.solutions and set(by_sat.solutions) == set(expected)
    assert by_sat.count == len(expected)


def test_the_random_games_cover_every_connective_and_relation():
    ops, funcs = set(), set()

    def visit(rule) -> None:
        if isinstance(rule, Connective):
            ops.add((rule.op, len(rule.args) > 0))
            for r in rule.args:
                visit(r)
        else:
            funcs.add(rule.func)

    for seed in range(60):
        for clue in random_game(seed).clues:
            for rule in clue.rules:
                visit(rule)
    assert {op for op, _ in ops} == {"and", "or", "xor", "nand", "nor", "not"}
    assert set(FUNCS) <= funcs
    assert any(not nonempty for _, nonempty in ops)  # some connective over no rules


def test_chains_of_three_and_arithmetic_of_three():
    text = ("kind Person: Al, Bo, Cy, Di\nkind Floor: 1, 2, 3, 4\nkind Pet: ant, bat, cow, dog\n"
            "1. Al::Floor < Bo::Floor < Cy::Floor\n2. ant::Floor + bat::Floor + cow::Floor = 8\n"
            "3. Al::Floor adj Di::Floor\n")
    game = parse_text(text)
    by_sat, by_fd = _both(game)
    assert by_sat.solutions == by_fd.solutions and set(by_sat.solutions) == set(brute_force(game))


# -- what the commands say ----------------------------------------------------------------

SMALL = "kind Person: Al, Bo, Cy\nkind Pet: cat, dog, eel\nkind Floor: 1, 2, 3\n"


@pytest.mark.parametrize("engine", ["sat", "fd"])
def test_no_solution_exits_1_by_either_engine(tmp_path, capsys, engine):
    path = tmp_path / "none.txt"
    path.write_text(SMALL + "1. Al link cat\n2. Al link dog\n")
    assert main(["einstein", str(path), "--engine", engine, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (result,) = out["results"]
    assert result["outcome"] == "none" and result["count"] == 0 and result["engine"] == engine


def test_several_solutions_are_reported_alike_by_both_engines(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(SMALL + "1. Al link cat\n2. Bo link 2\n3. Cy::Floor > Al::Floor\n")
    outputs = {}
    for engine in ("sat", "fd"):
        assert main(["einstein", str(path), "--engine", engine, "--json"]) == 0
        (result,) = json.loads(capsys.readouterr().out)["results"]
        assert result.pop("engine") == engine
        outputs[engine] = result
        assert main(["einstein", str(path), "--engine", engine]) == 0
        outputs[engine + " text"] = capsys.readouterr().out
    assert outputs["sat"] == outputs["fd"] and outputs["sat"]["outcome"] == "ambiguous(2)"
    assert outputs["sat text"] == outputs["fd text"] and "solution 2 of 2" in outputs["sat text"]


def test_the_engine_is_named_on_the_timing_line(tmp_path, capsys):
    assert main(["einstein", "zebra"]) == 0
    assert "(SAT solver)" in capsys.readouterr().err
    assert main(["einstein", "zebra", "--engine", "fd"]) == 0
    assert "(FD search)" in capsys.readouterr().err


def test_an_unknown_engine_is_an_input_error():
    with pytest.raises(InputError, match="unknown engine 'cp'"):
        solve(load_game("zebra"), engine="cp")


def test_without_python_sat_the_fd_search_answers_with_a_note(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)  # its import now fails
    assert not sat.available()
    result = solve(load_game("zebra"))
    assert result.engine == "fd" and "python-sat" in result.note and result.status == "unique"
    assert main(["einstein", "zebra", "--engine", "sat", "--json"]) == 0
    captured = capsys.readouterr()
    (data,) = json.loads(captured.out)["results"]
    assert data["engine"] == "fd" and "python-sat cannot be imported" in data["note"]
    assert main(["einstein", "zebra"]) == 0
    err = capsys.readouterr().err
    assert "(FD search)" in err and err.count("note: python-sat cannot be imported") == 1


def test_a_solve_in_small_slices_of_conflicts_reaches_the_same_answer(monkeypatch):
    monkeypatch.setattr(sat, "CONFLICT_BUDGET", 1)  # Python regains control after every conflict
    game = load_game(GRIDS / "grid_7x7_seed2.txt")
    assert solve(game, engine="sat").solutions == solve(game, engine="fd").solutions


def test_solutions_come_lazily_from_the_sat_engine():
    game = load_game(GRIDS / "count_8x10_seed12.txt")
    game = Game(game.kinds, game.clues[:-1], game.name)
    first = list(itertools.islice(checked_grids(game, engine="sat"), 3))
    assert len(set(first)) == 3


def test_a_large_arithmetic_table_is_refused_by_the_sat_encoder_too():
    numbers = "kind N: " + ", ".join(str(i) for i in range(1, 101)) + "\n"
    people = "kind P: " + ", ".join(f"P{i}" for i in range(1, 101)) + "\n"
    game = parse_text(people + numbers + "1. P1::N + P2::N + P3::N = 17\n")
    with pytest.raises(InputError, match="clue 1: its arithmetic has 1,000,000 combinations"):
        sat.Encoding(game)


def test_many_things_use_the_sequential_counter():
    things = lambda k, n: f"kind {k}: " + ", ".join(f"{k}{i}" for i in range(1, n + 1)) + "\n"
    n = sat.PAIRWISE_MAX + 2
    game = parse_text(things("P", n) + things("Q", n) + "".join(f"{i}. P{i} link Q{i + 1}\n" for i in range(1, n)))
    by_sat, by_fd = _both(game)
    assert by_sat.solutions == by_fd.solutions and by_sat.status == "unique"
    assert by_sat.solutions[0][-1] == (f"P{n}", "Q1")


@pytest.mark.parametrize("things,kinds,seed", [(5, 4, 1), (6, 5, 2), (4, 6, 3)])
def test_generation_makes_the_same_game_with_either_engine(monkeypatch, things, kinds, seed):
    """The generator's searches run on one incremental SAT solver, or on FD searches without
    python-sat; which grids they meet differs, the game they keep does not."""
    import importlib

    generate = importlib.import_module("logicpy.puzzles.einstein.generate")
    by_sat = generate._one(kinds, things, seed, dict(generate.CLUE_TYPES))
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)
    by_fd = generate._one(kinds, things, seed, dict(generate.CLUE_TYPES))
    assert by_sat == by_fd
    game, hidden = by_sat
    assert solve(game, engine="fd").solutions == (hidden,) and generate.is_minimal(game)


# The alarm may ring inside a garbage-collector callback, where Python drops the exception
# with a warning; it rings again until the block is left (`logicpy.alarm`), as this checks.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_timeout_stops_the_sat_engine(monkeypatch, capsys):
    monkeypatch.setattr(sat, "CONFLICT_BUDGET", 1)  # Python runs between conflicts
    path = GRIDS / "grid_10x10_seed2.txt"
    assert main(["einstein", str(path), "--engine", "sat", "--timeout", "0.05"]) == 4
    assert "gave up after 0.05 s" in capsys.readouterr().err
