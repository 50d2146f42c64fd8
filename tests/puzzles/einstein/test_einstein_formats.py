"""Reading, validating, converting and printing games: JSON (modern and legacy), text, CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from logicpy.errors import InputError
from logicpy.puzzles.einstein import (
    Clue,
    Game,
    Kind,
    Connective,
    Relation,
    Symbol,
    dump_json,
    dump_text,
    game_from_data,
    load_game,
    parse_json,
    parse_text,
    result_from_data,
    result_to_data,
    solve,
)
from logicpy.puzzles.einstein import cli

ROOT = Path(__file__).resolve().parents[3]
#: the peer's games, in the shared folder beside the checkout (or beside its worktree folder)
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
ALL_GAMES = sorted(EXAMPLES.glob("*.json")) + sorted(EXAMPLES.glob("*.txt")) + sorted(
    p for p in PEERS.rglob("*.json") if p.name != "expected_solutions.json"
)

KINDS = [
    {"name": "Person", "things": ["Al", "Bo", "Cy"]},
    {"name": "Pet", "things": ["cat", "dog", "eel"]},
    {"name": "Floor", "things": ["1", "2", "3"]},
]


def game_data(*clues) -> dict:
    return {"kinds": KINDS, "clues": [list(c) for c in clues]}


def rule(func, *args) -> dict:
    return {"func": func, "args": list(args)}


# -- JSON: both syntaxes ---------------------------------------------------------------


def test_modern_and_legacy_negation_read_the_same():
    modern = game_from_data(game_data([rule("!link", "Al", "cat"), rule("!", rule("link", "Bo", "dog"))]))
    legacy = game_from_data(game_data([rule("-link", "Al", "cat"), rule("-", rule("link", "Bo", "dog"))]))
    assert modern == legacy
    first, second = modern.clues[0].rules
    assert first == Relation("link", (Symbol("Al"), Symbol("cat")), negated=True)
    assert second == Connective("not", (Relation("link", (Symbol("Bo"), Symbol("dog"))),))


def test_minus_with_things_is_subtraction_and_literal_comes_first():
    game = game_from_data(game_data([rule("-", "1", "Al::Floor", "Bo::Floor")]))
    assert game.clues[0].rules[0] == Relation("-", (Symbol.parse("Al::Floor"), Symbol.parse("Bo::Floor")), False, "1")


def test_symbol_chains_resolve_through_rows():
    # Al::Pet::Floor is the floor of Al's pet, i.e. Al's floor
    chained = solve(game_from_data(game_data([rule("same", "Al::Pet::Floor", "3")], [rule("link", "Al", "cat")])))
    direct = solve(game_from_data(game_data([rule("same", "Al::Floor", "3")], [rule("link", "Al", "cat")])))
    assert chained.solutions == direct.solutions and chained.count == 4


@pytest.mark.parametrize("path", ALL_GAMES, ids=lambda p: p.name)
def test_round_trips_through_both_formats(path):
    game = load_game(path)
    assert parse_json(dump_json(game)) == game
    text = dump_text(game)
    assert parse_text(text) == game
    assert dump_text(parse_text(text)) == text


def test_convert_command_by_extension(tmp_path):
    out_json, back_txt = tmp_path / "zebra.json", tmp_path / "zebra.txt"
    assert run_cli("convert", str(EXAMPLES / "zebra.txt"), str(out_json)) == 0
    assert run_cli("convert", str(out_json), str(back_txt)) == 0
    assert load_game(back_txt) == load_game(EXAMPLES / "zebra.txt") == load_game(out_json)
    with pytest.raises(InputError, match=r"unknown game format '.yaml'"):
        run_cli("convert", str(out_json), str(tmp_path / "zebra.yaml"))


# -- validation: each error names its clue and argument --------------------------------


@pytest.mark.parametrize(
    "data, message",
    [
        ({"kinds": KINDS[:2] + [{"name": "Floor", "things": ["1", "2"]}], "clues": []},
         r"equal sizes: 'Person' has 3 things, 'Floor' has 2"),
        ({"kinds": KINDS[:2] + [{"name": "Floor", "things": ["1", "2", "cat"]}], "clues": []},
         r"thing 'cat' appears in kind 'Pet' and in kind 'Floor'"),
        (game_data([rule("link", "Al", "cat")], [rule("link", "Al", "Zed")]), r"clue 2, rule 1: unknown thing 'Zed'"),
        (game_data([rule("same", "Al::Colour", "cat")]), r"clue 1, rule 1: unknown kind 'Colour' in argument 'Al::Colour'"),
        (game_data([rule("link", "Al", "cat"), rule("likes", "Al", "cat")]), r"clue 1, rule 2: unknown function 'likes'"),
        (game_data([rule("<", "Al::Pet", "Bo::Pet")]),
         r"clue 1, rule 1: '<' compares numbers, but 'cat' \(kind 'Pet', from argument 'Al::Pet'\) has no digits"),
        (game_data([rule("adj", "Al::Floor", "Bo::Pet")]),
         r"clue 1, rule 1: 'adj' needs arguments of one kind, got 'Al::Floor' \(Floor\), 'Bo::Pet' \(Pet\)"),
        (game_data([rule("or", rule("link"))]), r"clue 1, rule 1 > or argument 1: 'link' needs at least one thing"),
        ({"kinds": KINDS[:2] + [{"name": "Floor", "things": ["1", "1", "3"]}], "clues": []},
         r"thing '1' appears twice in kind 'Floor'$"),
        (game_data([rule("+", "x", "Al::Floor")]), r"clue 1, rule 1: '\+' needs a number as first argument, got 'x'"),
        (game_data([{"func": "link"}]), r"clue 1, rule 1: a rule is an object with 'func' and a list 'args'"),
        ({"kinds": KINDS}, r"'clues' must be a list"),
        ({"kinds": KINDS[:2] + [{"name": "Floor:", "things": ["1", "2", "3"]}], "clues": []},
         r"kind name 'Floor:' must be non-empty, contain no '::' and not begin or end with ':'"),
    ],
)
def test_validation_names_the_culprit(data, message):
    with pytest.raises(InputError, match=message):
        game_from_data(data, source="g.json")


def test_malformed_json_names_file_and_line():
    with pytest.raises(InputError, match=r"^g\.json:3:\d+: malformed JSON"):
        parse_json('{"kinds": [],\n "clues": [\n ,]}', source="g.json")


@pytest.mark.parametrize(
    "line, message",
    [
        ("1. Al link", r"g\.txt:4: clue 1: expected a thing after 'link' at the end of the line"),
        ("2. Al link cat", r"g\.txt:4: clue numbers must count up from 1: expected 1\., got 2\."),
        ("1. Al link cat dog", r"unknown thing 'cat dog'"),
        ("1. Al link cat link dog", r"write link\(Al, cat, dog\) for more than two things"),
        ("1. Al::Floor + Bo::Floor", r"arithmetic is written 'A \+ B = N'"),
        ("1. Al < Bo > Cy", r"one rule uses one operator, got < and >"),
        ("1. Al cat", r"expected an operator such as 'link'"),
        ("1. or(Al link cat", r"expected '\)' at the end of the line"),
    ],
)
def test_text_errors_name_line_and_clue(line, message):
    text = "\n".join(f"kind {k['name']}: {', '.join(k['things'])}" for k in KINDS) + "\n" + line + "\n"
    with pytest.raises(InputError, match=message):
        parse_text(text, source="g.txt")


def test_text_notation_worked_example():
    game = parse_text(
        """
        # comments and blank lines are skipped
        kind Person: Al, Bo, Cy
        kind Pet: cat, dog, eel
        kind Floor: 1, 2, 3
        1. Al::Floor < Bo::Floor < Cy::Floor
        2. xor(Al link cat, Bo link cat); !link(cat, 3, eel)
        Al::Floor + Bo::Floor != 4; "eel" !same Al::Pet
        """
    )
    assert [c.number for c in game.clues] == [1, 2, 3]
    assert game.clues[1].rules[1] == Relation("link", (Symbol("cat"), Symbol("3"), Symbol("eel")), negated=True)
    # floors rise Al, Bo, Cy; floor 3 keeps neither cat nor eel; Al has no eel
    assert solve(game).solutions == ((("Al", "cat", "1"), ("Bo", "eel", "2"), ("Cy", "dog", "3")),)


def test_odd_names_are_quoted_and_read_back():
    data = {"kinds": [{"name": "Kind: odd", "things": ["A + B", "link", "x, y"]},
                      {"name": "N", "things": ["10:30", "2.", "#3"]}],
            "clues": [[rule("link", "A + B", "10:30"), rule("<", "link::N", "x, y::N")]]}
    game = game_from_data(data)
    assert parse_text(dump_text(game)) == game


# -- results and the command -----------------------------------------------------------


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["einstein", *argv])
    return args.func(args)


def test_json_result_reads_back_and_is_checked(capsys):
    game = load_game(EXAMPLES / "zebra.json")
    assert run_cli(str(EXAMPLES / "zebra.json"), "--json") == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1
    envelope = json.loads(line)
    [data] = envelope["results"]
    assert envelope["status"] == data["status"] == "ok" and data["outcome"] == "unique" and data["count"] == 1
    assert result_from_data(game, data) == solve(game)
    expected = {**result_to_data(solve(game)), "file": str(EXAMPLES / "zebra.json"), "status": "ok"}
    expected["outcome"] = expected["status"] = "unique"
    data["status"] = data["outcome"]
    assert expected == data
    data["solutions"][0][0][5] = "Zebra"
    data["solutions"][0][4][5] = "Fox"
    with pytest.raises(InputError, match="result solution 1: clue 10 fails"):
        result_from_data(game, data)


def test_cli_json_for_several_games_is_one_list(capsys):
    assert run_cli(str(EXAMPLES / "zebra.json"), str(EXAMPLES / "bake_sale.txt"), "--json") == 0
    data = json.loads(capsys.readouterr().out)["results"]
    assert [d["game"] for d in data] == ["zebra", "bake_sale"] and all(d["outcome"] == "unique" for d in data)


def test_cli_prints_verdict_table_and_check(capsys):
    assert run_cli(str(EXAMPLES / "zebra.txt")) == 0
    out = capsys.readouterr().out
    assert out.startswith("unique solution\n")
    assert "5      Japanese     Green   Coffee        Parliament    Zebra" in out
    assert "verified: every clue checked directly on the solution" in out


def test_cli_exit_status_when_no_solution(tmp_path, capsys):
    path = tmp_path / "none.txt"
    path.write_text("kind A: x, y\nkind B: 1, 2\n1. x link 1; y link 1\n")
    assert run_cli(str(path)) == 1
    assert capsys.readouterr().out.startswith("no solution")


def test_cli_bad_file_is_one_input_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"kinds": [}')
    with pytest.raises(InputError, match=r"bad\.json:1:\d+: malformed JSON"):
        run_cli(str(path))


# -- property: any names survive the text notation ------------------------------------

NAME = st.text(alphabet='ab1 -+*/:,;()"#.!<=>A\\\t', min_size=1, max_size=8).filter(
    lambda n: "::" not in n and not n.startswith(":") and not n.endswith(":")
)


@settings(max_examples=150, deadline=None)
@given(st.lists(NAME, min_size=6, max_size=6, unique=True), NAME, NAME)
def test_any_names_round_trip_through_the_text_notation(names, kind_a, kind_b):
    if kind_a == kind_b:
        kind_b += "x"
    game = Game(
        (Kind(kind_a, tuple(names[:3])), Kind(kind_b, tuple(names[3:]))),
        (
            Clue(1, (Relation("link", (Symbol(names[0]), Symbol(names[4])), negated=True),)),
            Clue(2, (Connective("xor", (
                Relation("same", (Symbol(names[1], (kind_b,)), Symbol(names[5]))),
                Relation("link", tuple(Symbol(n) for n in names[:3]))),),)),
        ),
    )
    text = dump_text(game)
    assert parse_text(text) == game
