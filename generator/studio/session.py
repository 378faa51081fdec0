"""The pack the studio edits: loaded and checked as ``pnp validate`` does, and where each card
was written (file, sheet, place in the file, each field's position), so that a form can be made
from it and a save can find it again.

Every card the files hold is editable, also one that fails its schema (the studio is where it
gets fixed): its fields come from the document pnp read, not from the card object that could
not be built. The files stay the source of truth: when any file of the pack changes on disk (a
save, another editor), the next request reads the pack again.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec import Struct, field, structs

from generator.core.errors import UsageError
from generator.core.findings import Finding, sort_key
from generator.core.location import Location
from generator.i18n.catalogs import no_locale_message
from generator.i18n.localize import Localizer
from generator.load.packfiles import PackFile, PackFolder
from generator.load.yamldoc import YamlDocument
from generator.model.cards import CardSet
from generator.model.game import Game
from generator.pipeline.localecheck import localizer_for
from generator.pipeline.pack import card_files, card_suffixes
from generator.pipeline.validate import validate
from generator.runtime.filecaches import forget_file_caches

#: the card file formats the studio writes, by suffix
FORMATS = {".yaml": "yaml", ".yml": "yaml", ".csv": "csv", ".xlsx": "xlsx"}


class CardSource(Struct, frozen=True):
    """One card as its file holds it."""

    id: str
    kind: str
    pack: str  # the pack's id (game.yaml's pack:)
    root: Path  # the pack folder
    file: PackFile
    sheet: str | None  # a workbook's sheet
    document: str  # the document's name in findings (``file.xlsx[Sheet]`` for a sheet)
    index: int  # its place in the document's cards
    order: int  # its place among every card of the set, in file order
    data: Mapping[str, Any]  # its fields as pnp read them
    location: Location
    #: where each field's value is written (a table's cell)
    fields: Mapping[str, Location] = field(default_factory=dict)

    @property
    def format(self) -> str:
        return FORMATS.get(self.file.suffix, "yaml")


def file_version(data: bytes) -> str:
    """What a page remembers of a file it was made from, to tell a later change of it."""
    return hashlib.sha256(data).hexdigest()[:24]


class Loaded(Struct):
    """One reading of the pack: its cards, their sources and every finding of validate."""

    card_set: CardSet | None
    game: Game | None
    findings: list[Finding]
    documents: dict[str, YamlDocument]
    sources: dict[str, CardSource]
    files: dict[str, PackFile]  # card files by display name
    versions: dict[str, str]  # file version by display name, as read now
    stamp: tuple[object, ...]
    _card_indexes: dict[tuple[str, int], tuple[dict, dict]] = field(default_factory=dict)

    def card_document(self, source: CardSource, present: Iterable[str]) -> YamlDocument:
        """The card's own part of its document (its location, and its fields' that are
        ``present``), to check an edited version of it: a field the edit left out must not
        look located, or the schema check takes it for a spreadsheet cell refused when read."""
        key = (source.document, source.index)
        index = self._card_indexes.get(key)
        if index is None:
            doc = self.documents[source.document]
            base = ("cards", source.index)
            index = self._card_indexes[key] = (
                {path: where for path, where in doc.values.items() if path[:2] == base},
                {path: where for path, where in doc.keys.items() if path[:2] == base})
        wanted = set(present)
        values, keys = index
        return YamlDocument(source.document, None,
                            {p: w for p, w in values.items() if len(p) == 2 or p[2] in wanted},
                            {p: w for p, w in keys.items() if len(p) == 2 or p[2] in wanted})

    def findings_of(self, card_id: str) -> list[Finding]:
        return [f for f in self.findings if f.card == card_id]


def _stamp(roots: Sequence[Path]) -> tuple[object, ...]:
    """Name, size and time of every file of the packs: a change to any shows here."""
    stamp: list[object] = []
    for root in roots:
        for file in PackFolder(root).files().files:
            try:
                stat = file.path.stat()
            except OSError:
                stamp.append((str(file.path), -1))
                continue
            stamp.append((str(file.path), stat.st_size, stat.st_mtime_ns))
    return tuple(stamp)


def _document_file(name: str, files: Mapping[str, PackFile]) -> tuple[PackFile, str | None] | None:
    if name in files:
        return files[name], None
    if name.endswith("]") and "[" in name:
        head, _, sheet = name[:-1].rpartition("[")
        if head in files:
            return files[head], sheet
    return None


def _sources(documents: dict[str, YamlDocument], files: dict[str, PackFile],
             owners: dict[str, tuple[str, Path]]) -> dict[str, CardSource]:
    sources: dict[str, CardSource] = {}
    order = 0
    for name in _file_order(documents, files):
        doc = documents[name]
        found = _document_file(name, files)
        if found is None or not isinstance(doc.data, Mapping):
            continue
        file, sheet = found
        cards = doc.data.get("cards")
        pack, root = owners[file.display]
        for index, item in enumerate(cards if isinstance(cards, list) else ()):
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
                continue
            card_id = item["id"]
            if card_id in sources:
                continue  # a duplicate id: validate reports it; the first one is edited
            base = ("cards", index)
            fields = {str(key): doc.where((*base, key)) for key in item
                      if (*base, key) in doc.values}
            sources[card_id] = CardSource(
                card_id, str(item.get("kind", "")), pack, root, file, sheet, name, index, order,
                dict(item), doc.where(base), fields)
            order += 1
    return sources


def _file_order(documents: Mapping[str, YamlDocument], files: Mapping[str, PackFile]
                ) -> list[str]:
    """Documents in the order the pack's files are listed (the order cards print in)."""
    rank = {display: index for index, display in enumerate(files)}
    return sorted(documents, key=lambda name: (rank.get(name.split("[")[0], len(rank)), name))


