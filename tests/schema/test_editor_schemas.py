"""Schemas for editors: every shipped file validates with check-jsonschema against what
``pnp schema`` exports, every field of the built-in games is described, and the printed
``$schema`` modeline resolves from the file it is pasted into (as yaml-language-server does)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp

PACKS = ["cwnb", "cwnb-expansion", "commander", "gwas", "rockpool"]
CHECK = Path(sys.executable).with_name("check-jsonschema")


def _card_files(pack: Path) -> list[Path]:
    return [p for p in sorted(pack.rglob("*.yaml"))
            if p.relative_to(pack).parts[0] not in ("locales", "decks", "templates", "schemas")
            and p.name not in ("game.yaml", "glossary.yaml")]


def _check(schema: Path, files: list[Path]) -> None:
    assert files
    result = subprocess.run([str(CHECK), "--schemafile", str(schema), *map(str, files)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("name", PACKS)
def test_every_shipped_file_validates_with_check_jsonschema(tmp_path, name):
    pack = ROOT / "cards" / name
    out = tmp_path / "schemas"
    exported = run_pnp("schema", str(pack), "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    _check(out / "card-file.schema.json", _card_files(pack))
    _check(out / "game.schema.json", [pack / "game.yaml"])
    if (pack / "glossary.yaml").is_file():
        _check(out / "glossary.schema.json", [pack / "glossary.yaml"])
    decks = sorted((pack / "decks").glob("*.yaml"))
    if decks:
        _check(out / "deck.schema.json", decks)


def test_a_wrong_card_is_rejected_by_the_exported_schema(tmp_path):
    out = tmp_path / "schemas"
    assert run_pnp("schema", "cards/cwnb", "--out", str(out)).returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards:\n  - id: x\n    kind: ship\n    name: X\n    class: X\n    type: SS\n"
                   "    nation: US\n    points: 1\n    hits_to_sink: 1\n", encoding="utf-8")
    result = subprocess.run([str(CHECK), "--schemafile", str(out / "card-file.schema.json"),
                             str(bad)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "type" in result.stdout


@pytest.mark.parametrize("name", ["cwnb", "commander", "gwas"])
def test_every_field_of_the_built_in_games_is_described(tmp_path, name):
    out = tmp_path / "schemas"
    assert run_pnp("schema", f"cards/{name}", "--out", str(out)).returncode == 0
    bundled = json.loads((out / "card-file.schema.json").read_text(encoding="utf-8"))
    undescribed = [f"{kind}.{field}" for kind, schema in bundled["$defs"].items()
                   for field, spec in schema.get("properties", {}).items()
                   if not spec.get("description")]
    assert undescribed == []
    for extra in ("game", "deck", "glossary"):
        document = json.loads((out / f"{extra}.schema.json").read_text(encoding="utf-8"))
        assert document.get("properties")


def test_the_printed_modeline_resolves_from_the_card_file(tmp_path):
    pack = tmp_path / "commander"
    shutil.copytree(ROOT / "cards" / "commander", pack)
    result = run_pnp("schema", str(pack), cwd=tmp_path.parent)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    modeline = lines[lines.index("add to the top of each card file:") + 1].strip()
    deck_line = lines[lines.index("add to the top of each deck file in decks/:") + 1].strip()
    assert modeline == "# yaml-language-server: $schema=schemas/card-file.schema.json"
    card_file = pack / "01-ships.yaml"
    target = (card_file.parent / modeline.split("$schema=")[1]).resolve()
    assert target == (pack / "schemas" / "card-file.schema.json").resolve() and target.is_file()
    deck = sorted((pack / "decks").glob("*.yaml"))[0]
    assert (deck.parent / deck_line.split("$schema=")[1]).resolve().is_file()
    absolute = [x for x in lines if "$schema=file://" in x]
    assert absolute and Path(absolute[0].split("file://")[1]).is_file()
    # the same from the pack's own folder: the modeline does not depend on where pnp ran
    again = run_pnp("schema", ".", cwd=pack)
    assert modeline in again.stdout
    assert os.path.isabs(absolute[0].split("file://")[1])
