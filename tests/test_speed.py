"""What makes builds fast must not change what they print: pages drawn once and copied, chunks
drawn in worker processes, unchanged rebuilds skipped, clean cards never seen by jsonschema."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, SHIP, run_pnp
from pdfread import page_texts
from pypdf import PdfReader

from generator.cache import usercache
from generator.impose.sheets import SheetOptions
from generator.pipeline.build import build
from generator.render import sheetpdfs as sheetfiles


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cwnb built in one piece (21 sheets: one chunk), with the default options."""
    return build(CWNB, (), None, SheetOptions(), tmp_path_factory.mktemp("whole")).out_dir


def test_fronts_and_backs_are_the_pages_of_duplex(whole: Path) -> None:
    duplex = page_texts(whole / "duplex.pdf")
    assert page_texts(whole / "fronts.pdf") == duplex[0::2]
    assert page_texts(whole / "backs.pdf") == duplex[1::2]
    reader = PdfReader(whole / "backs.pdf")
    assert reader.metadata.title.endswith(": backs") and len(reader.pages) == 21
    for page in reader.pages:  # page boxes travel with the copied pages
        assert page.trimbox != page.mediabox


def test_a_build_in_chunks_prints_the_same_pages_in_one_process_or_two(
        tmp_path: Path, monkeypatch, whole: Path) -> None:
    """21 sheets in chunks of 6 (4 chunks), drawn in this process and by two workers: the same
    bytes either way (so also the same bytes run after run), and the same pages, text and page
    boxes, as the build in one piece."""
    monkeypatch.setattr(sheetfiles, "CHUNK_SHEETS", 6)
    chunked = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("PNP_JOBS", workers)
        chunked[workers] = build(CWNB, (), None, SheetOptions(), tmp_path / workers).out_dir
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf", "manifest.json"):
        assert (chunked["1"] / name).read_bytes() == (chunked["2"] / name).read_bytes(), name
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
        assert page_texts(chunked["2"] / name) == page_texts(whole / name), name
        boxes = [(p.trimbox, p.bleedbox) for p in PdfReader(chunked["2"] / name).pages]
        assert boxes == [(p.trimbox, p.bleedbox) for p in PdfReader(whole / name).pages]
    for folder in chunked.values():
        assert not list(folder.glob(".*")), "the chunk files are removed"


def test_an_unchanged_rebuild_is_skipped_and_any_change_rebuilds(tmp_path: Path) -> None:
    pack = tmp_path / "cwnb"
    shutil.copytree(CWNB, pack)
    out = tmp_path / "out"
    first = run_pnp("build", str(pack), "--out", str(out))
    assert first.returncode == 0 and first.stdout.startswith("wrote "), first.stderr
    fronts = out / "cwnb" / "en" / "a4" / "fronts.pdf"
    written = fronts.stat().st_mtime_ns
    again = run_pnp("build", str(pack), "--out", str(out))
    assert again.returncode == 0 and again.stdout.startswith("up to date: "), again.stdout
    assert len(again.stdout.splitlines()) == 1 and fronts.stat().st_mtime_ns == written
    other_paper = run_pnp("build", str(pack), "--out", str(out), "--paper", "letter")
    assert other_paper.stdout.startswith("wrote ")  # another option: another build
    ships = pack / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("name: USS Nimitz",
                                                                "name: USS Nimitz II", 1),
                     encoding="utf-8")
    edited = run_pnp("build", str(pack), "--out", str(out))
    assert edited.stdout.startswith("wrote "), edited.stdout
    assert "USS Nimitz II" in "".join(page_texts(fronts))
    (out / "cwnb" / "en" / "a4" / "backs.pdf").unlink()
    assert run_pnp("build", str(pack), "--out", str(out)).stdout.startswith("wrote ")
    assert (out / "cwnb" / "en" / "a4" / "backs.pdf").is_file()


