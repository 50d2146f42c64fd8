"""Stories as TOML files: the shipped ones against the built-in stories, the two readings of
Denise's birthday (Singapore, 2015: 14 May 2002), and malformed files refused with file:line."""

from __future__ import annotations

import json

import pytest

from logicpy.cli import main
from logicpy.data import STORIES, shipped
from logicpy.errors import InputError
from logicpy.puzzles.epistemic import CLASSIC, SUM_PRODUCT, solve
from logicpy.puzzles.epistemic.dynamic import consecutive_numbers
from logicpy.puzzles.epistemic.storyfile import parse_story, read_story


def counts(story):
    return [step.count for step in solve(story).steps]


def test_shipped_stories_match_the_built_in_ones():
    assert {"cheryl.toml", "denise.toml", "sum-product.toml", "consecutive.toml", "muddy.toml"} <= set(shipped("stories"))
    cheryl = read_story("cheryl").stories["together"]
    assert [cheryl.show(s) for s in solve(cheryl).solutions] == ["July 16"] and counts(cheryl) == counts(CLASSIC)
    sum_product = read_story(str(STORIES / "sum-product.toml")).stories["together"]
    assert solve(sum_product).solutions == [(4, 13)] and counts(sum_product) == counts(SUM_PRODUCT)
    consecutive = read_story("consecutive").stories["together"]
    assert solve(consecutive).solutions == [(1, 2), (2, 3)] and counts(consecutive) == counts(consecutive_numbers())
    muddy = solve(read_story("muddy").stories["together"])
    assert muddy.count == 3 and sorted({sum(w) for w in muddy.solutions}) == [2]


def test_denise_has_no_solution_read_together_and_14_may_2002_split():
    told = read_story("denise")
    assert told.has_parts and told.default == "split"
    together, split = solve(told.stories["together"]), solve(told.stories["split"])
    assert together.status == "none" and [s.count for s in together.steps] == [15, 13, 12, 0, 0, 0]
    assert [split.story.show(s) for s in split.solutions] == ["14 May 2002"]
    assert len(split.steps) == 9 and split.steps[1].statement.sentence == "I know that Bernard does not know."


