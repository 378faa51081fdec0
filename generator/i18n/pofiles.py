"""Reading and writing gettext PO catalogs safely: located findings in, atomic files out.

polib parses PO files well, but it trusts them: it raises on any syntax error, decodes with the
charset the header claims, and builds each message by repeated string concatenation (quadratic
in the lines of one message). A pack's catalog is untrusted input, so before polib sees it we
read it under the pack file policy, check the charset against the bytes, and bound the length of
every message; its errors become findings at ``file:line``. Writing goes through
:func:`generator.runtime.safewrite.write_atomic`, so a failed write never leaves half a
catalog behind.
"""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import polib

from generator.core.errors import FindingsError, UsageError
from generator.core.findings import Finding, error
from generator.core.limits import MAX_PO_OBSOLETE, MAX_STRING_CHARS
from generator.core.location import Location
from generator.load.packfiles import PackFile, PackFolder, display_path
from generator.load.yamldoc import text_location
from generator.runtime.safewrite import write_atomic

_CHARSET = re.compile(rb'Content-Type:[^"\n]*?charset=([\w\-:.]+)')
_LINE = re.compile(r"\(line (\d+)\)")
_KEYWORD = re.compile(r"(?:msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+")
_QUOTED = re.compile(r'"(?:[^"\\]++|\\.)*+"')  # possessive: no backtracking state kept
#: characters in the lines that polib joins into one string (escapes double a message's length)
_MAX_RUN_CHARS = 2 * MAX_STRING_CHARS + 1000


def read_catalog(folder: PackFolder, file: PackFile,
                 prepare: Callable[[str], str] | None = None
                 ) -> tuple[polib.POFile | None, list[Finding], str]:
    """Parse one PO file of a pack; None and located findings when it cannot be used. Entries
    whose texts are too long are left out, each with a finding. The third value is the text
    the catalog was parsed from ("" when it was not), for a caller that points at its lines."""
    raw, findings = folder.read_bytes(file, "catalog")
    if raw is None:
        return None, findings, ""
    text, problem = _decode(file.display, raw)
    if text is None:
        return None, [problem] if problem else [], ""
    problem = _scan(file.display, text)
    if problem is not None:
        return None, [problem], ""
    if prepare:
        text = prepare(text)
    catalog, problem = _parse(file.display, text)
    if catalog is None:
        return None, [problem] if problem else [], ""
    problem = (_wrong_letters(file, raw, catalog) or _duplicate(file.display, catalog)
               or _too_many_obsolete(file.display, catalog))
    if problem is not None:
        return None, [problem], ""
    for entry in list(catalog):
        longest = max(len(entry.msgid), len(entry.msgstr), len(entry.msgctxt or ""),
                      *(len(s) for s in entry.msgstr_plural.values()))
        if longest > MAX_STRING_CHARS:
            catalog.remove(entry)
            findings.append(error(
                "string-too-long", f"this message is {longest} characters long; the limit is "
                f"{MAX_STRING_CHARS}", Location(file.display, entry.linenum or 1, 1)))
    return catalog, findings, text


def _decode(display: str, raw: bytes) -> tuple[str | None, Finding | None]:
    """Decode with the charset the header declares, unless the bytes contradict it."""
    match = _CHARSET.search(raw)
    declared = match.group(1).decode("ascii", "replace") if match else "UTF-8"
    where = Location(display, raw.count(b"\n", 0, match.start()) + 1, 1) if match else \
        Location(display, 1, 1)
    codec = _text_codec(declared)
    if codec is None:
        return None, error("po-charset", f"the header declares charset={declared}, which is "
                           "not a text encoding a PO file can be in; use charset=UTF-8", where)
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    if codec != "utf-8" and not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            return None, error(
                "po-charset-mismatch", f"the header declares charset={declared} but the file "
                f"is UTF-8 text; read as {declared} it would print garbled letters. Change the "
                "header to charset=UTF-8", where)
    try:
        return raw.decode(codec), None
    except (UnicodeDecodeError, ValueError) as exc:
        start = getattr(exc, "start", 0)
        before = raw[:start]
        column = start - (before.rfind(b"\n") + 1) + 1
        return None, error(
            "not-utf8" if codec == "utf-8" else "po-charset-mismatch",
            f"byte 0x{raw[start]:02x} is not valid {declared} (the charset the header "
            "declares); save the file as UTF-8",
            Location(display, before.count(b"\n") + 1, column))


