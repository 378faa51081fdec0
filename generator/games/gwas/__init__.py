"""Great War at Sea (seeds 003 and 004): card kinds, schemas, faces and rules.

Ships, submarines, motor torpedo boats, airships and leaders print on poker cards; fleet
counters are half-inch (12.7 mm) two-sided pieces, so their kind carries its own size and the
imposition gives them sheets of their own with a cutting grid.
"""

from __future__ import annotations

from types import MappingProxyType

from generator.games.builtin import BuiltinGame, LazyFaces, LazyRules
from generator.games.gwas.model import (
    build_airship,
    build_fleet_counter,
    build_leader,
    build_mtb,
    build_reference,
    build_ship,
    build_submarine,
)
from generator.model.cards import CardSize
from generator.model.game import CardKind

#: 003:194: fleet counters are half-inch pieces
COUNTER_SIZE = CardSize(12.7, 12.7, "half-inch counter")

GAME = BuiltinGame(
    name="gwas",
    title="Great War at Sea",
    schema_package="generator.games.gwas.schemas",
    kinds=MappingProxyType({
        "ship": CardKind("ship", "ship.schema.json", build_ship),
        "submarine": CardKind("submarine", "submarine.schema.json", build_submarine),
        "mtb": CardKind("mtb", "mtb.schema.json", build_mtb),
        "airship": CardKind("airship", "airship.schema.json", build_airship),
        "leader": CardKind("leader", "leader.schema.json", build_leader),
        "reference": CardKind("reference", "reference.schema.json", build_reference),
        "fleet_counter": CardKind("fleet_counter", "fleet_counter.schema.json",
                                  build_fleet_counter, size=COUNTER_SIZE),
    }),
    faces=LazyFaces("generator.games.gwas.faces", "generator.games.gwas.widgets"),
    rules=LazyRules("generator.games.gwas.rules"),
)
