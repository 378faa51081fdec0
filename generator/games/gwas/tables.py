"""Great War at Sea facts that cards, checks and faces share, each with the seed line it is from.

Seeds: 003 = ``003_4678bd8159124b2d.txt`` (basic rules, sections 1-6), 004 =
``004_14f2668eed850117.txt`` (submarines, leaders, airships, motor torpedo boats). Keeping the
class table, the speed set and the special-unit numbers here, once, lets the validator, the
printed reference cards and docs/rules-gwas.md agree by construction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from msgspec import Struct, field

from generator.rules.textfacts import Fact, Topic, at_least, exactly

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


def _no_words() -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({})


class Modifier(Struct, frozen=True):
    """One row of a procedure's modifier table, as a reference card prints it.

    ``value`` is the printed value in plain ASCII ("+1", "-2", "±1", "6+", "4-6"); a card may
    print it with a minus sign or an en dash. ``terms`` are the word stems, per language, that
    name the row on a card ("ясно", "clear"): they let the check tell which row a printed line
    claims to be, whatever order the card lists them in.

    The row's condition is more than the word that names it: ``requires`` lists, per language,
    patterns that must all stand in the label (both "storm" and "squall"; the "fast" of "a fast
    transport"); ``forbids`` patterns that change the condition ("at least one ship faster"
    where the seeds say every ship); ``negations`` the negated words the row's own condition
    holds ("без хода", "not torpedoes"), any other negation turning the condition around; and
    ``comparison`` the comparison the seeds make with the row's number ("more than 20": ">").
    """

    key: str
    what: str
    value: str
    seed: str
    terms: Mapping[str, tuple[str, ...]]
    requires: Mapping[str, tuple[str, ...]] = field(default_factory=_no_words)
    forbids: Mapping[str, tuple[str, ...]] = field(default_factory=_no_words)
    negations: Mapping[str, tuple[str, ...]] = field(default_factory=_no_words)
    comparison: str = ""
    codes: frozenset[str] = frozenset()  # the class codes the condition names, all of them


class Procedure(Struct, frozen=True):
    """A procedure the seeds give in full: the rule number a reference card prints, its
    modifier table, every number its rules state (the numbers its text may print), and the
    facts a number of its text may be bound to by the words beside it (``bound``)."""

    rule: str
    seed: str
    modifiers: tuple[Modifier, ...] = ()
    facts: frozenset[int] = frozenset()
    bound: tuple[Fact, ...] = ()

    @property
    def numbers(self) -> frozenset[int]:
        """Numbers a reference text may print: the stated facts, the bound facts' numbers
        and the modifiers' values."""
        found = {int(n) for m in self.modifiers for n in re.findall(r"\d+", m.value)}
        bound = {n for fact in self.bound for run in fact.values for n in run}
        return self.facts | found | bound


def _row(key: str, what: str, value: str, seed: str, ru: tuple[str, ...],
         en: tuple[str, ...], **condition: object) -> Modifier:
    return Modifier(key, what, value, seed, _words(ru, en), **condition)  # type: ignore[arg-type]


