"""Which template draws each side of a Great War at Sea card, and the values it prints.

Numbers the rules fix for a whole unit type (a submarine's contact roll, an MTB's surprise roll,
a leader's modifiers) are printed from ``tables``, never typed into card files, so a card cannot
disagree with the rules it summarises.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.games.gwas.model import (
    Airship,
    FleetCounter,
    Leader,
    Mtb,
    Reference,
    Ship,
    Submarine,
    Unit,
)
from generator.games.gwas.tables import (
    ACE_CONTACT,
    AIRSHIP_ENDURANCE_TURNS,
    HIT_ON,
    HIT_ON_ITALIC,
    LEADER_CONTACT,
    LEADER_INITIATIVE,
    MTB_BONUS_NATIONS,
    MTB_CONTACT,
    MTB_SURPRISE,
    NONCOMBAT,
    SMALL,
    SUBMARINE_ATTACK,
    SUBMARINE_CONTACT,
    SUBMARINE_POINTS,
)
from generator.layout.engine import substitute
from generator.model.cards import Card

FieldText = Callable[[Card, str], str]
LabelText = Callable[[str], str]

FRONTS = {"ship": "ship", "submarine": "submarine", "mtb": "mtb", "airship": "airship",
          "leader": "leader", "fleet_counter": "counter", "reference": "reference"}
DASH = "\u2013"
MINUS = "\u2212"


def front_template(card: Card) -> str:
    if isinstance(card, Reference) and card.procedure == "classes":
        return "classes"
    return FRONTS[card.kind]


def back_template(card: Card) -> str:
    """Units hide behind their side's back (fleets are secret, 003:194); airships share one back
    so that they can be drawn blind from a cup (004:71); counters show their flag."""
    if isinstance(card, FleetCounter):
        return "counter-back"
    if isinstance(card, Airship):
        return "back-airship"
    if isinstance(card, Unit):
        return f"back-{card.side}"
    return "back-reference"


def roll_range(low: int) -> str:
    """A d6 roll of ``low`` or more, written as the faces that succeed: "5–6", or "6"."""
    return str(low) if low >= 6 else f"{low}{DASH}6"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{abs(value)}" if value < 0 else "0"


def _fill(label: LabelText, key: str, **values: object) -> str:
    return substitute(label(key), values)


def _unit_values(unit: Unit, label: LabelText) -> dict[str, object]:
    return {"nation_code": unit.nation, "nation": label(f"nation:{unit.nation}"),
            "side": unit.side, "side_name": label(f"side:{unit.side}")}


def class_key(code: str) -> str:
    """Label key of a class code; both spellings of BC/CC share one name."""
    return "class:BC/CC" if code in {"BC", "CC"} else f"class:{code}"


def _ship_values(ship: Ship, text: FieldText, label: LabelText) -> dict[str, object]:
    small = ship.counter == SMALL
    factors = ["", "", str(ship.gunnery[0])] if small and len(ship.gunnery) == 1 else \
        [str(f) for f in (*ship.gunnery, "", "", "")[:3]]
    nation = label(f"nation:{ship.nation}")
    hit = HIT_ON_ITALIC if ship.italic else HIT_ON
    return {
        **_unit_values(ship, label),
        "name": ship.name,
        "is_italic": ship.italic,
        "code": ship.ship_class,
        "class_name": label(f"group:{NONCOMBAT}") if ship.group == NONCOMBAT
        else label(class_key(ship.ship_class)),
        "group_name": label(f"group:{ship.group}"),
        "nation_line": f"{nation} \u00b7 {ship.year}" if ship.year else nation,
        # primary, secondary, tertiary cell ("" for a cell a small ship leaves empty)
        "gun_p": factors[0],
        "gun_s": factors[1],
        "gun_t": factors[2],
        "hit_line": _fill(label, "hit_line_italic" if ship.italic else "hit_line",
                          roll=roll_range(hit)),
        "speed": ship.speed,
        "torpedo_deck": ship.torpedo_deck,
        "torpedo_hull": ship.torpedo_hull,
        "hull": ship.hull or 0,
        "ships_text": f"\u00d7{ship.ships}" if ship.ships > 1 else "",
        "note": text(ship, "note"),
        # the silhouette drawn: art/profile-<shape>.svg
        "shape": silhouette_shape(ship.ship_class),
    }


def silhouette_shape(code: str) -> str:
    if code in {"CV", "CVS", "BCV"}:
        return "carrier"
    if code in {"B", "BB", "BC", "CC", "IC", "CD", "AR"}:
        return "battleship"
    if code in {"DD", "DL", "TB", "MS", "GB", "AY", "RC"}:
        return "destroyer"
    return "cruiser"


def _submarine_values(sub: Submarine, text: FieldText, label: LabelText) -> dict[str, object]:
    contact = ACE_CONTACT if sub.ace else SUBMARINE_CONTACT
    attack = SUBMARINE_ATTACK - 1 if sub.ace else SUBMARINE_ATTACK
    return {
        **_unit_values(sub, label),
        "name": sub.name,
        "code": label("code:submarine"),
        "commander": text(sub, "commander"),
        "is_ace": sub.ace,
        "torpedo_deck": sub.torpedo_deck,
        "torpedo_hull": sub.torpedo_hull,
        "contact_line": _fill(label, "submarine_contact", roll=roll_range(contact)),
        "attack_line": _fill(label, "submarine_attack", roll=f"{attack}+"),
        "points_line": _fill(label, "submarine_points", points=SUBMARINE_POINTS),
        "note": text(sub, "note"),
    }


def _mtb_values(mtb: Mtb, text: FieldText, label: LabelText) -> dict[str, object]:
    return {
        **_unit_values(mtb, label),
        "name": mtb.name,
        "code": label("code:mtb"),
        "torpedo_deck": mtb.torpedo_deck,
        "torpedo_hull": mtb.torpedo_hull,
        "contact_line": _fill(label, "mtb_contact", roll=roll_range(MTB_CONTACT)),
        "surprise_line": _fill(label, "mtb_surprise", roll=roll_range(MTB_SURPRISE)),
        "has_bonus": mtb.nation in MTB_BONUS_NATIONS,
        "note": text(mtb, "note"),
    }


def _airship_values(airship: Airship, text: FieldText, label: LabelText) -> dict[str, object]:
    return {
        **_unit_values(airship, label),
        "name": airship.name,
        "movement": airship.movement,
        "bombs": airship.bombs,
        "endurance_line": _fill(label, "airship_endurance", turns=AIRSHIP_ENDURANCE_TURNS),
        "note": text(airship, "note"),
    }


def _leader_values(leader: Leader, text: FieldText, label: LabelText) -> dict[str, object]:
    return {
        **_unit_values(leader, label),
        "name": text(leader, "name"),
        "rank": text(leader, "rank"),
        "flagship_line": _fill(label, "flagship_line", ship=leader.flagship),
        "contact_value": signed(LEADER_CONTACT),
        "initiative_value": signed(LEADER_INITIATIVE[leader.side]),
    }


def _reference_values(ref: Reference, text: FieldText, label: LabelText) -> dict[str, object]:
    return {
        "title": text(ref, "title"),
        "text": text(ref, "text"),
        "modifiers": text(ref, "modifiers"),
        "rule_line": _fill(label, "rule_line", rule=ref.rule) if ref.rule else "",
        "procedure": ref.procedure,
    }


def face_values(card: Card, text: FieldText, label: LabelText) -> dict[str, object]:
    """The values a template may print for ``card`` (both sides share them)."""
    if isinstance(card, Ship):
        return _ship_values(card, text, label)
    if isinstance(card, Submarine):
        return _submarine_values(card, text, label)
    if isinstance(card, Mtb):
        return _mtb_values(card, text, label)
    if isinstance(card, Airship):
        return _airship_values(card, text, label)
    if isinstance(card, Leader):
        return _leader_values(card, text, label)
    if isinstance(card, FleetCounter):
        return {**_unit_values(card, label), "number": card.number}
    if isinstance(card, Reference):
        return _reference_values(card, text, label)
    return {}


#: the rule lines of each kind of counter: face value -> the label it fills
_LINES: tuple[tuple[type, dict[str, str]], ...] = (
    (Submarine, {"contact_line": "submarine_contact", "attack_line": "submarine_attack",
                 "points_line": "submarine_points"}),
    (Mtb, {"contact_line": "mtb_contact", "surprise_line": "mtb_surprise"}),
    (Airship, {"endurance_line": "airship_endurance"}),
)


def printed_from(card: Card) -> dict[str, tuple[str, ...]]:
    """The face values made of labels -> the label keys (and card fields) each prints, so that
    a text too long for its box names the catalog entries a translator must shorten (see
    ``FaceContext.printed_from``); the other values print the card field of their name."""
    found: dict[str, tuple[str, ...]] = {}
    if isinstance(card, Unit):
        found |= {"nation": (f"nation:{card.nation}",), "side_name": (f"side:{card.side}",)}
    if isinstance(card, Ship):
        found |= {
            "class_name": (f"group:{NONCOMBAT}" if card.group == NONCOMBAT
                           else class_key(card.ship_class),),
            "group_name": (f"group:{card.group}",),
            "nation_line": (f"nation:{card.nation}", *(("year",) if card.year else ())),
            "hit_line": ("hit_line_italic" if card.italic else "hit_line",)}
    elif isinstance(card, Submarine | Mtb):
        found["code"] = (f"code:{card.kind}",)
    for kind, lines in _LINES:
        if isinstance(card, kind):
            found |= {value: (key,) for value, key in lines.items()}
    if isinstance(card, Leader):
        found["flagship_line"] = ("flagship_line", "flagship")
    if isinstance(card, Reference) and card.rule:
        found["rule_line"] = ("rule_line", "rule")
    return found
