"""What every `logicpy` command promises a script: one table of exit statuses, `--json` anywhere,
one JSON line per result in one envelope, errors as JSON on standard error under `--json`.

Every parser of the command is a `Parser`: it has `--json` (added when its command does not
define it) and shows `EXIT_TABLE` at the end of its `--help`; a usage error raises `UsageError`
for `logicpy.cli.main` to report. A result under `--json` is `emit(args, status, payload)`:
`{"status": ..., "command": ..., **payload}` on one line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, Callable, NoReturn

__all__ = ["EXIT", "STATUSES", "EXIT_TABLE", "Parser", "UsageError", "emit", "error_line", "exit_code",
           "json_requested", "print_lines", "number", "LARGEST"]

#: Each status a command can end with, and its exit status (130 after Ctrl-C, as shells report SIGINT).
EXIT: dict[str, int] = {"ok": 0, "none": 1, "error": 2, "undecided": 3, "timeout": 4, "interrupted": 130}

#: The statuses in the order of the table.
STATUSES = tuple(EXIT)

EXIT_TABLE = """\
exit status (the same for every logicpy command):
  0  ok           an answer was found, a check passed, both sides agree
  1  none         no answer exists (an exact result within the bounds given),
                  a check failed, or the two sides differ
  2  error        bad input or usage; the message names the culprit
  3  undecided    the answers cannot be compared, or some results are missing
  4  timeout      a time limit ran out: no answer either way
130  interrupted  Ctrl-C ended the command: no answer either way
with --json (accepted anywhere on the line): one JSON line on standard output,
{"status": STATUS, "command": "COMMAND", ...}; an error is one such line on
standard error: {"status": "error", "command": ..., "error": MESSAGE, "exit": 2}"""


class UsageError(Exception):
    """A command line argparse rejected; `logicpy.cli.main` prints it (or its JSON line)."""

    def __init__(self, message: str, prog: str, usage: str):
        super().__init__(message)
        self.prog = prog
        self.usage = usage


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, except that a description or epilog written over several lines
    keeps its lines (the exit table, examples)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


#: The largest number any numeric option takes (a bigger one is refused before any work starts).
LARGEST = 2**63 - 1


def number(kind: type = int, minimum: float = 0, maximum: float = LARGEST) -> Callable[[str], Any]:
    """An argparse `type` reading an int (`kind=int`) or a float (`kind=float`) from
    `minimum` to `maximum`; nan, inf, and a value out of range are refused naming the range.

    Every `Parser` reads `type=int` and `type=float` options with `number(int)` and
    `number(float)`: no option of a logicpy command takes a negative or an unbounded number."""

    def read(text: str) -> Any:
        try:
            return convert(text)
        except argparse.ArgumentTypeError as exc:
            _REFUSED.add(str(exc))
            raise

    def convert(text: str) -> Any:
        word = text.strip().replace("_", "")
        try:
            if kind is int:
                value: Any = int(word) if len(word) < 40 else int(word[0] + "9" * 39)  # out of range
            else:
                value = float(word)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"expected {what}, got {_cut(text)!r}") from None
        if math.isnan(value) or math.isinf(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{_cut(text)} is out of range: expected {minimum:,} to {maximum:,}")
        return value

    read.__name__ = kind.__name__
    return read


#: The messages `number` refused values with (so that `Parser.error` shows them without the usage).
_REFUSED: set[str] = set()


def _cut(text: str) -> str:
    """A command-line word as an error shows it: at most 40 characters."""
    return text if len(text) <= 40 else f"{text[:37]}..."


class Parser(argparse.ArgumentParser):
    """An `ArgumentParser` that keeps the contract: `--json`, the exit table, errors raised,
    numbers checked (`type=int` and `type=float` read by `number`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        epilog = kwargs.get("epilog")
        if not epilog or EXIT_TABLE not in epilog:
            kwargs["epilog"] = f"{epilog}\n\n{EXIT_TABLE}" if epilog else EXIT_TABLE
        super().__init__(*args, **kwargs)
        self.register("type", int, number(int))
        self.register("type", float, number(float))
        command = self.prog.split(" ", 1)[1] if " " in self.prog else self.prog
        self.set_defaults(command_name=command)

    def _ensure_json(self) -> None:
        """Add `--json` when the command did not (its value is read from the whole line anyway)."""
        if "--json" not in self._option_string_actions:
            self.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                              help="print the result as one JSON line (errors as JSON on standard error)")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._ensure_json()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._ensure_json()
        return super().format_help()

    def format_usage(self) -> str:
        self._ensure_json()
        return super().format_usage()

    def error(self, message: str) -> NoReturn:
        # A refused number is about its value, not the command's shape: one line, no usage.
        usage = "" if message.endswith(tuple(_REFUSED)) else self.format_usage()
        raise UsageError(message, self.prog, usage)


def json_requested(argv: list[str]) -> bool:
    """True iff `--json` is on the command line (before a `--`), wherever it stands."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    return "--json" in words


def exit_code(status: str) -> int:
    """The exit status of a result status."""
    return EXIT[status]


def emit(args: argparse.Namespace, status: str, payload: dict[str, Any] | None = None,
         err: bool = False) -> int:
    """Print a result as one JSON line in the envelope; return its exit status.

    `payload` may not use the envelope's own keys, `status` and `command`."""
    payload = payload or {}
    clash = {"status", "command"} & payload.keys()
    if clash:
        raise ValueError(f"payload keys {sorted(clash)} belong to the envelope")
    line = json.dumps({"status": status, "command": getattr(args, "command_name", "logicpy"), **payload},
                      ensure_ascii=False)
    print_lines([line], sys.stderr if err else sys.stdout)
    return EXIT[status]


def error_line(command: str, message: str, status: str = "error") -> str:
    """The JSON line of an error: status, command, message and exit status."""
    return json.dumps({"status": status, "command": command, "error": message, "exit": EXIT[status]},
                      ensure_ascii=False)


def print_lines(lines: list[str], out: Any = None) -> None:
    """Print `lines`; a reader that closed the pipe early (`| head`) is not an error, and the
    caller's exit status stands (a failure never turns into success under `pipefail`)."""
    out = sys.stdout if out is None else out
    try:
        for line in lines:
            print(line, file=out)
        out.flush()
    except BrokenPipeError:
        # Point the stream at /dev/null so the interpreter's final flush does not fail again.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, out.fileno())
        except (OSError, ValueError, AttributeError):
            pass
