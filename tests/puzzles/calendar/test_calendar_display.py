"""A calendar `Result` in a REPL and a notebook: a one-line repr, the first tilings drawn."""

from logicpy.puzzles.calendar import STANDARD, solve


def test_a_result_is_one_line_and_draws_its_first_tilings():
    result = solve(STANDARD, ["Oct", "6"])
    assert repr(result) == "Result(open=Oct, 6: 7 solutions, 7 kept)"
    shown = result._repr_html_()
    assert shown.count("<svg") == result.SHOWN and "… and 1 more" in shown
    one = solve(STANDARD, ["Oct", "6"], limit=1)
    assert "more" not in one._repr_html_() and one._repr_html_().count("<svg") == 1
