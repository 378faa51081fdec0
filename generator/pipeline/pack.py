"""Load a pack folder: manifest, card files, schema checks, and the typed card objects.

Loading never stops at the first bad card: every file and every card is checked, each problem
becomes a finding, and only the cards that passed their schema are turned into the pack's model
objects. A card that failed its schema is kept aside (``PackLoad.failed``), built from its sound
fields where its game can check it so, for the checks those fields allow: one run reports every
problem it can see.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import closing
from pathlib import Path
from types import MappingProxyType

from msgspec import Struct, field

from generator.core.errors import UsageError
from generator.core.findings import Finding, Severity, error, warning
from generator.core.limits import MAX_CARDS
from generator.core.location import Location, display_path
from generator.games import get_game, known_games
from generator.load.packfiles import (
    LOCK_PREFIX,
    MANIFEST_NAME,
    NOT_CARD_DIRS,
    NOT_CARD_FILES,
    PackFile,
    PackFolder,
    card_files,
)
from generator.load.yamldoc import YamlDocument
from generator.model.cards import Card, CardSize, Manifest, Pack, SourceRef
from generator.model.game import YAML_SUFFIXES, CardKind, Game
from generator.runtime.forked import Forked, worker_count
from generator.schema import check as schemacheck

_GENERIC_SCHEMAS = "generator.schema"


class PackLoad(Struct):
    """What loading a pack produced: the pack (if its manifest was usable) and the findings.

    ``failed``: the cards that failed their schema but have a sound id and kind, so that the
    checks their other fields allow still see them (ids are unique across them too; a game
    that can check a card from its sound fields gets it built so, see ``CardKind.partial``,
    any other a bare :class:`Card` of id and kind). They are never printed."""

    pack: Pack | None
    game: Game | None
    findings: list[Finding] = field(default_factory=list)
    documents: dict[str, YamlDocument] = field(default_factory=dict)
    failed: list[Card] = field(default_factory=list)


__all__ = ["PackLoad", "card_files", "card_suffixes", "display_path", "load_pack"]


#: folders that hold a pack's pictures, fonts and outputs, never card files
_ASIDE_DIRS = NOT_CARD_DIRS | {"art", "icons", "fonts", "schemas", "output"}
#: what a pack folder holds besides cards, never read as card files: notes, pictures, fonts,
#: catalogs, schemas for editors
_NOT_CARDS = frozenset({".md", ".txt", ".rst", ".pdf", ".html", ".htm", ".png", ".jpg",
                        ".jpeg", ".webp", ".svg", ".gif", ".ttf", ".otf", ".woff", ".woff2",
                        ".po", ".pot", ".mo", ".json", ".license"})
#: tables in formats pnp does not read, by what writes them
_OTHER_TABLES = {".xls": "Excel 97-2003 workbook", ".xlt": "Excel 97-2003 template",
                 ".xlsm": "Excel workbook with macros", ".xlsb": "Excel binary workbook",
                 ".xltx": "Excel template", ".ots": "OpenDocument template",
                 ".fods": "flat OpenDocument spreadsheet", ".numbers": "Numbers spreadsheet",
                 ".tsv": "tab-separated table"}
_TABLES = frozenset({".csv", ".xlsx", ".ods"})
_SCRATCH = (".bak", ".tmp", ".swp", ".orig", "~")


def stray_files(files: list[PackFile], suffixes: frozenset[str]) -> list[Finding]:
    """Files among a pack's card files that pnp does not read: never skipped in silence. A
    table it cannot read (an .xls workbook, or a table in a game whose cards are YAML only)
    is an error, since its cards would be missing; anything else unknown is a warning. Notes,
    pictures, fonts, catalogs, editors' backup and lock files are known and left alone."""
    findings: list[Finding] = []
    accepted = ", ".join(sorted(suffixes))
    for file in files:
        parts = file.relative.parts
        name = parts[-1]
        if (file.suffix in suffixes or str(file.relative) in NOT_CARD_FILES
                or parts[0] in _ASIDE_DIRS or file.suffix in _NOT_CARDS or not file.suffix
                or name.startswith(LOCK_PREFIX) or name.endswith(_SCRATCH)):
            continue
        where = Location(file.display, 1, 1)
        if file.suffix in _OTHER_TABLES:
            save = "save it as .xlsx or .ods" if ".xlsx" in suffixes else "write its cards in YAML"
            findings.append(error(
                "unreadable-card-file", f"{file.relative} is an {_OTHER_TABLES[file.suffix]}, "
                f"which pnp does not read, so its cards are missing: {save} (card files are "
                f"{accepted})", where))
        elif file.suffix in _TABLES:
            findings.append(error(
                "unreadable-card-file", f"{file.relative} is a table, but this game's card "
                f"files are {accepted}: its cards are missing; write them in YAML", where))
        else:
            findings.append(warning(
                "unknown-file", f"{file.relative} is not a card file pnp reads (card files "
                f"are {accepted}; notes, pictures and fonts are left alone): it is not "
                "read", where))
    return findings


