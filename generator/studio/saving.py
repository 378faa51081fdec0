"""Saving a card: the changed values into the file it came from, checked before the file is
touched, never over a change made on disk meanwhile.

A save sends the card's values as the page loaded them, the values now, and the version of the
file the page was made from. What is written:

1. the file is read again from disk (under the pack file policy) and parsed by pnp;
2. the changed fields are the ones whose value differs from the page's original: only they are
   written (:mod:`generator.studio.yamlcards`, :mod:`generator.studio.tableedit`);
3. if the file changed on disk since the page loaded, the save goes on only when none of the
   changed fields was changed on disk too (the other changes on disk are kept: only the edited
   values are replaced); otherwise it is refused as a conflict listing each field's value on
   disk and in the page, and the page offers to keep its own values or to reload;
4. the new file is parsed by pnp again before it is written: the edited card must read back as
   meant, every other card exactly as before, and the file must not gain a finding that makes
   it unreadable (a syntax error, a broken table): else the save is refused with the finding
   and nothing is written;
5. the file is replaced atomically (a complete new file or the old one, never half of one).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec import Struct, field

from generator.core.findings import Finding, Severity
from generator.core.location import display_path
from generator.datagame.tables import TableSchema, csv_delimiter, load_table
from generator.load.packfiles import PackFile, PackFolder
from generator.load.parsecache import load_yaml_text
from generator.load.yamldoc import LoadProblem, YamlDocument, decode_utf8
from generator.load.yamledit import ABSENT, EditRefused, same_value
from generator.runtime.safewrite import write_atomic
from generator.studio import tableedit, yamlcards
from generator.studio.schemaform import FormSpec, default_value
from generator.studio.session import CardSource, Loaded, Session, file_version

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
_BOM = b"\xef\xbb\xbf"


class Outcome(Struct):
    """What a save (or a new card) did."""

    status: str  # saved | unchanged | conflict | refused
    message: str = ""
    version: str | None = None
    card: str | None = None
    findings: list[Finding] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    merged: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "message": self.message, "version": self.version,
                "card": self.card, "merged": self.merged, "conflicts": self.conflicts,
                "findings": [{"code": f.code, "severity": str(f.severity),
                              "message": f.message, "where": str(f.location)}
                             for f in self.findings]}


def refused(message: str, findings: Sequence[Finding] = ()) -> Outcome:
    return Outcome("refused", message, findings=list(findings))


def changes_between(original: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The fields whose value differs (``ABSENT``: removed); id and kind never change."""
    changed: dict[str, Any] = {}
    for name in dict.fromkeys([*original, *values]):
        if name in ("id", "kind"):
            continue
        if name not in values:
            changed[name] = ABSENT
        elif name not in original or not same_value(original[name], values[name]):
            changed[name] = values[name]
    return changed


def alike(one: object, other: object) -> bool:
    """Equal as a page and a file can tell: numbers by value (a page's 2 is a file's 2.0)."""
    if isinstance(one, int | float) and isinstance(other, int | float) \
            and not isinstance(one, bool) and not isinstance(other, bool):
        return float(one) == float(other)
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(alike(a, b) for a, b in zip(one, other,
                                                                         strict=True))
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(alike(v, other[k]) for k, v in one.items())
    return same_value(one, other)


# --- reading a card file as pnp does ---------------------------------------------------------

class FileState(Struct):
    file: PackFile
    raw: bytes
    documents: list[YamlDocument]
    findings: list[Finding]

    @property
    def version(self) -> str:
        return file_version(self.raw)

    def card(self, card_id: str, sheet: str | None = None
             ) -> tuple[YamlDocument, int, dict[str, Any]] | None:
        for doc in self.documents:
            if sheet is not None and not doc.file.endswith(f"[{sheet}]"):
                continue
            cards = doc.data.get("cards") if isinstance(doc.data, Mapping) else None
            for index, item in enumerate(cards if isinstance(cards, list) else ()):
                if isinstance(item, Mapping) and item.get("id") == card_id:
                    return doc, index, dict(item)
        return None

    def items(self) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for doc in self.documents:
            cards = doc.data.get("cards") if isinstance(doc.data, Mapping) else None
            found += [(doc.file, dict(item)) for item in (cards if isinstance(cards, list)
                                                          else ()) if isinstance(item, Mapping)]
        return found

    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


