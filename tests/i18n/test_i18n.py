"""Translations: catalogs, fallbacks, glossary, glyphs, and fitting text into its box."""

from __future__ import annotations

import json

import polib
import pytest
from conftest import run_pnp

from generator.i18n.catalogs import label_messages, pack_messages, status, update
from generator.layout.faces import lay_out_cards
from generator.layout.ops import Image, Text
from generator.layout.textfit import PT_TO_MM, fit_text
from generator.pipeline.localecheck import check_locale, localizer_for
from generator.pipeline.pack import load_pack
from generator.pipeline.validate import validate

GAME = """\
pack: mini
game: cwnb
name: Mini
source_locale: en
locales: [en, ru]
set_mark: anchor
"""

CARDS = """\
cards:
  - id: gun-5in
    kind: action
    name: Gun Attack 5in
    action: gun
    caliber: 5in
    damage: 2
    text: "A ship with a {gun-5in} gun fires at the enemy's first row."
  - id: uss-spruance
    kind: ship
    name: USS Spruance
    class: Spruance
    type: DD
    nation: US
    points: 5
    hits_to_sink: 4
    guns: [5in]
  - id: order-1
    kind: player_order
    order: 1
"""


def write_po(pack, entries: dict[tuple[str, str], str]) -> None:
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ru"}
    for (context, source), target in entries.items():
        catalog.append(polib.POEntry(msgctxt=context, msgid=source, msgstr=target))
    (pack / "locales").mkdir(exist_ok=True)
    catalog.save(str(pack / "locales" / "ru.po"))


@pytest.fixture
def mini(make_pack):
    return make_pack({"cards.yaml": CARDS}, game=GAME)


def locale_findings(pack, strict=False):
    checked = validate(pack)
    return check_locale(checked.card_set, checked.game, "ru", strict)


def codes_for(findings, card):
    return sorted(f.code for f in findings if f.card == card)


def test_missing_translation_warns_and_falls_back(mini):
    write_po(mini, {("uss-spruance.name", "USS Spruance"): "Спрюэнс"})
    findings = locale_findings(mini)
    missing = [f for f in findings if f.code == "missing-translation" and f.card == "gun-5in"]
    assert {f.severity for f in missing} == {"warning"}
    assert {(f.location.line, f.locale) for f in missing} == {(4, "ru"), (8, "ru")}
    checked = validate(mini)
    localizer = localizer_for(checked.card_set, "cwnb", "ru")
    card = checked.card_set.cards[0]
    assert localizer.field(card, "name") == "Gun Attack 5in"
    ship = checked.card_set.cards[1]
    assert localizer.field(ship, "name") == "Спрюэнс"


def test_strict_makes_a_missing_translation_an_error(mini):
    write_po(mini, {})
    findings = locale_findings(mini, strict=True)
    assert any(f.code == "missing-translation" and f.severity == "error" for f in findings)
    result = run_pnp("validate", str(mini), "--locale", "ru", "--strict", "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert any(f["code"] == "missing-translation" and f["locale"] == "ru"
               for f in doc["findings"])


def test_a_glyph_the_font_lacks_is_an_error_naming_card_field_locale_and_character(mini):
    write_po(mini, {("uss-spruance.name", "USS Spruance"): "Спрюэнс \u2693"})
    (finding,) = [f for f in locale_findings(mini) if f.code == "missing-glyph"]
    assert finding.card == "uss-spruance" and finding.locale == "ru"
    assert "ship name" in finding.message and "U+2693" in finding.message
    po_lines = (mini / "locales" / "ru.po").read_text(encoding="utf-8").split("\n")
    assert finding.location.file.endswith("locales/ru.po")  # where the translator fixes it
    assert po_lines[finding.location.line - 1] == 'msgstr "Спрюэнс \u2693"'


def test_changed_icon_tokens_in_a_translation_are_an_error(mini):
    source = "A ship with a {gun-5in} gun fires at the enemy's first row."
    write_po(mini, {("gun-5in.text", source): "Корабль с {gun-3in} стреляет по первой линии."})
    assert "translation-tokens" in codes_for(locale_findings(mini), "gun-5in")


