"""Template conditions' verdicts are remembered between runs (generator.cache.memo): a warm
build of a built-in game does not load the CEL runtime, and a verdict is only ever taken for
the same expression over the same values."""

from __future__ import annotations

import subprocess
import sys

from conftest import CWNB, ROOT

from generator.cache import memo as digest_memos
from generator.layout import engine


def _imports(out, cache) -> str:
    env = {"PNP_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "generator", "build",
                           str(CWNB), "--out", str(out), "-q", "--force"], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


def test_a_warm_build_takes_its_conditions_from_the_memo(tmp_path):
    first = _imports(tmp_path / "out", tmp_path / "cache")
    assert "cel_expr_python" in first  # the first build works its conditions out
    assert list((tmp_path / "cache" / "conditions").iterdir())
    second = _imports(tmp_path / "out", tmp_path / "cache")
    assert "cel_expr_python" not in second


def test_a_verdict_is_kept_for_its_expression_and_values_only(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(digest_memos, "_memos", {})
    engine._verdicts.cache_clear()
    try:
        assert engine._evaluated("body_top == 34", {"body_top": 34}, None) is True
        assert engine._evaluated("body_top == 34", {"body_top": 38}, None) is False
        digest_memos.save_all()
        monkeypatch.setattr(digest_memos, "_memos", {})
        engine._verdicts.cache_clear()
        monkeypatch.setattr(engine, "_cel_verdict", lambda *args: 1 / 0)  # no CEL this run
        assert engine._evaluated("body_top == 34", {"body_top": 34}, None) is True
        assert engine._evaluated("body_top == 34", {"body_top": 38}, None) is False
    finally:
        engine._verdicts.cache_clear()
