"""Shared pytest set-up: SWI-Prolog availability and what to skip without it.

Tests that need SWI-Prolog use the `swi` marker (or the `prolog` fixture). Without
SWI-Prolog they are skipped with the reason, unless LOGICPY_REQUIRE_SWI=1 (CI), which
turns the missing engine into a failure so the bridge is always exercised there.

The core's compiled modules (`logicpy.core.accelerator`) keep their doctests: read from
the module's source and run against the module as imported.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests judge results, not speed: no per-example deadline on a loaded 2-core machine.
# Under CI the examples are drawn from a fixed seed (derandomize), so a run judges the same cases
# every time; elsewhere each run draws new ones and finds what a fixed seed would not.
settings.register_profile("logicpy", deadline=None)
settings.register_profile("logicpy-ci", deadline=None, derandomize=True)
settings.load_profile("logicpy-ci" if os.environ.get("CI") else "logicpy")

collect_ignore = ["logicpy/__main__.py"]

REQUIRE_SWI = os.environ.get("LOGICPY_REQUIRE_SWI") == "1"


def swi_missing_reason() -> str | None:
    """Why SWI-Prolog cannot be used here, or None when it can."""
    if shutil.which("swipl") is None:
        return "SWI-Prolog is not installed (Debian: apt-get install swi-prolog-nox)"
    try:
        import pyswip  # noqa: F401
    except Exception as exc:  # ImportError, or pyswip failing to find libswipl
        return f"pyswip cannot be used: {exc}"
    return None


def pytest_collection_modifyitems(config, items):
    reason = swi_missing_reason()
    if reason is None:
        return
    for item in items:
        if "swi" in item.keywords:
            if REQUIRE_SWI:
                item.add_marker(pytest.mark.xfail(reason="LOGICPY_REQUIRE_SWI=1: " + reason, run=False, strict=True))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_sessionstart(session):
    reason = swi_missing_reason()
    if reason is not None and REQUIRE_SWI:
        raise pytest.UsageError(f"LOGICPY_REQUIRE_SWI=1 but {reason}")


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path, parent):
    collected = yield
    module = _compiled_module(file_path)
    if module is None:
        return collected
    # pytest's doctest collector would import the .py and refuse the extension it finds
    kept = [c for c in collected if type(c).__name__ != "DoctestModule"]
    if len(kept) == len(collected):
        return collected
    return [*kept, SourceDoctests.from_parent(parent, path=file_path, module_name=module)]


def _compiled_module(path: Path) -> str | None:
    """The module name of `path` when it is one of the core's modules running compiled."""
    if path.suffix != ".py":
        return None
    from logicpy.core import accelerator

    root = Path(__file__).resolve().parent
    try:
        name = ".".join(path.resolve().relative_to(root).with_suffix("").parts)
    except ValueError:
        return None
    return name if accelerator.status().get(name) == "compiled" else None


class SourceDoctests(pytest.File):
    """The doctests in the docstrings of a compiled module's source file, each run in the
    compiled module's namespace."""

    def __init__(self, *, module_name: str, **kwargs):
        super().__init__(**kwargs)
        self.module_name = module_name

    def collect(self):
        module = importlib.import_module(self.module_name)
        parser = doctest.DocTestParser()
        for qualname, node in _documented(ast.parse(self.path.read_text()), ""):
            text = ast.get_docstring(node, clean=False)
            if text and ">>>" in text:
                test = parser.get_doctest(text, dict(vars(module)), f"{self.module_name}{qualname}",
                                          str(self.path), getattr(node, "lineno", 1))
                if test.examples:
                    yield SourceDoctest.from_parent(self, name=test.name, test=test)


def _documented(node, prefix: str):
    """(qualified name, node) of the module, and of each class and function with a docstring."""
    yield prefix, node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _documented(child, f"{prefix}.{child.name}")


class SourceDoctest(pytest.Item):
    def __init__(self, *, test: doctest.DocTest, **kwargs):
        super().__init__(**kwargs)
        self.test = test

    def runtest(self):
        report: list[str] = []
        result = doctest.DocTestRunner(verbose=False).run(self.test, out=report.append, clear_globs=False)
        if result.failed:
            raise DoctestFailure("".join(report))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, DoctestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.test.lineno, f"[doctest] {self.name}"


class DoctestFailure(Exception):
    """A compiled module's doctest printed something other than its expected output."""
