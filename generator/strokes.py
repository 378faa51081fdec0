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


def _raise_strokes(node: Group, points_per_unit: float) -> None:
    for child in node.contents:
        if isinstance(child, Group):
            _raise_strokes(child, points_per_unit * _scale(getattr(child, "transform", None)))
            continue
        if getattr(child, "strokeColor", None) is None:
            continue
        width = getattr(child, "strokeWidth", None)
        if width is not None and float(width) * points_per_unit < MIN_STROKE_PT:
            child.strokeWidth = MIN_STROKE_PT / points_per_unit


def print_safe_drawing(drawing: Group, points_per_unit: float) -> Group:
    """A copy of an SVG drawing whose strokes are all at least :data:`MIN_STROKE_PT` when one of
    its units is drawn ``points_per_unit`` points long."""
    safe = copy.deepcopy(drawing)
    _raise_strokes(safe, points_per_unit * _scale(getattr(safe, "transform", None)))
    return safe
