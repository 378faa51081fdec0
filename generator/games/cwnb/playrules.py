"""The play rules that card data must agree with, stated once as data.

Both the printed Action Card Summary (player-order cards, rule 6) and the rules checks read these
tables, so the card a player holds and the validator cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from msgspec import Struct

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


class Attack(Struct, frozen=True, gc=False):
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


# --- Who fires what: platforms, sizes and the attack-opportunities rule (7.11-7.13, 12.8, 12.9) ---

#: Size order per attack card kind that needs a sized platform, smallest first.
SIZES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "gun": GUN_CALIBERS,
    "missile": MISSILE_CLASSES,
})

#: The ship field that lists the platforms firing each sized card kind (7.11, 7.12).
PLATFORM_FIELD: Mapping[str, str] = MappingProxyType({"gun": "guns", "missile": "missiles"})

#: The action-card field that holds the size of each sized card kind.
SIZE_FIELD: Mapping[str, str] = MappingProxyType({"gun": "caliber", "missile": "missile_class"})

#: Attacks that need one particular card size, beyond the card kind: only a 'C' missile card
#: flies as a cruise missile, and 12.8 does not let a C platform use A or B cards for it (12.9).
ATTACK_CARD_SIZE: Mapping[str, str] = MappingProxyType({"cruise_missile": "C"})


def can_fire(kind: str, platform: str, card_size: str, *, attack_opportunities: bool) -> bool:
    """Whether a platform of size ``platform`` may play a ``kind`` card of size ``card_size``.

    Without rule 12.8 a platform fires only cards of its own size (7.11, 7.12); with it, a platform
    also fires every smaller size, since lesser cards stand for broader opportunities.
    """
    order = SIZES[kind]
    if platform == card_size:
        return True
    if not attack_opportunities or platform not in order or card_size not in order:
        return False
    return order.index(card_size) < order.index(platform)


def card_kinds_fired_by(fired_by: str) -> frozenset[str]:
    """Action kinds whose attacks are launched by ``fired_by`` (see :class:`Attack`)."""
    return frozenset(a.needs_card for a in ATTACKS if a.fired_by == fired_by and a.needs_card)


#: Attack cards a task force plays without any platform (ASW 7.14, air strikes 7.15, 7.16).
NEEDS_NO_PLATFORM: frozenset[str] = card_kinds_fired_by("task-force")

#: Attacks whose hit sinks the target outright, whatever its Hits to Sink (7.15, 7.16, 7.2);
#: a big surface ship is crippled by the first such hit instead (12.7), sunk by the second.
SINKS_ON_HIT = frozenset({"land_air_strike", "bomber_strike", "carrier_air_strike"})

#: Battleship armour reduces the value of every Damage card on a BB by one (12.6).
ARMORED_TYPES = frozenset({"BB"})
ARMOR_REDUCTION = 1

#: The hunter's torpedo bonus against a passive submarine, printed under HUNTER (7.13).
HUNTER_BONUS = 1
#: What a crippled ship scores at the end of a round, printed on its Crippled side (12.7).
CRIPPLED_POINTS = 0
#: The carrier air strike ratings the rules describe: a large carrier's 2 drops to one and a
#: small carrier's 1 to zero when it is half sunk (12.3).
MAX_AIR_STRIKE = 2

#: Submarine traits and what they change (7.13, 7.14).
TRAITS: Mapping[str, str] = MappingProxyType({
    "hunter": f"{HUNTER_BONUS:+d} to its torpedo chance to hit a passive submarine (7.13)",
    "quiet": "-1 to ASW rolls aimed at it (7.14)",
    "fast": "-1 to ASW rolls aimed at it (7.14)",
})
ASW_EVASION_TRAITS = frozenset({"quiet", "fast"})
ASW_EVASION = 1

#: Classes the rules name with their traits: Los Angeles hunts and is quiet, Alfa is fast.
CLASS_TRAITS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "los angeles": ("hunter", "quiet"),
    "alfa": ("fast",),
})

#: The names a class the rules name goes by, as whole words of a card's class (case, hyphens,
#: quotes and ё aside): the English rules' names, the Russian edition's (000:306 «Лос
#: Анджелес», the Alfa as projects 705 and 705К; 000:528 «Айова»), and the Soviet name of the
#: Alfa (Лира). A sub-variant ("Los Angeles (688I)", "Improved Los Angeles", "Alfa II") is
#: still of its class.
CLASS_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "los angeles": ("los angeles", "лос анджелес", "лос анжелес"),
    "alfa": ("alfa", "альфа", "705", "705к", "705k", "лира", "lira"),
    "iowa": ("iowa", "айова"),
})

#: 12.3 with the Definitions: a large carrier (CV, CVN: 80 to 90 aircraft) rates 2 and drops
#: to 1 when half sunk; a small one (CVH, CVHG: a few bombers and helicopters) rates 1 and
#: drops to 0. The Nimitz (CVN) and the Baku (CVHG) of 001:481 agree: the Nimitz's is larger.
CARRIER_RATINGS: Mapping[str, int] = MappingProxyType({"CV": 2, "CVN": 2, "CVH": 1,
                                                       "CVHG": 1})


class NamedShip(Struct, frozen=True, gc=False):
    """A ship the rules name, with the values they give it; ``None`` where they say nothing."""

    names: tuple[str, ...]  # whole words of the card's name, as for CLASS_NAMES
    rule: str
    type: str | None = None
    nation: str | None = None
    air_strike: int | None = None


#: 001:481 (and 000:357): the Nimitz and the Baku in one task force; the Nimitz, a CVN
#: (000:357 "CVN «Нимиц»"), has the larger rating, which lifts the basic Air Cover's 1-2 to
#: 1-4, so 2; the Baku is a ТАВКР, a heavy aircraft-carrying cruiser (CVHG, 000:577), rating
#: less than the Nimitz's: 1.
NAMED_SHIPS: tuple[NamedShip, ...] = (
    NamedShip(("nimitz", "нимиц"), "10, 12.3", type="CVN", nation="US", air_strike=2),
    NamedShip(("baku", "баку"), "10, 12.3", type="CVHG", nation="USSR", air_strike=1),
)

#: Classes the rules name with the hull type they give them, and where: the refitted WWII
#: Iowa class battleships (Definitions: 16" Gun, BB; 12.6), the Los Angeles and Alfa class
#: submarines (7.13, 7.14).
CLASS_TYPES: Mapping[str, tuple[str, str]] = MappingProxyType({
    "iowa": ("BB", "Definitions: 16\" Gun, BB"),
    "los angeles": ("SSN", "7.13, 7.14"),
    "alfa": ("SSN", "7.14"),
})

#: Optional action-card fields and the action kinds that use them (docs/format.md), with the
#: rule each comes from; any other kind leaves the field out.
ACTION_FIELDS: Mapping[str, tuple[frozenset[str], str]] = MappingProxyType({
    "caliber": (frozenset({"gun"}), "7.11"),
    "missile_class": (frozenset({"missile"}), "7.12"),
    "damage": (frozenset({"gun", "missile", "torpedo"}), "7.1"),
    "chance_to_hit": (frozenset({"air_cover", "bomber_strike"}), "7.16, 8.33"),
    "chance_vs_active": (frozenset({"asw"}), "7.14"),
    "chance_vs_passive": (frozenset({"asw", "torpedo"}), "7.13, 7.14"),
    "chance_by_row": (frozenset({"land_air_strike"}), "7.15"),
})