class Session:
    """The studio's pack, read again whenever its files change; shared by the server's threads
    (every use holds :attr:`lock`)."""

    def __init__(self, pack: Path, expansions: Sequence[Path], locales: Sequence[str]) -> None:
        self.pack = Path(pack)
        self.expansions = tuple(Path(p) for p in expansions)
        self.wanted_locales = tuple(dict.fromkeys(locales))
        self.lock = threading.RLock()
        self.loaded: Loaded | None = None
        self._localizers: dict[str, Localizer] = {}
        #: bumped on every reading, so that what was derived from the last one is dropped
        self.generation = 0

    # --- reading ----------------------------------------------------------------------------

    def roots(self) -> list[Path]:
        return [self.pack, *self.expansions]

    def current(self) -> Loaded:
        """The pack as its files are now (read again if any changed)."""
        with self.lock:
            stamp = _stamp(self.roots())
            if self.loaded is None or stamp != self.loaded.stamp:
                self._load(stamp)
            assert self.loaded is not None
            return self.loaded

    def reload(self) -> Loaded:
        with self.lock:
            self._load(_stamp(self.roots()))
            assert self.loaded is not None
            return self.loaded

    def _load(self, stamp: tuple[object, ...]) -> None:
        if self.loaded is not None:
            forget_file_caches()  # templates, labels, palettes, glossaries may have changed
        checked = validate(self.pack, self.expansions)
        files: dict[str, PackFile] = {}
        owners: dict[str, tuple[str, Path]] = {}
        card_set, game = checked.card_set, checked.game
        if card_set is not None and game is not None:
            for pack in card_set.packs:
                listed, _ = card_files(PackFolder(pack.root), card_suffixes(game))
                for file in listed:
                    files[file.display] = file
                    owners[file.display] = (pack.manifest.pack, pack.root)
        versions = {}
        for display, file in files.items():
            try:
                versions[display] = file_version(file.path.read_bytes())
            except OSError:
                versions[display] = ""
        sources = _sources(checked.documents, files, owners)
        findings = sorted(set(checked.findings), key=lambda f: (*sort_key(f), f.message))
        self.loaded = Loaded(card_set, game, findings, checked.documents, sources, files,
                             versions, stamp)
        self._localizers.clear()
        self.generation += 1

    def open(self) -> Loaded:
        """The first reading; a locale the pack does not have is the command line's mistake
        (UsageError), as for ``pnp watch``."""
        loaded = self.current()
        if loaded.card_set is not None:
            for locale in self.wanted_locales:
                if locale not in loaded.card_set.base.manifest.locales:
                    raise UsageError(no_locale_message(loaded.card_set.base, locale))
        return loaded

    # --- what the pages show ----------------------------------------------------------------

    def locales(self, loaded: Loaded | None = None) -> tuple[str, ...]:
        """The languages offered: those asked for on the command line, else every one of the
        pack, the source first. ``loaded``: the reading a request already holds (else the pack
        is looked at again, every file of it)."""
        if loaded is None:
            loaded = self.current()
        if loaded.card_set is None:
            return self.wanted_locales
        manifest = loaded.card_set.base.manifest
        chosen = self.wanted_locales or manifest.locales
        return tuple(sorted(chosen, key=lambda loc: loc != manifest.source_locale))

    def source_locale(self, loaded: Loaded | None = None) -> str | None:
        if loaded is None:
            loaded = self.current()
        return loaded.card_set.base.manifest.source_locale if loaded.card_set else None

    def localizer(self, locale: str) -> Localizer:
        """The pack's texts in ``locale``, read once per reading of the pack (its catalogs are
        not read again on each edit); a fresh copy each time, whose missing set laying out a
        face fills in."""
        with self.lock:
            loaded = self.loaded if self.loaded is not None else self.current()
            assert loaded.card_set is not None and loaded.game is not None
            known = self._localizers.get(locale)
            if known is None:
                known = self._localizers[locale] = localizer_for(loaded.card_set,
                                                                 loaded.game.name, locale)
        return structs.replace(known, missing=set())
