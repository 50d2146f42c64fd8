"""A user's code type-checked against logicpy: `@relation` and the library's relations keep
their signatures, `run` returns a tuple (or an iterator for n=None)."""

from __future__ import annotations

import textwrap

import pytest

api = pytest.importorskip("mypy.api")

USER = '''
from typing import Any, Iterator

from logicpy.core import appendo, conde, eq, relation, run, var


@relation
def pairo(x: Any, y: Any) -> Any:
    return conde([eq(x, 1), eq(y, 2)])


q = var()
bad: int = run(1, q, appendo([1], [2], q))
too_many = pairo(1, 2, 3)
too_few = appendo([1], [2])
fine: tuple[Any, ...] = run(0, q, pairo(q, 2))
lazy: Iterator[Any] = run(None, q, pairo(q, 2))
'''


def test_signatures_survive_the_decorators(tmp_path):
    path = tmp_path / "user.py"
    path.write_text(textwrap.dedent(USER))
    out, _, status = api.run(["--strict", "--follow-imports=silent", "--no-error-summary", str(path)])
    errors = {int(line.split(":")[1]): line for line in out.splitlines() if ": error:" in line}
    lines = USER.splitlines()
    assert sorted(errors) == [lines.index(s) + 1 for s in (
        "bad: int = run(1, q, appendo([1], [2], q))", "too_many = pairo(1, 2, 3)", "too_few = appendo([1], [2])")], out
    assert "tuple[Any, ...]" in errors[min(errors)]
