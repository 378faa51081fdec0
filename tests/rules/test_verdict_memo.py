"""A clean card set's rule verdict is remembered between runs (generator.rules.verdicts): a warm
build of an unchanged built-in pack does not import the game's rules, while a card edited to
break a rule is reported on the next run exactly as without the memo, and caches off
(``PNP_CACHE_DIR=``) check every time."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CWNB, ROOT

from generator.pipeline.validate import validate
from generator.rules.verdicts import card_set_digest

RULES_MODULE = "generator.games.cwnb.rules.texts"


def _pnp(cache: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    """pnp in its own process, with ``-X importtime`` (what it imported is on stderr)."""
    env = {"PNP_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "generator", *args],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def _imported(done: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:")}


def test_a_warm_build_of_a_clean_pack_does_not_import_the_rules(tmp_path):
    cache, out = tmp_path / "cache", tmp_path / "out"
    first = _pnp(cache, "build", str(CWNB), "--out", str(out), "-q", "--force")
    assert first.returncode == 0, first.stderr[-2000:]
    assert RULES_MODULE in _imported(first)  # the first build checks the rules
    assert list((cache / "rules").iterdir())
    second = _pnp(cache, "build", str(CWNB), "--out", str(out), "-q", "--force")
    assert second.returncode == 0, second.stderr[-2000:]
    assert not {name for name in _imported(second) if ".rules." in name
                and name.startswith("generator.games.")}
    assert "generator.rules.textfacts" not in _imported(second)


def test_caches_off_check_the_rules_every_time(tmp_path):
    for _ in range(2):
        done = _pnp("", "validate", str(CWNB))
        assert done.returncode == 0, done.stderr[-2000:]
        assert RULES_MODULE in _imported(done)


def test_a_card_edited_to_break_a_rule_is_reported_as_without_the_memo(tmp_path):
    pack = tmp_path / "cwnb"
    shutil.copytree(CWNB, pack)
    cache = tmp_path / "cache"
    assert _pnp(cache, "validate", str(pack)).returncode == 0  # clean: its verdict is kept
    ships = pack / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    nimitz = text.index("id: uss-nimitz")
    at = text.index("air_strike: 2", nimitz)
    ships.write_text(text[:at] + "air_strike: 1" + text[at + len("air_strike: 2"):],
                     encoding="utf-8")
    warm = _pnp(cache, "validate", str(pack))
    without = _pnp("", "validate", str(pack))
    assert warm.returncode == without.returncode == 1
    assert "cwnb-named-ship" in warm.stdout
    assert warm.stdout == without.stdout
    again = _pnp(cache, "validate", str(pack))  # a set with findings is checked every time
    assert again.returncode == 1 and again.stdout == without.stdout


def test_the_digest_follows_every_value_and_each_card_s_place(tmp_path):
    pack = tmp_path / "cwnb"
    shutil.copytree(CWNB, pack)
    first = validate(pack).card_set
    assert first is not None
    assert card_set_digest(first) == card_set_digest(validate(pack).card_set)
    ships = pack / "ships.yaml"
    text = ships.read_text(encoding="utf-8")
    ships.write_text(text.replace("name: USS Nimitz", "name: USS Nimitz II", 1),
                     encoding="utf-8")
    renamed = validate(pack).card_set
    assert renamed is not None and card_set_digest(renamed) != card_set_digest(first)
    ships.write_text(text.replace("  - id: uss-nimitz", "  # moved\n  - id: uss-nimitz", 1),
                     encoding="utf-8")
    moved = validate(pack).card_set
    assert moved is not None and card_set_digest(moved) != card_set_digest(first)