def _schemas(loaded: Loaded) -> TableSchema:
    assert loaded.game is not None
    return TableSchema({name: kind.schema_data or {} for name, kind in loaded.game.kinds.items()})


def parse(loaded: Loaded, file: PackFile, raw: bytes) -> FileState:
    """The file's bytes read as ``pnp validate`` reads a card file."""
    if file.suffix in (".csv", ".xlsx"):
        documents, findings = load_table(raw, file.suffix, file.display, _schemas(loaded))
        return FileState(file, raw, documents, findings)
    try:
        text = decode_utf8(file.display, raw)
    except LoadProblem as problem:
        return FileState(file, raw, [], [problem.finding])
    doc, findings = load_yaml_text(file.display, text)
    return FileState(file, raw, [doc] if doc is not None else [], findings)


def read_state(loaded: Loaded, root: Path, file: PackFile) -> FileState | Outcome:
    folder = PackFolder(root)
    raw, problems = folder.read_bytes(file, "table" if file.suffix in (".csv", ".xlsx")
                                      else "card-file")
    if raw is None:
        return refused(f"{file.display} cannot be read", problems)
    return parse(loaded, file, raw)


# --- writing ------------------------------------------------------------------------------

def _text_of(raw: bytes, display: str) -> tuple[str, bool]:
    return decode_utf8(display, raw), raw.startswith(_BOM)


def _encoded(text: str, bom: bool) -> bytes:
    return (_BOM if bom else b"") + text.encode("utf-8")


def _xlsx_header(raw: bytes, sheet: str) -> list[str]:
    from openpyxl import load_workbook  # (when a workbook is edited: most packs have none)

    workbook = load_workbook(io.BytesIO(raw), read_only=True)
    try:
        worksheet = workbook[sheet]
        worksheet.reset_dimensions()
        for row in worksheet.iter_rows(min_row=1, max_row=1, values_only=True):
            return [str(cell).strip() if cell is not None else "" for cell in row]
        return []
    finally:
        workbook.close()


def edited_bytes(state: FileState, source: CardSource, card_id: str, changes: Mapping[str, Any],
                 order: Sequence[str]) -> bytes:
    """The file with the card's changed values written in; raises EditRefused."""
    suffix = state.file.suffix
    found = state.card(card_id, source.sheet)
    if found is None:
        raise EditRefused(f"card '{card_id}' is not in {state.file.display} any more")
    doc, index, _ = found
    if suffix in (".yaml", ".yml"):
        text, bom = _text_of(state.raw, state.file.display)
        return _encoded(yamlcards.edit_card(text, card_id, changes, order), bom)
    row = doc.where(("cards", index)).line
    if suffix == ".csv":
        text = state.raw.decode("utf-8-sig")
        bom = state.raw.startswith(_BOM)
        delimiter = csv_delimiter(text)
        names = tableedit.header(text, delimiter)
        columns: dict[int, Any] = {}
        for name, value in changes.items():
            column = names.index(name) + 1 if name in names else None
            if column is None:
                if value is ABSENT:
                    continue
                raise EditRefused(f"{state.file.display} has no column '{name}'; add the column "
                                  "to the table first")
            columns[column] = value
        return _encoded(tableedit.edit_csv(text, row, columns, delimiter), bom)
    assert source.sheet is not None
    names = _xlsx_header(state.raw, source.sheet)
    edits: dict[tuple[int, int], Any] = {}
    new_header: dict[int, str] = {}
    for name, value in changes.items():
        if name in names:
            edits[(row, names.index(name) + 1)] = value
        elif value is not ABSENT:
            column = len(names) + len(new_header) + 1
            new_header[column] = name
            edits[(row, column)] = value
    return tableedit.edit_xlsx(state.raw, source.sheet, edits, new_header)


