"""Путь Командора card kinds as immutable objects (seed 002, "Виды карт", L80-L114, L319-L323).

Notation fields (hull "8(5)", lasers "2/4", salvos "6-4", shields "С3", "D6 4+") are kept exactly
as written: the rules check them (``notation``) and the faces print them, so a card never shows
a value the validator did not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from msgspec import Struct

from generator.model.cards import Card, SourceRef

SIZES = ("ЛК", "СК", "ТК")
CREW_QUALITIES = ("Н", "В", "Э")
ENERGY_TYPES = ("А", "В", "С")
RANGES = ("Д", "С", "М")
#: sizes whose cards carry the blank proper-name line (L323)
NAMED_SIZES = frozenset({"СК", "ТК"})


def _optional_bool(value: object) -> bool | None:
    return None if value is None else bool(value)


def _int_or_none(value: object) -> int | None:
    return None if value is None else int(value)


def _text(value: object) -> str | None:
    """A notation as written; YAML reads ``lasers: 4`` as a number, the card prints "4"."""
    return None if value is None else str(value)


class Weapons(Struct, frozen=True, gc=False):
    """Weapon rows of a ship, station or military building (L163-L167, L215-L261)."""

    rockets: str | None
    rocket_range: str | None
    turbolaser: int | None
    nova: int | None
    torpedoes: str | None
    plasma: int | None
    mazer: str | None
    lasers: str | None
    bombs: int | None
    boarding: int | None
    landing: int | None

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Weapons:
        return cls(
            rockets=_text(data.get("rockets")),
            rocket_range=_text(data.get("rocket_range")),
            turbolaser=data.get("turbolaser"),
            nova=data.get("nova"),
            torpedoes=_text(data.get("torpedoes")),
            plasma=data.get("plasma"),
            mazer=_text(data.get("mazer")),
            lasers=_text(data.get("lasers")),
            bombs=data.get("bombs"),
            boarding=data.get("boarding"),
            landing=data.get("landing"),
        )


class Combat(Struct, frozen=True, gc=False):
    """What lets a card fight "by the rules of a ship" (L197, L213)."""

    hull: str | None
    speed: int | None
    armor: int
    shield: str | None
    crew: str | None
    crew_size: int | None
    weapons: Weapons

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Combat:
        return cls(
            hull=_text(data.get("hull")),
            speed=_int_or_none(data.get("speed")),
            armor=int(data.get("armor", 0)),
            shield=_text(data.get("shield")),
            crew=_text(data.get("crew")),
            crew_size=_int_or_none(data.get("crew_size")),
            weapons=Weapons.of(data),
        )


class CommanderCard(Card, frozen=True):
    """Fields every card of the game prints: its name, rarity and number in the release (L319)."""

    name: str
    rarity: str
    number: int
    text: str

    TRANSLATABLE = ("name", "text")


class Ship(CommanderCard, frozen=True):
    size: str
    type: str
    cost: int
    combat: Combat
    properties: tuple[str, ...]
    #: as written; None = the rules' default (L323: on СК and ТК ships)
    proper_name_line: bool | None

    TRANSLATABLE = ("name", "type", "text")

    @property
    def shows_proper_name(self) -> bool:
        if self.proper_name_line is not None:
            return self.proper_name_line
        return self.size in NAMED_SIZES


class SpaceObject(CommanderCard, frozen=True):
    object_type: str
    cost: int
    yield_resources: int
    yield_chips: int
    combat: Combat
    proper_name_line: bool | None

    @property
    def is_station(self) -> bool:
        return self.object_type == "station"

    @property
    def shows_proper_name(self) -> bool:
        return True if self.proper_name_line is None else self.proper_name_line


class GroundUnit(CommanderCard, frozen=True):
    cost: int
    strength: int


class MilitaryBuilding(CommanderCard, frozen=True):
    cost: int
    combat: Combat


class CivilBuilding(CommanderCard, frozen=True):
    cost: int
    combat: Combat
    yield_resources: int
    yield_chips: int


class Tactical(CommanderCard, frozen=True):
    chips: int | None
    d6: str | None


class Situation(CommanderCard, frozen=True):
    resources: int | None
    chips: int | None
    d6: str | None


class Upgrade(CommanderCard, frozen=True):
    hosts: tuple[str, ...]
    cost: int


class Commander(CommanderCard, frozen=True):
    initiative: int
    victory: str
    archetype: str | None  # pirate | trader | procurator: a commander the rules name (L33-L37)

    TRANSLATABLE = ("name", "text", "victory")


class Ability(CommanderCard, frozen=True):
    special: bool
    variants: tuple[str, ...]

    TRANSLATABLE = ("name", "text", "variant_1", "variant_2")
    YAML_KEYS = MappingProxyType({"variant_1": "variants.1", "variant_2": "variants.2"})

    @property
    def variant_1(self) -> str:
        return self.variants[0] if self.variants else ""

    @property
    def variant_2(self) -> str:
        return self.variants[1] if len(self.variants) > 1 else ""


#: every kind of the game that fights by the rules of a ship
ARMED = (Ship, SpaceObject, MilitaryBuilding, CivilBuilding)
#: kinds that are never shuffled into a deck (L110)
OUTSIDE_DECK = frozenset({"commander"})


def _common(data: Mapping[str, object], pack: str, source: SourceRef) -> dict[str, object]:
    return {"id": data["id"], "kind": data["kind"], "count": int(data.get("count", 1)),
            "pack": pack, "source": source, "name": str(data["name"]),
            "rarity": str(data["rarity"]), "number": int(data["number"]),
            "text": str(data.get("text", ""))}


def build_ship(data: Mapping[str, object], pack: str, source: SourceRef) -> Ship:
    return Ship(**_common(data, pack, source), size=str(data["size"]), type=str(data["type"]),
                cost=int(data["cost"]), combat=Combat.of(data),
                properties=tuple(str(p) for p in data.get("properties", ())),
                proper_name_line=_optional_bool(data.get("proper_name_line")))


def build_space_object(data: Mapping[str, object], pack: str, source: SourceRef) -> SpaceObject:
    return SpaceObject(**_common(data, pack, source), object_type=str(data["object_type"]),
                       cost=int(data["cost"]),
                       yield_resources=int(data.get("yield_resources", 0)),
                       yield_chips=int(data.get("yield_chips", 0)), combat=Combat.of(data),
                       proper_name_line=_optional_bool(data.get("proper_name_line")))


def build_ground_unit(data: Mapping[str, object], pack: str, source: SourceRef) -> GroundUnit:
    return GroundUnit(**_common(data, pack, source), cost=int(data["cost"]),
                      strength=int(data["strength"]))


def build_military_building(data: Mapping[str, object], pack: str,
                            source: SourceRef) -> MilitaryBuilding:
    return MilitaryBuilding(**_common(data, pack, source), cost=int(data["cost"]),
                            combat=Combat.of(data))


def build_civil_building(data: Mapping[str, object], pack: str,
                         source: SourceRef) -> CivilBuilding:
    return CivilBuilding(**_common(data, pack, source), cost=int(data["cost"]),
                         combat=Combat.of(data),
                         yield_resources=int(data.get("yield_resources", 0)),
                         yield_chips=int(data.get("yield_chips", 0)))


def build_tactical(data: Mapping[str, object], pack: str, source: SourceRef) -> Tactical:
    return Tactical(**_common(data, pack, source), chips=_int_or_none(data.get("chips")),
                    d6=_text(data.get("d6")))


def build_situation(data: Mapping[str, object], pack: str, source: SourceRef) -> Situation:
    return Situation(**_common(data, pack, source),
                     resources=_int_or_none(data.get("resources")),
                     chips=_int_or_none(data.get("chips")), d6=_text(data.get("d6")))


def build_upgrade(data: Mapping[str, object], pack: str, source: SourceRef) -> Upgrade:
    hosts = data["host"]
    hosts = (hosts,) if isinstance(hosts, str) else tuple(hosts)
    return Upgrade(**_common(data, pack, source), hosts=tuple(str(h) for h in hosts),
                   cost=int(data["cost"]))


def build_commander(data: Mapping[str, object], pack: str, source: SourceRef) -> Commander:
    archetype = data.get("archetype")
    return Commander(**_common(data, pack, source), initiative=int(data["initiative"]),
                     victory=str(data.get("victory", "")),
                     archetype=None if archetype is None else str(archetype))


def build_ability(data: Mapping[str, object], pack: str, source: SourceRef) -> Ability:
    variants = tuple(str(v) for v in data.get("variants", ()))
    # each variant is translated on its own; both point at the variants list in the card file
    located = SourceRef(source.location, {
        **source.fields, **{f"variants.{i}": source.of("variants") for i in (1, 2)}})
    common = _common(data, pack, located)
    return Ability(**common, special=bool(data.get("special", False)), variants=variants)
