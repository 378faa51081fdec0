"""Cold War Naval Battles card kinds as immutable objects (fields of rules 4, 7-10, 12)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from generator.model.cards import Card, SourceRef

SUBMARINE_TYPES = frozenset({"SSN"})
CARRIER_TYPES = frozenset({"CV", "CVN", "CVH", "CVHG"})
#: rule 12.7: a ship whose Hits to Sink is 7 or more survives an air strike as a cripple
CRIPPLE_MIN_HITS = 7
AEGIS = "3+3"


class Ship(Card, frozen=True):
    name: str
    ship_class: str
    type: str
    nation: str
    points: int
    hits_to_sink: int
    guns: tuple[str, ...]
    missiles: tuple[str, ...]
    air_strike: int
    air_defense: int | str | None
    traits: tuple[str, ...]
    back: str

    TRANSLATABLE = ("name", "ship_class")
    YAML_KEYS = MappingProxyType({"ship_class": "class"})

    @property
    def is_submarine(self) -> bool:
        return self.type in SUBMARINE_TYPES

    @property
    def is_carrier(self) -> bool:
        return self.type in CARRIER_TYPES

    @property
    def has_aegis(self) -> bool:
        return self.air_defense == AEGIS

    @property
    def can_be_crippled(self) -> bool:
        return not self.is_submarine and self.hits_to_sink >= CRIPPLE_MIN_HITS


class Action(Card, frozen=True):
    name: str
    text: str
    action: str
    caliber: str | None
    missile_class: str | None
    damage: int | None
    chance_to_hit: int | None
    chance_vs_active: int | None
    chance_vs_passive: int | None
    chance_by_row: tuple[int, ...] | None

    TRANSLATABLE = ("name", "text")


class PlayerOrder(Card, frozen=True):
    order: int
    name: str | None

    TRANSLATABLE = ("name",)


def default_back(ship_type: str, hits_to_sink: int) -> str:
    """The back face a ship gets when its card does not name one (rules 5.23 and 12.7)."""
    if ship_type in SUBMARINE_TYPES:
        return "passive"
    if hits_to_sink >= CRIPPLE_MIN_HITS:
        return "crippled"
    return "logo"


def _common(data: Mapping[str, object], pack: str, source: SourceRef) -> dict[str, object]:
    return {"id": data["id"], "kind": data["kind"], "count": int(data.get("count", 1)),
            "pack": pack, "source": source}


def build_ship(data: Mapping[str, object], pack: str, source: SourceRef) -> Ship:
    ship_type = str(data["type"])
    hits = int(data["hits_to_sink"])
    return Ship(
        **_common(data, pack, source),
        name=str(data["name"]),
        ship_class=str(data["class"]),
        type=ship_type,
        nation=str(data["nation"]),
        points=int(data["points"]),
        hits_to_sink=hits,
        guns=tuple(data.get("guns", ())),
        missiles=tuple(data.get("missiles", ())),
        air_strike=int(data.get("air_strike", 0)),
        air_defense=data.get("air_defense"),
        traits=tuple(data.get("traits", ())),
        back=str(data.get("back") or default_back(ship_type, hits)),
    )


def build_action(data: Mapping[str, object], pack: str, source: SourceRef) -> Action:
    rows = data.get("chance_by_row")
    return Action(
        **_common(data, pack, source),
        name=str(data["name"]),
        text=str(data.get("text", "")),
        action=str(data["action"]),
        caliber=data.get("caliber"),
        missile_class=data.get("missile_class"),
        damage=data.get("damage"),
        chance_to_hit=data.get("chance_to_hit"),
        chance_vs_active=data.get("chance_vs_active"),
        chance_vs_passive=data.get("chance_vs_passive"),
        chance_by_row=tuple(rows) if rows is not None else None,
    )


def build_player_order(data: Mapping[str, object], pack: str,
                       source: SourceRef) -> PlayerOrder:
    name = data.get("name")
    return PlayerOrder(**_common(data, pack, source), order=int(data["order"]),
                       name=str(name) if name else None)
