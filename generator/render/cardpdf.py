"""Lone card faces as PDF pages: trim plus bleed on all four sides, with TrimBox and BleedBox.

Print services (DriveThruCards) take one PDF page per card side, and every per-card picture
(PNG exports, Tabletop Simulator sheets, the proof page) is rendered from such a page with
pypdfium2, so a picture shows exactly what prints. On a sheet a face bleeds only towards the
sheet's outer edges; alone, it bleeds on every side: elements marked ``bleed`` were laid out
past the trim already, and the page clips them to the media box.

A :class:`CardFrame` says where a face goes on its page. The plain frame is the face's own trim
with the bleed around it; a print service's frame may be a hair bigger or smaller than the card
(2.75 x 4.75 in for a 70 x 120 mm tarot card), and then the face is scaled uniformly to fit
inside the service's trim, centred, and the bleed art fills the rest.

A card with rounded corners (``corner_radius_mm``) is cut to them on its page: the page is
clipped to the rounded trim grown by the bleed (the same centres, so the bleed keeps its width
all round) over white paper, and nothing is painted in the corners beyond. A picture rendered
with a transparent background then has transparent corners. Tabletop Simulator rounds its
cards itself: its frames are not ``rounded``.
"""

from __future__ import annotations

from collections.abc import Iterable
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

from msgspec import Struct
from reportlab.lib.units import mm

from generator.layout.engine import FaceLayout
from generator.render.pdf import OpPainter, pnp_canvas

Box = tuple[float, float, float, float]  # x, y, width, height in mm, from the top-left corner


class CardFrame(Struct, frozen=True, gc=False):
    """A page for one face: media size, the trim box on it, and where the face's trim lands."""

    page_w: float
    page_h: float
    trim: Box
    card_x: float  # page position of the face's top-left trim corner
    card_y: float
    scale: float = 1.0
    #: cut the page to the face's rounded corners (when it has them)
    rounded: bool = True

    def bleed_needed(self, face_w: float, face_h: float) -> float:
        """How far (in face mm) bleed art must reach past the face's trim to cover the page."""
        right = self.page_w - self.card_x - face_w * self.scale
        bottom = self.page_h - self.card_y - face_h * self.scale
        return max(self.card_x, self.card_y, right, bottom) / self.scale


def plain_frame(width_mm: float, height_mm: float, bleed_mm: float,
                rounded: bool = True) -> CardFrame:
    """The face's own trim with ``bleed_mm`` on every side (trim only when the bleed is 0)."""
    return CardFrame(width_mm + 2 * bleed_mm, height_mm + 2 * bleed_mm,
                     (bleed_mm, bleed_mm, width_mm, height_mm), bleed_mm, bleed_mm,
                     rounded=rounded)


def rounded_outline(face: FaceLayout, frame: CardFrame) -> tuple[Box, float] | None:
    """The rounded shape a face's page is cut to (x, y, w, h from the page's top-left corner,
    and the corner radius, in mm); None for square corners."""
    if not frame.rounded or face.corner_radius_mm <= 0:
        return None
    width, height = face.width_mm * frame.scale, face.height_mm * frame.scale
    bleed = max(0.0, min(frame.card_x, frame.card_y, frame.page_w - frame.card_x - width,
                         frame.page_h - frame.card_y - height))
    return ((frame.card_x - bleed, frame.card_y - bleed, width + 2 * bleed, height + 2 * bleed),
            face.corner_radius_mm * frame.scale + bleed)


class CardPdf:
    """One PDF of lone card faces, a page each (all sides of one card, or a whole deck)."""

    def __init__(self, target: Path | BinaryIO, title: str, compress: bool = True) -> None:
        """``compress``: deflate the page and font streams (a picture drawn from the PDF at
        once and dropped need not: it is drawn sooner without)."""
        self.canvas = pnp_canvas(target if not isinstance(target, Path) else str(target),
                                 title, compress=compress)
        self.pages = 0

    def add_framed(self, face: FaceLayout, frame: CardFrame) -> None:
        c = self.canvas
        width, height = frame.page_w * mm, frame.page_h * mm
        c.setPageSize((width, height))
        tx, ty, tw, th = frame.trim
        c.setTrimBox((tx * mm, height - (ty + th) * mm, (tx + tw) * mm, height - ty * mm))
        c.setBleedBox((0, 0, width, height))
        c.saveState()
        clip = c.beginPath()
        outline = rounded_outline(face, frame)
        if outline is None:
            clip.rect(0, 0, width, height)
            c.clipPath(clip, stroke=0, fill=0)
        else:
            (x, y, w, h), radius = outline
            clip.roundRect(x * mm, height - (y + h) * mm, w * mm, h * mm, radius * mm)
            c.clipPath(clip, stroke=0, fill=0)
            c.setFillColorRGB(1, 1, 1)  # the card's paper: white under whatever it prints
            c.rect(0, 0, width, height, stroke=0, fill=1)
        c.translate(frame.card_x * mm,
                    height - (frame.card_y + face.height_mm * frame.scale) * mm)
        if frame.scale != 1.0:
            c.scale(frame.scale, frame.scale)
        OpPainter(c, face.height_mm).draw(face.ops)
        c.restoreState()
        c.showPage()
        self.pages += 1

    def save(self) -> None:
        self.canvas.save()


def card_pdf_bytes(pages: Iterable[tuple[FaceLayout, CardFrame]], title: str,
                   compress: bool = True) -> bytes:
    """The same pages in memory, for rendering to pictures without a file in between."""
    buffer = BytesIO()
    document = CardPdf(buffer, title, compress)
    for face, frame in pages:
        document.add_framed(face, frame)
    document.save()
    return buffer.getvalue()
