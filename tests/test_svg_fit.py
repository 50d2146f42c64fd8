"""Every picture logicpy draws holds its text: each label lies inside the canvas and inside
the box it belongs to, and no two labels overlap. Each picture kind is drawn from several
inputs, long labels included; text is measured with the same font table the pictures name."""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.puzzles import calendar, epistemic, gods, prisoners
from logicpy.puzzles.calendar.render import render_svg as calendar_svg
from logicpy.puzzles.epistemic.stories import COMPLEX, SUM_PRODUCT, birthday
from logicpy.puzzles.epistemic.svg import render_svg as chart_svg
from logicpy.puzzles.gods.census.cli import heat_map_svg
from logicpy.puzzles.gods.display import tree_svg
from logicpy.puzzles.prisoners.model import Arrangement, Design
from logicpy.svgtext import (ASCENT, DESCENT, FONT_FAMILY, Box, bounding_box, polygons_overlap, text_corners,
                             text_width, wrap)

NS = "{http://www.w3.org/2000/svg}"
INHERITED = ("font-size", "font-weight", "text-anchor")


def labels(svg: str) -> tuple[Box, list[tuple[str, list[tuple[float, float]], Box | None]]]:
    """The canvas (checked to be drawn at scale 1 in the measured font), and every line of
    text: its words, the corners of the box it fills, the box of the group it belongs to."""
    root = ET.fromstring(svg)
    left, top, width, height = map(float, root.get("viewBox", "").split())
    assert (float(root.get("width", 0)), float(root.get("height", 0))) == (width, height)
    assert root.get("font-family") == FONT_FAMILY
    out: list[tuple[str, list[tuple[float, float]], Box | None]] = []

    def walk(node: ET.Element, style: dict[str, str], container: Box | None) -> None:
        style = {**style, **{k: node.get(k) for k in INHERITED if node.get(k) is not None}}
        assert node.get("font-family") in (None, FONT_FAMILY)
        if node.tag == f"{NS}g":
            rect = node.find(f"{NS}rect")
            if rect is not None:
                container = Box(float(rect.get("x")), float(rect.get("y")),
                                float(rect.get("x")) + float(rect.get("width")),
                                float(rect.get("y")) + float(rect.get("height")))
        if node.tag == f"{NS}text":
            out.extend((words, corners, container) for words, corners in lines_of(node, style))
            return
        for child in node:
            walk(child, style, container)

    walk(root, {}, None)
    return Box(left, top, left + width, top + height), out


