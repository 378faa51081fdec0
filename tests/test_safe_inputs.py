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


def _findings(pack: Path, *extra: str) -> list[dict]:
    result = run_limited("validate", str(pack), "--format", "json", *extra, timeout=120)
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


@pytest.mark.parametrize("depth", [64, 1_000_000])  # under the sheet's root: 65 deep and more
def test_elements_nested_deeper_than_a_sheet_are_refused_before_a_reader(rockpool, depth):
    """9 million nested tags in a 67 KB workbook took 2.5 GiB and printed the cards (exit 0);
    64 levels is ten times what a sheet needs."""
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    nest = b"<x>" * depth + b"</x>" * depth
    _replace_part(book, "xl/worksheets/sheet1.xml",
                  lambda xml: xml.replace(b"</sheetData>", b"</sheetData>" + nest))
    assert book.stat().st_size < 100_000  # a small file
    [found] = [f for f in _findings(rockpool) if f["code"] == "xlsx-too-deep"]
    assert found["file"].endswith("more.xlsx") and "sheet1.xml" in found["message"]


def test_a_workbook_nested_as_deep_as_the_limit_is_read(rockpool):
    """The legal twin: 64 levels in all (the sheet's root and 63 more) read without a finding
    of nesting."""
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    nest = b"<x>" * 63 + b"</x>" * 63
    _replace_part(book, "xl/worksheets/sheet1.xml",
                  lambda xml: xml.replace(b"</sheetData>", b"</sheetData>" + nest))
    result = run_limited("validate", str(rockpool), "--format", "json", timeout=120)
    codes = {f["code"] for f in json.loads(result.stdout)["findings"]}
    assert "xlsx-too-deep" not in codes and "bad-spreadsheet" not in codes


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


# --- PO catalogs: read in their declared charset, checked against their bytes -----------------

def _german(pack: Path, declared: str, encoding: str = "latin-1") -> Path:
    po = pack / "locales" / "de.po"
    text = po.read_text(encoding="utf-8").replace("charset=UTF-8", f"charset={declared}")
    po.write_bytes(text.encode(encoding, "replace"))
    return po


def _run(*args: str):
    result = run_limited(*args, timeout=120)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, \
        result.stderr
    return result


def test_a_latin1_catalog_declared_as_another_charset_is_refused_not_printed(rockpool,
                                                                            tmp_path):
    """Read as ISO-8859-5 the German letters come out Cyrillic: it printed that with exit 0,
    and i18n update saved the garbled text as UTF-8."""
    po = _german(rockpool, "ISO-8859-5")
    before = po.read_bytes()
    [found] = [f for f in _findings(rockpool, "--locale", "de")
               if f["code"] == "po-charset-mismatch"]
    assert found["file"].endswith("de.po") and found["line"] > 1
    assert "no de text uses" in found["message"]
    result = _run("build", str(rockpool), "--locale", "de", "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and not (tmp_path / "out").exists()
    result = _run("i18n", "update", str(rockpool), "--locale", "de")
    assert result.returncode == 1 and po.read_bytes() == before  # never rewritten


def test_a_latin1_catalog_that_says_so_is_read(rockpool, tmp_path):
    _german(rockpool, "ISO-8859-1")
    assert [f for f in _findings_any(rockpool) if f["code"].startswith("po-")] == []


def _findings_any(pack: Path) -> list[dict]:
    result = _run("validate", str(pack), "--format", "json", "--locale", "de")
    return json.loads(result.stdout)["findings"]


@pytest.mark.parametrize("declared", ["base64", "rot13", "UTF-7", "UTF-16", "BOGUS", "zlib"])
def test_a_charset_that_is_no_text_encoding_is_a_finding(rockpool, declared):
    _german(rockpool, declared, "utf-8")
    for command in (["validate", str(rockpool), "--locale", "de"],
                    ["i18n", "status", str(rockpool)],
                    ["i18n", "update", str(rockpool), "--locale", "de"]):
        result = _run(*command)
        assert result.returncode == 1, (command, result.stderr)
        assert "error[po-charset]" in result.stdout + result.stderr


def test_a_message_written_twice_is_a_finding_not_a_silent_winner(rockpool):
    po = rockpool / "locales" / "de.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text + '\nmsgctxt "acorn-barnacle.name"\nmsgid "Acorn Barnacle"\n'
                  'msgstr "Falsche Seepocke"\n', encoding="utf-8")
    line = text.count("\n") + 2
    [found] = [f for f in _findings(rockpool, "--locale", "de") if f["code"] == "po-duplicate"]
    assert (found["file"].endswith("de.po"), found["line"]) == (True, line)
    result = _run("i18n", "status", str(rockpool))
    assert result.returncode == 1 and "100.9" not in result.stdout and "-1 missing" not in \
        result.stdout


