"""Render drawing operations to PDF with ReportLab: millimetres become points only here.

A card face placed several times in a file is drawn once as a PDF form XObject and placed for
every copy; a face placed once is drawn straight onto its page (a form would only add an object,
its resources and a compressed stream of its own). Either way it is clipped to its trim plus the
bleed on the sides that face the sheet's outer edge. Canvases are created with ``invariant=1``
(same input, same bytes) and an embedded initial font (no stray Helvetica).
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.impose.sheets import Page, Placement
from generator.layout.engine import FaceLayout
from generator.layout.ops import (
    Arc,
    Circle,
    Ellipse,
    Gradient,
    Group,
    Image,
    Line,
    Op,
    Polygon,
    QrCode,
    Rect,
    Text,
    flat_ops,
)
from generator.load.fonts import font_name
from generator.render.pdfnames import ContentNamedPath
from generator.render.strokes import print_safe_width
from generator.render.vectorart import ArtKey, CompiledArt, compile_placements, compiled_art
from generator.render.vectorart import draw as draw_art

FaceKey = tuple[str, str]

# Compressed streams are written as binary: ASCII85 wrapping makes files 25 % bigger and costs a
# third of the build time, for 7-bit mail transport nobody uses for print files.
rl_config.useA85 = 0


class _QuickFlate(pdfdoc.PDFStreamFilterZCompress):
    """Flate at zlib's level 1 (ReportLab compresses at the default, 6, and has no setting).

    Font subsets are most of what a build compresses (PT Sans keeps hinting instructions in
    every glyph: about 66 KB a subset), and level 6 spent a fifth of the drawing time on them.
    Level 1 takes half the time for files about 6 % larger; any PDF reader inflates both."""

    level = 1

    def encode(self, text: str | bytes) -> bytes:
        return zlib.compress(text.encode("utf8") if isinstance(text, str) else text, self.level)


# ReportLab has no setting for the level: it looks its stream filter up in pdfdoc each time it
# writes a stream or a font subset, so this one assignment (made nowhere else) sets it.
# Checked against ReportLab 4.2 to 5.1.0; tests/render/test_painter.py fails if a release stops
# looking the filter up there (its streams would come out at level 6 again).
FLATE_CHECKED_WITH = "reportlab 4.2 - 5.1.0"
pdfdoc.PDFZCompress = _QuickFlate()


#: a rect's painting operator by (stroke, fill): ReportLab's even-odd fill rule, as its canvas
#: paints a rect
_PAINT_OPERATOR = {(1, 0): "S", (0, 1): "f*", (1, 1): "B*"}


@cache
def _color_operator(value: str, operator: str) -> str:
    """The operator that sets ``value`` ("#rrggbb") as the fill (``rg``) or stroke (``RG``)
    colour, as ReportLab writes it."""
    color = HexColor(value)
    return f"{fp_str(color.red, color.green, color.blue)} {operator}"


def _compiled(op: Image, folder: Path | None = None) -> tuple[ArtKey, CompiledArt]:
    """The SVG art of ``op`` at its placed size: one form per SVG file, colours and placed size
    (strokes are made print-safe for that size); see generator.render.vectorart."""
    return compiled_art(op.path, op.color, op.recolor, op.w, op.h, folder)


def pnp_canvas(target: str | BinaryIO, title: str, page_mm: tuple[float, float] | None = None,
               compress: bool = True) -> Canvas:
    """A canvas as pnp writes every PDF (sheets, card files, the tuck box): the same bytes for
    the same drawing (``invariant``), streams deflated unless ``compress`` is off, PT Sans as
    the initial font, and pnp as author and creator. ``page_mm``: the first page's size (else
    the caller sets each page's)."""
    size = {} if page_mm is None else {"pagesize": (page_mm[0] * mm, page_mm[1] * mm)}
    canvas = Canvas(target, invariant=1, pageCompression=1 if compress else 0,
                    initialFontName=font_name("regular"), initialFontSize=8, **size)
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp print-and-play generator")
    return canvas


