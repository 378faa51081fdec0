"""Replacing an output folder: one atomic exchange where the system offers it."""

from __future__ import annotations

import sys

import pytest

from generator.runtime import outdir


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_two_folders_are_exchanged_in_one_step(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "new.pdf").write_text("new", encoding="utf-8")
    (second / "old.pdf").write_text("old", encoding="utf-8")
    assert outdir._renameat2() is not None  # found without ctypes.util (no ldconfig run)
    assert outdir._exchange(first, second)
    assert [p.name for p in second.iterdir()] == ["new.pdf"]
    assert [p.name for p in first.iterdir()] == ["old.pdf"]


def test_a_rebuild_replaces_the_folder_whole(tmp_path):
    target = tmp_path / "out"
    for text in ("first", "second"):
        with outdir.atomic_folder(target) as scratch:
            (scratch / f"{text}.pdf").write_text(text, encoding="utf-8")
    assert [p.name for p in target.iterdir()] == ["second.pdf"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no scratch or old folder left
