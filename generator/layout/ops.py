"""Drawing operations: what layout produces and render consumes.

Coordinates are millimetres with the origin at the top-left corner of the card (or the page, for
sheet marks), x to the right and y down: the same convention as the build manifest. Only the
renderer knows PDF points and PDF's upward y axis.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TypeVar

Color = str | None  # "#rrggbb" or None for "no paint"
T = TypeVar("T")


def compact_pickle(cls: type[T]) -> type[T]:
    """Pickle a slots dataclass as its class and field values in order. The dataclass default
    (a dict of fields, built through ``dataclasses.fields`` for every object) made hashing the
    ops of a 10,000-card build's chunks take seconds; this takes a third of the time."""
    values = operator.attrgetter(*cls.__slots__)  # type: ignore[attr-defined]

    def __reduce__(self: T) -> tuple[type[T], tuple[object, ...]]:
        return cls, values(self)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


@compact_pickle
@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@compact_pickle
@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5
    closed: bool = True


@compact_pickle
@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Color = None
    stroke: Color = None
    width_pt: float = 0.5


@compact_pickle
@dataclass(frozen=True, slots=True)
class Arc:
    """Part of a circle; angles in degrees, counter-clockwise on paper, 0 = 3 o'clock."""

    cx: float
    cy: float
    r: float
    start_deg: float
    extent_deg: float
    stroke: Color = "#000000"
    width_pt: float = 0.5


@compact_pickle
@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Color = "#000000"
    width_pt: float = 0.5
    dash: tuple[float, ...] = ()


@compact_pickle
@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; ``y`` is the baseline, ``anchor`` says what ``x`` is."""

    x: float
    y: float
    text: str
    font: str  # a style name of generator.fonts
    size_pt: float
    color: Color = "#000000"
    anchor: str = "left"  # left | center | right
    angle: float = 0.0  # degrees counter-clockwise about (x, y)


@compact_pickle
@dataclass(frozen=True, slots=True)
class Image:
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