def lines_of(node: ET.Element, style: dict[str, str]) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each line of a `<text>` (its text, then its `<tspan>`s) with the corners of its box."""
    size, bold, anchor = float(style["font-size"]), style.get("font-weight") == "bold", style.get("text-anchor",
                                                                                                     "start")
    ox, oy, angle = 0.0, 0.0, 0.0
    if node.get("transform"):
        m = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)", node.get("transform", ""))
        assert m, node.get("transform")
        ox, oy, angle = map(float, m.groups())
    x, y = float(node.get("x", 0)), float(node.get("y", 0))
    parts = [(node.text or "", x, y)]
    for span in node.findall(f"{NS}tspan"):
        x, y = float(span.get("x", x)), y + float(span.get("dy", 0))
        parts.append((span.text or "", x, y))
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(words, [(ox + px * c - py * s, oy + px * s + py * c)
                     for px, py in text_corners(words, x, y, size, anchor, bold)])
            for words, x, y in parts]


def words(svg: str) -> list[str]:
    """The text of each `<text>`, its lines joined by spaces."""
    return [" ".join(" ".join(t.itertext()).split()) for t in ET.fromstring(svg).iter(f"{NS}text")]


def check_fits(svg: str) -> int:
    """Assert that every label fits; the number of labels."""
    canvas, found = labels(svg)
    assert found
    for words, corners, container in found:
        assert words.strip(), "an empty label"
        assert canvas.contains(bounding_box(corners), slack=0.1), f"{words!r} leaves the canvas {canvas}"
        if container is not None:
            assert container.contains(bounding_box(corners), slack=0.1), f"{words!r} leaves its box {container}"
    for i, (a, ca, _) in enumerate(found):
        for b, cb, _ in found[i + 1:]:
            assert not polygons_overlap(ca, cb), f"{a!r} overlaps {b!r}"
    return len(found)


# -- the measure ----------------------------------------------------------------------------------
def test_widths_add_up_per_character_and_scale_with_the_size():
    assert text_width("", 12) == 0
    assert text_width("ja da", 12) == pytest.approx(text_width("ja", 12) + text_width(" ", 12) + text_width("da", 12))
    assert text_width("Wednesday", 24) == pytest.approx(2 * text_width("Wednesday", 12))
    assert text_width("MMM", 12) > text_width("iii", 12)  # a proportional font
    assert text_width("TFR", 12, bold=True) > text_width("TFR", 12)
    assert text_width("漢", 10) == 10  # a character the table lacks counts as one em


def _dejavu_widths(path: Path, text: str) -> list[int]:
    """Advance widths (font units) of `text`'s characters, read from a TrueType file's
    `cmap` (format 4) and `hmtx` tables."""
    data = path.read_bytes()
    tables = {data[12 + 16 * i:16 + 16 * i].decode("latin-1"): struct.unpack(">II", data[20 + 16 * i:28 + 16 * i])
              for i in range(struct.unpack(">H", data[4:6])[0])}
    hhea, hmtx, cmap = tables["hhea"][0], tables["hmtx"][0], tables["cmap"][0]
    metrics = struct.unpack(">H", data[hhea + 34:hhea + 36])[0]
    subtables = [struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
                 for i in range(struct.unpack(">H", data[cmap + 2:cmap + 4])[0])]
    offset = next(cmap + off for platform, encoding, off in subtables if (platform, encoding) == (3, 1))
    segments = struct.unpack(">H", data[offset + 6:offset + 8])[0] // 2
    ends = struct.unpack(f">{segments}H", data[offset + 14:offset + 14 + 2 * segments])
    base = offset + 16 + 2 * segments
    starts = struct.unpack(f">{segments}H", data[base:base + 2 * segments])
    deltas = struct.unpack(f">{segments}h", data[base + 2 * segments:base + 4 * segments])
    ranges_at = base + 4 * segments
    ranges = struct.unpack(f">{segments}H", data[ranges_at:ranges_at + 2 * segments])

    def glyph(code: int) -> int:
        k = next(i for i, end in enumerate(ends) if end >= code)
        assert starts[k] <= code
        if ranges[k] == 0:
            return (code + deltas[k]) & 0xFFFF
        at = ranges_at + 2 * k + ranges[k] + 2 * (code - starts[k])
        return (struct.unpack(">H", data[at:at + 2])[0] + deltas[k]) & 0xFFFF

    def advance(g: int) -> int:
        g = min(g, metrics - 1)
        return struct.unpack(">H", data[hmtx + 4 * g:hmtx + 4 * g + 2])[0]

    return [advance(glyph(ord(ch))) for ch in text]


@pytest.mark.parametrize("bold", [False, True])
def test_the_stored_widths_are_dejavu_sans(bold):
    path = Path("/usr/share/fonts/truetype/dejavu") / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if not path.exists():
        pytest.skip(f"{path} is not installed here")
    sample = "".join(map(chr, range(32, 127))) + "àéöß×·–…→≤φΣ"
    for ch, units in zip(sample, _dejavu_widths(path, sample)):
        assert text_width(ch, 2048, bold) == units, ch


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz WM.,", min_size=1, max_size=12), min_size=1,
                max_size=12), st.integers(30, 300), st.booleans())
def test_wrapped_lines_fit_and_keep_every_word(words, width, bold):
    text = " ".join(words)
    lines = wrap(text, 12, width, bold)
    assert all(text_width(line, 12, bold) <= width or len(line) == 1 for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.split())


def test_a_turned_label_turns_its_box():
    flat = bounding_box(text_corners("start", 10, 20, 12))
    assert flat.height == pytest.approx((ASCENT + DESCENT) * 12) and flat.width == pytest.approx(text_width("start", 12))
    up = bounding_box(text_corners("start", 10, 20, 12, angle=-90))
    assert up.width == pytest.approx(flat.height) and up.height == pytest.approx(flat.width) and up.bottom <= 20 + 4


def test_overlap_is_of_area_not_of_bounding_boxes():
    # two labels turned 45° side by side: their bounding boxes meet, the labels do not
    a, b = text_corners("2. Bernard", 0, 0, 12, angle=-45), text_corners("3. Albert", 26, 0, 12, angle=-45)
    assert bounding_box(a).overlaps(bounding_box(b)) and not polygons_overlap(a, b)
    assert polygons_overlap(text_corners("ja", 0, 0, 12), text_corners("da", 8, 0, 12))


# -- the pictures ---------------------------------------------------------------------------------
EXPLODE = replace(gods.CLASSIC, semantics=gods.Semantics("explode"), name="explode")


@pytest.mark.parametrize("puzzle, questions, complexity", [
    (gods.CLASSIC, 3, 1), (EXPLODE, 2, 2), (gods.KNIGHT_OR_KNAVE, 1, 1), (gods.FOUR_GODS, 4, 2),
    (gods.RANDOM_NOT_FIRST, 3, 1),
], ids=["classic", "explode", "knight", "four", "random-not-first"])
def test_gods_trees_fit(puzzle, questions, complexity):
    result = gods.solve(puzzle, questions=questions, complexity=complexity)
    assert result.tree is not None
    svg = tree_svg(result.tree, result.puzzle)
    check_fits(svg)
    # the questions are written out whole: no line is cut short
    root = ET.fromstring(svg)
    written = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "question"]
    assert written and all(q.rstrip().endswith("?") for q in written)


def test_the_explode_legend_holds_each_whole_question():
    result = gods.solve(EXPLODE, questions=2, complexity=2)
    root = ET.fromstring(tree_svg(result.tree, result.puzzle))
    texts = [t for t in root.iter(f"{NS}text") if t.get("class") == "question"]
    longest = max(texts, key=lambda t: len("".join(t.itertext())))
    assert len(longest.findall(f"{NS}tspan")) >= 1  # a long question wraps rather than runs off
    assert "your answer to this question is ja" in " ".join(" ".join(longest.itertext()).split())


LONG_STORY = birthday("eve", show=lambda d: f"day {d.day} of the month numbered {d.month}",
                      name="A birthday story with a title much longer than its chart is wide")


@pytest.mark.parametrize("story", [epistemic.CLASSIC, COMPLEX, SUM_PRODUCT, LONG_STORY],
                         ids=["classic", "complex", "sum-product", "long-labels"])
def test_survival_charts_fit(story):
    svg = chart_svg(epistemic.solve(story))
    count = check_fits(svg)
    assert count >= 1 + len(epistemic.solve(story).steps) + 1
    texts = words(svg)
    assert story.name in texts and all("…" not in t or t.startswith("… and") for t in texts)  # nothing cut


def test_cheryls_column_titles_are_whole():
    texts = set(words(chart_svg(epistemic.solve(epistemic.CLASSIC))))
    assert {"start", "1. Albert", "2. Bernard", "3. Albert"} <= texts


def _row(n: int, types: str, semantics: str, status: str, q: int | None, c: int | None) -> dict:
    return {"n": n, "types": types, "semantics": semantics, "status": status, "least_questions": q,
            "least_complexity": c}


HEAT_ROWS = {
    "four-gods, one column": [_row(4, "TFR", "free", "solvable", 3, 2), _row(4, "TFR", "free", "unsolvable", None, None),
                              _row(4, "TF", "free", "solvable", 1, 1), _row(4, "T", "free", "solvable", 0, 0)],
    "wide cells": [_row(n, types, s, status, 12 if status == "solvable" else None, 10)
                   for n in (3, 4) for types in ("TFR", "TFRXYZ") for s in ("free", "explode-silent", "boolos")
                   for status in ["solvable"] + ["unsolvable"] * 12 + ["timeout"] * 3],
}


@pytest.mark.parametrize("rows", HEAT_ROWS.values(), ids=HEAT_ROWS.keys())
def test_census_heat_maps_fit(rows):
    svg = heat_map_svg(rows)
    check_fits(svg)
    assert "?k = k puzzles that ran out of time" in words(svg)[-1]  # the whole key


def test_the_wide_census_cell_says_all_it_counts():
    texts = words(heat_map_svg(HEAT_ROWS["wide cells"]))
    assert "q12 c10 ×12 ?3" in texts and "4 gods, TFRXYZ" in texts


def test_a_real_census_heat_map_fits():
    from logicpy.puzzles.gods.census.solve import Task, examine, puzzle_space

    rows = [examine(Task(spec, semantics, 2, 1)) for spec in puzzle_space([1, 2])
            for semantics in ("free", "silent", "explode")]
    assert check_fits(heat_map_svg(rows)) > len(rows)


@pytest.mark.parametrize("board, date, title", [
    ("standard", ("Oct", "6"), "October 6"),
    ("weekday", ("Oct", "6", "Tue"), "Tuesday October 6, drawn with a title longer than the board is wide"),
    ("standard", ("Feb", "29"), None),
])
def test_calendar_tilings_fit(board, date, title):
    puzzle = {"standard": calendar.STANDARD, "weekday": calendar.WEEKDAY}[board]
    svg = calendar_svg(next(calendar.tilings(puzzle, date)), title=title)
    check_fits(svg)
    assert sorted(words(svg)) == sorted(list(date) + ([title] if title else []))


ARRANGEMENTS = {
    "nine prisoners": lambda: prisoners.solve(prisoners.PRISONERS),
    "kirkman": lambda: prisoners.solve(prisoners.KIRKMAN),
    "long numbers": lambda: Arrangement(((( 1000001, 1000002, 1000003), (1000004, 1000005, 1000006)),
                                         ((1000001, 1000004, 1000002), (1000003, 1000006, 1000005))),
                                        Design(6, 3, 2, "row")),
}


@pytest.mark.parametrize("make", ARRANGEMENTS.values(), ids=ARRANGEMENTS.keys())
def test_prisoner_walks_fit(make):
    arrangement = make()
    count = check_fits(arrangement._repr_svg_())
    assert count == len(arrangement.days) * (1 + sum(len(row) for row in arrangement.days[0]))


@pytest.mark.parametrize("name", ["gods-census-3gods.svg", "gods-census-4gods.svg"])
def test_the_documentation_census_pictures_fit(name):
    svg = (Path(__file__).resolve().parent.parent / "docs" / name).read_text(encoding="utf-8")
    assert check_fits(svg) > 50 and "?k = k puzzles that ran out of time" in words(svg)[-1]