def test_glossary_flags_an_inconsistent_term(mini):
    (mini / "glossary.yaml").write_text(
        "terms:\n  - en: first row\n    ru: [перв*]\n", encoding="utf-8")
    source = "A ship with a {gun-5in} gun fires at the enemy's first row."
    write_po(mini, {("gun-5in.text", source): "Корабль с {gun-5in} стреляет по дозору врага."})
    findings = [f for f in locale_findings(mini) if f.code == "glossary-term"]
    assert [f.card for f in findings] == ["gun-5in"]
    write_po(mini, {("gun-5in.text", source): "Корабль с {gun-5in} бьёт по первой линии."})
    assert not [f for f in locale_findings(mini) if f.code == "glossary-term"]


def overflow_for(mini, text):
    source = "A ship with a {gun-5in} gun fires at the enemy's first row."
    write_po(mini, {("gun-5in.text", source): text})
    checked = validate(mini)
    faces = lay_out_cards(checked.card_set, checked.game,
                          localizer_for(checked.card_set, "cwnb", "ru"), 0.0)
    return [f for f in faces.findings if f.code == "text-overflow"]


def test_long_translation_shrinks_to_fit():
    text = "Корабль первой линии с орудием {gun-5in} обстреливает корабль противника. " * 5
    fitted = fit_text(text, 50.5, 21.0, "regular", 8.0, 6.0, "ru")
    assert fitted.fits and 6.0 <= fitted.size_pt < 8.0 and not fitted.hyphenated


def test_word_too_long_for_its_box_is_hyphenated_by_the_dictionary():
    fitted = fit_text("Противолодочная оборона", 20.0, 10.0, "bold", 10.0, 8.0, "ru")
    assert fitted.fits and fitted.hyphenated
    first_line = "".join(piece.text for piece in fitted.lines[0].pieces)
    assert first_line.endswith("-") and first_line.startswith("Противолодоч")


def test_text_that_cannot_fit_reports_card_field_locale_and_mm(mini):
    findings = overflow_for(mini, "Очень длинный перевод, который никак не помещается. " * 12)
    (finding,) = findings
    assert finding.card == "gun-5in" and finding.locale == "ru"
    assert "front action text" in finding.message and " mm too long" in finding.message
    # found in the catalog, at the translation's msgstr: the translator fixes it there
    po = mini / "locales" / "ru.po"
    assert finding.location.file == str(po)
    assert po.read_text(encoding="utf-8").split("\n")[finding.location.line - 1].startswith(
        "msgstr")
    overflow_mm = float(finding.message.split(": ")[-1].split(" mm")[0])
    assert overflow_mm > 5


def test_a_label_too_long_for_a_widget_is_reported_too(mini):
    write_po(mini, {("label", "Gun"): "Очень-очень длинное название артиллерийского обстрела "
                                      "главным и вспомогательным калибром"})
    checked = validate(mini)
    faces = lay_out_cards(checked.card_set, checked.game,
                          localizer_for(checked.card_set, "cwnb", "ru"), 0.0)
    (finding,) = [f for f in faces.findings if f.code == "text-overflow"]
    # the summary table's cell prints the label: the finding names it, at its catalog entry
    assert finding.card == "order-1" and "front label 'Gun' does not fit" in finding.message
    assert finding.location.file == str(mini / "locales" / "ru.po")


def test_a_fitting_translation_reports_nothing(mini):
    assert overflow_for(mini, "Корабль с {gun-5in} бьёт по первой линии.") == []


