"""Counting solutions: the splitting count agrees with a brute-force count read directly off
every grid, and still checks each clue on every grid it counts."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from logicpy.errors import LogicpyError
from logicpy.puzzles.einstein import Clue, Connective, Game, Kind, Relation, Symbol, count, load_game, parse_text
from logicpy.puzzles.einstein.semantics import holds
from logicpy.puzzles.einstein.solve import checked_grids
from tests.puzzles.einstein.brute import brute_force

ROOT = Path(__file__).resolve().parents[3]
COUNT_GAME = ROOT / "bench" / "data" / "einstein_grids" / "count_8x10_seed12.txt"


KINDS = (
    Kind("Person", ("Al", "Bo", "Cy", "Di")),
    Kind("Floor", ("1", "2", "3", "4")),
    Kind("Pet", ("ant", "bat", "cow", "dog")),
    Kind("Age", ("20", "30", "40", "50")),
)


def _random_rule(rng: random.Random, kinds: tuple[Kind, ...], depth: int = 0):
    if depth == 0 and rng.random() < 0.25:
        op = rng.choice(["or", "xor", "nand"])
        return Connective(op, (_random_rule(rng, kinds, 1), _random_rule(rng, kinds, 1)))
    things = [t for k in kinds for t in k.things]
    func = rng.choice(["link", "link", "same", "<", ">=", "adj", "adj<", "-"])
    if func == "link":
        a, b = rng.sample(things, 2)
        return Relation("link", (Symbol(a), Symbol(b)), rng.random() < 0.5)
    numeric = rng.choice([k.name for k in kinds[1:] if k.name != "Pet"])
    path = "Person" if func == "same" else numeric

    def symbol():
        base = rng.choice(things)
        kind = next(k.name for k in kinds if base in k.things)
        return Symbol(base) if kind == path else Symbol(base, (path,))

    literal = str(rng.choice([10, 20, 1, 2])) if func == "-" else None
    return Relation(func, (symbol(), symbol()), func in ("same", "<") and rng.random() < 0.3, literal)


@pytest.mark.parametrize("seed", range(30))
def test_count_agrees_with_brute_force_on_random_three_kind_games(seed):
    rng = random.Random(seed)
    kinds = KINDS[:3]
    game = Game(kinds, tuple(Clue(i, (_random_rule(rng, kinds),)) for i in range(1, rng.randint(2, 6))))
    expected = len(brute_force(game))
    assert count(game) == expected == count(game, "leftmost")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_count_agrees_with_brute_force_on_random_four_kind_games(seed):
    rng = random.Random(100 + seed)
    game = Game(KINDS, tuple(Clue(i, (_random_rule(rng, KINDS),)) for i in range(1, rng.randint(3, 8))))
    assert count(game) == len(brute_force(game))


def test_count_of_a_game_missing_two_clues_is_known():
    """The generated 8 × 10 (seed 12) without two of its clues: 13,752 solutions, the
    number the slow test finds by visiting each solution."""
    assert count(load_game(COUNT_GAME)) == 13_752


@pytest.mark.slow
def test_count_of_a_game_missing_two_clues_matches_every_solution_visited():
    game = load_game(COUNT_GAME)
    assert sum(1 for _ in checked_grids(game)) == count(game) == 13_752


def test_a_grid_that_splits_is_counted_by_parts():
    """B's order only avoids A1's row; C and D only keep C1 and D2 apart: 7·7! × (8!² − 8·7!²)."""
    kinds = "".join(f"kind {k}: {', '.join(f'{k}{i}' for i in range(1, 9))}\n" for k in "ABCD")
    game = parse_text(kinds + "1. A1 !link B1; C1 !link D2\n")
    assert count(game) == 7 * 5040 * (40320**2 - 8 * 5040**2) == 50_185_433_088_000


def test_every_counted_grid_has_its_clues_checked(monkeypatch):
    """A clue the direct reading refuses stops the count with an internal error: the count
    does read each clue (here on the grids where Bo keeps the cat)."""
    game = parse_text("""
    kind Person: Al, Bo, Cy
    kind Floor: 1, 2, 3
    kind Pet: ant, bat, cat
    1. Al !link ant
    2. Bo::Floor < Cy::Floor
    """)
    assert count(game) == 12 == len(brute_force(game))

    def refuses_cat(game, rule, view):
        return holds(game, rule, view) and not (isinstance(rule, Relation) and rule.func == "<"
                                                and view.partner("Bo", "Pet") == "cat")

    monkeypatch.setattr(sys.modules["logicpy.puzzles.einstein.solve"], "holds", refuses_cat)
    with pytest.raises(LogicpyError, match="internal error, FD solution fails: clue 2"):
        count(game)


def test_nested_connectives_are_solved_exactly():
    """A `nand` of two `xor`s compiles to disjunctions inside a disjunction: every grid the
    FD search gives passes its clues (checked_grids raises otherwise) and there are as many
    as brute force finds."""
    game = parse_text("""
kind P: Al, Bo, Cy
kind N: 1, 2, 3
kind A: ant, bat, cat
1. nand(xor(Al link ant, Bo link 1), xor(Cy link bat, Al link 2))
""")
    assert sum(1 for _ in checked_grids(game)) == len(brute_force(game)) == count(game) == 28


@pytest.mark.parametrize("seed", range(12))
def test_random_nested_connectives_are_solved_exactly(seed):
    rng = random.Random(500 + seed)
    kinds = KINDS[:3]

    def rule(depth):
        if depth < 2 and rng.random() < 0.7:
            return Connective(rng.choice(["or", "xor", "nand", "and"]), (rule(depth + 1), rule(depth + 1)))
        return _random_rule(rng, kinds, 1)

    game = Game(kinds, tuple(Clue(i, (rule(0),)) for i in range(1, 3)))
    assert sum(1 for _ in checked_grids(game)) == len(brute_force(game))
