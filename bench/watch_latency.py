"""``pnp watch`` latency: from saving one edited CWNB card to its new picture on the open page.

A whole ``pnp watch`` process serves a temporary copy of cards/cwnb in en and ru; headless
Chromium (Debian's, via Playwright) opens the page. Each round rewrites ships.yaml with a new
name for one ship and measures, in the browser's own clock, the time from just before the save
until the reloaded page shows that card's front with the new name in its alt text and its
picture decoded (naturalWidth > 0). Every round checks that the picture really changed.
Issue 11's target: about a second. Run: ``.venv/bin/python bench/watch_latency.py [ROUNDS]``.
"""

from __future__ import annotations

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
FRONT = '[data-card="uss-nimitz"] .version[data-locale="en"] .face[data-side="front"] img'


def start(pack: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", str(pack), "--locale", "en", "--locale",
         "ru", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    for line in process.stdout:
        print("  pnp:", line.rstrip())
        found = re.search(r"serving (http://\S+)", line)
        if found:
            return process, found.group(1)
    raise SystemExit("pnp watch did not start")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as scratch:
        pack = Path(scratch) / "cwnb"
        shutil.copytree(ROOT / "cards" / "cwnb", pack)
        ships = pack / "ships.yaml"
        original = ships.read_text(encoding="utf-8")
        process, url = start(pack)
        timings = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                     args=ARGS)
                tab = browser.new_page(viewport={"width": 1366, "height": 768})
                tab.goto(url)
                tab.wait_for_selector("#live:text('live')")
                for index in range(rounds):
                    name = f"USS Nimitz {index + 1}"
                    before = tab.get_attribute(FRONT, "src")
                    started = tab.evaluate("performance.timeOrigin + performance.now()")
                    ships.write_text(original.replace("name: USS Nimitz", f"name: {name}", 1),
                                     encoding="utf-8")
                    tab.wait_for_function(
                        "([s, alt]) => { const i = document.querySelector(s); return i && "
                        "i.alt.startsWith(alt + ',') && i.complete && i.naturalWidth > 0; }",
                        arg=[FRONT, name], timeout=30_000)
                    shown = tab.evaluate("performance.timeOrigin + performance.now()")
                    assert tab.get_attribute(FRONT, "src") != before, "the picture did not change"
                    timings.append((shown - started) / 1000)
                    print(f"round {index + 1}: {timings[-1]:.2f} s")
                    time.sleep(0.3)
                browser.close()
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=20)
    print(f"edited card on the page: median {statistics.median(timings):.2f} s, "
          f"min {min(timings):.2f} s, max {max(timings):.2f} s over {rounds} saves "
          f"(cwnb, en + ru; pnp watch exit code {process.returncode})")


if __name__ == "__main__":
    main()
