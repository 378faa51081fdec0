"""The broken data game: one defect per rule kind, per CSV error and per art error, each
reported with its code at its exact position (tests/fixtures/datagame-broken)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp

BROKEN = ROOT / "tests" / "fixtures" / "datagame-broken"

EXPECTED = [
    # CSV rows: unknown column (header row, column G = 7), bad integer, ragged row
    ("error", "unknown-field", "cards.csv", 1, 7, None),
    ("error", "wrong-type", "cards.csv", 3, 4, "csv-bad-int"),
    ("error", "ragged-row", "cards.csv", 4, 8, None),
    # card rule on every card: points at the one field it reads
    ("error", "short-names", "cards.yaml", 4, 11, "long-name"),
    # plain validate lays out the source texts as build does: the long name overflows
    ("error", "text-overflow", "cards.yaml", 4, 11, "long-name"),
    # kind-restricted rule reading two fields: points at the card
    ("error", "cheap-creatures-are-small", "cards.yaml", 6, 5, "strong-imp"),
    # art errors on the field that names the file
    ("error", "art-missing", "cards.yaml", 32, 10, "art-missing"),
    ("error", "art-outside-pack", "cards.yaml", 39, 10, "art-outside"),
    ("error", "art-unreadable", "cards.yaml", 46, 10, "art-corrupt"),
    ("error", "art-too-large", "cards.yaml", 53, 10, "art-bomb"),
    ("warning", "art-low-dpi", "cards.yaml", 60, 10, "art-low-dpi"),
    # deck: size and CEL rule at the deck's cards:, copies at the entry
    ("error", "deck-size", "decks/bad.yaml", 2, 1, None),
    ("error", "needs-spells", "decks/bad.yaml", 2, 1, None),
    ("error", "deck-max-copies", "decks/bad.yaml", 3, 5, "strong-imp"),
    # set rule at its entry in game.yaml; bad CEL at the rule's check
    ("warning", "few-legends", "game.yaml", 40, 5, None),
    ("error", "rule-syntax", "game.yaml", 46, 12, None),
    ("error", "rule-unknown-field", "game.yaml", 50, 12, None),
    ("error", "rule-wrong-type", "game.yaml", 53, 12, None),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("broken")
    pack = base / "datagame-broken"
    shutil.copytree(BROKEN, pack)
    shutil.copytree(ROOT / "tests" / "fixtures" / "datagame", base / "datagame")
    result = run_pnp("validate", str(pack), "--deck", "decks/bad.yaml", "--format", "json",
                     cwd=base)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def _rows(report: dict) -> list[tuple]:
    return [(f["severity"], f["code"], Path(f["file"]).relative_to("datagame-broken").as_posix(),
             f["line"], f["column"], f["card"]) for f in report["findings"]]


def test_every_defect_is_found_at_its_position(report: dict) -> None:
    assert sorted(_rows(report), key=str) == sorted(EXPECTED, key=str)


def test_set_rule_names_the_cards_involved(report: dict) -> None:
    legends = next(f for f in report["findings"] if f["code"] == "few-legends")
    assert "2 cards: legend-one, legend-two" in legends["message"]


def test_messages_explain_the_fix(report: dict) -> None:
    by_code = {f["code"]: f["message"] for f in report["findings"]}
    assert "did you mean 'power'" in by_code["rule-unknown-field"]
    assert "'cost' must be a whole number" in by_code["wrong-type"]
    assert "the header has 7" in by_code["ragged-row"]
    assert "rules 2.3" in by_code["cheap-creatures-are-small"]
    assert "decompression bomb" in by_code["art-too-large"]
    assert "dpi" in by_code["art-low-dpi"]


def test_text_output_sorts_and_prints_cleanly(tmp_path: Path) -> None:
    pack = tmp_path / "datagame-broken"
    shutil.copytree(BROKEN, pack)
    result = run_pnp("validate", str(pack), cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "datagame-broken/cards.csv:3:4: error[wrong-type]: 'cost' must be a whole number, " \
           "not text ('abc') (card csv-bad-int)" in lines
    assert lines[-1].endswith("warning(s)")
