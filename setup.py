"""The build's one step beyond pyproject.toml: the core's modules compiled by Cython.

Every module named in `logicpy/core/accelerator.py` is compiled from its own `.py` source
(Cython's pure-Python mode, with the C types of the `.pxd` beside it when there is one) into
an extension module beside it, and the checksums of the sources compiled (`.py` and `.pxd`)
are written to `logicpy/core/accelerator.txt`. A module that cannot be
compiled (no C compiler, no Cython) is skipped with a warning: logicpy then runs it from
source. `LOGICPY_PURE=1` at build time compiles nothing.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ACCELERATOR = runpy.run_path(str(HERE / "logicpy" / "core" / "accelerator.py"))
MODULES = ACCELERATOR["MODULES"]


class OptionalCythonBuild(build_ext):
    """build_ext that cythonizes each `.py` source in the build's temporary directory,
    compiles what it can, and records the sources it compiled."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self.compiled: list[str] = []
        try:
            from Cython.Build import cythonize  # noqa: F401
        except ImportError:
            self.warn("Cython is not installed: logicpy's core runs from source")
            self.extensions = []
        super().run()
        # what was not compiled is not an output (an editable install copies the outputs)
        self.extensions = [ext for ext in self.extensions if ext.name in self.compiled]
        self._write_manifest()

    def build_extension(self, ext: Extension) -> None:
        from Cython.Build import cythonize

        try:
            (cythonized,) = cythonize([ext], build_dir=self.build_temp, quiet=True, force=self.force,
                                      compiler_directives={"language_level": 3, "binding": True,
                                                           "annotation_typing": False})
            ext.sources = cythonized.sources  # the generated C file, compiled by setuptools' own ext
            super().build_extension(ext)
        except Exception as exc:  # no compiler, a construct Cython refuses: that module runs from source
            self.warn(f"{ext.name} not compiled ({exc}): it runs from source")
            return
        self.compiled.append(ext.name)

    def _write_manifest(self) -> None:
        module_checksum = ACCELERATOR["module_checksum"]
        lines = [f"{name} {module_checksum(name, HERE)}\n" for name in MODULES if name in self.compiled]
        # beside the extensions: in the build (a wheel), and in the source tree when the
        # extensions go there (an editable install, build_ext --inplace)
        roots = {Path(self.build_lib)}
        if self.inplace or getattr(self, "editable_mode", False):
            roots.add(HERE)
        for root in roots:
            manifest = root / "logicpy" / "core" / ACCELERATOR["MANIFEST"]
            manifest.parent.mkdir(parents=True, exist_ok=True)
            manifest.write_text("".join(lines))


def extensions() -> list[Extension]:
    if os.environ.get("LOGICPY_PURE") == "1":
        return []
    return [Extension(name, [str(Path(*name.split(".")).with_suffix(".py"))]) for name in MODULES]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalCythonBuild})
