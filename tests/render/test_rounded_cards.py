"""Rounded cards (``corner_radius_mm``): a lone card's page is cut to its rounded trim grown by
the bleed, so PNG exports and the proof page have transparent corners; Tabletop Simulator's
sheets stay square and opaque (TTS rounds its cards itself)."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import VOCABULARY, run_pnp
from PIL import Image

RADIUS_MM = 3.5  # the fixture's corner_radius_mm


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rounded")
    for to in ("png", "card-pdf", "tts"):
        result = run_pnp("export", str(VOCABULARY), "--to", to, "--out", str(out))
        assert result.returncode == 0, result.stderr
    return out / "vocab" / "en"


def _alpha_at(image: Image.Image, x: int, y: int) -> int:
    return image.convert("RGBA").getpixel((x, y))[3]


def test_png_exports_have_transparent_corners(exported: Path) -> None:
    document = json.loads((exported / "png" / "export.json").read_text(encoding="utf-8"))
    dpi, bleed = document["dpi"], document["bleed_mm"]
    outer = (RADIUS_MM + bleed) * dpi / 25.4  # the corner's radius in the picture, in pixels
    for entry in {e["path"]: e for e in document["files"]}.values():
        image = Image.open(exported / "png" / entry["path"])
        assert image.mode == "RGBA", entry["path"]
        width, height = image.size
        inset = round(outer * 0.25)  # well outside the arc, inside the square corner
        for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
                     (inset, inset), (width - 1 - inset, height - 1 - inset)):
            assert _alpha_at(image, x, y) == 0, (entry["path"], x, y)
        inside = round(outer * 0.4)  # just inside the arc, along the diagonal
        for x, y in ((width // 2, 0), (0, height // 2), (width // 2, height // 2),
                     (round(outer), inside), (inside, round(outer))):
            assert _alpha_at(image, x, y) == 255, (entry["path"], x, y)


def test_card_pdfs_are_cut_to_the_rounded_trim(exported: Path) -> None:
    document = pdfium.PdfDocument(exported / "card-pdf" / "tramp.front.pdf")
    page = document[0]
    image = page.render(scale=2, fill_color=(255, 255, 255, 0)).to_pil()
    assert _alpha_at(image, 1, 1) == 0 and _alpha_at(image, image.width // 2, 1) == 255
    trim = page.get_trimbox()
    document.close()
    assert trim[2] - trim[0] == pytest.approx(63.5 * 72 / 25.4, abs=0.01)


def test_tabletop_simulator_sheets_stay_square_and_opaque(exported: Path) -> None:
    document = json.loads((exported / "tts" / "export.json").read_text(encoding="utf-8"))
    sheets = [f for f in document["files"] if f["side"] == "front"]
    assert sheets
    for entry in sheets:
        image = Image.open(exported / "tts" / entry["path"])
        assert image.mode == "RGB"  # no alpha: TTS draws its own corners
        assert image.getpixel((0, 0)) != (255, 255, 255)  # the art reaches the corner
    saved = json.loads((exported / "tts" / document["tts_object"]).read_text(encoding="utf-8"))
    assert saved["ObjectStates"]


def test_the_proof_page_shows_the_rounded_corners(tmp_path: Path) -> None:
    result = run_pnp("preview", str(VOCABULARY), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    faces = sorted((tmp_path / "vocab" / "proof" / "faces").glob("*.png"))
    assert faces
    for face in faces:
        image = Image.open(face)
        assert _alpha_at(image, 0, 0) == 0 and _alpha_at(image, image.width // 2,
                                                          image.height // 2) == 255
