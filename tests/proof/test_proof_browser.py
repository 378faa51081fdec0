"""The proof page in a real headless Chromium (Debian's, driven by Playwright; no download).

A static proof of tests/fixtures/proof-pack (a text too long for its box, a missing Russian
translation, a card name made of HTML) is opened from file://; then ``pnp watch`` serves a copy
of that pack, a card file is edited, and the open page must show the new picture by itself.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

from generator.proof.preview import write_preview

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed (/usr/bin/chromium); .ci/run installs it")
FIXTURE = ROOT / "tests" / "fixtures" / "proof-pack"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TEXT_BOX = (10.0, 65.5, 50.5, 21.0)  # templates/cwnb/action.yaml: the action text's box


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def proof_url(tmp_path_factory):
    result = write_preview(FIXTURE, (), ("en", "ru"), tmp_path_factory.mktemp("proof"))
    return result.page.as_uri()


@pytest.fixture
def page(browser, proof_url):
    """The static proof in a fresh laptop-sized tab; any script error fails the test."""
    tab = browser.new_page(viewport={"width": 1366, "height": 768})
    problems: list[str] = []
    tab.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))
    tab.goto(proof_url)
    tab.wait_for_load_state("load")
    yield tab
    tab.close()
    assert problems == []


def _visible_cards(tab) -> list[str]:
    return tab.eval_on_selector_all("article[data-card]:not([hidden])",
                                    "cards => cards.map(c => c.dataset.card)")


def test_cards_pictures_and_pinned_findings(page):
    assert sorted(_visible_cards(page)) == ["bad-name", "gun-3in", "gun-5in", "uss-leahy",
                                            "uss-nimitz"]
    pictures = page.eval_on_selector_all(
        "article[data-card] img", "imgs => imgs.map(i => [i.complete, i.naturalWidth, i.alt])")
    assert len(pictures) == 5 * 2 * 2  # five cards, front and back, in en and ru
    assert all(complete and width > 0 for complete, width, _ in pictures)
    alts = {alt for _, _, alt in pictures}
    assert {"USS Nimitz, front (en)", "USS Nimitz, back (en)", "Нимиц, front (ru)"} <= alts
    overflow = page.locator('[data-card="gun-5in"] [data-code="text-overflow"]')
    assert overflow.count() == 2
    assert {overflow.nth(i).get_attribute("data-locale") for i in range(2)} == {"en", "ru"}
    assert all(overflow.nth(i).get_attribute("data-severity") in {"error", "warning"}
               for i in range(2))
    assert "actions.yaml:17:11" in overflow.first.inner_text()
    missing = page.locator('[data-card="uss-leahy"] [data-code="missing-translation"]')
    assert missing.count() == 1
    assert missing.get_attribute("data-severity") == "warning"
    assert "ships.yaml:14:11" in missing.inner_text()
    deck = page.locator('.pack-findings [data-code="cwnb-component-count"]')
    assert deck.count() == 3 and deck.first.get_attribute("data-severity") == "error"
    assert page.locator('[data-card="uss-nimitz"] [data-code]').count() == 0


def test_overflow_is_outlined_where_the_text_box_is(page):
    figure = page.locator('[data-card="gun-5in"] .version[data-locale="en"] '
                          '.face[data-side="front"]')
    picture = figure.locator("img").bounding_box()
    outline = figure.locator(".outline").bounding_box()
    spill = figure.locator(".spill").bounding_box()
    bleed, width, height = 1.5, 63.5 + 3.0, 88.9 + 3.0
    x, y, w, h = TEXT_BOX
    scale_x, scale_y = picture["width"] / width, picture["height"] / height
    assert outline["x"] == pytest.approx(picture["x"] + (bleed + x) * scale_x, abs=1.5)
    assert outline["y"] == pytest.approx(picture["y"] + (bleed + y) * scale_y, abs=1.5)
    assert outline["width"] == pytest.approx(w * scale_x, abs=1.5)
    assert outline["height"] == pytest.approx(h * scale_y, abs=1.5)
    assert spill["y"] == pytest.approx(outline["y"] + outline["height"], abs=1.5)
    assert "mm" in figure.locator(".overflow-tag").inner_text()
    assert page.locator('[data-card="gun-3in"] .outline').count() == 0


def test_locales_stand_side_by_side_and_missing_translations_are_marked(page):
    versions = page.locator('[data-card="uss-nimitz"] .version')
    assert [versions.nth(i).get_attribute("data-locale") for i in range(2)] == ["en", "ru"]
    en, ru = versions.nth(0).bounding_box(), versions.nth(1).bounding_box()
    assert ru["x"] >= en["x"] + en["width"] and abs(ru["y"] - en["y"]) < 2
    leahy_ru = page.locator('[data-card="uss-leahy"] .version[data-locale="ru"] .untranslated')
    assert "name" in leahy_ru.inner_text()
    assert page.locator('[data-card="uss-leahy"] .version[data-locale="en"] '
                        '.untranslated').count() == 0
    assert page.locator('[data-card="uss-nimitz"] .untranslated').count() == 0


def test_card_text_is_shown_as_text_never_as_markup(page):
    name = page.locator('[data-card="bad-name"] h3')
    assert name.inner_text() == "<img src=x onerror=alert(1)> & Co"
    assert page.locator('img[src="x"]').count() == 0
    assert page.title() == "Proof: Proof <test> pack"


def test_search_kind_findings_and_language_filters(page):
    page.fill("#q", "leahy")
    assert _visible_cards(page) == ["uss-leahy"]
    page.fill("#q", "TEXT-OVERFLOW")  # finding codes are searchable too, case-insensitively
    assert _visible_cards(page) == ["gun-5in"]
    page.fill("#q", "противника")  # and the translated texts
    assert _visible_cards(page) == ["gun-3in"]
    page.fill("#q", "")
    page.select_option("#kind", "ship")
    assert sorted(_visible_cards(page)) == ["bad-name", "uss-leahy", "uss-nimitz"]
    assert page.locator('section[data-kind="action"]').is_hidden()
    page.check("#only-findings")
    assert sorted(_visible_cards(page)) == ["bad-name", "uss-leahy"]
    page.select_option("#kind", "")
    page.uncheck('input[name="locale"][value="ru"]')
    assert page.locator('.version[data-locale="ru"]').first.is_hidden()
    assert page.locator('.version[data-locale="en"]').first.is_visible()
    assert page.locator('[data-card="uss-leahy"] [data-code="missing-translation"]').is_hidden()
    assert "uss-nimitz" not in _visible_cards(page)
    page.select_option("#sides", "front")
    assert page.locator('.face[data-side="back"]').first.is_hidden()
    assert "of 5 cards shown" in page.inner_text("#shown")


def test_keyboard_reaches_filters_and_cards_with_a_visible_focus(page):
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    for _ in range(20):  # Tab on through the filters to the first card
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('article.card')"):
            break
    first = page.evaluate("document.activeElement.dataset.card")
    assert first == _visible_cards(page)[0]
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", "")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == _visible_cards(page)[1]
    page.keyboard.press("Enter")
    assert page.locator("#zoom").evaluate("d => d.open")
    assert page.locator("#zoom img").count() == 4
    page.keyboard.press("Escape")
    assert not page.locator("#zoom").evaluate("d => d.open")
    assert page.evaluate("document.activeElement.dataset.card") == _visible_cards(page)[1]


def _start_watch(pack: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", str(pack), "--locale", "en",
         "--locale", "ru", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        found = re.search(r"serving (http://127\.0\.0\.1:\d+/)", line)
        if found:
            return process, found.group(1)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"pnp watch did not start: {process.stderr.read()}")


def test_watch_reloads_the_page_with_the_edited_card_and_stops_on_ctrl_c(browser, tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(FIXTURE, pack)
    process, url = _start_watch(pack)
    try:
        tab = browser.new_page(viewport={"width": 1366, "height": 768})
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(url)
        tab.wait_for_selector("#live:text('live')")
        front = ('[data-card="uss-nimitz"] .version[data-locale="en"] .face[data-side="front"] '
                 'img')
        before = tab.get_attribute(front, "src")
        tab.evaluate("window.stillTheSamePage = true")
        ships = pack / "ships.yaml"
        ships.write_text(ships.read_text(encoding="utf-8").replace(
            "name: USS Nimitz", "name: USS Carl Vinson"), encoding="utf-8")
        tab.wait_for_function(
            "([selector, before]) => !window.stillTheSamePage && document.querySelector(selector)"
            " && document.querySelector(selector).getAttribute('src') !== before",
            arg=[front, before], timeout=30_000)
        tab.wait_for_function("s => document.querySelector(s).naturalWidth > 0", arg=front)
        assert tab.get_attribute(front, "alt") == "USS Carl Vinson, front (en)"
        assert tab.inner_text('[data-card="uss-nimitz"] h3') == "USS Carl Vinson"

        tab.evaluate("window.stillTheSamePage = true")
        ships.write_text("cards:\n  - id: [broken\n", encoding="utf-8")  # a save gone wrong
        tab.wait_for_function("() => !window.stillTheSamePage", timeout=30_000)
        tab.wait_for_selector('.pack-findings [data-severity="error"]')
        assert "ships.yaml" in tab.inner_text(".pack-findings")
        assert tab.locator('[data-card="uss-nimitz"]').count() == 0
        assert errors == []
        tab.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert out.rstrip().endswith("stopped")
    assert "rebuilt after" in out
