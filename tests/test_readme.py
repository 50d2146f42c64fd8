"""Every python block in README.md is executed, in order, in one namespace.

Blocks with `>>>` prompts run as doctests, so their printed output is checked too.
A block whose first line is `# needs SWI-Prolog` is skipped where SWI-Prolog cannot be
used (and fails under LOGICPY_REQUIRE_SWI=1, like every other Prolog test).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from conftest import REQUIRE_SWI, swi_missing_reason

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NEEDS_SWI = "# needs SWI-Prolog"


def python_blocks() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_readme_has_python_blocks():
    assert python_blocks(), "README.md should show logicpy in python blocks"


def test_readme_python_blocks_run():
    namespace: dict = {"__name__": "readme"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    swi_reason = swi_missing_reason()
    skipped = []
    for number, block in enumerate(python_blocks(), 1):
        if block.startswith(NEEDS_SWI) and swi_reason:
            if REQUIRE_SWI:
                pytest.fail(f"README block {number} needs SWI-Prolog: {swi_reason}")
            skipped.append(number)
            continue
        if ">>>" in block:
            test = parser.get_doctest(block, namespace, f"README block {number}", str(README), 0)
            result = runner.run(test, clear_globs=False)
            if result.failed:
                pytest.fail(f"README python block {number} printed something else (see the output above)")
        else:
            exec(compile(block, f"README block {number}", "exec"), namespace)
    if skipped:
        pytest.skip(f"README blocks {skipped} need SWI-Prolog: {swi_reason} (all other blocks ran)")
