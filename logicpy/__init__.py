"""logicpy: a logic-programming engine embedded in Python.

`logicpy.core` is the relational core (kanren's API plus logicpy's relations);
`logicpy.swi` the optional SWI-Prolog bridge; `logicpy.puzzles` the puzzle façades.
"""

from .errors import LogicpyError

__all__ = ["LogicpyError", "__version__"]


def __getattr__(name: str) -> str:
    """`__version__`, read from the installed metadata on first use (importlib.metadata is slow to import)."""
    if name != "__version__":
        raise AttributeError(f"module 'logicpy' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    from .extras import DISTRIBUTION

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # running from a source tree that was not installed
        return "0.0.0"
