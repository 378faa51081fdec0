"""Which template draws each side of a Путь Командора card, and the values its elements print.

Face values are already-localized strings, numbers and small tuples (stat cells, weapon rows)
read by the game's widgets; templates never reach into card objects. A notation that does not
parse is printed as written (the validator has already reported it).
"""

from __future__ import annotations

from collections.abc import Callable

from generator.games.commander import notation
from generator.games.commander.geometry import KEYWORD_PT, STACK_W, body_slot
from generator.games.commander.model import (
    RANGES,
    Ability,
    CivilBuilding,
    Combat,
    Commander,
    CommanderCard,
    GroundUnit,
    MilitaryBuilding,
    Ship,
    Situation,
    SpaceObject,
    Tactical,
    Upgrade,
)
from generator.layout.textfit import fit_text
from generator.model.cards import Card

FieldText = Callable[[Card, str], str]
LabelText = Callable[[str], str]

FRONT_TEMPLATES = {
    "ship": "ship", "space_object": "space-object", "ground_unit": "ground-unit",
    "military_building": "military-building", "civil_building": "civil-building",
    "tactical": "tactical", "situation": "situation", "upgrade": "upgrade",
    "commander": "commander", "ability": "ability",
}
#: weapon rows in the order they fire: long, medium, then short range (L163-L167)
WEAPON_BANDS = (("turbolaser", "Д"), ("nova", "Д"), ("torpedoes", "С"), ("plasma", "С"),
                ("mazer", "С"), ("lasers", "М"), ("bombs", "М"), ("boarding", "М"),
                ("landing", ""))
_BAND_ORDER = {"Д": 0, "С": 1, "М": 2, "": 3}


def front_template(card: Card) -> str:
    return FRONT_TEMPLATES[card.kind]


def back_template(card: Card) -> str:
    """Every card shares one back: the deck, production and setup are all face down (L62,
    L84, L118), so backs must give nothing away."""
    return "back"


def _energy_text(value: str | None) -> str:
    """Energy types print as written in every language: Cyrillic А, В, С read as A, B, C."""
    if value is None:
        return ""
    parsed = notation.energy(value, "shield")
    return value if isinstance(parsed, notation.Problem) else f"{parsed.type}{parsed.power}"


#: a stat cell: its printed label and value, then what each prints (the label's key; the card
#: field, with the label key of a crew's quality before it), for a finding to name
StatCell = tuple[str, str, str, str | tuple[str, ...]]


def _cell(label: LabelText, key: str, value: str, field: str | tuple[str, ...]) -> StatCell:
    return (label(key), value, key, field)


def _stats(combat: Combat, label: LabelText, *, speed: bool, crew: bool) -> list[StatCell]:
    cells = [_cell(label, "Прочность", combat.hull or "—", "hull")]
    if speed:
        cells.append(_cell(label, "Скорость",
                           str(combat.speed if combat.speed is not None else 0), "speed"))
    cells.append(_cell(label, "Броня", str(combat.armor), "armor"))
    cells.append(_cell(label, "Щит", _energy_text(combat.shield) or "—", "shield"))
    if crew:
        size = combat.crew_size or 0
        key = f"crew:{combat.crew}"
        quality = label(key) if combat.crew and size else ""
        cells.append(_cell(label, "Экипаж", f"{quality}\u2009{size}", (key, "crew_size"))
                     if quality else _cell(label, "Экипаж", str(size), "crew_size"))
    return cells


def _mazer_text(combat: Combat) -> str:
    mazer = combat.weapons.mazer or ""
    if not mazer.strip().isdigit():
        return _energy_text(mazer)
    shield = notation.energy(combat.shield or "", "shield")
    if isinstance(shield, notation.Problem):
        return mazer
    return f"{shield.type}{mazer.strip()}"


#: a weapon row: range band, its printed letter, weapon name, value, and the card field it is
#: (its name's label key is ``weapon:<field>``, its letter's ``range:<band>``)
WeaponRow = tuple[str, str, str, str, str]


