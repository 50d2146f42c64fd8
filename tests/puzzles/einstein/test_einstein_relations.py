"""Einstein grids as relations: solutiono, rowo, togethero agree with solve and verify."""

import pytest

from logicpy.core import conde, eq, membero, run, var
from logicpy.errors import InputError
from logicpy.puzzles.einstein import load_game, solve
from logicpy.puzzles.einstein.relations import rowo, solutiono, togethero

NATIONS = ["Englishman", "Spaniard", "Japanese", "Ukrainian", "Norwegian"]


def test_the_zebra_owner_and_the_water_drinker():  # the published answer: the Japanese owns the zebra, the Norwegian drinks water
    who = var()
    assert run(0, who, togethero("zebra", who, "Zebra"), membero(who, NATIONS)) == ("Japanese",)
    assert run(0, who, membero(who, NATIONS), togethero("zebra", who, "Water")) == ("Norwegian",)


def test_solutiono_gives_the_solver_s_solutions_and_checks_a_given_grid():
    game = load_game("zebra")
    (only,) = solve(game).solutions
    g = var()
    assert run(0, g, solutiono(game, g)) == ([list(row) for row in only],)
    assert run(0, g, solutiono(game, [list(row) for row in only])) == (g,)  # a solution: succeeds, binds nothing
    broken = [list(row) for row in only]
    broken[0][5], broken[4][5] = broken[4][5], broken[0][5]  # swap two pets
    assert run(0, g, solutiono(game, broken)) == ()


def test_rowo_is_each_distinct_row_once_and_composes():
    rest = var()
    assert run(0, rest, rowo("zebra", ["3", *[var() for _ in range(4)], rest])) == ("Snails",)
    rows = run(0, rest, rowo("zebra", rest))
    assert len(rows) == 5 and len({tuple(r) for r in rows}) == 5
    assert run(0, rest, conde([eq(rest, "none")], [rowo("zebra", ["1", "Norwegian", rest, var(), var(), var()])])) \
        == ("none", "Yellow")


def test_a_game_that_is_not_one_is_refused():
    with pytest.raises(InputError, match="must be a Game"):
        togethero(3, var(), var())


def test_the_relations_load_in_the_toplevel():
    from logicpy.repl.goals import Relations

    assert sorted(Relations().load("logicpy.puzzles.einstein.relations")) == ["rowo", "solutiono", "togethero"]
