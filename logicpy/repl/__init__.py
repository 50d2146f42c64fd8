"""`logicpy repl`: a Prolog-like toplevel over logicpy relations (see `toplevel`)."""

from __future__ import annotations

import argparse
import io
import sys

from .toplevel import Toplevel, bindings_text, read_queries, run_piped, run_terminal

__all__ = ["Toplevel", "bindings_text", "read_queries", "run_piped", "run_terminal", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `repl` subcommand."""
    parser = subparsers.add_parser(
        "repl",
        help="a Prolog-like toplevel over logicpy relations",
        description="Queries in Prolog syntax over logicpy's relations (the core, the FD goals with clpfd's "
                    "operators, the puzzles' relations, modules you load), SWI-Prolog through the bridge, and "
                    "cross-checks, read and printed as SWI-Prolog does. An answer ends with '.' when it is the "
                    "last; on a terminal ';' asks for the next, Enter stops. Piped: every answer on its own "
                    "line, ' ;' before the next, 'false.' when there is none, ' .' where --limit stopped.",
        epilog="example: echo 'appendo(X, Y, [1,2]).' | logicpy repl\n"
               "exit status: 0; 1 when a query had no answer, 2 when one was bad (an error is also a line of its "
               "own under --json), 130 when one was interrupted",
    )
    parser.add_argument("-q", "--query", action="append", default=[], metavar="QUERY",
                        help="run this query and leave (repeatable); standard input is not read")
    parser.add_argument("--limit", type=int, default=1000, metavar="N",
                        help="answers printed per query when not asked one by one (default 1000)")
    parser.add_argument("--json", action="store_true",
                        help="without a terminal: one JSON line per query (status, answers with bindings and constraints)")
    parser.add_argument("-f", "--consult", metavar="FILE.pl", help="load this Prolog program into logicpy's engine first")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from ..errors import InputError
    if args.limit < 1:
        raise InputError(f"--limit must be a positive integer, got {args.limit}")
    top = Toplevel(limit=args.limit, json=args.json)
    if args.json:  # errors are in the query's line, and in the contract's JSON on standard error
        top.err = _JsonErrors()
    if args.consult:
        top.query(f"consult({_quoted(args.consult)}).")
        if top.errors:
            return 2
    if args.query:
        return run_piped(top, io.StringIO("\n".join(q if q.rstrip().endswith(".") else q + "." for q in args.query)))
    if sys.stdin.isatty() and sys.stdout.isatty() and not args.json:
        return run_terminal(top)
    return run_piped(top, sys.stdin)


class _JsonErrors(io.StringIO):
    """Standard error under --json: each error line of the toplevel as the contract's JSON line."""

    def write(self, text: str) -> int:
        from ..cli_contract import error_line

        for line in text.splitlines():
            print(error_line("repl", line.removeprefix("error: ")), file=sys.stderr)
        return len(text)


def _quoted(path: str) -> str:
    from ..core.terms import format_term
    return format_term(path)