@cache
def _text_codec(declared: str) -> str | None:
    """The codec a PO file declaring ``charset=declared`` is read with; None for a name that is
    no encoding, or names a codec that is not text (base64, rot13, zlib) or not a superset of
    ASCII (UTF-7, UTF-16: the header itself would not read as written)."""
    try:
        codec = codecs.lookup(declared)
        ascii_text = 'msgid ""\nmsgstr "x+1"\n'  # UTF-7 writes + as +-
        if ascii_text.encode(codec.name) != ascii_text.encode("ascii"):
            return None
    except (LookupError, ValueError, TypeError, UnicodeError):
        return None
    return codec.name


def _one_byte(codec: str) -> bool:
    """Whether every byte is a character in ``codec``: then any file decodes, and only the
    letters that come out can tell whether it was written in that charset."""
    try:
        return len(bytes(range(128, 256)).decode(codec)) == 128
    except UnicodeDecodeError:
        return False


@cache
def _language_letters(language: str) -> frozenset[str] | None:
    """Letters beyond ASCII that texts in ``language`` use, from CLDR's names of countries,
    languages, months and days written in it (babel's locale data); None when unknown."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    words: list[str] = [*locale.territories.values(), *locale.languages.values(),
                        *locale.scripts.values()]
    for table in (locale.months, locale.days):
        for forms in table.values():
            for names in forms.values():
                words += names.values()
    letters = {c for word in words for c in word.lower() if c.isalpha() and not c.isascii()}
    return frozenset(letters) if letters else None


def _wrong_letters(file: PackFile, raw: bytes, catalog: polib.POFile) -> Finding | None:
    """A catalog in a one-byte charset (ISO-8859-x, KOI8-R, CP125x) decodes whatever its bytes
    are: a Latin-1 German file declared as ISO-8859-5 reads as Cyrillic mojibake. Its
    translations are checked against the letters its language uses (the file's name is the
    language); letters no such text holds, or control characters, mean another charset."""
    match = _CHARSET.search(raw)
    if match is None:
        return None
    declared = match.group(1).decode("ascii", "replace")
    codec = _text_codec(declared)
    if codec is None or not _one_byte(codec) or raw.isascii():
        return None
    language = Path(file.display).stem
    known = _language_letters(language)
    strange: dict[str, int] = {}
    for entry in catalog:
        for text in _translations(entry):
            for char in text:
                if char.isascii():
                    continue
                lowered = char.lower()
                control = unicodedata.category(char) in {"Cc", "Cf", "Co", "Cn"}
                if control or (known is not None and char.isalpha() and lowered not in known):
                    strange.setdefault(char, entry.linenum or 1)
    if not strange:
        return None
    shown = ", ".join(f"'{c}'" if c.isprintable() else f"U+{ord(c):04X}"
                      for c in list(strange)[:5])
    line = min(strange.values())
    return error("po-charset-mismatch", f"read as charset={declared}, which the header "
                 f"declares, its translations hold {shown}, which no {language} text uses: the "
                 "file is in another charset. Save it as UTF-8 and declare charset=UTF-8",
                 Location(file.display, line, 1))


def _translations(entry: polib.POEntry) -> Iterable[str]:
    yield entry.msgstr
    yield from entry.msgstr_plural.values()


def _duplicate(display: str, catalog: polib.POFile) -> Finding | None:
    """msgfmt refuses a message written twice; polib keeps both and the last one wins in
    silence (and a status counted it twice: "-1 missing, 100.9 %")."""
    seen: dict[tuple[bool, str | None, str], int] = {}
    for entry in catalog:
        key = (bool(entry.obsolete), entry.msgctxt, entry.msgid)
        if key in seen:
            context = f" (context '{entry.msgctxt}')" if entry.msgctxt is not None else ""
            return error("po-duplicate", f"the message '{entry.msgid[:60]}'{context} is "
                         f"written a second time here (first at line {seen[key]}); keep one",
                         Location(display, entry.linenum or 1, 1))
        seen[key] = entry.linenum or 1
    return None


def _too_many_obsolete(display: str, catalog: polib.POFile) -> Finding | None:
    """Obsolete entries (``#~``) are carried along by every ``i18n update``, which formats and
    writes each again: 100,000 of them made an update take seconds for nothing."""
    obsolete = [entry for entry in catalog if entry.obsolete]
    if len(obsolete) <= MAX_PO_OBSOLETE:
        return None
    return error("po-too-large", f"this catalog keeps {len(obsolete):,} obsolete entries (#~); "
                 f"the limit is {MAX_PO_OBSOLETE:,}: delete the old ones (msgattrib "
                 "--no-obsolete)", Location(display, obsolete[MAX_PO_OBSOLETE].linenum or 1, 1))


def _scan(display: str, text: str) -> Finding | None:
    """What polib would let pass or choke on: a message line whose string is not one quoted
    string (polib drops the quotes blindly), and a message (or comment) spread over lines that
    together exceed the length limit (polib joins them in quadratic time)."""
    run_key, run_chars, run_start = "", 0, 0
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if len(stripped) > _MAX_RUN_CHARS:  # before any regex walks it (memory grows with it)
            return error("string-too-long", "this message (or comment) is longer than "
                         f"{MAX_STRING_CHARS} characters", text_location(display, text, offset))
        if stripped.startswith("#~"):
            stripped = stripped[2:].lstrip()
        match = _KEYWORD.match(stripped)
        if match is not None or stripped.startswith('"'):
            string = stripped[match.end():] if match else stripped
            if not _QUOTED.fullmatch(string):
                column = len(line) - len(line.lstrip()) + 1
                return error("po-syntax", "a message line holds one string in double quotes "
                             '(write \\" for a quote inside it)',
                             text_location(display, text, offset + column - 1))
        key = run_key if stripped.startswith('"') else stripped.split(" ", 1)[0][:3]
        if key != run_key or not stripped.startswith(('"', "#")):
            run_key, run_chars, run_start = key, 0, offset
        run_chars += len(stripped)
        if run_chars > _MAX_RUN_CHARS:
            return error("string-too-long", "this message (or comment) is longer than "
                         f"{MAX_STRING_CHARS} characters", text_location(display, text,
                                                                          run_start))
        offset += len(line)
    return None


def _parse(display: str, text: str) -> tuple[polib.POFile | None, Finding | None]:
    shift = 0
    while os.path.lexists(text):  # polib reads a string that names a file as that file
        text, shift = "\n" + text, shift + 1
    try:
        return polib.pofile(text, encoding="utf-8", wrapwidth=100), None
    except Exception as exc:  # any parser error is a problem of the file, not of pnp
        found = _LINE.search(str(exc))
        line = int(found.group(1)) - shift if found else 1
        reason = str(exc).split(": ", 1)[1] if ": " in str(exc) else "syntax error"
        return None, error("po-syntax", f"not a valid PO file here ({reason.rstrip('.')})",
                           Location(display, max(line, 1), 1))


def open_catalog_file(path: Path, prepare: Callable[[str], str] | None = None) -> polib.POFile:
    """A pack's ``locales/<name>`` for a command that rewrites or counts it; a catalog that
    cannot be used stops the command (FindingsError) before anything is written, so a broken
    file is reported, never overwritten. ``prepare`` edits the checked text before parsing."""
    folder = PackFolder(path.parent.parent)
    catalog, findings, _ = read_catalog(folder, folder.file_at(path), prepare)
    if catalog is None or findings:
        raise FindingsError(findings)
    return catalog


def write_pack_catalog(path: Path, data: bytes) -> Path:
    """Write a pack's ``locales/<name>`` atomically, inside the pack folder only."""
    target_dir = path.parent
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
        if not PackFolder(target_dir.parent).contains(target_dir) or not target_dir.is_dir():
            raise UsageError(f"{display_path(target_dir)}: not a folder inside the pack; "
                             "cannot write the catalog there")
        write_atomic(path, data)
    except OSError as exc:
        raise UsageError(f"{display_path(path)}: cannot write: {exc.strerror or exc} "
                         "(the old file is unchanged)") from None
    return path
