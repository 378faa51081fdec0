"""A translation too long for a widget's cell (issue #26 item 4): the finding names the label,
at its catalog entry, and the proof page outlines that cell, not the whole widget.

tests/fixtures/overflow-cell is a CWNB pack of two player order cards whose Russian catalog
makes "Missile" too long for its cell of the Action Card Summary (the summary_table widget),
"ECM" too long for three answer cells, and "Player Order" (a template label) too long for the
back's title. The built-in games' widgets and every game's template texts are checked alike by
translating every label far too long.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp

from generator.i18n.localize import LABEL_CONTEXT, Localizer, source_labels
from generator.layout.faces import lay_out_cards
from generator.pipeline.validate import validate
from generator.proof.preview import write_preview

FIXTURE = ROOT / "tests" / "fixtures" / "overflow-cell"
PO = FIXTURE / "locales" / "ru.po"
CHROMIUM = Path("/usr/bin/chromium")
WIDGET_BOX = (2.5, 16.5, 58.5, 62.0)  # templates/cwnb/order-summary.yaml: the summary_table
ROW_H = 62.0 / 9  # nine rows of attacks
ANSWERS = "text of labels 'ECM', "
#: the summary's cells that overflow in Russian (x, y, w, h in card mm): the attack column
#: starts 1 mm into the widget and is 42 % of it less 2.4 mm wide; the answers fill the rest
#: less 1 mm; each cell is its row less 0.3 mm above and below
FRONT = [
    ("label 'Missile'", (3.5, 16.5 + ROW_H + 0.3, 22.17, ROW_H - 0.6)),
    (ANSWERS + "'Damage Control'", (27.07, 16.5 + ROW_H + 0.3, 32.93, ROW_H - 0.6)),
    (ANSWERS + "'Air Cover', 'Air Defense', 'Damage Control'",
     (27.07, 16.5 + 7 * ROW_H + 0.3, 32.93, ROW_H - 0.6)),
    ("text of labels 'ASW', 'Evasive Maneuvers', 'ECM', 'Damage Control'",
     (27.07, 16.5 + 8 * ROW_H + 0.3, 32.93, ROW_H - 0.6)),
]
BACK = [("label 'Player Order'", (0.0, 14.0, 63.5, 8.0))]  # templates/cwnb/back-order.yaml


def _msgstr_line(msgid: str) -> int:
    """The line of the ``msgstr`` of the label ``msgid`` in the fixture's catalog."""
    lines = PO.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgid "{msgid}"')
    return start + 2


def test_every_overflow_names_the_label_at_its_catalog_entry_and_says_what_repeats():
    result = run_pnp("validate", str(FIXTURE), "--locale", "en", "--locale", "ru",
                     "--format", "json")
    overflows = [f for f in json.loads(result.stdout)["findings"]
                 if f["code"] == "text-overflow"]
    found = {(f["message"].split(" does not fit")[0], f["line"]) for f in overflows}
    ecm = _msgstr_line("ECM")
    assert found == {
        ("front label 'Missile'", _msgstr_line("Missile")),
        ("front " + ANSWERS + "'Damage Control'", ecm),
        ("front " + ANSWERS + "'Air Cover', 'Air Defense', 'Damage Control'", ecm),
        ("front text of labels 'ASW', 'Evasive Maneuvers', 'ECM', 'Damage Control'", ecm),
        ("back label 'Player Order'", _msgstr_line("Player Order")),
    }
    for finding in overflows:
        assert finding["locale"] == "ru" and finding["card"] == "order-1"
        assert Path(finding["file"]).resolve() == PO.resolve()
        # both order cards print each text: the one finding names its label and the repeat
        assert finding["message"].endswith("(the same on 1 more card face)")
    assert "summary table" not in result.stdout and "widget text" not in result.stdout