def _weapons(combat: Combat, label: LabelText) -> list[WeaponRow]:
    """Weapon rows, longest range first."""
    weapons = combat.weapons
    rows: list[tuple[str, str, str]] = []  # band, field, value
    if weapons.rockets is not None:
        # a range the validator rejects (a Latin "M") prints no band rather than a wrong one
        band = weapons.rocket_range if weapons.rocket_range in RANGES else ""
        rows.append((band, "rockets", weapons.rockets))
    for name, band in WEAPON_BANDS:
        value = getattr(weapons, name)
        if value is None:
            continue
        shown = _mazer_text(combat) if name == "mazer" else str(value)
        rows.append((band, name, shown))
    rows.sort(key=lambda row: _BAND_ORDER.get(row[0], 3))
    return [(band, label(f"range:{band}") if band else "", label(f"weapon:{name}"), value, name)
            for band, name, value in rows]


def _yield_line(resources: int, chips: int, label: LabelText) -> str:
    parts = []
    if resources:
        parts.append(f"{resources}\u00a0{{resource}}")
    if chips:
        parts.append(f"{chips}\u00a0{{action-chip}}")
    return f"{label('Доход за ход')}: {'  '.join(parts)}" if parts else ""


def _body(*paragraphs: str) -> str:
    return "\n".join(p for p in paragraphs if p)


def keyword_lines(keywords: str) -> tuple[str, ...]:
    """The keyword line broken as the ``stack`` widget prints it (bold, fixed size)."""
    if not keywords:
        return ()
    fitted = fit_text(keywords, STACK_W - 1.0, 1000.0, "narrow-bold", KEYWORD_PT, KEYWORD_PT)
    return tuple("".join(p.text for p in line.pieces) for line in fitted.lines)




def _common(card: CommanderCard, text: FieldText, label: LabelText) -> dict[str, object]:
    return {"name": text(card, "name"), "text": text(card, "text"), "kind": card.kind,
            "rarity": card.rarity, "number": card.number,
            "kind_label": label(f"kind:{card.kind}")}


def _unit(card: CommanderCard, text: FieldText, label: LabelText, stats: list, weapons: list,
          body: str, keywords: str = "", **extra: object) -> dict[str, object]:
    lines = keyword_lines(keywords)
    # the body text takes the first slot below the stack (templates: when body_top == N)
    return {**_common(card, text, label), "stats": stats, "weapons": weapons, "body": body,
            "keyword_lines": lines, "body_top": body_slot(len(stats), len(weapons), len(lines)),
            **extra}


SIZE_ART = {"ЛК": "light", "СК": "medium", "ТК": "heavy"}


def _ship_art(ship: Ship) -> str:
    """The art window's drawing (art/<name>.svg): light ships are darts, heavy ones bulky, and
    traders look like traders: a ship that makes commercial runs is drawn as a freighter."""
    if "commercial_run" in ship.properties:
        return "freighter-light" if ship.size == "ЛК" else "freighter"
    return f"ship-{SIZE_ART.get(ship.size, 'medium')}"


def _ship(ship: Ship, text: FieldText, label: LabelText) -> dict[str, object]:
    keywords = [label(f"prop:{p}") for p in ship.properties]
    stats = _stats(ship.combat, label, speed=True, crew=True)
    return _unit(ship, text, label, stats, _weapons(ship.combat, label), text(ship, "text"),
                 " · ".join(keywords),
                 type_line=f"{label(f'size:{ship.size}')} · {text(ship, 'type')}",
                 badge="resource", badge_value=str(ship.cost),
                 has_proper_name=ship.shows_proper_name, art=_ship_art(ship))


def _space_object(item: SpaceObject, text: FieldText, label: LabelText) -> dict[str, object]:
    combat = item.combat
    armed = combat.hull is not None or combat.shield is not None or bool(combat.armor)
    stats = _stats(combat, label, speed=True, crew=combat.crew_size is not None) if armed else []
    return _unit(item, text, label, stats, _weapons(combat, label),
                 _body(_yield_line(item.yield_resources, item.yield_chips, label),
                       text(item, "text")),
                 type_line=label(f"object:{item.object_type}"), badge="resource",
                 badge_value=str(item.cost), has_proper_name=item.shows_proper_name,
                 art=item.object_type)


def _building(card: MilitaryBuilding | CivilBuilding, text: FieldText,
              label: LabelText) -> dict[str, object]:
    stats = _stats(card.combat, label, speed=True, crew=False)
    yielded = _yield_line(card.yield_resources, card.yield_chips, label) \
        if isinstance(card, CivilBuilding) else ""
    return _unit(card, text, label, stats, _weapons(card.combat, label),
                 _body(yielded, text(card, "text")), type_line=label(f"kind:{card.kind}"),
                 badge="resource", badge_value=str(card.cost), has_proper_name=False,
                 art=card.kind.replace("_", "-"))


