"""The pictures docs/format.md shows are what pnp draws today: docs/vocabulary is exported
again and every committed picture compared with its new rendering, pixel by pixel."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_pnp
from PIL import Image, ImageChops, ImageStat

DOCS = ROOT / "docs" / "vocabulary"


def test_the_documented_pictures_are_current(tmp_path: Path) -> None:
    result = run_pnp("export", str(DOCS), "--to", "png", "--dpi", "150", "--bleed", "0",
                     "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    pictures = sorted((DOCS / "pictures").glob("*.png"))
    assert len(pictures) == 12
    shown = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    for picture in pictures:
        assert f"vocabulary/pictures/{picture.name}" in shown, picture.name
        fresh = Image.open(tmp_path / "vocabulary-pictures" / "en" / "png" /
                           f"{picture.stem}.front.png").convert("RGBA")
        kept = Image.open(picture).convert("RGBA")
        assert kept.size == fresh.size, picture.name
        difference = ImageStat.Stat(ImageChops.difference(kept, fresh)).mean
        assert max(difference) < 1.0, (picture.name, difference)
