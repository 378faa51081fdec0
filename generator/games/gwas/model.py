"""Great War at Sea card kinds as immutable objects, built from schema-checked YAML mappings.

Values are kept as written where the checks need to see a mistake (the gunnery factors as a
tuple of any length, the speed as its text), and normalised only where YAML's typing would get in
the way (``speed: 2`` and ``speed: "2"`` are the same speed).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from generator.games.gwas.tables import (
    LARGE,
    NATION_SIDES,
    SMALL,
    SMALL_CLASSES,
)
from generator.model.cards import Card, SourceRef


def name_key(name: str) -> str:
    """Ship names compare as a player reads them off the data sheet: case-, spacing- and
    accent-blind ("Szent István" is "Szent Istvan")."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(ch for ch in folded if not unicodedata.combining(ch)).split())



class Unit(Card, frozen=True):
    """What every card of a navy has: a nation, hence a side."""

    nation: str

    @property
    def side(self) -> str:
        return NATION_SIDES[self.nation]


class Ship(Unit, frozen=True):
    name: str  # as on the ship data sheet: Latin script in every language (004:137)
    ship_class: str  # class code of 003:228, e.g. BB
    group: str  # capital | light | noncombat
    gunnery: tuple[int, ...]  # P-S-T for a large counter, T alone for a small one (003:176)
    torpedo_deck: int
    torpedo_hull: int
    speed: str  # 2+ 2 1 1s (003:333)
    italic: bool  # better gunnery: name printed in italics (003:329)
    counter: str  # small | large
    counter_given: bool  # the card says which counter, rather than the class table
    ships: int  # ships this card stands for (a group of small ships, 003:176)
    hull: int | None
    year: int | None
    note: str

    TRANSLATABLE = ("note",)
    YAML_KEYS = MappingProxyType({"ship_class": "class"})


class Submarine(Unit, frozen=True):
    name: str
    torpedo_deck: int
    torpedo_hull: int
    ace: bool
    commander: str
    note: str

    TRANSLATABLE = ("commander", "note")


class Mtb(Unit, frozen=True):
    name: str
    torpedo_deck: int
    torpedo_hull: int
    note: str

    TRANSLATABLE = ("note",)


class Airship(Unit, frozen=True):
    name: str
    movement: int | None  # zones a turn, printed on the counter (004:77)
    bombs: int | None  # gunnery (bomb) factor (003:176)
    note: str

    TRANSLATABLE = ("note",)


class Leader(Unit, frozen=True):
    name: str
    rank: str
    flagship: str  # name of a ship card of the same side (004:59)

    TRANSLATABLE = ("name", "rank")


class FleetCounter(Unit, frozen=True):
    number: int  # printed on one side only (003:194)


class Reference(Card, frozen=True):
    procedure: str
    rule: str
    title: str
    text: str
    modifiers: str  # one "label value" per line, e.g. "Ясно +1"

    TRANSLATABLE = ("title", "text", "modifiers")


def _common(data: Mapping[str, object], pack: str, source: SourceRef) -> dict[str, object]:
    return {"id": data["id"], "kind": data["kind"], "count": int(data.get("count", 1)),
            "pack": pack, "source": source}


def _unit(data: Mapping[str, object], pack: str, source: SourceRef) -> dict[str, object]:
    return {**_common(data, pack, source), "nation": str(data["nation"])}


def _torpedoes(data: Mapping[str, object]) -> dict[str, int]:
    mounts = data.get("torpedoes") or {}
    assert isinstance(mounts, Mapping)
    return {"torpedo_deck": int(mounts.get("deck", 0)), "torpedo_hull": int(mounts.get("hull", 0))}


def _gunnery(value: object) -> tuple[int, ...]:
    """``8-3-1`` -> (8, 3, 1); ``2`` (a number in YAML) -> (2,)."""
    return tuple(int(part) for part in str(value).split("-"))


def _optional_int(value: object) -> int | None:
    return None if value is None else int(value)


def default_counter(code: str) -> str:
    return SMALL if code in SMALL_CLASSES else LARGE


def build_ship(data: Mapping[str, object], pack: str, source: SourceRef) -> Ship:
    code = str(data["class"])
    given = data.get("counter")
    return Ship(
        **_unit(data, pack, source),
        name=str(data["name"]),
        ship_class=code,
        group=str(data["group"]),
        gunnery=_gunnery(data.get("gunnery", 0)),
        **_torpedoes(data),
        speed=str(data["speed"]),
        italic=bool(data.get("italic", False)),
        counter=str(given) if given else default_counter(code),
        counter_given=given is not None,
        ships=int(data.get("ships", 1)),
        hull=_optional_int(data.get("hull")),
        year=_optional_int(data.get("year")),
        note=str(data.get("note", "")),
    )


def build_submarine(data: Mapping[str, object], pack: str, source: SourceRef) -> Submarine:
    return Submarine(**_unit(data, pack, source), name=str(data["name"]), **_torpedoes(data),
                     ace=bool(data.get("ace", False)),
                     commander=str(data.get("commander", "")), note=str(data.get("note", "")))


def build_mtb(data: Mapping[str, object], pack: str, source: SourceRef) -> Mtb:
    return Mtb(**_unit(data, pack, source), name=str(data["name"]), **_torpedoes(data),
               note=str(data.get("note", "")))


def build_airship(data: Mapping[str, object], pack: str, source: SourceRef) -> Airship:
    return Airship(**_unit(data, pack, source), name=str(data["name"]),
                   movement=_optional_int(data.get("movement")),
                   bombs=_optional_int(data.get("bombs")), note=str(data.get("note", "")))


def build_leader(data: Mapping[str, object], pack: str, source: SourceRef) -> Leader:
    return Leader(**_unit(data, pack, source), name=str(data["name"]),
                  rank=str(data.get("rank", "")), flagship=str(data["flagship"]))


def build_fleet_counter(data: Mapping[str, object], pack: str,
                        source: SourceRef) -> FleetCounter:
    return FleetCounter(**_unit(data, pack, source), number=int(data["number"]))


def build_reference(data: Mapping[str, object], pack: str, source: SourceRef) -> Reference:
    return Reference(**_common(data, pack, source), procedure=str(data["procedure"]),
                     rule=str(data.get("rule", "")), title=str(data["title"]),
                     text=str(data.get("text", "")), modifiers=str(data.get("modifiers", "")))
