"""Text in hand-drawn SVG pictures: how wide a label is (a stored font-metrics table), the box
it fills, lines wrapped to a width, and `Picture`, a canvas whose size and viewBox grow to hold
everything drawn on it.

Every picture names `FONT_FAMILY`: DejaVu Sans (most Linux systems), else Verdana (macOS,
Windows), whose proportions are close, else any sans-serif. Widths are DejaVu Sans's advance
widths (Book and Bold; Oblique advances as Book), in units of 1/2048 em, for ASCII, Latin-1
and the symbols the puzzles print; any other character counts as one em. Kerning is ignored,
which can only overstate a width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Iterable, Sequence

__all__ = ["FONT_FAMILY", "ASCENT", "DESCENT", "text_width", "wrap", "Box", "text_box", "text_corners",
           "bounding_box", "polygons_overlap", "Picture"]

#: The font-family attribute of every picture: the font measured here first.
FONT_FAMILY = "'DejaVu Sans', Verdana, sans-serif"
#: Above and below the baseline, in em (DejaVu Sans's line ascent and descent).
ASCENT, DESCENT = 1901 / 2048, 483 / 2048

_UNITS = 2048
# The characters after ASCII that the tables hold, in their order.
_EXTRA = '\xa0¡¢£¤¥¦§¨©ª«¬\xad®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ–—‘’“”…−→←↔⇔≤≥≠∧∨⊆∋φΣ↦●○'

# Advance widths of ' ' (32) to '~' (126), then of _EXTRA, in 1/2048 em.
_REGULAR = (
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303, 1303,
    1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178,
    1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251,
    1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995,
    1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716, 651, 821,
    1303, 1303, 1303, 1303, 690, 1024, 1024, 2048, 965, 1253, 1716, 739, 2048, 1024, 1024, 1716, 821, 821, 1024,
    1303, 1303, 651, 1024, 821, 965, 1253, 1985, 1985, 1985, 1087, 1401, 1401, 1401, 1401, 1401, 1401, 1995, 1430,
    1294, 1294, 1294, 1294, 604, 604, 604, 604, 1587, 1532, 1612, 1612, 1612, 1612, 1612, 1716, 1612, 1499, 1499,
    1499, 1499, 1251, 1239, 1290, 1255, 1255, 1255, 1255, 1255, 1255, 2011, 1126, 1260, 1260, 1260, 1260, 569, 569,
    569, 569, 1253, 1298, 1253, 1253, 1253, 1253, 1253, 1716, 1253, 1298, 1298, 1298, 1298, 1212, 1300, 1212, 1024,
    2048, 651, 651, 1061, 1061, 2048, 1716, 1716, 1716, 1716, 1716, 1716, 1716, 1716, 1499, 1499, 1716, 1784, 1351,
    1294, 1716, 1787, 1787
)
_BOLD = (
    713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425, 1425,
    1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700, 1399, 1399,
    1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483,
    1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134,
    1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716, 713, 934,
    1425, 1425, 1303, 1425, 748, 1024, 1024, 2048, 1155, 1323, 1716, 850, 2048, 1024, 1024, 1716, 897, 897, 1024,
    1507, 1303, 778, 1024, 897, 1155, 1323, 2120, 2120, 2120, 1188, 1585, 1585, 1585, 1585, 1585, 1585, 2222, 1503,
    1399, 1399, 1399, 1399, 762, 762, 762, 762, 1716, 1714, 1741, 1741, 1741, 1741, 1741, 1716, 1741, 1663, 1663,
    1663, 1663, 1483, 1511, 1473, 1382, 1382, 1382, 1382, 1382, 1382, 2146, 1214, 1389, 1389, 1389, 1389, 702, 702,
    702, 702, 1407, 1458, 1407, 1407, 1407, 1407, 1407, 1716, 1407, 1458, 1458, 1458, 1458, 1335, 1466, 1335, 1024,
    2048, 778, 778, 1346, 1346, 2048, 1716, 1716, 1716, 1716, 1716, 1716, 1716, 1716, 1663, 1663, 1716, 1836, 1602,
    1399, 1716, 1787, 1787
)

_CHARS = "".join(map(chr, range(32, 127))) + _EXTRA
_WIDTHS = {False: dict(zip(_CHARS, _REGULAR)), True: dict(zip(_CHARS, _BOLD))}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` on one line at font size `size` (px)."""
    table = _WIDTHS[bold]
    return sum(table.get(ch, _UNITS) for ch in text) * size / _UNITS


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `width`, broken between words (a word wider than a
    line is broken inside)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if text_width(joined, size, bold) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and text_width(line + ch, size, bold) > width:
                lines.append(line)
                line = ""
            line += ch
    return lines + [line] if line or not lines else lines


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle: `left` <= x <= `right`, `top` <= y <= `bottom` (y grows down)."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def contains(self, other: "Box", slack: float = 0.01) -> bool:
        """`other` lies inside this box (within `slack`)."""
        return (other.left >= self.left - slack and other.top >= self.top - slack
                and other.right <= self.right + slack and other.bottom <= self.bottom + slack)

    def overlaps(self, other: "Box") -> bool:
        """The two boxes share some area."""
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def union(self, other: "Box") -> "Box":
        return Box(min(self.left, other.left), min(self.top, other.top),
                   max(self.right, other.right), max(self.bottom, other.bottom))

    def grow(self, by: float) -> "Box":
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def corners(self) -> list[tuple[float, float]]:
        return [(self.left, self.top), (self.right, self.top), (self.right, self.bottom), (self.left, self.bottom)]


