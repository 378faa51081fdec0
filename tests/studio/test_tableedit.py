"""Changed cells of CSV files and XLSX sheets, and nothing else."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from conftest import ROOT
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill

from generator.studio.tableedit import (
    ABSENT,
    EditRefused,
    cells,
    edit_csv,
    edit_xlsx,
    insert_csv_row,
    iter_rows,
    records,
)

TRICKY = ('id,kind,text,targets\r\n'
          'a,spell,"one, two",creature;legend\r\n'
          'b,spell,"she said ""hi""\nand left",\r\n'
          '\r\n'
          'c,spell,plain "quote" inside,x\r'
          'd,spell,  spaced  ,y')


@pytest.mark.parametrize("text", [
    TRICKY, TRICKY.replace("\r\n", "\n"), TRICKY + "\n", "id\n", "", "a,b\n\n\n",
    (ROOT / "cards" / "rockpool" / "tides.csv").read_text(encoding="utf-8"),
    (ROOT / "tests" / "fixtures" / "emberfall" / "spells.csv").read_text(encoding="utf-8"),
])
def test_records_and_cells_are_what_the_csv_module_reads(text):
    expected = list(csv.reader(io.StringIO(text, newline="")))
    assert list(iter_rows(text)) == expected
    for start, end, after in records(text):
        assert text[end:after] in ("", "\n", "\r", "\r\n")
        assert len(cells(text[start:end])) >= 1


def test_a_changed_cell_is_the_only_change():
    new = edit_csv(TRICKY, 2, {3: "three, four", 4: ["creature"]})
    assert new == TRICKY.replace('a,spell,"one, two",creature;legend',
                                 'a,spell,"three, four",creature')
    new = edit_csv(TRICKY, 3, {3: 'a "b"', 4: ABSENT})
    assert new.splitlines(True)[0] == TRICKY.splitlines(True)[0]
    assert list(iter_rows(new))[2] == ["b", "spell", 'a "b"', ""]
    assert new.endswith("d,spell,  spaced  ,y")  # the rest, line endings and all
    # booleans keep the words the cell used
    table = "id,swift\nx,yes\ny,\n"
    assert edit_csv(table, 2, {2: False}) == "id,swift\nx,no\ny,\n"
    assert edit_csv(table, 3, {2: True}) == "id,swift\nx,yes\ny,true\n"


def test_new_rows_go_after_the_row_named():
    assert insert_csv_row("id\r\na\r\nb\r\n", 2, ["a2"]) == "id\r\na\r\na2\r\nb\r\n"
    assert insert_csv_row("id\na\nb", 3, ["c"]) == "id\na\nb\nc\n"
    assert insert_csv_row("id\na\nb", 2, ["a2"]) == "id\na\na2\nb"
    with pytest.raises(EditRefused):
        edit_csv("id\na\n", 9, {1: "x"})


def _workbook(**extra) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "Legends"
    sheet.append(["id", "kind", "name", "power"])
    sheet.append(["ember-queen", "legend", "Ember Queen", 5])
    sheet.append(["ash-king", "legend", "Ash King", 4])
    sheet["C2"].font = Font(bold=True, color="B3261E")
    sheet["D3"].fill = PatternFill("solid", fgColor="FFF3D1")
    sheet["D3"].number_format = "0.0"
    sheet.column_dimensions["C"].width = 31
    sheet.merge_cells("F1:G1")
    other = book.create_sheet("Notes")
    other["A1"] = "keep me"
    for key, value in extra.items():
        sheet[key] = value
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_workbook_changes_in_the_edited_cells_only_and_keeps_its_formatting():
    data = edit_xlsx(_workbook(), "Legends", {(3, 4): 6, (2, 3): "Ember Empress"},
                     {5: "art"})
    book = load_workbook(io.BytesIO(data))
    sheet = book["Legends"]
    assert [c.value for c in sheet[2]][:4] == ["ember-queen", "legend", "Ember Empress", 5]
    assert sheet["D3"].value == 6 and sheet["E1"].value == "art"
    assert sheet["C2"].font.bold and sheet["C2"].font.color.rgb.endswith("B3261E")
    assert sheet["D3"].fill.fgColor.rgb.endswith("FFF3D1") and sheet["D3"].number_format == "0.0"
    assert sheet.column_dimensions["C"].width == 31
    assert "F1:G1" in {str(r) for r in sheet.merged_cells.ranges}
    assert book["Notes"]["A1"].value == "keep me"


def test_a_workbook_pnp_would_damage_is_refused():
    with pytest.raises(EditRefused, match="formulas"):
        edit_xlsx(_workbook(H2="=D2*2"), "Legends", {(2, 4): 1})
    raw = io.BytesIO(_workbook())
    with zipfile.ZipFile(raw, "a") as archive:
        archive.writestr("xl/media/image1.png", b"\x89PNG")
    with pytest.raises(EditRefused, match="pictures"):
        edit_xlsx(raw.getvalue(), "Legends", {(2, 4): 1})
    with pytest.raises(EditRefused, match="no sheet"):
        edit_xlsx(_workbook(), "Gone", {(2, 4): 1})
