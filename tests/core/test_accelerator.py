"""The compiled core and its source fallback: the same answers either way, and the right
form chosen (an extension only when built from the source beside it)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logicpy.core import accelerator

ROOT = Path(__file__).resolve().parents[2]
REQUIRE_COMPILED = os.environ.get("LOGICPY_REQUIRE_COMPILED") == "1"

# Queries over the compiled modules' work: search order, lists, disequality residuals,
# tabling, facts, FD; printed as JSON so that two processes' answers compare exactly.
QUERIES = r"""
import json
from logicpy.core import (Table, appendo, conde, eq, membero, neq, permuteo, run, tabled, var, vars,
                          answers_with_constraints, relation, cons)
from logicpy.core.fd import all_differento, inso, labelo, neq_offseto

q, x, y = var(), var(), var()
out = {}
out["split"] = [list(map(repr, a)) for a in run(0, (x, y), appendo(x, y, [1, 2, 3]))]
out["perm"] = [list(p) for p in run(0, q, permuteo([1, 2, 3, 4], q))]
out["order"] = list(run(7, q, conde([membero(q, [1, 2, 3])], [membero(q, ["a", "b", "c", "d"])])))
out["residual"] = [str(a) for a in answers_with_constraints([q, x], membero(x, [1, 2]), neq(q, x))]
edges = Table("edge", 2)
for e in [(1, 2), (2, 3), (3, 1), (3, 4)]:
    edges.add(*e)

@tabled
@relation
def path(a, b):
    m = var()
    return conde([edges(a, b)], [path(a, m), edges(m, b)])

out["path"] = sorted(run(0, q, path(1, q)))

@relation
def app(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app(t, ys, r)])

