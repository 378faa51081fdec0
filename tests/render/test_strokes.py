"""Every stroke of every shipped pack prints: at least 0.25 pt, read back from the PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT
from pdfread import open_pdf

from generator.impose.sheets import SheetOptions
from generator.pipeline.build import build
from generator.render.strokes import MIN_STROKE_PT, print_safe_drawing

PACKS = [("cwnb", ()), ("cwnb", ("cwnb-expansion",)), ("commander", ()), ("gwas", ()),
         ("rockpool", ())]


def _thin_strokes(pdf: Path) -> list[tuple[int, str, float]]:
    thin = []
    with open_pdf(pdf) as pages:
        for number, page in enumerate(pages, start=1):
            for shape in page.shapes:
                if shape.stroke and shape.linewidth < MIN_STROKE_PT - 1e-6:
                    thin.append((number, shape.kind, round(shape.linewidth, 3)))
    return thin


@pytest.mark.parametrize(("pack", "expansions"), PACKS, ids=lambda v: "+".join(v) if
                         isinstance(v, tuple) else v)
def test_no_stroke_under_a_quarter_point(tmp_path, pack, expansions):
    result = build(ROOT / "cards" / pack, tuple(ROOT / "cards" / e for e in expansions), None,
                   SheetOptions(), tmp_path)
    assert result.out_dir is not None, [f.as_text() for f in result.findings]
    checked = 0
    for name in ("fronts.pdf", "backs.pdf"):
        assert _thin_strokes(result.out_dir / name) == []
        checked += 1
    assert checked == 2


def test_an_svg_hairline_is_raised_at_its_placed_size():
    from reportlab.graphics.shapes import Drawing, Group, Line

    inner = Group(Line(0, 0, 10, 10, strokeWidth=0.5, strokeColor=None),
                  Line(0, 0, 10, 10, strokeWidth=0.5), transform=(0.5, 0, 0, 0.5, 0, 0))
    drawing = Drawing(100, 100, inner)
    safe = print_safe_drawing(drawing, points_per_unit=0.1)
    unstroked, stroked = safe.contents[0].contents
    assert stroked.strokeWidth * 0.1 * 0.5 == pytest.approx(MIN_STROKE_PT)
    assert unstroked.strokeWidth == 0.5  # no stroke colour: nothing is drawn, nothing changes
    assert drawing.contents[0].contents[1].strokeWidth == 0.5  # the cached original is intact
