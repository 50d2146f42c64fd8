"""The one reader of users' files (`logicpy.inputs`) and the one numeric option type (`cli_contract.number`)."""

from __future__ import annotations

import argparse
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logicpy import inputs
from logicpy.cli import main
from logicpy.cli_contract import LARGEST, number
from logicpy.errors import InputError


@pytest.fixture
def write(tmp_path):
    def make(data, name="f.json"):
        path = tmp_path / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path
    return make


@pytest.mark.parametrize("data, message", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested 100,000 deep; input is read up to 500 levels deep"),
    ('{"a": ' * 600 + "1" + "}" * 600, "JSON nested 600 deep"),
    ("1" * 10_000, "a JSON number of 10,000 characters; numbers are read up to 1,000 digits"),
    ("[0." + "5" * 2000 + "]", "a JSON number of 2,002 characters"),
    ("[NaN]", "NaN is not a JSON number"),
    ("[-Infinity]", "-Infinity is not a JSON number"),
    (bytes(range(256)), "is a binary file (a NUL byte at offset 0), not text"),
    ('{"a": "caf\u00e9"}'.encode("latin-1"), "is not UTF-8 text (byte 0xe9 at offset 10)"),
    (b"\xef\xbb\xbf", "is empty"),
    ("", "is empty"),
    (" \n\t", "is empty"),
    ("{", "1:2: malformed JSON"),
])
def test_a_bad_json_file_is_one_error_naming_it(write, data, message):
    path = write(data)
    with pytest.raises(InputError) as info:
        inputs.read_json(path)
    assert str(info.value).startswith(f"{path}") and message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_directory_a_missing_file_and_a_file_past_the_limit(tmp_path):
    with pytest.raises(InputError, match="is a directory, not a file"):
        inputs.read_text(tmp_path)
    with pytest.raises(InputError, match="cannot read: No such file or directory"):
        inputs.read_text(tmp_path / "missing")
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(inputs.MAX_BYTES + 1)
    with pytest.raises(InputError, match=f"too large: {inputs.MAX_BYTES + 1:,} bytes; input files are read up to"):
        inputs.read_text(big)
    small = tmp_path / "small.txt"
    small.write_text("x" * 100)
    with pytest.raises(InputError, match="too large"):
        inputs.read_text(small, max_bytes=99)
    assert inputs.read_text(small, max_bytes=100) == "x" * 100


def test_good_files_read_as_they_are(write):
    value = {"a": [1, 2.5, None, True, "\u00e9", {"b": [[]]}], "n": 10**999}
    assert inputs.read_json(write(b"\xef\xbb\xbf" + json.dumps(value).encode())) == value
    deepest = inputs.read_json(write("[" * 500 + "]" * 500))
    for _ in range(499):
        (deepest,) = deepest
    assert deepest == []
    assert inputs.read_json(write('["[[[[", "\\"]]]"]')) == ["[[[[", '"]]]']  # brackets in strings do not count
    assert inputs.read_text(write("", "e.pl"), empty=True) == ""


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30))
def test_nesting_is_the_depth_of_the_value(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    text = json.dumps(value)
    assert inputs.nesting(text) == depth(value)
    assert inputs.parse_json(text) == value


@pytest.mark.parametrize("command", [["gods", "verify"], ["cheryl", "--dates-file"], ["calendar", "--verify"],
                                     ["prisoners", "--verify"], ["einstein"]])
def test_every_command_reads_json_through_the_one_reader(write, capsys, command):
    path = write("[" * 100_000 + "]" * 100_000)
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"logicpy: error: {path}: JSON nested 100,000 deep; input is read up to 500 levels deep\n"


@pytest.mark.parametrize("text, kind, value", [("5", int, 5), ("1_000", int, 1000), (" 7 ", int, 7),
                                               ("0.5", float, 0.5), ("0", float, 0.0), ("1e3", float, 1000.0)])
def test_a_number_in_range_is_read(text, kind, value):
    assert number(kind)(text) == value and type(number(kind)(text)) is kind


@pytest.mark.parametrize("text, kind, message", [
    ("nan", float, "expected a finite number, got 'nan'"),
    ("-inf", float, "expected a finite number"),
    ("1e999", float, "expected a finite number"),
    ("-1", int, "-1 is out of range: expected 0 to"),
    ("-0.5", float, "-0.5 is out of range"),
    ("nan", int, "expected an integer, got 'nan'"),
    ("1.5", int, "expected an integer"),
    ("9" * 23, int, "out of range"),
    ("9" * 10_000, int, "out of range"),
    (str(LARGEST + 1), int, "out of range"),
])
def test_nan_inf_negatives_and_huge_numbers_are_refused(text, kind, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message.replace("(", r"\(")):
        number(kind)(text)
    assert number(int, 2, 5)("5") == 5
    with pytest.raises(argparse.ArgumentTypeError, match="6 is out of range: expected 2 to 5"):
        number(int, 2, 5)("6")


@pytest.mark.parametrize("argv", [["prisoners", "--timeout", "nan"], ["gods", "--questions", "9" * 23],
                                  ["cheryl", "what-sum", "--anne", "-5"], ["crosscheck", "--timeout", "inf"],
                                  ["gods", "census", "--time-limit", "-1"], ["repl", "--limit", "1e9"]])
def test_every_command_refuses_such_numbers_before_any_work(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"argument {argv[-2]}:" in err and "Traceback" not in err
