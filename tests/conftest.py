"""Shared test helpers: throwaway packs written into tmp_path and a CLI runner."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CWNB = ROOT / "cards" / "cwnb"

GAME_YAML = """\
pack: testpack
game: cwnb
name: Test pack
source_locale: en
set_mark: anchor
"""

SHIP = """\
  - id: {id}
    kind: ship
    name: Test Ship
    class: Test
    type: DD
    nation: US
    points: 4
    hits_to_sink: 3
    guns: [5in]
"""


def write_pack(root: Path, files: dict[str, str | bytes], game: str = GAME_YAML) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    for name, content in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


@pytest.fixture
def make_pack(tmp_path: Path):
    def factory(files: dict[str, str | bytes], game: str = GAME_YAML) -> Path:
        return write_pack(tmp_path / "pack", files, game)

    return factory


def run_pnp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=300)
