"""DESIGN.md's "Games defined in data", held to the letter with the pack a designer would write.

``tests/fixtures/emberfall`` is DESIGN.md's example written out (its kinds, rules and deck as
printed, a legend and a spell kind beside them, 30 cards in YAML, CSV and a two-sheet workbook,
art in every format, a pack font, a palette, icons, a German catalog, a deck) and
``tests/fixtures/emberfall-ashes`` an expansion of it. The first half runs every command of the
contract on them and checks what it promises in the output; the second half makes the mistakes
designers make, on copies, and checks each is a finding with its stable code at its exact place.
Builds and validations are shared per module: each command runs once.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import polib
import pytest
import yaml
from conftest import ROOT, pdf_images, run_pnp
from pdfread import open_pdf, pdf_text
from pypdf import PdfReader

FIXTURES = ROOT / "tests" / "fixtures"
GAME = "emberfall"
EXPANSION = "emberfall-ashes"
CARD_IDS = {
    "cinder-imp", "ash-wolf", "ember-drake", "frost-wyrm", "lava-golem", "shade-walker",
    "kindling-sprite", "smoke-hound", "glacier-bear", "ember-moth", "cave-troll", "night-owl",
    "ash-stalker", "magma-serpent", "rime-elk", "dusk-bat", "pyra", "vorn", "ysolde",
    "ashen-king", "firebolt", "wildfire", "kindle", "frost-lance", "glacial-ward", "blizzard",
    "shadow-step", "dread-whisper", "night-pact", "eclipse",
}
FIRE, FROST, SHADOW = (0.702, 0.149, 0.118), (0.184, 0.435, 0.624), (0.357, 0.235, 0.533)
MM = 72 / 25.4


# --- helpers ------------------------------------------------------------------------------------

def pnp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = run_pnp(*args, cwd=cwd)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, \
        result.stderr
    return result


def copy_packs(base: Path) -> Path:
    base.mkdir(parents=True, exist_ok=True)
    for name in (GAME, EXPANSION):
        shutil.copytree(FIXTURES / name, base / name)
    return base


def findings(result: subprocess.CompletedProcess[str]) -> list[tuple]:
    """(severity, code, file relative to the packs' folder, line, column, card)."""
    return [(f["severity"], f["code"], f["file"], f["line"], f["column"], f["card"])
            for f in json.loads(result.stdout)["findings"]]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def set_field(path: Path, card: str, field: str, value: str) -> None:
    """Change ``field:`` of card ``card`` in a YAML card file written one field per line."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"  - id: {card}\n")
    end = text.find("  - id:", start + 1)
    end = len(text) if end < 0 else end
    block = re.sub(rf"(?m)^    {field}: .*$", f"    {field}: {value}", text[start:end], count=1)
    assert block != text[start:end], (card, field)
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")


def close(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(abs(x - y) < 0.01 for x, y in zip(a, b, strict=True))


# --- shared runs ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return copy_packs(tmp_path_factory.mktemp("contract"))


@pytest.fixture(scope="module")
def german(work: Path) -> Path:
    """``pnp build emberfall --locale de``: the sheets' folder."""
    result = pnp(work, "build", GAME, "--locale", "de", "--out", "out")
    assert result.returncode == 0, result.stdout + result.stderr
    return work / "out" / GAME / "de" / "a4"


@pytest.fixture(scope="module")
def with_expansion(work: Path) -> Path:
    """``pnp build emberfall --with emberfall-ashes`` in the source language."""
    result = pnp(work, "build", GAME, "--with", EXPANSION, "--out", "out")
    assert result.returncode == 0, result.stdout + result.stderr
    return work / "out" / f"{GAME}+{EXPANSION}" / "en" / "a4"


# --- the contract, command by command -------------------------------------------------------------

def test_validate_accepts_the_pack_in_text_and_json(work: Path) -> None:
    text = pnp(work, "validate", GAME)
    assert text.returncode == 0 and text.stdout.strip() == "0 error(s), 0 warning(s)"
    result = pnp(work, "validate", GAME, "--locale", "de", "--locale", "en", "--deck",
                 "decks/starter.yaml", "--format", "json")
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["findings"] == []
    # 30 cards from a YAML file, a CSV file and two sheets of a workbook; smoke-hound counts 2
    assert report["summary"]["cards"] == 30 and report["summary"]["copies"] == 31


def test_fonts_are_embedded_and_the_pack_font_prints_the_titles(german: Path) -> None:
    reader = PdfReader(german / "fronts.pdf")
    fonts = {}
    for page in reader.pages:
        for ref in (page["/Resources"].get("/Font") or {}).values():
            font = ref.get_object()
            fonts[str(font["/BaseFont"])] = font
    assert any(name.endswith("+Alegreya-Bold") for name in fonts)
    for font in fonts.values():  # every font is a subset with its TrueType outlines inside
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
            else font
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
    with open_pdf(german / "fronts.pdf") as pages:
        fonts_of = {word.text: word.fontname for word in pages[0].words()}
    assert fonts_of["Aschenkobold"] == "Alegreya-Bold"  # a name: font: title
    assert fonts_of["Stärke"] == "PTSans-Narrow"  # a label: font: narrow


def test_each_distinct_image_is_embedded_once(german: Path, with_expansion: Path) -> None:
    # PNG x3, JPEG x3 on the fronts, however many cards place them; the WebP back once
    assert len(pdf_images(german / "fronts.pdf")) == 6
    assert len(pdf_images(german / "backs.pdf")) == 1
    # the expansion adds its own PNG; its other card prints the base game's wolf
    assert len(pdf_images(with_expansion / "fronts.pdf")) == 7


def test_translations_of_every_card_file_and_label_are_printed(german: Path) -> None:
    text = pdf_text(german / "fronts.pdf")
    for german_text in ("Aschenkobold", "Königin der Asche", "Aschepirscher", "Feuerpfeil",
                        "Eine Kreatur erleidet 2 Schaden", "Stärke", "Ausdauer", "ZAUBER",
                        "Noch kein Bild"):
        assert german_text in text, german_text
    assert "Cinder Imp" not in text and "Toughness" not in text


def test_csv_cells_are_typed_by_the_schema(german: Path) -> None:
    text = pdf_text(german / "fronts.pdf")
    assert text.count("SCHNELL") == 3  # swift: yes on three spells, when: self.swift
    assert "creature, legend" in text  # the list field targets, written creature;legend


def test_colour_placeholders_work_in_every_element(german: Path) -> None:
    """``"{school}"`` as a rect fill, a line stroke, a label colour and the set mark's colour."""
    with open_pdf(german / "fronts.pdf") as pages:
        page = next(p for p in pages if "Feuerpfeil" in p.text())
        strokes = {line.stroke for line in page.lines if line.stroke}
        fills = {rect.fill for rect in page.rects if rect.fill}
        spell = {ch.fill for ch in page.chars
                 if ch.text == "Z" and ch.fontname.endswith("NarrowBold")}
    for colour in (FIRE, FROST, SHADOW):
        assert any(close(colour, s) for s in strokes), colour
        assert any(close(colour, f) for f in fills), colour
        assert any(close(colour, s) for s in spell), colour


def test_art_is_fitted_and_bleeds_past_the_trim(with_expansion: Path) -> None:
    manifest = json.loads((with_expansion / "manifest.json").read_text(encoding="utf-8"))
    first = manifest["pages"][0]["cards"][0]
    assert first["id"] == "cinder-imp"
    with open_pdf(with_expansion / "fronts.pdf") as pages:
        images = pages[0].images
    x, w = first["x_mm"] * MM, first["w_mm"] * MM
    art = min(images, key=lambda i: (round(i.top), i.x0))  # top-left card's picture
    # cover: the 840 x 540 px scene fills the 63.5 mm window plus the side bleed, and crops
    assert art.px == (840, 540)
    assert art.x0 < x - 1 and art.x1 > x + w + 1
    assert art.width / art.height == pytest.approx(840 / 540, rel=0.01)
    with open_pdf(with_expansion / "fronts.pdf") as pages:
        page = next(p for p in pages if "Night Pact" in p.text())
        pact = next(i for i in page.images if i.px == (840, 540))
    # contain: the whole picture inside its 51.5 x 34 mm box, as wide as the box allows
    assert pact.width == pytest.approx(51.5 * MM, abs=0.5)
    assert pact.height < 34 * MM


def test_expansions_of_a_data_game(work: Path, with_expansion: Path) -> None:
    together = pnp(work, "validate", GAME, "--with", EXPANSION, "--locale", "de",
                   "--format", "json")
    assert together.returncode == 0 and findings(together) == []
    alone = pnp(work, "validate", EXPANSION, "--format", "json")  # the base is found beside it
    assert [f[1] for f in findings(alone)] == ["expansion-without-base"]
    text = pdf_text(with_expansion / "fronts.pdf")
    assert "Deep Ember" in text and "Old Wolf" in text and "Ash Rain" in text


def test_rules_are_listed_for_a_rules_table(work: Path) -> None:
    listing = json.loads(pnp(work, "rules", GAME, "--format", "json").stdout)
    assert listing["game"] == GAME
    rules = {rule["code"]: rule for rule in listing["rules"]}
    written = yaml.safe_load((work / GAME / "game.yaml").read_text(encoding="utf-8"))
    for rule in written["rules"]:  # each rule of game.yaml, field for field
        listed = rules[rule["code"]]
        assert listed["level"] == rule.get("scope", "card")
        assert (listed["kind"], listed["check"], listed["message"], listed["cites"]) == (
            rule.get("kind"), rule["check"], rule["message"], rule.get("cites"))
        assert listed["severity"] == rule.get("severity", "error")
    # the deck's limits are rules of the table too, in words
    assert rules["deck-size"]["message"] == "a deck holds exactly 30 cards"
    assert rules["deck-max-copies"]["message"] == "at most 3 copies of a card in a deck"
    text = pnp(work, "rules", GAME).stdout
    line = next(row for row in text.splitlines() if row.startswith("cheap-creatures"))
    assert "card:creature" in line and "error" in line and "(rules 2.3)" in line


def test_exported_schemas_check_the_card_files(work: Path, tmp_path: Path) -> None:
    out = tmp_path / "schemas"
    result = pnp(work, "schema", GAME, "--out", str(out))
    assert result.returncode == 0
    assert {p.name for p in out.iterdir()} >= {
        "game.schema.json", "card-file.schema.json", f"{GAME}-creature.schema.json",
        f"{GAME}-legend.schema.json", f"{GAME}-spell.schema.json"}
    typo = tmp_path / "typo.yaml"
    typo.write_text((work / GAME / "creatures.yaml").read_text(encoding="utf-8")
                    .replace("    power: 3\n    toughness: 6", "    powr: 3\n    toughness: 6"),
                    encoding="utf-8")
    tool = str(Path(sys.executable).parent / "check-jsonschema")  # the editors' checker
    cards = out / "card-file.schema.json"
    checks = [([str(out / "game.schema.json")], work / GAME / "game.yaml", 0),
              ([str(cards)], work / GAME / "creatures.yaml", 0),
              ([str(cards)], typo, 1)]
    for schema, target, code in checks:
        run = subprocess.run([tool, "--schemafile", *schema, str(target)], capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == code, run.stdout + run.stderr
    assert "'powr' was unexpected" in run.stdout


def test_translation_commands_on_the_data_game(tmp_path: Path) -> None:
    base = copy_packs(tmp_path)
    assert pnp(base, "i18n", "extract", GAME).returncode == 0
    pot = (base / GAME / "locales" / "messages.pot").read_text(encoding="utf-8")
    for reference, context in (("creatures.yaml:6", "cinder-imp.name"),
                               ("spells.csv:2", "firebolt.text"),
                               ("legends.xlsx[Creatures]:2", "ash-stalker.name"),
                               ("legends.xlsx[Legends]:2", "pyra.title")):
        assert re.search(rf"#: {re.escape(reference)}\n(#.*\n)*msgctxt \"{context}\"", pot), \
            (reference, context)
    assert 'msgctxt "label"\nmsgid "Toughness"' in pot
    catalog = base / GAME / "locales" / "de.po"
    before = [(e.msgctxt, e.msgid, e.msgstr) for e in polib.pofile(str(catalog))]
    assert pnp(base, "i18n", "update", GAME).returncode == 0
    assert [(e.msgctxt, e.msgid, e.msgstr) for e in polib.pofile(str(catalog))] == before
    status = pnp(base, "i18n", "status", GAME).stdout.splitlines()
    assert status[1].split() == ["de", "57", "0", "0", "0", "100.0%"]  # (the pack's and deck's
    # names included)
    msgfmt = subprocess.run(["msgfmt", "-c", "-o", os.devnull, str(base / GAME / "locales"
                                                                     / "de.po")],
                            capture_output=True, text=True)
    assert msgfmt.returncode == 0, msgfmt.stderr


def test_export_preflight_and_preview_of_the_data_game(work: Path) -> None:
    assert pnp(work, "export", GAME, "--to", "png", "--dpi", "60", "--out", "exports"
               ).returncode == 0
    listing = json.loads((work / "exports" / GAME / "en" / "png" / "export.json")
                         .read_text(encoding="utf-8"))
    fronts = {f["card"] for f in listing["files"] if f["side"] == "front"}
    assert fronts == CARD_IDS
    # print-shop checks: art and backgrounds reach into the bleed, texts stay in the safe zone
    preflight = pnp(work, "preflight", GAME, "--format", "json")
    assert preflight.returncode == 0 and findings(preflight) == []
    assert pnp(work, "preview", GAME, "--out", "proof").returncode == 0
    page = (work / "proof" / GAME / "proof" / "index.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-card="([a-z0-9-]+)"', page)) == CARD_IDS


# --- the mistakes designers make ------------------------------------------------------------------

def png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` pixels and holds none: a decompression bomb's
    calling card, read by its header alone."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def broken_workbook(path: Path) -> None:
    """One sheet per spreadsheet mistake, written as a program writes workbooks (formulas
    without computed values)."""
    from openpyxl import Workbook

    workbook = Workbook()
    header = ["id", "kind", "name", "cost", "power", "toughness"]
    sheets = {
        "Notes": [],
        "Formula": [header, ["imp-formula", "creature", "Formula Imp", "=1+1", 1, 1]],
        "Dates": [header, ["imp-date", "creature", "Date Imp", datetime.date(2024, 3, 5), 1, 1],
                  ["imp-text-date", "creature", datetime.date(2024, 1, 2), 1, 1, 1]],
        "Merged": [header, ["imp-merged", "creature", "Merged Imp", 1, 1, 1]],
        "Title": [["Creatures of the deep"], header, ["imp-title", "creature", "T", 1, 1, 1]],
        "Errors": [header, ["imp-error", "creature", "Error Imp", "#DIV/0!", 1, 1]],
        "TextNumber": [header, ["imp-text-number", "creature", "Text Imp", "2", 1, 1]],
    }
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    workbook["Merged"].merge_cells("B1:C1")  # 'name' disappears under 'kind'
    workbook["Title"].merge_cells("A1:F1")
    workbook["TextNumber"]["D2"].number_format = "@"
    workbook.save(path)


@pytest.fixture(scope="module")
def card_mistakes(tmp_path_factory) -> list[tuple]:
    """Mistakes in card files, art and decks, while the game itself is sound."""
    base = copy_packs(tmp_path_factory.mktemp("card-mistakes"))
    pack = base / GAME
    creatures, spells = pack / "creatures.yaml", pack / "spells.csv"
    set_field(creatures, "lava-golem", "power", "3\n    powr: 3")
    edit(creatures, "    power: 3\n    powr: 3\n", "    powr: 3\n")
    edit(spells, "Blizzard,5,", "Blizzard,five,")
    edit(spells, "Deal 2 damage {icon-flame}", "Deal 2 damage {icon-fire}")
    (pack / "more-spells.csv").write_text(
        "id,kind,name,cost,school,text,colour\n"
        "spark,spell,Spark,0,fire,Deal 1 damage.,red\n"
        "ember,spell,Ember,1,fire,Deal 1 damage.,red,extra\n", encoding="utf-8")
    (pack / "semicolons.csv").write_text("id;kind;name;cost;school;text\n"
                                         "spark-2;spell;Spark;0;fire;Deal 1 damage.\n",
                                         encoding="utf-8")
    broken_workbook(pack / "broken.xlsx")
    # art: each kind of problem on the field that names it
    art = pack / "art"
    (art / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" '
                                 'height="10"><rect x="0" </svg>', encoding="utf-8")
    raw = (art / "ember-drake.png").read_bytes()
    (art / "cut.png").write_bytes(raw[: len(raw) // 2])
    (art / "bomb.png").write_bytes(png_header(20000, 20000))
    from PIL import Image

    Image.new("RGB", (200, 130), (180, 60, 40)).save(art / "low.png")
    (base / "outside.png").write_bytes(raw)
    os.symlink(base / "outside.png", art / "link.png")
    for card, value in (("cinder-imp", "art/bad.svg"), ("ash-wolf", "art/cut.png"),
                        ("ember-drake", "art/bomb.png"), ("frost-wyrm", "art/low.png"),
                        ("night-owl", "art/link.png"), ("shade-walker", "../outside.png"),
                        ("glacier-bear", "/etc/hosts"), ("ember-moth", "art/spells/fire.png")):
        set_field(creatures, card, "art", value)
    # a card rule and the set rule broken
    set_field(creatures, "kindling-sprite", "power", "3")
    with creatures.open("a", encoding="utf-8") as file:
        file.write("  - {id: fifth-legend, kind: legend, name: Fifth, title: One Too Many,"
                   " cost: 5, power: 1, toughness: 1, art: art/ash-wolf.png}\n")
    (pack / "decks" / "bad.yaml").write_text(
        "name: Too many drakes\ncards:\n  - {card: ember-drake, count: 3}\n"
        "  - {card: vron, count: 1}\n  - {card: ember-drake, count: 1}\n", encoding="utf-8")
    result = pnp(base, "validate", GAME, "--deck", "decks/bad.yaml", "--format", "json")
    assert result.returncode == 1
    return findings(result)


@pytest.fixture(scope="module")
def game_mistakes(tmp_path_factory) -> list[tuple]:
    """Mistakes in game.yaml, its rules and schemas, the templates and the pack font."""
    base = copy_packs(tmp_path_factory.mktemp("game-mistakes"))
    pack = base / GAME
    game, templates = pack / "game.yaml", pack / "templates"
    edit(game, 'check: "self.cost >= 3 || self.power <= 2"',
         'check: "self.cost >= 3 || self.pwer <= 2"')
    edit(game, "c.kind == 'legend'", "c.kind == 'legnd'")
    edit(game, "        cost: {type: integer, minimum: 3, maximum: 10}",
         "        cost: {type: integer, minimum: three, maximum: 10}")
    edit(game, "    front: spell\n    back: back", "    front: spell\n    back: bak")
    edit(game, "deck:                        # decks", """  - code: cost-is-a-number
    kind: spell
    check: "self.cost + 'x' > 2"
    message: a wrong type
  - code: on-no-kind
    kind: creture
    check: "self.cost < 9"
    message: a kind that does not exist
  - code: never-a-spell
    kind: creature
    check: "self.kind != 'spell' || self.cost < 9"
    message: a kind this rule never sees
deck:                        # decks""")
    edit(templates / "back.yaml", "src: art/sigil.svg", "src: art/sigl.svg")
    edit(templates / "creature.yaml", "{icon-flame} {power}", "{icon-flam} {power}")
    edit(templates / "creature.yaml", "font: title, size: 13", "font: titel, size: 13")
    edit(templates / "creature.yaml", "fill: parchment, bleed: true", "fill: parchmnt, bleed: true")
    edit(templates / "creature.yaml", "{type: line,", "{type: circle,")
    edit(templates / "creature.yaml", 'when: "has(self.text)"', 'when: "has(self.txt)"')
    edit(templates / "creature.yaml", "when: \"kind == 'creature'\"", "when: \"kind == 'creatur'\"")
    (pack / "fonts" / "Alegreya-Bold.ttf").write_bytes(b"not a font, only words " * 40)
    result = pnp(base, "validate", GAME, "--format", "json")
    assert result.returncode == 1
    return findings(result)


CARD_MISTAKES = [
    # YAML: a misspelled field (did-you-mean) leaves the required one missing
    ("error", "unknown-field", "creatures.yaml", 36, 5, "lava-golem"),
    ("error", "missing-field", "creatures.yaml", 32, 5, "lava-golem"),
    # CSV: a cell of the wrong type; an unknown column; a row longer than the header
    ("error", "wrong-type", "spells.csv", 7, 4, "blizzard"),
    ("error", "unknown-field", "more-spells.csv", 1, 7, None),
    ("error", "ragged-row", "more-spells.csv", 3, 8, None),
    # (a CSV saved with semicolons between its columns is read: tests/datagame/test_tables.py)
    # an icon no file draws, in a card's text
    ("error", "unknown-icon", "spells.csv", 2, 6, "firebolt"),
    # XLSX: an empty sheet, a formula never computed, a date for a number (an error) and for a
    # text (a warning), a merged header cell, a title row above the header, an error value
    ("warning", "empty-table", "broken.xlsx[Notes]", 1, 1, None),
    ("error", "formula-not-computed", "broken.xlsx[Formula]", 2, 4, "imp-formula"),
    ("error", "spreadsheet-date", "broken.xlsx[Dates]", 2, 4, "imp-date"),
    ("warning", "spreadsheet-date", "broken.xlsx[Dates]", 3, 3, "imp-text-date"),
    ("error", "unnamed-column", "broken.xlsx[Merged]", 1, 3, None),
    ("error", "missing-field", "broken.xlsx[Merged]", 2, 1, "imp-merged"),
    ("error", "table-header", "broken.xlsx[Title]", 1, 1, None),
    ("error", "spreadsheet-error", "broken.xlsx[Errors]", 2, 4, "imp-error"),
    # art, on the field that names it: malformed SVG, truncated PNG, decompression bomb, low
    # resolution, ../, an absolute path, a link out of the pack (and the link itself), missing
    ("error", "art-unreadable", "creatures.yaml", 10, 10, "cinder-imp"),
    ("error", "art-unreadable", "creatures.yaml", 17, 10, "ash-wolf"),
    ("error", "art-too-large", "creatures.yaml", 24, 10, "ember-drake"),
    ("warning", "art-low-dpi", "creatures.yaml", 31, 10, "frost-wyrm"),
    ("error", "art-outside-pack", "creatures.yaml", 45, 10, "shade-walker"),
    ("error", "art-outside-pack", "creatures.yaml", 65, 10, "glacier-bear"),
    ("error", "art-outside-pack", "creatures.yaml", 85, 10, "night-owl"),
    ("error", "path-escape", "art/link.png", 0, 0, None),
    ("error", "art-missing", "creatures.yaml", 72, 10, "ember-moth"),
    # rules: a card rule at the card, the set rule at its entry in game.yaml
    ("error", "cheap-creatures-are-small", "creatures.yaml", 46, 5, "kindling-sprite"),
    ("error", "few-legends", "game.yaml", 59, 5, None),
    # the deck: its size at cards:, copies over max_copies at the entry, an unknown card
    ("error", "deck-size", "decks/bad.yaml", 2, 1, None),
    ("error", "deck-max-copies", "decks/bad.yaml", 5, 5, "ember-drake"),
    ("error", "deck-unknown-card", "decks/bad.yaml", 4, 12, "vron"),
]

GAME_MISTAKES = [
    ("error", "bad-font", "game.yaml", 9, 16, None),  # not a font; templates naming it are fine
    ("error", "bad-kind-schema", "game.yaml", 32, 40, None),  # minimum: three
    ("error", "missing-template", "game.yaml", 39, 11, None),  # back: bak
    ("error", "rule-unknown-field", "game.yaml", 55, 12, None),  # self.pwer
    ("error", "rule-unknown-value", "game.yaml", 61, 12, None),  # c.kind == 'legnd'
    ("error", "rule-wrong-type", "game.yaml", 65, 12, None),  # self.cost + 'x'
    ("error", "unknown-value", "game.yaml", 68, 11, None),  # kind: creture
    ("error", "rule-unknown-value", "game.yaml", 73, 12, None),  # creature rule: kind 'spell'
    ("error", "bad-template", "templates/back.yaml", 7, 50, None),  # art/sigl.svg
    ("error", "bad-template", "templates/creature.yaml", 5, 49, None),  # parchmnt
    ("error", "bad-template", "templates/creature.yaml", 18, 65, None),  # font: titel
    ("error", "bad-template", "templates/creature.yaml", 22, 38, None),  # kind == 'creatur'
    ("error", "bad-template", "templates/creature.yaml", 26, 28, None),  # has(self.txt)
    ("error", "bad-template", "templates/creature.yaml", 27, 12, None),  # type: circle
    ("error", "bad-template", "templates/creature.yaml", 29, 47, None),  # {icon-flam}
]


def _relative(rows: list[tuple]) -> list[tuple]:
    return sorted(((s, c, f.removeprefix(f"{GAME}/"), line, col, card)
                   for s, c, f, line, col, card in rows), key=str)


def test_card_file_art_and_deck_mistakes_are_located(card_mistakes: list[tuple]) -> None:
    assert _relative(card_mistakes) == sorted(CARD_MISTAKES, key=str)


def test_game_and_template_mistakes_are_located(game_mistakes: list[tuple]) -> None:
    assert _relative(game_mistakes) == sorted(GAME_MISTAKES, key=str)


def test_mistakes_are_explained(tmp_path: Path) -> None:
    """The words of a few findings: what is wrong and what was meant."""
    base = copy_packs(tmp_path)
    pack = base / GAME
    set_field(pack / "creatures.yaml", "ash-wolf", "art", "art/ash-wolf.jpg")
    edit(pack / "spells.csv", "Deal 2 damage {icon-flame}", "Deal 2 damage {icon-flam}")
    edit(pack / "game.yaml", "c.kind == 'legend'", "c.kind == 'legends'")
    edit(pack / "game.yaml", '"self.cost >= 3 ||', '"self.cost + \'x\' >= 3 ||')
    result = pnp(base, "validate", GAME)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{GAME}/creatures.yaml:17:10: error[art-missing]: 'art/ash-wolf.jpg': no such file in "
        "the pack; did you mean 'art/ash-wolf.png'? (card ash-wolf)",
        f"{GAME}/game.yaml:55:12: error[rule-wrong-type]: rule 'cheap-creatures-are-small': "
        "self.cost is int and 'x' is string: '+' cannot combine them",
        f"{GAME}/game.yaml:61:12: error[rule-unknown-value]: rule 'few-legends': 'legends' is "
        "not a kind of this game (its kinds: creature, legend, spell); did you mean 'legend'?",
        f"{GAME}/spells.csv:2:6: error[unknown-icon]: '{{icon-flam}}' in text is not an icon "
        "of this game (no file icons/flam.svg); did you mean '{icon-flame}'? (card firebolt)",
        "4 error(s), 0 warning(s)"]


def test_missing_front_template_is_a_finding_in_game_yaml(tmp_path: Path) -> None:
    base = copy_packs(tmp_path)
    edit(base / GAME / "game.yaml", "    front: spell\n", "")
    result = pnp(base, "validate", GAME, "--format", "json")
    assert result.returncode == 1
    assert findings(result) == [("error", "missing-field", f"{GAME}/game.yaml", 38, 5, None)]


@pytest.mark.parametrize(("school", "expected"), [
    # an enum: each value is checked against the palette when the template is read
    ("{enum: [fire, frost, shadow]}",
     [("error", "bad-template", "templates/spell.yaml", line, column, None)
      for line, column in ((6, 47), (14, 50), (15, 49), (17, 13), (24, 80))]),
    # any text: each card's value is checked, on the card's cell
    ("{type: string}",
     [("error", "unknown-colour", "spells.csv", row, 5, card)
      for row, card in ((8, "shadow-step"), (9, "dread-whisper"), (10, "night-pact"),
                        (11, "eclipse"))]),
])
def test_a_colour_read_from_a_field_must_be_in_the_palette(tmp_path: Path, school: str,
                                                            expected: list[tuple]) -> None:
    base = copy_packs(tmp_path)
    game = base / GAME / "game.yaml"
    edit(game, ' shadow: "#5b3c88",', "")
    edit(game, "school: {enum: [fire, frost, shadow]}", f"school: {school}")
    result = pnp(base, "validate", GAME, "--format", "json")
    assert _relative(findings(result)) == sorted(expected, key=str)


def test_label_findings_point_at_the_catalog_or_the_template_line(tmp_path: Path) -> None:
    """A data game has no labels.yaml: a label's translation finding is at its entry in the
    catalog, or at the template's ``label:`` when the catalog has no entry for it."""
    base = copy_packs(tmp_path)
    path = base / GAME / "locales" / "de.po"
    catalog = polib.pofile(str(path))
    catalog.remove(next(e for e in catalog if e.msgctxt == "label" and e.msgid == "Toughness"))
    next(e for e in catalog if e.msgctxt == "label" and e.msgid == "Swift").msgstr = \
        "Schnell \u2603"
    catalog.save()
    line = path.read_text(encoding="utf-8").splitlines().index('msgstr "Schnell \u2603"') + 1
    result = pnp(base, "validate", GAME, "--locale", "de", "--format", "json")
    assert _relative(findings(result)) == [
        ("error", "missing-glyph", "locales/de.po", line, 1, None),
        ("warning", "missing-translation", "templates/creature.yaml", 30, 51, None)]


def test_an_svg_that_cannot_be_drawn_stops_the_build_by_name(tmp_path: Path) -> None:
    """A picture inside an SVG that is no image: validation decodes embedded pictures now
    (issue 24), so the build stops with the finding at the card, not with exit 2 half-way."""
    base = copy_packs(tmp_path)
    (base / GAME / "art" / "odd.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image '
        'href="data:image/png;base64,AAAA" width="5" height="5"/></svg>', encoding="utf-8")
    set_field(base / GAME / "creatures.yaml", "ash-wolf", "art", "art/odd.svg")
    result = pnp(base, "build", GAME, "--out", "out")
    assert result.returncode == 1
    assert "error[art-unreadable]: 'odd.svg' line 1: its embedded picture cannot be read" in \
        result.stderr
