"""The op painter writes PDF operators itself (generator.render.pdf.OpPainter): what it writes must
read back, with pdfium, as the ops said: text, its place and colour, rects, lines, widths."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfread import open_pdf
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas

from generator.layout.ops import Line, Op, Rect, Text
from generator.load.fonts import font_name, string_width_mm
from generator.render.pdf import OpPainter

PAGE_MM = (120.0, 80.0)


def _painted(tmp_path, ops: list[Op]) -> Path:
    """A one-page PDF of ``ops`` as the painter draws them."""
    path = tmp_path / "ops.pdf"
    canvas = Canvas(str(path), pagesize=(PAGE_MM[0] * mm, PAGE_MM[1] * mm), invariant=1,
                    initialFontName=font_name("regular"))
    OpPainter(canvas, PAGE_MM[1]).draw(ops)
    canvas.showPage()
    canvas.save()
    return path


def _mm(points: float) -> float:
    return points / mm


def test_a_text_of_more_than_one_font_subset_reads_back_whole(tmp_path):
    # a TrueType subset holds at most 256 codes: 300 distinct letters need a second one, and
    # the painter must name the subset again where the string crosses into it
    covered = getFont(font_name("regular")).face.charToGlyph
    letters = "".join(chr(c) for c in (*range(0x21, 0x7F), *range(0xC0, 0x17F),
                                        *range(0x410, 0x450)) if c in covered)
    lines = [letters[i:i + 40] for i in range(0, len(letters), 40)]
    ops: list[Op] = [Text(2, 6 + 4 * i, line, "regular", 6) for i, line in enumerate(lines)]
    with open_pdf(_painted(tmp_path, ops)) as pages:
        assert len(set(letters)) > 300
        read = pages[0].text().splitlines()
    assert read == lines


@pytest.mark.parametrize("anchor", ["left", "center", "right"])
def test_text_stands_where_its_anchor_says_in_its_colour(tmp_path, anchor):
    text = "Gun Attack 5in"
    with open_pdf(_painted(tmp_path, [Text(60, 40, text, "bold", 10, "#1b3656", anchor)])) as pages:
        chars = pages[0].chars
    width = string_width_mm(text, "bold", 10)
    left = {"left": 60, "center": 60 - width / 2, "right": 60 - width}[anchor]
    assert "".join(c.text for c in chars) == text
    assert _mm(chars[0].x0) == pytest.approx(left, abs=0.01)
    assert _mm(chars[-1].x1) == pytest.approx(left + width, abs=0.01)
    assert _mm(chars[0].bottom) == pytest.approx(40, abs=1.5)  # baseline region
    assert {c.fill for c in chars} == {(0x1b / 255, 0x36 / 255, 0x56 / 255)}
    assert {c.fontname for c in chars} == {"PTSans-Bold"}


def test_rects_and_lines_keep_their_geometry_paint_and_width(tmp_path):
    ops: list[Op] = [Rect(10, 5, 30, 20, fill="#ff0000"),
                     Rect(50, 5, 30, 20, stroke="#0000ff", width_pt=1.5),
                     Rect(10, 40, 30, 20, fill="#00ff00", stroke="#000000", width_pt=0.1),
                     Line(5, 70, 115, 70, stroke="#808080", width_pt=0.75, dash=(2, 1))]
    with open_pdf(_painted(tmp_path, ops)) as pages:
        rects = sorted(pages[0].rects, key=lambda r: (r.top, r.x0))
        lines = pages[0].lines
    boxes = [(round(_mm(r.x0), 2), round(_mm(r.top), 2), round(_mm(r.width), 2),
              round(_mm(r.height), 2), bool(r.fill), bool(r.stroke)) for r in rects]
    assert boxes == [(10, 5, 30, 20, True, False), (50, 5, 30, 20, False, True),
                     (10, 40, 30, 20, True, True)]
    assert rects[0].fill == (1, 0, 0)
    assert rects[1].stroke == (0, 0, 1)
    assert rects[1].linewidth == pytest.approx(1.5)
    assert rects[2].linewidth == pytest.approx(0.25)  # raised to the print-safe minimum
    (line,) = lines
    assert (round(_mm(line.x0), 2), round(_mm(line.top), 2),
            round(_mm(line.x1), 2)) == (5, 70, 115)
    assert line.linewidth == pytest.approx(0.75)
    assert line.dash == (2, 1)
