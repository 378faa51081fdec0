"""``pnp schema``: write the JSON Schemas of a pack's game for editors (yaml-language-server).

Inside pnp each card kind is checked against its own schema; editors instead need one schema per
file, so the card-file schema written here bundles every kind under ``$defs`` and picks the right
one with ``if kind == ... then $ref``.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.games.base import CardKind, Game
from generator.schemacheck import load_schema, plain_schema

_GENERIC = "generator.schemas"


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
    """Write the manifest schema, the bundled card-file schema and one schema per kind."""
    out_dir.mkdir(parents=True, exist_ok=True)
    documents: dict[str, object] = {
        "game.schema.json": load_schema(_GENERIC, "game.schema.json"),
        "card-file.schema.json": bundled_card_file_schema(game),
    }
    for kind in game.kinds.values():
        documents[f"{game.name}-{kind.schema}"] = kind_schema(game, kind)
    written: list[Path] = []
    for name, document in documents.items():
        target = out_dir / name
        target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        written.append(target)
    return written
