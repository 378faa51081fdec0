"""Путь Командора facts that card texts print and the checks hold them to, each with the seed
line it is from (seed 002, "rules L33").

The rules name three commanders with an extra victory condition (L29-L41). A commander card of
that archetype prints its condition in the pack's words; the number in it is the rule's, so the
validator compares it with the table here, in the source and in every translation.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from msgspec import Struct


class Archetype(Struct, frozen=True):
    """A named commander of the rules and the one number of its extra victory condition."""

    rule: str
    number: int
    what: str  # the condition in English words, for messages and docs
    names: Mapping[str, str]  # the rules' name of the commander, per source language


ARCHETYPES: Mapping[str, Archetype] = MappingProxyType({
    "pirate": Archetype("L33", 70, "enemy losses worth more than 70 resources at the end of a "
                                   "battle phase", MappingProxyType({"ru": "Пират",
                                                                     "en": "Pirate"})),
    "trader": Archetype("L35", 7, "7 or more commercial-run chips at the start of a turn",
                        MappingProxyType({"ru": "Торговец", "en": "Trader"})),
    "procurator": Archetype("L37", 5, "5 or more unblocked space objects under control at the "
                                      "start of a turn",
                            MappingProxyType({"ru": "Прокуратор", "en": "Procurator"})),
})


class ExampleShip(Struct, frozen=True, gc=False):
    """A ship of the rules' worked example (L277-L279): its type and production cost.

    ``names``: the example's name of the ship, as whole words of a card's name (case, quotes,
    hyphens and ё aside), in Russian and in an English pack's words; ``types``: its type in
    the same languages. The example's combat values (hull, shields, weapons) describe one
    battle and are not held to: the pack keeps a cruiser of that name armed otherwise legal
    (tests/fixtures/commander-unusual, ``typed-by-shield``), and its shield is given two ways
    (С3 at L277, 2 in the sums of L279).
    """

    names: tuple[str, ...]
    types: tuple[str, ...]
    cost: int


#: L277 names the attacking cruiser and assault ship and the defending battleship; L279 gives
#: their costs: "стоимость Штурмовика 2, а Крейсера 5", "стоимость линкора 10".
EXAMPLE_SHIPS: tuple[ExampleShip, ...] = (
    ExampleShip(("экзорцист", "exorcist"), ("крейсер", "cruiser"), 5),
    ExampleShip(("магнум к", "magnum k"), ("штурмовик", "assault"), 2),
    ExampleShip(("химера", "chimera", "chimaera"), ("линкор", "battleship"), 10),
)
