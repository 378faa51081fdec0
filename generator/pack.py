"""Load a pack folder: manifest, card files, schema checks, and the typed card objects.

Loading never stops at the first bad card: every file and every card is checked, each problem
becomes a finding, and only the cards that passed their schema are turned into model objects.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from generator import schemacheck
from generator.errors import UsageError
from generator.findings import Finding, error
from generator.games import get_game, known_games
from generator.games.base import Game
from generator.location import Location
from generator.model import Card, CardSize, Manifest, Pack, SourceRef
from generator.yamlsource import YamlDocument, load_yaml_file

MANIFEST_NAME = "game.yaml"
GLOSSARY_NAME = "glossary.yaml"
_NOT_CARD_FILES = frozenset({Path(MANIFEST_NAME), Path(GLOSSARY_NAME)})
_NOT_CARD_DIRS = frozenset({"locales", "decks", "templates"})
_YAML_SUFFIXES = frozenset({".yaml", ".yml"})
_GENERIC_SCHEMAS = "generator.schemas"


@dataclass(slots=True)
class PackLoad:
    """What loading a pack produced: the pack (if its manifest was usable) and the findings."""

    pack: Pack | None
    game: Game | None
    findings: list[Finding] = field(default_factory=list)
    documents: dict[str, YamlDocument] = field(default_factory=dict)


def display_path(path: Path) -> str:
    """Paths in messages are relative to the working directory when that is shorter."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if not relative.startswith("..") else str(path)


def card_files(root: Path, suffixes: frozenset[str] = _YAML_SUFFIXES
               ) -> tuple[list[Path], list[Finding]]:
    """Every ``*.yaml``/``*.yml`` (a data game: also ``*.csv``, ``*.xlsx``) below the pack
    folder except the manifest, the glossary, locales, decks and templates. A file (or link)
    that resolves outside the pack is refused: a pack is shared and built by others, and must
    not read what lies beyond its folder."""
    found: list[Path] = []
    refused: list[Finding] = []
    real_root = root.resolve()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.suffix.lower() not in suffixes or not path.is_file():
            continue
        if relative.parts[0] in _NOT_CARD_DIRS or any(p.startswith(".") for p in relative.parts):
            continue
        if relative in _NOT_CARD_FILES:
            continue
        if not path.resolve().is_relative_to(real_root):
            refused.append(error("path-escape", "this file links outside the pack folder; "
                                 "copy the file into the pack instead",
                                 Location(display_path(path))))
            continue
        found.append(path)
    return found, refused


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
        card_size=CardSize.from_spec(data.get("card_size", "poker")),
        extends=str(data["extends"]) if data.get("extends") else None,
        location=doc.where(()),
        sheet_per_kind=bool(data.get("sheet_per_kind", True)),
        options=MappingProxyType(dict(data.get("options") or {})),
        fields=MappingProxyType({str(key): doc.where((key,)) for key in data}),
    )


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
            loaded = _load_manifest(sibling, base)
            if loaded is not None and loaded[1].name == name:
                return loaded[1]
    if game is None:
        key = "game" if data.get("game") else "extends"
        result.findings.append(error(
            "unknown-game", f"unknown game '{name}'; known games: "
            f"{', '.join(known_games())}, or a pack defining its game with kinds:",
            doc.where((key,))))
    return game


def _load_manifest(root: Path, result: PackLoad,
                   base_game: Game | None = None) -> tuple[Manifest, Game] | None:
    manifest_path = root / MANIFEST_NAME
    if not manifest_path.is_file():
        raise UsageError(f"{display_path(root)}: not a pack: {MANIFEST_NAME} is missing")
    doc, problems = load_yaml_file(manifest_path, display_path(manifest_path))
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
    game = _find_game(doc, root, base_game, result)
    if game is None:
        return None
    return _manifest(doc, game.name), game


def _source_ref(doc: YamlDocument, index: int, card: Mapping[str, object]) -> SourceRef:
    base = ("cards", index)
    fields = {name: doc.where((*base, name)) for name in card}
    return SourceRef(doc.where(base), fields)


def _load_cards(doc: YamlDocument, manifest: Manifest, game: Game,
                findings: list[Finding]) -> list[Card]:
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
    built: list[Card] = []
    bad_items = {f.location for f in envelope}
    for index, item in enumerate(cards_data):
        if not isinstance(item, Mapping) or doc.where(("cards", index)) in bad_items:
            continue
        card_id = str(item.get("id"))
        kind = game.kinds.get(str(item.get("kind")))
        if kind is None:
            choices = sorted(game.kinds)
            findings.append(error(
                "unknown-value",
                f"'kind' is {item.get('kind')!r}; expected one of: {', '.join(choices)}"
                f"{schemacheck.did_you_mean(str(item.get('kind')), choices)}",
                doc.where(("cards", index, "kind")), card_id))
            continue
        problems = schemacheck.check(doc, game.schema_package, kind.schema, instance=item,
                                     base=("cards", index), card=card_id,
                                     schema=kind.schema_data)
        findings.extend(problems)
        if not problems:
            built.append(kind.build(item, manifest.pack, _source_ref(doc, index, item)))
    return built


def _card_documents(file: Path, game: Game) -> tuple[list[YamlDocument], list[Finding]]:
    """A card file as located documents: YAML as it is, a table (data games) per sheet."""
    if file.suffix.lower() in _YAML_SUFFIXES:
        doc, problems = load_yaml_file(file, display_path(file))
        return ([doc] if doc is not None else []), problems
    from generator.datagame.tables import TableSchema, load_table

    schemas = {name: kind.schema_data or {} for name, kind in game.kinds.items()}
    return load_table(file, display_path(file), TableSchema(schemas))


def load_pack(path: Path, base_game: Game | None = None) -> PackLoad:
    """Load one pack folder (an expansion with the game of its base, ``base_game``).
    Raises UsageError only when the folder is not a pack at all."""
    root = Path(path)
    if not root.exists():
        raise UsageError(f"{display_path(root)}: no such pack folder")
    if not root.is_dir():
        raise UsageError(f"{display_path(root)}: a pack is a folder holding {MANIFEST_NAME}")
    result = PackLoad(pack=None, game=None)
    loaded = _load_manifest(root, result, base_game)
    if loaded is None:
        return result
    manifest, game = loaded
    cards: list[Card] = []
    seen: dict[str, Location] = {}
    suffixes = _YAML_SUFFIXES | {".csv", ".xlsx"} if game.data is not None else _YAML_SUFFIXES
    files, refused = card_files(root, suffixes)
    result.findings.extend(refused)
    documents: list[YamlDocument] = []
    for file in files:
        loaded_docs, problems = _card_documents(file, game)
        result.findings.extend(problems)
        documents.extend(loaded_docs)
    for doc in documents:
        result.documents[doc.file] = doc
        for card in _load_cards(doc, manifest, game, result.findings):
            if card.id in seen:
                first = seen[card.id]
                result.findings.append(error(
                    "duplicate-id", f"card id '{card.id}' is already used at {first}",
                    card.source.of("id"), card.id))
                continue
            seen[card.id] = card.source.of("id")
            cards.append(card)
    result.pack = Pack(manifest=manifest, root=root, cards=tuple(cards))
    result.game = game
    return result
