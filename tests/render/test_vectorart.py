"""SVG art compiled once and kept in the art cache: the same bytes as drawing it live."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from generator.render import vectorart

SHEETS = ("fronts.pdf", "backs.pdf", "duplex.pdf")


@pytest.fixture(autouse=True)
def own_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test starts with an empty art cache (the session's is shared)."""
    folder = tmp_path / "user-cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder / vectorart.ART_FOLDER


@pytest.fixture
def rockpool(tmp_path: Path) -> Path:
    """A copy of the rockpool pack (tinted and repainted SVG art, SVG icons, raster art)."""
    return Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))


def _build(pack: Path, out: Path) -> tuple[dict[str, bytes], set[str]]:
    """A whole ``pnp build`` process: the sheet files it wrote and the modules it imported."""
    completed = subprocess.run([sys.executable, "-X", "importtime", "-m", "generator", "build",
                                str(pack), "--out", str(out), "--force"], capture_output=True,
                               text=True, cwd=ROOT, timeout=300)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    folder = out / "rockpool" / "en" / "a4"
    imported = set(re.findall(r"\|\s+([\w.]+)$", completed.stderr, re.MULTILINE))
    return {name: (folder / name).read_bytes() for name in SHEETS}, imported


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.art"))


def test_a_warm_build_writes_the_bytes_of_a_cold_one_without_svglib(rockpool, tmp_path,
                                                                    own_user_cache):
    out = tmp_path / "out"
    cold, cold_imports = _build(rockpool, out)
    entries = _entries(own_user_cache)
    assert entries, "the first build kept no compiled art"
    assert {"svglib.svglib", "reportlab.graphics.renderPDF"} <= cold_imports
    warm, warm_imports = _build(rockpool, out)
    assert warm == cold
    assert not {"svglib", "lxml.etree", "reportlab.graphics", "reportlab.platypus"} \
        & warm_imports
    assert _entries(own_user_cache) == entries
    assert not [p for p in entries[0].parent.iterdir() if not p.name.endswith(".art")]