def card_suffixes(game: Game) -> frozenset[str]:
    """The kinds of file that hold a game's cards (YAML; a data game takes tables too)."""
    return game.card_file_suffixes


def _manifest(doc: YamlDocument, game: str) -> Manifest:
    data = doc.data
    assert isinstance(data, Mapping)
    source_locale = str(data["source_locale"])
    locales = tuple(data.get("locales", (source_locale,)))
    if source_locale not in locales:
        locales = (source_locale, *locales)
    return Manifest(
        pack=str(data["pack"]),
        game=game,
        name=str(data["name"]),
        version=str(data.get("version", "")),
        source_locale=source_locale,
        locales=locales,
        set_mark=str(data.get("set_mark", data["pack"])),
        set_mark_label=str(data.get("set_mark_label", "")),
        card_size=_card_size(data),
        extends=str(data["extends"]) if data.get("extends") else None,
        location=doc.where(()),
        sheet_per_kind=bool(data.get("sheet_per_kind", True)),
        options=MappingProxyType(dict(data.get("options") or {})),
        fields=MappingProxyType({str(key): doc.where((key,)) for key in data}),
    )


def _card_size(data: Mapping[str, object]) -> CardSize:
    """The pack's card size with its corner radius (``corner_radius_mm``, 0 when absent)."""
    size = CardSize.from_spec(data.get("card_size", "poker"))
    radius = data.get("corner_radius_mm")
    if isinstance(radius, int | float) and not isinstance(radius, bool) and radius > 0:
        size = CardSize(size.width_mm, size.height_mm, size.name, float(radius))
    return size


def _find_game(doc: YamlDocument, root: Path, base_game: Game | None,
               result: PackLoad) -> Game | None:
    """The game of a pack: its own ``kinds:``, the base game it is loaded with, a built-in or
    installed game, or (an expansion of a data game checked alone) the sibling base pack."""
    data = doc.data
    assert isinstance(data, Mapping)
    if "kinds" in data:
        from generator.datagame import load_data_game

        game, problems = load_data_game(doc, root)
        result.findings.extend(problems)
        return game
    name = str(data.get("game") or data.get("extends"))
    if base_game is not None and base_game.name == name:
        return base_game
    game = get_game(name)
    if game is None and data.get("extends"):
        sibling = root.parent / str(data["extends"])
        if sibling.resolve() != root.resolve() and (sibling / MANIFEST_NAME).is_file():
            base = PackLoad(pack=None, game=None)
            loaded = _load_manifest(PackFolder(sibling), base)
            if loaded is not None and loaded[1].name == name:
                return loaded[1]
    if game is None:
        key = "game" if data.get("game") else "extends"
        hint = (f"; an expansion of a game defined in data is read with its base pack "
                f"(pnp validate BASE --with {display_path(root)}, pnp i18n status BASE --with "
                f"{display_path(root)}), or found beside it as ../{name}"
                if key == "extends" else "")
        result.findings.append(error(
            "unknown-game", f"unknown game '{name}'; known games: "
            f"{', '.join(known_games())}, or a pack defining its game with kinds:{hint}",
            doc.where((key,))))
    return game


def _load_manifest(folder: PackFolder, result: PackLoad,
                   base_game: Game | None = None) -> tuple[Manifest, Game] | None:
    file = folder.entry(MANIFEST_NAME)
    if file is None:
        raise UsageError(f"{display_path(folder.root)}: not a pack: {MANIFEST_NAME} is missing")
    doc, problems = folder.load_yaml(file, "manifest")
    result.findings.extend(problems)
    if doc is None:
        return None
    result.documents[doc.file] = doc
    if not isinstance(doc.data, Mapping):
        result.findings.append(error(
            "not-a-mapping", f"{MANIFEST_NAME} must be a mapping of fields, "
            f"not {schemacheck.describe_type(doc.data)}", doc.where(())))
        return None
    schema_findings = schemacheck.check(doc, _GENERIC_SCHEMAS, "game.schema.json")
    result.findings.extend(schema_findings)
    if schema_findings:
        return None
    game = _find_game(doc, folder.root, base_game, result)
    if game is None:
        return None
    return _manifest(doc, game.name), game


def _source_ref(doc: YamlDocument, index: int, card: Mapping[str, object]) -> SourceRef:
    base = ("cards", index)
    return SourceRef(doc.where(base), _FieldLocations(doc, base, tuple(card)))


