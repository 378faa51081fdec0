"""Card files as tables: CSV (``*.csv``) and spreadsheets (``*.xlsx``, and LibreOffice's own
``*.ods``; one card file per sheet).

A table becomes the same located document a YAML card file is, so the schema checks and every
later finding work unchanged: each cell is located as ``file:row:column`` with rows numbered as
a spreadsheet shows them (the header is row 1) and columns counted from 1 (A = 1); a sheet is
named in the file part, ``cards.xlsx[Creatures]:3:2``.

The header row names the fields; each further row is one card. Cells are typed by the kind's
schema (whole numbers, numbers, true/false, lists with ``;`` between items); an empty cell
leaves the field out. A cell that does not read as its type stays text, so the schema check
reports it in its usual words at the cell. Merged cells in the cards' rows are a finding at the
merged cell (its value belongs to its first row only, and the rows it covers would seem to lack
the field).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import warnings
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec import Struct

from generator.core.findings import Finding, did_you_mean, error, warning
from generator.core.limits import (
    MAX_STRING_CHARS,
    MAX_TABLE_CELLS,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
)
from generator.core.location import Location
from generator.datagame.cards import IMPLIED_FIELDS
from generator.datagame.workbookbounds import workbook_problem
from generator.load.yamldoc import YamlDocument

TABLE_SUFFIXES = frozenset({".csv", ".xlsx", ".ods"})
LIST_SEPARATOR = ";"
_INTEGER = re.compile(r"[+-]?\d+")
_TRUE = frozenset({"true", "yes", "y", "1", "x"})
_FALSE = frozenset({"false", "no", "n", "0"})


def column_letter(column: int) -> str:
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _typed(text: str, schema: Mapping[str, Any] | None) -> object:
    """A cell's text as the value its field's schema asks for (text when it does not read)."""
    if schema is None:
        return text
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "array" in kinds:
        items = schema.get("items") if isinstance(schema.get("items"), Mapping) else None
        return [_typed(part.strip(), items) for part in text.split(LIST_SEPARATOR)
                if part.strip()]
    stripped = text.strip()
    if "integer" in kinds and _INTEGER.fullmatch(stripped):
        return int(stripped)
    if "number" in kinds:
        try:
            return float(stripped.replace(",", ".")) if stripped else text
        except ValueError:
            pass
    if "boolean" in kinds and stripped.lower() in _TRUE | _FALSE:
        return stripped.lower() in _TRUE
    return text


class FormulaCell(Struct, frozen=True, gc=False):
    """A spreadsheet formula whose value was never computed (the workbook was written by a
    program, not saved by a spreadsheet application), so there is no value to read."""

    formula: str


class ErrorCell(Struct, frozen=True, gc=False):
    """A spreadsheet cell holding an error value (#DIV/0!, #REF!, #N/A ...)."""

    code: str


class CoveredCell(Struct, frozen=True, gc=False):
    """A cell covered by a merged cell: the merged cell's value belongs to its first row and
    column only (``anchor``, a row and column from 1), so this one holds none."""

    anchor: tuple[int, int]
    ref: str  # the merged range as a spreadsheet names it, e.g. "B3:B4"


_DATE_FORMATS = frozenset({"date", "date-time", "time"})


def _date_text(value: datetime.date | datetime.time) -> str:
    if isinstance(value, datetime.datetime) and value.time() == datetime.time(0):
        return value.date().isoformat()
    return value.isoformat()


def _cell_problem(cell: object, field: str, field_schema: Mapping[str, Any] | None
                  ) -> tuple[bool, str, str] | None:
    """(is an error, code, message) of a spreadsheet cell that is no card data as it is."""
    if isinstance(cell, FormulaCell):
        return True, "formula-not-computed", (
            f"'{field}' is the formula {cell.formula[:60]} with no computed value (the workbook "
            "was never saved by a spreadsheet program); open and save it in one, or type the "
            "value")
    if isinstance(cell, ErrorCell):
        return True, "spreadsheet-error", (
            f"'{field}' holds the spreadsheet error {cell.code} (a formula that fails); fix "
            "the formula or type the value")
    if isinstance(cell, datetime.date | datetime.time) and not (
            field_schema is not None and field_schema.get("format") in _DATE_FORMATS):
        kinds = field_schema.get("type") if field_schema is not None else None
        text = kinds in (None, "string") or (isinstance(kinds, list) and "string" in kinds)
        # as text, a date may be meant (a warning); as a number it cannot be (an error)
        wanted = "text" if text else "a number"
        return not text, "spreadsheet-date", (
            f"'{field}' holds the date {_date_text(cell)}; a spreadsheet turns entries such as "
            f"3/5 or 1-2 into dates: format the column as {wanted} and type the value again")
    return None


def _typed_value(value: object, schema: Mapping[str, Any] | None) -> object:
    """Spreadsheet cells come typed already; whole floats become ints where ints are wanted."""
    if isinstance(value, datetime.date | datetime.time):
        return _typed(_date_text(value), schema)
    if isinstance(value, str):
        return _typed(value, schema)
    if isinstance(value, float) and value.is_integer() and schema is not None:
        kinds = schema.get("type")
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            return int(value)
    if isinstance(value, float | int | bool):
        if schema is not None and schema.get("type") in {"string", "array"}:
            text = str(int(value)) if isinstance(value, float) and value.is_integer() \
                else str(value)
            return _typed(text, schema)
        return value
    return str(value)


class TableSchema:
    """Field schemas of a game's kinds, to type the cells of each row by its kind."""

    def __init__(self, kinds: Mapping[str, Mapping[str, Any]]) -> None:
        self.kinds = kinds
        self.columns = set(IMPLIED_FIELDS)
        for schema in kinds.values():
            self.columns |= set(schema.get("properties", {}))

    def field_schema(self, kind: object, name: str) -> Mapping[str, Any] | None:
        schema = self.kinds.get(str(kind)) if kind is not None else None
        if schema is None:
            return None
        sub = schema.get("properties", {}).get(name)
        return sub if isinstance(sub, Mapping) else None

    @property
    def only_kind(self) -> str | None:
        return next(iter(self.kinds)) if len(self.kinds) == 1 else None


def rows_to_document(file: str, rows: Iterable[Sequence[object]], schema: TableSchema
                     ) -> tuple[YamlDocument | None, list[Finding]]:
    """Header + rows -> a document ``{cards: [...]}`` with every cell located."""
    findings: list[Finding] = []
    merged_reported: set[Location] = set()
    doc = YamlDocument(file=file, data=None)
    doc.values[()] = Location(file, 1, 1)
    iterator = iter(rows)
    header_row = next(iterator, None)
    over = _over_limits(file, 1, list(header_row or ()), 0)
    if over is not None:
        return None, [over]
    if header_row is None or not any(str(c or "").strip() for c in header_row):
        return None, [warning("empty-table", "no header row: this table holds no cards",
                              Location(file, 1, 1))]
    header: list[str | None] = []
    seen: dict[str, int] = {}
    for column, cell in enumerate(header_row, start=1):
        name = str(cell).strip() if cell is not None else ""
        where = Location(file, 1, column)
        if not name:
            header.append(None)
            continue
        if name in seen:
            findings.append(error("duplicate-key", f"column '{name}' appears twice (first in "
                                  f"column {seen[name]})", where))
            header.append(None)
            continue
        seen[name] = column
        if name not in schema.columns:
            findings.append(error("unknown-field", f"unknown column '{name}' (column "
                                  f"{column_letter(column)})"
                                  f"{did_you_mean(name, sorted(schema.columns))}", where))
            header.append(None)
            continue
        header.append(name)
    if "id" not in seen:
        first = next(iter(seen), "")
        for separator, what in ((";", "semicolons"), ("\t", "tabs")):
            if separator in first and "id" in (p.strip() for p in first.split(separator)):
                return None, [error(
                    "table-header", f"row 1 is one column holding {first[:60]!r}: this table "
                    f"separates its columns with {what} (spreadsheet programs do so in some "
                    "languages); save it as CSV with commas (\"CSV UTF-8, comma delimited\")",
                    Location(file, 1, 1))]
        named = ", ".join(f"'{n}'" for n in list(seen)[:3]) or "nothing"
        fields = ", ".join(sorted(schema.columns)[:6])
        # every row would lack its id: one finding here rather than one per row
        return None, [error("table-header", f"row 1 must name the fields, one per column "
                            f"({fields}, ...), among them 'id'; it holds {named}",
                            Location(file, 1, 1))]
    width = len(header_row)
    unnamed: dict[int, tuple[int, object]] = {}  # column -> first row holding a value
    cards: list[dict[str, object]] = []
    filled = _filled(header_row)
    for row_number, row in enumerate(iterator, start=2):
        cells = list(row)
        filled += _filled(cells)
        over = _over_limits(file, row_number, cells, filled)
        if over is not None:  # the rest of the table is not read
            findings.append(over)
            break
        while cells and (cells[-1] is None or cells[-1] == "") and len(cells) > width:
            cells.pop()
        if not any(str(c).strip() for c in cells if c is not None):
            continue
        if len(cells) != width:
            column = min(len(cells), width) + 1
            findings.append(error("ragged-row", f"row {row_number} has {len(cells)} cells; "
                                  f"the header has {width}", Location(file, row_number,
                                                                      column)))
            continue
        index = len(cards)
        card: dict[str, object] = {}
        path = ("cards", index)
        doc.values[path] = Location(file, row_number, 1)
        kind_column = seen.get("kind")
        kind = cells[kind_column - 1] if kind_column else schema.only_kind
        if isinstance(kind, CoveredCell):
            kind = None  # (said at the merged cell)
        if kind is None and schema.only_kind is not None:
            kind = schema.only_kind
        for column, (name, cell) in enumerate(zip(header, cells, strict=True), start=1):
            if cell is None or (isinstance(cell, str) and not cell.strip()):
                continue
            if name is None:
                if not str(header_row[column - 1] or "").strip():
                    unnamed.setdefault(column, (row_number, cell))
                continue
            where = Location(file, row_number, column)
            if isinstance(cell, CoveredCell):
                where = _merged(file, cell, name, row_number, findings, merged_reported,
                                card_id(cells, seen))
            doc.values[(*path, name)] = where  # also for a refused cell: see schemacheck
            doc.keys[(*path, name)] = where
            if isinstance(cell, CoveredCell):
                continue
            problem = _cell_problem(cell, name, schema.field_schema(kind, name))
            if problem is not None:
                is_error, code, message = problem
                findings.append((error if is_error else warning)(code, message, where,
                                                                 card_id(cells, seen)))
                if is_error:
                    continue
            card[name] = cell.strip() if name in {"id", "kind"} and isinstance(cell, str) \
                else _typed_value(cell, schema.field_schema(kind, name))
        if "kind" not in card and kind is not None:
            card["kind"] = str(kind)
        cards.append(card)
    for column, (row_number, cell) in unnamed.items():
        findings.append(error(
            "unnamed-column", f"column {column_letter(column)} has no field name in row 1, but "
            f"row {row_number} holds {str(cell)[:40]!r} there; name the column (a merged "
            "header cell names its first column only)", Location(file, 1, column)))
    doc.data = {"cards": cards}
    return doc, findings


def _merged(file: str, cell: CoveredCell, name: str, row_number: int,
            findings: list[Finding], reported: set[Location], card: str | None) -> Location:
    """The merged cell that covers a card's cell: one finding at it (for all the cells it
    covers; ``reported`` holds the merged cells told of), which is where the card's field is
    then said to be, so the card is not also said to lack the field."""
    where = Location(file, *cell.anchor)
    if where not in reported:
        reported.add(where)
        findings.append(error(
            "merged-cells", f"cells {cell.ref} are merged: a merged cell's value belongs to "
            f"its first row and column only, so row {row_number} has no '{name}' (nor any "
            "other row it covers); unmerge the cells and fill in the value on every row",
            where, card))
    return where


def _covered(rows: list[list[object]], ranges: Iterable[tuple[tuple[int, int],
                                                               tuple[int, int]]]
             ) -> list[list[object]]:
    """``rows`` with the cells that merged ranges cover (0-based corners, first and last)
    marked :class:`CoveredCell`; in the header row they stay empty (a merged header cell
    names its first column only, which the header check says)."""
    width = max(map(len, rows), default=0)  # (a range may name the sheet's last column)
    for (top, left), (bottom, right) in ranges:
        ref = (f"{column_letter(left + 1)}{top + 1}:{column_letter(right + 1)}{bottom + 1}")
        for row in range(top, min(bottom, len(rows) - 1) + 1):
            cells = rows[row]
            for column in range(left, min(right, width - 1) + 1):
                if (row, column) == (top, left):
                    continue
                cells.extend([None] * (column + 1 - len(cells)))
                cells[column] = None if row == 0 else CoveredCell((top + 1, left + 1), ref)
    return rows


def _filled(cells: Sequence[object]) -> int:
    """Cells holding a value (counted in C: a row may be thousands of cells wide)."""
    return len(cells) - cells.count(None) - cells.count("")


def _over_limits(file: str, row_number: int, cells: Sequence[object], filled: int
                 ) -> Finding | None:
    """The first ceiling of :mod:`generator.core.limits` this row breaks, located at its cell: the
    rows and columns of a table, the cells with a value so far, the length of a cell's text."""
    if row_number > MAX_TABLE_ROWS:
        return error("table-too-large", f"more than {MAX_TABLE_ROWS} rows; the rest of the "
                     "table was not read", Location(file, row_number, 1))
    if len(cells) > MAX_TABLE_COLUMNS:
        return error("table-too-large", f"this row has more than {MAX_TABLE_COLUMNS} "
                     "columns", Location(file, row_number, MAX_TABLE_COLUMNS + 1))
    if filled > MAX_TABLE_CELLS:
        return error("table-too-large", f"the table holds more than {MAX_TABLE_CELLS} cells "
                     "with a value by this row; the rest was not read",
                     Location(file, row_number, 1))
    for column, cell in enumerate(cells, start=1):
        if isinstance(cell, str) and len(cell) > MAX_STRING_CHARS:
            return error("string-too-long", f"this cell is {len(cell)} characters long; the "
                         f"limit is {MAX_STRING_CHARS}", Location(file, row_number, column))
    return None


def card_id(cells: Sequence[object], seen: Mapping[str, int]) -> str | None:
    column = seen.get("id")
    value = cells[column - 1] if column and column <= len(cells) else None
    return str(value).strip() if isinstance(value, str) and value.strip() else None


def _decode(file: str, raw: bytes) -> tuple[str | None, Finding | None]:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        return None, error("not-utf8", f"row {line} is not UTF-8 (byte 0x{raw[exc.start]:02x});"
                           " save the table as CSV UTF-8", Location(file, line, 1))


def load_csv(raw: bytes, file: str, schema: TableSchema
             ) -> tuple[list[YamlDocument], list[Finding]]:
    """A CSV table's bytes (read, within its size limit, by generator.load.packfiles)."""
    text, problem = _decode(file, raw)
    if problem is not None:
        return [], [problem]
    assert text is not None
    delimiter = csv_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    rows: list[list[str]] = []
    try:
        for row in reader:
            rows.append(row)
    except csv.Error as exc:
        line = max(reader.line_num, 1)  # the line the reader stopped on
        return [], [error("bad-csv", f"row {line} cannot be read as CSV: "
                          f"{_csv_problem(str(exc), delimiter)}", Location(file, line, 1))]
    doc, findings = rows_to_document(file, rows, schema)
    return ([doc] if doc is not None else []), findings


#: the column separators a CSV table may use: spreadsheet programs write semicolons (or tabs)
#: where the decimal mark is a comma
CSV_DELIMITERS = (",", ";", "\t")


def csv_delimiter(text: str) -> str:
    """The column separator of a CSV table: the one that makes its header row name the 'id'
    field (quoted or not), a comma when none does (the header check then says what is
    wrong)."""
    header = text.split("\n", 1)[0]
    for delimiter in CSV_DELIMITERS:
        try:
            names = next(csv.reader([header], delimiter=delimiter), [])
        except csv.Error:
            continue
        if "id" in (name.strip() for name in names):
            return delimiter
    return ","


def _csv_problem(message: str, delimiter: str) -> str:
    """The csv module's complaint in a table author's words."""
    shown = {",": "a comma", ";": "a semicolon", "\t": "a tab"}[delimiter]
    if "expected after" in message:
        return (f"a quoted text must end where its cell does, before {shown} or the end of the "
                "line; write a quote inside a quoted text twice (\"\")")
    if "unexpected end of data" in message or "EOF" in message:
        return "a quoted text is never closed: a quote (\") is missing at its end"
    if "new-line character" in message:
        return "a line break stands inside a cell that is not quoted; put the cell in quotes"
    if "NUL" in message:
        return "it holds a NUL character: save the table again as CSV UTF-8"
    if "field larger" in message:
        return "a cell is longer than the CSV reader takes"
    return "the table's quoting is broken here"


def load_xlsx(raw: bytes, file: str, schema: TableSchema
              ) -> tuple[list[YamlDocument], list[Finding]]:
    """Each sheet of a workbook (its bytes, read by generator.load.packfiles) is a card file."""
    from openpyxl import load_workbook

    workbooks = []
    try:
        formulas, problem = workbook_problem(raw, file)
        if problem is not None:
            return [], [problem]
        workbooks.append(load_workbook(io.BytesIO(raw), read_only=True, data_only=True))
        if formulas:
            # the same cells as written: a formula whose value no spreadsheet has computed
            # reads as empty above, and only its formula tells it from an empty cell
            workbooks.append(load_workbook(io.BytesIO(raw), read_only=True, data_only=False))
    except _UNREADABLE as exc:
        for workbook in workbooks:
            workbook.close()
        return [], [error("bad-spreadsheet", f"not a readable .xlsx workbook "
                          f"({type(exc).__name__})", Location(file))]
    documents: list[YamlDocument] = []
    findings: list[Finding] = []
    workbook = workbooks[0]
    try:
        written_sheets = workbooks[1].worksheets if formulas else [None] * len(
            workbook.worksheets)
        merged = xlsx_merged(raw)
        for sheet, written in zip(workbook.worksheets, written_sheets, strict=True):
            name = f"{file}[{sheet.title}]"
            rows: Iterable[list[object]] = _sheet_rows(sheet, written)
            if merged.get(sheet.title):
                rows = _covered(list(rows), merged[sheet.title])
            doc, problems = rows_to_document(name, rows, schema)
            findings += problems
            if doc is not None:
                documents.append(doc)
    except _UNREADABLE as exc:
        findings.append(error("bad-spreadsheet", f"cannot read the workbook "
                              f"({type(exc).__name__})", Location(file)))
    finally:
        for opened in workbooks:
            opened.close()
    return documents, findings


#: what openpyxl raises on a damaged workbook: zip errors (OSError, BadZipFile), malformed XML
#: (ElementTree's ParseError is a SyntaxError), parts missing or of the wrong shape
_UNREADABLE = (OSError, EOFError, SyntaxError, LookupError, ValueError, TypeError,
               AttributeError, ArithmeticError, zipfile.BadZipFile, zipfile.LargeZipFile)


def _sheet_rows(sheet: Any, written: Any | None) -> Iterable[list[object]]:
    """A sheet's rows as values; error values and uncomputed formulas become marker cells.
    The dimension a sheet declares is ignored (a hostile ``A1:ZZZ1048576`` would pad every
    row to 18,278 cells): a row is as wide as its last written cell, or the header."""
    from itertools import zip_longest

    sheet.reset_dimensions()
    formulas: Iterable[tuple[object, ...]] = ()
    if written is not None:
        written.reset_dimensions()
        formulas = written.iter_rows(values_only=True)
    width = None  # the header's: a shorter row has empty cells at its end, as shown
    for cells, raw in zip_longest(sheet.iter_rows(), formulas, fillvalue=()):
        if len(cells) > MAX_TABLE_COLUMNS:
            yield [getattr(cell, "value", None) for cell in cells]  # refused as too wide
            return
        width = len(cells) if width is None else width
        row: list[object] = []
        for index, cell in enumerate(cells):
            value = cell.value
            formula = raw[index] if index < len(raw) else None
            formula = getattr(formula, "text", formula)  # an array formula
            if getattr(cell, "data_type", None) == "e" and value is not None:
                value = ErrorCell(str(value))
            elif value is None and isinstance(formula, str) and formula.startswith("="):
                value = FormulaCell(formula)
            row.append(value)
        row.extend([None] * (width - len(row)))  # nothing when the row is as wide or wider
        yield row


_ODF_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODF_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_ODF_CALCEXT = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}"
_ODF_CELLS = frozenset({f"{_ODF_TABLE}table-cell", f"{_ODF_TABLE}covered-table-cell"})
#: cells of a sheet's grid from A1 to its last value (what calamine hands over as lists)
MAX_ODS_GRID = 2_000_000

