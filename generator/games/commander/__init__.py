"""Путь Командора (seed 002): card kinds, schemas, faces, deck rules and drawing widgets."""

from __future__ import annotations

from types import MappingProxyType

from generator.games.builtin import BuiltinGame, LazyFaces, LazyRules
from generator.games.commander import model
from generator.model.game import CardKind

_KINDS = {
    "ship": model.build_ship,
    "space_object": model.build_space_object,
    "ground_unit": model.build_ground_unit,
    "military_building": model.build_military_building,
    "civil_building": model.build_civil_building,
    "tactical": model.build_tactical,
    "situation": model.build_situation,
    "upgrade": model.build_upgrade,
    "commander": model.build_commander,
    "ability": model.build_ability,
}

GAME = BuiltinGame(
    name="commander",
    title="Путь Командора",
    schema_package="generator.games.commander.schemas",
    kinds=MappingProxyType({name: CardKind(name, f"{name}.schema.json", build)
                            for name, build in _KINDS.items()}),
    faces=LazyFaces("generator.games.commander.faces", "generator.games.commander.widgets"),
    rules=LazyRules("generator.games.commander.rules"),
    deck_schema="deck.schema.json",
    deck_rules=LazyRules("generator.games.commander.rules", "DECK_RULES"),
)
