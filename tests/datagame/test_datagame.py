"""A game defined in data (tests/fixtures/datagame): validate, build, art, fonts, translations,
rules table, schemas, tables and expansions, with no Python of its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp
from conftest import copy_datagame as copy_pack
from pdfread import open_pdf, pdf_text
from pypdf import PdfReader

FIXTURE = ROOT / "tests" / "fixtures" / "datagame"
VERA = Path(__import__("reportlab").__file__).parent / "fonts" / "Vera.ttf"


def xobjects(pdf: Path) -> dict[str, list]:
    """Every distinct XObject of the file by subtype (forms are walked into)."""
    reader = PdfReader(pdf)
    found: dict[int, object] = {}

    def walk(resources) -> None:
        table = resources.get("/XObject") if resources else None
        if not table:
            return
        for ref in table.get_object().values():
            obj = ref.get_object()
            if ref.idnum in found:
                continue
            found[ref.idnum] = obj
            if obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    by_type: dict[str, list] = {}
    for obj in found.values():
        by_type.setdefault(str(obj.get("/Subtype")), []).append(obj)
    return by_type


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("datagame")
    pack = copy_pack(base)
    out = {}
    for locale in ("en", "de"):
        result = run_pnp("build", str(pack), "--locale", locale, "--out", str(base / "out"),
                         cwd=base)
        assert result.returncode == 0, result.stdout + result.stderr
        out[locale] = base / "out" / "emberfall" / locale / "a4"
    return out


def test_data_game_validates_clean(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    result = run_pnp("validate", str(pack), "--locale", "de", "--deck", "decks/starter.yaml",
                     "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["findings"] == []
    assert report["summary"]["cards"] == 4  # two from YAML, two from the CSV file


def test_each_raster_image_is_embedded_once_and_svg_stays_vectors(built) -> None:
    found = xobjects(built["en"] / "fronts.pdf")
    images = found.get("/Image", [])
    # imp.png (placed on both copies of ember-imp) and dragon.jpg; logo.svg is no image
    assert sorted((int(i["/Width"]), int(i["/Height"])) for i in images) == [(800, 1000),
                                                                             (900, 700)]
    backs = xobjects(built["en"] / "backs.pdf")
    assert "/Image" not in backs, "the SVG logo of the back must be drawn as vectors"
    assert len(backs["/Form"]) >= 2  # the back face and the logo drawn once as a form


def test_translated_texts_and_labels_are_in_the_pdf(built) -> None:
    fronts = pdf_text(built["de"] / "fronts.pdf")
    with open_pdf(built["de"] / "backs.pdf") as pages:
        backs = pages[0].text()
    assert "Glutkobold" in fronts and "Feuerball" in fronts and "Stärke" in fronts
    assert "Ember Imp" not in fronts
    assert "GLUTFALL" in backs


def test_csv_values_and_list_fields_are_printed(built) -> None:
    text = pdf_text(built["en"] / "fronts.pdf")
    assert "legend, dragon" in text  # a list field joined for print
    assert "Deal 3 damage." in text  # a card from spells.csv


def test_cover_art_is_cropped_to_its_box_with_bleed_on_outer_edges(built) -> None:
    with open_pdf(built["en"] / "fronts.pdf") as pages:
        images = pages[0].images
    assert len(images) == 3  # two imps and the dragon on the first sheet
    placed = json.loads((built["en"] / "manifest.json").read_text())["pages"][0]["cards"]
    first = placed[0]
    mm = 72 / 25.4
    imp = min(images, key=lambda i: i.x0)
    # cover: the box with bleed on top, left and right is 66.5 x 49.5 mm, wider than the
    # 900 x 700 image, so the image takes the box's width and its height is cropped by the
    # clip around the box, centred on it
    assert imp.px == (900, 700)
    assert imp.width / mm == pytest.approx(63.5 + 2 * 1.5, abs=0.05)
    assert imp.width / imp.height == pytest.approx(900 / 700, abs=0.01)
    assert imp.x0 / mm == pytest.approx(first["x_mm"] - 1.5, abs=0.05)
    box_middle = first["y_mm"] - 1.5 + 49.5 / 2
    assert (imp.top + imp.bottom) / 2 / mm == pytest.approx(box_middle, abs=0.05)


def test_pack_font_is_embedded_and_a_missing_glyph_is_a_finding(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    (pack / "fonts").mkdir()
    shutil.copy(VERA, pack / "fonts" / "Title.ttf")
    game = (pack / "game.yaml").read_text()
    (pack / "game.yaml").write_text(game.replace("card_size: poker",
                                                 "card_size: poker\nfonts: {title: "
                                                 "fonts/Title.ttf}"))
    template = pack / "templates" / "creature.yaml"
    template.write_text(template.read_text().replace(
        'text: "{name}", font: bold', 'text: "{name}", font: title'))
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    reader = PdfReader(tmp_path / "out" / "emberfall" / "en" / "a4" / "fronts.pdf")
    fonts = set()
    for page in reader.pages:
        for form in page["/Resources"]["/XObject"].values():
            resources = form.get_object().get("/Resources") or {}
            for font in (resources.get("/Font") or {}).values():
                font = font.get_object()
                descendant = font["/DescendantFonts"][0].get_object() \
                    if "/DescendantFonts" in font else font
                assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
                fonts.add(str(font["/BaseFont"]))
    assert "/AAAAAA+BitstreamVeraSans-Roman" in fonts, fonts  # the pack's font, as a subset
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Ash Dragon", "name: Ash Дракон"))
    result = run_pnp("validate", str(pack), "--locale", "en", "--format", "json", cwd=tmp_path)
    codes = [(f["code"], f["line"], f["card"]) for f in json.loads(result.stdout)["findings"]]
    assert ("missing-glyph", 13, "ash-dragon") in codes


def test_rules_table_as_text_and_json(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    result = run_pnp("rules", str(pack), "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = {r["code"]: r for r in json.loads(result.stdout)["rules"]}
    assert rows["cheap-creatures-are-small"] == {
        "code": "cheap-creatures-are-small", "level": "card", "kind": "creature",
        "severity": "error", "cites": "rules 2.3",
        "message": "a creature costing less than 3 has power 2 or less",
        "check": "self.cost >= 3 || self.power <= 2"}
    assert rows["few-legends"]["level"] == "set"
    assert {"deck-size", "deck-max-copies", "needs-spells"} <= set(rows)
    text = run_pnp("rules", str(pack), cwd=tmp_path).stdout
    assert "cheap-creatures-are-small" in text and "card:creature" in text


def test_rules_table_of_a_built_in_game_lists_its_rulebook() -> None:
    result = run_pnp("rules", "cards/cwnb", "--format", "json")
    rows = json.loads(result.stdout)["rules"]
    assert rows and all(r["code"].startswith("cwnb-") for r in rows)
    assert all(r["cites"] for r in rows)


def test_schema_export_bundles_the_data_kinds(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    result = run_pnp("schema", str(pack), "--out", str(tmp_path / "schemas"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    bundle = json.loads((tmp_path / "schemas" / "card-file.schema.json").read_text())
    assert set(bundle["$defs"]) == {"creature", "spell"}
    creature = json.loads((tmp_path / "schemas" / "emberfall-creature.schema.json").read_text())
    assert creature["properties"]["cost"] == {"type": "integer", "minimum": 0, "maximum": 10}
    assert creature["additionalProperties"] is False


def test_i18n_extract_has_field_contexts_for_yaml_and_csv_cards(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    result = run_pnp("i18n", "extract", str(pack), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pot = (pack / "locales" / "messages.pot").read_text()
    for context in ("ember-imp.name", "ember-imp.text", "fireball.name", "spark.text"):
        assert f'msgctxt "{context}"' in pot
    assert 'msgid "EMBERFALL"' in pot and 'msgid "Power"' in pot
    assert "#: spells.csv:2" in pot


def test_a_translation_with_a_wrong_token_is_reported(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    po = pack / "locales" / "de.po"
    po.write_text(po.read_text().replace("1 {icon-flame} Schaden", "1 Schaden"))
    result = run_pnp("validate", str(pack), "--locale", "de", "--format", "json", cwd=tmp_path)
    findings = json.loads(result.stdout)["findings"]
    assert [(f["code"], f["card"]) for f in findings] == [("translation-tokens", "ember-imp")]


def test_expansion_of_a_data_game(tmp_path: Path) -> None:
    base = copy_pack(tmp_path)
    expansion = tmp_path / "emberfall-frost"
    (expansion).mkdir()
    (expansion / "game.yaml").write_text(
        "pack: emberfall-frost\nname: Frost\nsource_locale: en\nextends: emberfall\n"
        "set_mark: frost\n")
    (expansion / "cards.yaml").write_text(
        "cards:\n  - {id: frost-imp, kind: creature, name: Frost Imp, cost: 1, power: 4,"
        " toughness: 1}\n")
    together = run_pnp("validate", str(base), "--with", str(expansion), "--format", "json",
                       cwd=tmp_path)
    findings = json.loads(together.stdout)["findings"]
    assert [(f["code"], f["card"], f["line"]) for f in findings] == [
        ("cheap-creatures-are-small", "frost-imp", 2)]
    alone = run_pnp("validate", str(expansion), "--format", "json", cwd=tmp_path)
    codes = [f["code"] for f in json.loads(alone.stdout)["findings"]]
    assert "cheap-creatures-are-small" in codes and "unknown-game" not in codes


def test_xlsx_sheets_are_card_files_located_by_sheet_row_and_column(tmp_path: Path) -> None:
    from openpyxl import Workbook

    pack = copy_pack(tmp_path)
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Creatures"
    sheet.append(["id", "kind", "name", "cost", "power", "toughness", "tags"])
    sheet.append(["bog-toad", "creature", "Bog Toad", 2, 1, 2, "swamp; small"])
    sheet.append(["bad-toad", "creature", "Bad Toad", "lots", 1, 2, None])
    spells = workbook.create_sheet("Spells")
    spells.append(["id", "kind", "name", "cost"])
    spells.append(["mud", "spell", "Mud", 1])
    workbook.save(pack / "more.xlsx")
    result = run_pnp("validate", str(pack), "--format", "json", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert [(f["code"], f["file"], f["line"], f["column"]) for f in report["findings"]] == [
        ("wrong-type", "emberfall/more.xlsx[Creatures]", 3, 4)]
    assert report["summary"]["cards"] == 6
    text = run_pnp("validate", str(pack), cwd=tmp_path).stdout
    assert "emberfall/more.xlsx[Creatures]:3:4: error[wrong-type]" in text


def test_bad_kind_schema_and_bad_template_are_located_findings(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("cost: {type: integer, minimum: 0, maximum: 10}",
                                             "cost: {type: integer, minimum: low}"))
    template = pack / "templates" / "spell.yaml"
    template.write_text(template.read_text().replace("fill: fire", "fill: lava")
                        .replace("type: image", "type: picture"))
    result = run_pnp("validate", str(pack), "--format", "json", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    found = [(f["code"], Path(f["file"]).name, f["line"]) for f in
             json.loads(result.stdout)["findings"]]
    assert ("bad-kind-schema", "game.yaml", 17) in found
    assert not any(code.startswith("rule-") for code, _, _ in found)
    assert ("bad-template", "spell.yaml", 3) in found  # unknown colour 'lava'
    assert ("bad-template", "spell.yaml", 4) in found  # unknown element type


def test_cel_conditions_in_templates_choose_what_is_drawn() -> None:
    from generator.layout.engine import condition_holds
    from generator.model.template import TemplateError

    values = {"has_damage": True, "damage": 3, "name": "Torpedo", "caliber": None}
    assert condition_holds("has_damage", values)
    assert condition_holds("damage > 2 && name.startsWith('Tor')", values)
    assert not condition_holds("self.damage > 5", values)
    # a value the card lacks (None) is absent, as a data card's missing field
    assert not condition_holds("has(self.caliber)", values)
    assert condition_holds("has(self.damage)", values)
    # over face values the templates are a built-in game's own: a condition that cannot be
    # evaluated is a bug to hear of, not an element silently left out
    with pytest.raises(TemplateError, match="no field 'nothing'"):
        condition_holds("self.nothing > 5", values)


def test_has_guards_optional_fields_in_rules() -> None:
    from generator.rules.cel import compile_expression

    check = compile_expression("!has(self.tags) || self.tags.size() > 0")
    assert check.evaluate({"self": {"cost": 1}}) is True
    assert check.evaluate({"self": {"tags": []}}) is False


@pytest.mark.parametrize(("fit", "expected"), [
    ("cover", (-10.0, 0.0, 60.0, 30.0)),
    ("contain", (0.0, 2.5, 40.0, 20.0)),
    ("fill", (0.0, 0.0, 40.0, 25.0)),
])
def test_fit_places_art_as_named(fit: str, expected: tuple) -> None:
    from generator.load.art import ArtInfo, placement

    info = ArtInfo(Path("x.png"), 2000.0, 1000.0, vector=False)
    assert placement(info, (0.0, 0.0, 40.0, 30.0) if fit == "cover" else
                     (0.0, 0.0, 40.0, 25.0), fit) == pytest.approx(expected)


def test_shipped_games_are_found_through_entry_points() -> None:
    from importlib.metadata import entry_points

    from generator.games import get_game, known_games

    registered = {ep.name: ep.value for ep in entry_points(group="pnp.games")}
    assert registered == {"cwnb": "generator.games.cwnb:GAME",
                          "commander": "generator.games.commander:GAME",
                          "gwas": "generator.games.gwas:GAME"}
    assert known_games() == ["commander", "cwnb", "gwas"]
    assert get_game("cwnb").name == "cwnb" and get_game("emberfall") is None


def test_unknown_game_lists_what_is_known(make_pack) -> None:
    pack = make_pack({}, game="pack: x\ngame: emberfall\nname: X\nsource_locale: en\n"
                               "set_mark: x\n")
    result = run_pnp("validate", str(pack))
    assert result.returncode == 1
    assert "unknown game 'emberfall'; known games: commander, cwnb, gwas" in result.stdout
