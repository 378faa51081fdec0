"""Game-independent symbols: the anchor set mark and an expansion's lettered mark.

Marks are drawn as vectors (the anchor is not in the text font), so they print sharp at any size
and need no glyph.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.layout.ops import Arc, Circle, Line, Op, Polygon, Text

ANCHOR_MARK = "anchor"


def _fluke(x: float, y: float, size: float, side: float, color: str) -> Polygon:
    """A barbed tip at the end of an anchor arm; ``side`` -1 mirrors it for the right arm."""
    return Polygon(((x - side * size * 0.45, y - size), (x + side * size * 0.55, y - size * 0.1),
                    (x - side * size * 0.05, y + size * 0.25)), fill=color)


def anchor(x: float, y: float, size: float, color: str) -> list[Op]:
    """An anchor filling the square (x, y, size); stroke widths scale with its size."""
    s = size
    cx = x + s / 2

    def pt(share: float) -> float:
        return s * share * 72.0 / 25.4

    ring_cy, ring_r = y + s * 0.12, s * 0.085
    arc_cy, arc_r = y + s * 0.50, s * 0.38
    left_x, right_x = cx - arc_r * 0.94, cx + arc_r * 0.94
    tip_y = arc_cy + arc_r * 0.34
    fluke = s * 0.13
    return [
        Circle(cx, ring_cy, ring_r, stroke=color, width_pt=pt(0.07)),
        Line(cx, ring_cy + ring_r, cx, y + s * 0.90, color, pt(0.10)),
        Line(cx - s * 0.22, y + s * 0.31, cx + s * 0.22, y + s * 0.31, color, pt(0.08)),
        Arc(cx, arc_cy, arc_r, 200, 140, color, pt(0.09)),
        _fluke(left_x, tip_y, fluke, 1.0, color),
        _fluke(right_x, tip_y, fluke, -1.0, color),
    ]


def lettered_mark(x: float, y: float, size: float, label: str, color: str) -> list[Op]:
    """An expansion's mark: a ring with up to three letters, never mistaken for the anchor."""
    cx, cy, r = x + size / 2, y + size / 2, size / 2
    text_size_pt = size / 0.3528 * (0.55 if len(label) <= 1 else 0.40)
    return [
        Circle(cx, cy, r * 0.95, stroke=color, width_pt=max(0.5, size * 0.25)),
        Text(cx, cy + text_size_pt * 0.3528 * 0.36, label, "bold", text_size_pt, color,
             anchor="center"),
    ]


def set_mark(mark: str, label: str, x: float, y: float, size: float, color: str) -> list[Op]:
    if mark == ANCHOR_MARK:
        return anchor(x, y, size, color)
    return lettered_mark(x, y, size, label or mark[:1].upper(), color)


def set_mark_widget(values: Mapping[str, object], box: tuple[float, float, float, float],
                    options: Mapping[str, object], ctx) -> list[Op]:
    """Template widget ``set_mark``: the mark of the card's own set, in the box's corner."""
    x, y, w, h = box
    size = min(w, h)
    color = ctx.color(options.get("color", "ink")) or "#000000"
    mark = str(values.get("set_mark", ctx.manifest.set_mark))
    label = str(values.get("set_mark_label", ctx.manifest.set_mark_label))
    return set_mark(mark, label, x + w - size, y, size, color)


def anchor_icon(x: float, baseline: float, size_mm: float, color: str) -> list[Op]:
    """Inline ``{anchor}``: sits on the baseline, as tall as a capital letter."""
    height = size_mm * 0.9
    return anchor(x + size_mm * 0.1, baseline - height, height, color)