def test_inline_icon_sits_on_the_baseline_at_text_size(mini):
    write_po(mini, {})
    checked = validate(mini)
    faces = lay_out_cards(checked.card_set, checked.game,
                          localizer_for(checked.card_set, "cwnb", "en"), 0.0)
    ops = faces.layouts[("action", "gun-5in")].ops
    line = [op for op in ops if isinstance(op, Text) and op.text.startswith("A ship with")]
    (first,) = line
    size_mm = first.size_pt * PT_TO_MM
    (icon,) = [op for op in ops if isinstance(op, Image) and first.x < op.x < first.x + 40
               and abs(op.y + op.h - first.y) < 1.0]
    assert icon.path.endswith("gun-5in.svg") and icon.vector
    assert icon.y + icon.h == pytest.approx(first.y, abs=1e-6)
    assert icon.y >= first.y - size_mm
    assert icon.color == "#1b1b1b"  # the text's colour paints the icon's currentColor


def test_update_and_status_track_new_fuzzy_and_obsolete_messages(mini):
    pack = load_pack(mini).pack
    messages = pack_messages(pack, include_labels=False)
    update(pack, messages)
    catalog = polib.pofile(str(mini / "locales" / "ru.po"))
    assert len(catalog) == 5  # the pack's name, two card names, one text, one class
    assert catalog[0].msgctxt == "pack"
    catalog[1].msgstr = "Орудийный обстрел 5in"
    catalog[2].msgstr = "Черновик"
    catalog[2].flags.append("fuzzy")
    catalog.append(polib.POEntry(msgctxt="gone.name", msgid="Gone", msgstr="Нет"))
    catalog.save()
    (row,) = status(pack, messages)
    assert (row.translated, row.fuzzy, row.missing, row.obsolete) == (1, 1, 3, 1)
    result = run_pnp("i18n", "status", str(mini), "--format", "json")
    assert json.loads(result.stdout)["locales"][0]["translated"] == 1


def test_every_label_printed_is_a_catalog_message():
    """Labels the widgets print at run time must all be extractable for translators."""
    from generator.i18n.localize import Localizer

    class Recorder(Localizer):
        pass

    extracted = {m.source for m in label_messages("cwnb")}
    checked = validate(__import__("conftest").CWNB)
    localizer = Recorder(game="cwnb", locale="xx", source_locale="en")
    lay_out_cards(checked.card_set, checked.game, localizer, 0.0)
    used_labels = {source for context, source in localizer.missing if context == "label"}
    assert used_labels and used_labels <= extracted, used_labels - extracted


def _builtin_icons() -> list[tuple[str, str]]:
    from generator.layout.icons import icon_files
    from generator.runtime.resources import builtin_game_templates

    return [(game, name) for game in ("cwnb", "gwas", "commander")
            for name in icon_files(builtin_game_templates(game))]


@pytest.mark.parametrize(("game", "name"), _builtin_icons())
def test_every_inline_icon_sits_on_the_baseline_below_the_text_size(game, name):
    """An icon file's drawing stays inside its viewBox, reaches down to the viewBox's bottom
    edge, and the painter puts that edge on the baseline, no taller than the text's size and
    inside the advance the line breaker reserved for it."""
    from generator.layout.icons import folder_icons
    from generator.layout.textfit import ICON_WIDTH
    from generator.load.art import svg_drawing
    from generator.runtime.resources import builtin_game_templates

    folder = builtin_game_templates(game)
    x, baseline, size_mm = 10.0, 50.0, 3.0
    (icon,) = folder_icons(folder)[name](x, baseline, size_mm, "#123456")
    assert isinstance(icon, Image) and icon.vector
    assert icon.y + icon.h == pytest.approx(baseline, abs=1e-9)
    assert icon.y >= baseline - size_mm
    assert x <= icon.x and icon.x + icon.w <= x + ICON_WIDTH * size_mm + 1e-9
    drawing = svg_drawing(folder / "icons" / f"{name}.svg")
    left, bottom, right, top = drawing.getBounds()
    width, height = float(drawing.width), float(drawing.height)
    assert left >= -1e-6 and right <= width + 1e-6 and top <= height + 1e-6
    assert -1e-6 <= bottom <= 0.1 * height + 1e-6, "the drawing floats above the baseline"
