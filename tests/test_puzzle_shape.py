"""Every puzzle package has the same shape, and every `verify` keeps one contract.

Roles: `model`, `solve`, `verify`, `render` and/or `display`, `relations`, `cli` (plus
`explain`, `generate` where they exist), each a module of `logicpy/puzzles/<p>/`; argparse
only in `cli.py` modules. `verify(...)` returns `logicpy.puzzles.verification.Verification`:
ok on a known answer, refused with a named problem on a broken one, and computed without the
puzzle's solver.
"""

from __future__ import annotations

import ast
import importlib
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

import logicpy.puzzles
from logicpy.puzzles.verification import Verification

PUZZLES_DIR = Path(logicpy.puzzles.__file__).parent
PUZZLES = sorted(p.name for p in PUZZLES_DIR.iterdir() if (p / "__init__.py").exists())

#: Role -> the module names that fill it (any one of them).
ROLES = {
    "model": ("model",),
    "solve": ("solve",),
    "verify": ("verify",),
    "render": ("render", "display"),
    "relations": ("relations",),
    "cli": ("cli",),
}
#: Where a puzzle fills a role under another name, and why.
OTHER_NAMES: dict[tuple[str, str], tuple[str, ...]] = {}
#: Roles a puzzle does not fill yet: their tests are expected to fail while the module is missing.
MISSING: dict[tuple[str, str], str] = {}
#: Modules of each puzzle's search that its verifier must not import.
ENGINES = {
    "gods": ("solve", "search", "universe", "tree_relations"),
    "einstein": ("solve", "compile", "explain"),
    "epistemic": ("solve",),
    "calendar": ("solve",),
    "prisoners": ("solve", "counting", "relations"),
}


def _missing(puzzle: str, role: str) -> list[Any]:
    """The expected-failure mark of a role a puzzle does not fill yet (none once its module exists)."""
    reason = MISSING.get((puzzle, role))
    names = OTHER_NAMES.get((puzzle, role), ROLES[role])
    absent = not any((PUZZLES_DIR / puzzle / f"{name}.py").exists() for name in names)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason and absent else []


def test_the_puzzles_are_the_known_five():
    assert PUZZLES == ["calendar", "einstein", "epistemic", "gods", "prisoners"]
    assert set(ENGINES) == set(PUZZLES)


@pytest.mark.parametrize("puzzle, role", [
    pytest.param(p, r, marks=_missing(p, r), id=f"{p}-{r}") for p in PUZZLES for r in ROLES])
def test_every_puzzle_fills_every_role(puzzle, role):
    names = OTHER_NAMES.get((puzzle, role), ROLES[role])
    found = [n for n in names if (PUZZLES_DIR / puzzle / f"{n}.py").exists()]
    assert found, f"logicpy/puzzles/{puzzle}/ has no {' or '.join(n + '.py' for n in names)}"
    for name in found:  # and it is a module with content, not a placeholder
        module = importlib.import_module(f"logicpy.puzzles.{puzzle}.{name}")
        public = [v for k, v in vars(module).items()
                  if not k.startswith("_") and callable(v) and getattr(v, "__module__", None) == module.__name__]
        assert public, f"logicpy/puzzles/{puzzle}/{name}.py defines nothing to call"


@pytest.mark.parametrize("puzzle", [pytest.param(p, marks=_missing(p, "relations")) for p in PUZZLES])
def test_the_relations_load_in_the_toplevel(puzzle):
    from logicpy.repl.goals import Relations

    names = Relations().load(f"logicpy.puzzles.{puzzle}.relations")
    assert names and all(name.endswith("o") for name in names)


def test_argparse_only_in_cli_modules():
    offenders = []
    for path in PUZZLES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        if "argparse" in imported and path.name != "cli.py":
            offenders.append(str(path.relative_to(PUZZLES_DIR)))
    assert offenders == []


