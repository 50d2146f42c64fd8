"""Start-up: what `logicpy repl` and `import logicpy.core` import before they are needed.

A query that needs no puzzle imports no puzzle module and no numpy; the core's finite
domains, tabling, exact cover and facts are imported on first use; and the toplevel's
relations, once complete, are exactly what loading every default module at start gives.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

from logicpy.repl import Toplevel, run_piped
from logicpy.repl import goals
from logicpy.repl.relations import Relations

#: Modules of the core that `import logicpy.core` leaves for their first use.
ON_FIRST_USE = ("logicpy.core.fd.goals", "logicpy.core.fd.propagators", "logicpy.core.fd.store",
                "logicpy.core.fd.channel", "logicpy.core.fd.disjunction", "logicpy.core.tabling",
                "logicpy.core.cover", "logicpy.core.facts")


def _fresh(code: str, stdin: str = "") -> tuple[str, list[str]]:
    """Run `code` in a fresh interpreter; (its standard output, the modules it ended with)."""
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                           "print(json.dumps(sorted(sys.modules)), file=sys.stderr)"],
                          input=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(done.stderr.splitlines()[-1])


def _repl(query: str) -> tuple[str, list[str]]:
    return _fresh("from logicpy.cli import main\nmain(['repl'])", query)


def test_a_plain_query_imports_no_puzzle_and_no_numpy():
    out, modules = _repl("member(X,[1,2]).\n")
    assert out.splitlines() == ["X = 1 ;", "X = 2."]
    assert "numpy" not in modules
    assert [m for m in modules if m.startswith("logicpy.puzzles")] == []
    assert [m for m in modules if m in ON_FIRST_USE and m != "logicpy.core.fd.store"] == []


def test_a_puzzle_relation_is_loaded_when_a_query_names_it():
    out, modules = _repl("godo(2, T, W).\n")
    assert out.splitlines()[0] == "T = falsely, W = world([truly, falsely, random], da_yes, [none, none, ja]) ;"
    assert "logicpy.puzzles.gods.relations" in modules


def test_an_fd_query_loads_the_fd_goals():
    out, modules = _repl("X #> 1, X #< 3.\n")
    assert out.splitlines() == ["X = 2."]
    assert "logicpy.core.fd.goals" in modules


def test_importing_the_core_leaves_fd_tabling_cover_and_facts_for_later():
    _, modules = _fresh("import logicpy.core")
    assert [m for m in ON_FIRST_USE if m in modules] == []
    assert "numpy" not in modules and "inspect" in modules  # the search's own needs stay


def test_the_cores_names_are_all_there_when_asked_for():
    import logicpy.core as core
    from logicpy.core import fd
    from logicpy.core.fd.goals import labelo
    from logicpy.core.tabling import tabled

    assert set(core.__all__) <= set(dir(core))
    assert all(getattr(core, name) is not None for name in core.__all__)
    assert core.labelo is labelo and core.tabled is tabled and fd.labelo is labelo
    names: dict[str, object] = {}
    exec("from logicpy.core import *", names)
    assert set(core.__all__) <= set(names)


def test_the_core_refuses_a_name_it_does_not_have():
    import logicpy.core as core
    from logicpy.core import fd

    for module in (core, fd):
        try:
            module.no_such_name  # type: ignore[attr-defined]
        except AttributeError as exc:
            assert "no_such_name" in str(exc)
        else:
            raise AssertionError("no AttributeError")


def _everything_at_start() -> goals.Relations:
    eager = goals.Relations()
    for name in goals.DEFAULT_MODULES:
        eager.load(name)
    return eager


def test_completed_relations_equal_every_default_module_loaded_at_start():
    top = Toplevel(out=io.StringIO(), err=io.StringIO())
    assert not top.relations.complete
    assert top.relations.table.get("membero") is not None and not top.relations.complete  # a hit loads nothing
    assert top.relations.table.get("godo") is not None and top.relations.complete  # a miss completes
    eager = _everything_at_start()
    assert dict(top.relations.table) == dict(eager.table)
    assert dict(top.relations.source) == dict(eager.source)


def test_a_name_defined_before_completion_keeps_its_place():
    relations = Relations()
    relations.load("logicpy.core")

    def mine(x):  # a user's own relation, named as a puzzle's and as a core one
        return goals.core.eq(x, 1)

    relations.table["godo"] = relations.table["membero"] = mine
    assert relations.table.get("missing") is None and relations.complete
    assert relations.table["godo"] is mine and relations.table["membero"] is mine
    assert relations.table["labelo"] is goals.core.labelo and relations.table["questiono"] is not None


def test_help_lists_the_same_relations_as_before():
    out = io.StringIO()
    run_piped(Toplevel(out=out, err=io.StringIO()), io.StringIO("help.\n"))
    listed = {line.split(":")[0]: set(line.split(": ", 1)[1].split())
              for line in out.getvalue().splitlines() if line.startswith("% from ")}
    eager = _everything_at_start()
    expected: dict[str, set[str]] = {}
    for name, module in eager.source.items():
        expected.setdefault(f"% from {module.__name__}", set()).add(name)
    assert listed == expected


def test_use_module_of_the_core_lists_every_core_relation():
    out = io.StringIO()
    top = Toplevel(out=out, err=io.StringIO())
    run_piped(top, io.StringIO("use_module('logicpy.core').\n"))
    core_names = {n for n, m in _everything_at_start().source.items() if m.__name__ == "logicpy.core"}
    first = out.getvalue().splitlines()[0]
    assert first.startswith(f"% {len(core_names)} relations from logicpy.core: ")
    assert set(first.split(": ", 1)[1].split(", ")) == core_names
