"""The one reader of the files users give logicpy: text and JSON, with limits stated in the errors.

Every command reads its input files here (`read_text`, `read_json`; `parse_json` for JSON text
already in hand). Whatever a file holds, reading it either returns its value or raises one
`InputError` naming the file: missing, a directory, empty, binary, not UTF-8, larger than
`MAX_BYTES`, JSON nested deeper than `MAX_DEPTH` or holding a number longer than `MAX_DIGITS`
digits. A UTF-8 byte-order mark is skipped.
"""

from __future__ import annotations

import json
import os
import re
from itertools import accumulate
from pathlib import Path
from typing import Any

from .errors import InputError

__all__ = ["read_text", "read_json", "parse_json", "MAX_BYTES", "MAX_DEPTH", "MAX_DIGITS"]

#: The largest input file read, in bytes (64 MiB).
MAX_BYTES = 64 * 2**20

#: The deepest JSON nesting read (arrays and objects inside each other).
MAX_DEPTH = 500

#: The most digits a JSON number may have.
MAX_DIGITS = 1000

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def read_text(path: str | Path, max_bytes: int = MAX_BYTES, empty: bool = False) -> str:
    """The text of a user's file (UTF-8, a byte-order mark skipped); `InputError` naming the file
    when it cannot be read, is a directory, is empty (unless `empty`), is binary, is not UTF-8 or
    is larger than `max_bytes`."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            if not os.path.isfile(path):  # a FIFO or device: read no more than the limit
                data = f.read(max_bytes + 1)
            else:
                size = os.fstat(f.fileno()).st_size
                if size > max_bytes:
                    raise InputError(f"{name}: too large: {size:,} bytes; input files are read up to "
                                     f"{max_bytes:,} bytes")
                data = f.read(max_bytes + 1)
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise InputError(f"{name}: too large: more than {max_bytes:,} bytes; input files are read up to "
                         f"{max_bytes:,} bytes")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not empty and not data.strip():
        raise InputError(f"{name}: is empty")
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(f"{name}: is a binary file (a NUL byte at offset {nul:,}), not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start:,})") from None


def read_json(path: str | Path, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value in a user's file: `read_text`, then `parse_json` (errors name the file)."""
    return parse_json(read_text(path, max_bytes), str(path))


def parse_json(text: str, source: str = "<text>") -> Any:
    """The JSON value of `text`; `InputError` naming `source` (and line and column) when it is not
    JSON, nests deeper than `MAX_DEPTH`, has a number of more than `MAX_DIGITS` digits, or NaN/Infinity."""
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise InputError(f"{source}: JSON nested {depth:,} deep; input is read up to {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_integer(source), parse_float=_decimal(source),
                          parse_constant=_constant(source))
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: malformed JSON: {exc.msg}") from None
    except RecursionError:  # not reached within MAX_DEPTH; kept so no input can give a traceback
        raise InputError(f"{source}: JSON nested too deep to read") from None


def nesting(text: str) -> int:
    """How deep the brackets of JSON text nest, strings left out (an unclosed string ends the count)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets))))


def _digits(source: str, word: str) -> None:
    if len(word) > MAX_DIGITS:
        raise InputError(f"{source}: a JSON number of {len(word):,} characters; numbers are read up to "
                         f"{MAX_DIGITS:,} digits")


def _integer(source: str) -> Any:
    def read(word: str) -> int:
        _digits(source, word)
        return int(word)

    return read


def _decimal(source: str) -> Any:
    def read(word: str) -> float:
        _digits(source, word)
        return float(word)

    return read


def _constant(source: str) -> Any:
    def read(word: str) -> float:
        raise InputError(f"{source}: {word} is not a JSON number")

    return read
