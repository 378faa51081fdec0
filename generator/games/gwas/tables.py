"""Great War at Sea facts that cards, checks and faces share, each with the seed line it is from.

Seeds: 003 = ``003_4678bd8159124b2d.txt`` (basic rules, sections 1-6), 004 =
``004_14f2668eed850117.txt`` (submarines, leaders, airships, motor torpedo boats). Keeping the
class table, the speed set and the special-unit numbers here, once, lets the validator, the
printed reference cards and docs/rules-gwas.md agree by construction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

SEED_FILES: Mapping[str, str] = MappingProxyType({
    "003": "003_4678bd8159124b2d.txt",
    "004": "004_14f2668eed850117.txt",
})


def cite(refs: str) -> str:
    """``"003:274, 003:333"`` -> ``"seed 003_4678bd8159124b2d.txt:274, ...:333"``: findings name
    the seed file and line, so a designer can open the exact sentence a check enforces."""
    parts = []
    for ref in (r.strip() for r in refs.split(",")):
        seed, _, lines = ref.partition(":")
        parts.append(f"{SEED_FILES.get(seed, seed)}:{lines}" if lines else ref)
    return ("seeds " if len(parts) > 1 else "seed ") + ", ".join(parts)


CAPITAL, LIGHT, NONCOMBAT = "capital", "light", "noncombat"
GROUPS = (CAPITAL, LIGHT, NONCOMBAT)

#: 003:228, class codes by group, in the seed's order. "BC/CC" is one entry with two spellings.
CLASS_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (CAPITAL, ("AC", "AMC", "B", "BB", "BC/CC", "BCV", "CA", "CD", "CV", "CVS", "IC")),
    (LIGHT, ("AR", "AY", "C", "CL", "CS", "DC", "DD", "DL", "GB", "ML", "MS", "PC", "RC", "SL",
             "TB")),
)

#: code -> group; both spellings of "BC/CC" are accepted on a card.
CLASS_GROUPS: Mapping[str, str] = MappingProxyType({
    code: group for group, row in CLASS_ROWS for entry in row for code in entry.split("/")
})

#: 003:176 names small-ship counters (tertiary factor only) but not which classes get them; this
#: is the pack's reading (destroyers, torpedo boats and other small craft). A card can say
#: ``counter: large`` or ``counter: small`` to override it.
SMALL_CLASSES = frozenset({"AY", "DD", "DL", "GB", "MS", "RC", "TB"})
SMALL, LARGE = "small", "large"

#: 003:333: "four speeds: 2+, 2, 1 and 1 slow", fastest first; 003:238 writes slow as "1s".
SPEEDS = ("2+", "2", "1", "1s")
#: 003:274 also names a speed "1+" that the list above lacks (see options.ALLOW_SPEED_1_PLUS).
SPEED_1_PLUS = "1+"
SLOW = "1s"
#: 003:238: fleets of speed 2 or 2+ ships only may enter two zones a turn
TWO_ZONE_SPEEDS = frozenset({"2+", "2"})

ENTENTE, ALLIANCE = "entente", "alliance"
#: 003:192: the two players are the Entente and the Triple Alliance. Italy sides with the Entente,
#: as in the seed's own example (004:137: the Entente player rolls for Italian MTBs).
NATION_SIDES: Mapping[str, str] = MappingProxyType({
    "AH": ALLIANCE, "DE": ALLIANCE, "OT": ALLIANCE,
    "IT": ENTENTE, "FR": ENTENTE, "GB": ENTENTE, "RU": ENTENTE, "US": ENTENTE, "JP": ENTENTE,
})

# --- Numbers the rules fix for whole unit types (printed from here, never typed on a card) ---
HIT_ON = 6  # 003:329: a gunnery die hits on a 6 ...
HIT_ON_ITALIC = 5  # ... or on 5-6 for a ship whose name is printed in italics
CLOSE_RANGE = +1  # 003:339: every gunnery roll at close range
NIGHT_GUNNERY = -1  # 003:343: every gunnery roll at night (not torpedoes)
CONTACT_DAY, CONTACT_NIGHT = 4, 6  # 003:284: the contact roll needed by day / by night
PURSUIT_SUCCESS, PURSUIT_DAY, PURSUIT_FASTER = 6, +2, +1  # 003:270
SUBMARINE_HULL_TORPEDOES = 1  # 004:15
SUBMARINE_CONTACT = 5  # 004:9: a submarine finds a fleet on 5-6, by day only
ACE_CONTACT = 4  # 004:41: an ace finds it on 4-6 ...
ACE_ATTACK = +1  # ... and adds 1 to the attack roll
SUBMARINE_ATTACK = 6  # 004:29: 6 or more hits ...
SUBMARINE_TARGET = +1  # ... +1 vs a capital ship, a fast transport or a ship that cannot move
ASW_SHIPS_PER_DIE, ASW_SINK_BEFORE, ASW_SINK_AFTER = 3, 5, 6  # 004:21
SUBMARINE_POINTS = 4  # 004:47: victory points for sinking an enemy submarine
MTB_DECK_TORPEDOES = 2  # 004:121
MTB_CONTACT = 3  # 004:115: contact on 3-6
MTB_SURPRISE = 4  # 004:127: a surprise attack on 4-6 ...
MTB_TARGET_FIRES = (2, 3)  # ... the target fires first on 2-3 ...
MTB_WHOLE_FLEET = 1  # ... the whole enemy fleet fires on a 1
MTB_ITALIC = +1  # 004:129: italic ships add 1 when firing at an MTB
MTB_BONUS = +1  # 004:135: Italian MTBs add 1 to their torpedo roll
MTB_BONUS_NATIONS = frozenset({"IT"})
AIRSHIP_ENDURANCE_TURNS = 60  # 004:95
LEADER_CONTACT = 1  # 004:63 (and 003:305): +1 to the contact roll
LEADER_INITIATIVE = MappingProxyType({ALLIANCE: -1, ENTENTE: +1})  # 004:63


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _faces(low: int, high: int = 6) -> str:
    return str(low) if low == high else f"{low}-{high}"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One row of a procedure's modifier table, as a reference card prints it.

    ``value`` is the printed value in plain ASCII ("+1", "-2", "±1", "6+", "4-6"); a card may
    print it with a minus sign or an en dash. ``terms`` are the word stems, per language, that
    name the row on a card ("ясно", "clear"): they let the check tell which row a printed line
    claims to be, whatever order the card lists them in.
    """

    key: str
    what: str  # the row in English words, for messages and docs
    value: str
    seed: str
    terms: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Procedure:
    """A procedure the seeds give in full: the rule number a reference card prints, its
    modifier table, and every number its rules state (the numbers its text may print)."""

    rule: str
    seed: str
    modifiers: tuple[Modifier, ...] = ()
    facts: frozenset[int] = frozenset()

    @property
    def numbers(self) -> frozenset[int]:
        """Numbers a reference text may print: the stated facts and the modifiers' values."""
        found = {int(n) for m in self.modifiers for n in re.findall(r"\d+", m.value)}
        return self.facts | found


