"""Write ``generator/core/finding_docs.json``: where docs/ explains each finding code.

SARIF's rules (``pnp validate --format sarif``) carry a ``helpUri`` into docs/, and the docs
are not shipped in the wheel, so this map of code -> ``<page>.md#<section>`` (relative to
docs/) is. It is made from the docs themselves: a code is a hyphenated word in backticks, and
its place is the section of the first page (in :data:`PAGES` order) that names it, a table row
before prose. A code the docs do not name is sent to its game's rules page, a rule a data game
defines to the format of ``rules:``, anything else to the pack format reference.
tests/test_sarif.py checks that the file is current; after editing docs/, run

    .venv/bin/python tools/finding_docs.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "generator" / "core" / "finding_docs.json"
#: the pages that explain findings, the most specific first
PAGES = ["limits.md", "exports.md", "rules-generic.md", "rules-cwnb.md", "rules-commander.md",
         "rules-gwas.md", "format.md"]
CODE = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`")


def slug(heading: str) -> str:
    """The anchor GitHub (and most Markdown renderers) give a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def places() -> dict[str, str]:
    found: dict[str, tuple[int, str]] = {}  # code -> (rank: prose after rows, place)
    for order, page in enumerate(PAGES):
        section = ""
        for line in (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                section = slug(line.lstrip("#"))
                continue
            rank = order + (0 if line.startswith("|") else len(PAGES))
            for code in CODE.findall(line):
                place = page + (f"#{section}" if section else "")
                if code not in found or rank < found[code][0]:
                    found[code] = (rank, place)
    return {code: found[code][1] for code in sorted(found)}


def render() -> str:
    document = {"codes": places(), "game rule": "format.md#rules", "other": "format.md",
                "rules pages": {page.removeprefix("rules-").removesuffix(".md"): page
                                for page in PAGES if page.startswith("rules-")}}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUTPUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(places())} codes)", file=sys.stderr)
