"""Every input is bounded before a parser sees it, and read as what it says it is (issue 24):
workbook XML, decks, a built-in game's card files.

The cost of each attack before and after is in docs/limits.md (measured with whole pnp
processes); these tests check the finding that comes out instead, by code and place.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT
from test_hostile import (
    TIDE_HEADER,
    TIDE_ROW,
    _inline_row,
    _workbook,
    assert_clean_exit,
    run_limited,
)


@pytest.fixture
def rockpool(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))


def _replace_part(path: Path, name: str, edit) -> None:
    with zipfile.ZipFile(path) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    parts[name] = edit(parts.get(name, b""))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for part, data in parts.items():
            target.writestr(part, data)


def _findings(pack: Path) -> list[dict]:
    result = run_limited("validate", str(pack), "--format", "json", timeout=120)
    assert_clean_exit(result, 1)
    return json.loads(result.stdout)["findings"]


# --- XLSX: tokens, shared strings, styles, malformed XML ---------------------------------------

@pytest.mark.parametrize("token", [
    b"<!--" + b"x" * 24_000_000 + b"-->",                    # was: minutes in expat
    b'<row r="3" spans="' + b"1" * 1_000_000 + b'"/>',        # an attribute as long
    b"<?pi " + b"x" * 1_000_000 + b"?>",
])
def test_a_long_token_in_workbook_xml_is_refused_before_expat(rockpool, token):
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    _replace_part(book, "xl/worksheets/sheet1.xml",
                  lambda xml: xml.replace(b"</sheetData>", token + b"</sheetData>"))
    assert book.stat().st_size < 100_000  # a small file
    [found] = [f for f in _findings(rockpool) if f["code"] == "xlsx-token-too-long"]
    assert found["file"].endswith("more.xlsx") and "sheet1.xml" in found["message"]


@pytest.mark.parametrize(("part", "edit", "said"), [
    ("xl/sharedStrings.xml", lambda _: (
        b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
        b'2006/main">' + b"<si><t/></si>" * 200_000 + b"</sst>"), "shares 200,000 strings"),
    ("xl/styles.xml", lambda xml: xml.replace(b"</cellXfs>", b"<xf/>" * 30_000 + b"</cellXfs>"),
     "styles have"),
])
def test_millions_of_shared_strings_or_styles_are_refused(rockpool, part, edit, said):
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    _replace_part(book, part, edit)
    [found] = [f for f in _findings(rockpool) if f["code"] == "table-too-large"]
    assert found["file"].endswith("more.xlsx") and said in found["message"]


@pytest.mark.parametrize(("part", "edit"), [
    ("xl/worksheets/sheet1.xml", lambda xml: xml.replace(b"</sheetData>", b"<row>")),
    ("xl/styles.xml", lambda xml: xml[: len(xml) // 2]),
    ("xl/workbook.xml", lambda xml: b"<workbook"),
])
def test_malformed_workbook_xml_is_a_finding_not_an_internal_error(rockpool, part, edit):
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    _replace_part(book, part, edit)
    [found] = [f for f in _findings(rockpool) if f["code"] == "bad-spreadsheet"]
    assert found["file"].endswith("more.xlsx")