def verify(loaded: Loaded, before: FileState, data: bytes, expected: Mapping[str, dict[str, Any]],
           ) -> tuple[FileState, list[Finding], str | None]:
    """Read the new bytes as pnp will: (state, new unreadable findings, what differs)."""
    after = parse(loaded, before.file, data)
    old = {(f.code, f.message) for f in before.errors()}
    new_errors = [f for f in after.errors() if (f.code, f.message) not in old]
    if new_errors:
        return after, new_errors, None
    known = {str(item.get("id")) for _, item in before.items()}
    wanted = [(file, expected.get(str(item.get("id")), item)) for file, item in before.items()]
    wanted += [("", item) for card_id, item in expected.items() if card_id not in known]
    got = after.items()
    if len(got) != len(wanted):
        return after, [], f"the file would hold {len(got)} cards instead of {len(wanted)}"
    for (_, meant), (_, read) in zip(sorted(wanted, key=_by_id), sorted(got, key=_by_id),
                                      strict=True):
        if not same_value(meant, read):
            return after, [], f"card '{meant.get('id')}' would read back differently"
    return after, [], None


def _by_id(entry: tuple[str, dict[str, Any]]) -> str:
    return str(entry[1].get("id"))


def _write(root: Path, file: PackFile, data: bytes) -> Outcome | None:
    if not PackFolder(root).contains(file.path):
        return refused(f"{file.display} is not inside the pack; nothing written")
    try:
        write_atomic(file.path, data)
    except OSError as exc:
        return refused(f"{file.display}: cannot write: {exc.strerror or exc} (the file is "
                       "unchanged)")
    return None


def save_card(session: Session, card_id: str, values: Mapping[str, Any],
              original: Mapping[str, Any], version: str, order: Sequence[str],
              force: bool = False) -> Outcome:
    """Write the card's changed fields into its file (see the module's text)."""
    with session.lock:
        loaded = session.current()
        source = loaded.sources.get(card_id)
        if source is None:
            return refused(f"card '{card_id}' is no longer in the pack's files")
        state = read_state(loaded, source.root, source.file)
        if isinstance(state, Outcome):
            return state
        changes = changes_between(original, values)
        if not changes:
            return Outcome("unchanged", "nothing to save", state.version, card_id)
        found = state.card(card_id, source.sheet)
        if found is None:
            return refused(f"card '{card_id}' is no longer in {source.file.display}",
                           state.errors())
        disk = found[2]
        merged = state.version != version
        if merged and not force:
            conflicts = [{"field": name, "disk": disk.get(name), "mine": values.get(name),
                          "disk_absent": name not in disk, "mine_absent": name not in values}
                         for name in changes
                         if not alike(disk.get(name, ABSENT), original.get(name, ABSENT))
                         and not alike(disk.get(name, ABSENT), values.get(name, ABSENT))]
            if conflicts:
                return Outcome("conflict", f"{source.file.display} was changed on disk since "
                               "this page was loaded, in the fields you edited",
                               state.version, card_id, conflicts=conflicts)
        intended = {k: v for k, v in {**disk, **changes}.items() if v is not ABSENT}
        try:
            data = edited_bytes(state, source, card_id, changes, order)
        except EditRefused as exc:
            return refused(f"{source.file.display}: {exc}")
        after, unreadable, differs = verify(loaded, state, data, {card_id: intended})
        if unreadable:
            return refused(f"saving would make {source.file.display} unreadable; nothing "
                           "written", unreadable)
        if differs:
            return refused(f"{source.file.display}: pnp cannot write this change without "
                           f"changing more than it ({differs}); nothing written")
        problem = _write(source.root, source.file, data)
        if problem is not None:
            return problem
        session.reload()
        return Outcome("saved", f"saved {display_path(source.file.path)}"
                       + (" (merged with the changes made on disk)" if merged else ""),
                       after.version, card_id, merged=merged)


# --- new cards and copies -------------------------------------------------------------------

def id_problem(loaded: Loaded, new_id: str) -> str | None:
    if not ID_PATTERN.fullmatch(new_id):
        return (f"'{new_id}' is not a card id: lowercase letters, digits and '-', starting "
                "with a letter or digit")
    taken = set(loaded.sources) | ({c.id for c in loaded.card_set.cards}
                                   if loaded.card_set is not None else set())
    if new_id in taken:
        return f"the id '{new_id}' is taken"
    return None