class OpPainter:
    """Draws ops on a canvas in a frame whose top edge is at ``height_mm``.

    The common ops (upright text, rects, lines, colours, widths, placed art) are written as the
    PDF operators ReportLab's canvas would write for them, formatted by ReportLab's own number
    writer, and handed over with ``addLiteral``: the same bytes, without a text object, a colour
    object and a state check per call, which made drawing cost twice the layout. Rarer shapes
    (rounded rects, polygons, circles, arcs, turned text, raster images) go through the canvas.

    It remembers the fill colour, stroke colour and line width it last set and sets them again
    only when an op needs others (they last until a restoreState): a card face repeats a few
    colours over dozens of ops. Its first op always sets what it uses, so a face never depends
    on its surroundings."""

    def __init__(self, canvas: Canvas, height_mm: float,
                 vector_forms: dict[ArtKey, str] | None = None) -> None:
        self.c = canvas
        self.h = height_mm
        self._emit = canvas.addLiteral
        #: (SVG file, colour) -> the PDF form it was drawn into once (SheetRenderer.prepare_art)
        self.vector_forms = vector_forms if vector_forms is not None else {}
        self._forget_state()

    def _forget_state(self) -> None:
        self._fill: str | None = None
        self._stroke: str | None = None
        self._width: float | None = None

    def y(self, y_mm: float) -> float:
        return (self.h - y_mm) * mm

    # The state and path primitives: what the painter writes as operators itself.

    def _set_fill(self, fill: str) -> None:
        if fill != self._fill:
            self._emit(_color_operator(fill, "rg"))
            # a colour set through the canvas also sets its opacity, which makes the file
            # PDF 1.4: files keep the version they always had
            self.c._doc.ensureMinPdfVersion("transparency")
            self._fill = fill

    def _set_stroke(self, stroke: str, width_pt: float) -> None:
        if stroke != self._stroke:
            self._emit(_color_operator(stroke, "RG"))
            self.c._doc.ensureMinPdfVersion("transparency")
            self._stroke = stroke
        if width_pt != self._width:
            self._emit(f"{fp_str(width_pt)} w")
            self._width = width_pt

    def _clip(self, x: float, y: float, w: float, h: float) -> None:
        """Clip to a box given in points (even-odd, as a canvas clips a path)."""
        self._emit(f"n {fp_str(x, y, w, h)} re W* n")

    def _rect(self, x: float, y: float, w: float, h: float, stroke: int, fill: int) -> None:
        self._emit(f"n {fp_str(x, y, w, h)} re {_PAINT_OPERATOR[stroke, fill]}")

    def _line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self._emit(f"n {fp_str(x1, y1)} m {fp_str(x2, y2)} l S")

    def _move_and_scale(self, x: float, y: float, scale_x: float, scale_y: float) -> None:
        """The matrix ``canvas.translate(x, y)`` then ``canvas.scale(...)`` would make."""
        self._emit(f"{fp_str(scale_x, 0, 0, scale_y, x, y)} cm")

    def _paint(self, fill: str | None, stroke: str | None, width_pt: float) -> tuple[int, int]:
        if fill:
            self._set_fill(fill)
        if stroke:
            self._set_stroke(stroke, print_safe_width(width_pt))
        return (1 if stroke else 0, 1 if fill else 0)

    def _shade(self, gradient: Gradient, path: object, box: tuple[float, float, float, float]
               ) -> None:
        """Fill ``path`` (its bounding ``box`` in points: x, y, w, h) with a linear gradient:
        the shape clips an axial shading laid across the gradient's span (else the box) at
        its angle, extended past both ends."""
        c = self.c
        x, y, w, h = box
        if gradient.span is not None:  # the element's own box: the bleed continues its ends
            sx, sy, sw, sh = gradient.span
            x, y, w, h = sx * mm, self.y(sy + sh), sw * mm, sh * mm
        angle = math.radians(gradient.angle)
        dx, dy = math.cos(angle), -math.sin(angle)  # card y runs down, PDF's y up
        half = (abs(w * dx) + abs(h * dy)) / 2
        cx, cy = x + w / 2, y + h / 2
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        c.linearGradient(cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half,
                         [HexColor(color) for color in gradient.colors], extend=True)
        c.restoreState()
        self._forget_state()

    def _filled_path(self, op: Rect | Ellipse | Polygon, path: object,
                     box: tuple[float, float, float, float]) -> None:
        """A shape built as a canvas path: its gradient (if any) or colour, then its stroke."""
        fill = op.fill
        if isinstance(fill, Gradient):
            self._shade(fill, path, box)
            fill = None
        stroke, painted = self._paint(fill, op.stroke, op.width_pt)
        if stroke or painted:
            self.c.drawPath(path, stroke=stroke, fill=painted)

    def draw(self, ops: Iterable[Op]) -> None:
        """Draw in order; runs of upright text share one PDF text object (far fewer operators
        than one object per string, which is what dominates a card face)."""
        texts: list[Text] = []
        for op in ops:
            if isinstance(op, Text) and not op.angle:
                texts.append(op)
                continue
            if texts:
                self._draw_texts(texts)
                texts = []
            getattr(self, f"_draw_{type(op).__name__.lower()}")(op)
        if texts:
            self._draw_texts(texts)

    def _draw_texts(self, ops: list[Text]) -> None:
        """One text object, as ReportLab's writes it (origin, colour, font subset, string)."""
        doc = self.c._doc
        code = ["BT", "1 0 0 1 0 0 Tm"]
        font: tuple[str, float] | None = None
        face = None
        subset_now = -1
        size_and_leading = ""
        for op in ops:
            name = font_name(op.font)
            if (name, op.size_pt) != font:
                font = (name, op.size_pt)
                face = getFont(name)
                subset_now = -1  # the subset is named again at the next string
                size_and_leading = f"{fp_str(op.size_pt)} Tf {fp_str(op.size_pt * 1.2)} TL"
            fill = op.color or "#000000"
            if fill != self._fill:  # a text's colour is the page's fill colour, kept after it
                code.append(_color_operator(fill, "rg"))  # (a text object's colour sets no opacity)
                self._fill = fill
            x = op.x * mm
            if op.anchor != "left":
                width = stringWidth(op.text, name, op.size_pt)
                x -= width if op.anchor == "right" else width / 2
            code.append(f"1 0 0 1 {fp_str(x, self.y(op.y))} Tm")
            shown = []
            for subset, encoded in face.splitString(op.text, doc):
                if subset != subset_now:
                    shown.append(f"{face.getSubsetInternalName(subset, doc)} "
                                 f"{size_and_leading}")
                    subset_now = subset
                shown.append(f"({escapePDF(encoded)}) Tj")
            code.append(" ".join(shown))
        code.append("ET")
        self._emit(" ".join(code))

    def _draw_rect(self, op: Rect) -> None:
        if isinstance(op.fill, Gradient):
            x, y = op.x * mm, self.y(op.y + op.h)
            path = self.c.beginPath()
            if op.radius > 0:
                path.roundRect(x, y, op.w * mm, op.h * mm, op.radius * mm)
            else:
                path.rect(x, y, op.w * mm, op.h * mm)
            self._filled_path(op, path, (x, y, op.w * mm, op.h * mm))
            return
        stroke, fill = self._paint(op.fill, op.stroke, op.width_pt)
        if not (fill or stroke):
            return
        x, y = op.x * mm, self.y(op.y + op.h)
        if op.radius > 0:
            self.c.roundRect(x, y, op.w * mm, op.h * mm, op.radius * mm, stroke=stroke, fill=fill)
        else:
            self._rect(x, y, op.w * mm, op.h * mm, stroke, fill)

    def _draw_polygon(self, op: Polygon) -> None:
        path = self.c.beginPath()
        first, *rest = op.points
        path.moveTo(first[0] * mm, self.y(first[1]))
        for px, py in rest:
            path.lineTo(px * mm, self.y(py))
        if op.closed:
            path.close()
        if isinstance(op.fill, Gradient):
            xs = [px * mm for px, _ in op.points]
            ys = [self.y(py) for _, py in op.points]
            self._filled_path(op, path, (min(xs), min(ys), max(xs) - min(xs),
                                         max(ys) - min(ys)))
            return
        stroke, fill = self._paint(op.fill, op.stroke, op.width_pt)
        self.c.drawPath(path, stroke=stroke, fill=fill)

    def _draw_ellipse(self, op: Ellipse) -> None:
        x, y, w, h = op.x * mm, self.y(op.y + op.h), op.w * mm, op.h * mm
        path = self.c.beginPath()
        path.ellipse(x, y, w, h)
        self._filled_path(op, path, (x, y, w, h))

    def _draw_group(self, op: Group) -> None:
        """Ops drawn at the group's opacity: ReportLab's alpha settings, which PDF writes as an
        ExtGState (``ca`` for fills, ``CA`` for strokes), undone by the restore."""
        c = self.c
        c.saveState()
        c.setFillAlpha(op.opacity)
        c.setStrokeAlpha(op.opacity)
        self.draw(op.ops)
        c.restoreState()
        self._forget_state()

    def _draw_qrcode(self, op: QrCode) -> None:
        """ReportLab's own QR widget (level M, the standard quiet zone of four modules inside
        the square), drawn as vectors: sharp at any size."""
        # imported for the faces that have a QR code only: most builds never draw one
        from reportlab.graphics import renderPDF
        from reportlab.graphics.barcode.qr import QrCodeWidget
        from reportlab.graphics.shapes import Drawing

        size = op.size * mm
        widget = QrCodeWidget(op.data, barLevel="M", barWidth=size, barHeight=size,
                              barFillColor=HexColor(op.color), barBorder=4)
        drawing = Drawing(size, size)
        drawing.add(widget)
        renderPDF.draw(drawing, self.c, op.x * mm, self.y(op.y + op.size), showBoundary=False)
        self._forget_state()

    def _draw_circle(self, op: Circle) -> None:
        stroke, fill = self._paint(op.fill, op.stroke, op.width_pt)
        self.c.circle(op.cx * mm, self.y(op.cy), op.r * mm, stroke=stroke, fill=fill)

    def _draw_arc(self, op: Arc) -> None:
        self._paint(None, op.stroke, op.width_pt)
        path = self.c.beginPath()
        path.arc((op.cx - op.r) * mm, self.y(op.cy + op.r), (op.cx + op.r) * mm,
                 self.y(op.cy - op.r), op.start_deg, op.extent_deg)
        self.c.drawPath(path, stroke=1, fill=0)

    def _draw_line(self, op: Line) -> None:
        self._paint(None, op.stroke, op.width_pt)
        if op.dash:
            self.c.setDash(list(op.dash))
        self._line(op.x1 * mm, self.y(op.y1), op.x2 * mm, self.y(op.y2))
        if op.dash:
            self.c.setDash([])

    def _draw_image(self, op: Image) -> None:
        """Raster art goes in by file name, which ReportLab embeds once per PDF however many
        faces place it; SVG art is a form drawn once (vectors) and placed scaled."""
        c = self.c
        c.saveState()
        if op.clip is not None:
            cx, cy, cw, ch = op.clip
            self._clip(cx * mm, self.y(cy + ch), cw * mm, ch * mm)
        if op.mask:
            mx, my, mw, mh = op.clip if op.clip is not None else (op.x, op.y, op.w, op.h)
            mask = c.beginPath()
            if op.mask == "ellipse":
                mask.ellipse(mx * mm, self.y(my + mh), mw * mm, mh * mm)
            else:
                mask.roundRect(mx * mm, self.y(my + mh), mw * mm, mh * mm, op.mask_radius * mm)
            c.clipPath(mask, stroke=0, fill=0)
        x, y = op.x * mm, self.y(op.y + op.h)
        if op.angle:
            c.translate(x, y)
            c.rotate(op.angle)
            x = y = 0.0
        if op.vector:
            with drawing_art(op.path):
                key, art = _compiled(op)
                scale_x, scale_y = op.w * mm / art.width, op.h * mm / art.height
                if op.angle:  # (the canvas folds these into the turn's matrix)
                    c.translate(x, y)
                    c.scale(scale_x, scale_y)
                else:
                    self._move_and_scale(x, y, scale_x, scale_y)
                form = self.vector_forms.get(key)
                if form is not None:
                    c.doForm(form)
                else:  # a painter outside a sheet (e.g. one card per page): draw it in place
                    draw_art(c, key, art)
        else:
            c.drawImage(_content_named(op.path), x, y, op.w * mm, op.h * mm, mask="auto")
        c.restoreState()
        self._forget_state()  # whatever the art set, be explicit again after it

    def _draw_text(self, op: Text) -> None:
        self.c.setFont(font_name(op.font), op.size_pt)
        # set outside the rotation's saveState: it stays set
        self._set_fill(op.color or "#000000")
        x, y = op.x * mm, self.y(op.y)
        if op.angle:
            self.c.saveState()
            self.c.translate(x, y)
            self.c.rotate(op.angle)
            x, y = 0.0, 0.0
        draw = {"center": self.c.drawCentredString, "right": self.c.drawRightString}.get(
            op.anchor, self.c.drawString)
        draw(x, y, op.text)
        if op.angle:
            self.c.restoreState()