@pytest.mark.parametrize("pack", ["cwnb", "gwas", "commander", "rockpool"])
def test_a_label_too_long_is_named_wherever_it_prints(pack):
    """Every label of the game translated six times as long: each text that overflows only
    then (a widget's cell, a template text, a face value made of labels) names a label."""
    checked = validate(ROOT / "cards" / pack)
    card_set, game = checked.card_set, checked.game
    labels = source_labels(game.name)
    source = card_set.base.manifest.source_locale

    def overflows(catalog: dict, locale: str) -> set[tuple]:
        localizer = Localizer(game=game.name, locale=locale, source_locale=source,
                              catalog=catalog)
        faces = lay_out_cards(card_set, game, localizer, 0.0, allow_overflow=True)
        return {(face, problem.names, problem.box) for face, layout in faces.layouts.items()
                for problem in layout.problems if problem.kind == "overflow"}

    long = {(LABEL_CONTEXT, text): " ".join([text] * 6) for text in labels.values()}
    caused = overflows(long, "xx") - overflows({}, source)
    assert len(caused) > 20
    label_keys = set(labels) | set(labels.values())  # a plain label's key is its text
    unnamed = sorted({(face[0], names) for face, names, _ in caused
                      if not label_keys & set(names)})
    assert unnamed == []


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    return write_preview(FIXTURE, (), ("en", "ru"), tmp_path_factory.mktemp("proof"))


def _outlines(preview, card: str, locale: str, side: str) -> list[tuple[str, tuple]]:
    view = next(c for c in preview.proof.cards if c.id == card)
    version = next(v for v in view.versions if v.locale == locale)
    face = next(f for f in version.faces if f.side == side)
    return [(o.field, (o.x, o.y, o.w, o.h)) for o in face.outlines]


def _approx(expected: list[tuple[str, tuple]]) -> list:
    return [(field, pytest.approx(box, abs=0.01)) for field, box in expected]


def test_the_proof_outlines_the_cell_not_the_widget(preview):
    for card in ("order-1", "order-2"):
        assert _outlines(preview, card, "ru", "front") == _approx(FRONT)
        assert _outlines(preview, card, "ru", "back") == _approx(BACK)
        assert _outlines(preview, card, "en", "front") == []
    page = preview.page.read_text(encoding="utf-8")
    article = re.search(r'<article [^>]*data-card="order-1".*?</article>', page, re.S).group(0)
    boxes = [tuple(float(v) for v in box.split()) for box in
             re.findall(r'<span class="outline"[^>]*data-box="([^"]+)"', article)]
    assert boxes == [pytest.approx(box, abs=0.01) for _, box in FRONT + BACK]
    assert WIDGET_BOX not in boxes
    fields = re.findall(r'<span class="outline"[^>]*data-field="([^"]+)"', article)
    assert fields[0] == "label &#x27;Missile&#x27;"


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed "
                    "(/usr/bin/chromium); .ci/run installs it")
def test_chromium_draws_each_outline_on_its_cell(preview):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            tab = browser.new_page(viewport={"width": 1366, "height": 768})
            tab.goto(preview.page.as_uri())
            tab.wait_for_load_state("load")
            figure = tab.locator('[data-card="order-1"] .version[data-locale="ru"] '
                                 '.face[data-side="front"]')
            figure.scroll_into_view_if_needed()
            picture = figure.locator("img").bounding_box()
            outlines = figure.locator(".outline")
            assert outlines.count() == len(FRONT)
            bleed, width, height = 1.5, 63.5 + 3.0, 88.9 + 3.0
            scale_x, scale_y = picture["width"] / width, picture["height"] / height
            for index, (field, (x, y, w, h)) in enumerate(FRONT):
                outline = outlines.nth(index)
                assert outline.get_attribute("data-field") == field
                shown = [float(v) for v in outline.get_attribute("data-box").split()]
                assert shown == pytest.approx([x, y, w, h], abs=0.01)
                drawn = outline.bounding_box()
                assert drawn["x"] == pytest.approx(picture["x"] + (bleed + x) * scale_x, abs=1.5)
                assert drawn["y"] == pytest.approx(picture["y"] + (bleed + y) * scale_y, abs=1.5)
                assert drawn["width"] == pytest.approx(w * scale_x, abs=1.5)
                assert drawn["height"] == pytest.approx(h * scale_y, abs=1.5)
                assert drawn["height"] < WIDGET_BOX[3] * scale_y / 5  # a row, not the table
        finally:
            browser.close()
