"""logicpy: a logic-programming engine embedded in Python.

`logicpy.core` is the relational core (kanren's API plus logicpy's relations);
`logicpy.swi` the optional SWI-Prolog bridge; `logicpy.puzzles` the puzzle façades.
"""

from .errors import LogicpyError


def _choose_compiled_modules() -> None:
    """Decide, before any of them is imported, which compiled modules run compiled (see
    `logicpy.core.accelerator`; some lie outside `logicpy.core`). The file is loaded by its
    path: importing it by name would import all of `logicpy.core` first."""
    import importlib.util
    import sys
    from pathlib import Path

    name = "logicpy.core.accelerator"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parent / "core" / "accelerator.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    sys.modules[name].choose()


_choose_compiled_modules()

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
