"""logicpy as people install it: the distribution name users are told, the shipped files found
by name, the package metadata, and the optional extras' messages when they are missing.
(scripts/wheel-check.sh builds the wheel and runs the README's commands from it.)"""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11 on

from logicpy import data
from logicpy.cli import main
from logicpy.errors import InputError
from logicpy.extras import DISTRIBUTION, EXTRAS, install_hint, require

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: `pip install logicpy`, `pip install 'logicpy[prolog]'`, `pip install -U "logicpy"`: the name on
#: the index that is another project. `logicpy-engine` and paths (`-e .`) do not match.
BARE_NAME = re.compile(r"""pip3? install\s+(?:-{1,2}[\w-]+\s+)*['"]?logicpy(?![\w.-])""")


def user_facing_texts() -> list[Path]:
    """README, the docs, and the package's source (its strings reach users as help and errors)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "logicpy").rglob("*.py"))]


def test_the_pattern_catches_the_bare_name_only():
    assert BARE_NAME.search("pip install logicpy") and BARE_NAME.search("run: pip install 'logicpy[prolog]'")
    assert BARE_NAME.search('pip install -U "logicpy[distributed]"') and BARE_NAME.search("pip3 install logicpy\n")
    for fine in ("pip install logicpy-engine", "pip install 'logicpy-engine[prolog]'", "pip install -e .",
                 "pip install miniKanren", "pip install logicpy_engine", install_hint("prolog")):
        assert not BARE_NAME.search(fine), fine


def test_no_text_tells_a_user_to_install_the_bare_name():
    offenders = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                 for path in user_facing_texts()
                 for text in [path.read_text(encoding="utf-8")]
                 for m in BARE_NAME.finditer(text)]
    assert offenders == []


def test_the_distribution_name_is_the_one_users_are_told():
    assert PYPROJECT["project"]["name"] == DISTRIBUTION == "logicpy-engine"
    assert PYPROJECT["project"]["scripts"] == {"logicpy": "logicpy.cli:main"}
    assert install_hint("prolog") == "pip install 'logicpy-engine[prolog]'"
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras) and extras["all"] == [f"{DISTRIBUTION}[{','.join(extras['all'][0][len(DISTRIBUTION) + 1:-1].split(','))}]"]
    assert set(extras["all"][0][len(DISTRIBUTION) + 1:-1].split(",")) == set(EXTRAS)


def test_the_version_comes_from_the_installed_distribution():
    import logicpy
    from importlib.metadata import version

    assert logicpy.__version__ == version(DISTRIBUTION) == PYPROJECT["project"]["version"]


def test_metadata_license_and_classifiers():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    notice = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert notice.startswith("MIT License") and "Copyright (c) 2026 the logicpy authors" in notice
    assert "Permission is hereby granted, free of charge" in notice
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # the SPDX field says it
    assert "Typing :: Typed" in project["classifiers"] and (ROOT / "logicpy" / "py.typed").is_file()
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(project["urls"])


def test_rich_and_pynauty_are_extras_not_requirements():
    names = [re.split(r"[<>=\[ ]", d)[0].lower() for d in PYPROJECT["project"]["dependencies"]]
    assert "rich" not in names and "pynauty" not in names
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert extras["rich"] == ["rich>=13"] and extras["nauty"] == ["pynauty>=2.8"]


def test_every_shipped_file_is_package_data():
    """Each file under logicpy/data matches a package-data glob, so it is in the wheel."""
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["logicpy"]
    files = [p.relative_to(ROOT / "logicpy").as_posix() for p in (ROOT / "logicpy" / "data").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.name != "__init__.py"]
    assert len(files) > 30
    unshipped = [f for f in files if not any(fnmatch.fnmatch(f, g) and "/" not in f[len(g.rsplit("/", 1)[0]) + 1:]
                                             for g in globs)]
    assert unshipped == []


def test_the_sdist_holds_the_tests_and_what_they_read():
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert {"graft tests", "graft logicpy/data", "graft docs", "graft bench"} <= set(manifest)
    (include,) = [line.split()[1:] for line in manifest if line.startswith("include ")]
    assert {"conftest.py", "LICENSE", "README.md", "mkdocs.yml"} <= set(include)
    # the tests read these trees: the docs' examples and site, the benchmarks' baselines
    readers = {"docs": "test_docs.py", "bench": "test_bench_cli.py"}
    assert all((ROOT / "tests" / test).is_file() and (ROOT / tree).is_dir() for tree, test in readers.items())


def test_wheel_check_runs_the_sdists_whole_fast_suite():
    script = (ROOT / "scripts" / "wheel-check.sh").read_text(encoding="utf-8")
    run = [line for line in script.splitlines() if "-m pytest" in line]
    assert len(run) == 1 and '-m "not slow"' in run[0] and "tests/" not in run[0]  # the whole suite, no sample
    assert 'cd "$work/$base"' in run[0] and "[all,test]" in script


# -- shipped files, found by name ---------------------------------------------------------------
def test_a_shipped_prolog_file_by_name_suffix_or_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nowhere near the source tree
    lists = data.PROLOG / "lists.pl"
    assert data.prolog_file("lists") == data.prolog_file("lists.pl") == data.prolog_file("prolog/lists.pl") == lists
    assert data.prolog_file("bench/nrev") == data.PROLOG_BENCH / "nrev.pl"
    assert data.einstein_game("zebra") == data.EINSTEIN / "zebra.json"  # .json before .txt
    assert data.einstein_game("zebra.txt").suffix == ".txt"
    assert data.einstein_game("examples/einstein/bake_sale.txt") == data.EINSTEIN / "bake_sale.txt"


def test_a_path_that_exists_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lists.pl").write_text("mine(1).\n", encoding="utf-8")
    assert data.prolog_file("lists") == Path("lists.pl")
    assert data.prolog_file("lists.pl") == Path("lists.pl")
    assert data.prolog_file(tmp_path / "lists.pl") == tmp_path / "lists.pl"


@pytest.mark.parametrize("find, name", [(data.prolog_file, "nosuch"), (data.prolog_file, "../data/prolog/lists"),
                                        (data.einstein_game, "nosuch.json"), (data.einstein_game, "lists.pl")])
def test_an_unknown_name_says_where_the_list_is(find, name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=rf"^{re.escape(name)}: no such .*`logicpy files` lists them"):
        find(name)


def test_the_listing_names_every_shipped_file(capsys):
    assert main(["files"]) == 0
    out = capsys.readouterr().out
    for path in [*data.PROLOG.rglob("*.pl"), *data.EINSTEIN.iterdir(), *data.EXAMPLES.glob("*.py")]:
        assert str(path.relative_to(path.parent.parent if path.parent.name == "bench" else path.parent)) in out
    assert data.shipped("prolog")[:1] == ["bench/ackermann.pl"] and "zebra_clpfd.pl" in data.shipped("prolog")
    assert data.shipped("einstein") == ["bake_sale.json", "bake_sale.txt", "zebra.json", "zebra.txt"]


def test_files_name_prints_the_path_of_one(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "zebra.py").write_text("", encoding="utf-8")  # the shipped one is meant, not this
    assert main(["files", "zebra.py"]) == 0
    assert Path(capsys.readouterr().out.strip()) == (data.EXAMPLES / "zebra.py").resolve()
    assert main(["files", "gods"]) == 0
    assert Path(capsys.readouterr().out.strip()) == (data.PROLOG / "gods.pl").resolve()
    assert main(["files", "nosuch"]) == 2
    assert "nosuch: no shipped file" in capsys.readouterr().err


def test_commands_take_a_shipped_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["einstein", "zebra"]) == 0
    assert re.search(r"Japanese +Green +Coffee +Parliament +Zebra", capsys.readouterr().out)
    from logicpy.prolog import consult

    program = consult("bench/nrev")  # the logicpy engine, not SWI-Prolog
    assert program.query("nrev([1, 2, 3], L)") == [{"L": [3, 2, 1]}]


def test_a_shipped_example_runs_from_anywhere(tmp_path):
    done = subprocess.run([sys.executable, str(data.EXAMPLES / "zebra.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Japanese" in done.stdout, done.stderr


@pytest.mark.swi
def test_swi_consults_a_shipped_name(tmp_path, monkeypatch):
    from logicpy import swi

    monkeypatch.chdir(tmp_path)
    module = swi.consult("lists")
    assert module.path == data.PROLOG / "lists.pl"
    assert len(module.query("append(X, Y, [1, 2])")) == 3


# -- optional extras ----------------------------------------------------------------------------
def test_a_missing_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynauty", None)  # import pynauty now raises ImportError
    with pytest.raises(InputError, match=r"^testing needs pynauty: pip install 'logicpy-engine\[nauty\]'$"):
        require("pynauty", "nauty", "testing")


def test_distinct_without_pynauty_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pynauty", None)
    assert main(["prisoners", "--distinct"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'logicpy-engine[nauty]'" in err and len(err.strip().splitlines()) == 1


def test_progress_without_rich_draws_nothing(monkeypatch):
    import importlib.util

    from logicpy.progress import terminal_progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "rich" else real(name, *a))
    with terminal_progress() as bar:
        assert bar is None


@pytest.mark.parametrize("with_rich", [True, False])
def test_census_table_with_and_without_rich(monkeypatch, with_rich):
    from logicpy.puzzles.gods.census.cli import _boxed_table

    if not with_rich:
        monkeypatch.setitem(sys.modules, "rich.console", None)
    text = _boxed_table("t", ["class", "free"], [["q2 c1", "5"], ["q3 c2", "120"]])
    lines = text.splitlines()
    assert lines[0].strip() == "t"
    rows = [line for line in lines if "q2 c1" in line or "q3 c2" in line]
    assert len(rows) == 2
    # the number column is right-aligned: its last digits line up
    assert rows[0].index("5") == rows[1].index("120") + 2
    assert rows[0].index("q2") == rows[1].index("q3")  # the first column left-aligned


def test_make_demo_installs_no_extras():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo_rule = makefile[makefile.index("$(DEMO_STAMP): pyproject.toml"):].split("\n\n")[0]
    assert "pip install --quiet -e .\n" in demo_rule + "\n" and "[" not in demo_rule.split("pip install")[1]
    ci = ROOT / ".ci" / "run"  # not in the sdist
    assert not ci.exists() or "make wheel-check" in ci.read_text(encoding="utf-8")
