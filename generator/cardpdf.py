"""Lone card faces as PDF pages: trim plus bleed on all four sides, with TrimBox and BleedBox.

Print services (DriveThruCards) take one PDF page per card side, and every per-card picture
(PNG exports, the proof page) is rendered from such a page with pypdfium2, so a picture shows
exactly what prints. On a sheet a face bleeds only towards the sheet's outer edges; alone, it
bleeds on every side: elements marked ``bleed`` were laid out past the trim already, and the
page clips them to trim + bleed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.fonts import font_name
from generator.layout.engine import FaceLayout
from generator.render import OpPainter


def card_page_size_mm(face: FaceLayout, bleed_mm: float) -> tuple[float, float]:
    """The media size of a lone face: its trim plus the bleed on both sides of each axis."""
    return face.width_mm + 2 * bleed_mm, face.height_mm + 2 * bleed_mm


class CardPdf:
    """One PDF of lone card faces, a page each (all sides of one card, or a whole deck)."""

    def __init__(self, path: Path, title: str) -> None:
        self.canvas = Canvas(str(path), invariant=1, pageCompression=1,
                             initialFontName=font_name("regular"), initialFontSize=8)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("pnp")
        self.canvas.setCreator("pnp print-and-play generator")
        self.pages = 0

    def add_face(self, face: FaceLayout, bleed_mm: float) -> None:
        width, height = card_page_size_mm(face, bleed_mm)
        b = bleed_mm * mm
        c = self.canvas
        c.setPageSize((width * mm, height * mm))
        trim = (b, b, b + face.width_mm * mm, b + face.height_mm * mm)
        c.setTrimBox(trim)
        c.setBleedBox((0, 0, width * mm, height * mm))
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, 0, width * mm, height * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(b, b)
        OpPainter(c, face.height_mm).draw(face.ops)
        c.restoreState()
        c.showPage()
        self.pages += 1

    def save(self) -> None:
        self.canvas.save()


def write_card_pdf(path: Path, faces: Iterable[FaceLayout], bleed_mm: float,
                   title: str = "pnp card") -> int:
    """Write ``faces`` as one page each; returns the number of pages written."""
    document = CardPdf(path, title)
    for face in faces:
        document.add_face(face, bleed_mm)
    document.save()
    return document.pages
