"""The files shipped with logicpy, found by name: Prolog programs and examples.

    prolog/          Prolog programs (lists.pl, constraints.pl, gods.pl, zebra.pl, ...)
    prolog/bench/    the classic Prolog benchmark programs (nrev.pl, tak.pl, ...)
    examples/        Python programs on logicpy (zebra.py, zebra_fd.py, queens.py)
    examples/einstein/  Einstein games (zebra.json, bake_sale.txt, ...)
    stories/         who-knows-what stories as TOML (`logicpy cheryl --story-file denise`)

Commands that take a file also take a shipped file's name: `logicpy crosscheck lists ...`,
`logicpy einstein zebra`, `consult(lists)` in the REPL (or its path in this tree:
`prolog/lists.pl`). A path that exists always wins.
`logicpy files` lists them; `logicpy files NAME` prints where one is.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
from importlib import resources
from pathlib import Path

from ..errors import InputError

__all__ = ["ROOT", "PROLOG", "PROLOG_BENCH", "EXAMPLES", "EINSTEIN", "STORIES", "prolog_file", "einstein_game",
           "story_file", "shipped"]


def _root() -> Path:
    """This package's directory on disk (extracted once when logicpy runs from a zip file)."""
    place = resources.files(__name__)
    if isinstance(place, Path):
        return place
    stack = contextlib.ExitStack()
    atexit.register(stack.close)
    return stack.enter_context(resources.as_file(place))


ROOT = _root()
PROLOG = ROOT / "prolog"
PROLOG_BENCH = PROLOG / "bench"
EXAMPLES = ROOT / "examples"
EINSTEIN = EXAMPLES / "einstein"
STORIES = ROOT / "stories"

#: Kind of file -> (its folder, the suffixes a bare name may leave out, in order of preference).
KINDS: dict[str, tuple[Path, tuple[str, ...]]] = {
    "prolog": (PROLOG, (".pl",)),
    "examples": (EXAMPLES, (".py",)),
    "einstein": (EINSTEIN, (".json", ".txt")),
    "stories": (STORIES, (".toml",)),
}


def shipped(kind: str) -> list[str]:
    """The names of the shipped files of one kind, relative to its folder (`bench/nrev.pl`)."""
    folder, suffixes = KINDS[kind]
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.suffix in suffixes)


def _candidates(name: str | Path, kind: str) -> list[Path]:
    """`name`, then `name` with each suffix its kind may leave out."""
    given = Path(name)
    return [given, *(given.with_name(given.name + s) for s in KINDS[kind][1] if given.suffix != s)]


def _shipped_file(name: str | Path, kind: str) -> Path | None:
    """The shipped file of one kind named `name` (`lists`, or as a path from the shipped tree:
    `prolog/lists.pl`), if any."""
    relative = [c for c in _candidates(name, kind) if not c.is_absolute() and ".." not in c.parts]
    found = (base / c for base in (KINDS[kind][0], ROOT) for c in relative)
    return next((c for c in found if c.is_file()), None)


def _find(name: str | Path, kind: str) -> Path | None:
    """The file at path `name` (or `name` plus a suffix), else the shipped file of that name."""
    local = next((c for c in _candidates(name, kind) if c.is_file()), None)
    return local or _shipped_file(name, kind)


def prolog_file(name: str | Path) -> Path:
    """The Prolog file at path `name`, else the shipped one named `name` (`lists`, `bench/nrev.pl`)."""
    found = _find(name, "prolog")
    if found is None:
        raise InputError(f"{name}: no such Prolog file, nor a shipped one (`logicpy files` lists them)")
    return found


def einstein_game(name: str | Path) -> Path:
    """The game file at path `name`, else the shipped game named `name` (`zebra`, `bake_sale.txt`)."""
    found = _find(name, "einstein")
    if found is None:
        raise InputError(f"{name}: no such game file, nor a shipped game (`logicpy files` lists them)")
    return found


def story_file(name: str | Path) -> Path:
    """The story file at path `name`, else the shipped story named `name` (`denise`, `cheryl.toml`)."""
    found = _find(name, "stories")
    if found is None:
        raise InputError(f"{name}: no such story file, nor a shipped story (`logicpy files` lists them)")
    return found


# ---------------------------------------------------------------- command line

def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `files` subcommand."""
    parser = subparsers.add_parser(
        "files",
        help="list the Prolog programs and examples shipped with logicpy",
        description="List the shipped files, which commands take by name (`logicpy einstein zebra`, "
                    "`logicpy crosscheck lists ...`); with NAME, print the path of one "
                    "(`python \"$(logicpy files zebra.py)\"`).",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="a shipped file: print its path")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from ..cli_contract import emit

    json_out = getattr(args, "json", False)
    if args.name:
        for kind in KINDS:
            found = _shipped_file(args.name, kind)
            if found is not None:
                if json_out:
                    return emit(args, "ok", {"name": args.name, "kind": kind, "path": str(found.resolve())})
                print(found.resolve())
                return 0
        raise InputError(f"{args.name}: no shipped file of that name (`logicpy files` lists them)")
    kinds = (("prolog", "Prolog programs"), ("einstein", "Einstein games"), ("examples", "Python examples"),
             ("stories", "Who-knows-what stories"))
    if json_out:
        return emit(args, "ok", {"files": {kind: {"folder": str(KINDS[kind][0]), "names": shipped(kind)}
                                           for kind, _ in kinds}})
    for kind, title in kinds:
        folder = KINDS[kind][0]
        print(f"{title} ({folder}):")
        print("  " + "  ".join(shipped(kind)))
    return 0