def test_fuzzy_matching_over_a_hundred_thousand_obsolete_entries_is_bounded(monkeypatch):
    """Every new text was compared with every old translation: 100,000 obsolete entries made
    i18n update take minutes. The work is counted, not timed."""
    import polib

    from generator.core import limits
    from generator.i18n import pomerge

    work = []
    real = pomerge.similarity

    def counted(a: str, b: str) -> float:
        work.append(pomerge.comparison_work(len(a.encode()), len(b.encode())))
        return real(a, b)

    monkeypatch.setattr(pomerge, "similarity", counted)
    old = [polib.POEntry(msgid=f"The ship number {i} fires twice", msgstr=f"Schiff {i}",
                         obsolete=True) for i in range(100_000)]
    new = [polib.POEntry(msgid=f"The boat number {i} fires once", msgstr="")
           for i in range(50)]
    merged = pomerge.merge_entries(old, new)
    assert sum(work) <= limits.MAX_FUZZY_WORK
    assert len(work) > 100_000  # short texts: many comparisons still fit
    assert "fuzzy" in merged[0].flags  # the first new texts were still matched


def test_fuzzy_matching_counts_long_texts_for_what_they_cost(monkeypatch):
    """10,000 old translations of 740 characters against 40 new texts stayed under the count
    of comparisons and took 8.8 s of CPU; counted in bytes walked they stop at the budget."""
    import polib

    from generator.core import limits
    from generator.i18n import pomerge

    calls = []
    real = pomerge.similarity
    monkeypatch.setattr(pomerge, "similarity", lambda a, b: calls.append(1) or real(a, b))
    words = "the fleet sails at dawn and fires at the enemy line "
    old = [polib.POEntry(msgid=f"{i} " + words * 14, msgstr=f"Flotte {i}", obsolete=True)
           for i in range(9_999)]
    new = [polib.POEntry(msgid=f"new {i} " + words * 14, msgstr="") for i in range(40)]
    pomerge.merge_entries(old, new)
    each = pomerge.comparison_work(len(new[0].msgid), len(old[0].msgid))
    assert 700 < len(new[0].msgid) < 800
    assert len(calls) * each <= limits.MAX_FUZZY_WORK + each
    assert len(calls) < 20_000  # the count alone let 150,000 through


# --- decks and a built-in game's base pack --------------------------------------------------

