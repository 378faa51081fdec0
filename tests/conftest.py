"""Shared test helpers: throwaway packs written into tmp_path and a CLI runner."""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

# pnp keeps compiled SVG art in the user's cache too (generator.render.vectorart.user_art_folder):
# the tests and the pnp processes they start use a folder of their own, never the user's. One
# folder per test process (each xdist worker is one), made once however often this module is
# imported, and removed when the process's session ends (pytest_unconfigure).
if os.environ.get("PNP_TEST_CACHE_PID") != str(os.getpid()):
    os.environ["PNP_CACHE_DIR"] = tempfile.mkdtemp(prefix="pnp-test-cache-")
    os.environ["PNP_TEST_CACHE_PID"] = str(os.getpid())

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


#: the test files that take longest, slowest first (whole pnp sessions run twice, damaged
#: caches, a wheel in a fresh venv, hostile packs): run before all others, so that under
#: xdist (``make test``: --dist loadfile --no-loadscope-reorder) the two workers share them
#: at the start instead of one of them ending the run alone
SLOWEST_FIRST = ("test_portable.py", "test_cachelayer.py", "test_wheel.py", "test_fuzz.py",
                 "test_safe_art.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)  # (a stable sort: the order within each file is kept)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove this process's cache folder (the pnp processes the tests started have ended)."""
    folder = Path(os.environ.get("PNP_CACHE_DIR") or ".")
    if os.environ.get("PNP_TEST_CACHE_PID") == str(os.getpid()) and folder.name.startswith(
            "pnp-test-cache-"):
        shutil.rmtree(folder, ignore_errors=True)


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


VOCABULARY = ROOT / "tests" / "fixtures" / "vocabulary"


def copy_vocabulary(tmp_path: Path) -> Path:
    """A copy of the pack that uses every element of the card-design vocabulary, to edit."""
    return Path(shutil.copytree(VOCABULARY, tmp_path / "vocab"))


def copy_datagame(tmp_path: Path, name: str = "emberfall") -> Path:
    """A copy of the small data game of tests/fixtures/datagame, to edit in a test."""
    pack = tmp_path / name
    shutil.copytree(ROOT / "tests" / "fixtures" / "datagame", pack)
    return pack


@pytest.fixture
def make_pack(tmp_path: Path):
    def factory(files: dict[str, str | bytes], game: str = GAME_YAML) -> Path:
        return write_pack(tmp_path / "pack", files, game)

    return factory


def changed_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines an edit took away and the lines it put in (difflib), each with its ending."""
    lines = list(difflib.ndiff(old.splitlines(True), new.splitlines(True)))
    return ([line[2:] for line in lines if line.startswith("- ")],
            [line[2:] for line in lines if line.startswith("+ ")])


def run_pnp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=300)


@pytest.fixture
def slow_schema_checks(monkeypatch) -> list[str]:
    """Count the instances that reach jsonschema, the slow explaining validator (what makes a
    clean validate fast, asserted as work done instead of seconds on a shared machine)."""
    from generator.schema import check as schemacheck

    reached: list[str] = []
    validator, data_validator = schemacheck._validator, schemacheck.data_validator

    def counted_validator(package: str, name: str):
        reached.append(name)
        return validator(package, name)

    def counted_data_validator(schema):
        reached.append("data game kind")
        return data_validator(schema)

    monkeypatch.setattr(schemacheck, "_validator", counted_validator)
    monkeypatch.setattr(schemacheck, "data_validator", counted_data_validator)
    return reached


def doc_rule_rows(doc: Path, prefix: str) -> list[tuple[str, list[str], str]]:
    """(seed cell, check codes, severity cell) of every row of a docs/rules-<game>.md table
    whose fourth column is a severity (E or W)."""
    rows = []
    for line in doc.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[3] in ("E", "W"):
            rows.append((cells[0], re.findall(rf"`({prefix}[a-z0-9-]+)`", cells[2]), cells[3]))
    return rows


def last_covered_line(doc: Path, heading: str, line_ref: str) -> int:
    """The last seed line of a coverage table (``## heading``), after checking that its
    ranges (``| <line_ref>12-30 |``) follow each other from line 1 without gap or overlap."""
    text = doc.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    section = section[:section.index("\n## ", len(heading))]
    covered = 0
    ref = re.escape(line_ref)
    for first, last in re.findall(rf"^\| {ref}(\d+)(?:-(?:{ref})?(\d+))? \|", section, re.M):
        assert int(first) == covered + 1, f"{line_ref}{first} follows {line_ref}{covered}"
        covered = int(last or first)
    return covered


def pdf_images(pdf: Path) -> dict[int, tuple[int, int]]:
    """Every image XObject of the document (inside card-face forms too), by object number."""
    found: dict[int, tuple[int, int]] = {}
    forms: set[int] = set()

    def walk(resources) -> None:
        for ref in ((resources or {}).get("/XObject") or {}).values():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Image":
                found[ref.idnum] = (int(obj["/Width"]), int(obj["/Height"]))
            elif obj["/Subtype"] == "/Form" and ref.idnum not in forms:
                forms.add(ref.idnum)
                walk(obj.get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return found