Span = tuple[tuple[int, int], tuple[int, int]]  # first and last cell, 0-based (row, column)


class _OdsSheet(Struct):
    """What an .ods sheet's XML says besides its values: its merged cells, its error cells,
    and how far its values reach (repeats counted, never expanded)."""

    merged: list[Span]
    errors: dict[tuple[int, int], str]
    cells: int = 0
    rows: int = 0  # rows up to the last one holding a value
    columns: int = 0  # columns up to the last one holding a value


def _ods_sheets(content: Any) -> dict[str, _OdsSheet]:
    """The sheets of an .ods ``content.xml`` (a binary stream), walked once as a stream: rows
    and cells are counted with their repeats (LibreOffice ends a sheet with a million empty
    rows written once), so nothing is ever expanded."""
    from xml.etree.ElementTree import iterparse

    sheets: dict[str, _OdsSheet] = {}
    sheet: _OdsSheet | None = None
    depth = row = column = 0
    row_repeat = 1
    for event, element in iterparse(content, events=("start", "end")):
        tag = element.tag
        if tag == f"{_ODF_TABLE}table":
            depth += 1 if event == "start" else -1
            if event == "start" and depth == 1:
                sheet = sheets[element.get(f"{_ODF_TABLE}name", "")] = _OdsSheet([], {})
                row = 0
            continue
        if depth != 1 or sheet is None:
            continue
        if tag == f"{_ODF_TABLE}table-row":
            if event == "start":
                row_repeat, column = _count(element, "number-rows-repeated"), 0
            else:
                row += row_repeat
                element.clear()
            continue
        if event != "end" or tag not in _ODF_CELLS:
            continue
        repeat = _count(element, "number-columns-repeated")
        if element.get(f"{_ODF_OFFICE}value-type") is not None or "".join(element.itertext()):
            sheet.cells += repeat * row_repeat
            sheet.rows = max(sheet.rows, row + row_repeat)
            sheet.columns = max(sheet.columns, column + repeat)
        down, across = (_count(element, "number-rows-spanned"),
                        _count(element, "number-columns-spanned"))
        if down > 1 or across > 1:
            sheet.merged.append(((row, column), (row + down - 1, column + across - 1)))
        if element.get(f"{_ODF_CALCEXT}value-type") == "error":
            sheet.errors[(row, column)] = " ".join("".join(element.itertext()).split())
        column += repeat
        element.clear()
    return sheets


