"""``pnp tuckbox``: a box that holds the deck, measured from the lines it draws.

The fold lines (dashed) are read back from the PDF (pdfium): the distances between them
are the panels, which must be the inner size ``tuckbox.json`` states, itself the card's trim
plus 1 mm and the stack's depth (cards x thickness + 2 mm). Cut lines are solid; the names are
in the box's locale; the back panel carries the cards' back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from conftest import ROOT, run_pnp
from pdfread import open_pdf

MM = 72 / 25.4
CWNB_DECK = ROOT / "tests" / "fixtures" / "decks" / "cwnb-actions.yaml"
ROCKPOOL = ROOT / "cards" / "rockpool"
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def make_box(tmp_path: Path, pack: Path, *args: str) -> tuple[Path, dict]:
    result = run_pnp("tuckbox", str(pack), *args, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    folder = next(tmp_path.rglob("tuckbox.json")).parent
    return folder, json.loads((folder / "tuckbox.json").read_text(encoding="utf-8"))


def drawn_lines(pdf: Path) -> tuple[list[dict], list[dict], tuple[float, float]]:
    """The dashed (fold) and the solid black (cut) straight lines, in mm, and the page size."""
    with open_pdf(pdf) as pages:
        page = pages[0]
        size = (page.width / MM, page.height / MM)
        folds, cuts = [], []
        for line in page.lines:
            shape = {k: getattr(line, k) / MM for k in ("x0", "x1", "top", "bottom")}
            if line.dash:  # (a solid line's dash is ())
                folds.append(shape | {"color": line.stroke})
            elif line.stroke == (0, 0, 0):
                cuts.append(shape)
    return folds, cuts, size


def measured(folds: list[dict]) -> dict[str, float]:
    """Panel sizes from the fold lines: four vertical folds between side | back | side |
    front | glue, and the horizontal folds above and below the body and at the lids."""
    verticals = sorted({round(f["x0"], 2) for f in folds if abs(f["x1"] - f["x0"]) < 0.01})
    body = [f for f in folds if abs(f["x1"] - f["x0"]) < 0.01]
    top, bottom = min(f["top"] for f in body), max(f["bottom"] for f in body)
    across = sorted({round(f["top"], 2) for f in folds if abs(f["bottom"] - f["top"]) < 0.01})
    assert len(verticals) == 4 and round(top, 2) in across and round(bottom, 2) in across
    above = [y for y in across if y < top - 0.01]
    below = [y for y in across if y > bottom + 0.01]
    return {"back": verticals[1] - verticals[0], "side": verticals[2] - verticals[1],
            "front": verticals[3] - verticals[2], "height": bottom - top,
            "lid": top - max(above), "bottom_lid": min(below) - bottom}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("pack", "deck", "cards"), [
    (ROOT / "cards" / "cwnb", str(CWNB_DECK), 114),
    (ROCKPOOL, "decks/first-game.yaml", 35),
])
def test_the_drawn_panels_are_the_inner_size(tmp_path: Path, pack: Path, deck: str, cards: int,
                                             paper: str) -> None:
    folder, box = make_box(tmp_path, pack, "--deck", deck, "--paper", paper)
    inner = box["inner_mm"]
    assert (box["cards"], box["thickness_mm"], box["paper"]) == (cards, 0.3, paper)
    assert (inner["width"], inner["height"]) == (64.5, 89.9)  # poker trim + 1 mm
    assert inner["depth"] == pytest.approx(cards * 0.3 + 2)
    folds, cuts, size = drawn_lines(folder / "tuckbox.pdf")
    panels = measured(folds)
    assert panels["front"] == pytest.approx(inner["width"], abs=0.02)
    assert panels["back"] == pytest.approx(inner["width"], abs=0.02)
    assert panels["height"] == pytest.approx(inner["height"], abs=0.02)
    for depth in ("side", "lid", "bottom_lid"):
        assert panels[depth] == pytest.approx(inner["depth"], abs=0.02), depth
    assert sorted(size) == pytest.approx(sorted(PAPERS[paper]), abs=0.01)
    assert cuts and all(f["color"] != (0, 0, 0) for f in folds)  # told apart: solid black,
    # grey dashed; and the net stays inside the paper's printable area
    drawn = folds + cuts
    assert min(d["x0"] for d in drawn) >= 5 - 0.01 and min(d["top"] for d in drawn) >= 5 - 0.01
    assert max(d["x1"] for d in drawn) <= size[0] - 5 + 0.01
    assert max(d["bottom"] for d in drawn) <= size[1] - 5 + 0.01


def test_a_thicker_card_makes_a_deeper_box(tmp_path: Path) -> None:
    folder, box = make_box(tmp_path, ROCKPOOL, "--deck", "decks/quick-duel.yaml",
                           "--thickness-mm", "0.5")
    assert box["inner_mm"]["depth"] == pytest.approx(box["cards"] * 0.5 + 2)
    assert measured(drawn_lines(folder / "tuckbox.pdf")[0])["side"] == pytest.approx(
        box["inner_mm"]["depth"], abs=0.02)


@pytest.mark.parametrize(("pack", "deck", "locale", "game", "deck_name"), [
    (ROOT / "cards" / "cwnb", str(CWNB_DECK), "ru", "Морские сражения холодной войны", None),
    (ROCKPOOL, "decks/first-game.yaml", "de", "Gezeitenbecken", "Erstes Spiel"),
])
def test_names_are_in_the_boxs_locale_and_the_back_carries_the_cards_back(
        tmp_path: Path, pack: Path, deck: str, locale: str, game: str,
        deck_name: str | None) -> None:
    folder, box = make_box(tmp_path, pack, "--deck", deck, "--locale", locale)
    with open_pdf(folder / "tuckbox.pdf") as pages:
        text = pages[0].text().replace("\n", " ")
    assert box["game"] == game and all(word in text for word in game.split())
    if deck_name:
        assert box["deck"] == deck_name and deck_name in text
    # the back panel is painted with the cards' back; the front panel stays paper white
    document = pdfium.PdfDocument(folder / "tuckbox.pdf")
    image = document[0].render(scale=4 / MM / 1).to_pil()  # 4 px per mm
    document.close()
    scale = image.width / box["page_mm"]["width"]

    def centre(panel: str) -> tuple[int, int, int]:
        x, y = box["panels"][panel]["x_mm"], box["panels"][panel]["y_mm"]
        w, h = box["panels"][panel]["w_mm"], box["panels"][panel]["h_mm"]
        return image.getpixel((round((x + w * 0.5) * scale), round((y + h * 0.9) * scale)))

    assert centre("front") == (255, 255, 255)
    assert sum(centre("back")) < 3 * 200  # the deep blue (CWNB) or water (Rockpool) of the back


def test_a_box_too_big_for_the_paper_names_a_paper_that_fits(tmp_path: Path) -> None:
    result = run_pnp("tuckbox", str(ROOT / "cards" / "cwnb"), "--out", str(tmp_path))
    assert result.returncode == 2
    assert "does not fit on a4; it fits on tabloid or a3 (--paper tabloid)" in result.stderr
    assert "Traceback" not in result.stderr and not list(tmp_path.iterdir())
    _, box = make_box(tmp_path, ROOT / "cards" / "cwnb", "--paper", "a3")
    copies = sum(card.get("count", 1) for name in ("actions.yaml", "ships.yaml",
                                                   "player_orders.yaml")
                 for card in yaml.safe_load((ROOT / "cards" / "cwnb" / name).read_text(
                     encoding="utf-8"))["cards"])
    assert box["orientation"] == "portrait" and box["cards"] == copies
