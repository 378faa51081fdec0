"""Outputs are never stale (generator/cache/buildcache.py): a build is "up to date" only when no
input changed, pnp and its libraries included, no input changed while it ran, every file a
card names (hidden ones too) is as it was, and its output is byte for byte what it wrote."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CWNB, ROOT

from generator.cache import buildcache, usercache
from generator.impose.sheets import SheetOptions
from generator.pipeline import build as build_module
from generator.pipeline.build import build
from generator.proof.watch import ProofState, _SourceFilter

ROCKPOOL = ROOT / "cards" / "rockpool"


def forget_recipe() -> None:
    """Take the key recipe (and its digest) again: computed once per process."""
    usercache.key_recipe.cache_clear()
    usercache.key_digest.cache_clear()


@pytest.fixture
def cwnb(tmp_path: Path) -> Path:
    return Path(shutil.copytree(CWNB, tmp_path / "cwnb"))


@pytest.fixture
def rockpool(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ROCKPOOL, tmp_path / "rockpool"))


@pytest.fixture
def recipe():
    """The key recipe is computed once per process: taken again around a test that fakes
    it."""
    forget_recipe()
    yield
    forget_recipe()


def pnp_build(pack: Path, out: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "generator", "build", str(pack), "--out",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def record(pack: Path, out: Path) -> buildcache.BuildRecord:
    """The record the command line makes for ``pnp build PACK --out OUT``."""
    return buildcache.BuildRecord(out, [pack], [], {"paper": "a4"}, exclude=out)


def built(pack: Path, out: Path) -> Path:
    result = build(pack, (), None, SheetOptions(), out)
    assert result.out_dir is not None
    return result.out_dir


def test_an_unchanged_build_is_up_to_date(cwnb: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = record(cwnb, out)
    first.save(built(cwnb, out), 42, "")
    assert record(cwnb, out).unchanged() is not None


def test_an_upgraded_library_is_a_new_build(cwnb: Path, tmp_path: Path, monkeypatch,
                                            recipe) -> None:
    """ReportLab upgraded (its version stamp faked): not "up to date"."""
    out = tmp_path / "out"
    first = record(cwnb, out)
    first.save(built(cwnb, out), 42, "")
    versions = usercache.installed_versions()
    assert any(v.startswith("reportlab-") for v in versions)
    monkeypatch.setattr(usercache, "installed_versions", lambda: tuple(
        v.replace("reportlab-", "reportlab-99.") for v in versions))
    forget_recipe()
    assert record(cwnb, out).unchanged() is None


def test_an_edit_during_a_build_leaves_no_record(cwnb: Path, tmp_path: Path,
                                                 monkeypatch) -> None:
    """A card saved while the build runs (after its inputs were fingerprinted), then undone
    before it ends: the PDFs may hold the edit, so the build is not recorded as up to
    date, and the next build is a real one."""
    out = tmp_path / "out"
    ships = cwnb / "ships.yaml"
    real_sheets = build_module.write_sheet_files

    def edited_meanwhile(*args, **kwargs):
        saved = ships.read_text(encoding="utf-8")
        ships.write_text(saved.replace("name: USS Nimitz", "name: USS Edited", 1),
                         encoding="utf-8")
        real_sheets(*args, **kwargs)
        ships.write_text(saved, encoding="utf-8")  # undone: the same bytes as at the start

    rec = record(cwnb, out)
    rec.save(built(cwnb, out), 42, "")
    assert record(cwnb, out).unchanged() is not None
    rec = record(cwnb, out)
    monkeypatch.setattr(build_module, "write_sheet_files", edited_meanwhile)
    rec.save(built(cwnb, out), 42, "")
    assert record(cwnb, out).unchanged() is None


@pytest.mark.parametrize("opacity", [False, True])
def test_a_hidden_file_a_card_names_is_an_input(rockpool: Path, tmp_path: Path,
                                                opacity: bool) -> None:
    """``art/.wip.svg``, named by a card: an edit of it is a new build (and only then), drawn
    with opacity too (its op then sits inside a group: it was missed there)."""
    if opacity:
        template = rockpool / "templates" / "creature.yaml"
        drawn = 'src: "{art}", fit: contain}'
        assert drawn in template.read_text(encoding="utf-8")
        template.write_text(template.read_text(encoding="utf-8").replace(
            drawn, 'src: "{art}", fit: contain, opacity: 0.8}'), encoding="utf-8")
    creatures = rockpool / "creatures.yaml"
    art = rockpool / "art" / "creatures" / "shore-crab.svg"
    wip = rockpool / "art" / ".wip.svg"
    shutil.copy(art, wip)
    creatures.write_text(creatures.read_text(encoding="utf-8").replace(
        "art/creatures/shore-crab.svg", "art/.wip.svg"), encoding="utf-8")
    out = tmp_path / "out"
    assert pnp_build(rockpool, out).startswith("wrote ")
    assert pnp_build(rockpool, out).startswith("up to date: ")
    text = wip.read_text(encoding="utf-8")
    wip.write_text(text.replace("<svg", "<svg data-wip='1'", 1), encoding="utf-8")
    assert pnp_build(rockpool, out).startswith("wrote ")
    assert pnp_build(rockpool, out).startswith("up to date: ")


def test_an_output_damaged_in_place_is_built_again(cwnb: Path, tmp_path: Path) -> None:
    """Same size, same time, other bytes: rebuilt, and the file is whole again."""
    out = tmp_path / "out"
    assert pnp_build(cwnb, out).startswith("wrote ")
    fronts = out / "cwnb" / "en" / "a4" / "fronts.pdf"
    whole = fronts.read_bytes()
    info = fronts.stat()
    damaged = bytearray(whole)
    damaged[len(damaged) // 2] ^= 0xFF
    fronts.write_bytes(bytes(damaged))
    os.utime(fronts, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert fronts.stat().st_size == info.st_size
    assert pnp_build(cwnb, out).startswith("wrote ")
    assert fronts.read_bytes() == whole


def test_watch_sees_a_hidden_file_a_card_names(rockpool: Path) -> None:
    """``pnp watch`` rebuilds when ``art/.wip.svg``, named by a card, is saved; other hidden
    files and editors' scratch files are still ignored."""
    creatures = rockpool / "creatures.yaml"
    wip = rockpool / "art" / ".wip.svg"
    shutil.copy(rockpool / "art" / "creatures" / "shore-crab.svg", wip)
    creatures.write_text(creatures.read_text(encoding="utf-8").replace(
        "art/creatures/shore-crab.svg", "art/.wip.svg"), encoding="utf-8")
    state = ProofState(rockpool, (), ())
    state.rebuild(None)
    named = str(wip.resolve())
    assert named in state.named
    watching = _SourceFilter([rockpool.resolve()], lambda: state.named)
    assert watching(None, named)
    assert not watching(None, str((rockpool / "art" / ".other.svg").resolve()))
    assert not watching(None, str((rockpool / ".git" / "index").resolve()))
    assert watching(None, str(creatures.resolve()))


