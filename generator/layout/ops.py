"""Drawing operations: what layout produces and render consumes.

Coordinates are millimetres with the origin at the top-left corner of the card (or the page, for
sheet marks), x to the right and y down: the same convention as the build manifest. Only the
renderer knows PDF points and PDF's upward y axis.
"""

from __future__ import annotations

from msgspec import Struct

Color = str | None  # "#rrggbb" or None for "no paint"

# Ops are msgspec Structs, not dataclasses: a class costs microseconds to define instead of a
# millisecond (dataclasses compile each generated method at import: a tenth of a small build
# went to that), making one is several times faster (a 50,000-card build makes millions), they
# pickle as their values in order, and ``gc=False``: they hold only numbers, strings and tuples
# (never a cycle), so the collector never walks them.


class Rect(Struct, frozen=True, gc=False):
    x: float
    y: float
    w: float
    h: float
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5
    radius: float = 0.0
    dash: tuple[float, ...] = ()


class Polygon(Struct, frozen=True, gc=False):
    points: tuple[tuple[float, float], ...]
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5
    closed: bool = True


class Circle(Struct, frozen=True, gc=False):
    cx: float
    cy: float
    r: float
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5


class Arc(Struct, frozen=True, gc=False):
    """Part of a circle; angles in degrees, counter-clockwise on paper, 0 = 3 o'clock."""

    cx: float
    cy: float
    r: float
    start_deg: float
    extent_deg: float
    stroke: Color = "#000000"
    width_pt: float = 0.5


class Line(Struct, frozen=True, gc=False):
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color = "#000000"
    width_pt: float = 0.5
    dash: tuple[float, ...] = ()


class Text(Struct, frozen=True, gc=False):
    """One line of text; ``y`` is the baseline, ``anchor`` says what ``x`` is."""

    x: float
    y: float
    text: str
    font: str  # a style name of generator.load.fonts
    size_pt: float
    color: Color = "#000000"
    anchor: str = "left"  # left | center | right
    angle: float = 0.0  # degrees counter-clockwise about (x, y)


class Image(Struct, frozen=True, gc=False):
    """Art drawn into ``(x, y, w, h)`` and clipped to the ``clip`` box (``cover`` crops).

    ``path`` is an absolute file path: raster files are embedded once per PDF however often they
    are placed; ``vector`` art (SVG) is drawn as paths, once per PDF, colours and size as a
    form. ``color`` is what the SVG's ``currentColor`` paints (None: the file's own colours) and
    ``recolor`` repaints colours the file names, so one drawing serves every palette; ``angle``
    turns the art about its bottom-left corner (degrees counter-clockwise, as an icon in
    rotated text is)."""

    x: float
    y: float
    w: float
    h: float
    path: str
    vector: bool = False
    clip: tuple[float, float, float, float] | None = None
    color: Color = None
    angle: float = 0.0
    #: the SVG's own colours repainted: ("#rrggbb" in the file, "#rrggbb" printed) pairs
    recolor: tuple[tuple[str, str], ...] = ()


Op = Rect | Polygon | Circle | Arc | Line | Text | Image
