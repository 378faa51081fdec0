"""Schemas remember the instances they accepted (generator/schema/memo.py): a remembered
instance is not checked again, anything else is, and a rejected card is reported at its place on
every run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHIP, write_pack

from generator.cache import memo as digest_memos
from generator.load.yamldoc import YamlDocument
from generator.schema import check as schemacheck
from generator.schema import memo as schemamemo


@pytest.fixture
def memo_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(digest_memos, "_memos", {})
    monkeypatch.setattr(schemacheck, "_DATA_SCHEMAS", {})
    schemacheck._memo.cache_clear()
    yield tmp_path / "cache" / schemamemo.MEMO_FOLDER
    schemacheck._memo.cache_clear()


def _fresh_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process holds, as a new run would; the memo's file stays."""
    schemamemo.save_all()
    monkeypatch.setattr(digest_memos, "_memos", {})
    monkeypatch.setattr(schemacheck, "_DATA_SCHEMAS", {})
    schemacheck._memo.cache_clear()


def _unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **settings: object) -> None:
        raise AssertionError("checked again instead of remembered")

    monkeypatch.setattr(schemacheck, "_fast", refuse)
    monkeypatch.setattr(schemacheck, "FastValidator", refuse)


INTEGER = {"type": "object", "properties": {"n": {"type": "integer"}}}


def _check(data: object, schema: object = INTEGER) -> list[str]:
    document = YamlDocument("x.yaml", data)
    return [f.code for f in schemacheck.check(document, "", "", schema=schema)]


def test_an_accepted_instance_is_remembered_across_runs(
        memo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _check({"n": 1}) == []
    _fresh_run(monkeypatch)
    assert len(list(memo_dir.iterdir())) == 1
    _unchecked(monkeypatch)
    assert _check({"n": 1}) == []


def test_only_the_exact_instance_under_the_same_schema_is_taken_as_known(
        memo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _check({"n": 1}) == []
    _fresh_run(monkeypatch)
    # true and 1.5 are not integers: marshal's bytes tell them from 1
    assert _check({"n": True}) == ["wrong-type"]
    assert _check({"n": 1.5}) == ["wrong-type"]
    # the same instance under a stricter schema is checked, and refused
    stricter = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 2}}}
    assert _check({"n": 1}, stricter) == ["out-of-range"]
    _fresh_run(monkeypatch)
    assert _check({"n": True}) == ["wrong-type"]  # (a refusal is never remembered)


def test_a_damaged_memo_is_checked_again(memo_dir: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert _check({"n": 1}) == []
    _fresh_run(monkeypatch)
    entry, = memo_dir.iterdir()
    good = entry.read_bytes()
    for damaged in (good[:-1], good[:-1] + bytes([good[-1] ^ 1]), b""):
        entry.write_bytes(damaged)
        _fresh_run(monkeypatch)
        with monkeypatch.context() as inner:
            _unchecked(inner)
            with pytest.raises(AssertionError, match="checked again"):
                _check({"n": 1})
        assert _check({"n": 1}) == []
        _fresh_run(monkeypatch)
        assert entry.read_bytes() == good


def test_a_bad_card_is_reported_at_its_place_on_every_run(tmp_path: Path) -> None:
    """Through whole pnp processes: the clean cards are remembered after the first run, the
    card with a negative point value is found on each."""
    bad = SHIP.format(id="bad").replace("points: 4", "points: -3")
    pack = write_pack(tmp_path / "pack", {"cards/ships.yaml": "cards:\n" + SHIP.format(id="a")
                                          + bad + SHIP.format(id="b")})
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    outputs = []
    for _ in range(2):
        result = subprocess.run([sys.executable, "-m", "generator", "validate", str(pack)],
                                capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
        assert result.returncode == 1, result.stderr
        outputs.append(result.stdout + result.stderr)
    assert outputs[0] == outputs[1]
    assert "ships.yaml:17:13: error[out-of-range]: 'points' is -3" in outputs[0], outputs[0]
    assert list((tmp_path / "cache" / schemamemo.MEMO_FOLDER).iterdir())