def _runtime_imports(path: Path) -> set[str]:
    """The package-relative modules `path` imports when it runs (not under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    return {(node.module or "").split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in skipped}


@pytest.mark.parametrize("puzzle", [pytest.param(p, marks=_missing(p, "verify")) for p in PUZZLES])
def test_the_verifier_does_not_import_the_search(puzzle):
    path = PUZZLES_DIR / puzzle / "verify.py"
    assert path.exists()
    assert _runtime_imports(path).isdisjoint(ENGINES[puzzle])


# -- every verify, on a known answer and on a broken one --------------------------------------

def _gods() -> tuple[tuple, tuple, str]:
    from logicpy.puzzles.gods import CLASSIC, Node, solve

    tree = solve(CLASSIC).tree
    (w1, b1), (w2, b2) = tree.branches
    return (CLASSIC, tree), (CLASSIC, Node(tree.position, tree.question, ((w1, b2), (w2, b1)))), "ends at answer"


def _calendar() -> tuple[tuple, tuple, str]:
    from logicpy.puzzles.calendar import STANDARD, solve

    grid = solve(STANDARD, ("Oct", "6"), limit=1).tilings[0].grid()
    broken = [row.replace("A", "?") for row in grid]
    return (STANDARD, grid, ("Oct", "6")), (STANDARD, broken, ("Oct", "6")), "piece A is not placed"


def _prisoners() -> tuple[tuple, tuple, str]:
    from logicpy.puzzles.prisoners import PRISONERS, solve

    days = [[list(row) for row in day] for day in solve(PRISONERS).days]
    broken = [[list(row) for row in day] for day in days]
    broken[1][0][0], broken[1][1][0] = broken[1][1][0], broken[1][0][0]
    return (PRISONERS, days, "canonical"), (PRISONERS, broken, "canonical"), "meets"


def _epistemic() -> tuple[tuple, tuple, str]:
    from logicpy.puzzles.epistemic import CLASSIC, solve

    result = solve(CLASSIC)
    last = result.steps[-1]
    after = last.after.copy()
    after[0] = True
    broken = replace(result, steps=[*result.steps[:-1], replace(last, after=after)])
    return (CLASSIC, result), (CLASSIC, broken), "after statement 3 (Albert): the answer keeps May 15"


def _einstein() -> tuple[tuple, tuple, str]:
    from logicpy.puzzles.einstein import load_game, solve

    game = load_game("zebra")
    grid = solve(game).solutions[0]
    rows = [list(row) for row in grid]
    rows[0][1], rows[1][1] = rows[1][1], rows[0][1]  # the Norwegian and the Ukrainian swap houses
    return (game, grid), (game, tuple(map(tuple, rows))), "clue"


CASES: dict[str, Callable[[], tuple[tuple, tuple, str]]] = {
    "gods": _gods, "calendar": _calendar, "prisoners": _prisoners, "epistemic": _epistemic, "einstein": _einstein,
}


def test_every_puzzle_has_a_verify_case():
    assert sorted(CASES) == PUZZLES


@pytest.mark.parametrize("puzzle", [pytest.param(p, marks=_missing(p, "verify")) for p in PUZZLES])
def test_verify_returns_the_one_contract(puzzle):
    verify = importlib.import_module(f"logicpy.puzzles.{puzzle}.verify").verify
    assert importlib.import_module(f"logicpy.puzzles.{puzzle}").verify is verify  # the package's own
    good, broken, named = CASES[puzzle]()

    accepted = verify(*good)
    assert type(accepted) is Verification
    assert accepted.ok and accepted.problems == () and bool(accepted)
    assert str(accepted).startswith("verified: ") and len(accepted.checked) > 10

    refused = verify(*broken)
    assert type(refused) is Verification
    assert not refused.ok and not refused
    assert any(named in problem for problem in refused.problems), refused.problems
    assert str(refused).startswith("NOT verified:") and refused.problems[0] in str(refused)


def test_the_contract_itself():
    assert Verification.of([], "a replay") == Verification(True, "a replay", ())
    refused = Verification.of([f"problem {i}" for i in range(25)])
    assert not refused.ok and str(refused).endswith("… and 5 more")
    assert refused.to_json() == {"ok": False, "checked": "", "problems": [f"problem {i}" for i in range(25)]}
    with pytest.raises(ValueError, match="ok exactly when it lists no problem"):
        Verification(True, "", ("a problem",))
    with pytest.raises(ValueError):
        Verification(False)
