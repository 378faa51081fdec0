"""An SVG drawn: svglib turns its bytes into a ReportLab drawing, and a scratch canvas records
the PDF operators ReportLab writes for that drawing.

Validation draws every SVG a pack places this way once (its verdict, generator.load.art), and
the renderer records each placement of it the same way (generator.render.vectorart): one
drawing code for both, so that what validates also draws. Whatever svglib or ReportLab raise
on a file (svglib raises what its XML, CSS and number parsers raise; ReportLab's number writer
refuses infinities) is :class:`Undrawable`, with a short detail for the finding.

It knows nothing of packs or findings (generator.load.art checks the file and says where it
is); svglib and ``reportlab.graphics`` (about 110 ms of imports) are imported only when a
drawing is made.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from pathlib import Path

from msgspec import Struct

from generator.core.terminal import quiet_library_logs
from generator.load.fonts import font_name

#: the cache layer's folder of compiled art: each SVG's verdict and each placement's operators
ART_FOLDER = "art"

Recolor = tuple[tuple[str, str], ...]  # ("#rrggbb" drawn in the SVG, "#rrggbb" printed)
#: what ``currentColor`` resolves to while a drawing is parsed, so that the colour it is painted
#: is set after any of the file's own colours are repainted, not repainted with them
_CURRENT = "#fe01fd"

#: the PDF operators a replayed drawing may hold: paths, painting, clipping, the graphics state
#: and device colours; anything else (text, XObjects, ExtGState, shadings, named colour spaces,
#: inline images) uses page resources, and such a drawing is drawn live instead
_REPLAYABLE = frozenset({"q", "Q", "cm", "w", "J", "j", "M", "d", "i", "m", "l", "c", "v", "y",
                        "h", "re", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n", "W",
                        "W*", "g", "G", "rg", "RG", "k", "K"})
_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)|[\[\]]|[A-Za-z*'\"]+|\S")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)\Z")


class Undrawable(Exception):
    """svglib or ReportLab could not draw the file; ``detail`` says what they said."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class CompiledArt(Struct, frozen=True, gc=False):
    """A drawing's size in points (as svglib reads it) and, when it can be replayed, its
    operators as ``reportlab.graphics.renderPDF`` writes them at the origin."""

    width: float
    height: float
    operators: str | None
    #: the drawing set a colour's alpha (even an opaque one), which makes the file PDF 1.4
    transparency: bool = False


def drawing(data: bytes, path: Path, reference_root: Path, color: str | None = None,
            recolor: Recolor = ()):
    """The SVG ``data`` (the file ``path``) as a ReportLab drawing, its ``currentColor``
    painted ``color`` when one is given (as if the root element said ``color="..."``) and each
    of its own colours named in ``recolor`` replaced; svglib reads what it references from
    ``reference_root`` only. Raises Undrawable."""
    from svglib.svglib import SvgRenderer, load_svg_file  # (lazy: 110 ms, drawing only)

    quiet_library_logs()  # svglib logs what it skips; validation has said what matters
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = load_svg_file(io.BytesIO(data))
            if root is not None and color is not None:
                root.set("color", _CURRENT)
            renderer = SvgRenderer(str(path), external_reference_root=str(reference_root),
                                   color_converter=_converter(color, recolor)
                                   if color is not None or recolor else None)
            drawn = renderer.render(root) if root is not None else None
            if drawn is not None:
                _drop_vanished(drawn)
                _embedded_fonts_only(drawn)
            sized = drawn is not None and 0 < drawn.width < math.inf \
                and 0 < drawn.height < math.inf
    except Exception as exc:  # svglib raises whatever its XML, CSS and number parsers raise
        raise Undrawable(_detail("svglib", exc)) from None
    if not sized:
        raise Undrawable("no width and height")
    drawn.initialFontName = font_name("regular")  # the renderer's starting font
    return drawn


