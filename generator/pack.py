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
_NOT_CARD_DIRS = frozenset({"locales", "decks"})
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


def card_files(root: Path) -> tuple[list[Path], list[Finding]]:
    """Every ``*.yaml``/``*.yml`` below the pack folder except the manifest, the glossary,
    locales and decks. A file (or link) that resolves outside the pack is refused: a pack is
    shared and built by others, and must not read what lies beyond its folder."""
    found: list[Path] = []
    refused: list[Finding] = []
    real_root = root.resolve()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.suffix not in {".yaml", ".yml"} or not path.is_file():
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


def _manifest(doc: YamlDocument) -> Manifest:
    data = doc.data
    assert isinstance(data, Mapping)
    source_locale = str(data["source_locale"])
    locales = tuple(data.get("locales", (source_locale,)))
    if source_locale not in locales:
        locales = (source_locale, *locales)
    return Manifest(
        pack=str(data["pack"]),
        game=str(data["game"]),
        name=str(data["name"]),
        version=str(data.get("version", "")),
        source_locale=source_locale,
        locales=locales,
        set_mark=str(data["set_mark"]),
        set_mark_label=str(data.get("set_mark_label", "")),
        card_size=CardSize.from_spec(data.get("card_size", "poker")),
        extends=str(data["extends"]) if data.get("extends") else None,
        location=doc.where(()),
        sheet_per_kind=bool(data.get("sheet_per_kind", True)),
        options=MappingProxyType(dict(data.get("options") or {})),
    )


def _load_manifest(root: Path, result: PackLoad) -> tuple[Manifest, Game] | None:
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
    game = get_game(str(doc.data["game"]))
    if game is None:
        result.findings.append(error(
            "unknown-game", f"unknown game '{doc.data['game']}'; known games: "
            f"{', '.join(known_games())}", doc.where(("game",))))
        return None
    return _manifest(doc), game


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
                                     base=("cards", index), card=card_id)
        findings.extend(problems)
        if not problems:
            built.append(kind.build(item, manifest.pack, _source_ref(doc, index, item)))
    return built


def load_pack(path: Path) -> PackLoad:
    """Load one pack folder. Raises UsageError only when the folder is not a pack at all."""
    root = Path(path)
    if not root.exists():
        raise UsageError(f"{display_path(root)}: no such pack folder")
    if not root.is_dir():
        raise UsageError(f"{display_path(root)}: a pack is a folder holding {MANIFEST_NAME}")
    result = PackLoad(pack=None, game=None)
    loaded = _load_manifest(root, result)
    if loaded is None:
        return result
    manifest, game = loaded
    cards: list[Card] = []
    seen: dict[str, Location] = {}
    files, refused = card_files(root)
    result.findings.extend(refused)
    for file in files:
        doc, problems = load_yaml_file(file, display_path(file))
        result.findings.extend(problems)
        if doc is None:
            continue
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