def _ground_unit(unit: GroundUnit, text: FieldText, label: LabelText) -> dict[str, object]:
    stats = [_cell(label, "Сила", str(unit.strength), "strength")]
    return _unit(unit, text, label, stats, [], text(unit, "text"),
                 type_line=label("kind:ground_unit"), badge="resource",
                 badge_value=str(unit.cost), has_proper_name=False, art="ground-unit")


def _d6_short(value: str | None) -> str:
    """"D6 4+" prints as "4+" beside a drawn die."""
    if value is None:
        return ""
    parsed = notation.d6(value)
    return value if isinstance(parsed, notation.Problem) else f"{parsed}+"


def _tactical(card: Tactical, text: FieldText, label: LabelText) -> dict[str, object]:
    has_chips = card.chips is not None
    return {**_common(card, text, label), "type_line": label("kind:tactical"),
            "badge": "chip" if has_chips else "d6",
            "badge_value": str(card.chips) if has_chips else _d6_short(card.d6),
            "extra_d6": _d6_short(card.d6) if has_chips and card.d6 else ""}


def _situation(card: Situation, text: FieldText, label: LabelText) -> dict[str, object]:
    if card.resources is not None:
        badge, value = "resource", str(card.resources)
    elif card.chips is not None:
        badge, value = "chip", str(card.chips)
    else:
        badge, value = "d6", _d6_short(card.d6)
    extra = _d6_short(card.d6) if badge != "d6" and card.d6 else ""
    return {**_common(card, text, label), "type_line": label("kind:situation"),
            "badge": badge, "badge_value": value, "extra_d6": extra}


def _upgrade(card: Upgrade, text: FieldText, label: LabelText) -> dict[str, object]:
    hosts = ", ".join(label(f"host:{h}") for h in card.hosts)
    return {**_common(card, text, label), "type_line": label("kind:upgrade"),
            "badge": "resource", "badge_value": str(card.cost),
            "host_line": f"{label('Улучшает')}: {hosts}"}


def _commander(card: Commander, text: FieldText, label: LabelText) -> dict[str, object]:
    victory = text(card, "victory") if card.victory else ""
    return {**_common(card, text, label), "type_line": label("kind:commander"),
            "badge": "initiative", "badge_value": str(card.initiative),
            "victory": victory, "art": "commander"}


def _ability(card: Ability, text: FieldText, label: LabelText) -> dict[str, object]:
    return {**_common(card, text, label), "type_line": label("kind:ability"),
            "variant_1": text(card, "variant_1"), "variant_2": text(card, "variant_2"),
            "is_special": card.special}


_BY_TYPE: tuple[tuple[type, Callable[..., dict[str, object]]], ...] = (
    (Ship, _ship), (SpaceObject, _space_object), (MilitaryBuilding, _building),
    (CivilBuilding, _building), (GroundUnit, _ground_unit), (Tactical, _tactical),
    (Situation, _situation), (Upgrade, _upgrade), (Commander, _commander),
    (Ability, _ability),
)


def face_values(card: Card, text: FieldText, label: LabelText) -> dict[str, object]:
    """The values a template may print for ``card`` (front and back share them)."""
    for kind, values in _BY_TYPE:
        if isinstance(card, kind):
            return values(card, text, label)
    return {}


def printed_from(card: Card) -> dict[str, tuple[str, ...]]:
    """The face values made of labels -> the label keys (and card fields) each prints, so that
    a text too long for its box names the catalog entries a translator must shorten (see
    ``FaceContext.printed_from``); stat cells and weapon rows carry their own keys."""
    found: dict[str, tuple[str, ...]] = {"kind_label": (f"kind:{card.kind}",),
                                         "type_line": (f"kind:{card.kind}",)}
    if isinstance(card, Ship):
        found["type_line"] = (f"size:{card.size}", "type")
    elif isinstance(card, SpaceObject):
        found["type_line"] = (f"object:{card.object_type}",)
    elif isinstance(card, Upgrade):
        found["host_line"] = ("Улучшает", *(f"host:{host}" for host in card.hosts))
    if isinstance(card, SpaceObject | CivilBuilding) and (card.yield_resources
                                                           or card.yield_chips):
        found["body"] = ("Доход за ход", "text")
    return found
