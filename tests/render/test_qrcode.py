"""The ``qr`` element: what a real reader (zbarimg, Debian's zbar-tools) decodes from the
printed card, rendered at print resolution from pnp's own card PDF, is the card's field."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import VOCABULARY, copy_vocabulary, run_pnp


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qr")
    result = run_pnp("export", str(VOCABULARY), "--to", "png", "--dpi", "300", "--kind", "ship",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "vocab" / "en" / "png"


def decoded(picture: Path) -> list[str]:
    """Every QR code zbarimg reads in the picture (none: an empty list)."""
    result = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                             str(picture)], capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 4), result.stderr  # 4: no code found
    return result.stdout.split()


def test_a_printed_qr_code_reads_as_the_cards_field(pictures: Path) -> None:
    cards = {c["id"]: c for c in yaml.safe_load((VOCABULARY / "cards.yaml").read_text(
        encoding="utf-8"))["cards"]}
    for card in ("tramp", "sloop"):
        assert decoded(pictures / f"{card}.front.png") == [cards[card]["url"]]
    # a card without the field: the element's `when: has(self.url)` leaves the code out
    assert decoded(pictures / "lighthouse.front.png") == []


def test_data_too_long_for_a_qr_code_is_a_finding(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        '"https://example.org/cards/tramp"', '"https://example.org/' + "x" * 2100 + '"'),
        encoding="utf-8")
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 1
    found = [(f["code"], f["card"], f["line"]) for f in json.loads(result.stdout)["findings"]]
    assert found == [("qr-too-long", "tramp", 7)]  # the url field it comes from
