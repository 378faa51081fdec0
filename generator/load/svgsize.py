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

from msgspec import Struct

from generator.core.limits import (
    MAX_SVG_DEPTH,
    MAX_SVG_GRADIENT_PAINT,
    MAX_SVG_PATH_CHARS,
    MAX_SVG_USE_COPIES,
)

MAX_SVG_NUMBER = 1e12  # user units; real drawings stay below 1e6
#: candidates only (an exponent, or ten digits in a row), so common numbers cost one scan
_LARGE_NUMBER = re.compile(r"(?<![\d.])(?:\d*\.)?\d+(?:[eE][+]?\d+|\d{9,}(?:\.\d*)?)"
                           r"(?![\d.])")
#: what holds digits but no number: "#3e5767" (a colour), "url(#g1e5)" (a reference)
_NOT_NUMBERS = re.compile(r"#[\w.-]*")
_NAME_ATTRIBUTES = frozenset({"id", "class", "href"})
#: text a person wrote, not numbers (a font called "Infinity Sans" is no infinity)
_TEXT_ATTRIBUTES = _NAME_ATTRIBUTES | {"font-family", "style"}
#: words Python's float() reads as a number that no PDF can hold (svglib reads lengths with it)
_NOT_FINITE = re.compile(r"(?<![\w.-])[+-]?(?:nan|inf(?:inity)?)(?![\w-])", re.IGNORECASE)
#: ``url(...)`` in a presentation attribute, a style attribute or a ``<style>`` element, and
#: ``@import "..."`` (tinycss2 reads both; a reference to a file is the pack's business)
_CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""",
                      re.IGNORECASE | re.DOTALL)
#: elements whose points are drawn: their data is what drawing an SVG costs
_PATH_DATA = {"path": "d", "polyline": "points", "polygon": "points"}
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
    """Why the file is not a usable SVG (a sentence for the user) and the finding's code:
    ``art-unreadable``, or ``art-too-complex`` for drawing work past a limit."""

    def __init__(self, message: str, code: str = "art-unreadable") -> None:
        super().__init__(message)
        self.code = code


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


class SvgReference(Struct, frozen=True, gc=False):
    """Something an SVG names outside its own elements: a file, a ``data:`` URI, a URL. Where
    it may lead is the pack's business (:mod:`generator.load.svgrefs`); here it is only found."""

    value: str
    #: the element that makes it (``use``, ``image``, ...)
    element: str
    #: line of the SVG file
    line: int
    #: written in CSS (``url()``, ``@import``), which svglib never follows to a file
    css: bool = False


class SvgFacts(Struct, frozen=True, gc=False):
    """What validation learns of an SVG from one expat pass: its size in points and the work
    drawing it takes, counted as svglib will do it (copies through ``<use>`` included)."""

    width: float
    height: float
    #: shapes drawn again through ``<use>`` inside this file
    copies: int
    #: characters of path data drawn (``d``, ``points``), copies counted
    path_chars: int
    #: an upper bound of the gradient stops painted: gradient fills times the largest gradient
    gradient_paint: int
    references: tuple[SvgReference, ...] = ()


#: the work an id'd element (or the document, "") stands for: copies, path characters,
#: gradient fills, elements
_Work = tuple[int, int, int, int]
_CAP = 10**15  # sums stop growing here: a bound, not a count


class _Uses:
    """The ``<use>`` references of a document, by the nearest element with an id around each:
    enough to count the work svglib would do without expanding any copy."""

    def __init__(self) -> None:
        self.direct: dict[str, list[str]] = {}  # id ("" = the document) -> targets used in it
        self.children: dict[str, list[str]] = {}  # id -> ids of the nearest elements inside
        self.own: dict[str, list[int]] = {"": [0, 0, 0, 0]}  # id -> work written right in it
        self.ids: set[str] = {""}

    def work(self) -> _Work:
        """The document's work (copies capped at the limit plus one); raises SvgSizeError for a
        reference to an element that contains it."""
        memo: dict[str, _Work] = {}
        active: set[str] = set()
        stack: list[tuple[str, bool]] = [("", False)]
        while stack:
            key, expanded = stack.pop()
            if expanded:
                active.discard(key)
                total = list(self.own.get(key, (0, 0, 0, 0)))
                for target in self.direct.get(key, ()):
                    total[0] += 1  # the copy itself
                    _add(total, memo.get(target, (0, 0, 0, 0)))
                for child in self.children.get(key, ()):
                    _add(total, memo.get(child, (0, 0, 0, 0)))
                memo[key] = (min(total[0], MAX_SVG_USE_COPIES + 1), *(min(v, _CAP)
                                                                     for v in total[1:]))
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


def _add(total: list[int], work: _Work) -> None:
    for index, value in enumerate(work):
        total[index] += value


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


def _check_finite(name: str, value: str) -> None:
    """Refuse ``nan`` and ``inf`` where svglib reads a number: ``float()`` takes them, and
    ReportLab cannot write them (the build stopped where validation had passed)."""
    if name == "style":
        value = re.sub(r"font-family\s*:[^;]*", "", value, flags=re.IGNORECASE)
    found = _NOT_FINITE.search(value)
    if found is not None:
        raise SvgSizeError(f"its {name} '{value.strip()[:40]}' holds {found.group()}, which is "
                           "not a number that can be drawn")


