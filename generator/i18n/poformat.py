"""PO files written exactly as GNU gettext writes them.

Translators open our catalogs in Poedit, Weblate or Crowdin and run msgmerge/msgcat on them. If
pnp wrapped lines differently from gettext, every round trip through those tools would rewrap
hundreds of lines and bury the real changes in a diff. So this module writes a polib catalog
byte for byte as gettext's ``write-po.c`` does: entry layout and comment order, obsolete entries
at the end, and gettext's line wrapping: 79 columns, breaking only where gettext's line breaking
allows (:mod:`generator.i18n.linebreak`), never inside an escape sequence, a long string starting on
a line of its own after an empty ``""``. polib still reads the files; only the writing is ours,
because no library reproduces gettext's wrapping.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import cache

import polib

from generator.i18n.linebreak import break_opportunities

#: gettext's default page width
PAGE_WIDTH = 79

_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v",
            '"': '"', "\\": "\\"}


@cache
def _char_width(char: str) -> int:
    """Columns a character takes, as libunistring counts them outside CJK encodings (kept per
    character, as the line-break classes are: an 8 MB catalog is some 15 million lookups)."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    return 1 if char.isprintable() else 0


def _portions(value: str) -> Iterator[str]:
    """The value cut after each newline, as gettext prints each on its own line(s)."""
    start = 0
    while True:
        end = value.find("\n", start)
        if end < 0:
            yield value[start:]
            return
        yield value[start:end + 1]
        start = end + 1
        if start == len(value):
            return


def _escaped(portion: str) -> tuple[str, list[bool]]:
    """The portion with PO escapes, and per character whether a break is forbidden before it
    (inside an escape sequence, and before a final ``\\n``)."""
    chars: list[str] = []
    forbidden: list[bool] = []
    for char in portion:
        if char in _ESCAPES:
            chars += ["\\", _ESCAPES[char]]
            forbidden += [False, True]
        else:
            chars.append(char)
            forbidden.append(False)
    if portion.endswith("\n"):
        forbidden[-2] = True
    return "".join(chars), forbidden


def _breaks(text: str, opportunities: list[bool], forbidden: list[bool], width: int,
            start_column: int) -> set[int]:
    """Indices before which a line break goes: gettext's greedy fill over the break
    ``opportunities`` of ``text`` (libunistring's ``ulc_width_linebreaks``)."""
    result: set[int] = set()
    last_break: int | None = None
    last_column = start_column
    piece_width = 0
    for index, (char, allowed) in enumerate(zip(text, opportunities, strict=True)):
        if allowed and not forbidden[index]:
            if last_break is not None and last_column + piece_width > width:
                result.add(last_break)
                last_column = 0
            last_break = index
            last_column += piece_width
            piece_width = 0
        piece_width += _char_width(char)
    if last_break is not None and last_column + piece_width > width:
        result.add(last_break)
    return result


def wrap_field(name: str, value: str, prefix: str = "", page_width: int = PAGE_WIDTH
               ) -> list[str]:
    """Lines of one keyword and its string (``msgid "..."``), prefixed by ``#~ `` or ``#| ``
    where asked, wrapped as gettext wraps them."""
    lines: list[str] = []
    after_break = len(prefix) + 1  # continuation lines start with the prefix and a quote
    width = page_width - 1 - after_break  # room for the closing quote
    first = True
    portions = list(_portions(value))
    for number, portion in enumerate(portions):
        text, forbidden = _escaped(portion)
        opportunities = break_opportunities(text)
        start = len(name) + 1 if first else 0
        breaks = _breaks(text, opportunities, forbidden, width, start)
        if first and text and (number < len(portions) - 1 or start > width or breaks):
            lines.append(f'{prefix}{name} ""')
            first = False
            start = 0
            breaks = _breaks(text, opportunities, forbidden, width, start)
        head = f"{prefix}{name} " if first else prefix
        pieces: list[str] = []
        begin = 0
        for index in sorted(breaks):
            pieces.append(text[begin:index])
            begin = index
        pieces.append(text[begin:])
        lines.append(f'{head}"{pieces[0]}"')
        lines.extend(f'{prefix}"{piece}"' for piece in pieces[1:])
        first = False
    return lines


def _references(occurrences: list[tuple[str, str]], page_width: int) -> list[str]:
    lines: list[str] = []
    line = "#:"
    for file, number in occurrences:
        reference = f"{file}:{number}" if number else file
        if len(line) > 2 and len(line) + len(reference) + 1 > page_width:
            lines.append(line)
            line = "#:"
        line += f" {reference}"
    if len(line) > 2:
        lines.append(line)
    return lines


def _comments(marker: str, text: str) -> list[str]:
    if not text:
        return []
    return [f"{marker} {line}" if line else marker for line in text.split("\n")]


def _flags(flags: list[str]) -> list[str]:
    ordered = (["fuzzy"] if "fuzzy" in flags else []) + [f for f in flags if f != "fuzzy"]
    return [f"#, {', '.join(ordered)}"] if ordered else []


def _messages(entry: polib.POEntry, prefix: str, page_width: int) -> list[str]:
    lines: list[str] = []
    if entry.msgctxt is not None:
        lines += wrap_field("msgctxt", entry.msgctxt, prefix, page_width)
    lines += wrap_field("msgid", entry.msgid, prefix, page_width)
    if entry.msgid_plural:
        lines += wrap_field("msgid_plural", entry.msgid_plural, prefix, page_width)
        for index in sorted(entry.msgstr_plural):
            lines += wrap_field(f"msgstr[{index}]", entry.msgstr_plural[index], prefix,
                                page_width)
    else:
        lines += wrap_field("msgstr", entry.msgstr, prefix, page_width)
    return lines


def _previous(entry: polib.POEntry, prefix: str, page_width: int) -> list[str]:
    lines: list[str] = []
    for name in ("msgctxt", "msgid", "msgid_plural"):
        value = getattr(entry, f"previous_{name}", None)
        if value is not None:
            lines += wrap_field(name, value, prefix, page_width)
    return lines


def format_entry(entry: polib.POEntry, page_width: int = PAGE_WIDTH) -> list[str]:
    """One message as gettext prints it (without the blank line that separates messages)."""
    if entry.obsolete:
        return (_comments("#", entry.tcomment)
                + (["#, fuzzy"] if "fuzzy" in entry.flags else [])
                + _previous(entry, "#~| ", page_width)
                + _messages(entry, "#~ ", page_width))
    return (_comments("#", entry.tcomment) + _comments("#.", entry.comment)
            + _references(entry.occurrences, page_width) + _flags(entry.flags)
            + _previous(entry, "#| ", page_width) + _messages(entry, "", page_width))


def header_entry(catalog: polib.POFile) -> polib.POEntry:
    """The catalog's header (its metadata) as the entry with an empty msgid."""
    header = polib.POEntry(msgid="", msgstr="".join(f"{key}: {value}\n"
                                                    for key, value in catalog.metadata.items()))
    header.tcomment = catalog.header or ""
    if catalog.metadata_is_fuzzy:
        header.flags.append("fuzzy")
    return header


def format_catalog(catalog: polib.POFile, page_width: int = PAGE_WIDTH) -> str:
    """The whole catalog: header, current messages in order, then obsolete ones."""
    entries = [header_entry(catalog)] if catalog.metadata or catalog.header else []
    entries += [e for e in catalog if not e.obsolete]
    entries += [e for e in catalog if e.obsolete]
    return "\n".join("\n".join(format_entry(e, page_width)) + "\n" for e in entries)

