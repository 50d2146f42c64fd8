"""logicpy's hot modules compiled by Cython from their own source, or that source as written.

When logicpy is installed, the build compiles each module of `MODULES` with Cython (the
same `.py` file, unchanged: Cython's pure-Python mode) into an extension module beside it,
and records in `accelerator.txt` a checksum of each source it compiled. A module may have a
`.pxd` file beside its `.py` (Cython's declarations, never read by Python); the checksum
covers it too. Compiled, the search, unification, the list relations, the finite-domain
store and the Prolog engine's calls and arithmetic run about 1.2-1.5x faster (figures in
docs/performance.md); answers, their order, time limits and errors are the same, as the
test suite checks in both forms.

`choose()` runs before any of those modules is imported (first thing in `import logicpy`):
a module runs compiled when its extension is there and was built from the source now
beside it; otherwise from its source — when the build had no C compiler or no Cython,
when the source (or its `.pxd`) was edited after the build, or when the environment says
`LOGICPY_PURE=1`. `status()` says which form each module runs in, and why.

This file imports nothing of logicpy's: the build reads `MODULES` from it.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import zlib
from pathlib import Path
from typing import Any

__all__ = ["MODULES", "MANIFEST", "checksum", "choose", "declarations_path", "decide", "module_checksum",
           "read_manifest", "source_path", "status"]

#: The modules the build compiles (the search, terms, unification, constraints, the FD
#: store, the clause compiler, and the Prolog engine's predicates, goals and arithmetic).
#: Not `cover`: its bitsets shift by `len(...)`, which Cython computes in C integers. The
#: code the clause compiler generates at run time is run by Python, never compiled.
MODULES = (
    "logicpy.core.terms", "logicpy.core.equality", "logicpy.core.streams", "logicpy.core.procedures",
    "logicpy.core.listloops",
    "logicpy.core.disequality", "logicpy.core.residual", "logicpy.core.control", "logicpy.core.tabling",
    "logicpy.core.facts", "logicpy.core.answers", "logicpy.core._spine",
    "logicpy.core.fd.store", "logicpy.core.fd.propagators", "logicpy.core.fd.channel",
    "logicpy.core.fd.labeling", "logicpy.core.fd.disjunction", "logicpy.core.fd.goals",
    "logicpy.core.clauses", "logicpy.prolog", "logicpy.repl.goals", "logicpy.repl.arith",
)

#: The build's record, beside this file: lines "module checksum" of the sources it compiled.
MANIFEST = "accelerator.txt"

_HERE = Path(__file__).resolve().parent  # logicpy/core
_ROOT = _HERE.parent.parent  # the directory holding the logicpy package

#: The form of a module with no extension beside it (the others may be loaded from source too).
NOT_BUILT = "source: not compiled when installed (no C compiler or Cython at build time)"

#: module name -> "compiled", or "source: <why>" (filled by `choose`).
_STATUS: dict[str, str] = {}


def source_path(module: str, root: Path = _ROOT) -> Path:
    """The `.py` file of `module` under `root`."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def declarations_path(module: str, root: Path = _ROOT) -> Path:
    """The `.pxd` file of `module` under `root` (Cython's declarations; it may not exist)."""
    return source_path(module, root).with_suffix(".pxd")


def checksum(path: Path, declarations: Path | None = None) -> str:
    """The checksum the manifest keeps for a source file and, when given and present, its
    `.pxd` (CRC-32 of the bytes of both, as hex)."""
    crc = zlib.crc32(path.read_bytes())
    if declarations is not None and declarations.exists():
        crc = zlib.crc32(b"\0pxd\0" + declarations.read_bytes(), crc)
    return format(crc, "08x")


def module_checksum(module: str, root: Path = _ROOT) -> str:
    """The checksum of what `module` under `root` is compiled from: its `.py` and its `.pxd`."""
    return checksum(source_path(module, root), declarations_path(module, root))


def _extension(module: str, root: Path) -> Path | None:
    """The compiled extension file of `module` under `root`, if one was built."""
    base = source_path(module, root)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = base.with_suffix(suffix)
        if candidate.exists():
            return candidate
    return None


def read_manifest(path: Path) -> dict[str, str]:
    """The build's record at `path` (module name -> checksum); empty when there is none."""
    try:
        return dict(line.split() for line in path.read_text().splitlines() if line.strip())
    except (OSError, ValueError):
        return {}


def decide(module: str, root: Path, built: dict[str, str], pure: bool) -> str:
    """"compiled" when `module` under `root` has an extension built (as `built` records) from
    the source now beside it and `pure` is false; else "source: <why>"."""
    if _extension(module, root) is None:
        return NOT_BUILT
    if pure:
        return "source: LOGICPY_PURE=1"
    if not source_path(module, root).exists() or built.get(module) != module_checksum(module, root):
        return "source: edited since it was compiled (reinstall to compile it again)"
    return "compiled"


def choose() -> None:
    """Decide, for every module of `MODULES`, between its extension and its source (see the
    module); the modules that must run from source although an extension is present are
    loaded from their `.py` by a finder that answers for those names only."""
    if _STATUS:
        return
    pure = os.environ.get("LOGICPY_PURE") == "1"
    built = read_manifest(_HERE / MANIFEST)
    from_source: dict[str, Path] = {}
    for module in MODULES:
        form = _STATUS[module] = decide(module, _ROOT, built, pure)
        source = source_path(module)
        if form != "compiled" and form != NOT_BUILT and source.exists():  # an extension there is not used
            from_source[module] = source
    if from_source:
        sys.meta_path.insert(0, _SourceFirst(from_source))


def status() -> dict[str, str]:
    """Module name -> "compiled", or "source: <why>"."""
    choose()
    return dict(_STATUS)


class _SourceFirst:
    """A finder for the named modules only, loading each from its `.py` file."""

    def __init__(self, sources: dict[str, Path]):
        self.sources = sources

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        source = self.sources.get(name)
        if source is None:
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(name, source)