def _count(element: Any, name: str) -> int:
    """An ODF count attribute (repeats, spans): 1 when absent or not a number."""
    text = element.get(f"{_ODF_TABLE}{name}", "1")
    return int(text) if text.isdigit() and len(text) < 10 else 1


def load_ods(raw: bytes, file: str, schema: TableSchema
             ) -> tuple[list[YamlDocument], list[Finding]]:
    """Each sheet of an OpenDocument spreadsheet (LibreOffice's own format) is a card file.

    calamine reads the cells' values; the sheets' XML is first walked once for what calamine
    does not say (merged cells, error values, how far the values reach), so that an oversized
    sheet is refused before any grid is built."""
    from xml.etree.ElementTree import ParseError

    from python_calamine import CalamineError, CalamineWorkbook  # (when an .ods is read)

    try:
        _, problem = workbook_problem(raw, file)
        if problem is not None:
            return [], [problem]
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            with archive.open("content.xml") as xml:
                if b"<!DOCTYPE" in xml.read(4096):
                    raise ValueError("a document type declaration")
            with archive.open("content.xml") as xml:
                sheets = _ods_sheets(xml)
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(raw))
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, ValueError,
            ParseError, CalamineError) as exc:
        return [], [error("bad-spreadsheet", f"not a readable .ods spreadsheet "
                          f"({type(exc).__name__})", Location(file))]
    documents: list[YamlDocument] = []
    findings: list[Finding] = []
    for name in workbook.sheet_names:
        shown = f"{file}[{name}]"
        found = sheets.get(name, _OdsSheet([], {}))
        if found.cells > MAX_TABLE_CELLS or found.columns > MAX_TABLE_COLUMNS or \
                found.rows > MAX_TABLE_ROWS or found.rows * found.columns > MAX_ODS_GRID:
            findings.append(error("table-too-large", f"this sheet's values reach row "
                                  f"{found.rows} and column {column_letter(found.columns)} "
                                  f"({found.cells} cells); the limits are {MAX_TABLE_ROWS} "
                                  f"rows, {MAX_TABLE_COLUMNS} columns and {MAX_TABLE_CELLS} "
                                  "cells", Location(shown, 1, 1)))
            continue
        try:
            grid = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False)
        except CalamineError as exc:
            findings.append(error("bad-spreadsheet", f"cannot read this sheet "
                                  f"({type(exc).__name__})", Location(shown, 1, 1)))
            continue
        rows = [[None if cell == "" else cell for cell in cells] for cells in grid]
        for (row, column), text in found.errors.items():
            if row < len(rows) and column < len(rows[row]):
                rows[row][column] = ErrorCell(text or "#ERROR")
        doc, problems = rows_to_document(shown, _covered(rows, found.merged), schema)
        findings += problems
        if doc is not None:
            documents.append(doc)
    return documents, findings


def xlsx_merged(raw: bytes) -> dict[str, list[Span]]:
    """The merged cells of each sheet of a workbook, by sheet name (openpyxl's read-only mode
    does not read them; calamine does). A workbook calamine cannot open merges nothing here
    (openpyxl's reading reports it)."""
    from python_calamine import CalamineError, CalamineWorkbook  # (when a workbook is read)

    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        return {name: [((top, left), (bottom, right)) for (top, left), (bottom, right)
                       in workbook.get_sheet_by_name(name).merged_cell_ranges or ()]
                for name in workbook.sheet_names}
    except (CalamineError, ValueError, KeyError, TypeError):
        return {}


def load_table(raw: bytes, suffix: str, file: str, schema: TableSchema
               ) -> tuple[list[YamlDocument], list[Finding]]:
    if suffix.lower() == ".xlsx":
        with warnings.catch_warnings():  # openpyxl's remarks on a workbook ("no default
            warnings.simplefilter("ignore")  # style", unsupported extensions): not for stderr
            return load_xlsx(raw, file, schema)
    if suffix.lower() == ".ods":
        return load_ods(raw, file, schema)
    return load_csv(raw, file, schema)