def test_an_svg_edited_in_place_is_read_again(rockpool, tmp_path):
    """The cache knows an SVG by its content: an edit that keeps the file's size and time is
    drawn, and a warm build of the edited pack equals a cold one."""
    out = tmp_path / "out"
    before, _ = _build(rockpool, out)
    art = rockpool / "art" / "creatures" / "shore-crab.svg"
    text = art.read_text(encoding="utf-8")
    stamp = art.stat()
    colours = re.findall(r"#[0-9a-fA-F]{6}\b", text)
    assert colours
    edited = text.replace(colours[0], "#0a0b0c" if colours[0].lower() != "#0a0b0c"
                          else "#0c0b0a")
    assert len(edited) == len(text) and edited != text
    art.write_text(edited, encoding="utf-8")
    os.utime(art, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    after, _ = _build(rockpool, out)
    assert after["fronts.pdf"] != before["fronts.pdf"]
    cold, _ = _build(rockpool, tmp_path / "fresh")
    assert after == cold


def test_a_damaged_cache_entry_is_recorded_again_not_replayed(rockpool, tmp_path,
                                                              own_user_cache):
    out = tmp_path / "out"
    cold, _ = _build(rockpool, out)
    entries = _entries(own_user_cache)
    assert len(entries) >= 4
    originals = {entry: entry.read_bytes() for entry in entries}
    entries[0].write_bytes(originals[entries[0]][:len(originals[entries[0]]) // 2])
    entries[1].write_bytes(b"")
    damaged = bytearray(originals[entries[2]])
    damaged[-5] ^= 0x01  # one bit of the body: the checksum no longer matches
    entries[2].write_bytes(bytes(damaged))
    entries[3].write_bytes(b"pnp-art 1\nnot a checksum\n{}")
    warm, _ = _build(rockpool, out)
    assert warm == cold
    assert {entry: entry.read_bytes() for entry in _entries(own_user_cache)} == originals


SQUARE = """<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
<rect x="1" y="1" width="38" height="18" fill="currentColor" stroke="#123456"
      stroke-width="0.1"/>
<path d="M2 2 L38 18 Z" fill="none" stroke="#ff0000" stroke-dasharray="2 1"/>
{extra}</svg>"""


def _pdf(svg: Path, replay: bool, in_form: bool) -> bytes:
    """One page placing the SVG as pnp does (in a form, or straight on the page), drawn from
    the compiled art or live with renderPDF."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from generator.load.fonts import font_name

    vectorart._memory.cache_clear()
    key, art = vectorart.compiled_art(str(svg), "#00aa00", (("#123456", "#654321"),), 30.0,
                                      15.0)
    target = io.BytesIO()
    canvas = Canvas(target, invariant=1, initialFontName=font_name("regular"))
    if in_form:
        canvas.beginForm("art0", 0, 0, art.width, art.height)
    canvas.saveState()
    canvas.translate(20, 30)
    if replay:
        vectorart.draw(canvas, key, art)
    else:
        renderPDF.draw(vectorart.live_drawing(key), canvas, 0, 0)
    canvas.restoreState()
    if in_form:
        canvas.endForm()
        canvas.doForm("art0")
    canvas.rect(5, 5, 10, 10, fill=1)  # what follows the art is drawn as after a live drawing
    canvas.showPage()
    canvas.save()
    return target.getvalue()


@pytest.mark.parametrize("in_form", [True, False], ids=["form", "on the page"])
@pytest.mark.parametrize(("extra", "replayed"), [
    ("", True),
    ('<text x="3" y="12" font-size="6">Hi</text>', False),  # a font: drawn live
    ('<circle cx="20" cy="10" r="4" fill="#000000" fill-opacity="0.5"/>', False),  # alpha
], ids=["paths", "text", "alpha"])
def test_compiled_art_draws_the_bytes_renderpdf_draws(tmp_path, extra, replayed, in_form):
    svg = tmp_path / "art.svg"
    svg.write_text(SQUARE.format(extra=extra), encoding="utf-8")
    vectorart._memory.cache_clear()
    _, art = vectorart.compiled_art(str(svg), "#00aa00", (("#123456", "#654321"),), 30.0, 15.0)
    assert (art.operators is not None) == replayed
    if replayed:  # the print-safe raise and the repainted colours are in the recording
        assert " w" in art.operators and ".396078 .262745 .129412 RG" in art.operators
    assert _pdf(svg, replay=True, in_form=in_form) == _pdf(svg, replay=False, in_form=in_form)


def test_only_operators_without_page_resources_are_replayed():
    assert vectorart.replayable("q\n1 0 0 1 0 0 cm\n.5 w\n[2 1] 0 d\n0 0 m\n1 1 l\nS\nQ")
    assert vectorart.replayable("0 0 1 rg\n0 0 10 10 re\nf*\nn")
    assert not vectorart.replayable("BT /F1+0 12 Tf (Hi) Tj ET")
    assert not vectorart.replayable("/gRLs0 gs\n0 0 10 10 re f")
    assert not vectorart.replayable("q /FormXob.x Do Q")
    assert not vectorart.replayable("/CS0 cs 1 scn")


def test_a_cache_folder_that_cannot_be_written_is_no_error(tmp_path):
    svg = tmp_path / "art.svg"
    svg.write_text(SQUARE.format(extra=""), encoding="utf-8")
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    vectorart._memory.cache_clear()
    _, art = vectorart.compiled_art(str(svg), None, (), 30.0, 15.0, blocked / "art")
    assert art.operators


def test_a_first_build_records_its_art_on_two_cores_as_on_one(tmp_path, monkeypatch):
    from generator.runtime import forked

    creatures = sorted((ROOT / "cards" / "rockpool" / "art" / "creatures").glob("*.svg"))
    placements = [(str(svg.resolve()), "#225588", (), 40.0, 30.0) for svg in creatures[:10]]
    assert len(placements) >= vectorart.PARALLEL_FROM
    forks = []
    fork = forked.in_two_processes
    monkeypatch.setattr(forked, "in_two_processes",
                        lambda here, there: forks.append(1) or fork(here, there))
    compiled = {}
    for jobs in ("2", "1"):
        monkeypatch.setenv("PNP_JOBS", jobs)
        monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / f"user-cache-{jobs}"))
        vectorart._memory.cache_clear()
        vectorart.compile_placements(placements, tmp_path / jobs)
        recorded = len(vectorart._memory()[0])
        compiled[jobs] = [vectorart.compiled_art(*placed, tmp_path / jobs)
                          for placed in placements]
        # two cores: all recorded up front; one: each as it is asked for
        assert recorded == (len(placements) if jobs == "2" else 0)
    assert forks == [1]
    assert compiled["2"] == compiled["1"]
    assert sorted(p.name for p in (tmp_path / "2").iterdir()) == \
        sorted(p.name for p in (tmp_path / "1").iterdir())


def test_a_build_into_a_new_folder_takes_the_art_from_the_art_cache(rockpool, tmp_path,
                                                                     own_user_cache):
    first, _ = _build(rockpool, tmp_path / "first")
    kept = [p.name for p in _entries(own_user_cache)]
    assert kept
    # a second output folder: nothing to record, so svglib is never needed (it cannot be
    # imported in this process), and the same bytes
    probe = ("import sys; sys.modules['svglib.svglib'] = None; sys.argv = ['pnp', *sys.argv[1:]]\n"
             "from generator.cli.main import main\nmain()\n")
    completed = subprocess.run([sys.executable, "-c", probe, "build", str(rockpool), "--out",
                                str(tmp_path / "second"), "--force"], capture_output=True,
                               text=True, cwd=ROOT, timeout=300)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    folder = tmp_path / "second" / "rockpool" / "en" / "a4"
    assert {name: (folder / name).read_bytes() for name in SHEETS} == first
    assert [p.name for p in _entries(own_user_cache)] == kept


def test_an_empty_cache_setting_keeps_no_art(rockpool, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    assert vectorart.user_art_folder() is None
    first, _ = _build(rockpool, tmp_path / "out")
    assert not list(tmp_path.rglob("*.art"))
    assert _build(rockpool, tmp_path / "out")[0] == first
    monkeypatch.delenv("PNP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert vectorart.user_art_folder() == tmp_path / "xdg" / "pnp" / vectorart.ART_FOLDER