def _content_named(path: str) -> str:
    try:
        stat = os.stat(path)
    except OSError:  # (ReportLab says what is wrong with it, as before)
        return path
    return ContentNamedPath(path, _content_name(path, stat.st_size, stat.st_mtime_ns))


@cache
def _content_name(path: str, size: int, mtime_ns: int) -> str:
    """The file's content digest (the size and time make the cache see an edit)."""
    import hashlib

    with open(path, "rb") as file:
        return "image:" + hashlib.file_digest(file, "sha256").hexdigest()


@contextmanager
def drawing_art(path: str) -> Iterator[None]:
    """Validation reads an SVG as well-formed XML with a size; only drawing it finds what svglib
    or ReportLab cannot do with it (a picture inside it that cannot be decoded, a number too
    large to write): the output stops with the file's name, not an internal error."""
    from generator.core.errors import UsageError
    from generator.core.location import display_path
    from generator.load.art import ArtProblem

    try:
        yield
    except ArtProblem as problem:
        raise UsageError(f"{display_path(Path(path))}: {problem.message}") from None
    except (ValueError, TypeError, ArithmeticError, AttributeError, KeyError,
            IndexError) as exc:
        detail = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        if "_fp_" in detail:  # ReportLab's number writer met an infinity or NaN
            detail = "a number in it is infinite or not a number"
        raise UsageError(f"{display_path(Path(path))}: this SVG cannot be drawn ({detail}); "
                         "save it again as plain SVG") from None


