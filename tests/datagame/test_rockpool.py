"""Rockpool, the shipped game defined in data alone: it validates clean in both languages, its
PDFs carry its art and its translations where the manifest puts each card, and every kind of
rule it states in CEL catches a card that breaks it, at that card."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from conftest import pdf_images
from pdfread import open_pdf
from PIL import Image
from pypdf import PdfReader

ROCKPOOL = Path(__file__).resolve().parents[2] / "cards" / "rockpool"
BLEED_MM = 1.5


def pnp(*args: object) -> subprocess.CompletedProcess[str]:
    # run from the pack's folder, as a designer would: paths in findings are relative to it
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=ROCKPOOL)


def findings(*args: object) -> tuple[int, list[dict]]:
    result = pnp("validate", *args, "--format", "json")
    return result.returncode, json.loads(result.stdout)["findings"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("rockpool")
    folders = {}
    for locale in ("en", "de"):
        result = pnp("build", ROCKPOOL, "--locale", locale, "--out", out)
        assert result.returncode == 0, result.stderr
        folders[locale] = out / "rockpool" / locale / "a4"
    return folders


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def page_of(folder: Path, card: str, side: str = "front") -> tuple[int, dict]:
    """0-based page of ``card`` in fronts.pdf / backs.pdf, and its placement."""
    for page in manifest(folder)["pages"]:
        for placed in page["cards"]:
            if page["side"] == side and placed["id"] == card:
                return page["index"] - 1, placed
    raise AssertionError(f"{card} is on no {side} page")


def page_text(pdf: Path, index: int) -> str:
    with open_pdf(pdf) as pages:
        return re.sub(r"\s+", " ", pages[index].text())


# --- the shipped pack is clean ------------------------------------------------------------------

@pytest.mark.parametrize("locale", ["en", "de"])
def test_validates_clean_with_both_decks(locale: str) -> None:
    code, found = findings(ROCKPOOL, "--locale", locale, "--strict",
                           "--deck", "decks/first-game.yaml", "--deck", "decks/quick-duel.yaml")
    assert found == [] and code == 0


def test_rules_are_listed_with_their_citations() -> None:
    result = pnp("rules", ROCKPOOL, "--format", "json")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    data = yaml.safe_load((ROCKPOOL / "game.yaml").read_text(encoding="utf-8"))
    declared = [r["code"] for r in data["rules"]] + [r["code"] for r in data["deck"]["rules"]]
    assert len(declared) == 13
    for code in declared:
        assert f'"{code}"' in text
    readme = (ROCKPOOL / "README.md").read_text(encoding="utf-8")
    for rule in data["rules"] + data["deck"]["rules"]:
        number = rule["cites"].removeprefix("rules ")
        assert re.search(rf"^{re.escape(number)} ", readme, re.MULTILINE), rule["cites"]


def test_card_and_art_counts() -> None:
    data = yaml.safe_load((ROCKPOOL / "creatures.yaml").read_text(encoding="utf-8"))["cards"]
    goals = yaml.safe_load((ROCKPOOL / "goals.yaml").read_text(encoding="utf-8"))["cards"]
    tides = (ROCKPOOL / "tides.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert (len(data), len(tides), len(goals)) == (24, 10, 7)
    for card in data:
        assert (ROCKPOOL / card["art"]).is_file()
    # raster art prints at >= 300 dpi on a poker card with 3 mm bleed all round
    for name in ("water-low.png", "water-high.png"):
        with Image.open(ROCKPOOL / "art" / name) as image:
            width, height = image.size
        assert width / ((63.5 + 6) / 25.4) >= 300 and height / ((88.9 + 6) / 25.4) >= 300


# --- what the PDFs hold ----------------------------------------------------------------------

def test_raster_art_is_embedded_once_per_pdf(built: dict[str, Path]) -> None:
    fronts = pdf_images(built["en"] / "fronts.pdf")
    backs = pdf_images(built["en"] / "backs.pdf")
    # the two water textures (1000 x 1370 px): on the ten tide fronts, embedded once each
    assert sorted(fronts.values()) == [(1000, 1370), (1000, 1370)]
    # backs: the deep water of the shared back and the bright water of the tide back
    assert sorted(backs.values()) == [(1000, 1370), (1000, 1370)]
    tide_page, _ = page_of(built["en"], "spring-ebb")
    assert images_on_page(built["en"] / "fronts.pdf", tide_page)
    creature_page, _ = page_of(built["en"], "common-octopus")
    assert not images_on_page(built["en"] / "fronts.pdf", creature_page)  # SVG: vectors


def images_on_page(pdf: Path, index: int) -> bool:
    single = PdfReader(pdf)
    target = single.pages[index]
    return bool(target.images)


def test_pack_font_is_embedded(built: dict[str, Path]) -> None:
    fonts = set()
    for page in PdfReader(built["de"] / "fronts.pdf").pages:
        fonts |= {str(f["/BaseFont"]) for f in collect_fonts(page.get("/Resources"))}
    assert any("Marcellus" in name for name in fonts), fonts


def collect_fonts(resources, seen: set[int] | None = None) -> list:
    seen = set() if seen is None else seen
    result = [ref.get_object() for ref in ((resources or {}).get("/Font") or {}).values()]
    for ref in ((resources or {}).get("/XObject") or {}).values():
        obj = ref.get_object()
        if obj["/Subtype"] == "/Form" and ref.idnum not in seen:
            seen.add(ref.idnum)
            result += collect_fonts(obj.get("/Resources"), seen)
    return result


@pytest.mark.parametrize(("card", "english", "german"), [
    ("common-octopus", ["Common Octopus", "Octopus vulgaris", "Also take one creature"],
     ["Gemeiner Krake", "Octopus vulgaris", "kostenlos", "ANKUNFT", "TANG", "JÄGER"]),
    ("spring-ebb", ["Spring Ebb", "LOW TIDE", "SPRING TIDE"],
     ["Springebbe", "EBBE", "SPRINGTIDE", "Das Meer weicht weit zurück"]),
    ("top-hunter", ["Top Hunter", "at the end of the game"],
     ["Spitzenjäger", "Die meisten", "am Ende des Spiels"]),
])
def test_translated_texts_on_the_cards_page(built: dict[str, Path], card: str,
                                            english: list[str], german: list[str]) -> None:
    for locale, expected, absent in (("en", english, german[:1]), ("de", german, english[:1])):
        index, _ = page_of(built[locale], card)
        text = page_text(built[locale] / "fronts.pdf", index)
        for piece in expected:
            assert piece in text, (locale, piece)
        for piece in absent:
            assert piece not in text, (locale, piece)


def test_translated_backs(built: dict[str, Path]) -> None:
    index, _ = page_of(built["de"], "acorn-barnacle", "back")
    assert "GEZEITENBECKEN" in page_text(built["de"] / "backs.pdf", index)
    index, _ = page_of(built["de"], "spring-ebb", "back")
    assert "GEZEITEN" in page_text(built["de"] / "backs.pdf", index)
    index, _ = page_of(built["en"], "acorn-barnacle", "back")
    assert "ROCKPOOL" in page_text(built["en"] / "backs.pdf", index)


def test_art_runs_into_the_bleed(built: dict[str, Path]) -> None:
    """Render the page: just outside a card's trim on the sheet's outer edge the water or the
    header colour is printed, not white paper; beyond the bleed the paper is white."""
    index, placed = page_of(built["en"], "spring-ebb")
    scale = 6.0  # pixels per mm
    page = pdfium.PdfDocument(built["en"] / "fronts.pdf")[index]
    image = page.render(scale=scale * 25.4 / 72).to_pil().convert("RGB")

    def pixel(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((round(x_mm * scale), round(y_mm * scale)))

    x, y, h = placed["x_mm"], placed["y_mm"], placed["h_mm"]
    inside_bleed = [pixel(x - BLEED_MM / 2, y + h * f) for f in (0.1, 0.5, 0.9)]
    beyond = pixel(x - BLEED_MM - 2.0, y + h / 2)
    assert all(sum(p) < 600 for p in inside_bleed), inside_bleed
    assert sum(beyond) > 740, beyond


# --- broken copies: each rule's own code, at the card that breaks it -------------------------

def card_line(path: Path, card: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip() == f"- id: {card}")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> tuple[Path, list[dict]]:
    pack = tmp_path_factory.mktemp("broken") / "rockpool"
    shutil.copytree(ROCKPOOL, pack)
    creatures = pack / "creatures.yaml"
    # acorn barnacle: 0 shells, 3 pearls (pearls-within-cost, rule 4.3)
    edit(creatures, "    cost: 0\n    pearls: 1\n", "    cost: 0\n    pearls: 3\n")
    # chiton turns hunter at cost 1 (hunters-cost-two, rule 3.5)
    edit(creatures, "    diet: grazer\n    cost: 1\n    pearls: 2\n",
         "    diet: hunter\n    cost: 1\n    pearls: 2\n")
    # rock goby gets a trigger but no ability (ability-has-trigger, rule 3.4)
    edit(creatures, "    pearls: 3\n    flavor: Its belly fins",
         "    pearls: 3\n    trigger: score\n    flavor: Its belly fins")
    # four more hunters: 14 of 24 (enough-prey, a set rule, 3.5)
    for card in ("shore-crab", "blue-mussel", "purple-sea-urchin", "european-lobster"):
        text = creatures.read_text(encoding="utf-8")
        start = text.index(f"- id: {card}\n")
        end = text.index("    diet: ", start)
        stop = text.index("\n", end)
        creatures.write_text(text[:end] + "    diet: hunter" + text[stop:], encoding="utf-8")
    tides = pack / "tides.csv"
    edit(tides, "neap-ebb,tide,Neap Ebb,low,neap,first-quarter",
         "neap-ebb,tide,Neap Ebb,low,neap,full")                      # row 4: moon rule 5.2
    edit(tides, "sea-fog,tide,Sea Fog,high,neap,first-quarter,,,",
         "sea-fog,tide,Sea Fog,high,neap,first-quarter,,1,")           # row 11: shift, no habitat
    goals = pack / "goals.yaml"
    edit(goals, "    habitat: rocks\n    pearls: 4\n", "    habitat: rocks\n    diet: grazer\n"
         "    pearls: 4\n")                                              # goal-counts-one-thing
    # art: a misspelt file, a path out of the pack, a picture far below 300 dpi
    edit(creatures, "art: art/creatures/periwinkle.svg", "art: art/creatures/periwinkel.svg")
    edit(creatures, "art: art/creatures/hermit-crab.svg", "art: ../../outside.svg")
    Image.new("RGB", (60, 40), "#3aa2a8").save(pack / "art" / "tiny.png")
    edit(creatures, "art: art/creatures/brittle-star.svg", "art: art/tiny.png")
    # a table cell outside its enumeration: row 10, column 4 (level)
    edit(tides, "Drifting Kelp,high,", "Drifting Kelp,middle,")
    code, found = findings(pack)
    assert code == 1
    return pack, found


def located(found: list[dict], code: str) -> list[tuple[str, int, int, str | None]]:
    return [(Path(f["file"]).name, f["line"], f["column"], f["card"])
            for f in found if f["code"] == code]


def test_broken_card_rules_point_at_their_cards(broken) -> None:
    pack, found = broken
    creatures = pack / "creatures.yaml"
    goals = pack / "goals.yaml"
    expected = {
        "pearls-within-cost": ("creatures.yaml", card_line(creatures, "acorn-barnacle"),
                               "acorn-barnacle"),
        "hunters-cost-two": ("creatures.yaml", card_line(creatures, "chiton"), "chiton"),
        "ability-has-trigger": ("creatures.yaml", card_line(creatures, "rock-goby"),
                                "rock-goby"),
        "goal-counts-one-thing": ("goals.yaml", card_line(goals, "rock-garden"), "rock-garden"),
    }
    for code, (file, line, card) in expected.items():
        assert located(found, code) == [(file, line, 5, card)], (code, located(found, code))
    # CSV rows are numbered as a spreadsheet shows them (header = row 1)
    assert located(found, "tides-follow-the-moon") == [("tides.csv", 4, 1, "neap-ebb")]
    assert located(found, "shift-names-habitat") == [("tides.csv", 11, 1, "sea-fog")]


def test_broken_set_rule_points_at_game_yaml(broken) -> None:
    pack, found = broken
    lines = (pack / "game.yaml").read_text(encoding="utf-8").splitlines()
    rule_line = next(i for i, line in enumerate(lines, 1) if "code: enough-prey" in line)
    hits = [f for f in found if f["code"] == "enough-prey"]
    assert len(hits) == 1
    assert (Path(hits[0]["file"]).name, hits[0]["severity"]) == ("game.yaml", "error")
    assert rule_line <= hits[0]["line"] <= rule_line + 4
    assert {f["code"] for f in found} == {
        "pearls-within-cost", "hunters-cost-two", "ability-has-trigger", "goal-counts-one-thing",
        "tides-follow-the-moon", "shift-names-habitat", "enough-prey", "art-missing",
        "art-outside-pack", "art-low-dpi", "unknown-value"}


def field_line(path: Path, text: str) -> tuple[int, int]:
    """Line and column of the value in the line holding ``text``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number, line.index(":") + 3
    raise AssertionError(text)


