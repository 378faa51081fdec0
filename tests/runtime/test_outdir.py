"""Replacing an output folder: one atomic exchange where the system offers it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

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


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "renames"])
def test_concurrent_builds_swap_in_turn_and_leave_no_lock_files(tmp_path, monkeypatch,
                                                                exchange):
    """Two builds replacing one folder at once, by exchange (Linux) or by two renames (macOS,
    Windows): every swap succeeds under the target's lock, and no lock file is left."""
    import threading

    if not exchange:
        monkeypatch.setattr(outdir, "_renameat2", lambda: None)
    rename = Path.rename

    def slow_rename(self: Path, to: Path) -> Path:
        """A rename, then a pause: the other build runs between two renames of one swap."""
        moved = rename(self, to)
        time.sleep(0.002)
        return moved

    monkeypatch.setattr(Path, "rename", slow_rename)
    target = tmp_path / "out" / "a4"
    failed: list[BaseException] = []

    def build(n: int) -> None:
        try:
            for _ in range(25):
                with outdir.atomic_folder(target) as scratch:
                    (scratch / "n").write_text(str(n), encoding="utf-8")
        except BaseException as exc:
            failed.append(exc)

    builders = [threading.Thread(target=build, args=(n,)) for n in (1, 2)]
    for thread in builders:
        thread.start()
    for thread in builders:
        thread.join()
    assert not failed
    assert (target / "n").read_text(encoding="utf-8") in {"1", "2"}
    assert [p.name for p in target.parent.iterdir()] == ["a4"]