class _FieldLocations(Mapping[str, Location]):
    """Where each field of a card was written, looked up in its document when asked: only a
    card with a finding needs its fields' places (a rule may name one up front, in case), and
    building them all at once was a tenth of reading a 47,000-card pack."""

    __slots__ = ("_base", "_doc", "_found", "_names")

    def __init__(self, doc: YamlDocument, base: tuple[str, int], names: tuple[str, ...]) -> None:
        self._doc, self._base, self._names = doc, base, names
        self._found: dict[str, Location] = {}

    def __getitem__(self, name: str) -> Location:
        found = self._found.get(name)
        if found is None:
            if name not in self._names:
                raise KeyError(name)
            found = self._found[name] = self._doc.where((*self._base, name))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # a card sent elsewhere does not take its document along
        return (dict, ({name: self[name] for name in self._names},))


def _load_cards(doc: YamlDocument, manifest: Manifest, game: Game,
                findings: list[Finding]) -> list[tuple[Card, bool]]:
    """The cards of one document in order, each with whether it passed its schema (one that
    did not is built from its sound fields, see :class:`PackLoad`)."""
    if not isinstance(doc.data, Mapping):
        findings.append(error(
            "not-a-mapping",
            "a card file must be a mapping with a 'cards:' list, "
            f"not {schemacheck.describe_type(doc.data)}",
            doc.where(())))
        return []
    envelope = schemacheck.check(doc, _GENERIC_SCHEMAS, "card-file.schema.json")
    findings.extend(envelope)
    cards_data = doc.data.get("cards")
    if not isinstance(cards_data, list):
        return []
    built: list[tuple[Card, bool]] = []
    bad_items = {f.location for f in envelope}
    refused = _refused_cells(doc, findings)
    for index, item in enumerate(cards_data):
        if not isinstance(item, Mapping) or (bad_items and bad_items & {
                doc.where(("cards", index)),
                *(doc.where(("cards", index, key)) for key in ("id", "kind"))}):
            continue  # its id or kind is already reported; the kind's schema would repeat it
        card_id = str(item.get("id"))
        kind = game.kinds.get(str(item.get("kind")))
        if kind is None and "kind" in refused.get(index, ()):
            continue  # (its kind's cell was refused where it was read, and said so there)
        if kind is None:
            choices = sorted(game.kinds)
            findings.append(error(
                "unknown-value",
                f"'kind' is {item.get('kind')!r}; expected one of: {', '.join(choices)}"
                f"{schemacheck.did_you_mean(str(item.get('kind')), choices)}",
                doc.where(("cards", index, "kind")), card_id))
            continue
        verdict = schemacheck.check_card(doc, game.schema_package, kind.schema, instance=item,
                                         base=("cards", index), card=card_id,
                                         schema=kind.schema_data)
        findings.extend(verdict.findings)
        source = _source_ref(doc, index, item)
        cells = refused.get(index, frozenset())
        if not verdict.findings and not cells:
            built.append((kind.build(item, manifest.pack, source), True))
            continue
        unsound = None if verdict.unsound is None else verdict.unsound | cells
        if unsound is not None and "id" not in unsound and isinstance(item.get("id"), str):
            built.append((_failed_card(kind, item, manifest.pack, source, unsound), False))
    return built


def _failed_card(kind: CardKind, item: Mapping[str, object], pack: str, source: SourceRef,
                 unsound: frozenset[str]) -> Card:
    """A card that failed its schema, as the checks of its sound fields see it."""
    if kind.partial is not None and "kind" not in unsound:
        return kind.partial(item, pack, source, unsound)
    return Card(id=str(item["id"]), kind=kind.name, count=1, pack=pack, source=source)


def _refused_cells(doc: YamlDocument, findings: list[Finding]) -> dict[int, frozenset[str]]:
    """The fields of a table's cards whose cell was refused when it was read (an uncomputed
    formula, an error value), by card: reported at the cell already, and left out of the
    card, so rules do not trip over the gap."""
    cells = {f.location for f in findings if f.severity is Severity.ERROR
             and f.location.file == doc.file}
    if not cells:
        return {}
    refused: dict[int, set[str]] = {}
    for key, where in doc.values.items():
        if len(key) == 3 and key[0] == "cards" and where in cells and isinstance(key[1], int):
            refused.setdefault(key[1], set()).add(str(key[2]))
    return {index: frozenset(names) for index, names in refused.items()}


def _card_documents(folder: PackFolder, file: PackFile, game: Game
                    ) -> tuple[list[YamlDocument], list[Finding]]:
    """A card file as located documents: YAML as it is, a table (data games) per sheet."""
    if file.suffix in YAML_SUFFIXES:
        doc, problems = folder.load_yaml(file, "card-file")
        return ([doc] if doc is not None else []), problems
    from generator.datagame.tables import TableSchema, load_table

    raw, problems = folder.read_bytes(file, "table")
    if raw is None:
        return [], problems
    schemas = {name: kind.schema_data or {} for name, kind in game.kinds.items()}
    return load_table(raw, file.suffix, file.display, TableSchema(schemas))