def free_id(loaded: Loaded, stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3`` ... whichever is not taken."""
    base = re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-") or "card"
    candidate, number = base, 1
    while id_problem(loaded, candidate) is not None:
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def pack_images(root: Path) -> list[str]:
    """The pack's pictures, as card fields name them (paths from the pack folder)."""
    suffixes = {".png", ".jpg", ".jpeg", ".webp", ".svg"}
    return [str(file.relative) for file in PackFolder(root).files().files
            if file.suffix in suffixes and file.relative.parts[0] not in ("output", "fonts")]


def new_item(form: FormSpec, kind: str, new_id: str, images: Sequence[str]) -> dict[str, Any]:
    """A new card of ``kind``: its id and kind, and each required field's first value."""
    item: dict[str, Any] = {"id": new_id, "kind": kind}
    for spec in form.fields:
        if spec.required and spec.name not in item:
            item[spec.name] = default_value(spec, images)
    return item


def _place_for(loaded: Loaded, kind: str, near: str | None) -> CardSource | None:
    """The card a new card of ``kind`` goes after: the last of that kind in the file of
    ``near`` (the card being edited), else in the base pack's file holding most of them."""
    sources = list(loaded.sources.values())
    if near is not None and near in loaded.sources:
        document = loaded.sources[near].document
        same = [s for s in sources if s.document == document and s.kind == kind]
        if same:
            return same[-1]
    by_document: dict[str, list[CardSource]] = {}
    for source in sources:
        if source.kind == kind:
            by_document.setdefault(source.document, []).append(source)
    if not by_document:
        return None
    base = loaded.card_set.base.manifest.pack if loaded.card_set is not None else None
    best = max(by_document.values(), key=lambda group: (group[0].pack == base, len(group)))
    return best[-1]


def add_card(session: Session, form: FormSpec, kind: str, new_id: str,
             near: str | None = None, copy_of: str | None = None,
             values: Mapping[str, Any] | None = None,
             original: Mapping[str, Any] | None = None) -> Outcome:
    """A new card of ``kind`` (``copy_of``: a copy of that card, with the page's edits
    ``values`` against ``original``), placed where a designer would put it: a copy right
    after its original, a new card after the last of its kind in the file."""
    with session.lock:
        loaded = session.current()
        if loaded.card_set is None or loaded.game is None:
            return refused("the pack does not load; fix its findings first")
        problem = id_problem(loaded, new_id)
        if problem is not None:
            return refused(problem)
        if copy_of is not None:
            anchor = loaded.sources.get(copy_of)
            if anchor is None:
                return refused(f"card '{copy_of}' is no longer in the pack's files")
            kind = anchor.kind
        else:
            anchor = _place_for(loaded, kind, near)
        if kind not in loaded.game.kinds:
            return refused(f"'{kind}' is not a kind of this game")
        if anchor is None:
            return _new_file(session, loaded, form, kind, new_id)
        state = read_state(loaded, anchor.root, anchor.file)
        if isinstance(state, Outcome):
            return state
        found = state.card(anchor.id, anchor.sheet)
        if found is None:
            return refused(f"card '{anchor.id}' is no longer in {anchor.file.display}")
        if copy_of is not None:
            item = {**found[2], "id": new_id}
            if values is not None and original is not None:
                for name, value in changes_between(original, values).items():
                    if value is ABSENT:
                        item.pop(name, None)
                    else:
                        item[name] = value
        else:
            item = new_item(form, kind, new_id, pack_images(anchor.root))
        try:
            data = _inserted(state, anchor, item, copy_of is not None, form.order)
        except EditRefused as exc:
            return refused(f"{anchor.file.display}: {exc}")
        _, unreadable, differs = verify(loaded, state, data, {new_id: item})
        if unreadable or differs:
            return refused(f"{anchor.file.display}: pnp cannot add the card there "
                           f"({differs or 'the file would not read'}); nothing written",
                           unreadable)
        problem_write = _write(anchor.root, anchor.file, data)
        if problem_write is not None:
            return problem_write
        session.reload()
        return Outcome("saved", f"added '{new_id}' to {anchor.file.display}",
                       file_version(data), new_id)


def _inserted(state: FileState, anchor: CardSource, item: Mapping[str, Any], copy: bool,
              order: Sequence[str]) -> bytes:
    suffix = state.file.suffix
    if suffix in (".yaml", ".yml"):
        text, bom = _text_of(state.raw, state.file.display)
        if copy:
            original = state.card(anchor.id)
            assert original is not None
            copied = yamlcards.insert_card(text, {"id": item["id"]}, anchor.id, copy_of=anchor.id)
            changes = changes_between({**original[2], "id": item["id"]}, item)
            if changes:
                copied = yamlcards.edit_card(copied, str(item["id"]), changes, order)
            return _encoded(copied, bom)
        ordered = {name: item[name] for name in [*order, *item] if name in item}
        return _encoded(yamlcards.insert_card(text, ordered, anchor.id), bom)
    found = state.card(anchor.id, anchor.sheet)
    assert found is not None
    doc, index, _ = found
    row = doc.where(("cards", index)).line
    if suffix == ".csv":
        text = state.raw.decode("utf-8-sig")
        delimiter = csv_delimiter(text)
        names = tableedit.header(text, delimiter)
        unknown = [name for name in item if name not in names]
        if unknown:
            raise EditRefused(f"the table has no column '{unknown[0]}'")
        old = tableedit.csv_row_cells(text, row, delimiter) if copy else []
        cells = []
        for column, name in enumerate(names):
            raw_old = old[column] if column < len(old) else ""
            if copy and name != "id" and name in found[2] and name in item \
                    and same_value(found[2][name], item[name]):
                cells.append(raw_old)  # the copied cell as it is written
            elif name in item:
                cells.append(tableedit.quoted_cell(tableedit.cell_value_text(item[name]),
                                                   delimiter))
            else:
                cells.append("")
        after = row if copy else _last_row_of_kind(state, anchor)
        return _encoded(tableedit.insert_csv_row(text, after, cells, delimiter),
                        state.raw.startswith(_BOM))
    assert anchor.sheet is not None
    names = _xlsx_header(state.raw, anchor.sheet)
    unknown = [name for name in item if name not in names]
    if unknown:
        raise EditRefused(f"the sheet has no column '{unknown[0]}'")
    target = tableedit.last_row(state.raw, anchor.sheet) + 1
    edits = {(target, names.index(name) + 1): value for name, value in item.items()}
    return tableedit.edit_xlsx(state.raw, anchor.sheet, edits)


def _last_row_of_kind(state: FileState, anchor: CardSource) -> int:
    rows = []
    for doc in state.documents:
        cards = doc.data.get("cards") if isinstance(doc.data, Mapping) else []
        for index, item in enumerate(cards or ()):
            if isinstance(item, Mapping) and item.get("kind") == anchor.kind:
                rows.append(doc.where(("cards", index)).line)
    return max(rows, default=anchor.location.line)


def _new_file(session: Session, loaded: Loaded, form: FormSpec, kind: str,
              new_id: str) -> Outcome:
    """The first card of a kind: a new file ``<kind>.yaml`` in the base pack."""
    assert loaded.card_set is not None
    root = loaded.card_set.base.root
    path = root / f"{kind}.yaml"
    if path.exists():
        return refused(f"{display_path(path)} exists but holds no card of kind '{kind}'; add "
                       "the card there by hand")
    item = new_item(form, kind, new_id, pack_images(root))
    text = yamlcards.new_file(item, f"{kind} cards of {loaded.card_set.base.manifest.name}")
    doc, findings = load_yaml_text(display_path(path), text)
    if doc is None or findings:
        return refused("pnp cannot write this new card", findings)
    file = PackFolder(root).file_at(path)
    problem = _write(root, file, text.encode("utf-8"))
    if problem is not None:
        return problem
    session.reload()
    return Outcome("saved", f"added '{new_id}' in a new file {display_path(path)}",
                   file_version(text.encode("utf-8")), new_id)