class _Reader:
    """One expat pass over an SVG: well-formedness, the root's attributes, nesting, the work
    drawing it takes and the references it makes."""

    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.root: tuple[str, dict[str, str]] | None = None
        self.uses = _Uses()
        self.owners = [""]  # the id'd element around the current one ("" = the document)
        self.names: list[str] = []  # local names of the open elements
        self.stops: list[int] = []  # <stop> children of each open element
        self.most_stops = 0
        self.style_text: list[str] = []
        self.style_line = 0  # where the first <style> element starts
        self.references: list[SvgReference] = []

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if self.root is None:
            self.root = (name, attributes)
        if len(self.owners) > MAX_SVG_DEPTH:
            raise SvgSizeError(f"it nests elements more than {MAX_SVG_DEPTH} levels deep")
        local = name.rpartition(" ")[2]
        owner = self.owners[-1]
        element_id = attributes.get("id")
        if element_id and element_id not in self.uses.ids:  # its work is its own, for <use>
            self.uses.ids.add(element_id)
            self.uses.children.setdefault(owner, []).append(element_id)
            owner = element_id
        work = self.uses.own.setdefault(owner, [0, 0, 0, 0])
        work[3] += 1
        line = self.parser.CurrentLineNumber
        for key, value in attributes.items():
            attribute = key.rpartition(" ")[2]
            if attribute not in _NAME_ATTRIBUTES:
                _check_numbers(_NOT_NUMBERS.sub(" ", value))
                if attribute != "font-family":
                    _check_finite(attribute, value)
            if attribute == "href" and local != "a":  # a hyperlink is never followed
                if local == "use" and value.startswith("#"):
                    self.uses.direct.setdefault(owner, []).append(value[1:])
                elif not value.startswith("#"):
                    self.references.append(SvgReference(value, local, line))
            elif "url(" in value.lower() or "@import" in value.lower():
                work[2] += self._css(value, local, line)
        if local == "style" and not self.style_line:
            self.style_line = line
        if local in _PATH_DATA:
            work[1] += len(attributes.get(_PATH_DATA[local], ""))
        if local == "stop" and self.stops:
            self.stops[-1] += 1
        self.owners.append(owner)
        self.names.append(local)
        self.stops.append(0)

    def end(self, _: str) -> None:
        self.owners.pop()
        local = self.names.pop()
        stops = self.stops.pop()
        if local.endswith("Gradient"):
            self.most_stops = max(self.most_stops, stops)

    def text(self, data: str) -> None:
        if self.names and self.names[-1] == "style":
            self.style_text.append(data)

    def _css(self, value: str, element: str, line: int) -> int:
        """Record the files CSS names; return the gradient fills (``url(#id)``) it paints."""
        fills = 0
        for match in _CSS_URL.finditer(value):
            target = (match.group(2) or match.group(4) or "").strip()
            if target.startswith("#"):
                fills += 1
            elif target:
                self.references.append(SvgReference(target, element, line, css=True))
        return fills

    def facts(self, width: float, height: float) -> SvgFacts:
        style = "".join(self.style_text)
        style_fills = self._css(style, "style", self.style_line) if style else 0
        copies, path_chars, fills, elements = self.uses.work()
        # a rule in <style> may paint every element, the copies too
        fills = min(fills + style_fills * (elements + copies), _CAP)
        return SvgFacts(width, height, copies, path_chars, fills * self.most_stops,
                        tuple(self.references))


def _read(data: bytes) -> _Reader:
    """Parse the whole document (well-formedness) and gather what the checks need; refuse
    what svglib would draw only in part or forever (nesting deeper than libxml2 reads,
    ``<use>`` copies beyond :data:`MAX_SVG_USE_COPIES`), what it cannot read, and work past
    the limits."""
    parser = expat.ParserCreate(namespace_separator=" ")
    reader = _Reader(parser)

    def refuse_entities(*_: object) -> None:
        raise SvgSizeError("it declares XML entities; save it as plain SVG")

    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    parser.EntityDeclHandler = refuse_entities
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise SvgSizeError(f"it is not well-formed XML (line {exc.lineno}, column "
                           f"{exc.offset + 1}: {expat.ErrorString(exc.code)})") from None
    except SvgSizeError:
        raise
    except (ValueError, LookupError):  # "multi-byte encodings are not supported" (UTF-7...)
        raise SvgSizeError("its text encoding cannot be read; save it as UTF-8") from None
    if reader.root is None:
        raise SvgSizeError("it holds no element")
    return reader


def check_work(copies: int, path_chars: int, gradient_paint: int) -> None:
    """Refuse drawing work past the limits (also for a drawing and the files it uses)."""
    if copies > MAX_SVG_USE_COPIES:
        raise SvgSizeError(f"its <use> elements draw more than {MAX_SVG_USE_COPIES} copies of "
                           "shapes (references nested in references?)")
    if path_chars > MAX_SVG_PATH_CHARS:
        raise SvgSizeError(f"it draws {path_chars:,} characters of path data (copies "
                           f"through <use> counted); the limit is {MAX_SVG_PATH_CHARS:,}",
                           "art-too-complex")
    if gradient_paint > MAX_SVG_GRADIENT_PAINT:
        raise SvgSizeError(f"its gradient fills paint up to {gradient_paint:,} colour "
                           f"stops; the limit is {MAX_SVG_GRADIENT_PAINT:,} (fewer stops or "
                           "fewer shapes filled with a gradient)", "art-too-complex")


def svg_facts(data: bytes) -> SvgFacts:
    """Size, work and references of an SVG file's ``data``, as svglib will draw it.

    Raises SvgSizeError (not SVG, malformed, entities, no size, over a limit)."""
    reader = _read(data)
    assert reader.root is not None
    name, attributes = reader.root
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
    facts = reader.facts(width * PX_TO_PT, height * PX_TO_PT)
    check_work(facts.copies, facts.path_chars, facts.gradient_paint)
    return facts


def svg_size(data: bytes) -> tuple[float, float]:
    """Width and height in points of the drawing svglib makes of an SVG file's ``data``."""
    facts = svg_facts(data)
    return facts.width, facts.height
