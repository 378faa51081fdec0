"""Shapes and effects (ellipse, polygon, gradient fills, opacity, image masks, rounded rects)
as printed: the sheet PDF (rendered by pdfium at each card's place), the PNG export and the
proof page's picture show the same colours at the same places of a card; opacity is the PDF's
own transparency (an ExtGState), gradients are shadings; preflight names the transparency."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from conftest import VOCABULARY, copy_vocabulary, run_pnp
from PIL import Image

PAPER = (0xfb, 0xf6, 0xea)
SEA = (0x1f, 0x5f, 0x8b)
GOLD = (0xd9, 0xa1, 0x3b)
FIRE = (0xb3, 0x26, 0x1e)
INK = (0x22, 0x22, 0x22)
CARD = (63.5, 88.9)


class Picture:
    """A card face's picture and where its trim is in it (pixels per mm, bleed in pixels)."""

    def __init__(self, image: Image.Image, left: float, top: float, scale: float) -> None:
        self.image = image.convert("RGBA")
        self.left, self.top, self.scale = left, top, scale

    def at(self, x_mm: float, y_mm: float) -> tuple[int, int, int, int]:
        return self.image.getpixel((round(self.left + x_mm * self.scale),
                                    round(self.top + y_mm * self.scale)))


def _framed(path: Path) -> Picture:
    """A lone face's picture, trim plus the same bleed on every side."""
    image = Image.open(path)
    width, height = image.size
    bleed = (CARD[0] * height - CARD[1] * width) / (2 * (width - height))  # mm
    scale = width / (CARD[0] + 2 * bleed)
    return Picture(image, bleed * scale, bleed * scale, scale)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("shapes")
    for args in (("build", "--duplex", "none"), ("export", "--to", "png", "--dpi", "200"),
                 ("preview",)):
        result = run_pnp(args[0], str(VOCABULARY), *args[1:], "--out", str(out))
        assert result.returncode == 0, result.stderr
    return {"out": out, "sheets": out / "vocab" / "en" / "a4"}


def _sheet_picture(sheets: Path, card: str) -> Picture:
    """The card's place on the front sheet, rendered by pdfium at 200 dpi."""
    manifest = json.loads((sheets / "manifest.json").read_text(encoding="utf-8"))
    page, placed = next((p, c) for p in manifest["pages"] for c in p["cards"]
                        if c["id"] == card and p["side"] == "front")
    scale = 200 / 25.4
    document = pdfium.PdfDocument(sheets / "fronts.pdf")
    image = document[page["index"] - 1].render(scale=200 / 72).to_pil()
    document.close()
    return Picture(image, placed["x_mm"] * scale, placed["y_mm"] * scale, scale)


def _proof_picture(out: Path, card: str) -> Picture:
    folder = out / "vocab" / "proof"
    html = (folder / "index.html").read_text(encoding="utf-8")
    name = re.search(rf'<img src="(faces/[0-9a-f]+\.png)" alt="{card.title()}, front"', html)
    assert name is not None
    return _framed(folder / name.group(1))


def pictures(made: dict[str, object], card: str) -> dict[str, Picture]:
    out, sheets = made["out"], made["sheets"]
    return {"pdf": _sheet_picture(sheets, card),  # type: ignore[arg-type]
            "png": _framed(out / "vocab" / "en" / "png" / f"{card}.front.png"),  # type: ignore
            "proof": _proof_picture(out, card)}  # type: ignore[arg-type]


def near(pixel: tuple[int, ...], color: tuple[int, int, int], within: int = 12) -> bool:
    return all(abs(a - b) <= within for a, b in zip(pixel[:3], color, strict=True))


def test_shapes_print_alike_in_the_pdf_the_png_and_the_proof(made: dict[str, object]) -> None:
    # ship.yaml: an ellipse [5, 17, 20, 12] of sea, a triangle (30,28) (40,16) (50,28) of gold,
    # a rect [28, 30, 30, 6] of ink at opacity 0.4 with corners of 2 mm, on the paper
    over_paper = tuple(round(0.4 * i + 0.6 * p) for i, p in zip(INK, PAPER, strict=True))
    expected = [((15.0, 23.0), SEA), ((5.6, 17.6), PAPER),  # inside, and in its box's corner
                ((40.0, 25.0), GOLD), ((31.0, 17.5), PAPER),
                ((43.0, 33.0), over_paper), ((28.2, 30.2), PAPER)]
    for where, picture in pictures(made, "tramp").items():
        for (x, y), color in expected:
            assert near(picture.at(x, y), color), (where, (x, y), picture.at(x, y), color)