@pytest.mark.parametrize("damage", ["bit", "pipe", "missing digests"])
def test_a_damaged_chunk_of_pages_is_drawn_again(cwnb: Path, tmp_path: Path, monkeypatch,
                                                 damage: str) -> None:
    """A large build's chunks are joined by pikepdf from their files: one changed in place
    (same name and size), replaced by a named pipe, or whose digests were lost, is drawn
    again, and the sheets are what the first build printed."""
    from generator.render import sheetpdfs as sheetfiles

    if damage == "pipe" and not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this platform")
    monkeypatch.setattr(sheetfiles, "CHUNK_SHEETS", 5)  # 21 sheets: 6 chunks
    out = tmp_path / "out"
    first = built(cwnb, out)
    printed = {name: (first / name).read_bytes() for name in ("fronts.pdf", "duplex.pdf")}
    cache = usercache.output_cache_folder(out)
    assert cache is not None
    chunks = sorted((cache / "pages").rglob("*.pdf"))
    assert len(chunks) == 6
    chunk = chunks[2]
    if damage == "bit":
        raw = bytearray(chunk.read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        chunk.write_bytes(bytes(raw))
    elif damage == "pipe":
        chunk.unlink()
        os.mkfifo(chunk)
    else:
        (chunk.parent / usercache.FileDigests.NAME).unlink()
    again = built(cwnb, out)
    assert {name: (again / name).read_bytes() for name in printed} == printed
    assert chunk.is_file() and not chunk.is_symlink()


def test_a_proof_picture_damaged_in_place_is_rendered_again(tmp_path: Path) -> None:
    """``pnp preview`` reuses a picture only as it wrote it: one changed since (same name and
    size) is rendered again, whole."""
    from generator.proof.page import PICTURES
    from generator.proof.preview import write_preview

    first = write_preview(CWNB, (), ("en",), tmp_path)
    assert first.rendered > 0
    assert write_preview(CWNB, (), ("en",), tmp_path).rendered == 0
    picture = sorted((first.page.parent / PICTURES).glob("*.png"))[0]
    whole = picture.read_bytes()
    damaged = bytearray(whole)
    damaged[len(damaged) // 2] ^= 0xFF
    picture.write_bytes(bytes(damaged))
    assert write_preview(CWNB, (), ("en",), tmp_path).rendered == 1
    assert picture.read_bytes() == whole
