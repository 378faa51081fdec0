"""The bounds a workbook's XML meets before any spreadsheet reader parses it (issue 24).

openpyxl and calamine hold what they read in memory and expat's work grows with the square of
its longest token, so a small workbook could cost minutes or gigabytes: its parts, their
unpacked size, each token, the nesting of elements, the cells, shared strings and styles are
counted here with byte searches and one bounded expat pass, and an oversized workbook is a
finding at its file. Used for .xlsx and .ods alike.
"""

from __future__ import annotations

import io
import re
import zipfile
from xml.parsers import expat

from generator.core.findings import Finding, error
from generator.core.limits import (
    MAX_TABLE_CELLS,
    MAX_XLSX_DEPTH,
    MAX_XLSX_EXPANDED,
    MAX_XLSX_PARTS,
    MAX_XLSX_STYLE_ENTRIES,
    MAX_XLSX_TOKEN,
)
from generator.core.location import Location

_CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
_FORMULA_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s/>]")
_SHARED_STRING_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")
_ANY_TAG = re.compile(rb"<[A-Za-z_]")
#: a tag longer than the limit: from a '<' on, no '<' or '>' for that many bytes (each '<'
#: starts a new try, so the search stays linear)
_LONG_TAG = re.compile(rb"<[^<>]{%d}" % MAX_XLSX_TOKEN)
#: tokens that may hold '<' and '>': comments, processing instructions, CDATA, a DOCTYPE
_SPANS = ((b"<!--", b"-->"), (b"<?", b"?>"), (b"<![CDATA[", b"]]>"), (b"<!DOCTYPE", b">"))


def _long_token(xml: bytes) -> str | None:
    """What in a workbook's XML part is one token longer than :data:`MAX_XLSX_TOKEN` bytes, if
    anything: expat buffers a token until its end and parses it again with each chunk it is
    fed, so its work grows with the square of the longest token (a 24 MB comment in a 30 KB
    workbook took minutes). Found with plain byte searches, before expat sees the part."""
    for opener, closer in _SPANS:
        start = xml.find(opener)
        while start != -1:
            end = xml.find(closer, start + len(opener))
            end = len(xml) if end == -1 else end
            if end - start > MAX_XLSX_TOKEN:
                return {b"<!--": "a comment", b"<?": "a processing instruction",
                        b"<![CDATA[": "a CDATA section", b"<!DOCTYPE": "a DOCTYPE"}[opener]
            start = xml.find(opener, end)
    return "a tag" if _LONG_TAG.search(xml) is not None else None


def workbook_problem(raw: bytes, file: str) -> tuple[bool, Finding | None]:
    """Whether the workbook writes any formula, or why it is too large to open: its XML
    unpacked (a zip bomb), its parts, its cells (counted in its XML before openpyxl parses any:
    openpyxl holds a whole row in memory, and one row may be millions of cells), a part's
    tokens, shared strings and styles (:func:`_part_problem`)."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        members = archive.infolist()
        if len(members) > MAX_XLSX_PARTS:
            return False, error("file-too-large", f"this workbook has {len(members)} parts; "
                                f"the limit is {MAX_XLSX_PARTS}", Location(file))
        expanded = sum(member.file_size for member in members)
        if expanded > MAX_XLSX_EXPANDED:  # openpyxl would hold it in memory
            return False, error("file-too-large", f"this workbook expands to {expanded} "
                                f"bytes; the limit is {MAX_XLSX_EXPANDED}", Location(file))
        cells = 0
        formulas = False
        for member in members:
            if not member.filename.lower().endswith((".xml", ".rels")):
                continue
            with archive.open(member) as part:
                xml = part.read(MAX_XLSX_EXPANDED + 1)
            problem = _part_problem(member.filename, xml, file)
            if problem is not None:
                return False, problem
            cells += len(_CELL_TAG.findall(xml))
            formulas = formulas or _FORMULA_TAG.search(xml) is not None
    if cells > MAX_TABLE_CELLS:
        return formulas, error("table-too-large", f"this workbook writes {cells} cells; the "
                               f"limit is {MAX_TABLE_CELLS}", Location(file))
    return formulas, None


def _part_problem(name: str, xml: bytes, file: str) -> Finding | None:
    """Why one XML part of a workbook is not given to openpyxl: a token too long for expat,
    elements nested deeper than a spreadsheet's,
    more shared strings than cells a workbook may write, a style sheet of too many entries
    (openpyxl reads every shared string and style before the first row)."""
    token = _long_token(xml)
    if token is not None:
        return error("xlsx-token-too-long", f"{name} in this workbook holds {token} longer "
                     f"than {MAX_XLSX_TOKEN:,} bytes; save the workbook again", Location(file))
    if _nested_past_limit(xml):
        return error("xlsx-too-deep", f"{name} in this workbook nests its elements more than "
                     f"{MAX_XLSX_DEPTH} deep (a sheet needs about 6); save the workbook again",
                     Location(file))
    lowered = name.lower()
    if lowered.endswith("sharedstrings.xml"):
        strings = len(_SHARED_STRING_TAG.findall(xml))
        if strings > MAX_TABLE_CELLS:
            return error("table-too-large", f"this workbook shares {strings:,} strings; the "
                         f"limit is {MAX_TABLE_CELLS:,}", Location(file))
    elif lowered.endswith("styles.xml"):
        entries = len(_ANY_TAG.findall(xml))
        if entries > MAX_XLSX_STYLE_ENTRIES:
            return error("table-too-large", f"this workbook's styles have {entries:,} "
                         f"entries; the limit is {MAX_XLSX_STYLE_ENTRIES:,}", Location(file))
    return None


class _TooDeep(Exception):
    """Raised inside expat's element handler to stop at the first element too deep."""


def _nested_past_limit(xml: bytes) -> bool:
    """Whether elements nest deeper than :data:`MAX_XLSX_DEPTH` somewhere in the part: the
    readers keep every open element, so 9 million nested tags in a 67 KB workbook took 2.5 GiB.
    expat walks the part once (its tokens are already bounded) and stops at the first element
    too deep; a part expat cannot read is left for the workbook reader to report."""
    parser = expat.ParserCreate()
    depth = 0

    def opened(_name: str, _attributes: object) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_XLSX_DEPTH:
            raise _TooDeep

    def closed(_name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler = opened
    parser.EndElementHandler = closed
    try:
        parser.Parse(xml, True)
    except _TooDeep:
        return True
    except expat.ExpatError:
        return False
    return False
