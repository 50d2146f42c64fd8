"""logicpy: a logic-programming engine embedded in Python.

`logicpy.core` is the relational core (kanren's API plus logicpy's relations);
`logicpy.swi` the optional SWI-Prolog bridge; `logicpy.puzzles` the puzzle façades.
"""

from importlib.metadata import PackageNotFoundError, version

from .errors import LogicpyError

__all__ = ["LogicpyError", "__version__"]

try:
    __version__ = version("logicpy")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"
