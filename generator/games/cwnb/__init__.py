"""Cold War Naval Battles (seed 001): card kinds, schemas, rules and drawing widgets."""

from __future__ import annotations

from types import MappingProxyType

from generator.games.builtin import BuiltinGame, LazyFaces, LazyRules
from generator.games.cwnb.model import build_action, build_player_order, build_ship
from generator.model.game import CardKind

GAME = BuiltinGame(
    name="cwnb",
    title="Cold War Naval Battles",
    schema_package="generator.games.cwnb.schemas",
    kinds=MappingProxyType({
        "ship": CardKind("ship", "ship.schema.json", build_ship),
        "action": CardKind("action", "action.schema.json", build_action),
        "player_order": CardKind("player_order", "player_order.schema.json",
                                 build_player_order),
    }),
    faces=LazyFaces("generator.games.cwnb.faces", "generator.games.cwnb.widgets"),
    rules=LazyRules("generator.games.cwnb.rules"),
)