def test_broken_art_and_cells_are_located_on_their_field(broken) -> None:
    pack, found = broken
    creatures = pack / "creatures.yaml"
    for code, text, card, severity in (
            ("art-missing", "periwinkel.svg", "periwinkle", "error"),
            ("art-outside-pack", "outside.svg", "hermit-crab", "error"),
            ("art-low-dpi", "art/tiny.png", "brittle-star", "warning")):
        line, column = field_line(creatures, text)
        hits = [f for f in found if f["code"] == code]
        assert [(Path(f["file"]).name, f["line"], f["column"], f["card"], f["severity"])
                for f in hits] == [("creatures.yaml", line, column, card, severity)], hits
    assert located(found, "unknown-value") == [("tides.csv", 10, 4, "drifting-kelp")]


def test_broken_deck_breaks_deck_rules(tmp_path: Path) -> None:
    deck = yaml.safe_load((ROCKPOOL / "decks" / "first-game.yaml").read_text(encoding="utf-8"))
    # one tide and one creature out, a goal in twice more: 35 cards, the size still legal
    deck["cards"] = [e for e in deck["cards"] if e["card"] not in {"drifting-kelp",
                                                                    "acorn-barnacle"}]
    deck["cards"].append({"card": "rock-garden", "count": 2})
    path = tmp_path / "bad-deck.yaml"
    path.write_text(yaml.safe_dump(deck, sort_keys=False), encoding="utf-8")
    code, found = findings(ROCKPOOL, "--deck", path)
    assert code == 1
    codes = sorted(f["code"] for f in found)
    assert codes == ["deck-eight-tides", "deck-max-copies", "deck-three-goals"], found
    assert all(Path(f["file"]).name in {"bad-deck.yaml", "game.yaml"} for f in found)


def test_the_same_pack_in_two_folders_prints_the_same_bytes(tmp_path: Path) -> None:
    """Same input, same bytes, wherever the pack lies: a raster image's name in the PDF comes
    from the file's content (ReportLab would name it after the path it was given)."""
    outputs = []
    for folder in ("first", "second/deeper"):
        copy = tmp_path / folder / "rockpool"
        shutil.copytree(ROCKPOOL, copy, ignore=shutil.ignore_patterns(".pnp-cache", "output"))
        result = pnp("build", copy, "--locale", "en", "--out", tmp_path / folder / "out")
        assert result.returncode == 0, result.stderr
        outputs.append(tmp_path / folder / "out" / "rockpool" / "en" / "a4")
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name
