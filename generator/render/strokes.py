"""Print-safe strokes: nothing thinner than a print shop can reproduce.

Presses and toner lose lines under about 0.25 pt, and preflight at a print shop rejects them. A
template may ask for a hairline, an icon drawn at text size shrinks its outline with it, and SVG
art carries whatever widths its author chose; so the renderer, the one place every line passes
through, raises every stroke to at least :data:`MIN_STROKE_PT`, and SVG drawings get the same floor
at the scale they are placed at.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # reportlab.graphics imports reportlab.platypus: only SVG drawing needs it
    from reportlab.graphics.shapes import Group

#: the thinnest line pnp prints, in PDF points
MIN_STROKE_PT = 0.25


def print_safe_width(width_pt: float) -> float:
    return max(width_pt, MIN_STROKE_PT)


def _scale(transform: object) -> float:
    """How much a 2-D affine transform (a, b, c, d, e, f) scales lengths, on average."""
    if not isinstance(transform, tuple | list) or len(transform) != 6:
        return 1.0
    a, b, c, d = (float(v) for v in transform[:4])
    return math.sqrt(abs(a * d - b * c)) or 1.0


def _thin_strokes(node: Group, points_per_unit: float) -> Iterator[tuple[object, float]]:
    """Each shape of ``node`` whose stroke prints under MIN_STROKE_PT, with its scale."""
    from reportlab.graphics.shapes import Group

    for child in node.contents:
        if isinstance(child, Group):
            yield from _thin_strokes(child, points_per_unit
                                     * _scale(getattr(child, "transform", None)))
            continue
        if getattr(child, "strokeColor", None) is None:
            continue
        width = getattr(child, "strokeWidth", None)
        if width is not None and float(width) * points_per_unit < MIN_STROKE_PT:
            yield child, points_per_unit


def print_safe_drawing(drawing: Group, points_per_unit: float) -> Group:
    """An SVG drawing whose strokes are all at least :data:`MIN_STROKE_PT` when one of its units
    is drawn ``points_per_unit`` points long: the drawing itself when none is thinner, else a
    copy with the thin ones raised (the cached drawing is shared, never changed)."""
    scale = points_per_unit * _scale(getattr(drawing, "transform", None))
    if next(_thin_strokes(drawing, scale), None) is None:
        return drawing  # most art: nothing to raise, nothing to copy
    safe = copy.deepcopy(drawing)
    for shape, shape_scale in list(_thin_strokes(safe, scale)):
        shape.strokeWidth = MIN_STROKE_PT / shape_scale
    return safe

