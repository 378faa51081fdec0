"""``{number}`` and ``{total}``: each card's place among the cards of its kind, in file order,
counted again over a deck's cards when a build prints one deck. Read from the printed sheets:
the number printed inside each card's rectangle of the build manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import VOCABULARY, run_pnp
from pdfread import open_pdf

MM = 72 / 25.4


def printed_numbers(folder: Path) -> dict[str, str]:
    """Card id -> the ``n/t`` text printed within its trim on the front sheets."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    with open_pdf(folder / "fronts.pdf") as pages:
        for page in manifest["pages"]:
            if page["side"] != "front":
                continue
            words = pages[page["index"] - 1].words()
            for card in page["cards"]:
                x, y = card["x_mm"] * MM, card["y_mm"] * MM
                w, h = card["w_mm"] * MM, card["h_mm"] * MM
                inside = [word.text for word in words
                          if x <= word.x0 and word.x1 <= x + w
                          and y <= word.top and word.bottom <= y + h
                          and "/" in word.text and word.text.replace("/", "").isdigit()]
                assert len(inside) == 1, (card["id"], inside)
                found[card["id"]] = inside[0]
    return found


@pytest.mark.parametrize(("deck", "expected"), [
    (None, {"tramp": "1/3", "sloop": "2/3", "lighthouse": "3/3", "harbour": "1/1"}),
    # the deck lists the lighthouse before the tramp: its cards are numbered in file order
    ("decks/two.yaml", {"tramp": "1/2", "lighthouse": "2/2"}),
])
def test_cards_are_numbered_per_kind_in_file_order(tmp_path: Path, deck: str | None,
                                                   expected: dict[str, str]) -> None:
    args = ["build", str(VOCABULARY), "--out", str(tmp_path), "--duplex", "none"]
    if deck:
        args += ["--deck", deck]
    result = run_pnp(*args, cwd=VOCABULARY)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "vocab" / "en" / ("a4" if deck is None else "a4-two")
    assert printed_numbers(folder) == expected
