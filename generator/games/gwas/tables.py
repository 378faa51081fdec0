"""Great War at Sea facts that cards, checks and faces share, each with the seed line it is from.

Seeds: 003 = ``003_4678bd8159124b2d.txt`` (basic rules, sections 1-6), 004 =
``004_14f2668eed850117.txt`` (submarines, leaders, airships, motor torpedo boats). Keeping the
class table, the speed set and the special-unit numbers here, once, lets the validator, the
printed reference cards and docs/rules-gwas.md agree by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
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
SUBMARINE_HULL_TORPEDOES = 1  # 004:15
SUBMARINE_CONTACT = 5  # 004:9: a submarine finds a fleet on 5-6, by day only
ACE_CONTACT = 4  # 004:41: an ace finds it on 4-6 and adds 1 to the attack roll
SUBMARINE_ATTACK = 6  # 004:29: 6 or more hits; +1 vs capital ship, fast transport or stopped
SUBMARINE_POINTS = 4  # 004:47: victory points for sinking an enemy submarine
MTB_DECK_TORPEDOES = 2  # 004:121
MTB_CONTACT = 3  # 004:115: contact on 3-6
MTB_SURPRISE = 4  # 004:127: a surprise attack on 4-6
MTB_BONUS_NATIONS = frozenset({"IT"})  # 004:135: Italian MTBs add 1 to their torpedo roll
AIRSHIP_ENDURANCE_TURNS = 60  # 004:95
LEADER_CONTACT = 1  # 004:63 (and 003:305): +1 to the contact roll
LEADER_INITIATIVE = MappingProxyType({ALLIANCE: -1, ENTENTE: +1})  # 004:63

#: Procedures the seeds give in full, each with its rule number: a pack prints a reference card
#: for every one of them (and for the class table of 003:228).
PROCEDURES: Mapping[str, str] = MappingProxyType({
    "contact": "5.4",
    "pursuit": "5.23",
    "gunnery": "6.0",
    "submarine": "15",
    "mtb": "18",
    "classes": "2.0",
})
