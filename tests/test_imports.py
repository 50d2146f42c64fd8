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


def core_import_graph(core: Path) -> dict[str, set[str]]:
    """Which modules of `core` each module of it imports, by name relative to `core`
    (`fd.store`), counting imports made anywhere in a module (inside functions too); an
    import of a submodule (`from . import equality`) counts as that module, not the package."""

    def name(path: Path) -> str:
        parts = path.relative_to(core).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def exists(module: str) -> bool:
        base = core.joinpath(*module.split(".")) if module else core
        return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()

    graph: dict[str, set[str]] = {}
    for path in sorted(core.rglob("*.py")):
        module = name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = graph.setdefault(module, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".") if package else []
                    parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                elif node.module and node.module.startswith("logicpy.core"):
                    base = node.module.removeprefix("logicpy.core").lstrip(".")
                else:
                    continue
                subs = [f"{base}.{a.name}".lstrip(".") for a in node.names if exists(f"{base}.{a.name}".lstrip("."))]
                targets = subs or [base]
            elif isinstance(node, ast.Import):
                targets = [a.name.removeprefix("logicpy.core").lstrip(".") for a in node.names
                           if a.name.startswith("logicpy.core")]
            found.update(t for t in targets if t != module and exists(t))
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path):
    core = tmp_path / "core"
    core.mkdir()
    (core / "__init__.py").write_text("from . import a\n")
    (core / "a.py").write_text("from .b import f\n")
    (core / "b.py").write_text("def f():\n    from . import c\n")
    (core / "c.py").write_text("from logicpy.core.a import g\nfrom . import d\n")
    (core / "d.py").write_text("import os\n")
    assert import_cycles(core_import_graph(core)) == [["a", "b", "c"]]


def test_no_import_cycle_inside_the_core():
    """The core's modules are layered: none imports, even inside a function, a module
    that imports it back."""
    assert import_cycles(core_import_graph(PACKAGE / "core")) == []
