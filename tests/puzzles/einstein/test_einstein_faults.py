"""Regression tests for the faults of issue 14 (each named in its test), run as a user would."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from logicpy.cli import main
from logicpy.core import eq, run, var
from logicpy.core import conj
from logicpy.core.fd import domo, labelo
from logicpy.puzzles.einstein import Game, Kind, load_game, parse_json, parse_text, render_grid, solve
from logicpy.puzzles.einstein.compile import FDModel

ROOT = Path(__file__).resolve().parents[3]
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
needs_peers = pytest.mark.skipif(not PEERS.exists(), reason="../shared/peers/einstein-solver is not present")

SMALL = "kind Person: Al, Bo, Cy\nkind Floor: 1, 2, 3\nkind Pet: cat, dog, eel\n"


def game_text(*clues: str, kinds: str = SMALL) -> str:
    return kinds + "".join(f"{c}\n" for c in clues)


# -- large numeric names -------------------------------------------------------------------


@needs_peers
def test_iso_dates_solve_like_the_short_dates():
    text = (PEERS / "time_to_quit.json").read_text()
    data = json.loads(text)
    days = data["kinds"][[k["name"] for k in data["kinds"]].index("Last Day")]["things"]
    long = text
    for day in days:
        long = long.replace(f'"{day}', f'"2024-{day}')
    short, dated = solve(parse_json(text)), solve(parse_json(long))
    assert short.status == dated.status == "unique"
    assert [[c.removeprefix("2024-") for c in row] for row in dated.solutions[0]] == [list(r) for r in short.solutions[0]]


@pytest.mark.parametrize("big", [1_000_000_000, 10**12, 10**40])
def test_huge_values_are_ranked_so_domains_stay_small(big):
    kinds = f"kind Person: Al, Bo, Cy\nkind Id: {big + 1}, {big + 2}, {big + 3}\nkind Pet: cat, dog, eel\n"
    game = parse_text(game_text("Al::Id < Bo::Id < Cy::Id", "cat::Id - Al::Id = 2", "dog link Bo", kinds=kinds))
    assert FDModel(game).domain("Id", "number") == [0, 1, 2]  # ranks, not the values
    (grid,) = solve(game).solutions
    assert grid == (("Al", str(big + 1), "eel"), ("Bo", str(big + 2), "dog"), ("Cy", str(big + 3), "cat"))


def test_core_domains_hold_values_of_any_size():
    """The core store keeps wide or far-apart values as intervals (issue 14): no refusal, no bitset over the span."""
    x = var()
    assert run(0, x, domo(x, [1, 10**12]), labelo([x])) == (1, 10**12)
    assert run(0, x, domo(x, range(10**12, 10**12 + 3)), domo(var(), [1]), labelo([x])) == (10**12, 10**12 + 1, 10**12 + 2)
    assert run(0, x, domo(x, range(1, 4)), eq(x, 10**12)) == ()  # a binding outside is just a failure


# -- many goals, deep nesting, huge numbers ---------------------------------------------------


def test_ten_thousand_goals_conjoin_without_recursion():
    x = var()
    assert run(0, x, conj(eq(x, 1), *[eq(x, 1)] * 10_000)) == (1,)
    assert run(0, x, conj([eq(x, 1), eq(x, 2)])) == ()


def test_one_link_clue_repeated_1000_times():
    game = parse_text(game_text(*["Al link dog"] * 1000))
    result = solve(game)
    assert result.count == 12 and all(row[2] == "dog" for grid in result.solutions for row in grid if row[0] == "Al")


def nested_json(depth: int) -> str:
    rule = {"func": "link", "args": ["Al", "cat"]}
    text = '{"func": "not", "args": [{"func": "not", "args": [' * depth + json.dumps(rule) + "]}]}" * depth
    return ('{"kinds": [{"name": "Person", "things": ["Al", "Bo"]}, {"name": "Pet", "things": ["cat", "dog"]}],'
            ' "clues": [[' + text + "]]}")


@pytest.mark.parametrize("depth", [248, 50_000])
def test_deep_nesting_is_a_clear_error(tmp_path, capsys, depth):
    path = tmp_path / "deep.json"
    path.write_text(nested_json(depth))
    assert main(["einstein", str(path)]) == 2
    assert main(["einstein", "convert", str(path), str(tmp_path / "deep.txt")]) == 2
    err = capsys.readouterr().err
    assert re.search(r"nesting too deep \(limit 100\)|levels deep", err) and "Traceback" not in err
    text = tmp_path / "deep.txt"
    text.write_text("kind Person: Al, Bo\nkind Pet: cat, dog\n" + "not(" * 495 + "Al link cat" + ")" * 495 + "\n")
    assert main(["einstein", str(text)]) == 2
    assert f"{text}:3: clue 1: nesting too deep (limit 100)" in capsys.readouterr().err


def test_nesting_at_the_limit_still_loads():
    assert solve(parse_json(nested_json(49))).count == 1  # 98 levels of `not`


def test_huge_numbers_are_one_line_errors(tmp_path, capsys):
    name = "9" * 5000
    path = tmp_path / "big.txt"
    path.write_text(game_text("Al::Floor < Bo::Floor", kinds=f"kind Person: Al, Bo\nkind Floor: 1, {name}\n"))
    assert main(["einstein", str(path)]) == 2
    err = capsys.readouterr().err
    assert "has 5000 digits (limit 4300)" in err and err.count("\n") == 1
    path = tmp_path / "big.json"
    path.write_text('{"kinds": [{"name": "K", "things": ["a"]}], "clues": [[{"func": "+", "args": [' + name + "]}]]}")
    assert main(["einstein", str(path)]) == 2
    err = capsys.readouterr().err
    assert "a JSON number of 5,000 characters; numbers are read up to 1,000 digits" in err and err.count("\n") == 1


# -- enumeration caps, counting, progress ---------------------------------------------------


CLUELESS_4x6 = "".join(f"kind K{k}: " + ", ".join(f"t{k}{i}" for i in range(4)) + "\n" for k in range(6))


def test_clueless_grid_stops_at_max(tmp_path, capsys):
    path = tmp_path / "open.txt"
    path.write_text(CLUELESS_4x6)  # (4!)^5 = 7,962,624 solutions
    assert main(["einstein", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("at least 1,000 solutions; first 10 shown\n")
    assert "solution 10 of 1,000+" in out and "solution 11 " not in out
    assert main(["einstein", str(path), "--max", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [result] = data["results"]
    assert data["status"] == "ok" and (result["outcome"], result["count"], result["complete"]) == ("ambiguous(5+)", 5, False)


def test_count_counts_every_solution_and_reports_progress(tmp_path, capsys, monkeypatch):
    path = tmp_path / "three.txt"
    path.write_text(SMALL)  # (3!)^2 = 36 solutions
    assert main(["einstein", str(path), "--count"]) == 0
    assert capsys.readouterr().out == "36 solutions\n"
    monkeypatch.setattr(sys.modules["logicpy.puzzles.einstein.solve"], "PROGRESS_EVERY", 10)
    seen: list[int] = []
    from logicpy.puzzles.einstein.solve import count

    assert count(parse_text(game_text("Al !link cat", "Bo::Floor >= 1")), progress=seen.append) == 24
    assert seen == [10, 20]


# -- too big, or too long: refused at once, or stopped at --timeout -------------------------------

OPEN = "".join(f"kind {k}: {', '.join(f'{k}{i}' for i in range(1, 9))}\n" for k in ("A", "B", "C", "D"))


def test_count_of_a_clueless_open_grid_is_exact_and_immediate(tmp_path, capsys):
    """A kind no clue mentions is counted as n! orders, not searched: (8!)^3 at once."""
    path = tmp_path / "open.txt"
    path.write_text(OPEN)
    assert main(["einstein", str(path), "--count", "--timeout", "10"]) == 0
    assert capsys.readouterr().out == f"{40320 ** 3:,} solutions\n"
    from logicpy.puzzles.einstein import count

    small = parse_text(game_text("Al link cat"))
    assert count(small) == 12 == sum(1 for _ in solve(small).solutions)  # Floor free: 2 × 3!


def test_count_and_max_on_an_open_grid_stop_cleanly_at_the_timeout(tmp_path, capsys):
    path = tmp_path / "open.txt"
    # one clue over every thing of B, C and D: the count cannot split the grid into parts
    path.write_text(OPEN + "1. " + "; ".join(f"B{i} !link C{i}; C{i} !link D{i}; B{i} !link D{i % 8 + 1}"
                                            for i in range(1, 9)) + "\n")
    assert main(["einstein", str(path), "--count", "--timeout", "1.5"]) == 4
    err = capsys.readouterr().err
    assert "gave up after 1.5 s: " in err and "solutions counted so far" in err and "Traceback" not in err
    assert main(["einstein", str(path), "--max", "100000000", "--timeout", "1.5"]) == 4
    assert "gave up after 1.5 s" in capsys.readouterr().err
    assert main(["einstein", str(path), "--timeout", "nan"]) == 2


def test_solve_keeps_no_more_solutions_than_fit_in_memory(monkeypatch):
    from logicpy.puzzles.einstein import solve as solve_function
    from logicpy.puzzles.einstein.solve import grid_bytes

    module = sys.modules["logicpy.puzzles.einstein.solve"]
    game = parse_text(SMALL)
    monkeypatch.setattr(module, "MAX_KEEP_BYTES", 5 * grid_bytes(game))
    result = solve_function(game, max_solutions=100_000_000)
    assert (result.count, result.complete) == (5, False)
    assert solve_function(parse_text(game_text("Al link cat", "Bo link dog", "Al::Floor < Bo::Floor"))).complete


def test_generating_an_easy_8_by_10_stops_at_the_timeout(capsys):
    assert main(["einstein", "generate", "--kinds", "10", "--things", "8", "--difficulty", "easy", "--seed", "1",
                 "--timeout", "2"]) == 4
    err = capsys.readouterr().err
    assert "gave up after 2 s: generating, seed 1" in err and "Traceback" not in err


def test_a_very_large_game_is_refused_at_once(tmp_path, capsys, monkeypatch):
    big = tmp_path / "huge.txt"
    things = lambda k, n: f"kind {k}: " + ", ".join(f"{k}{i}" for i in range(1, n + 1)) + "\n"
    big.write_text(things("P", 200_000) + things("Q", 200_000))
    assert main(["einstein", str(big)]) == 2
    assert capsys.readouterr().err.strip().endswith("200,000 things × 2 kinds is 200,000 cells to fill; the limit is 400")
    sums = tmp_path / "sums.txt"
    numbers = "kind N: " + ", ".join(str(i) for i in range(1, 101)) + "\n"
    sums.write_text(things("P", 100) + numbers + "1. P1::N + P2::N + P3::N = 17\n")
    assert main(["einstein", str(sums)]) == 2
    assert "clue 1: its arithmetic has 1,000,000 combinations of values to tabulate; the limit is 250,000" in \
        capsys.readouterr().err
    monkeypatch.setattr(sys.modules["logicpy.puzzles.einstein.files"], "MAX_BYTES", 100)
    assert main(["einstein", str(sums)]) == 2
    assert "bytes; the largest game file read is 100 bytes" in capsys.readouterr().err


# -- wording ---------------------------------------------------------------------------------


def test_no_solution_says_searched_not_solved(tmp_path, capsys):
    path = tmp_path / "none.txt"
    path.write_text(game_text("Al link cat", "Al link dog"))
    assert main(["einstein", str(path)]) == 1
    captured = capsys.readouterr()
    assert "searched in" in captured.err and "solved" not in captured.err
    assert captured.out.startswith("no solution")


def test_wide_characters_keep_the_columns_aligned():
    game = Game((Kind("人", ("張三", "Al")), Kind("Pet", ("猫", "dog"))), ())
    lines = render_grid(game, (("張三", "dog"), ("Al", "猫"))).splitlines()
    # each cell of the second column starts at display column 6 ("張三" is four columns wide)
    assert lines == ["人    Pet", "----  ---", "張三  dog", "Al    猫"]


# -- einstein-solver's lenient forms, utf-8-sig, many files ---------------------------------------


@pytest.mark.parametrize(
    "clue, solutions, warning",
    [
        ("1.", 36, "the clue has no rules, so it always holds"),
        ("and()", 36, "'and' of no rules always holds"),
        ("or()", 0, "'or' of no rules never holds"),
        ("link(Al)", 0, "'link' of one thing never holds"),
        ("same(Al)", 36, "'same' of one thing always holds"),
        ("Al::Pet same Bo::Floor", 0, "'same' across kinds never holds"),
        ("Al::Pet !same Bo::Floor", 36, "'!same' across kinds always holds"),
    ],
)
def test_peer_lenient_forms_load_with_a_warning(clue, solutions, warning):
    game = parse_text(game_text(clue))
    assert any(warning in w for w in game.warnings), game.warnings
    assert solve(game).count == solutions


def test_peer_lenient_json_forms(capsys, tmp_path):
    data = {"kinds": [{"name": "Person", "things": ["Al", "Bo"]}, {"name": "Pet", "things": ["cat", "dog"]}],
            "clues": [[], [{"func": "and", "args": []}], [{"func": "same", "args": ["Al"]}],
                      [{"func": "link", "args": ["Al", "cat"]}]]}
    path = tmp_path / "lenient.json"
    path.write_text(json.dumps(data))
    assert main(["einstein", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("logicpy: warning:") == 3 and "clue 1: the clue has no rules" in err


@pytest.mark.parametrize("name", ["zebra.json", "zebra.txt"])
def test_a_byte_order_mark_is_skipped(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / name).read_bytes())
    assert load_game(path) == load_game(EXAMPLES / name)


def test_a_bad_file_among_many_is_reported_and_the_rest_solved(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    files = [str(EXAMPLES / "zebra.json"), str(bad), str(EXAMPLES / "bake_sale.txt")]
    assert main(["einstein", *files]) == 2
    captured = capsys.readouterr()
    assert captured.out.count("unique solution") == 2 and "== " + files[2] in captured.out
    assert f"{bad}:1:2: malformed JSON" in captured.err
    assert main(["einstein", *files, "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "error" and [d["status"] for d in data["results"]] == ["ok", "error", "ok"]
    assert [d.get("outcome") for d in data["results"]] == ["unique", None, "unique"]


# -- start-up --------------------------------------------------------------------------------


def test_a_command_imports_only_its_own_module():
    probe = (
        "import sys; from logicpy.cli import main\n"
        "main(['einstein', sys.argv[1]])\n"
        "print(sorted(m for m in ('numpy', 'logicpy.puzzles.gods', 'logicpy.crosscheck', 'logicpy.demo'"
        ") if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(EXAMPLES / "zebra.txt")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    help_probe = "import sys; from logicpy.cli import main\ntry: main(['--help'])\nexcept SystemExit: pass\n" \
                 "print('logicpy.puzzles' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", help_probe], capture_output=True, text=True)
    assert "einstein" in done.stdout and "crosscheck" in done.stdout and done.stdout.splitlines()[-1] == "False"
