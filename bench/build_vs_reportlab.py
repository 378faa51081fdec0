"""Benchmark: ``pnp build cards/cwnb`` against a bare ReportLab script drawing as many cards.

The bare script is the floor: same paper, same 3 x 3 poker grid, same embedded TrueType fonts,
the same three files (fronts, backs, duplex), crop marks, and per card a background, a header band
and eleven strings (name, two sub-lines, two ratings with labels, five lines of rules text). It
knows nothing of templates, text fitting, icons, forms or findings. The ratio says what pnp's
pipeline costs on top (target: within 3x). Run with ``make bench``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.build import build  # noqa: E402
from generator.fonts import font_name  # noqa: E402
from generator.impose import SheetOptions  # noqa: E402
from generator.layout.textfit import fit_text  # noqa: E402
from generator.validate import validate  # noqa: E402

RUNS = 5
TEXT = ("A first-row ship with a gun of this size fires at a ship in the enemy's first row. "
        "Countered by Evasive Maneuvers or Damage Control.")


def _draw_card(canvas: Canvas, slot: int, number: int, regular: str, bold: str) -> None:
    """A plain card with about as much text as a pnp face: header band, name, type line, two
    ratings with their labels and five lines of rules text (no icons, no fitting)."""
    x = (9.75 + (slot % 3) * 63.5) * mm
    y = 297 * mm - (15.15 + (slot // 3 + 1) * 88.9) * mm
    canvas.setFillColorRGB(0.96, 0.95, 0.91)
    canvas.rect(x, y, 63.5 * mm, 88.9 * mm, fill=1, stroke=1)
    canvas.setFillColorRGB(0.11, 0.21, 0.34)
    canvas.rect(x, y + 69 * mm, 63.5 * mm, 19.9 * mm, fill=1, stroke=0)
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
    words = TEXT.split()
    for line in range(5):
        canvas.drawString(x + 4 * mm, y + (20 - line * 3.5) * mm,
                          " ".join(words[line * 5:(line + 1) * 5]))


def _crop_marks(canvas: Canvas) -> None:
    canvas.setLineWidth(0.5)
    for column in range(4):
        x = (9.75 + column * 63.5) * mm
        canvas.line(x, 284 * mm, x, 289 * mm)
        canvas.line(x, 8 * mm, x, 13 * mm)
    for row in range(4):
        y = (15.15 + row * 88.9) * mm
        canvas.line(3 * mm, y, 8 * mm, y)
        canvas.line(202 * mm, y, 207 * mm, y)


def bare_reportlab(out: Path, cards: int) -> None:
    """The same files pnp writes: fronts, backs, and both interleaved for duplex printers."""
    regular, bold = font_name("regular"), font_name("bold")
    sheets = [list(range(start, min(start + 9, cards))) for start in range(0, cards, 9)]
    plans = {"fronts": [(s, "front") for s in sheets], "backs": [(s, "back") for s in sheets],
             "duplex": [(s, side) for s in sheets for side in ("front", "back")]}
    for name, pages in plans.items():
        canvas = Canvas(str(out / f"{name}.pdf"), pagesize=(210 * mm, 297 * mm), invariant=1,
                        initialFontName=regular)
        for sheet, side in pages:
            for slot, index in enumerate(sheet):
                mirrored = slot if side == "front" else (slot // 3) * 3 + 2 - slot % 3
                _draw_card(canvas, mirrored, index + 1, regular, bold)
            _crop_marks(canvas)
            canvas.showPage()
        canvas.save()


def timed(action) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cold_build(pack: Path, out: Path) -> None:
    """One build as a fresh ``pnp build`` process would run it: text-fitting cache empty."""
    fit_text.cache_clear()
    result = build(pack, (), "en", SheetOptions(paper="a4"), out)
    if result.out_dir is None:
        raise SystemExit("the pack did not build: " + "; ".join(f.as_text()
                                                                 for f in result.findings))


def main() -> None:
    pack = ROOT / "cards" / "cwnb"
    copies = sum(card.count for card in validate(pack).card_set.cards)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        bare = timed(lambda: bare_reportlab(out, copies))
        pnp = timed(lambda: cold_build(pack, out / "pnp"))
        validate_time = timed(lambda: validate(pack))
    print(f"cards (copies)           {copies}")
    print(f"bare ReportLab, 3 PDFs   {bare * 1000:8.1f} ms")
    print(f"pnp build, 3 PDFs        {pnp * 1000:8.1f} ms")
    print(f"pnp validate             {validate_time * 1000:8.1f} ms")
    print(f"ratio build / bare       {pnp / bare:8.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main()
