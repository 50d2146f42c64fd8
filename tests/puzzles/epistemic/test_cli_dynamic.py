"""`logicpy cheryl` for the puzzles beyond public announcements, and the command's faults:
options that do not apply, lists cut in JSON, answers holding commas."""

from __future__ import annotations

import json

import pytest

from logicpy.cli import main


def run(capsys, *argv):
    code = main(["cheryl", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, code, expected", [
    (["russian-cards"], 0, "unique answer: Anne's hand is 012"),
    (["russian-cards", "--hands", "012 345"], 1, "Cath, told 5, would have known that Anne holds 0"),
    (["consecutive"], 0, "2 solutions: Anne 1, Bill 2; Anne 2, Bill 3"),
    (["dining", "--payer", "0"], 0, "unique answer: whether a cryptographer paid is no"),
    (["dining", "--payer", "3", "--coins", "110"], 0, "unique answer: whether a cryptographer paid is yes"),
    (["attack", "--messages", "5"], 1, "common knowledge: never, for every number of messages from 1 to 5"),
    (["hats"], 0, "unique answer: Bill's hat is red"),
])
def test_each_new_puzzle(capsys, argv, code, expected):
    got, out, _ = run(capsys, *argv, "--why")
    assert got == code and expected in out and "verified" in out


def test_russian_cards_counts_the_safe_announcements(capsys):
    code, out, _ = run(capsys, "russian-cards", "--count")
    assert code == 0 and "safe announcements: 5 hands: 60, 6 hands: 36, 7 hands: 6, in all: 102 (holding 012)" in out


def test_attack_shows_the_depth_of_mutual_knowledge(capsys):
    code, out, _ = run(capsys, "attack", "--messages", "3", "--json")
    data = json.loads(out)
    assert code == 1 and data["everybody_knows_when_all_arrived"] == [
        "1 message: 0 levels", "2 messages: 1 level", "3 messages: 2 levels"]


@pytest.mark.parametrize("argv, message", [
    (["--story", "eve", "sum-product"], "--story does not apply to `logicpy cheryl sum-product`"),
    (["--dates", "May 15, May 16", "muddy"], "--dates does not apply to `logicpy cheryl muddy`"),
    (["--story", "eve", "generate"], "--story does not apply to `logicpy cheryl generate`"),
    (["--why", "distribution"], "--why does not apply to `logicpy cheryl distribution`"),
    (["--reading", "split"], "--reading applies to --story-file only"),
    (["russian-cards", "--hands", "013 456"], "--hands must include 012"),
    (["dining", "--coins", "12"], "--coins must be three 0/1 digits"),
])
def test_options_that_do_not_apply_are_refused(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_json_says_when_it_lists_only_the_first_thousand(capsys):
    code, out, _ = run(capsys, "muddy", "-n", "11", "-m", "1", "--json")
    data = json.loads(out)
    first, last = data["steps"]
    assert first["left"] == 2047 and first["candidates_shown"] == 1000 and len(first["candidates"]) == 1000
    assert "candidates_shown" not in last and "solutions_shown" not in data


def test_answers_holding_commas_are_separated_by_semicolons(capsys):
    code, out, _ = run(capsys, "--dates", "May 15, May 16", "--story", "classic")
    assert code == 1
    from logicpy.puzzles.epistemic import THREE_CHILDREN, solve
    from logicpy.puzzles.epistemic.render import render_text
    from dataclasses import replace
    text = render_text(solve(replace(THREE_CHILDREN, statements=THREE_CHILDREN.statements[:1])))
    assert "2 solutions: 1, 6, 6; 2, 2, 9" in text and "left (2): 1, 6, 6; 2, 2, 9" in text