def record(drawn) -> CompiledArt:
    """The operators ReportLab writes for ``drawn`` into a form at the origin, or None when
    they use page resources, and whether drawing it raised the document to PDF 1.4. They are
    read from the scratch canvas's list of operators for its current form and its document's
    version (``Canvas._code``, ``_doc._pdfVersion``: no public accessors; tests compare a
    replay with a live drawing byte for byte, and ReportLab's version is in every cache key).
    Raises Undrawable."""
    from reportlab.graphics import renderPDF  # (lazy: drawing only)
    from reportlab.pdfgen.canvas import Canvas

    width, height = float(drawn.width), float(drawn.height)
    scratch = Canvas(io.BytesIO(), invariant=1, initialFontName=font_name("regular"))
    version = scratch._doc._pdfVersion
    scratch.beginForm("art", 0, 0, width, height)
    try:
        renderPDF.draw(drawn, scratch, 0, 0)
    except Exception as exc:  # ReportLab's checks of what svglib handed it, its number writer
        raise Undrawable(_detail("ReportLab", exc)) from None
    # an embedded picture is written inline, as bytes: such a drawing is drawn live
    pictures = any(not isinstance(part, str) for part in scratch._code)
    operators = "" if pictures else "\n".join(scratch._code)
    return CompiledArt(width, height, None if pictures or not replayable(operators) else
                       operators, transparency=scratch._doc._pdfVersion > version)


def replayable(operators: str) -> bool:
    """Whether a content stream uses only operators that need no page resources."""
    for token in _TOKEN.findall(operators):
        if token in _REPLAYABLE or token in "[]" or _NUMBER.match(token):
            continue
        return False
    return True


def _detail(library: str, exc: BaseException) -> str:
    """What ``library`` said (its exception), on one short line, for a designer."""
    text = str(exc).strip().splitlines()[0].strip() if str(exc).strip() else ""
    if "_fp_" in text:  # ReportLab's number writer met an infinity or NaN
        return "a number in it is infinite or not a number"
    text = "".join(c if c.isprintable() else "?" for c in text[:120])
    return f"{library}: {type(exc).__name__}: {text}" if text else \
        f"{library}: {type(exc).__name__}"


def _converter(color: str | None, recolor: Recolor):
    """svglib's colour hook: ``currentColor`` becomes ``color``, each of the drawing's own colours
    named in ``recolor`` its target, the rest stays as drawn."""
    from reportlab.lib.colors import HexColor

    targets = {source.lower(): HexColor(target) for source, target in recolor}
    if color is not None:
        targets[_CURRENT] = HexColor(color)

    def convert(found):
        hexval = getattr(found, "hexval", None)
        return targets.get("#" + hexval()[2:].lower(), found) if hexval else found

    return convert


def _drop_vanished(node) -> None:
    """Remove groups whose transform flattens them to nothing (``scale(0)``, a zero matrix):
    SVG draws nothing for them, and ReportLab's renderer divides by their determinant. A dash
    pattern with a negative length or none at all is drawn solid, as SVG says."""
    contents = getattr(node, "contents", None)
    if not contents:
        return
    kept = []
    for child in contents:
        dashes = getattr(child, "strokeDashArray", None)
        if isinstance(dashes, (list, tuple)) and dashes and (
                any(not d >= 0 for d in dashes if isinstance(d, (int, float)))
                or not sum(d for d in dashes if isinstance(d, (int, float))) > 0):
            child.strokeDashArray = None  # SVG draws a solid line; ReportLab would refuse it
        transform = getattr(child, "transform", None)
        if transform is not None and len(transform) == 6:
            det = transform[0] * transform[3] - transform[1] * transform[2]
            if not abs(det) > 1e-200:  # zero, or so small that its inverse overflows
                continue
        _drop_vanished(child)
        kept.append(child)
    node.contents[:] = kept


def _embedded_fonts_only(node) -> None:
    """ReportLab's drawings default to Helvetica, which would go into the PDF unembedded (print
    shops reject that); text in SVG art prints in the embedded regular family instead."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = getattr(node, "fontName", None)
    if name is not None:
        try:
            embedded = isinstance(pdfmetrics.getFont(name), TTFont)
        except KeyError:
            embedded = False
        if not embedded:
            node.fontName = font_name("regular")
    for child in getattr(node, "contents", ()) or ():
        _embedded_fonts_only(child)
