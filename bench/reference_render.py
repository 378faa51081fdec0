"""What pnp's painter did until session 6, kept as the floor of bench/scaling.py: each op drawn
through ReportLab's own drawing calls (text objects, colour objects, paths, transforms).

pnp's painter (generator.render.pdf.OpPainter) now writes those operators itself, formatted by
ReportLab's number writer, and its files are byte-identical to what these calls make. Budget 2
compares pnp's build with "ReportLab alone making pnp's own drawing calls": recording pnp's
calls now would record mostly finished operators (``addLiteral``), and the floor would leave
out the drawing work pnp took over from ReportLab. So bench/record_build.py records a build
drawn through this painter: the replay makes the calls ReportLab needs to draw the same ops.
"""

from __future__ import annotations

from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.layout.ops import Text
from generator.load.fonts import font_name
from generator.render.pdf import OpPainter, SheetRenderer


@cache
def _color(value: str) -> HexColor:
    return HexColor(value)


class ReferencePainter(OpPainter):
    """pnp's op painter drawing through ReportLab's API (one call or object per setting)."""

    # the primitives generator.render.pdf.OpPainter writes as operators, as ReportLab calls

    def _set_fill(self, fill: str) -> None:
        if fill != self._fill:
            self.c.setFillColor(_color(fill))
            self._fill = fill

    def _set_stroke(self, stroke: str, width_pt: float) -> None:
        if stroke != self._stroke:
            self.c.setStrokeColor(_color(stroke))
            self._stroke = stroke
        if width_pt != self._width:
            self.c.setLineWidth(width_pt)
            self._width = width_pt

    def _clip(self, x: float, y: float, w: float, h: float) -> None:
        path = self.c.beginPath()
        path.rect(x, y, w, h)
        self.c.clipPath(path, stroke=0, fill=0)

    def _rect(self, x: float, y: float, w: float, h: float, stroke: int, fill: int) -> None:
        self.c.rect(x, y, w, h, stroke=stroke, fill=fill)

    def _line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.c.line(x1, y1, x2, y2)

    def _move_and_scale(self, x: float, y: float, scale_x: float, scale_y: float) -> None:
        self.c.translate(x, y)
        self.c.scale(scale_x, scale_y)

    def _draw_texts(self, ops: list[Text]) -> None:
        text = self.c.beginText()
        font: tuple[str, float] | None = None
        for op in ops:
            name = font_name(op.font)
            if (name, op.size_pt) != font:
                font = (name, op.size_pt)
                text.setFont(name, op.size_pt)
            fill = op.color or "#000000"
            if fill != self._fill:  # a text's colour is the page's fill colour, kept after it
                text.setFillColor(_color(fill))
                self._fill = fill
            x = op.x * mm
            if op.anchor != "left":
                width = stringWidth(op.text, name, op.size_pt)
                x -= width if op.anchor == "right" else width / 2
            text.setTextOrigin(x, self.y(op.y))
            text.textOut(op.text)
        self.c.drawText(text)


class ReferenceRenderer(SheetRenderer):
    """pnp's sheet renderer drawing (and placing) every face with :class:`ReferencePainter`."""

    painter = ReferencePainter
