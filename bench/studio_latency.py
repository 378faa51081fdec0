"""``pnp studio`` latency, measured as a whole round trip in the browser.

A whole ``pnp studio`` process serves a temporary copy of cards/cwnb (en and ru); headless
Chromium (Debian's, via Playwright) opens a ship's form and a translator's view.

- Card: each round sets a new name in the ship's ``name`` field and fires its ``input`` event,
  as typing does; the time runs, in the browser's own clock, from that event until the front
  face's ``<img>`` has loaded and decoded the new picture. Each round checks that the picture
  is a new one (another name, another drawing). Budget (DESIGN.md): median 150 ms.
- Translation: each round sets a new text in one translation's text area and fires ``input``;
  the time runs until that entry's verdicts are updated for that text (``data-checked``). The
  texts alternate between one that fits and one far too long, and each round checks that the
  face's ``data-fit`` says so. Budget: 100 ms.

Run: ``.venv/bin/python bench/studio_latency.py [--rounds N] [--screenshots DIR]``.
Exit status 1 when a median is over its budget.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CARD_BUDGET_MS = 150.0
FIT_BUDGET_MS = 100.0

#: set a field's value, fire ``input``, resolve with the milliseconds until the face's picture
#: has changed, loaded and decoded
EDIT_CARD = """([value]) => new Promise((resolve, reject) => {
  const field = document.querySelector('[name="name"]');
  const picture = document.querySelector('img[data-face="front"]');
  const before = picture.getAttribute('src');
  const started = performance.now();
  const done = async () => {
    if (picture.getAttribute('src') === before || !picture.complete) return;
    picture.removeEventListener('load', done);
    await picture.decode();
    resolve({ms: performance.now() - started, src: picture.getAttribute('src'), before});
  };
  picture.addEventListener('load', done);
  setTimeout(() => reject(new Error('no new picture within 30 s')), 30000);
  field.value = value;
  field.dispatchEvent(new Event('input', {bubbles: true}));
})"""

#: the same for a translation: until the entry's verdicts answer this very text
EDIT_TRANSLATION = """([context, value]) => new Promise((resolve, reject) => {
  const area = document.querySelector(`textarea[data-msgctxt="${context}"]`);
  const entry = area.closest('.entry');
  const before = entry.dataset.checked;
  const started = performance.now();
  const watcher = new MutationObserver(() => {
    if (entry.dataset.checked === before) return;
    watcher.disconnect();
    const fit = entry.querySelector('.fits [data-fit]');
    resolve({ms: performance.now() - started, fit: fit.dataset.fit, over: fit.dataset.over});
  });
  watcher.observe(entry, {attributes: true, attributeFilter: ['data-checked']});
  setTimeout(() => reject(new Error('no verdict within 30 s')), 30000);
  area.value = value;
  area.dispatchEvent(new Event('input', {bubbles: true}));
})"""


def start(pack: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "studio", str(pack), "--locale", "en", "--locale",
         "ru", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    for line in process.stdout:
        print("  pnp:", line.rstrip())
        found = re.search(r"serving (http://\S+)/", line)
        if found:
            return process, found.group(1)
    raise SystemExit("pnp studio did not start")


def card_rounds(tab, url: str, rounds: int) -> list[float]:
    tab.goto(f"{url}/card/uss-nimitz")
    tab.wait_for_selector('img[data-face="front"]')
    tab.wait_for_function("() => document.querySelector('img[data-face=front]').complete")
    timings = []
    seen = set()
    for index in range(rounds):
        result = tab.evaluate(EDIT_CARD, [f"USS Nimitz {index + 1}"])
        if result["src"] == result["before"] or result["src"] in seen:
            raise SystemExit(f"round {index + 1}: the picture did not change")
        seen.add(result["src"])
        timings.append(result["ms"])
        tab.wait_for_selector("#busy", state="hidden")
        time.sleep(0.15)
    return timings


def translation_rounds(tab, url: str, rounds: int) -> list[float]:
    tab.goto(f"{url}/translate/ru")
    context = "gun-3in.text"
    area = tab.locator(f'textarea[data-msgctxt="{context}"]')
    text = area.input_value()
    timings = []
    for index in range(rounds):
        long = index % 2 == 1
        value = (text + " ") * 3 + str(index) if long else text.rstrip(".") + f" {index}."
        result = tab.evaluate(EDIT_TRANSLATION, [context, value])
        if result["fit"] != ("over" if long else "ok"):
            raise SystemExit(f"round {index + 1}: the verdict says {result['fit']} "
                             f"({result['over']} mm) for a text that should "
                             f"{'not ' if long else ''}fit")
        timings.append(result["ms"])
        time.sleep(0.1)
    return timings


def screenshots(tab, url: str, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tab.set_viewport_size({"width": 1400, "height": 900})
    tab.goto(f"{url}/card/uss-nimitz")
    tab.fill('[name="points"]', "0")
    tab.wait_for_selector('[data-code="out-of-range"]')
    tab.screenshot(path=str(folder / "studio-card-form.png"))
    tab.goto(f"{url}/translate/ru")
    area = tab.locator('textarea[data-msgctxt="gun-5in.text"]')
    area.fill(" ".join([area.input_value()] * 3))
    tab.wait_for_selector('.entry:has(textarea[data-msgctxt="gun-5in.text"]) [data-fit="over"]')
    area.scroll_into_view_if_needed()
    tab.screenshot(path=str(folder / "studio-translator.png"))
    tab.goto(f"{url}/")
    tab.wait_for_function("() => Array.from(document.querySelectorAll('.thumb img'))"
                          ".slice(0, 21).every(i => i.complete && i.naturalWidth > 0)",
                          timeout=60_000)  # the thumbnails are drawn when first shown
    tab.screenshot(path=str(folder / "studio-card-list.png"))
    print(f"screenshots in {folder}")


def summary(name: str, timings: list[float], budget: float) -> bool:
    median = statistics.median(timings)
    verdict = "within" if median <= budget else "OVER"
    print(f"{name}: median {median:.0f} ms, min {min(timings):.0f}, max {max(timings):.0f} "
          f"over {len(timings)} rounds; budget {budget:.0f} ms: {verdict}")
    return median <= budget


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--screenshots", type=Path, default=None)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as scratch:
        pack = Path(scratch) / "cwnb"
        shutil.copytree(ROOT / "cards" / "cwnb", pack)
        process, url = start(pack)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                     args=ARGS)
                tab = browser.new_page(viewport={"width": 1366, "height": 900})
                cards = card_rounds(tab, url, options.rounds)
                fits = translation_rounds(tab, url, options.rounds)
                if options.screenshots is not None:
                    screenshots(tab, url, options.screenshots)
                browser.close()
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    ok = summary("edited field to new picture (CWNB ship)", cards, CARD_BUDGET_MS)
    ok = summary("translation keystroke to its fit verdict", fits, FIT_BUDGET_MS) and ok
    print(f"load average {os.getloadavg()[0]:.2f} at the end; pnp studio exit code "
          f"{process.returncode}")
    return 0 if ok and process.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