def read_vector_art(faces: Iterable[FaceLayout], folder: Path | None = None) -> None:
    """Compile every SVG the faces draw (in each of its colourings and placed sizes) before the
    drawing processes fork, so that they share one reading instead of each parsing the files
    again; ``folder`` keeps the compiled art for the next build (generator.render.vectorart). An SVG
    that cannot be drawn stops here, naming its file."""
    placed: dict[tuple[str, str | None, tuple, float, float], Image] = {}
    for face in faces:
        for op in flat_ops(face.ops):
            if isinstance(op, Image) and op.vector:
                placed.setdefault((op.path, op.color, op.recolor, op.w, op.h), op)
    compile_placements(list(placed), folder)  # what no cache holds, on two cores
    for op in placed.values():  # (what failed there fails here, in order, naming its file)
        with drawing_art(op.path):
            _compiled(op, folder)


class SheetRenderer:
    """One PDF file of pages; faces become forms the first time a page needs them."""

    #: what draws the ops (bench/reference_render.py draws them through ReportLab's calls)
    painter: type[OpPainter] = OpPainter

    def __init__(self, path: Path, paper_mm: tuple[float, float], title: str,
                 faces: dict[FaceKey, FaceLayout], bleed_mm: float,
                 placed_once: Collection[FaceKey] = ()) -> None:
        self.paper = paper_mm
        self.faces = faces
        self.bleed = bleed_mm
        #: faces this file places only once: drawn in place instead of as a form
        self.placed_once = placed_once
        self.canvas = pnp_canvas(str(path), title, paper_mm)
        self.form_names: dict[FaceKey, str] = {}
        self.vector_forms: dict[ArtKey, str] = {}
        #: clips and moves to each placed card, in the sheet's points (no frame to flip)
        self._sheet = self.painter(self.canvas, 0.0)

    def _prepare_art(self, ops: list[Op]) -> None:
        """Draw each SVG file (in each colour it is painted) into a form of its own before the
        face form that uses it (PDF forms cannot be begun inside one another)."""
        for op in flat_ops(ops):
            if not isinstance(op, Image) or not op.vector:
                continue
            with drawing_art(op.path):
                key, art = _compiled(op)
                if key in self.vector_forms:
                    continue
                name = f"art{len(self.vector_forms)}"
                self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=art.width,
                                      uppery=art.height)
                draw_art(self.canvas, key, art)
                self.canvas.endForm()
                self.vector_forms[key] = name

    def _form(self, key: FaceKey) -> str:
        name = self.form_names.get(key)
        if name is not None:
            return name
        name = f"face{len(self.form_names)}"
        b = self.bleed * mm
        face = self.faces[key]
        self._prepare_art(face.ops)
        self.canvas.beginForm(name, lowerx=-b, lowery=-b, upperx=face.width_mm * mm + b,
                              uppery=face.height_mm * mm + b)
        self.painter(self.canvas, face.height_mm, self.vector_forms).draw(face.ops)
        self.canvas.endForm()
        self.form_names[key] = name
        return name

    def _place(self, placement: Placement) -> None:
        direct = placement.face in self.placed_once
        if direct:
            self._prepare_art(self.faces[placement.face].ops)  # before the page's clip state
        else:
            form = self._form(placement.face)
        top, right, bottom, left = placement.bleed_sides
        c = self.canvas
        c.saveState()
        low = self.paper[1] - placement.y - placement.h
        self._sheet._clip((placement.x - left) * mm, (low - bottom) * mm,
                          (placement.w + left + right) * mm, (placement.h + top + bottom) * mm)
        self._sheet._move_and_scale(placement.x * mm, low * mm, 1, 1)
        if direct:
            face = self.faces[placement.face]
            self.painter(c, face.height_mm, self.vector_forms).draw(face.ops)
        else:
            c.doForm(form)
        c.restoreState()

    def _page_boxes(self, page: Page) -> None:
        """TrimBox: the cards' trim on the sheet; BleedBox: that plus the bleed they show
        (the media box when the page has no cards, as PDF defaults both to it)."""
        height = self.paper[1]
        for box, setter in ((page.trim_box, self.canvas.setTrimBox),
                            (page.bleed_box(self.paper), self.canvas.setBleedBox)):
            x, y, w, h = box if box is not None else (0.0, 0.0, *self.paper)
            setter((x * mm, (height - y - h) * mm, (x + w) * mm, (height - y) * mm))

    def add_page(self, page: Page) -> None:
        for placement in page.placements:
            self._place(placement)
        self.painter(self.canvas, self.paper[1]).draw(page.marks)
        self._page_boxes(page)
        self.canvas.showPage()

    def save(self) -> None:
        self.canvas.save()