def _words(ru: tuple[str, ...], en: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({"ru": ru, "en": en})


def _fact(key: str, what: str, values: frozenset[tuple[int, ...]], seed: str,
          ru: tuple[str, ...], en: tuple[str, ...], refines: str = "") -> Fact:
    return Fact(key, what, values, seed, _words(ru, en), refines)


#: words that name a hit of a gunnery die, and a name printed in italics (003:329, 004:129)
_HIT = (r"попада", r"попадан"), (r"hits?\b", r"hitting")
_ITALIC = (r"курсив",), (r"italic",)

#: Procedures the seeds give in full, with the rule number a card prints ("" where the seeds
#: number none): a base pack prints a reference card for every one (and for the class table).
PROCEDURES: Mapping[str, Procedure] = MappingProxyType({
    "contact": Procedure("5.4", "003:284", (
        _row("gale", "gale", "-2", "003:298", ("буря",), ("gale",)),
        _row("storm", "storm or squall", "-1", "003:300", ("шторм", "шквал"),
             ("storm", "squall"), requires=_words(("шторм", "шквал"), ("storm", "squall"))),
        _row("clear", "clear weather", "+1", "003:301", ("ясно",), ("clear",)),
        _row("leader", "a leader present (declared)", _signed(LEADER_CONTACT), "003:305",
             ("лидер",), ("leader",)),
        _row("big-fleet", "a fleet of more than 20 ships", "+1", "003:307", ("20",), ("20",),
             comparison=">"),
        _row("light-only", "a fleet of armed yachts, destroyers and torpedo boats only", "-1",
             "003:308", ("dd",), ("dd",), requires=_words(("только",), ("only",)),
             codes=frozenset({"AY", "DD", "TB"})),
        _row("intercept", "an intercept mission", "+2", "003:309", ("перехват",),
             ("intercept",)),
        _row("raiding", "a raiding mission (owner's choice)", "±1", "003:310", ("рейд",),
             ("raid",)),
        _row("airship", "an airship in the zone", "+2", "003:311", ("дирижабл",),
             ("airship",)),
    ), frozenset({CONTACT_DAY, CONTACT_NIGHT, 20}), (
        _fact("day", "contact by day", at_least(CONTACT_DAY), "003:284",
              (r"дн[её]м", r"дневн", r"день"), (r"day",)),
        _fact("night", "contact by night", at_least(CONTACT_NIGHT), "003:284", (r"ноч",),
              (r"night",)),
        _fact("unmodified", "an unmodified 6, always contact", exactly(6), "003:286",
              (r"чист", r"немодифиц", r"без\s+поправ"), (r"unmodified", r"natural")),
    )),
    "pursuit": Procedure("5.23", "003:270", (
        _row("day", "a day turn", _signed(PURSUIT_DAY), "003:270", ("днев", "день", "днём"),
             ("day",)),
        _row("faster", "every pursuing ship faster than the slowest pursued",
             _signed(PURSUIT_FASTER), "003:270", ("быстр",), ("faster",),
             forbids=_words((r"хотя\s+бы", r"любой", r"один\s+из", r"какой-", r"некотор"),
                            (r"any\b", r"at\s+least\s+one", r"one\s+of", r"some\b"))),
        _row("success", "success", f"{PURSUIT_SUCCESS}+", "003:270", ("успех",),
             ("success",)),
    ), frozenset({PURSUIT_SUCCESS, 2})),  # pursuit is written for the next two turns
    "gunnery": Procedure("6.0", "003:325", (
        _row("close", "close range", _signed(CLOSE_RANGE), "003:339", ("ближн",),
             ("short", "close")),
        _row("night", "night (not torpedoes)", _signed(NIGHT_GUNNERY), "003:343", ("ноч",),
             ("night",), negations=_words((r"не\s+для\s+торпед", r"кроме\s+торпед"),
                                          (r"not\s+(?:for\s+)?torpedo", r"except\s+torpedo",
                                           r"no\s+torpedo"))),
    ), frozenset({HIT_ON, HIT_ON_ITALIC}), (
        _fact("hit", "a hit (ordinary names)", exactly(HIT_ON), "003:329", *_HIT),
        _fact("italic", "a hit for a name in italics", exactly(HIT_ON_ITALIC,
                                                                (HIT_ON_ITALIC, HIT_ON)),
              "003:329", *_ITALIC, refines="hit"),
        _fact("close", "close range", exactly(abs(CLOSE_RANGE)), "003:339", (r"ближн",),
              (r"close", r"short")),
        _fact("night", "night", exactly(abs(NIGHT_GUNNERY)), "003:343", (r"ноч",),
              (r"night",)),
    )),
    "submarine": Procedure("15", "004:21", (
        _row("capital", "target is a capital ship", _signed(SUBMARINE_TARGET), "004:29",
             ("основн",), ("capital",)),
        _row("transport", "target is a fast transport or cannot move",
             _signed(SUBMARINE_TARGET), "004:29", ("транспорт",), ("transport",),
             requires=_words((r"быстр|скоростн",
                              r"без\s+хода|не\s+(?:может\s+)?дви|неподвиж|потерявш"),
                             (r"fast", r"cannot\s+move|can't\s+move|immobil|stopped|"
                                       r"not\s+move|dead\s+in")),
             negations=_words((r"без\s+хода", r"не\s+(?:может\s+)?дви"),
                              (r"cannot\s+move", r"can't\s+move", r"not\s+move"))),
        _row("ace", "an ace commander", _signed(ACE_ATTACK), "004:41", ("ас",), ("ace",)),
        _row("points", "victory points for a sunk submarine", str(SUBMARINE_POINTS), "004:47",
             ("потоплен",), ("sunk",)),
    ), frozenset({SUBMARINE_CONTACT, ACE_CONTACT, ASW_SHIPS_PER_DIE, ASW_SINK_BEFORE,
                  ASW_SINK_AFTER, SUBMARINE_ATTACK, 2}), (  # 004:3: two zones from a port
        _fact("contact", "a submarine's contact roll", at_least(SUBMARINE_CONTACT), "004:9",
              (r"контакт", r"обнаруж"), (r"contact", r"detect")),
        _fact("ace", "an ace's contact roll and attack bonus",
              at_least(ACE_CONTACT) | exactly(ACE_ATTACK), "004:41",
              (r"ас(?:а|у|ом|ы|ов|е|ами)?(?!\w)", r"асы"), (r"aces?\b",), refines="contact"),
        _fact("before", "the anti-submarine roll that sinks it before its attack",
              exactly(ASW_SINK_BEFORE), "004:21", (r"до\s+(?:своей\s+|её\s+|ее\s+)?атак",),
              (r"before",)),
        _fact("after", "the anti-submarine roll that sinks it after its attack",
              exactly(ASW_SINK_AFTER), "004:21", (r"после",), (r"after",)),
        _fact("asw-ships", "one anti-submarine die per three DD, TB or MS",
              exactly(ASW_SHIPS_PER_DIE), "004:21", (r"DD\b", r"TB\b", r"MS\b", r"эсмин"),
              (r"DD\b", r"TB\b", r"MS\b", r"destroyer")),
        _fact("hit", "a submarine's torpedo hit", at_least(SUBMARINE_ATTACK), "004:29",
              *_HIT),
        _fact("points", "victory points for a sunk submarine", exactly(SUBMARINE_POINTS),
              "004:47", (r"ОП\b", r"очк"), (r"VP\b", r"victory")),
    )),
    "mtb": Procedure("18", "004:115", (
        _row("surprise", "surprise attack", _faces(MTB_SURPRISE), "004:127", ("внезап",),
             ("surprise",)),
        _row("target-fires", "the target fires first", _faces(*MTB_TARGET_FIRES), "004:127",
             ("цель",), ("target",)),
        _row("fleet-fires", "the whole enemy fleet fires", _faces(MTB_WHOLE_FLEET, 1),
             "004:127", ("весь", "всего"), ("whole",)),
        _row("italian", "Italian MTBs' torpedo roll", _signed(MTB_BONUS), "004:135",
             ("итальян",), ("italian",), requires=_words((r"торпед",), (r"torpedo",))),
    ), frozenset({MTB_CONTACT, HIT_ON, MTB_DECK_TORPEDOES, 6,  # 004:109: six zones
                  5, 8, 11, 12}), (  # 004:127 "4, 5, 6"; the example of 004:137
        _fact("contact", "an MTB's contact roll", at_least(MTB_CONTACT), "004:115",
              (r"контакт",), (r"contact",)),
        _fact("surprise", "a surprise attack", at_least(MTB_SURPRISE), "004:127",
              (r"внезап",), (r"surprise",)),
        _fact("hit", "a hit on an MTB", exactly(HIT_ON), "004:129", *_HIT),
        _fact("italic", "the italic ships' bonus against an MTB",
              exactly(MTB_ITALIC, HIT_ON - MTB_ITALIC, (HIT_ON - MTB_ITALIC, HIT_ON)),
              "004:129", *_ITALIC, refines="hit"),
        _fact("deck", "an MTB's deck-mounted torpedo factors", exactly(MTB_DECK_TORPEDOES),
              "004:121", (r"палубн",), (r"deck",)),
        _fact("italian", "the Italian MTBs' torpedo bonus", exactly(MTB_BONUS), "004:135",
              (r"итальян",), (r"italian",), refines="deck"),
    )),
    "classes": Procedure("", "003:228"),
})

#: The rules the seeds number: the contents of 003 (003:13-146), the paragraphs its text and
#: 004 number (5.11 ... 16.2), and the ones they cite; a reference text cites only these.
RULE_NUMBERS = frozenset({
    "1.0", "2.0", "3.0", "4.0", "4.1", "4.2", "4.3", "4.4", "4.5", "5.0", "5.1", "5.11",
    "5.12", "5.2", "5.21", "5.22", "5.23", "5.24", "5.25", "5.3", "5.4", "5.41", "5.42",
    "5.43", "5.44", "5.45", "5.46", "5.47", "5.48", "5.49", "6.0", "6.1", "6.2", "7.0", "7.1",
    "7.2", "7.27", "7.28", "7.3", "7.31", "7.33", "7.37", "7.4", "7.5", "7.6", "7.7", "7.8",
    "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0", "10.0", "10.2",
    "11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.72", "12.0", "12.1",
    "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "13.0", "13.1", "13.2", "13.3", "13.4",
    "13.5", "13.6", "14.0", "15.0", "15.41", "15.42", "16.0", "16.1", "16.2", "17.0", "18.0",
    "19.0", "19.1", "19.2", "19.3",
})

#: What some numbered rules are about, in the words a reference text names them with: a text
#: that cites one of them beside the words of another cites the wrong rule.
RULE_TOPICS: tuple[Topic, ...] = (
    Topic("5.23", "pursuit", _words((r"преслед",), (r"pursu",))),
    Topic("5.41", "the surprise sighting of an unmodified 6",
          _words((r"внезапн\w*\s+обнаруж", r"чист"), (r"surprise\s+sight", r"unmodified"))),
    Topic("5.42", "automatic contact", _words((r"автомат", r"без\s+броска"),
                                               (r"automatic",))),
    Topic("5.45", "weather", _words((r"погод", r"буря", r"шторм"), (r"weather", r"gale"))),
    Topic("5.46", "declared modifiers", _words((r"заявл", r"лидер"),
                                                (r"declared", r"leader"))),
    Topic("5.49", "raiding fleets", _words((r"рейдерствующ",), (r"raiding\s+fleet",))),
    Topic("7.7", "torpedo combat", _words((r"торпедн\w*\s+бо",), (r"torpedo\s+combat",))),
    Topic("15.41", "a submarine's choice of target", _words((r"выбор\w*\s+цел",),
                                                             (r"choice\s+of\s+target",))),
)


class SeedShip(Struct, frozen=True, gc=False):
    """Values the seeds themselves give a named ship; ``None`` where they say nothing."""

    seed: str
    ship_class: str | None = None
    gunnery: tuple[int, ...] | None = None
    speed: str | None = None
    italic: bool | None = None
    side: str | None = None  # whose player moves it in the seed's example
    nation: str | None = None  # where the seed names the navy


#: Ships the seeds name with a value, by name as compared (case- and accent-blind). A card of
#: that name prints these values: the seeds' own examples are the only real data they hold.
SEED_SHIPS: Mapping[str, SeedShip] = MappingProxyType({
    # 004:137: the Austrian battleship fires 12 dice, 8-3-1; its two 5s miss the MTB, which
    # italic ships (+1 against MTBs, 004:129) would have hit
    # "австрийскими линкорами" (Austrian battleships), fired at by the Entente's Italian MTBs
    "tegetthoff": SeedShip("004:137", ship_class="BB", gunnery=(8, 3, 1), italic=False,
                           side=ALLIANCE, nation="AH"),
    "szent istvan": SeedShip("004:137", ship_class="BB", side=ALLIANCE,  # "the dreadnought"
                             nation="AH"),
    # Fleet 1 of the Triple Alliance player, from Danzig; Fleet 4 of the Entente, from Dover
    "rostock": SeedShip("003:240", speed="2", side=ALLIANCE),
    "frankfurt": SeedShip("003:240", speed="2", side=ALLIANCE),
    "canada": SeedShip("003:240", speed="1", side=ENTENTE),
    "superb": SeedShip("003:240", speed="1", side=ENTENTE),
})
