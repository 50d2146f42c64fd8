"""`tilingo(open, grid, puzzle)`: the calendar's tilings as a relation, in every direction.

Known answers: Oct 6 has 7 tilings on the A-Puzzle-A-Day board (the solver's count), each
one read back to ["Oct", "6"]; every answer is checked by the independent `verify`.
"""

from __future__ import annotations

import io

import pytest

from logicpy.core import conj, cons, membero, run, var
from logicpy.errors import InputError
from logicpy.puzzles.calendar import STANDARD, WEEKDAY, count, solve, verify
from logicpy.puzzles.calendar.relations import tilingo
from logicpy.repl import Toplevel, run_piped

OCT_6_FIRST = ["GGAAAAx", "GGA DDx", "GGDDD C", "HEEECCC", "HFFECBB", "HHFEBBB", "HFFxxxx"]


def test_open_labels_given_gives_every_tiling_the_solver_finds():
    g = var()
    grids = run(0, g, tilingo(["Oct", "6"], g))
    assert len(grids) == count(STANDARD, ("Oct", "6")) == 7
    assert sorted(grids) == sorted(t.grid() for t in solve(STANDARD, ("Oct", "6")).tilings)
    assert all(verify(STANDARD, grid, ("Oct", "6")).ok for grid in grids)


def test_a_grid_given_is_checked_and_its_open_labels_read_off():
    d = var()
    assert run(0, d, tilingo(d, OCT_6_FIRST)) == (["Oct", "6"],)
    assert len(run(0, d, tilingo(["Oct", "6"], OCT_6_FIRST))) == 1
    assert run(0, d, tilingo(["Oct", "7"], OCT_6_FIRST)) == ()


@pytest.mark.parametrize("broken", [
    ["GGAAAAx", "GGA DDx", "GGDDD C", "HEEECCC", "HFFECBB", "HHFEBBB", "HFFxxxB"],  # a letter off the board
    ["GGAAAAx", "GGA DDx", "GGDDD C", "HEEECCC", "HFFECBB", "HHFEBBB", "FHFxxxx"],  # two pieces bent
    ["GGAAAAx", "GGA DDx", "GGDDDCC", "HEEECC ", "HFFECBB", "HHFEBBB", "HFFxxxx"],  # C not its shape
    ["GGAAAAx", "GGA DDx", "GGDDD C"],                                              # too few rows
])
def test_a_grid_that_is_not_a_tiling_has_no_answer(broken):
    d = var()
    assert run(0, d, tilingo(d, broken)) == ()
    assert not verify(STANDARD, broken, ("Oct", "6")).ok  # the independent check agrees


def test_open_labels_not_in_reading_order_or_not_on_the_board_have_no_tiling():
    g = var()
    assert run(1, g, tilingo(["6", "Oct"], g)) == ()
    assert run(1, g, tilingo(["Oct", "Octember"], g)) == ()
    assert run(1, g, tilingo(["Oct"], g)) == ()


def test_nothing_given_enumerates_tilings_with_their_open_labels():
    d, g = var(), var()
    answers = run(20, (d, g), tilingo(d, g))
    assert len({tuple(grid) for _, grid in answers}) == 20
    assert all(verify(STANDARD, grid, labels).ok for labels, grid in answers)


def test_a_partial_list_of_open_labels_is_completed():
    rest, g = var(), var()
    answers = run(5, (rest, g), tilingo(cons("Oct", rest), g))
    assert len(answers) == 5
    assert all(verify(STANDARD, grid, ("Oct", *tail)).ok for tail, grid in answers)


def test_composes_with_goals_that_bind_the_date_first():
    d, g = var(), var()
    days = ["5", "6", "7"]
    found = run(0, (d, g), conj(membero(d, days), tilingo(["Oct", d], g)))
    assert sorted({day for day, _ in found}) == days
    for day in days:
        assert sum(1 for x, _ in found if x == day) == count(STANDARD, ("Oct", day))


def test_weekday_board_and_a_bad_puzzle():
    g = var()
    (grid,) = run(1, g, tilingo(["Apr", "8", "Thu"], g, WEEKDAY))
    assert verify(WEEKDAY, grid, ("Apr", "8", "Thu")).ok
    with pytest.raises(InputError, match="tilingo: the puzzle must be a calendar Puzzle"):
        tilingo(var(), var(), "nope")


def test_the_toplevel_loads_and_queries_it():
    out = io.StringIO()
    run_piped(Toplevel(out=out, err=io.StringIO()), io.StringIO(
        "use_module('logicpy.puzzles.calendar.relations').\n"
        f"tilingo(D, {OCT_6_FIRST!r}).\n"))
    assert "D = ['Oct', '6']." in out.getvalue().splitlines()
