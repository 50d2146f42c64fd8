"""The contract every `logicpy` command keeps: the exit table in its --help, --json anywhere on
the line, one JSON line in one envelope, errors as JSON on standard error, exit statuses
that match the JSON status. The commands are walked from the argparse tree, so a new one is
checked (and must be given a real run below) without a change here."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from logicpy.cli import build_parser, main
from logicpy.cli_contract import EXIT, EXIT_TABLE, STATUSES

ROOT = Path(__file__).resolve().parents[1]


def _gods_pl() -> str:
    """The shipped gods.pl, in the checkout's prolog/ or among the package's files."""
    import logicpy

    found = [ROOT / "prolog" / "gods.pl", *Path(logicpy.__file__).parent.rglob("gods.pl")]
    return str(next(p for p in found if p.is_file()))

#: Positional words that are subcommands of a command without being argparse subparsers.
WORD_ACTIONS = {("einstein",): ("convert", "generate")}


def _children(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for name, child in _children(parser).items():
        yield from _walk(child, path + (name,))


PARSERS = dict(_walk(build_parser()))
COMMANDS = sorted(PARSERS) + [path + (word,) for path, words in WORD_ACTIONS.items() for word in words]
RUNNABLE = sorted(p for p in COMMANDS if p)


def _name(path: tuple[str, ...]) -> str:
    return " ".join(path) or "logicpy"


def test_the_walk_sees_every_command():
    assert {"gods", "einstein", "cheryl", "calendar", "prisoners", "crosscheck", "repl", "demo"} <= {p[0] for p in RUNNABLE}
    assert {("gods", "verify"), ("cheryl", "muddy"), ("einstein", "convert")} <= set(RUNNABLE)


def test_exit_table_is_one_table():
    assert [EXIT[s] for s in STATUSES] == [0, 1, 2, 3, 4, 4]
    for status in STATUSES:
        assert f"  {EXIT[status]}  {status}" in EXIT_TABLE or status == "interrupted"


@pytest.mark.parametrize("path", COMMANDS, ids=_name)
def test_help_shows_the_exit_table_and_json(path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*path, "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert EXIT_TABLE in out and "--json" in out
    assert "seed's" not in out and "the seed" not in out


@pytest.mark.parametrize("where", ["first", "after the command", "last"])
@pytest.mark.parametrize("path", COMMANDS, ids=_name)
def test_bad_input_under_json_is_one_json_line_on_stderr(path, where, capsys):
    words = [*path, "--no-such-option"]
    argv = {"first": ["--json", *words], "after the command": [*path, "--json", "--no-such-option"],
            "last": [*words, "--json"]}[where]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    data = json.loads(err)
    assert data["status"] == "error" and data["exit"] == 2 and "--json" not in data["error"]
    assert data["command"] in (_name(path), _name(path[:1]))


def test_an_error_the_command_finds_is_json_too(capsys, tmp_path):
    code = main(["gods", "verify", "--json", str(tmp_path / "missing.json")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert json.loads(err) == {"status": "error", "command": "gods verify",
                               "error": f"{tmp_path / 'missing.json'}: cannot read: No such file or directory",
                               "exit": 2}
    code = main(["cheryl", "muddy", "-n", "63"])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("logicpy: error: --children") and err.count("\n") == 1


# -- a real run of every command under --json: one line, the envelope, the exit status -----

def _einstein_game(tmp_path: Path) -> str:
    game = tmp_path / "game.json"
    if not game.exists():
        assert main(["einstein", "generate", "--kinds", "3", "--things", "3", "--seed", "2", "-o", str(game)]) == 0
    return str(game)


def _saved(tmp_path: Path, name: str, argv: list[str]) -> str:
    """Run a command with --json and save its line: the file the verifiers read back."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main([*argv, "--json"]) == 0
    path = tmp_path / name
    path.write_text(buffer.getvalue())
    return str(path)


PL_APPEND = "app([], L, L).\napp([H|T], L, [H|R]) :- app(T, L, R).\n"

