"""The floor: bare ReportLab drawing N simple cards, fronts and backs, in one PDF.

Run as its own process (``python bench/baseline_reportlab.py N OUT.pdf``) and timed against a
whole ``pnp build`` process by ``bench/build_vs_reportlab.py``. It imports nothing of pnp: PT
Sans comes straight from its font package and is embedded as a TrueType subset, as pnp does.
Each card is a plain one with about as much drawing as a pnp face: a background, a header band,
eleven strings (name, two sub-lines, two ratings with labels, five lines of rules text); each
back a fill and a title. Poker cards 3 x 3 on A4, backs mirrored for a long-edge flip, crop
marks per page. It knows nothing of templates, text fitting, icons or rules.
"""

from __future__ import annotations

import sys
from importlib import resources

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

TEXT = ("A first-row ship with a gun of this size fires at a ship in the enemy's first row. "
        "Countered by Evasive Maneuvers or Damage Control.")
WORDS = TEXT.split()
CARD_W, CARD_H, X0, Y0 = 63.5, 88.9, 9.75, 15.15


def register_fonts() -> tuple[str, str]:
    files = resources.files("fontpkg_pt_sans").joinpath("files")
    for name, file in (("Regular", "PT_Sans-Web-Regular.ttf"), ("Bold", "PT_Sans-Web-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(f"PTSans-{name}", str(files.joinpath(file))))
    return "PTSans-Regular", "PTSans-Bold"


def card_origin(slot: int) -> tuple[float, float]:
    return (X0 + (slot % 3) * CARD_W) * mm, 297 * mm - (Y0 + (slot // 3 + 1) * CARD_H) * mm


def draw_front(canvas: Canvas, slot: int, number: int, regular: str, bold: str) -> None:
    x, y = card_origin(slot)
    canvas.setFillColorRGB(0.96, 0.95, 0.91)
    canvas.rect(x, y, CARD_W * mm, CARD_H * mm, fill=1, stroke=0)
    canvas.setFillColorRGB(0.11, 0.21, 0.34)
    canvas.rect(x, y + 69 * mm, CARD_W * mm, 19.9 * mm, fill=1, stroke=0)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFont(bold, 12)
    canvas.drawString(x + 17 * mm, y + 82 * mm, f"Card {number}")
    canvas.setFont(regular, 7.5)
    canvas.drawString(x + 17 * mm, y + 77 * mm, "Destroyer class")
    canvas.drawString(x + 17 * mm, y + 73 * mm, "DDG \u00b7 Missile Destroyer \u00b7 United States")
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(bold, 15)
    canvas.drawRightString(x + 13 * mm, y + 3 * mm, str(number % 12 + 1))
    canvas.drawString(x + 4 * mm, y + 62 * mm, str(number % 9 + 1))
    canvas.setFont(regular, 7)
    canvas.drawString(x + 15 * mm, y + 3.5 * mm, "Points")
    canvas.drawString(x + 4 * mm, y + 58 * mm, "Hits to Sink")
    canvas.setFont(regular, 8)
    for line in range(5):
        canvas.drawString(x + 4 * mm, y + (20 - line * 3.5) * mm,
                          " ".join(WORDS[line * 5:(line + 1) * 5]))


def draw_back(canvas: Canvas, slot: int, bold: str) -> None:
    x, y = card_origin((slot // 3) * 3 + 2 - slot % 3)  # mirrored for a long-edge flip
    canvas.setFillColorRGB(0.11, 0.21, 0.34)
    canvas.rect(x, y, CARD_W * mm, CARD_H * mm, fill=1, stroke=0)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFont(bold, 17)
    canvas.drawCentredString(x + CARD_W / 2 * mm, y + CARD_H / 2 * mm, "COLD WAR")


def crop_marks(canvas: Canvas) -> None:
    canvas.setLineWidth(0.5)
    for column in range(4):
        x = (X0 + column * CARD_W) * mm
        canvas.line(x, 284 * mm, x, 289 * mm)
        canvas.line(x, 8 * mm, x, 13 * mm)
    for row in range(4):
        y = (Y0 + row * CARD_H) * mm
        canvas.line(3 * mm, y, 8 * mm, y)
        canvas.line(202 * mm, y, 207 * mm, y)


def main(cards: int, target: str) -> None:
    regular, bold = register_fonts()
    canvas = Canvas(target, pagesize=(210 * mm, 297 * mm), invariant=1,
                    initialFontName=regular)
    for start in range(0, cards, 9):
        sheet = range(start, min(start + 9, cards))
        for slot, index in enumerate(sheet):
            draw_front(canvas, slot, index + 1, regular, bold)
        crop_marks(canvas)
        canvas.showPage()
        for slot in range(len(sheet)):
            draw_back(canvas, slot, bold)
        crop_marks(canvas)
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