def text_box(text: str, x: float, y: float, size: float, anchor: str = "start", bold: bool = False) -> Box:
    """The box one line of text fills, drawn at (x, y) (y its baseline) with `text-anchor` `anchor`."""
    w = text_width(text, size, bold)
    left = x - {"start": 0.0, "middle": w / 2, "end": w}[anchor]
    return Box(left, y - ASCENT * size, left + w, y + DESCENT * size)


def text_corners(text: str, x: float, y: float, size: float, anchor: str = "start", bold: bool = False,
                 angle: float = 0.0) -> list[tuple[float, float]]:
    """The four corners of the line's box when it is drawn at (x, y) and turned `angle` degrees
    about that point (`rotate(angle)` in SVG: clockwise on screen)."""
    return _turned(text_box(text, 0.0, 0.0, size, anchor, bold).corners(), x, y, angle)


def _turned(points: Iterable[tuple[float, float]], x: float, y: float, angle: float) -> list[tuple[float, float]]:
    """`points` turned `angle` degrees about the origin, then moved by (x, y)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(x + px * c - py * s, y + px * s + py * c) for px, py in points]


def bounding_box(points: Iterable[tuple[float, float]]) -> Box:
    xs, ys = zip(*points)
    return Box(min(xs), min(ys), max(xs), max(ys))


def polygons_overlap(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Two convex polygons (corners in order) share some area: no edge direction of either
    separates them."""
    for poly in (a, b):
        for (x1, y1), (x2, y2) in zip(poly, [*poly[1:], poly[0]]):
            nx, ny = y1 - y2, x2 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return False
    return True


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _attrs(attrs: dict[str, object]) -> str:
    """` name="value"` pairs; a keyword's underscores are hyphens (`cls` is `class`); None is left out."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "cls" else key.replace("_", "-")
        text = _num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        out.append(f' {name}="{escape(text)}"')
    return "".join(out)


class Picture:
    """SVG markup drawn in order, and the extent it covers: `svg()` makes a canvas (width,
    height and viewBox) that holds everything, `margin` px round it."""

    def __init__(self, size: float = 12, margin: float = 6):
        self.size = size
        self.margin = margin
        self.parts: list[str] = []
        self.extent: Box | None = None

    def cover(self, box: Box) -> Box:
        """Count `box` as drawn on: the canvas will hold it."""
        self.extent = box if self.extent is None else self.extent.union(box)
        return box

    def rect(self, x: float, y: float, width: float, height: float, title: str | None = None, **attrs: object) -> Box:
        head = f"<rect{_attrs(dict(x=x, y=y, width=width, height=height, **attrs))}"
        self.parts.append(head + ("/>" if title is None else f"><title>{escape(title)}</title></rect>"))
        return self.cover(Box(x, y, x + width, y + height))

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> Box:
        self.parts.append(f"<line{_attrs(dict(x1=x1, y1=y1, x2=x2, y2=y2, **attrs))}/>")
        return self.cover(Box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> Box:
        self.parts.append(f"<circle{_attrs(dict(cx=cx, cy=cy, r=r, **attrs))}/>")
        return self.cover(Box(cx - r, cy - r, cx + r, cy + r))

    def text(self, x: float, y: float, text: str | Sequence[str], size: float | None = None, anchor: str = "start",
             bold: bool = False, angle: float = 0.0, leading: float = 1.25, indent: float = 0.0,
             **attrs: object) -> Box:
        """One line of text with its baseline at (x, y), or several lines (a sequence) `leading`
        em apart, the lines after the first `indent` px further right; turned `angle` degrees
        about (x, y) when given. Returns the box it covers."""
        lines = [text] if isinstance(text, str) else list(text)
        px = self.size if size is None else size
        step = leading * px
        keys: dict[str, object] = {}
        if angle:
            keys["transform"] = f"translate({_num(x)},{_num(y)}) rotate({_num(angle)})"
        else:
            keys.update(x=x, y=y)
        if size is not None:
            keys["font-size"] = size
        if anchor != "start":
            keys["text-anchor"] = anchor
        if bold:
            keys["font-weight"] = "bold"
        keys.update(attrs)
        rest = "".join(f'<tspan x="{_num((0 if angle else x) + indent)}" dy="{_num(step)}">{escape(line)}</tspan>'
                       for line in lines[1:])
        self.parts.append(f"<text{_attrs(keys)}>{escape(lines[0])}{rest}</text>")
        local = [p for i, line in enumerate(lines)
                 for p in text_box(line, indent if i else 0.0, i * step, px, anchor, bold).corners()]
        return self.cover(bounding_box(_turned(local, x, y, angle)))

    def open(self, title: str | None = None, **attrs: object) -> None:
        """Start a group (`<g>`); shapes drawn until `close()` belong to it."""
        self.parts.append(f"<g{_attrs(attrs)}>" + (f"<title>{escape(title)}</title>" if title is not None else ""))

    def close(self) -> None:
        self.parts.append("</g>")

    def svg(self, title: str | None = None, **attrs: object) -> str:
        """The picture as an SVG document: the canvas holds every shape, `margin` px round."""
        box = (self.extent or Box(0, 0, 0, 0)).grow(self.margin)
        left, top = math.floor(box.left), math.floor(box.top)
        width, height = math.ceil(box.right) - left, math.ceil(box.bottom) - top
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="{left} {top} {width} {height}" font-family="{FONT_FAMILY}" font-size="{_num(self.size)}"'
                f'{_attrs(attrs)}>')
        caption = [f"<title>{escape(title)}</title>"] if title is not None else []
        return "\n".join([head, *caption, *self.parts, "</svg>"]) + "\n"