#: command -> (argv builder, expected status); --json is put at a different place in each.
RUNS = {
    ("demo",): (lambda t: ["demo", "--json"], "ok"),
    ("gods",): (lambda t: ["gods", "--json", "--questions", "2"], "none"),
    ("gods", "solve"): (lambda t: ["gods", "--json", "solve", "--complexity", "1"], "ok"),
    ("gods", "verify"): (lambda t: ["gods", "verify", "--json",
                                    _saved(t, "tree.json", ["gods", "--complexity", "1"])], "ok"),
    ("gods", "crosscheck"): (lambda t: ["gods", "crosscheck", "--json", _gods_pl(),
                                        "--questions", "2"], "ok"),
    ("gods", "census"): (lambda t: ["gods", "census", "--gods", "1", "--semantics", "free", "--max-questions", "1",
                                    "--max-complexity", "1", "--engine", "processes", "--workers", "1",
                                    "--store", str(t / "c.sqlite"), "--top", "1", "--json"], "ok"),
    ("einstein",): (lambda t: ["einstein", "--json", _einstein_game(t)], "ok"),
    ("einstein", "convert"): (lambda t: ["einstein", "convert", "--json", _einstein_game(t), str(t / "g.txt")], "ok"),
    ("einstein", "generate"): (lambda t: ["einstein", "generate", "--json", "--kinds", "2", "--things", "2",
                                          "--seed", "1"], "ok"),
    ("cheryl",): (lambda t: ["--json", "cheryl"], "ok"),
    ("cheryl", "sum-product"): (lambda t: ["cheryl", "sum-product", "--limit", "10", "--json"], "none"),
    ("cheryl", "sam-pat"): (lambda t: ["cheryl", "--json", "sam-pat", "--key", "1", "--top", "5"], "ok"),
    ("cheryl", "age"): (lambda t: ["cheryl", "age", "--json"], "ok"),
    ("cheryl", "children"): (lambda t: ["cheryl", "children", "--json"], "ok"),
    ("cheryl", "bus"): (lambda t: ["cheryl", "bus", "--json"], "ok"),
    ("cheryl", "pads"): (lambda t: ["cheryl", "pads", "--json"], "ok"),
    ("cheryl", "muddy"): (lambda t: ["cheryl", "muddy", "-n", "3", "--json", "-m", "2"], "ok"),
    ("cheryl", "what-sum"): (lambda t: ["cheryl", "what-sum", "--anne", "4", "--json"], "ok"),
    ("cheryl", "generate"): (lambda t: ["cheryl", "generate", "--seed", "3", "--json"], "ok"),
    ("cheryl", "russian-cards"): (lambda t: ["cheryl", "russian-cards", "--count", "--json"], "ok"),
    ("cheryl", "consecutive"): (lambda t: ["cheryl", "consecutive", "--json"], "ok"),
    ("cheryl", "dining"): (lambda t: ["cheryl", "dining", "--payer", "2", "--json"], "ok"),
    ("cheryl", "attack"): (lambda t: ["cheryl", "attack", "--messages", "3", "--json"], "none"),
    ("cheryl", "hats"): (lambda t: ["cheryl", "hats", "--json"], "ok"),
    ("cheryl", "distribution"): (lambda t: ["cheryl", "distribution", "--samples", "50", "--seed", "1",
                                            "--json"], "ok"),
    ("calendar",): (lambda t: ["calendar", "10", "--json", "6", "--first"], "ok"),
    ("prisoners",): (lambda t: ["prisoners", "--json", "--days", "7"], "none"),
    ("crosscheck",): (lambda t: ["crosscheck", (t / "app.pl").write_text(PL_APPEND) and str(t / "app.pl"),
                                 "--json", "app(X, Y, [1, 2])", "--against", "logicpy.core.lists:appendo"], "ok"),
    ("repl",): (lambda t: ["repl", "-q", "member(X, [1, 2])", "--json"], "ok"),
    ("files",): (lambda t: ["files", "--json", "lists"], "ok"),
}
NEEDS_SWI = {("gods", "crosscheck"), ("crosscheck",)}


