"""The play rules that card data must agree with, stated once as data.

Both the printed Action Card Summary (player-order cards, rule 6) and the rules checks read these
tables, so the card a player holds and the validator cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: Card category per action kind, which fixes the colour bar on the card's left edge (7, 8, 9).
ACTION_CATEGORY: Mapping[str, str] = MappingProxyType({
    "gun": "attack",
    "missile": "attack",
    "torpedo": "attack",
    "land_air_strike": "attack",
    "bomber_strike": "attack",
    "asw": "asw",  # played as attack or defense: red and black bar (7.14, 8.34)
    "evasive": "defense",
    "ecm": "defense",
    "air_cover": "defense",
    "additional_ship": "special",
    "retreat": "special",
    "damage_control": "special",
    "crew_efficiency": "special",
})

ACTION_KINDS: tuple[str, ...] = tuple(ACTION_CATEGORY)

#: Action kinds whose chance to hit a carrier's air strike rating raises (rule 10).
CARRIER_MODIFIED = frozenset({"air_cover", "asw"})

#: Size order of gun calibers and missile classes, smallest first (rule 12.8).
GUN_CALIBERS = ("3in", "5in", "16in")
MISSILE_CLASSES = ("A", "B", "C")

#: Pseudo-defense: a ship's own Air Defense Rating (rule 12.1), not a card.
AIR_DEFENSE_RATING = "air_defense_rating"


@dataclass(frozen=True, slots=True)
class Attack:
    """One kind of attack: who may launch it, from and into which rows, and what answers it."""

    key: str
    needs_card: str | None  # action kind played for it; None for carrier air strikes
    fired_by: str  # "surface", "submarine", "carrier" or "task-force" (no platform needed)
    from_rows: tuple[int, ...]  # rows it may be fired from (0 = a submarine, in no row)
    target_rows: tuple[int, ...]  # rows it may hit (0 = submarines)
    countered_by: tuple[str, ...]  # action kinds (or AIR_DEFENSE_RATING) that stop or reduce it
    rule: str


ATTACKS: tuple[Attack, ...] = (
    Attack("gun", "gun", "surface", (1,), (1,), ("evasive", "damage_control"), "5.22, 7.11"),
    Attack("missile", "missile", "surface", (1, 2), (1, 2), ("ecm", "damage_control"),
           "5.22, 7.12"),
    Attack("submarine_missile", "missile", "submarine", (0,), (1, 2, 3),
           ("ecm", "damage_control"), "5.24, 7.12"),
    Attack("torpedo", "torpedo", "submarine", (0,), (0, 1, 2, 3),
           ("evasive", "damage_control"), "7.13"),
    Attack("asw", "asw", "task-force", (1, 2, 3), (0,), ("damage_control",), "7.14"),
    Attack("land_air_strike", "land_air_strike", "task-force", (1, 2, 3), (1, 2, 3),
           ("air_cover", AIR_DEFENSE_RATING, "damage_control"), "7.15"),
    Attack("bomber_strike", "bomber_strike", "task-force", (1, 2, 3), (1, 2, 3),
           ("air_cover", AIR_DEFENSE_RATING, "damage_control"), "7.16"),
    Attack("carrier_air_strike", None, "carrier", (1, 2, 3), (1, 2, 3),
           ("air_cover", AIR_DEFENSE_RATING, "damage_control"), "7.2"),
    Attack("cruise_missile", "missile", "surface", (1, 2, 3), (1, 2, 3),
           ("ecm", "air_cover", AIR_DEFENSE_RATING, "damage_control"), "12.9"),
    Attack("submarine_attack", None, "submarine", (0,), (1, 2, 3),
           ("asw", "evasive", "ecm", "damage_control"), "8.34"),
)


def summary_rows() -> tuple[Attack, ...]:
    """Rows of the printed Action Card Summary: one per distinct (card, answers) pair."""
    seen: set[tuple[str | None, tuple[str, ...]]] = set()
    rows: list[Attack] = []
    for attack in ATTACKS:
        signature = (attack.needs_card, attack.countered_by)
        if signature in seen:
            continue
        seen.add(signature)
        rows.append(attack)
    return tuple(rows)
