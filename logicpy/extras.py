"""logicpy's optional parts: the distribution name, its extras, and the line telling how to add one."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import InputError

__all__ = ["DISTRIBUTION", "EXTRAS", "install_hint", "require"]

#: The name logicpy is installed by (`import logicpy` and the `logicpy` command keep theirs).
DISTRIBUTION = "logicpy-engine"

#: Extra -> what it adds.
EXTRAS = {
    "prolog": "the SWI-Prolog bridge (pyswip; SWI-Prolog itself comes from your system)",
    "rich": "progress bars and boxed tables on a terminal",
    "nauty": "essentially different designs: `logicpy prisoners --distinct` (pynauty)",
    "smt": "the SMT engine beside the three gods' tree search (z3-solver)",
    "distributed": "`logicpy gods census` on a Dask cluster",
    "symbolic": "the symbolic engine of who-knows-what stories (BDDs: dd, with CUDD)",
}


def install_hint(extra: str) -> str:
    """The command that adds an extra: `pip install 'logicpy-engine[prolog]'`."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def require(module: str, extra: str, needed_for: str) -> ModuleType:
    """Import an optional module; if it is missing, an `InputError` saying which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise InputError(f"{needed_for} needs {module.split('.')[0]}: {install_hint(extra)}") from None