def test_every_command_has_a_real_run():
    assert sorted(RUNS) == RUNNABLE


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.swi) if p in NEEDS_SWI else p
                                  for p in sorted(RUNS)], ids=_name)
def test_a_run_under_json_is_one_line_in_the_envelope(path, capsys, tmp_path):
    build, expected = RUNS[path]
    argv = build(tmp_path)
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    assert out.endswith("\n") and out.count("\n") == 1, out[:500]
    data = json.loads(out)
    assert list(data)[:2] == ["status", "command"]
    assert data["status"] == expected and code == EXIT[expected]
    assert data["command"] == _name(path)
    assert all(isinstance(k, str) and k.replace("_", "").isalnum() and k.islower() for k in _keys(data)), data.keys()


def _keys(data: object):
    """Every key of the envelope and of the objects in it, but not of the tables keyed by value
    (dates, counts, answer bindings by variable name)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            if key not in ("counts", "dates", "not_real", "bindings", "summary", "neighbours", "seconds"):
                yield from _keys(value)
    elif isinstance(data, list):
        for item in data:
            yield from _keys(item)


def test_exit_statuses_match_the_table(capsys, tmp_path):
    # 1: an exact "none"; 4: a time limit; the JSON status says the same
    assert main(["prisoners", "--days", "7"]) == 1
    assert main(["prisoners", "--people", "21", "--pairs", "row", "--timeout", "0.2", "--json",
                 "--fix", "2:1-4-7/2-5-8/3-6-10/9-13-16/11-14-19/12-17-20/15-18-21"]) == 4
    assert json.loads(capsys.readouterr().out)["status"] == "timeout"
    tree = _saved(tmp_path, "tree.json", ["gods", "--complexity", "1"])
    data = json.loads(Path(tree).read_text())
    data["trees"][0]["ja"], data["trees"][0]["da"] = data["trees"][0]["da"], data["trees"][0]["ja"]
    Path(tree).write_text(json.dumps(data))
    assert main(["gods", "verify", tree, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "none"


def test_results_read_back_with_the_envelope(capsys, tmp_path):
    saved = _saved(tmp_path, "arrangement.json", ["prisoners"])
    assert main(["prisoners", "--verify", saved, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["problems"] == []
    saved = _saved(tmp_path, "calendar.json", ["calendar", "1", "25"])
    assert main(["calendar", "--verify", saved]) == 0
    assert "verified: 216 solutions" in capsys.readouterr().out
    saved = _saved(tmp_path, "dates.json", ["cheryl", "generate", "--seed", "3"])
    assert main(["cheryl", "--dates-file", saved, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 1


def test_prisoners_counts_have_stable_keys(capsys):
    small = ["prisoners", "--people", "6", "--row", "3", "--days", "2"]
    assert main([*small, "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data["design"], dict) and data["completions"] is None and data["arrangements"] > 0
    assert main([*small, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["design"].keys() == data["design"].keys()


def test_a_bad_query_under_json_is_a_json_error_line_and_a_record(capsys):
    code = main(["repl", "--json", "-q", "member(X, [1])", "-q", "foo("])
    out, err = capsys.readouterr()
    ok, bad = map(json.loads, out.splitlines())
    assert code == 2 and ok["status"] == "ok" and bad["status"] == "error"
    assert json.loads(err) == {"status": "error", "command": "repl", "error": bad["error"], "exit": 2}


def test_ctrl_c_is_exit_4_interrupted(capsys, monkeypatch):
    import logicpy.puzzles.calendar.cli as calendar_cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(calendar_cli, "run", interrupted)
    assert main(["calendar", "10", "6"]) == 4
    assert capsys.readouterr().err == "logicpy: interrupted\n"
    assert main(["calendar", "10", "6", "--json"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and json.loads(err) == {"status": "interrupted", "command": "calendar", "error": "interrupted",
                                             "exit": 4}