def _row(key: str, what: str, value: str, seed: str, ru: tuple[str, ...],
         en: tuple[str, ...]) -> Modifier:
    return Modifier(key, what, value, seed, MappingProxyType({"ru": ru, "en": en}))


#: Procedures the seeds give in full, with the rule number a card prints ("" where the seeds
#: number none): a base pack prints a reference card for every one (and for the class table).
PROCEDURES: Mapping[str, Procedure] = MappingProxyType({
    "contact": Procedure("5.4", "003:284", (
        _row("gale", "gale", "-2", "003:298", ("буря",), ("gale",)),
        _row("storm", "storm or squall", "-1", "003:300", ("шторм", "шквал"),
             ("storm", "squall")),
        _row("clear", "clear weather", "+1", "003:301", ("ясно",), ("clear",)),
        _row("leader", "a leader present (declared)", _signed(LEADER_CONTACT), "003:305",
             ("лидер",), ("leader",)),
        _row("big-fleet", "a fleet of more than 20 ships", "+1", "003:307", ("20",), ("20",)),
        _row("light-only", "a fleet of armed yachts, destroyers and torpedo boats only", "-1",
             "003:308", ("dd",), ("dd",)),
        _row("intercept", "an intercept mission", "+2", "003:309", ("перехват",),
             ("intercept",)),
        _row("raiding", "a raiding mission (owner's choice)", "±1", "003:310", ("рейд",),
             ("raid",)),
        _row("airship", "an airship in the zone", "+2", "003:311", ("дирижабл",),
             ("airship",)),
    ), frozenset({CONTACT_DAY, CONTACT_NIGHT, 20})),
    "pursuit": Procedure("5.23", "003:270", (
        _row("day", "a day turn", _signed(PURSUIT_DAY), "003:270", ("днев", "день", "днём"),
             ("day",)),
        _row("faster", "every pursuing ship faster than the slowest pursued",
             _signed(PURSUIT_FASTER), "003:270", ("быстр",), ("faster",)),
        _row("success", "success", f"{PURSUIT_SUCCESS}+", "003:270", ("успех",),
             ("success",)),
    ), frozenset({PURSUIT_SUCCESS, 2})),  # pursuit is written for the next two turns
    "gunnery": Procedure("6.0", "003:325", (
        _row("close", "close range", _signed(CLOSE_RANGE), "003:339", ("ближн",),
             ("short", "close")),
        _row("night", "night (not torpedoes)", _signed(NIGHT_GUNNERY), "003:343", ("ноч",),
             ("night",)),
    ), frozenset({HIT_ON, HIT_ON_ITALIC})),
    "submarine": Procedure("15", "004:21", (
        _row("capital", "target is a capital ship", _signed(SUBMARINE_TARGET), "004:29",
             ("основн",), ("capital",)),
        _row("transport", "target is a fast transport or cannot move",
             _signed(SUBMARINE_TARGET), "004:29", ("транспорт",), ("transport",)),
        _row("ace", "an ace commander", _signed(ACE_ATTACK), "004:41", ("ас",), ("ace",)),
        _row("points", "victory points for a sunk submarine", str(SUBMARINE_POINTS), "004:47",
             ("потоплен",), ("sunk",)),
    ), frozenset({SUBMARINE_CONTACT, ACE_CONTACT, ASW_SHIPS_PER_DIE, ASW_SINK_BEFORE,
                  ASW_SINK_AFTER, SUBMARINE_ATTACK, 2})),  # 004:3: two zones from a port
    "mtb": Procedure("18", "004:115", (
        _row("surprise", "surprise attack", _faces(MTB_SURPRISE), "004:127", ("внезап",),
             ("surprise",)),
        _row("target-fires", "the target fires first", _faces(*MTB_TARGET_FIRES), "004:127",
             ("цель",), ("target",)),
        _row("fleet-fires", "the whole enemy fleet fires", _faces(MTB_WHOLE_FLEET, 1),
             "004:127", ("весь", "всего"), ("whole",)),
        _row("italian", "Italian MTBs' torpedo roll", _signed(MTB_BONUS), "004:135",
             ("итальян",), ("italian",)),
    ), frozenset({MTB_CONTACT, HIT_ON, MTB_DECK_TORPEDOES, 6})),  # 004:109: six zones
    "classes": Procedure("", "003:228"),
})


@dataclass(frozen=True, slots=True)
class SeedShip:
    """Values the seeds themselves give a named ship; ``None`` where they say nothing."""

    seed: str
    ship_class: str | None = None
    gunnery: tuple[int, ...] | None = None
    speed: str | None = None
    italic: bool | None = None


#: Ships the seeds name with a value, by name as compared (case- and accent-blind). A card of
#: that name prints these values: the seeds' own examples are the only real data they hold.
SEED_SHIPS: Mapping[str, SeedShip] = MappingProxyType({
    # 004:137: the Austrian battleship fires 12 dice, 8-3-1; its two 5s miss the MTB, which
    # italic ships (+1 against MTBs, 004:129) would have hit
    "tegetthoff": SeedShip("004:137", ship_class="BB", gunnery=(8, 3, 1), italic=False),
    "szent istvan": SeedShip("004:137", ship_class="BB"),  # "the dreadnought sinks"
    "rostock": SeedShip("003:240", speed="2"),
    "frankfurt": SeedShip("003:240", speed="2"),
    "canada": SeedShip("003:240", speed="1"),
    "superb": SeedShip("003:240", speed="1"),
})