def test_help_and_a_clean_validate_import_no_heavy_machinery(tmp_path: Path) -> None:
    """Start-up budget: ``--help`` loads click and none of pnp's machinery; validating a clean
    pack never loads jsonschema (jsonschema-rs decides) nor pikepdf (a small build does not
    join pages)."""
    probe = ("import sys; sys.argv = ['pnp'] + sys.argv[1:]\n"
             "from generator.cli.main import main\n"
             "try:\n    main()\n"
             "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
             "heavy = ('jsonschema', 'reportlab', 'yaml', 'generator.layout.engine', 'pikepdf',"
             " 'msgspec', 'click')\n"
             "print(sorted(m for m in heavy if m in sys.modules))")
    build = ["build", str(CWNB), "--out", str(tmp_path), "--force"]
    for args, absent in ((["--help"], {"jsonschema", "reportlab", "yaml",
                                        "generator.layout.engine", "pikepdf", "msgspec"}),
                         (["validate", str(CWNB)], {"jsonschema", "pikepdf"}),
                         (build, {"jsonschema"})):
        result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                                text=True, cwd=ROOT, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        loaded = set(ast.literal_eval(result.stdout.strip().splitlines()[-1]))
        assert not loaded & absent, (args, result.stdout + result.stderr)
        assert "click" in loaded  # the command line itself
    assert (tmp_path / "cwnb" / "en" / "a4" / "duplex.pdf").is_file()


def test_a_large_card_file_without_aliases_is_not_taken_for_an_alias_bomb(tmp_path: Path) -> None:
    from generator.core.limits import MAX_ALIAS_VALUES
    from generator.load.yamlsource import load_yaml_text

    def load_yaml_file(path: Path):
        return load_yaml_text(str(path), path.read_text(encoding="utf-8"))

    ship = SHIP.replace("Test Ship", "Test Ship {id}")
    cards = tmp_path / "ships.yaml"
    cards.write_text("cards:\n" + "".join(ship.format(id=f"ship-{n}") for n in range(15_000)),
                     encoding="utf-8")
    doc, findings = load_yaml_file(cards)
    assert findings == [] and len(doc.data["cards"]) == 15_000
    # "cards:", then 9 lines a card
    assert doc.where(("cards", 14_999, "name")).line == 9 * 14_999 + 4
    # far fewer values, multiplied by aliases, are refused, located at the anchored value
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("base: &b [" + ", ".join(["1"] * 1000) + "]\nmore:\n"
                    + "".join("  - *b\n" for _ in range(MAX_ALIAS_VALUES // 1000 + 1)),
                    encoding="utf-8")
    doc, findings = load_yaml_file(bomb)
    assert doc is None and [f.code for f in findings] == ["yaml-too-large"]
    assert "aliases expand this file" in findings[0].message
    assert findings[0].location.line == 1


def test_an_edited_card_redraws_only_its_chunk(tmp_path: Path, monkeypatch) -> None:
    pack = tmp_path / "cwnb"
    shutil.copytree(CWNB, pack)
    monkeypatch.setattr(sheetfiles, "CHUNK_SHEETS", 5)  # 21 sheets: 6 chunks (an even count)
    out = tmp_path / "out"
    build(pack, (), None, SheetOptions(), out)
    cache = usercache.output_cache_folder(out) / "pages" / "cwnb" / "en" / "a4"
    before = {path.name: path.stat().st_mtime_ns for path in cache.glob("*.pdf")}
    assert len(before) == 6
    ships = pack / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("name: USS Nimitz",
                                                                "name: USS Nimitz II", 1),
                     encoding="utf-8")
    edited = build(pack, (), None, SheetOptions(), out).out_dir
    after = {path.name: path.stat().st_mtime_ns for path in cache.glob("*.pdf")}
    assert len(after) == 6 and len(set(after.items()) - set(before.items())) == 1
    fresh = build(pack, (), None, SheetOptions(), tmp_path / "fresh", reuse=False).out_dir
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
        assert (edited / name).read_bytes() == (fresh / name).read_bytes(), name
    assert "USS Nimitz II" in "".join(page_texts(edited / "fronts.pdf"))


def test_chunks_come_in_even_numbers_of_equal_size() -> None:
    """Two cores finish together; the split depends on the sheets only, never on the cores."""
    assert sheetfiles.chunk_sheets(60) == 60  # one chunk: fronts and backs side by side
    assert sheetfiles.chunk_sheets(131) == 66  # two chunks: both cores draw both sides
    assert sheetfiles.chunk_sheets(1131) == 189  # 5 chunks of 250 would be uneven: 6 of 189
    assert sheetfiles.chunk_sheets(5000) == 250  # 20 chunks
