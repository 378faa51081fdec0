"""Sheets for print shops and guillotines: page boxes, gutters with each card's own bleed, the
larger papers, and one deck at a time (pnp build --deck)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, run_pnp
from pdfread import open_pdf
from pypdf import PdfReader

from generator.impose.sheets import PAPERS, SheetOptions, compute_grid
from generator.model.cards import CardSize
from generator.pipeline.build import build

PT = 72 / 25.4
COMMANDER = ROOT / "cards" / "commander"
GWAS = ROOT / "cards" / "gwas"
EXPANSION = ROOT / "cards" / "cwnb-expansion"


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def box_mm(box, page_height_pt: float) -> tuple[float, float, float, float]:
    """A pypdf box as x, y (from the top), width, height in mm."""
    return (round(float(box.left) / PT, 2), round((page_height_pt - float(box.top)) / PT, 2),
            round(float(box.width) / PT, 2), round(float(box.height) / PT, 2))


@pytest.fixture(scope="module")
def gutter_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gutter")
    built = build(GWAS, (), None, SheetOptions(paper="a3", gutter_mm=6.0, bleed_mm=2.0), out)
    assert built.out_dir is not None, [f.as_text() for f in built.findings]
    return built.out_dir


def test_every_sheet_page_has_trim_and_bleed_boxes(gutter_build):
    doc = manifest(gutter_build)
    for name, side in (("fronts.pdf", "front"), ("backs.pdf", "back")):
        pages = [p for p in doc["pages"] if p["side"] == side]
        reader = PdfReader(gutter_build / name)
        assert len(reader.pages) == len(pages)
        for page, described in zip(reader.pages, pages, strict=True):
            height = float(page.mediabox.height)
            cards = described["cards"]
            left = min(c["x_mm"] for c in cards)
            top = min(c["y_mm"] for c in cards)
            right = max(c["x_mm"] + c["w_mm"] for c in cards)
            bottom = max(c["y_mm"] + c["h_mm"] for c in cards)
            trim = box_mm(page.trimbox, height)
            assert trim == pytest.approx((left, top, right - left, bottom - top), abs=0.02)
            bleed = box_mm(page.bleedbox, height)
            assert bleed == pytest.approx((left - 2, top - 2, right - left + 4,
                                           bottom - top + 4), abs=0.02)
            t = described["trim_box"]
            assert (t["x_mm"], t["y_mm"]) == pytest.approx((left, top), abs=0.01)


def test_gutter_spaces_the_cards_and_each_keeps_its_bleed(gutter_build):
    doc = manifest(gutter_build)
    assert doc["gutter_mm"] == 6.0
    page = next(p for p in doc["pages"] if p["side"] == "front" and len(p["cards"]) > 4)
    cols = page["grid"]["cols"]
    first, second, below = page["cards"][0], page["cards"][1], page["cards"][cols]
    assert second["x_mm"] - (first["x_mm"] + first["w_mm"]) == pytest.approx(6.0)
    assert below["y_mm"] - (first["y_mm"] + first["h_mm"]) == pytest.approx(6.0)
    # the first card's background shows 2 mm past its right edge, then bare paper, then the next
    with open_pdf(gutter_build / "fronts.pdf") as pages:
        right = (first["x_mm"] + first["w_mm"]) * PT
        middle = (first["y_mm"] + first["h_mm"] / 2) * PT
        picture = pages[0].render(dpi=144)
        scale = 144 / 72
        inside_bleed = picture.getpixel((int((right + 1.0 * PT) * scale), int(middle * scale)))
        in_gap = picture.getpixel((int((right + 3.0 * PT) * scale), int(middle * scale)))
        next_bleed = picture.getpixel((int((right + 5.0 * PT) * scale), int(middle * scale)))
    assert inside_bleed != (255, 255, 255) and next_bleed != (255, 255, 255)
    assert in_gap == (255, 255, 255)


def test_crop_marks_mark_both_edges_of_every_gutter(gutter_build):
    doc = manifest(gutter_build)
    grid = doc["pages"][0]["grid"]
    card_w = doc["pages"][0]["cards"][0]["w_mm"]
    edges = sorted({round(grid["x0_mm"] + c * (card_w + 6.0) + e, 2)
                    for c in range(grid["cols"]) for e in (0.0, card_w)})
    with open_pdf(gutter_build / "fronts.pdf") as pages:
        lines = pages[0].lines
    above = sorted({round(line.x0 / PT, 2) for line in lines
                    if line.bottom / PT < grid["y0_mm"] - 1 and abs(line.x0 - line.x1) < 0.01})
    assert above == pytest.approx(edges, abs=0.02)
    assert all(line.linewidth >= 0.25 for line in lines)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize(("size", "least"), [((63.5, 88.9), 9), ((12.7, 12.7), 200)])
def test_every_paper_gives_a_sensible_n_up(paper, size, least):
    grid = compute_grid(SheetOptions(paper=paper), CardSize(*size))
    assert grid.per_sheet >= least
    width, height = PAPERS[paper]
    assert grid.x0 >= 3.0 + 1.5 and grid.x0 + grid.width <= width - 4.5
    assert grid.y0 >= 3.0 + 1.5 and grid.y0 + grid.height <= height - 4.5


@pytest.mark.parametrize(("paper", "n_up"), [("a3", (4, 4)), ("tabloid", (4, 4)),
                                             ("legal", (3, 3))])
def test_larger_papers_from_the_command_line(tmp_path, paper, n_up):
    result = run_pnp("build", str(CWNB), "--paper", paper, "--duplex", "none",
                     "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    doc = manifest(tmp_path / "cwnb" / "en" / paper)
    assert (doc["grid"]["cols"], doc["grid"]["rows"]) == n_up
    assert (doc["paper"]["width_mm"], doc["paper"]["height_mm"]) == PAPERS[paper]
    page = PdfReader(tmp_path / "cwnb" / "en" / paper / "fronts.pdf").pages[0]
    assert float(page.mediabox.width) / PT == pytest.approx(PAPERS[paper][0], abs=0.01)


def test_build_deck_prints_exactly_that_deck(tmp_path):
    import yaml

    deck_file = COMMANDER / "decks" / "pirat.yaml"
    wanted = {}
    for entry in yaml.safe_load(deck_file.read_text(encoding="utf-8"))["cards"]:
        wanted[entry["card"]] = wanted.get(entry["card"], 0) + entry.get("count", 1)
    result = run_pnp("build", str(COMMANDER), "--deck", "decks/pirat.yaml", "--out",
                     str(tmp_path))
    assert result.returncode == 0, result.stderr
    doc = manifest(tmp_path / "commander" / "ru" / "a4-pirat")
    assert doc["deck"]["cards"] == sum(wanted.values())
    printed: dict[str, int] = {}
    for page in doc["pages"]:
        if page["side"] == "front":
            for card in page["cards"]:
                printed[card["id"]] = printed.get(card["id"], 0) + 1
    assert printed == wanted


def test_a_deck_breaking_the_rules_is_not_printed(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ncommander: pirat\ncards:\n  - {card: osa, count: 9}\n"
                   "  - {card: no-such-card}\n", encoding="utf-8")
    result = run_pnp("build", str(COMMANDER), "--deck", str(bad), "--out", str(tmp_path / "o"))
    assert result.returncode == 1
    assert "deck-unknown-card" in result.stderr and f"{bad}:5:" in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_deck_of_a_game_without_deck_rules_prints_too(tmp_path):
    deck = tmp_path / "scenario.yaml"
    deck.write_text("name: duel\ncards:\n  - {card: uss-nimitz}\n  - {card: gun-5in, count: 2}\n",
                    encoding="utf-8")
    built = build(CWNB, (), None, SheetOptions(), tmp_path / "o", deck=deck)
    assert built.out_dir is not None and built.out_dir.name == "a4-scenario"
    fronts = [c["id"] for p in manifest(built.out_dir)["pages"] if p["side"] == "front"
              for c in p["cards"]]
    assert sorted(fronts) == ["gun-5in", "gun-5in", "uss-nimitz"]
