"""A designer's mistakes never print silently, and translations keep their meaning (issue 26
items 2, 4 and 6; issue 27's translations): tests/fixtures/designer-broken holds one case per
item, each asserted by code, severity and position; tests/fixtures/designer-unusual holds their
legal but unusual twins, which give no finding; the expansions beside them hold the cases of
packs checked together (a base glossary, a language only an expansion ships, an expansion
written in Russian)."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp, write_pack

FIXTURES = ROOT / "tests" / "fixtures"
BROKEN, UNUSUAL = FIXTURES / "designer-broken", FIXTURES / "designer-unusual"
EXPANSION, RUSSIAN = FIXTURES / "designer-expansion", FIXTURES / "designer-expansion-ru"

EXPECTED = [
    # 26.2: the schema errors of broken-giant (cost) and legend-two (toughness) hide nothing
    # else: the rule on its sound name, the id a later card repeats, the set rule counting it
    ("error", "wrong-type", "cards.yaml", 37, 11, "broken-giant"),
    ("error", "short-names", "cards.yaml", 36, 11, "broken-giant"),
    ("error", "duplicate-id", "cards.yaml", 47, 9, "broken-giant"),
    ("error", "out-of-range", "cards.yaml", 45, 16, "legend-two"),
    ("error", "few-legends", "game.yaml", 44, 5, None),
    # 26.4: a translation's findings at its msgstr: overflow; fuzzy apart from missing
    ("error", "text-overflow", "locales/de.po", 13, 1, "ember-imp"),
    ("warning", "fuzzy-translation", "locales/de.po", 22, 1, "ash-dragon"),
    ("warning", "missing-translation", "locales/de.po", 38, 1, "storm-caller"),
    # 27: an icon dropped, a die roll's threshold changed, a comparison changed, another
    # card no longer named, a glossary form that is a whole word ("Schadenspunkt")
    ("error", "translation-tokens", "locales/de.po", 17, 1, "ember-imp"),
    ("error", "translation-number", "locales/de.po", 26, 1, "ash-dragon"),
    ("error", "translation-comparison", "locales/de.po", 34, 1, "pool-keeper"),
    ("warning", "translation-card-name", "locales/de.po", 42, 1, "storm-caller"),
    ("warning", "glossary-term", "locales/de.po", 58, 1, "spark"),
]


def validate_json(*args: str, cwd: Path | None = None) -> tuple[int, list[dict]]:
    result = run_pnp("validate", *args, "--format", "json", "--verbose", cwd=cwd)
    assert "Traceback" not in result.stderr and result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)["findings"]


def rows(found: list[dict], pack: Path) -> list[tuple]:
    return [(f["severity"], f["code"], (ROOT / f["file"]).relative_to(pack).as_posix(),
             f["line"], f["column"], f["card"]) for f in found]


@pytest.fixture(scope="module")
def broken() -> list[dict]:
    code, found = validate_json(str(BROKEN), "--locale", "de")
    assert code == 1
    return found


def test_every_mistake_is_found_at_its_position(broken):
    assert sorted(rows(broken, BROKEN), key=str) == sorted(EXPECTED, key=str)


def test_translation_findings_point_at_the_msgstr_and_name_field_or_card(broken):
    lines = (BROKEN / "locales" / "de.po").read_text(encoding="utf-8").split("\n")
    for finding in broken:
        if finding["file"].endswith("de.po"):
            assert lines[finding["line"] - 1].startswith("msgstr"), finding
    by_code = {f["code"]: f["message"] for f in broken}
    assert by_code["text-overflow"].startswith("front creature name does not fit")
    assert "marked fuzzy" in by_code["fuzzy-translation"]
    assert "5 or more" in by_code["translation-number"] and "4 or more" in \
        by_code["translation-number"]
    assert "more than 2" in by_code["translation-comparison"]
    assert "'Spark' (spark)" in by_code["translation-card-name"]
    assert "'Funke'" in by_code["translation-card-name"]


def test_the_legal_twins_give_no_finding():
    for args in ((str(UNUSUAL),), (str(UNUSUAL), "--locale", "de")):
        assert validate_json(*args) == (0, [])


def test_a_base_glossary_applies_to_an_expansions_catalog():
    code, found = validate_json(str(UNUSUAL), "--with", str(EXPANSION), "--locale", "de")
    assert code == 0
    assert rows(found, FIXTURES) == [("warning", "glossary-term",
                                      "designer-expansion/locales/de.po", 17, 1, "tide-hunter")]
    assert "'creature'" in found[0]["message"] and "Kreatur*" in found[0]["message"]


def test_a_locale_only_an_expansion_ships_is_checked_and_says_so_once():
    code, found = validate_json(str(UNUSUAL), "--with", str(EXPANSION), "--locale", "fr")
    assert code == 0
    assert rows(found, FIXTURES) == [("warning", "locale-not-shipped",
                                      "designer-unusual/game.yaml", 7, 10, None)]
    assert "print in en" in found[0]["message"]
    refused = run_pnp("validate", str(UNUSUAL), "--locale", "fr")
    assert refused.returncode == 2 and "has no locale 'fr'" in refused.stderr


def test_an_expansion_written_in_russian_has_no_missing_russian():
    code, found = validate_json(str(UNUSUAL), "--with", str(RUSSIAN), "--locale", "ru")
    assert code == 0
    assert not [f for f in found if f["code"] == "missing-translation"]
    assert sorted(rows(found, FIXTURES)) == [
        ("warning", "locale-not-shipped", "designer-expansion-ru/game.yaml", 3, 1, None),
        ("warning", "locale-not-shipped", "designer-unusual/game.yaml", 7, 10, None)]
    # (the first for the set's source language, en, the second for ru)
    assert {f["locale"] for f in found} == {"en", "ru"}


# --- i18n status -------------------------------------------------------------------------------

def test_status_lists_missing_fuzzy_and_obsolete_entries(tmp_path):
    pack = tmp_path / "designer-unusual"
    shutil.copytree(UNUSUAL, pack)
    po = pack / "locales" / "de.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgctxt "ash-dragon.name"', '#, fuzzy\nmsgctxt "ash-dragon.name"')
    text = text.replace('msgid "Storm Caller"\nmsgstr "Sturmrufer"',
                        'msgid "Storm Caller"\nmsgstr ""')
    po.write_text(text + '\n#~ msgctxt "gone.name"\n#~ msgid "Gone"\n#~ msgstr "Weg"\n',
                  encoding="utf-8")
    result = run_pnp("i18n", "status", str(pack), "--format", "json")
    assert result.returncode == 0, result.stderr
    (de,) = json.loads(result.stdout)["locales"]
    # the cards' texts and the pack's name (printed on its tuck box)
    assert (de["translated"], de["missing"], de["fuzzy"], de["obsolete"]) == (13, 1, 1, 1)
    (missing,) = de["missing_entries"]
    assert missing["msgctxt"] == "storm-caller.name" and missing["where"] == "cards.yaml:29"
    (fuzzy,) = de["fuzzy_entries"]
    assert fuzzy["msgctxt"] == "ash-dragon.name" and fuzzy["where"].startswith("locales/de.po:")
    (obsolete,) = de["obsolete_entries"]
    assert obsolete["msgctxt"] == "gone.name"
    text = run_pnp("i18n", "status", str(pack), "--verbose").stdout
    assert ": fuzzy: ash-dragon.name: Ash Dragon" in text
    assert ": obsolete: gone.name: Gone" in text
    assert "cards.yaml:29: missing: storm-caller.name: Storm Caller" in text


def test_status_of_a_data_game_expansion_away_from_its_base(tmp_path):
    away = tmp_path / "elsewhere" / "expansion"
    shutil.copytree(EXPANSION, away)
    alone = run_pnp("i18n", "status", str(away))
    said = alone.stdout + alone.stderr
    assert alone.returncode == 1 and "unknown-game" in said
    assert "pnp i18n status BASE --with" in said
    result = run_pnp("i18n", "status", str(UNUSUAL), "--with", str(away), "--format", "json")
    assert result.returncode == 0, result.stderr
    packs = {p["pack"]: p for p in json.loads(result.stdout)["packs"]}
    assert [row["locale"] for row in packs["designer-expansion"]["locales"]] == ["de", "fr"]
    assert all(row["translated"] == 4 for row in packs["designer-expansion"]["locales"])


# --- card files: .ods, .xls, unknown files, merged cells, semicolon CSV ----------------------

def ods(path: Path, rows_: list[list[object]], merged: dict[tuple[int, int], int] = (),
        trailing: bool = True) -> None:
    """A minimal OpenDocument spreadsheet as LibreOffice saves one (its million empty rows at
    the end, written once); ``merged``: (row, column) from 0 -> rows it spans down."""
    def cell(row: int, column: int, value: object) -> str:
        if value is None:
            return "<table:covered-table-cell/>"
        spans = dict(merged).get((row, column))
        span = f' table:number-rows-spanned="{spans}"' if spans else ""
        if isinstance(value, int):
            return (f'<table:table-cell office:value-type="float" office:value="{value}"{span}>'
                    f"<text:p>{value}</text:p></table:table-cell>")
        return (f'<table:table-cell office:value-type="string"{span}><text:p>{value}</text:p>'
                "</table:table-cell>")

    body = "".join("<table:table-row>" + "".join(cell(r, c, v) for c, v in enumerate(row))
                   + "</table:table-row>" for r, row in enumerate(rows_))
    if trailing:
        body += ('<table:table-row table:number-rows-repeated="1048570"><table:table-cell '
                 'table:number-columns-repeated="1024"/></table:table-row>')
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="Cards">{body}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"),
                         "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest '
                         'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>')
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)


HEADER = ["id", "kind", "name", "cost", "power", "toughness"]


def test_card_files_pnp_cannot_read_and_merged_cells_are_findings(tmp_path):
    pack = tmp_path / "designer-unusual"
    shutil.copytree(UNUSUAL, pack)
    ods(pack / "more.ods", [HEADER, ["reef-eel", "creature", "Reef Eel", 1, 1, 1],
                            ["sea-snake", "creature", "Sea Snake", 2, 2, 2],
                            ["sea-slug", "creature", "Sea Slug", None, 1, 1]],
        merged={(2, 3): 2})
    (pack / "old.xls").write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504))
    (pack / "notes.rtf").write_text("{\\rtf1 cards to do}", encoding="utf-8")
    (pack / "quoted.csv").write_text('"id","kind","name","cost"\n'
                                     '"gust","spell","Gust""s" Edge","1"\n', encoding="utf-8")
    code, found = validate_json(str(pack))
    assert code == 1
    assert sorted(rows(found, pack), key=str) == sorted([
        ("error", "merged-cells", "more.ods[Cards]", 3, 4, "sea-slug"),
        ("error", "unreadable-card-file", "old.xls", 1, 1, None),
        ("warning", "unknown-file", "notes.rtf", 1, 1, None),
        ("error", "bad-csv", "quoted.csv", 2, 1, None),
    ], key=str)
    by_code = {f["code"]: f["message"] for f in found}
    assert "cells D3:D4 are merged" in by_code["merged-cells"]
    assert "row 4 has no 'cost'" in by_code["merged-cells"]
    assert "Excel 97-2003 workbook" in by_code["unreadable-card-file"]
    assert "quote inside a quoted text twice" in by_code["bad-csv"]
    assert "expected after" not in by_code["bad-csv"]  # (the csv module's own words)


def test_the_twins_of_card_files_are_read(tmp_path):
    pack = tmp_path / "designer-unusual"
    shutil.copytree(UNUSUAL, pack)
    ods(pack / "more.ods", [HEADER, ["reef-eel", "creature", "Reef Eel", 1, 1, 1],
                            [None, None, None, None, None, None],
                            ["sea-snake", "creature", "Sea Snake", 2, 2, 2]])
    (pack / "notes.txt").write_text("cards still to draw", encoding="utf-8")
    (pack / "~$more.xlsx").write_bytes(b"an Excel lock file")
    (pack / ".~lock.more.ods#").write_text("a LibreOffice lock file", encoding="utf-8")
    (pack / "more.ods.bak").write_bytes(b"a backup")
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["findings"] == []
    # the semicolon CSV of quoted texts (spells.csv) and the .ods sheet are read: 8 cards
    assert report["summary"]["cards"] == 4 + 2 + 2


def test_a_spreadsheet_out_of_bounds_is_refused_before_any_grid_is_built(tmp_path):
    pack = tmp_path / "designer-unusual"
    shutil.copytree(UNUSUAL, pack)
    far = [HEADER] + [[None] * 6 for _ in range(3)]
    ods(pack / "far.ods", far, trailing=False)
    content = zipfile.ZipFile(pack / "far.ods").read("content.xml").decode()
    # a value in column 400 of 10,000 rows: few values, but a grid of 4 million cells
    content = content.replace("</table:table>", '<table:table-row table:number-rows-repeated='
                              '"10000"><table:table-cell table:number-columns-repeated="399"/>'
                              '<table:table-cell office:value-type="float" office:value="1">'
                              "<text:p>1</text:p></table:table-cell></table:table-row>"
                              "</table:table>")
    with zipfile.ZipFile(pack / "far.ods", "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", "<m/>")
        archive.writestr("content.xml", content)
    code, found = validate_json(str(pack))
    assert code == 1
    assert [(f["code"], Path(f["file"]).name) for f in found] == [("table-too-large",
                                                                   "far.ods[Cards]")]


# --- a built-in game: the ids of cards that failed their schema -------------------------------

SHIP = """\
  - id: {id}
    kind: ship
    name: {name}
    class: Spruance
    type: DD
    nation: US
    points: {points}
    hits_to_sink: 3
    guns: [5in]
