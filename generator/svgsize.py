"""The printed size of an SVG file, from its root element alone.

Validation needs two facts of each SVG a card places: that it is a well-formed SVG document and
how wide and tall it draws (for ``cover``/``contain``). Turning the whole file into a ReportLab
drawing with svglib answers both but costs ~10 ms per file (a third of ``pnp validate`` of a pack
with 44 SVGs), so validation reads the file with expat instead: the C parser checks the whole
document is well-formed in well under a millisecond, refuses entity declarations (the
"billion laughs" family) and never fetches a DTD, and the root ``<svg>``'s width, height and
viewBox give the size. Layout and render still draw the file with svglib.

The size follows svglib's own reading (``SvgRenderer.render``): width and height in CSS units,
defaulting to the viewBox's; bare numbers and ``px`` are user units; the drawing is in points
(0.75 pt per user unit), so the aspect ratio validation computes is the one svglib draws.
"""

from __future__ import annotations

import re
from xml.parsers import expat

PX_TO_PT = 0.75  # svglib: one SVG user unit (CSS px) is 0.75 pt
_EM_PX = 16.0  # svglib's default font size, 12 pt, in user units
#: user units per unit of length (CSS: 96 px per inch)
_UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54,
          "mm": 96 / 25.4, "q": 96 / 25.4 / 4, "em": _EM_PX, "rem": _EM_PX, "ex": _EM_PX / 2,
          "ch": _EM_PX / 2}
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*"
                     r"(px|pt|pc|in|cm|mm|q|rem|em|ex|ch|%|vw|vh|vmin|vmax)?\s*")


class SvgSizeError(ValueError):
    """Why the file is not a usable SVG (a sentence for the user)."""


def _view_box(text: str | None) -> tuple[float, float, float, float] | None:
    if not text:
        return None
    try:
        values = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        return None
    return (values[0], values[1], values[2], values[3]) if len(values) == 4 else None


def _length(text: str | None, axis: float | None, box: tuple[float, float] | None,
            default: float) -> float:
    """A root width/height in user units; ``axis`` is the viewBox side a percentage is of,
    ``box`` the viewBox's width and height (for vw, vh, vmin, vmax)."""
    if text is None or not text.strip():
        return default
    match = _LENGTH.fullmatch(text)
    if match is None:
        raise SvgSizeError(f"its size '{text.strip()}' is not a length")
    number, unit = float(match.group(1)), (match.group(2) or "")
    if unit == "%":
        return number / 100 * axis if axis is not None else number
    if unit in {"vw", "vh", "vmin", "vmax"}:
        if box is None:
            return default
        side = {"vw": box[0], "vh": box[1], "vmin": min(box), "vmax": max(box)}[unit]
        return number / 100 * side
    return number * _UNITS[unit]


def _root_attributes(data: bytes) -> tuple[str, dict[str, str]]:
    """Parse the whole document (well-formedness) and return the root's name and attributes."""
    parser = expat.ParserCreate(namespace_separator=" ")
    root: list[tuple[str, dict[str, str]]] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        if not root:
            root.append((name, attributes))

    def refuse_entities(*_: object) -> None:
        raise SvgSizeError("it declares XML entities; save it as plain SVG")

    parser.StartElementHandler = start
    parser.EntityDeclHandler = refuse_entities
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise SvgSizeError(f"it is not well-formed XML (line {exc.lineno}, column "
                           f"{exc.offset + 1}: {expat.ErrorString(exc.code)})") from None
    if not root:
        raise SvgSizeError("it holds no element")
    return root[0]


def svg_size(data: bytes) -> tuple[float, float]:
    """Width and height in points of the drawing svglib makes of an SVG file's ``data``.

    Raises SvgSizeError (not SVG, malformed, entities, no size)."""
    name, attributes = _root_attributes(data)
    if name.rpartition(" ")[2] != "svg":
        raise SvgSizeError(f"its root element is <{name.rpartition(' ')[2]}>, not <svg>")
    view_box = _view_box(attributes.get("viewBox"))
    box = (view_box[2], view_box[3]) if view_box is not None else None
    width = _length(attributes.get("width"), box[0] if box else None, box,
                    box[0] if box else 0.0)
    height = _length(attributes.get("height"), box[1] if box else None, box,
                     box[1] if box else 0.0)
    if not width > 0 or not height > 0:
        raise SvgSizeError("it has no width and height (give the <svg> a viewBox)")
    return width * PX_TO_PT, height * PX_TO_PT
