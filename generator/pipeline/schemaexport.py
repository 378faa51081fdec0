"""``pnp schema``: write the JSON Schemas of a pack's game for editors (yaml-language-server).

Inside pnp each card kind is checked against its own schema; editors instead need one schema per
file, so the card-file schema written here bundles every kind under ``$defs`` and picks the right
one with ``if kind == ... then $ref``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from generator.model.game import CardKind, Game
from generator.runtime.safewrite import write_text_atomic
from generator.schema.check import load_schema, plain_schema

_GENERIC = "generator.schema"


def kind_schema(game: Game, kind: CardKind) -> dict[str, object]:
    """A kind's schema: a package file for a built-in game, game.yaml's for a data game."""
    if kind.schema_data is not None:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": f"{game.title}: {kind.name}", **plain_schema(kind.schema_data)}
    return load_schema(game.schema_package, kind.schema)


def bundled_card_file_schema(game: Game) -> dict[str, object]:
    defs: dict[str, object] = {}
    branches: list[dict[str, object]] = []
    for kind in game.kinds.values():
        schema = dict(kind_schema(game, kind))
        schema.pop("$schema", None)
        schema.pop("$id", None)
        defs[kind.name] = schema
        branches.append({
            "if": {"properties": {"kind": {"const": kind.name}}, "required": ["kind"]},
            "then": {"$ref": f"#/$defs/{kind.name}"},
        })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.title} card file",
        "type": "object",
        "additionalProperties": False,
        "required": ["cards"],
        "properties": {
            "cards": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "kind"],
                    "properties": {"kind": {"enum": sorted(game.kinds)}},
                    "allOf": branches,
                },
            }
        },
        "$defs": defs,
    }


def export_schemas(game: Game, out_dir: Path) -> list[Path]:
    """Write the manifest schema, the bundled card-file schema, the deck and glossary schemas
    and one schema per kind."""
    out_dir.mkdir(parents=True, exist_ok=True)
    deck = (load_schema(game.schema_package, game.deck_schema) if game.deck_schema
            else load_schema(_GENERIC, "deck.schema.json"))
    documents: dict[str, object] = {
        "game.schema.json": load_schema(_GENERIC, "game.schema.json"),
        "card-file.schema.json": bundled_card_file_schema(game),
        "deck.schema.json": deck,
        "glossary.schema.json": load_schema(_GENERIC, "glossary.schema.json"),
    }
    for kind in game.kinds.values():
        documents[f"{game.name}-{kind.schema}"] = kind_schema(game, kind)
    written: list[Path] = []
    for name, document in documents.items():
        target = out_dir / name
        # atomic: an editor reading the schema meanwhile, or a full disk, never sees half of it
        write_text_atomic(target, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        written.append(target)
    return written


def _modeline(schema: Path, folder: Path) -> str:
    """yaml-language-server resolves a relative ``$schema`` from the YAML file's own folder."""
    try:
        relative = os.path.relpath(schema.resolve(), folder.resolve())
    except ValueError:  # another drive (Windows): only an absolute URI reaches it
        relative = schema.resolve().as_uri()
    return f"# yaml-language-server: $schema={Path(relative).as_posix()}"


def modelines(root: Path, out_dir: Path) -> list[tuple[str, str]]:
    """(which files, the modeline to paste) for the pack's YAML card files (per folder), its
    decks and its glossary, each resolving from where that file is; last, an absolute URI that
    works from anywhere."""
    lines: list[tuple[str, str]] = []
    card_file = out_dir / "card-file.schema.json"
    folders: list[Path] = []
    if root.is_dir():
        for path in sorted(root.rglob("*.y*ml")):
            relative = path.relative_to(root)
            if (relative.parts[0] in ("locales", "decks", "templates", out_dir.name)
                    or path.name in ("game.yaml", "glossary.yaml")
                    or any(part.startswith(".") for part in relative.parts)):
                continue
            if path.parent not in folders:
                folders.append(path.parent)
        for folder in folders:
            where = folder.relative_to(root).as_posix()
            what = "each card file" + ("" if where == "." else f" in {where}/")
            lines.append((what, _modeline(card_file, folder)))
        if (Path(root) / "decks").is_dir():
            lines.append(("each deck file in decks/",
                          _modeline(out_dir / "deck.schema.json", Path(root) / "decks")))
        lines.append(("glossary.yaml", _modeline(out_dir / "glossary.schema.json", Path(root))))
    lines.append(("a card file anywhere (absolute)",
                  f"# yaml-language-server: $schema={card_file.resolve().as_uri()}"))
    return lines
