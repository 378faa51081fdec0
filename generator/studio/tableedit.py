"""Changed cells written into a card table: a CSV file or a sheet of an XLSX workbook.

CSV: the file's text is cut into its records and cells exactly as Python's csv module reads
them (quoted cells may hold commas, quotes and line breaks), and only the text of a changed cell
is replaced; every other cell, row, quote and line ending stays as it was. A value is written as
the reader takes it back (lists joined by ``;``, true/false in the words the cell used before),
quoted only when it must be.

XLSX: openpyxl opens the workbook and sets the changed cells. openpyxl writes the whole file
again, so this module first refuses a workbook whose parts openpyxl would drop (charts, pictures,
shapes, pivot tables, macros) or whose formulas would lose their computed values, and after the
edit every cell of every sheet is compared with the old workbook (values and formulas): the
changed cells must be the only difference. Cell styles, number formats, column widths, row
heights, merged cells, frozen panes, comments, data validation and conditional formatting are
carried over by openpyxl.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Mapping, Sequence

from generator.datagame.tables import LIST_SEPARATOR, column_letter
from generator.load.yamledit import ABSENT, EditRefused

_TRUE_WORDS = {"true": "false", "yes": "no", "y": "n", "1": "0", "x": ""}
#: workbook parts openpyxl does not carry over when it saves
_LOST_PARTS = (("xl/charts/", "charts"), ("xl/drawings/", "pictures or shapes"),
               ("xl/media/", "pictures"), ("xl/pivotTables/", "pivot tables"),
               ("xl/vbaProject", "macros"), ("xl/slicers/", "slicers"))


# --- CSV ------------------------------------------------------------------------------------

def records(text: str, delimiter: str = ",") -> list[tuple[int, int, int]]:
    """Each record of a CSV text as (start, end of its cells, end with its line break), read as
    the csv module reads: a line break inside a quoted cell belongs to the cell. ``delimiter``:
    what separates the cells (the table reader's guess for the file: csv_delimiter)."""
    found: list[tuple[int, int, int]] = []
    start = index = 0
    length = len(text)
    at_cell_start = True
    quoted = False
    while index < length:
        char = text[index]
        if quoted:
            if char == '"':
                if index + 1 < length and text[index + 1] == '"':
                    index += 2
                    continue
                quoted = False
            index += 1
            continue
        if char == '"' and at_cell_start:
            quoted = True
            at_cell_start = False
            index += 1
            continue
        if char in "\r\n":
            end = index
            index += 2 if char == "\r" and index + 1 < length and text[index + 1] == "\n" else 1
            found.append((start, end, index))
            start = index
            at_cell_start = True
            continue
        at_cell_start = char == delimiter
        index += 1
    if start < length:
        found.append((start, length, length))
    return found


def cells(record: str, delimiter: str = ",") -> list[tuple[int, int]]:
    """The spans of a record's raw cells (quotes included)."""
    spans: list[tuple[int, int]] = []
    start = index = 0
    quoted = False
    at_cell_start = True
    while index < len(record):
        char = record[index]
        if quoted:
            if char == '"':
                if index + 1 < len(record) and record[index + 1] == '"':
                    index += 2
                    continue
                quoted = False
        elif char == '"' and at_cell_start:
            quoted = True
        elif char == delimiter:
            spans.append((start, index))
            start = index + 1
            at_cell_start = True
            index += 1
            continue
        at_cell_start = False
        index += 1
    spans.append((start, len(record)))
    return spans


def _unquoted(raw: str) -> str:
    if len(raw) >= 2 and raw.startswith('"') and raw.endswith('"'):
        return raw[1:-1].replace('""', '"')
    return raw


def cell_value_text(value: object, old: str = "") -> str:
    """A value as the text of its cell, as the table reader reads it back."""
    if isinstance(value, bool):
        word = old.strip().lower()
        if word in _TRUE_WORDS:
            return word if value else _TRUE_WORDS[word]
        if word in _TRUE_WORDS.values() and word:
            truth = next(t for t, f in _TRUE_WORDS.items() if f == word)
            return truth if value else word
        return "true" if value else "false"
    if isinstance(value, list):
        return LIST_SEPARATOR.join(cell_value_text(item) for item in value)
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


def quoted_cell(text: str, delimiter: str = ",") -> str:
    """CSV's minimal quoting: only a cell holding the delimiter, a quote or a line break."""
    if any(ch in text for ch in f'{delimiter}"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def edit_csv(text: str, row: int, changes: Mapping[int, object], delimiter: str = ",") -> str:
    """``text`` with the cells of spreadsheet row ``row`` (the header is row 1) at the given
    1-based columns replaced (``ABSENT`` empties a cell)."""
    found = records(text, delimiter)
    if not 1 <= row <= len(found):
        raise EditRefused(f"row {row} is not in the table any more")
    start, end, _ = found[row - 1]
    record = text[start:end]
    spans = cells(record, delimiter)
    pieces = [record[a:b] for a, b in spans]
    for column, value in sorted(changes.items()):
        if column > len(pieces):
            raise EditRefused(f"row {row} has no column {column_letter(column)}")
        old = _unquoted(pieces[column - 1])
        pieces[column - 1] = "" if value is ABSENT else quoted_cell(cell_value_text(value, old),
                                                                    delimiter)
    return text[:start] + delimiter.join(pieces) + text[end:]


def csv_newline(text: str, delimiter: str = ",") -> str:
    found = records(text, delimiter)
    if found:
        _, end, after = found[0]
        if after > end:
            return text[end:after]
    return "\n"


def insert_csv_row(text: str, after_row: int, values: Sequence[str], delimiter: str = ",") -> str:
    """``text`` with a new record of already written cell texts after row ``after_row``."""
    found = records(text, delimiter)
    newline = csv_newline(text, delimiter)
    record = delimiter.join(values)
    if after_row >= len(found):
        if text and not text.endswith(("\n", "\r")):
            return text + newline + record + newline
        return text + record + newline
    _, _, after = found[after_row - 1]
    if after == found[after_row - 1][1]:  # the last record, without its line break
        return text[:after] + newline + record + text[after:]
    return text[:after] + record + newline + text[after:]


def csv_row_cells(text: str, row: int, delimiter: str = ",") -> list[str]:
    """The raw cell texts (quotes included) of row ``row``."""
    found = records(text, delimiter)
    start, end, _ = found[row - 1]
    record = text[start:end]
    return [record[a:b] for a, b in cells(record, delimiter)]


def header(text: str, delimiter: str = ",") -> list[str]:
    """The field names of row 1."""
    found = records(text, delimiter)
    if not found:
        return []
    start, end, _ = found[0]
    record = text[start:end]
    return [_unquoted(record[a:b]).strip() for a, b in cells(record, delimiter)]


# --- XLSX -----------------------------------------------------------------------------------

def _refuse_lossy(raw: bytes) -> None:
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        names = archive.namelist()
    for prefix, what in _LOST_PARTS:
        if any(name.startswith(prefix) for name in names):
            raise EditRefused(f"the workbook holds {what}, which saving it from pnp would "
                              "drop; edit it in your spreadsheet program")


def _all_cells(raw: bytes, data_only: bool) -> dict[tuple[str, int, int], object]:
    from openpyxl import load_workbook  # (when a workbook is edited: most packs have none)

    workbook = load_workbook(io.BytesIO(raw), read_only=True, data_only=data_only)
    try:
        found: dict[tuple[str, int, int], object] = {}
        for sheet in workbook.worksheets:
            sheet.reset_dimensions()
            for row_number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
                for column, value in enumerate(row, start=1):
                    if value is not None:
                        found[(sheet.title, row_number, column)] = value
        return found
    finally:
        workbook.close()


def _formulas(cells_written: Mapping[tuple[str, int, int], object]) -> bool:
    return any(isinstance(v, str) and v.startswith("=") for v in cells_written.values())


def _cell_value(value: object) -> object:
    if isinstance(value, list):
        return LIST_SEPARATOR.join(str(cell_value_text(item)) for item in value)
    return value


def edit_xlsx(raw: bytes, sheet: str, edits: Mapping[tuple[int, int], object],
              new_header: Mapping[int, str] | None = None) -> bytes:
    """The workbook with the given (row, column) cells of ``sheet`` set (``ABSENT`` empties
    one), and header cells named in ``new_header``; refused when more would change."""
    from openpyxl import load_workbook  # (when a workbook is edited: most packs have none)

    _refuse_lossy(raw)
    before = _all_cells(raw, data_only=False)
    if _formulas(before):
        raise EditRefused("the workbook has formulas; saving it from pnp would drop their "
                          "computed values: edit it in your spreadsheet program")
    workbook = load_workbook(io.BytesIO(raw))
    if sheet not in workbook.sheetnames:
        raise EditRefused(f"the workbook has no sheet '{sheet}' any more")
    worksheet = workbook[sheet]
    expected = dict(before)
    for column, name in (new_header or {}).items():
        worksheet.cell(1, column).value = name
        expected[(sheet, 1, column)] = name
    for (row, column), value in edits.items():
        written = None if value is ABSENT else _cell_value(value)
        worksheet.cell(row, column).value = written
        if written is None:
            expected.pop((sheet, row, column), None)
        else:
            expected[(sheet, row, column)] = written
    out = io.BytesIO()
    workbook.save(out)
    data = out.getvalue()
    after = _all_cells(data, data_only=False)
    if _differences(after, expected):
        raise EditRefused("openpyxl would change more cells of the workbook than the edited "
                          "ones: " + ", ".join(_differences(after, expected)[:5]))
    return data


def _differences(after: Mapping[tuple[str, int, int], object],
                 expected: Mapping[tuple[str, int, int], object]) -> list[str]:
    wrong = [key for key in set(after) | set(expected)
             if not _same_cell(after.get(key), expected.get(key))]
    return [f"{sheet}!{column_letter(column)}{row}" for sheet, row, column in sorted(wrong)]


def _same_cell(one: object, other: object) -> bool:
    if isinstance(one, int | float) and isinstance(other, int | float) \
            and not isinstance(one, bool) and not isinstance(other, bool):
        return float(one) == float(other)
    return one == other


def last_row(raw: bytes, sheet: str) -> int:
    """The last row of ``sheet`` holding a value."""
    rows = [row for (name, row, _) in _all_cells(raw, data_only=True) if name == sheet]
    return max(rows, default=1)


def iter_rows(text: str, delimiter: str = ",") -> Iterator[list[str]]:
    """Every record's unquoted cells (for tests and for finding a row by its id)."""
    for start, end, _ in records(text, delimiter):
        record = text[start:end]
        yield [_unquoted(record[a:b]) for a, b in cells(record, delimiter)] if record else []
