"""Cut lines of rounded cards follow the corners: one rounded outline around each card on the
front sheet (read back from the PDF's drawn paths), none of the straight rules across it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import VOCABULARY, run_pnp
from pdfread import open_pdf

MM = 72 / 25.4
CUT = (0x8c / 255,) * 3  # generator.impose.sheets.CUT_COLOR


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_card_gets_a_rounded_cut_line(tmp_path: Path, paper: str) -> None:
    result = run_pnp("build", str(VOCABULARY), "--paper", paper, "--duplex", "none", "--out",
                     str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "vocab" / "en" / paper
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    with open_pdf(folder / "fronts.pdf") as pages:
        for placed in manifest["pages"]:
            page = pages[placed["index"] - 1]
            grey = [o for o in page.shapes
                    if o.stroke and o.stroke == pytest.approx(CUT, abs=0.01)]
            outlines = sorted((o.x0 / MM, o.top / MM, o.width / MM, o.height / MM)
                              for o in grey if o.kind == "curve")
            cards = sorted((c["x_mm"], c["y_mm"], c["w_mm"], c["h_mm"]) for c in placed["cards"])
            assert len(outlines) == len(cards)
            for outline, card in zip(outlines, cards, strict=True):
                assert outline == pytest.approx(card, abs=0.05)
            assert not [o for o in grey if o.kind != "curve"]  # no straight rules
            # the corner is round: the outline's path bends (curve segments) at every corner
            curve = next(o for o in grey if o.kind == "curve")
            assert curve.path.count("c") == 4