@pytest.mark.parametrize(("text", "code", "line"), [
    ("cards: [\n  {card: nope\n", "yaml-syntax", 3),
    ("name: x\ncards:\n  - {card: 12, count: 2}\n", "wrong-type", 3),
    ("- just a list\n", "not-a-mapping", 1),
])
def test_a_broken_deck_file_is_a_finding_at_validate_and_build(rockpool, tmp_path, text, code,
                                                               line):
    (rockpool / "decks" / "side.yaml").write_text(text, encoding="utf-8")
    [found] = [f for f in _findings(rockpool) if f["code"] == code]
    assert (Path(found["file"]).name, found["line"]) == ("side.yaml", line)
    result = _run("build", str(rockpool), "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == 1 and f"side.yaml:{line}" in result.stdout + result.stderr


def test_an_unreadable_deck_file_is_a_finding(rockpool, monkeypatch):
    from generator.load import packfiles
    from generator.pipeline.validate import validate

    real = packfiles.os.open

    def refuse(path, *args, **kwargs):
        if str(path).endswith("first-game.yaml"):
            raise PermissionError(13, "Permission denied")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(packfiles.os, "open", refuse)
    found = [f for f in validate(rockpool).findings if f.code == "unreadable"]
    assert [Path(f.location.file).name for f in found] == ["first-game.yaml"]


def test_a_builtin_games_base_pack_without_one_of_its_card_files_is_a_finding(tmp_path):
    pack = Path(shutil.copytree(ROOT / "cards" / "cwnb", tmp_path / "cwnb"))
    (pack / "ships.yaml").unlink()  # no rule of the game counts ships: it validated clean
    [found] = [f for f in _findings(pack) if f["code"] == "missing-card-kind"]
    assert (Path(found["file"]).name, found["line"]) == ("game.yaml", 2)
    assert "no ship card" in found["message"]


# --- stderr carries pnp's own messages only -----------------------------------------------------

def _stderr_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_library_log_lines_do_not_reach_stderr(rockpool, tmp_path):
    """svglib logs what it cannot parse ("Unable to parse transform expression ..."), openpyxl
    warns of a workbook without styles: pnp's own findings already say what matters."""
    (rockpool / "art" / "creatures" / "chiton.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
        '<g transform="rotate(+)"><rect width="10" height="10" stroke-dasharray="1ex"/></g>'
        '<rect width="9" height="9" fill="nonsense-colour"/></svg>', encoding="utf-8")
    book = _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER)
                     + _inline_row(2, TIDE_ROW))
    with zipfile.ZipFile(book) as source:
        parts = {i.filename: source.read(i) for i in source.infolist()
                 if i.filename != "xl/styles.xml"}
    with zipfile.ZipFile(book, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data.replace(b'<Override PartName="/xl/styles.xml" '
                                               b'ContentType="application/vnd.openxmlformats-'
                                               b'officedocument.spreadsheetml.styles+xml"/>',
                                               b""))
    result = _run("build", str(rockpool), "--out", str(tmp_path / "out"), "--locale", "en")
    assert result.returncode == 0, result.stderr
    assert _stderr_lines(result) == [], result.stderr


def test_control_characters_of_the_input_reach_no_terminal(rockpool, tmp_path):
    name = "x\x07\x1b[31m.csv"
    (rockpool / name).write_bytes(b"id,kind\n\x01bad\x00,tide\n")
    result = _run("build", str(rockpool), "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == 1
    for stream in (result.stdout, result.stderr):
        assert not [c for c in stream if ord(c) < 32 and c not in "\n\t"], stream
    assert "x\\x07\\x1b[31m.csv:2:1: error[bad-format]" in result.stderr
    assert "'\\x01bad\\x00'" in result.stderr


def test_a_catalog_of_too_many_obsolete_entries_is_refused_not_rewritten(rockpool):
    """Every update formatted and wrote each obsolete entry again: 100,000 of them took most
    of an update's 4.9 s of CPU."""
    from generator.core import limits

    po = rockpool / "locales" / "de.po"
    text = po.read_text(encoding="utf-8") + "\n"
    first = text.count("\n") + 1
    po.write_text(text + "".join(f'#~ msgid "Old text {i}"\n#~ msgstr "Alt {i}"\n\n'
                                 for i in range(limits.MAX_PO_OBSOLETE + 1)), encoding="utf-8")
    before = po.read_bytes()
    result = _run("i18n", "update", str(rockpool), "--locale", "de")
    assert result.returncode == 1 and po.read_bytes() == before
    assert f"de.po:{first + 3 * limits.MAX_PO_OBSOLETE}:1: error[po-too-large]" in \
        result.stdout + result.stderr
