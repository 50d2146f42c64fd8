"""One search path: no module of logicpy but `logicpy.core`'s `__init__` takes kanren's
search (run, its stream combinators, Zzz); everything goes through `logicpy.core.streams`."""

from __future__ import annotations

import ast
from pathlib import Path

import logicpy

PACKAGE = Path(logicpy.__file__).parent
ALLOWED = PACKAGE / "core" / "__init__.py"

#: kanren's search: running goals, combining them, and its stream functions.
SEARCH_NAMES = frozenset({
    "run", "lall", "lany", "conde", "Zzz", "lconj", "ldisj", "lconj_seq", "ldisj_seq", "bind", "mplus",
    "interleave", "ifa", "dbgo",
})


def kanren_search_uses(source: str) -> list[str]:
    """The kanren search names a module's source takes: `from kanren[.x] import name` and
    `kanren[.x].name` (after `import kanren[.x]`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "kanren":
            found += [f"from {node.module} import {a.name}" for a in node.names if a.name in SEARCH_NAMES or a.name == "*"]
        elif isinstance(node, ast.Attribute) and node.attr in SEARCH_NAMES:
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id == "kanren":
                found.append(f"kanren...{node.attr}")
    return found


def test_the_checker_sees_every_form():
    source = ("from kanren import run, var\nfrom kanren.core import Zzz as Z, fail\n"
              "import kanren.core\nkanren.core.lall(g)\nfrom kanren.goals import *\nkanren.eq(1, 1)\n")
    assert sorted(kanren_search_uses(source)) == sorted([
        "from kanren import run", "from kanren.core import Zzz", "kanren...lall", "from kanren.goals import *"])
    assert kanren_search_uses("from kanren.core import GoalType, fail, succeed\n") == []


def test_only_the_core_package_init_imports_kanrens_search():
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == ALLOWED or path.is_relative_to(PACKAGE / "data"):  # shipped example programs may use kanren
            continue
        uses = kanren_search_uses(path.read_text(encoding="utf-8"))
        if uses:
            offenders[str(path.relative_to(PACKAGE.parent))] = uses
    assert offenders == {}
