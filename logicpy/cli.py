"""The `logicpy` command: argparse front end over the façades; no puzzle logic lives here.

Each subcommand lives in its own module, which exposes `register(subparsers)`: it adds
its parser (named as its row in `SUBCOMMANDS`) and sets `func=handler` (handler(args) ->
exit code). Only the module of the command being run is imported, so start-up does not
pay for the others (`logicpy --help` imports none); a new subcommand is one row.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from typing import Any, Iterator

from .cli_contract import EXIT, Parser, UsageError, error_line, json_requested
from .errors import LogicpyError, NoSolution, PrologTimeout

#: Subcommand name -> (module that registers it, one-line help), in the order `--help` lists them.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("logicpy.demo", "the main job: solve the Hardest Logic Puzzle Ever, then a tour of the core"),
    "gods": ("logicpy.puzzles.gods.cli", "the Hardest Logic Puzzle Ever: solve, verify, cross-check, census"),
    "einstein": ("logicpy.puzzles.einstein.cli", "solve, explain and generate Einstein (zebra) logic-grid puzzles"),
    "cheryl": ("logicpy.puzzles.epistemic.cli", "who knows what: Cheryl's Birthday, Sum and Product, muddy children, ..."),
    "calendar": ("logicpy.puzzles.calendar.cli", "the calendar date puzzle: every tiling that shows a date"),
    "prisoners": ("logicpy.puzzles.prisoners.cli", "Dudeney's Nine Prisoners, Kirkman's schoolgirls and other designs"),
    "crosscheck": ("logicpy.crosscheck", "compare a logicpy relation with a Prolog predicate"),
    "repl": ("logicpy.repl", "a Prolog-like toplevel over logicpy's relations"),
    "files": ("logicpy.data", "list the Prolog programs and examples shipped with logicpy"),
}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; the command named in `argv` (if any) gets its full parser.

    Without `argv`, every subcommand's module is imported and registered (the full parser).
    """
    parser = Parser(
        prog="logicpy",
        description="Logic programming in Python: relational queries, SWI-Prolog interop, classic puzzles.",
    )
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    parser.add_argument("--version", action=_Version, nargs=0, help="show logicpy's version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = set(SUBCOMMANDS) if argv is None else {_command_of(argv)}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if name in chosen and _register(module_name, subparsers):
            continue
        # listed in --help without importing its module
        subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named in argv: its first word that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def _register(module_name: str, subparsers: argparse._SubParsersAction) -> bool:
    """Import a subcommand's module and let it register its parser; False if not built yet."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name and not module_name.startswith(str(exc.name) + "."):
            raise
        return False  # that part of logicpy is not built yet
    module.register(subparsers)
    return True


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `logicpy` console script; its exit status is one of `cli_contract.EXIT`
    (Ctrl-C at any point, even while a command is being loaded: 130 and one line)."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        return _main(argv)
    except KeyboardInterrupt:
        if "--debug" in argv:
            raise
        named = _command_of(argv)
        return _fail(named if named in SUBCOMMANDS else "logicpy", "interrupted", "interrupted",
                     json_requested(argv))


def _main(argv: list[str]) -> int:
    as_json = json_requested(argv)
    if as_json:  # read from the whole line, so it may stand anywhere, even between positionals
        cut = argv.index("--") if "--" in argv else len(argv)
        argv = [a for a in argv[:cut] if a != "--json"] + argv[cut:]
    named = _command_of(argv)
    command = named if named in SUBCOMMANDS else "logicpy"
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        if as_json:
            return _fail(_usage_command(parser, argv, exc) or command, str(exc), "error", True)
        sys.stderr.write(exc.usage)
        print(f"{exc.prog}: error: {exc}", file=sys.stderr)
        return EXIT["error"]
    args.json = as_json
    if not getattr(args, "func", None):
        if as_json:
            return _fail(command, "no command given; see logicpy --help", "error", True)
        parser.print_help()
        return EXIT["error"]
    command = args.command_name
    try:
        with _quiet_pipe():
            return int(args.func(args) or 0)
    except LogicpyError as exc:
        if args.debug:
            raise
        status = "none" if isinstance(exc, NoSolution) else "timeout" if isinstance(exc, PrologTimeout) else "error"
        return _fail(command, str(exc), status, as_json)
    except KeyboardInterrupt:
        if args.debug:
            raise
        return _fail(command, "interrupted", "interrupted", as_json)
    except BrokenPipeError:  # the reader of a pipe (`| head`) is gone and the command kept writing
        _silence(sys.stdout)
        return 0
    except (MemoryError, RecursionError) as exc:
        if args.debug:
            raise
        what = "out of memory" if isinstance(exc, MemoryError) else "input nested too deep for Python's stack"
        return _fail(command, f"{what}; try smaller bounds", "error", as_json)


class _QuietStdout:
    """Standard output that outlives its reader: when a pipe's reader (`| head -1`) is gone, what
    is written next is dropped, so the command still ends with its own exit status (a "no
    solution" stays 1 under `pipefail`); a command that goes on writing long after that is
    stopped (BrokenPipeError, reported as a quiet success)."""

    #: Writes dropped after the pipe closed before the command is stopped.
    DROPPED = 1000

    def __init__(self, stream: Any):
        self._stream = stream
        self._dropped = -1  # -1 while the pipe is open

    def write(self, text: str) -> int:
        if self._dropped < 0:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._closed()
        self._dropped += 1
        if self._dropped > self.DROPPED:
            raise BrokenPipeError("standard output's reader is gone")
        return len(text)

    def flush(self) -> None:
        if self._dropped < 0:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._closed()

    def _closed(self) -> None:
        self._dropped = 0
        _silence(self._stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stream: Any) -> None:
    """Point `stream`'s file descriptor at /dev/null, so no later flush fails (at exit either)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


@contextlib.contextmanager
def _quiet_pipe() -> Iterator[None]:
    """Standard output as a `_QuietStdout` for the block, when it is a pipe or file (not a terminal,
    not a test's capture)."""
    stream = sys.stdout
    try:
        piped = not stream.isatty() and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        piped = False
    if not piped:
        yield
        return
    sys.stdout = _QuietStdout(stream)  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.stdout.__class__ is _QuietStdout:
            sys.stdout.flush()
            sys.stdout = stream


def _usage_command(parser: argparse.ArgumentParser, argv: list[str], exc: UsageError) -> str | None:
    """The (sub)command a rejected command line names, for its JSON error line."""
    if " " in exc.prog:
        return exc.prog.split(" ", 1)[1]
    try:  # the top-level parser rejected words its subcommand left over
        return parser.parse_known_args(argv)[0].command_name
    except (UsageError, AttributeError):
        return None


def _fail(command: str, message: str, status: str, as_json: bool) -> int:
    """Report a command that ended early: one line of text on standard error, or of JSON (an
    error or an interruption on standard error, no answer or a timeout as the result); its exit status."""
    if as_json:
        line = error_line(command, message, status)
        print(line, file=sys.stderr if status in ("error", "interrupted") else sys.stdout)
    else:
        print(f"logicpy: {'error: ' if status == 'error' else ''}{message}", file=sys.stderr)
    return EXIT[status]


class _Version(argparse.Action):
    """`--version`: the version (looked up only when asked for), and whether the core runs
    compiled (see `logicpy.core.accelerator`)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__
        from .core import accelerator

        forms = accelerator.status().values()
        compiled = sum(form == "compiled" for form in forms)
        parser.exit(message=f"logicpy {__version__} (core: {compiled} of {len(forms)} modules compiled)\n")


if __name__ == "__main__":
    sys.exit(main())