def test_the_cli_tells_both_readings_and_says_which(capsys):
    code = main(["cheryl", "--story-file", "denise"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.index("reading: split") < out.index("unique solution: 14 May 2002") < out.index("reading: together")
    assert "no solution: statement 4 (Albert)" in out
    code = main(["cheryl", "--story-file", "denise", "--reading", "together", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "none" and [r["reading"] for r in data["readings"]] == ["together"]


def test_when_a_statement_is_judged_is_shown():
    text = (STORIES / "sum-product.toml").read_text()
    story = parse_story(text.replace("ranges = { x = [2, 98], y = [3, 98] }", "ranges = { x = [2, 30], y = [3, 30] }"),
                        "sp.toml").stories["together"]
    assert story.statements[0].sentence.endswith("[judged at first, before any statement]")
    now = parse_story(text.replace('when = "at first"', 'when = "now"'), "sp.toml").stories["together"]
    assert now.statements[0].sentence == "I knew that you did not know the numbers."


GOOD = '''name = "t"
[worlds]
fields = ["x", "y"]
ranges = { x = [1, 4], y = [1, 4] }
where = "x < y"
[agents]
A = "x + y"
B = "x * y"
[[statements]]
speaker = "A"
says = "I don't know."
means = "not knows(A)"
'''


@pytest.mark.parametrize("change, message", [
    (("ranges = {", "ranges = {{"), "t.toml:4: not valid TOML"),
    (('where = "x < y"', 'where = "x < z"'), "t.toml:5: unknown name 'z'"),
    (('where = "x < y"', 'where = "__import__(1)"'), "t.toml:5: '__import__(1)' is not allowed"),
    (('B = "x * y"', 'B = "x ** "'), "t.toml:8: 'x ** ' is not an expression"),
    (('means = "not knows(A)"', 'means = "not knows(C)"'), "t.toml:12: 'C' is not an agent; the agents are A, B"),
    (('means = "not knows(A)"', 'means = "knows_whether(A)"'), "t.toml:12: knows_whether takes 2 arguments"),
    (('means = "not knows(A)"', 'means = "not knows(A)"\nwhen = "yesterday"'), "t.toml:13: when must be"),
    (('says = "I don\'t know."', 'said = "I don\'t know."'), "t.toml:11: unknown key 'said' in statement 1"),
    (('name = "t"', 'name = "t"\ncolour = 3'), "t.toml:2: unknown key 'colour'"),
    (('fields = ["x", "y"]', 'fields = ["x", "x"]'), "t.toml:3: fields must be distinct names"),
    (('ranges = { x = [1, 4], y = [1, 4] }', 'ranges = { x = [1, 4] }'), "t.toml:4: field 'y' needs a range"),
])
def test_malformed_files_name_the_file_and_line(change, message):
    with pytest.raises(InputError) as info:
        parse_story(GOOD.replace(*change), "t.toml")
    assert str(info.value).startswith(message), str(info.value)


def test_a_malformed_file_exits_2_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace('means = "not knows(A)"', 'means = "not knows(C)"'))
    assert main(["cheryl", "--story-file", str(path)]) == 2
    assert f"{path}:12: 'C' is not an agent" in capsys.readouterr().err
    assert main(["cheryl", "--story-file", str(tmp_path / "missing.toml")]) == 2
    assert main(["cheryl", "--story-file", "cheryl", "--story", "eve"]) == 2
    assert "--story does not apply with --story-file" in capsys.readouterr().err


def test_private_looks_in_a_file_match_the_built_in_hats():
    from logicpy.puzzles.epistemic.dynamic import HATS
    hats = read_story("hats").stories["together"]
    result = solve(hats)
    assert [hats.show(s) for s in result.solutions] == ["Anne red, Bill red, Cath white", "Anne white, Bill red, Cath white"]
    assert counts(hats) == counts(HATS) and result.story.statements[1].action.group == ("Anne",)
    with pytest.raises(InputError, match="t.toml:12: observes needs `to`"):
        parse_story(GOOD.replace('means = "not knows(A)"', 'observes = "x"'), "t.toml")
    with pytest.raises(InputError, match="t.toml:12: 'Z' is not an agent"):
        parse_story(GOOD.replace('means = "not knows(A)"', 'to = ["Z"]\nmeans = "not knows(A)"'), "t.toml")


def test_svg_of_a_story_file_needs_one_reading(tmp_path, capsys):
    chart = tmp_path / "chart.svg"
    assert main(["cheryl", "--story-file", "denise", "--svg", str(chart)]) == 2
    assert "--svg draws one reading" in capsys.readouterr().err and not chart.exists()
    assert main(["cheryl", "--story-file", "denise", "--reading", "split", "--svg", str(chart)]) == 0
    assert chart.read_text().startswith("<svg")


def test_an_unnoticed_private_announcement_in_a_file():
    coin = '''name = "coin"
[worlds]
fields = ["coin"]
values = { coin = ["H", "T"] }
[agents]
Anne = ""
Bill = ""
[[statements]]
speaker = "host"
says = "Anne is told the coin shows heads."
to = "Anne"
unnoticed = true
means = "coin == 'H'"
[[statements]]
speaker = "host"
says = "Anne knows it; Bill does not know whether she knows."
means = "knows(Anne, coin == 'H') and not knows_whether(Bill, knows_whether(Anne, coin == 'H'))"
'''
    result = solve(parse_story(coin, "coin.toml").stories["together"])
    assert [result.story.show(w) for w in result.solutions] == ["H (Anne told)"]
    assert solve(parse_story(coin.replace("unnoticed = true\n", ""), "coin.toml").stories["together"]).status == "none"
    with pytest.raises(InputError, match="coin.toml:11: unnoticed = true needs `to` and `means`"):
        parse_story(coin.replace('to = "Anne"\n', ""), "coin.toml")