out["app"] = [repr(a) for a in run(0, (x, y), app(x, y, [1, 2, 3, 4]))]
rows = vars(6)
safe = [neq_offseto(rows[i], rows[j], k) for i in range(6) for j in range(i + 1, 6) for k in (j - i, i - j)]
out["queens6"] = [list(s) for s in run(0, rows, inso(rows, range(1, 7)), all_differento(rows), *safe, labelo(rows, "ff"))]
print(json.dumps(out, sort_keys=True))
"""


def _run(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_module_runs_in_a_named_form():
    forms = accelerator.status()
    assert set(forms) == set(accelerator.MODULES)
    for module, form in forms.items():
        assert form == "compiled" or form.startswith("source: "), (module, form)
        loaded = sys.modules.get(module)
        if loaded is not None:  # the module imported is the form chosen
            compiled = not loaded.__file__.endswith(".py")
            assert compiled == (form == "compiled"), (module, loaded.__file__, form)


@pytest.mark.skipif(not REQUIRE_COMPILED, reason="set LOGICPY_REQUIRE_COMPILED=1 (CI) to require the compiled core")
def test_the_installed_core_is_compiled():
    # under LOGICPY_PURE=1 (make test-pure) each module is compiled but runs from source
    form = "source: LOGICPY_PURE=1" if os.environ.get("LOGICPY_PURE") == "1" else "compiled"
    assert accelerator.status() == {module: form for module in accelerator.MODULES}


def test_the_source_and_the_compiled_core_give_the_same_answers():
    pure = json.loads(_run(QUERIES, LOGICPY_PURE="1"))
    chosen = json.loads(_run(QUERIES))
    assert pure == chosen
    assert pure["split"] == [["[]", "[1, 2, 3]"], ["[1]", "[2, 3]"], ["[1, 2]", "[3]"], ["[1, 2, 3]", "[]"]]
    assert len(pure["perm"]) == 24 and len({tuple(p) for p in pure["perm"]}) == 24
    assert pure["order"] == [1, "a", 2, "b", 3, "c", "d"]  # the two branches take turns
    assert pure["residual"] == ["[_0,1] :- dif(_0,1)", "[_0,2] :- dif(_0,2)"]
    assert pure["path"] == [1, 2, 3, 4]
    assert len(pure["app"]) == 5
    assert sorted(pure["queens6"]) == [[2, 4, 6, 1, 3, 5], [3, 6, 2, 5, 1, 4], [4, 1, 5, 2, 6, 3], [5, 3, 1, 6, 4, 2]]


def test_logicpy_pure_runs_every_module_from_its_source():
    code = ("import importlib, json; from logicpy.core import accelerator; "
            "files = {m: importlib.import_module(m).__file__ for m in accelerator.MODULES}; "
            "print(json.dumps([accelerator.status(), files]))")
    status, files = json.loads(_run(code, LOGICPY_PURE="1"))
    for module in accelerator.MODULES:
        assert status[module].startswith("source: "), (module, status[module])
        assert files[module].endswith(".py"), files[module]


def _tree(tmp_path: Path, module: str, source: str, extension: bool) -> Path:
    path = accelerator.source_path(module, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    if extension:
        path.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    return path


def test_an_extension_runs_only_when_built_from_the_source_beside_it(tmp_path):
    module = "logicpy.core.terms"
    source = _tree(tmp_path, module, "X = 1\n", extension=True)
    built = {module: accelerator.checksum(source)}
    assert accelerator.decide(module, tmp_path, built, pure=False) == "compiled"
    assert accelerator.decide(module, tmp_path, built, pure=True) == "source: LOGICPY_PURE=1"
    source.write_text("X = 2\n")  # edited after the build
    assert accelerator.decide(module, tmp_path, built, pure=False).startswith("source: edited since")
    assert accelerator.decide(module, tmp_path, {}, pure=False).startswith("source: edited since")


def test_an_edited_or_added_pxd_makes_the_extension_stale(tmp_path):
    module = "logicpy.core.equality"
    _tree(tmp_path, module, "X = 1\n", extension=True)
    built = {module: accelerator.module_checksum(module, tmp_path)}
    assert accelerator.decide(module, tmp_path, built, pure=False) == "compiled"
    declarations = accelerator.declarations_path(module, tmp_path)
    declarations.write_text("cpdef f(x)\n")  # added after the build
    assert accelerator.decide(module, tmp_path, built, pure=False).startswith("source: edited since")
    built = {module: accelerator.module_checksum(module, tmp_path)}
    assert accelerator.decide(module, tmp_path, built, pure=False) == "compiled"
    declarations.write_text("cpdef g(x)\n")  # edited after the build
    assert accelerator.decide(module, tmp_path, built, pure=False).startswith("source: edited since")


def test_modules_outside_the_core_are_chosen_before_they_are_imported():
    # logicpy.prolog is compiled too: `import logicpy` decides, before logicpy.core is imported
    code = ("import sys, json, logicpy; core = 'logicpy.core' in sys.modules; "
            "chosen = dict(sys.modules['logicpy.core.accelerator']._STATUS); "
            "print(json.dumps([core, sorted(chosen)]))")
    assert json.loads(_run(code)) == [False, sorted(accelerator.MODULES)]
    assert "logicpy.prolog" in accelerator.MODULES


def test_no_extension_means_source(tmp_path):
    module = "logicpy.core.streams"
    _tree(tmp_path, module, "X = 1\n", extension=False)
    assert accelerator.decide(module, tmp_path, {}, pure=False).startswith("source: not compiled")


def test_the_manifest_reads_lines_and_tolerates_a_missing_or_broken_file(tmp_path):
    manifest = tmp_path / accelerator.MANIFEST
    assert accelerator.read_manifest(manifest) == {}
    manifest.write_text("logicpy.core.terms 0a1b2c3d\n\nlogicpy.core.lists ffffffff\n")
    assert accelerator.read_manifest(manifest) == {"logicpy.core.terms": "0a1b2c3d", "logicpy.core.lists": "ffffffff"}
    manifest.write_text("one two three\n")
    assert accelerator.read_manifest(manifest) == {}


def test_cover_is_not_compiled():
    # its bitsets shift by len(...), which compiled code would compute in C integers
    assert "logicpy.core.cover" not in accelerator.MODULES