"""


def test_a_built_in_games_card_that_failed_its_schema_keeps_its_id(tmp_path):
    base = ROOT / "cards" / "cwnb"
    expansion = write_pack(tmp_path / "exp", {"ships.yaml": "cards:\n" + SHIP.format(
        id="uss-nimitz", name="USS Twin", points="many")}, game=(
        "pack: exp\ngame: cwnb\nname: Exp\nsource_locale: en\nset_mark: exp\nextends: cwnb\n"))
    code, found = validate_json(str(base), "--with", str(expansion))
    assert code == 1
    assert sorted((f["code"], f["line"], f["card"]) for f in found) == [
        ("duplicate-id", 2, "uss-nimitz"), ("wrong-type", 8, "uss-nimitz")]


def test_an_expansion_in_another_language_prints_its_own_and_its_translations(tmp_path):
    """An expansion written in Russian prints its texts as written in a Russian set, and its
    own English catalog's in the English base's language (a base-language build used to print
    the Russian text, as if it were the source)."""
    from generator.pipeline.localecheck import localizer_for
    from generator.pipeline.validate import validate

    russian = tmp_path / "designer-expansion-ru"
    shutil.copytree(RUSSIAN, russian)
    game = russian / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "locales: [ru, en]\n", encoding="utf-8")
    (russian / "locales").mkdir()
    (russian / "locales" / "en.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "volna.name"\nmsgid "Волна"\nmsgstr "Wave"\n\n'
        'msgctxt "volna.text"\nmsgid "Когда появляется, наносит 2 урона."\n'
        'msgstr "When it enters, it deals 2 damage."\n', encoding="utf-8")
    checked = validate(UNUSUAL, (russian,))
    (wave,) = checked.card_set.expansions[0].cards
    (imp,) = [card for card in checked.card_set.base.cards if card.id == "ember-imp"]
    english = localizer_for(checked.card_set, checked.game.name, "en")
    assert (english.field(wave, "name"), english.field(imp, "name")) == ("Wave", "Ember Imp")
    russian_set = localizer_for(checked.card_set, checked.game.name, "ru")
    assert russian_set.field(wave, "name") == "Волна" and not russian_set.missing
    code, found = validate_json(str(UNUSUAL), "--with", str(russian))
    assert (code, found) == (0, [])