#: card files of this many bytes in all are read on two cores (under it, forking costs more
#: than it saves)
SPLIT_BYTES = 2_000_000


def _read_card_files(folder: PackFolder, files: list[PackFile], game: Game
                     ) -> Iterator[tuple[list[YamlDocument], list[Finding]]]:
    """Each card file's documents and findings, in order. A large pack's later files (about
    half its bytes) are read at the same time by a forked process, whose documents come back
    compactly (:meth:`YamlDocument.__reduce__`); the order, and so every finding, is the one
    process's. Closing the generator (the caller stopped at a bound) stops the forked
    reader."""
    sizes = [_size(file) for file in files]
    split = split_point(sizes) if sum(sizes) >= SPLIT_BYTES and worker_count(2) > 1 \
        else len(files)
    if split >= len(files):
        for file in files:
            yield _card_documents(folder, file, game)
        return
    later = files[split:]
    with Forked(lambda: _read_within_bound(folder, later, game)) as reader:
        for file in files[:split]:
            yield _card_documents(folder, file, game)
        yield from reader.result()


def split_point(sizes: list[int]) -> int:
    """How many files (of these sizes, in order) this process reads while a forked one reads
    the rest: the split nearest 55 % of the bytes here, as this process also unpickles what
    the other read (about 40 % of reading it) while the other pickles it (two files of 5.19
    and 5.20 MB split after the first); all of them when there is one file."""
    if len(sizes) < 2:
        return len(sizes)
    target = 0.55 * sum(sizes)
    read = [sum(sizes[:count]) for count in range(1, len(sizes))]
    return 1 + min(range(len(read)), key=lambda index: abs(read[index] - target))


def _read_within_bound(folder: PackFolder, files: list[PackFile], game: Game
                       ) -> list[tuple[list[YamlDocument], list[Finding]]]:
    """The files in order, up to the one whose cards pass :data:`MAX_CARDS` counted from the
    first: the caller, counting from further back, stops reading no later."""
    read: list[tuple[list[YamlDocument], list[Finding]]] = []
    entries = 0
    for file in files:
        if entries > MAX_CARDS:
            break
        read.append(_card_documents(folder, file, game))
        entries += _entries(read[-1][0])
    return read


def _entries(documents: list[YamlDocument]) -> int:
    """Card entries in the documents of a file (a bound on the cards to build)."""
    return sum(len(d.data.get("cards") or ()) for d in documents
               if isinstance(d.data, Mapping) and isinstance(d.data.get("cards"), list))


def _size(file: PackFile) -> int:
    try:
        return file.path.stat().st_size
    except OSError:
        return 0  # the reading itself reports it


def load_pack(path: Path, base_game: Game | None = None) -> PackLoad:
    """Load one pack folder (an expansion with the game of its base, ``base_game``).
    Raises UsageError only when the folder is not a pack at all."""
    root = Path(path)
    if not root.exists():
        raise UsageError(f"{display_path(root)}: no such pack folder")
    if not root.is_dir():
        raise UsageError(f"{display_path(root)}: a pack is a folder holding {MANIFEST_NAME}")
    result = PackLoad(pack=None, game=None)
    folder = PackFolder(root)
    loaded = _load_manifest(folder, result, base_game)
    if loaded is None:
        return result
    manifest, game = loaded
    cards: list[Card] = []
    seen: dict[str, Location] = {}
    files, refused = card_files(folder, card_suffixes(game))
    result.findings.extend(refused)
    result.findings.extend(stray_files(folder.files().files, card_suffixes(game)))
    documents: list[YamlDocument] = []
    entries = 0  # card entries read so far (a bound on the cards to build)
    with closing(_read_card_files(folder, files, game)) as reading:
        for file in files:
            if entries > MAX_CARDS:
                result.findings.append(error(
                    "too-many-cards", f"the pack holds more than {MAX_CARDS} cards before "
                    "this file; it and the files after it were not read",
                    Location(file.display)))
                break
            loaded_docs, problems = next(reading)
            result.findings.extend(problems)
            documents.extend(loaded_docs)
            entries += _entries(loaded_docs)
    for doc in documents:
        result.documents[doc.file] = doc
        for card, sound in _load_cards(doc, manifest, game, result.findings):
            if card.id in seen:
                first = seen[card.id]
                result.findings.append(error(
                    "duplicate-id", f"card id '{card.id}' is already used at {first}",
                    card.source.of("id"), card.id))
                continue
            seen[card.id] = card.source.of("id")
            (cards if sound else result.failed).append(card)
    result.pack = Pack(manifest=manifest, root=root, cards=tuple(cards))
    result.game = game
    return result
