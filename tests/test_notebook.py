"""docs/examples.ipynb runs headless in a fresh kernel, and both its stored outputs and the
fresh ones show each puzzle's known answer in its rich display."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import permutations
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the test extra brings nbformat, nbclient and ipykernel")
nbclient = pytest.importorskip("nbclient", reason="the test extra brings nbformat, nbclient and ipykernel")
pytest.importorskip("ipykernel", reason="the test extra brings nbformat, nbclient and ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


def results(nb) -> list[dict[str, str]]:
    """Each code cell's result, as its MIME bundle; no cell may fail or print an error."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
        (result,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        out.append(dict(result.data))
    return out


def check_answers(nb) -> None:
    core, table, tree, zebra, steps, cheryl, days, walks = results(nb)
    assert core["text/plain"] == "(([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))"
    assert table["text/html"].count("<tr>") == 3 and "dif(_0,2)" in table["text/plain"]
    # the question tree: one picture whose leaves tell all six orders of the gods apart
    page = tree["text/html"]
    assert "solution found" in page and page.count("<svg") == 1
    leaves = re.findall(r'class="leaf">(\w+)<', page)
    assert len(leaves) == 8 and {"".join(p) for p in permutations("TFR")} <= set(leaves)
    # the zebra: the Japanese owns it, the Norwegian drinks water
    rows = re.findall(r"<tr>(.*?)</tr>", zebra["text/html"])
    assert any("<td>Japanese</td>" in r and "<td>Zebra</td>" in r for r in rows)
    assert any("<td>Norwegian</td>" in r and "<td>Water</td>" in r for r in rows)
    assert re.fullmatch(r"<einstein explanation: \d+ steps, 0 guesses, solved>", steps["text/plain"])
    assert "July 16" in cheryl["text/plain"] and "unique solution: July 16" in cheryl["text/html"]
    assert "<svg" in cheryl["text/html"]
    assert "7 solutions" in days["text/html"] and days["text/html"].count("<svg") == 2
    picture = ET.fromstring(walks["image/svg+xml"])
    assert len(list(picture.iter(f"{SVG}circle"))) == 9 * 6


def test_the_stored_notebook_is_executed_and_shows_the_answers():
    check_answers(nbformat.read(NOTEBOOK, as_version=4))


def test_the_notebook_runs_headless_and_shows_the_answers(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    check_answers(nb)
