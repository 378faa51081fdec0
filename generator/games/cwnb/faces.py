"""Which template draws each side of a CWNB card, and the values its elements print.

Face values are plain, already-localized strings and numbers; templates never reach into the
card objects themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.games.cwnb.model import Action, PlayerOrder, Ship
from generator.games.cwnb.playrules import (
    ACTION_CATEGORY,
    CARRIER_MODIFIED,
    CRIPPLED_POINTS,
    HUNTER_BONUS,
)
from generator.layout.engine import substitute
from generator.model.cards import Card

FieldText = Callable[[Card, str], str]  # localized value of a card's translatable field
LabelText = Callable[[str], str]  # localized template label

BACK_TEMPLATES = {"logo": "back-ship", "passive": "back-passive", "crippled": "back-crippled"}
CATEGORY_LABELS = {"attack": "Attack", "defense": "Defense", "special": "Special",
                   "asw": "Attack / Defense"}


#: the action layouts by category (attack and ASW cards: ``action`` itself, which they extend)
ACTION_LAYOUTS = {"defense": "action-defense", "special": "action-special"}


def front_template(card: Card) -> str:
    if isinstance(card, Action):
        return ACTION_LAYOUTS.get(ACTION_CATEGORY[card.action], "action")
    return {"ship": "ship", "player_order": "order-summary"}[card.kind]


def back_template(card: Card) -> str:
    if isinstance(card, Ship):
        return BACK_TEMPLATES[card.back]
    if isinstance(card, PlayerOrder):
        return "back-order"
    return "back-action"


def chance_range(top: int | None) -> str:
    """A d6 chance to hit written as the rolls that hit: 1, 1-2 ... 1-6."""
    if top is None:
        return ""
    return "1" if top == 1 else f"1\u2013{top}"


def _ship_values(ship: Ship, text: FieldText, label: LabelText) -> dict[str, object]:
    class_name = text(ship, "ship_class")
    traits = [label(trait.upper()) for trait in ship.traits]
    return {
        "name": text(ship, "name"),
        "ship_class": class_name,
        "class_line": substitute(label("{ship_class} class"), {"ship_class": class_name}),
        "type": ship.type,
        "type_name": label(f"type:{ship.type}"),
        "nation": label(f"nation:{ship.nation}"),
        "nation_code": ship.nation,
        "points": ship.points,
        "hits_to_sink": ship.hits_to_sink,
        "guns": ship.guns,
        "missiles": ship.missiles,
        "air_strike": ship.air_strike,
        "air_defense": ship.air_defense,
        "air_defense_text": "3 + 3" if ship.has_aegis else (str(ship.air_defense)
                                                           if ship.air_defense else ""),
        "is_submarine": ship.is_submarine,
        # printed reference values come from the engine's own constants (7.13, 12.7)
        "hunter_note": substitute(label("{bonus} to hit passive submarines"),
                                  {"bonus": f"{HUNTER_BONUS:+d}"}),
        "crippled_points": CRIPPLED_POINTS,
        "traits": list(ship.traits),
        "traits_text": "  ".join(traits),
        # the silhouette drawn: art/profile-<shape>.svg
        "shape": "submarine" if ship.is_submarine else "carrier" if ship.is_carrier else "ship",
    }


def _action_values(action: Action, text: FieldText, label: LabelText) -> dict[str, object]:
    category = ACTION_CATEGORY[action.action]
    return {
        "name": text(action, "name"),
        "text": text(action, "text"),
        "action": action.action,
        "category": category,
        "category_label": label(CATEGORY_LABELS[category]),
        "damage": action.damage,
        "damage_text": f"\u2212{action.damage}" if action.damage else "",
        "caliber": action.caliber,
        "missile_class": action.missile_class,
        "chance_to_hit": chance_range(action.chance_to_hit),
        "chance_vs_active": chance_range(action.chance_vs_active),
        "chance_vs_passive": chance_range(action.chance_vs_passive),
        "chance_by_row": action.chance_by_row,
        "carrier_modified": action.action in CARRIER_MODIFIED,
    }


def face_values(card: Card, text: FieldText, label: LabelText) -> dict[str, object]:
    """The values a template may print for ``card`` (both sides share them)."""
    if isinstance(card, Ship):
        return _ship_values(card, text, label)
    if isinstance(card, Action):
        return _action_values(card, text, label)
    if isinstance(card, PlayerOrder):
        return {"order": card.order, "name": text(card, "name") if card.name else ""}
    return {}


def printed_from(card: Card) -> dict[str, tuple[str, ...]]:
    """The face values made of labels -> the label keys (and card fields) each prints, so that
    a text too long for its box names the catalog entries a translator must shorten (see
    ``FaceContext.printed_from``); the other values print the card field of their name."""
    if isinstance(card, Ship):
        found = {"class_line": ("{ship_class} class", "class"),
                 "type_name": (f"type:{card.type}",), "nation": (f"nation:{card.nation}",),
                 "hunter_note": ("{bonus} to hit passive submarines",)}
        if card.traits:
            found["traits_text"] = tuple(trait.upper() for trait in card.traits)
        return found
    if isinstance(card, Action):
        return {"category_label": (CATEGORY_LABELS[ACTION_CATEGORY[card.action]],)}
    return {}
