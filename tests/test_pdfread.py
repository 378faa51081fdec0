"""The tests' PDF reader (tests/pdfread.py) against a page drawn with known values: what a form
XObject holds is reported where it lands on the page, strokes at their printed width."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfread import Box, open_pdf, pdf_text
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.load.fonts import font_name

PAGE = (200.0, 100.0)


def _page_with_a_form(tmp_path: Path) -> Path:
    """A 200 x 100 pt page: a form (a red filled rect, a blue 1 pt dashed line, a circle, a
    4 x 3 px picture and a word) drawn once at (10, 20) at full size and once at (100, 20) at
    half size."""
    picture = tmp_path / "dot.png"
    Image.new("RGB", (4, 3), (0, 128, 0)).save(picture)
    path = tmp_path / "form.pdf"
    canvas = Canvas(str(path), pagesize=PAGE, invariant=1)
    canvas.beginForm("face")
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(0, 0, 40, 20, stroke=0, fill=1)
    canvas.setStrokeColorRGB(0, 0, 1)
    canvas.setLineWidth(1)
    canvas.setDash(3, 1)
    canvas.line(0, 30, 40, 30)
    canvas.setDash()
    canvas.circle(70, 30, 5, stroke=1, fill=0)
    canvas.drawImage(str(picture), 50, 0, 8, 6)
    canvas.setFont(font_name("bold"), 10)
    canvas.setFillColorRGB(0, 0, 0.5)
    canvas.drawString(0, 40, "Ship")
    canvas.endForm()
    for x, scale in ((10, 1.0), (100, 0.5)):
        canvas.saveState()
        canvas.translate(x, 20)
        canvas.scale(scale, scale)
        canvas.doForm("face")
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return path


def _boxes(found: list[Box]) -> list[tuple[float, ...]]:
    return [tuple(round(v, 2) for v in (b.x0, b.top, b.x1, b.bottom)) for b in found]


def test_a_form_drawn_twice_is_read_where_each_copy_lands(tmp_path: Path) -> None:
    with open_pdf(_page_with_a_form(tmp_path)) as pages:
        page = pages[0]
        rects, lines, curves, images = page.rects, page.lines, page.curves, page.images
        words = page.words()
        chars = page.chars
    # y from the page's top: the rect's bottom edge at 20 pt up is 80 pt down
    assert _boxes(rects) == [(10, 60, 50, 80), (100, 70, 120, 80)]
    assert {r.fill for r in rects} == {(1, 0, 0)} and {r.stroke for r in rects} == {None}
    assert _boxes(lines) == [(10, 50, 50, 50), (100, 65, 120, 65)]
    assert [ln.linewidth for ln in lines] == pytest.approx([1.0, 0.5])  # as printed
    assert {ln.stroke for ln in lines} == {(0, 0, 1)} and {ln.dash for ln in lines} == {(3, 1)}
    assert {ln.path for ln in lines} == {"ml"} and {r.path[0] for r in rects} == {"m"}
    assert _boxes(curves) == [(75, 45, 85, 55), (132.5, 62.5, 137.5, 67.5)]
    assert [c.path.count("c") for c in curves] == [4, 4] and {c.dash for c in curves} == {()}
    assert _boxes(images) == [(60, 74, 68, 80), (125, 77, 129, 80)]
    assert [i.px for i in images] == [(4, 3), (4, 3)]
    assert [(w.text, w.fontname) for w in words] == [("Ship", "PTSans-Bold")] * 2
    assert words[0].x0 == pytest.approx(10) and words[1].x0 == pytest.approx(100)
    assert {c.fill for c in chars} == {(0, 0, 128 / 255)}
    assert pdf_text(tmp_path / "form.pdf").split() == ["Ship", "Ship"]
