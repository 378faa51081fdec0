"""The studio in a real headless Chromium (Debian's, driven by Playwright; no download).

``pnp studio`` serves a copy of a pack; the tests type into the forms as a designer and a
translator would, watch the card and the verdicts change, save, and diff the files.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polib
import pytest
from conftest import ROOT

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed (/usr/bin/chromium); .ci/run installs it")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Studio:
    def __init__(self, pack: Path, *options: str) -> None:
        self.pack = pack
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "studio", str(pack), "--port", "0", *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            found = re.search(r"serving (http://127\.0\.0\.1:\d+)/", line)
            if found:
                self.url = found.group(1)
                return
            if not line and self.process.poll() is not None:
                break
        self.process.kill()
        raise AssertionError(f"pnp studio did not start: {self.process.stderr.read()}")

    def stop(self) -> tuple[str, str]:
        self.process.send_signal(signal.SIGINT)
        try:
            out, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        assert self.process.returncode == 0, err
        assert "Traceback" not in err
        return out, err


@pytest.fixture
def cwnb(tmp_path):
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    studio = Studio(pack)
    yield studio
    out, _ = studio.stop()
    assert out.rstrip().endswith("stopped")


@pytest.fixture
def tab(browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    # (a conflict is answered 409, which the browser logs as a failed load: that one is meant)
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error"
            and "status of 409" not in msg.text else None)
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"),
                                      dialog.dismiss()))
    yield page
    page.close()
    assert problems == []


def _diff(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(True),
                                                  after.splitlines(True), n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def _new_picture(tab, side: str, before: str) -> str:
    selector = f'img[data-face="{side}"]'
    tab.wait_for_function(
        "([s, b]) => { const i = document.querySelector(s); return i.getAttribute('src') !== b"
        " && i.complete && i.naturalWidth > 0; }", arg=[selector, before], timeout=30_000)
    return tab.get_attribute(selector, "src")


def test_type_see_the_card_change_save_and_only_that_line_changes(cwnb, tab):
    ships = cwnb.pack / "ships.yaml"
    before = ships.read_text(encoding="utf-8")
    tab.goto(f"{cwnb.url}/")
    assert tab.locator('[data-card="uss-nimitz"] a').get_attribute("href") == "/card/uss-nimitz"
    tab.click('[data-card="uss-nimitz"] a')
    tab.wait_for_selector('img[data-face="front"]')
    assert tab.locator('img[data-face="back"]').count() == 1
    front = tab.get_attribute('img[data-face="front"]', "src")
    tab.fill('[name="name"]', "USS Carl Vinson")
    changed = _new_picture(tab, "front", front)
    assert changed != front
    assert tab.get_attribute("#save-state", "data-state") == "dirty"
    assert ships.read_text(encoding="utf-8") == before  # nothing saved yet
    tab.click('[data-action="save"]')
    tab.wait_for_selector('#save-state[data-state="saved"]')
    assert _diff(before, ships.read_text(encoding="utf-8")) == [
        "-    name: USS Nimitz\n", "+    name: USS Carl Vinson\n"]
    assert tab.is_disabled('[data-action="save"]')


def test_findings_point_at_their_field_and_undo_takes_the_change_back(cwnb, tab):
    tab.goto(f"{cwnb.url}/card/uss-nimitz")
    assert tab.locator("#findings [data-code]").count() == 0
    tab.fill('[name="class"]', "Nimitz II")
    tab.wait_for_timeout(1000)  # a change to another field later is a change of its own
    tab.fill('[name="points"]', "0")
    finding = tab.locator('#findings [data-code="out-of-range"]')
    finding.wait_for()
    assert finding.get_attribute("data-severity") == "error"
    assert finding.get_attribute("data-field") == "points"
    assert tab.locator('.field[data-field="points"] .field-findings li').inner_text() == \
        "'points' is 0; it must be at least 1"
    assert tab.get_attribute('[name="points"]', "aria-invalid") == "true"
    assert "stale" in tab.get_attribute("#faces", "class")  # not redrawn until it is fixed
    tab.click('#findings .to-field[data-field="points"]')
    assert tab.evaluate("document.activeElement.name") == "points"
    tab.click('[data-action="undo"]')
    assert tab.input_value('[name="points"]') == "16"
    assert tab.input_value('[name="class"]') == "Nimitz II"  # only the last change went
    tab.wait_for_function("() => !document.querySelector('#findings [data-code]')")
    assert "stale" not in tab.get_attribute("#faces", "class")
    tab.click("h1")  # outside a text box, Ctrl+Z is the studio's undo
    tab.keyboard.press("Control+z")
    assert tab.input_value('[name="class"]') == "Nimitz"
    # a rule of the game: a submarine cannot carry aircraft
    tab.select_option('[name="type"]', label="SSN")
    rule = tab.locator('#findings [data-code^="cwnb-"]').first
    rule.wait_for(timeout=30_000)
    assert rule.get_attribute("data-field") in {"type", "air_strike"}
    tab.click('[data-action="undo"]')
    assert tab.locator('[name="type"] option:checked').inner_text() == "CVN"
    tab.wait_for_function("() => !document.querySelector('#findings [data-code]')")
    assert tab.get_attribute("#save-state", "data-state") == "clean"
    assert tab.is_disabled('[data-action="undo"]')


def test_a_card_that_fails_its_schema_is_drawn_once_it_is_fixed(tmp_path, tab):
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    ships = pack / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace(
        "    points: 16\n", "    points: 0\n", 1), encoding="utf-8")
    studio = Studio(pack)
    try:
        tab.goto(f"{studio.url}/")
        assert "1 error" in tab.inner_text('[data-card="uss-nimitz"] .badges')
        tab.goto(f"{studio.url}/card/uss-nimitz")
        assert tab.locator("img[data-face]").count() == 0
        assert tab.locator('#findings [data-code="out-of-range"]').get_attribute(
            "data-field") == "points"
        tab.fill('[name="points"]', "16")
        tab.wait_for_function("() => document.querySelectorAll('img[data-face]').length == 2 && "
                              "document.querySelector('img[data-face=front]').naturalWidth > 0",
                              timeout=30_000)
        assert tab.locator("#findings [data-code]").count() == 0
    finally:
        studio.stop()


def test_lists_choices_and_the_keyboard(cwnb, tab):
    ships = cwnb.pack / "ships.yaml"
    before = ships.read_text(encoding="utf-8")
    tab.goto(f"{cwnb.url}/card/uss-nimitz")
    front = tab.get_attribute('img[data-face="front"]', "src")
    guns = tab.locator('fieldset[name="guns"]')
    guns.locator('[data-list-action="add"]').click()
    guns.locator("select[data-item]").last.select_option(label="5in")
    front = _new_picture(tab, "front", front)
    guns.locator('[data-list-action="add"]').click()
    guns.locator("select[data-item]").last.select_option(label="16in")
    _new_picture(tab, "front", front)
    guns.locator('.row:first-child [data-list-action="remove"]').click()
    tab.select_option('[name="air_defense"]', label="3+3")
    tab.keyboard.press("Control+s")
    tab.wait_for_selector('#save-state[data-state="saved"]')
    assert _diff(before, ships.read_text(encoding="utf-8")) == [
        "-    guns: []\n", "+    guns: [16in]\n", "-    air_defense: 4\n",
        "+    air_defense: 3+3\n"]
    tab.keyboard.press("Alt+PageDown")
    tab.wait_for_url(f"{cwnb.url}/card/uss-enterprise")
    tab.goto(f"{cwnb.url}/")
    tab.keyboard.press("/")
    assert tab.evaluate("document.activeElement.id") == "q"
    tab.keyboard.type("enterprise")
    visible = tab.eval_on_selector_all(".tile:not([hidden])", "t => t.map(x => x.dataset.card)")
    assert visible == ["uss-enterprise"]
    tab.keyboard.press("ArrowDown")
    assert tab.evaluate("document.activeElement.closest('.tile').dataset.card") == \
        "uss-enterprise"


def test_a_copy_lands_after_its_card_and_a_change_on_disk_is_not_overwritten(cwnb, tab):
    ships = cwnb.pack / "ships.yaml"
    tab.goto(f"{cwnb.url}/card/uss-nimitz")
    tab.fill('[name="hits_to_sink"]', "11")
    tab.click('[data-action="duplicate"]')
    tab.wait_for_selector("#new-card[open]")
    tab.wait_for_function("() => document.querySelector('#new-id').value !== ''")
    assert tab.input_value("#new-id") == "uss-nimitz-copy"
    tab.click("#new-ok")
    tab.wait_for_url(f"{cwnb.url}/card/uss-nimitz-copy")
    text = ships.read_text(encoding="utf-8")
    assert text.index("id: uss-nimitz-copy") > text.index("id: uss-nimitz\n")
    assert text.index("id: uss-nimitz-copy") < text.index("id: uss-enterprise")
    copy = text[text.index("id: uss-nimitz-copy"):text.index("id: uss-enterprise")]
    assert "hits_to_sink: 11" in copy
    # another program renames the copy on disk while its page is open
    tab.fill('[name="name"]', "USS Mine")
    ships.write_text(text.replace("name: USS Nimitz\n", "name: USS Theirs\n", 2),
                     encoding="utf-8")
    tab.click('[data-action="save"]')
    tab.wait_for_selector("#conflict[open]")
    cells = tab.locator("#conflict tbody td").all_inner_texts()
    assert cells == ["name", "USS Theirs", "USS Mine"]
    assert "USS Mine" not in ships.read_text(encoding="utf-8")
    tab.click('#conflict button[value="mine"]')
    tab.wait_for_selector('#save-state[data-state="saved"]')
    saved = ships.read_text(encoding="utf-8")
    assert "name: USS Mine" in saved and "name: USS Theirs" in saved  # the other card's stays


def test_a_translation_shows_its_fit_as_it_is_typed_and_saves_the_po(tmp_path, tab):
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    studio = Studio(pack, "--locale", "ru")
    try:
        tab.goto(f"{studio.url}/translate/ru")
        area = tab.locator('textarea[data-msgctxt="gun-3in.text"]')
        entry = tab.locator('.entry', has=area)
        fit = entry.locator('.fits [data-fit]')
        assert fit.count() == 1 and fit.get_attribute("data-fit") == "ok"
        assert entry.locator(".glossary li").count() >= 1
        source = area.input_value()
        area.fill(source + " " + source + " " + source)
        tab.wait_for_function(
            "e => e.querySelector('.fits [data-fit]').dataset.fit === 'over'",
            arg=entry.element_handle(), timeout=30_000)
        assert "mm" in fit.inner_text()
        area.fill(source.replace("{gun-3in}", "") + " <b>")
        entry.locator('.checks [data-code="translation-tokens"]').wait_for()
        entry.locator('.checks [data-code="translation-tags"]').wait_for()
        area.fill("Огонь {gun-3in}: первая линия противника; Маневр на уклонение или "
                  "Повреждения локализованы.")
        tab.wait_for_function("e => !e.querySelector('.checks [data-code=translation-tokens]')",
                              arg=entry.element_handle())
        # the glossary wants a form of "Gun" (оруди, артиллер), which this text lacks
        assert entry.locator('.glossary li[data-term="Gun"]').get_attribute("class") == "missed"
        assert entry.locator('.glossary li[data-term="Evasive Maneuvers"]').get_attribute(
            "class") == "met"
        entry.locator("[data-fuzzy]").check()
        assert entry.get_attribute("data-state") == "fuzzy"
        tab.keyboard.press("Control+s")
        tab.wait_for_selector('#save-state[data-state="saved"]')
        saved = polib.pofile(str(pack / "locales" / "ru.po")).find(
            entry.locator(".source").inner_text(), msgctxt="gun-3in.text")
        assert saved.msgstr.startswith("Огонь {gun-3in}") and "fuzzy" in saved.flags
    finally:
        studio.stop()


def test_a_data_game_card_with_pictures_in_a_table(tmp_path, tab):
    pack = tmp_path / "rockpool"
    shutil.copytree(ROOT / "cards" / "rockpool", pack)
    studio = Studio(pack)
    try:
        tides = pack / "tides.csv"
        before = tides.read_text(encoding="utf-8")
        tab.goto(f"{studio.url}/card/gulls")
        art = tab.locator('[name="art"]')
        assert art.evaluate("s => s.dataset.widget") == "image"
        front = tab.get_attribute('img[data-face="front"]', "src")
        art.select_option(label="art/moon-full.svg")
        assert tab.get_attribute(".image-choice .art", "src").endswith("/art/moon-full.svg")
        _new_picture(tab, "front", front)
        tab.click('[data-action="save"]')
        tab.wait_for_selector('#save-state[data-state="saved"]')
        lines = _diff(before, tides.read_text(encoding="utf-8"))
        assert len(lines) == 2 and lines[1].rstrip().endswith(",art/moon-full.svg")
        assert lines[0].rsplit(",", 1)[0] == lines[1].rsplit(",", 1)[0].replace("+", "-", 1)
    finally:
        studio.stop()
