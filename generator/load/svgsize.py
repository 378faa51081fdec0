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

from generator.core.limits import MAX_SVG_DEPTH, MAX_SVG_USE_COPIES

_XLINK_HREF = "http://www.w3.org/1999/xlink href"
MAX_SVG_NUMBER = 1e12  # user units; real drawings stay below 1e6
#: candidates only (an exponent, or ten digits in a row), so common numbers cost one scan
_LARGE_NUMBER = re.compile(r"(?<![\d.])(?:\d*\.)?\d+(?:[eE][+]?\d+|\d{9,}(?:\.\d*)?)"
                           r"(?![\d.])")
#: what holds digits but no number: "#3e5767" (a colour), "url(#g1e5)" (a reference)
_NOT_NUMBERS = re.compile(r"#[\w.-]*")
_NAME_ATTRIBUTES = frozenset({"id", "class", "href"})
PX_TO_PT = 0.75  # svglib: one SVG user unit (CSS px) is 0.75 pt
_MIN_PT, _MAX_PT = 0.0075, 750_000.0  # 0.01 to a million user units: a speck to 260 metres
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


class _Uses:
    """The ``<use>`` references of a document, by the nearest element with an id around each:
    enough to count the copies svglib would draw without expanding any."""

    def __init__(self) -> None:
        self.direct: dict[str, list[str]] = {}  # id ("" = the document) -> targets used in it
        self.children: dict[str, list[str]] = {}  # id -> ids of the nearest elements inside
        self.ids: set[str] = {""}

    def copies(self) -> int:
        """Shapes copies the document draws through ``<use>`` (at most the limit plus one);
        raises SvgSizeError for a reference to an element that contains it."""
        memo: dict[str, int] = {}
        active: set[str] = set()
        stack: list[tuple[str, bool]] = [("", False)]
        while stack:
            key, expanded = stack.pop()
            if expanded:
                active.discard(key)
                total = sum(1 + memo.get(t, 0) for t in self.direct.get(key, ()))
                total += sum(memo.get(c, 0) for c in self.children.get(key, ()))
                memo[key] = min(total, MAX_SVG_USE_COPIES + 1)
                continue
            if key in memo:
                continue
            active.add(key)
            stack.append((key, True))
            for needed in (*self.direct.get(key, ()), *self.children.get(key, ())):
                if needed in active:
                    raise SvgSizeError(f"a <use> refers to '#{needed}', which contains it; "
                                       "such a drawing never ends")
                if needed in self.ids and needed not in memo:
                    stack.append((needed, False))
        return memo[""]


def _check_numbers(value: str) -> None:
    """Refuse a coordinate no PDF can hold: ReportLab stops writing numbers past 1e20 (and an
    infinite one), which only drawing the file found, after validation had passed it."""
    for match in _LARGE_NUMBER.finditer(value):
        try:
            number = float(match.group())
        except ValueError:
            continue
        if not abs(number) <= MAX_SVG_NUMBER:
            raise SvgSizeError(f"the number {match.group()[:40]} in it is too large to draw "
                               f"(the limit is {MAX_SVG_NUMBER:g})")


def _root_attributes(data: bytes) -> tuple[str, dict[str, str]]:
    """Parse the whole document (well-formedness) and return the root's name and attributes;
    refuse what svglib would draw only in part or forever (nesting deeper than libxml2 reads,
    ``<use>`` copies beyond :data:`MAX_SVG_USE_COPIES`)."""
    parser = expat.ParserCreate(namespace_separator=" ")
    root: list[tuple[str, dict[str, str]]] = []
    uses = _Uses()
    owners = [""]  # the id'd element around the current one ("" = the document)

    def start(name: str, attributes: dict[str, str]) -> None:
        if not root:
            root.append((name, attributes))
        if len(owners) > MAX_SVG_DEPTH:
            raise SvgSizeError(f"it nests elements more than {MAX_SVG_DEPTH} levels deep")
        for key, value in attributes.items():
            if key.rpartition(" ")[2] not in _NAME_ATTRIBUTES:
                _check_numbers(_NOT_NUMBERS.sub(" ", value))
        owner = owners[-1]
        if name.rpartition(" ")[2] == "use":
            href = attributes.get(_XLINK_HREF) or attributes.get("href") or ""
            if href.startswith("#"):
                uses.direct.setdefault(owner, []).append(href[1:])
        element_id = attributes.get("id")
        if element_id and element_id not in uses.ids:
            uses.ids.add(element_id)
            uses.children.setdefault(owner, []).append(element_id)
            owner = element_id
        owners.append(owner)

    def end(_: str) -> None:
        owners.pop()

    def refuse_entities(*_: object) -> None:
        raise SvgSizeError("it declares XML entities; save it as plain SVG")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = refuse_entities
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise SvgSizeError(f"it is not well-formed XML (line {exc.lineno}, column "
                           f"{exc.offset + 1}: {expat.ErrorString(exc.code)})") from None
    if not root:
        raise SvgSizeError("it holds no element")
    if uses.copies() > MAX_SVG_USE_COPIES:
        raise SvgSizeError(f"its <use> elements draw more than {MAX_SVG_USE_COPIES} copies of "
                           "shapes (references nested in references?)")
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
    if not (_MIN_PT <= width * PX_TO_PT <= _MAX_PT and _MIN_PT <= height * PX_TO_PT <= _MAX_PT):
        # 1e999 reads as infinity, and a PDF cannot hold the scale that draws it on a card
        raise SvgSizeError(f"its size {width:g} x {height:g} is out of range (each side from "
                           f"{_MIN_PT / PX_TO_PT:g} to {_MAX_PT / PX_TO_PT:g} user units)")
    return width * PX_TO_PT, height * PX_TO_PT
