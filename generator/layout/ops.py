"""Drawing operations: what layout produces and render consumes.

Coordinates are millimetres with the origin at the top-left corner of the card (or the page, for
sheet marks), x to the right and y down: the same convention as the build manifest. Only the
renderer knows PDF points and PDF's upward y axis.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec import Struct

Color = str | None  # "#rrggbb" or None for "no paint"


class Gradient(Struct, frozen=True, gc=False):
    """A linear gradient through ``colors`` ("#rrggbb", evenly spaced) across ``span`` (x, y,
    w, h in mm: the element's own box, so that its bleed continues the end colours and every
    bleed prints the same gradient on the card), or across the shape it fills; ``angle`` in
    degrees: 0 runs left to right, 90 top to bottom."""

    colors: tuple[str, ...]
    angle: float = 0.0
    span: tuple[float, float, float, float] | None = None


Fill = str | Gradient | None

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
    fill: Fill = None
    stroke: Color = None
    width_pt: float = 0.5
    radius: float = 0.0
    dash: tuple[float, ...] = ()


class Polygon(Struct, frozen=True, gc=False):
    points: tuple[tuple[float, float], ...]
    fill: Fill = None
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


class Ellipse(Struct, frozen=True, gc=False):
    """The ellipse inscribed in the box (x, y, w, h)."""

    x: float
    y: float
    w: float
    h: float
    fill: Fill = None
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
    #: the shape the art shows through, inside its clip box: "" (the box), "rounded" (corners
    #: of ``mask_radius`` mm) or "ellipse"
    mask: str = ""
    mask_radius: float = 0.0


class QrCode(Struct, frozen=True, gc=False):
    """A QR code holding ``data`` in the square (x, y, size, size), quiet zone included (the
    four modules of white a reader needs are part of the square, left unpainted)."""

    x: float
    y: float
    size: float
    data: str
    color: str = "#000000"


class Group(Struct, frozen=True, gc=False):
    """Ops drawn together at ``opacity`` (0..1): the PDF's own transparency (an ExtGState),
    so what lies below shows through as it will in print."""

    ops: tuple[Op, ...]
    opacity: float = 1.0


Op = Rect | Polygon | Ellipse | Circle | Arc | Line | Text | Image | QrCode | Group


def flat_ops(ops: Iterable[Op]) -> Iterator[Op]:
    """Every op, those inside a group (an element drawn with opacity) included: what looks for
    art files, texts or shapes in a face must see them too."""
    for op in ops:
        if isinstance(op, Group):
            yield from flat_ops(op.ops)
        else:
            yield op


def drawn_files(ops: Iterable[Op]) -> Iterator[str]:
    """The art files ``ops`` draw (each Image's path), in drawing order, those inside groups
    included: what a cache key, a build record or a watcher takes as the face's inputs."""
    return (op.path for op in flat_ops(ops) if isinstance(op, Image))
