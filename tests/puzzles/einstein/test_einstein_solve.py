"""Solving logic-grid games: known answers, statuses, verification, and FD vs brute force."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from logicpy.errors import InputError
from logicpy.puzzles.einstein import (
    Clue,
    Connective,
    Game,
    Kind,
    Relation,
    Symbol,
    check,
    load_game,
    parse_text,
    solve,
    verify,
)
from tests.puzzles.einstein.brute import brute_force

ROOT = Path(__file__).resolve().parents[3]
#: the peer's games, in the shared folder beside the checkout (or beside its worktree folder)
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
EXPECTED = json.loads((PEERS / "expected_solutions.json").read_text())["games"] if PEERS.exists() else {}
PEER_GAMES = {  # expected-solutions key -> (modern file, legacy file)
    "time_to_quit": ("time_to_quit.json", "legacy-dash-syntax/timetoquit.json"),
    "valentine": ("valentine.json", "legacy-dash-syntax/valentine.json"),
    "spring_blooms": ("spring_blooms.json", "legacy-dash-syntax/springblooms.json"),
}
needs_peers = pytest.mark.skipif(not PEERS.exists(), reason="../shared/peers/einstein-solver is not present")


def grid(rows) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(r) for r in rows)


@needs_peers
@pytest.mark.parametrize("key", sorted(PEER_GAMES))
@pytest.mark.parametrize("syntax", [0, 1], ids=["modern", "legacy"])
def test_peer_game_gives_its_expected_solutions(key, syntax):
    game = load_game(PEERS / PEER_GAMES[key][syntax])
    result = solve(game)
    expected = EXPECTED[key]
    assert list(game.kind_names) == expected["kinds"]
    assert result.count == expected["solution_count"] == 1
    assert result.status == "unique"
    assert result.solutions == tuple(grid(s) for s in expected["solutions"])


@needs_peers
def test_valentine_musical_was_shown_in_theater_a():
    # NOTICE.md: "the Musical was shown in theater A"
    (solution,) = solve(load_game(PEERS / "valentine.json")).solutions
    assert ("A", "Musical") in {(row[2], row[3]) for row in solution}


ZEBRA_ANSWER = grid([
    ["1", "Norwegian", "Yellow", "Water", "Kools", "Fox"],
    ["2", "Ukrainian", "Blue", "Tea", "Chesterfield", "Horse"],
    ["3", "Englishman", "Red", "Milk", "Old Gold", "Snails"],
    ["4", "Spaniard", "Ivory", "Orange Juice", "Lucky Strike", "Dog"],
    ["5", "Japanese", "Green", "Coffee", "Parliament", "Zebra"],
])
BAKE_SALE_ANSWER = grid([  # the grid the game was written from
    ["Ada", "Muffins", "$4", "C"],
    ["Ben", "Scones", "$2", "A"],
    ["Cleo", "Brownies", "$5", "D"],
    ["Dev", "Cookies", "$3", "B"],
])


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_classic_zebra(suffix):
    (solution,) = solve(load_game(EXAMPLES / f"zebra{suffix}")).solutions
    assert solution == ZEBRA_ANSWER
    # the published answers: the Norwegian drinks water, the Japanese owns the zebra
    by_drink = {row[3]: row[1] for row in solution}
    by_pet = {row[5]: row[1] for row in solution}
    assert by_drink["Water"] == "Norwegian" and by_pet["Zebra"] == "Japanese"


@pytest.mark.parametrize("strategy", ["ff", "leftmost", "wdeg"])
def test_strategies_find_the_same_solutions(strategy):
    game = parse_text(SMALL + "1. Al::Floor < Bo::Floor\n")
    assert solve(game, strategy).solutions == solve(game).solutions and solve(game).count == 18  # 3 floor orders with Al below Bo, times 3! pets


def test_unknown_strategy_is_an_input_error():
    with pytest.raises(InputError, match="unknown strategy 'random'"):
        solve(parse_text(SMALL), "random")


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_bake_sale(suffix):
    assert solve(load_game(EXAMPLES / f"bake_sale{suffix}")).solutions == (BAKE_SALE_ANSWER,)


def test_every_example_is_in_both_formats_and_unique():
    stems = {p.stem for p in EXAMPLES.iterdir() if p.suffix in (".json", ".txt")}
    assert stems >= {"zebra", "bake_sale"}
    for stem in stems:
        a, b = load_game(EXAMPLES / f"{stem}.json"), load_game(EXAMPLES / f"{stem}.txt")
        assert a == b
        assert solve(a).status == "unique"


SMALL = """
kind Person: Al, Bo, Cy
kind Pet: cat, dog, eel
kind Floor: 1, 2, 3
"""


def test_no_solution_says_so():
    result = solve(parse_text(SMALL + "1. Al link cat; Al link dog\n"))
    assert result.status == "none" and result.solutions == () and result.verdict == "no solution"


def test_ambiguous_game_reports_count_and_differing_cells():
    result = solve(parse_text(SMALL + "1. Al link cat; Bo::Floor < Cy::Floor; Al link 1\n"))
    # Al is fixed (cat, floor 1); Bo/Cy take floors 2 < 3; Bo and Cy share dog and eel freely
    assert result.count == 2 and result.status == "ambiguous(2)"
    assert result.differing_cells == (("Bo", "Pet"), ("Cy", "Pet"))
    assert all(verify(result.game, s) for s in result.solutions)


def test_solutions_are_distinct_and_sorted():
    result = solve(parse_text(SMALL))
    assert result.count == 36  # (3!)^2 worlds, no clue
    assert len(set(result.solutions)) == 36 and list(result.solutions) == sorted(
        result.solutions, key=lambda g: [[k.things.index(t) for k, t in zip(result.game.kinds, r)] for r in g]
    )


def test_verify_rejects_corrupted_solutions():
    game = load_game(EXAMPLES / "zebra.json")
    assert verify(game, ZEBRA_ANSWER)
    swapped = list(map(list, ZEBRA_ANSWER))
    swapped[0][5], swapped[4][5] = swapped[4][5], swapped[0][5]  # fox <-> zebra
    assert not verify(game, grid(swapped))
    assert "clue 10 fails" in check(game, grid(swapped))
    duplicated = list(map(list, ZEBRA_ANSWER))
    duplicated[0][2] = "Blue"
    assert "column 'Colour'" in check(game, grid(duplicated))[0]
    assert check(game, ZEBRA_ANSWER[:4])[0].startswith("the grid must have 5 rows")


# -- the FD compiler agrees with the direct reading of the rules, on random games -------

RANDOM_GAME = Game(
    (
        Kind("Person", ("Al", "Bo", "Cy")),
        Kind("Floor", ("1", "2", "4")),
        Kind("Pet", ("ant", "Bat", "cow")),
    ),
    (),
)
FUNCS = ["link", "same", "<", ">", "<=", ">=", "<A", ">=A", "adj", "adj<", "adj>A", "+", "-", "*", "/"]


def _random_rule(rng: random.Random, depth: int = 0):
    if depth < 2 and rng.random() < 0.3:
        op = rng.choice(["and", "or", "xor", "nand", "nor", "not"])
        return Connective(op, tuple(_random_rule(rng, depth + 1) for _ in range(rng.randint(1, 3))))
    func = rng.choice(FUNCS)
    things = [t for k in RANDOM_GAME.kinds for t in k.things]
    kind = rng.choice(["Floor", "Pet"] if func in ("same", "adj>A") or func.endswith("A") else ["Floor"])
    if func in ("link",):
        args = tuple(Symbol(t) for t in rng.sample(things, rng.randint(2, 3)))
    else:
        def symbol():
            base = rng.choice(things)
            return Symbol(base) if base in RANDOM_GAME.kind(kind).things else Symbol(base, (kind,))
        args = tuple(symbol() for _ in range(rng.randint(2, 3)))
    literal = str(rng.choice([0, 1, 2, 3, 5, 6, 0.5])) if func in "+-*/" else None
    return Relation(func, args, rng.random() < 0.4, literal)


@pytest.mark.parametrize("seed", range(40))
def test_fd_agrees_with_brute_force_on_random_games(seed):
    rng = random.Random(seed)
    clues = tuple(Clue(i, (_random_rule(rng),)) for i in range(1, rng.randint(2, 4)))
    game = Game(RANDOM_GAME.kinds, clues)
    assert set(solve(game).solutions) == set(brute_force(game))


def test_a_disjunction_prunes_before_search():
    """`or` and `xor` clues are constructive disjunctions: a row every alternative narrows is
    narrowed to their union before any labelling (a `conde` of the alternatives left it open)."""
    from logicpy.core import conj, run
    from logicpy.puzzles.einstein.compile import compile_game

    game = parse_text("""
    kind Person: Ann, Ben, Cat, Dan
    kind Floor: 1, 2, 3, 4
    kind Pet: eel, fox, owl, yak
    1. or(Ann link eel, Ben link eel)
    2. xor(Cat link 1, Dan link 1)
    """)
    model, goals = compile_game(game)
    assert model.pivot.name == "Person"  # Ann..Dan are rows 1..4
    (answer,) = run(1, (model.rows["eel"], model.rows["1"]), conj(*model.definitions, *goals))
    eel, floor_1 = answer
    assert set(eel.domain) == {1, 2}
    assert set(floor_1.domain) == {3, 4}
    assert solve(game).count == 2 * 6 * 2 * 6  # eel's and floor 1's person, the rest free: each once


def test_minimised_hard_grids_are_unique_and_verified():
    """The benchmark's hard games (made by `logicpy einstein generate`, minimised): one
    solution each, checked clue by clue (the FD model's disjunctions, channels and aliases
    lose nothing)."""
    for path in sorted((ROOT / "bench" / "einstein_games").glob("generated_*.txt")):
        result = solve(load_game(path))
        assert result.status == "unique", path.name
        assert verify(result.game, result.solutions[0])


def test_an_ordering_chain_bounds_the_rows_of_its_middle():
    """Ann's age < Ben's < 40 fixes their ages (20, 30). Age's value list is channelled to
    the rows of its things, so the houses ruled out for 20 and 30 are ruled out for Ann and
    Ben before any search (with `elemento` alone, which never prunes its list, both stayed
    in 1..4)."""
    from logicpy.core import conj, run
    from logicpy.puzzles.einstein.compile import compile_game

    game = parse_text("""
    kind Person: Ann, Ben, Cat, Dan
    kind House: 1, 2, 3, 4
    kind Age: 20, 30, 40, 50
    1. Ann::Age < Ben::Age < 40::Age
    2. 20 !link 2; 20 !link 3; 30 !link 1
    3. Cat::House adj Dan::House
    """)
    model, goals = compile_game(game)
    assert model.pivot.name == "House"  # Age is a value list over the rows, not the rows
    (answer,) = run(1, (model.rows["Ann"], model.rows["Ben"]), conj(*model.definitions, *goals))
    ann, ben = answer
    assert set(ann.domain) == {1, 4}  # where 20 may be
    assert set(ben.domain) == {2, 3, 4}  # where 30 may be: the middle of the chain