def test_a_gradient_runs_from_its_first_colour_to_its_last(made: dict[str, object]) -> None:
    # the ship's band: {linear: [fire, gold], angle: 90}: fire at the top, gold at the bottom
    for where, picture in pictures(made, "tramp").items():
        top, bottom = picture.at(47.0, 0.6), picture.at(47.0, 13.4)
        assert near(top, FIRE, 25) and near(bottom, GOLD, 25), (where, top, bottom)
        middle = picture.at(47.0, 7.0)
        assert all(min(a, b) - 2 <= m <= max(a, b) + 2 for a, b, m in zip(top, bottom, middle,
                                                                    strict=True))


def test_masked_images_show_only_inside_their_mask(made: dict[str, object]) -> None:
    for where, picture in pictures(made, "tramp").items():
        # mask: ellipse on [5, 31, 16, 16]: paper in the box's corner, art in its middle
        assert near(picture.at(5.6, 31.6), PAPER), where
        assert not near(picture.at(13.0, 39.0), PAPER, 40), where
        # mask: rounded, radius 2, on [24, 38, 12, 10]: paper at the very corner only
        assert near(picture.at(24.2, 38.2), PAPER), where
        assert not near(picture.at(24.3, 43.0), PAPER, 40), where


def test_opacity_is_pdf_transparency_and_gradients_are_shadings(made: dict[str, object]
                                                                 ) -> None:
    with pikepdf.open(made["sheets"] / "fronts.pdf") as pdf:  # type: ignore[operator]
        page = pdf.pages[0]
        states = {(str(k), float(v)) for state in page.Resources.ExtGState.values()
                  for k, v in state.items() if str(k) in ("/ca", "/CA")}
        shadings = [s for s in page.Resources.Shading.values()]
        assert pdf.pdf_version >= "1.4"
    assert ("/ca", 0.4) in states and ("/CA", 0.4) in states
    assert shadings and all(int(s.ShadingType) == 2 for s in shadings)  # axial


def test_preflight_warns_of_transparency_for_pdf_x_services(made: dict[str, object]) -> None:
    result = run_pnp("preflight", str(VOCABULARY), "--format", "json")
    found = [(f["card"], f["severity"]) for f in json.loads(result.stdout)["findings"]
             if f["code"] == "transparency"]
    # every ship front has a translucent rect, the port its translucent ellipse; backs none
    assert sorted(found) == [("harbour", "warning"), ("lighthouse", "warning"),
                             ("sloop", "warning"), ("tramp", "warning")]
    message = next(f["message"] for f in json.loads(result.stdout)["findings"]
                   if f["code"] == "transparency")
    assert "DriveThruCards" in message and "PDF/X-1a" in message


def test_art_drawn_with_opacity_is_one_form_placed_from_every_face(tmp_path: Path) -> None:
    """An SVG inside a translucent element is found like any other art: drawn once into a
    form of its own, before the faces that place it (and named in the pages' cache keys)."""
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "ship.yaml"
    template.write_text(template.read_text(encoding="utf-8") + (
        "  - {type: image, box: [40, 50, 8, 8], src: icons/flame.svg, fit: contain,"
        " opacity: 0.5}\n"), encoding="utf-8")
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), "--duplex", "none")
    assert result.returncode == 0, result.stderr
    with pikepdf.open(tmp_path / "out" / "vocab" / "en" / "a4" / "fronts.pdf") as pdf:
        page = pdf.pages[0]
        forms = {str(k) for k, x in page.Resources.XObject.items() if x.Subtype == "/Form"}
        contents = page.Contents if isinstance(page.Contents, pikepdf.Array) else [page.Contents]
        placed = Counter(name.decode() for name in re.findall(
            rb"/(\S+) Do", b"".join(part.read_bytes() for part in contents)))
    # the flame at two sizes (the sloop's inline icon, the translucent image): two forms, the
    # translucent one placed on each of the three ship fronts
    assert sorted(placed[name.lstrip("/")] for name in forms) == [1, 3]
