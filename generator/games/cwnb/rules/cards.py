"""Card-level checks: each card's fields agree with the rules, whatever else is in the deck.

Also the set mark of each pack (rule 2), since the mark is what every card of a pack carries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise

from generator.core.findings import Finding
from generator.games.cwnb.model import AEGIS, CRIPPLE_MIN_HITS, Action, Ship
from generator.games.cwnb.playrules import (
    ACTION_FIELDS,
    CARRIER_RATINGS,
    CLASS_NAMES,
    CLASS_TRAITS,
    CLASS_TYPES,
    MAX_AIR_STRIKE,
    NAMED_SHIPS,
)
from generator.games.cwnb.rules.registry import E, W, check
from generator.model.cards import CARD_SIZES_MM, CardSet, CardSize
from generator.rules.textfacts import has_words, words_of

ANCHOR = "anchor"
#: Hull types whose definition says they carry guided missiles (Definitions: CG, CGN, DDG, FFG,
#: CVHG); in this game that is a missile platform or a SAM air defense rating.
GUIDED_MISSILE_TYPES = frozenset({"CG", "CGN", "DDG", "FFG", "CVHG"})
#: Ordinary playing cards, which the Russian edition's faces are sized to be stuck onto (seed
#: 000:25): poker and bridge size, within half a millimetre.
PLAYING_CARD_SIZES = ("poker", "bridge")
PLAYING_CARD_TOLERANCE_MM = 0.5

SIXTEEN_INCH = check("cwnb-16in-not-iowa", "card", E, "Definitions: 16\" Gun",
                     "16in gun platforms only on Iowa-class battleships (BB)")
IOWA_WITHOUT_16IN = check("cwnb-iowa-without-16in", "card", W, "Definitions: 16\" Gun, BB",
                          "an Iowa-class battleship is expected to carry a 16in platform")
AIR_STRIKE_NOT_CARRIER = check("cwnb-air-strike-not-carrier", "card", E, "7.2",
                               "only carriers (CV CVN CVH CVHG) have an air strike rating")
CARRIER_NO_AIR_STRIKE = check("cwnb-carrier-without-air-strike", "card", E, "7.2, 12.3",
                              "every carrier has an air strike rating of 1 or more")
AIR_STRIKE_ABOVE_TWO = check("cwnb-air-strike-above-two", "card", E, "12.3",
                             "carrier air strike ratings are 2 (large) or 1 (small)")
CARRIER_SIZE = check("cwnb-carrier-strike-size", "card", E, "12.3, Definitions: CV CVN CVH",
                     "a large carrier (CV, CVN) rates 2, a small one (CVH, CVHG) 1")
NAMED_SHIP = check("cwnb-named-ship", "card", E, "10, 12.3",
                   "a ship the rules name keeps the values they give it: the Nimitz a US CVN "
                   "rating 2, the Baku a Soviet CVHG rating 1")
CLASS_TYPE = check("cwnb-class-type", "card", E, "Definitions: 16\" Gun, BB; 7.13, 7.14",
                   "the classes the rules name keep their type: Iowa BB, Los Angeles and "
                   "Alfa SSN")
SUB_GUNS = check("cwnb-submarine-guns", "card", E, "5.24, 7.13",
                 "submarines attack with torpedoes and missiles only: no gun platforms")
SUB_AIR_DEFENSE = check("cwnb-submarine-air-defense", "card", E, "5.23, 12.1",
                        "submarines sit in no row and defend no task force: no air defense")
SUB_BACK = check("cwnb-submarine-back", "card", E, "5.23",
                 "a submarine's back is its passive side")
PASSIVE_NOT_SUB = check("cwnb-passive-not-submarine", "card", E, "5.23",
                        "only submarines have a passive side")
NEEDS_CRIPPLED = check("cwnb-needs-crippled-side", "card", E, "12.7",
                       "a surface ship with Hits to Sink 7 or more has a Crippled back")
CANNOT_CRIPPLE = check("cwnb-cannot-be-crippled", "card", E, "12.7",
                       "a ship with Hits to Sink under 7 has no Crippled back")
TRAIT_NOT_SUB = check("cwnb-trait-not-submarine", "card", E, "Definitions, 7.13, 7.14",
                      "hunter, quiet and fast are submarine traits")
CLASS_TRAIT = check("cwnb-class-traits", "card", E, "7.13, 7.14",
                    "Los Angeles class: hunter and quiet; Alfa class: fast")
AEGIS_NOTATION = check("cwnb-aegis-notation", "card", E, "12.1",
                       "air defense is a rating 1-6 or Aegis written \"3+3\"")
BORN_CRITICAL = check("cwnb-born-critical", "card", W, "12.5",
                      "Hits to Sink 1 leaves a ship critically damaged from the start")
GUIDED_UNARMED = check("cwnb-guided-missile-type-unarmed", "card", E, "Definitions",
                       "a guided-missile type (CG CGN DDG FFG CVHG) has missiles or air defense")
FIELD_NOT_USED = check("cwnb-field-not-used", "card", E, "7.1, 7.11-7.16, 8.33",
                       "an action card sets only the value fields its kind uses")
ASW_PASSIVE_EASIER = check("cwnb-asw-passive-easier", "card", E, "7.14",
                           "ASW hits an active submarine at least as easily as a passive one")
ASW_NO_BONUS = check("cwnb-asw-no-active-bonus", "card", E, "7.14, 8.34",
                     "ASW hits an active submarine more easily than a passive one, not equally")
ROW_CHANCE = check("cwnb-row-chance-increases", "card", W, "5.2, 12.2",
                   "land based air strike chance does not grow towards the protected rows")
BASE_MARK = check("cwnb-base-set-mark", "card", E, "2",
                  "the base game's cards carry the anchor mark")
EXPANSION_ANCHOR = check("cwnb-expansion-anchor", "card", E, "2",
                         "an expansion's cards carry its own mark, never the anchor")
CARD_SIZE = check("cwnb-playing-card-size", "card", W, "seed 000:25, 2.1",
                  "the cards have the size of ordinary playing cards (poker or bridge)")


@lru_cache(maxsize=4096)  # a class recurs on many cards (50,000 ships: bench/rules_scaling.py)
def class_identity(ship_class: str) -> str | None:
    """The class the rules name that ``ship_class`` is, under any of its names (CLASS_NAMES),
    as a whole or with a sub-variant ("Los Angeles (688I)"); None for any other class."""
    for identity, aliases in CLASS_NAMES.items():
        if any(has_words(ship_class, alias) for alias in aliases):
            return identity
    return None


def _class_key(ship: Ship) -> str:
    return class_identity(ship.ship_class) or words_of(ship.ship_class)


def _ship_findings(ship: Ship) -> Iterator[Finding]:
    where, cid = ship.source.of, ship.id
    if "16in" in ship.guns and not (ship.type == "BB" and _class_key(ship) == "iowa"):
        yield SIXTEEN_INCH(f"type {ship.type} of class '{ship.ship_class}' lists a 16in gun "
                           "platform; 16in guns exist only on Iowa-class battleships",
                           where("guns"), cid)
    if ship.type == "BB" and _class_key(ship) == "iowa" and "16in" not in ship.guns:
        yield IOWA_WITHOUT_16IN("an Iowa-class battleship without a 16in gun platform",
                                where("guns"), cid)
    if ship.air_strike >= 1 and not ship.is_carrier:
        yield AIR_STRIKE_NOT_CARRIER(f"type {ship.type} with air_strike {ship.air_strike}; only "
                                     "carriers (CV CVN CVH CVHG) launch air strikes",
                                     where("air_strike"), cid)
    if ship.is_carrier and ship.air_strike < 1:
        yield CARRIER_NO_AIR_STRIKE(f"carrier ({ship.type}) with air_strike {ship.air_strike}; "
                                    "a carrier's rating is at least 1", where("air_strike"), cid)
    if ship.is_carrier and ship.air_strike > MAX_AIR_STRIKE:
        yield AIR_STRIKE_ABOVE_TWO(f"carrier air strike rating {ship.air_strike}; the rules know "
                                   f"large carriers of {MAX_AIR_STRIKE} and small ones of 1, "
                                   "which a half-sunk carrier loses one of", where("air_strike"),
                                   cid)
    elif ship.is_carrier and 1 <= ship.air_strike != CARRIER_RATINGS[ship.type]:
        size, other = ("large", "small") if CARRIER_RATINGS[ship.type] == 2 else ("small",
                                                                                  "large")
        yield CARRIER_SIZE(f"a {ship.type} with air strike rating {ship.air_strike}: a {size} "
                           f"carrier rates {CARRIER_RATINGS[ship.type]} (a half-sunk one drops "
                           f"to {CARRIER_RATINGS[ship.type] - 1}); {ship.air_strike} is a "
                           f"{other} carrier's", where("air_strike"), cid)
    yield from _named_findings(ship)
    expected = CLASS_TYPES.get(_class_key(ship))
    if expected is not None and ship.type != expected[0]:
        yield CLASS_TYPE(f"class {ship.ship_class} with type {ship.type}; the rules make "
                         f"the {ship.ship_class} class {expected[0]}", where("type"), cid,
                         rule=expected[1])
    yield from _submarine_findings(ship)
    yield from _back_findings(ship)
    yield from _trait_findings(ship)
    if isinstance(ship.air_defense, str) and ship.air_defense != AEGIS:
        yield AEGIS_NOTATION(f"air_defense {ship.air_defense!r}; Aegis is written \"3+3\"",
                             where("air_defense"), cid)
    if ship.hits_to_sink == 1:
        yield BORN_CRITICAL("hits_to_sink 1: the ship is one point from sinking from the start, "
                            "so it may never attack nor give air defense", where("hits_to_sink"),
                            cid)
    if ship.type in GUIDED_MISSILE_TYPES and not ship.missiles and ship.air_defense is None:
        yield GUIDED_UNARMED(f"type {ship.type} is a guided-missile type but has neither missiles "
                             "nor an air defense rating", where("type"), cid)


#: a named ship's names, each to its ship (whole words of a card's name, :func:`words_of`)
_NAMED = {name: named for named in NAMED_SHIPS for name in named.names}
_NAMED_WORDS = re.compile(r"(?<!\S)(" + "|".join(map(re.escape, _NAMED)) + r")(?!\S)")


def _named_findings(ship: Ship) -> Iterator[Finding]:
    """The ships the rules name with values of their own (001:481, 000:357)."""
    for match in _NAMED_WORDS.finditer(words_of(ship.name)):
        named = _NAMED[match.group(1)]
        for field, given in (("type", named.type), ("nation", named.nation),
                             ("air_strike", named.air_strike)):
            value = getattr(ship, field)
            if given is not None and value != given:
                yield NAMED_SHIP(f"{ship.name}: {field} {value}; the rules' "
                                 f"{named.names[0].title()} is {field} {given}",
                                 ship.source.of(field), ship.id, rule=named.rule)


def _submarine_findings(ship: Ship) -> Iterator[Finding]:
    if not ship.is_submarine:
        return
    if ship.guns:
        yield SUB_GUNS(f"submarine with gun platforms {list(ship.guns)}; submarines fire "
                       "torpedoes and missiles only", ship.source.of("guns"), ship.id)
    if ship.air_defense is not None:
        yield SUB_AIR_DEFENSE("submarine with an air defense rating; a submarine is in no row "
                              "and covers no task force", ship.source.of("air_defense"), ship.id)


def _back_findings(ship: Ship) -> Iterator[Finding]:
    where, cid = ship.source.of("back"), ship.id
    if ship.is_submarine:
        if ship.back != "passive":
            yield SUB_BACK(f"submarine with back '{ship.back}'; its back is the passive side",
                           where, cid)
        return
    if ship.back == "passive":
        yield PASSIVE_NOT_SUB(f"type {ship.type} with back 'passive'; only submarines have one",
                              where, cid)
    elif ship.can_be_crippled and ship.back != "crippled":
        yield NEEDS_CRIPPLED(f"hits_to_sink {ship.hits_to_sink} (>= {CRIPPLE_MIN_HITS}) lets an "
                             f"air strike cripple it, so its back is 'crippled', not "
                             f"'{ship.back}'", where, cid)
    elif not ship.can_be_crippled and ship.back == "crippled":
        yield CANNOT_CRIPPLE(f"back 'crippled' but hits_to_sink {ship.hits_to_sink} is under "
                             f"{CRIPPLE_MIN_HITS}: an air strike sinks it outright", where, cid)


def _trait_findings(ship: Ship) -> Iterator[Finding]:
    where, cid = ship.source.of, ship.id
    if ship.traits and not ship.is_submarine:
        yield TRAIT_NOT_SUB(f"type {ship.type} with traits {list(ship.traits)}; hunter, quiet and "
                            "fast describe submarines", where("traits"), cid)
        return
    expected = CLASS_TRAITS.get(_class_key(ship), ()) if ship.is_submarine else ()
    missing = [t for t in expected if t not in ship.traits]
    if missing:
        field = "traits" if ship.traits else "class"
        yield CLASS_TRAIT(f"class {ship.ship_class} submarine without trait(s) "
                          f"{', '.join(missing)}", where(field), cid)


def _action_findings(action: Action) -> Iterator[Finding]:
    where, cid = action.source.of, action.id
    for field, (kinds, rule) in ACTION_FIELDS.items():
        if getattr(action, field) is not None and action.action not in kinds:
            yield FIELD_NOT_USED(f"'{field}' has no meaning on action {action.action}; only "
                                 f"{', '.join(sorted(kinds))} cards use it", where(field), cid,
                                 rule=rule)
    if action.action == "asw" and action.chance_vs_active and action.chance_vs_passive:
        active, passive = action.chance_vs_active, action.chance_vs_passive
        if active < passive:
            yield ASW_PASSIVE_EASIER(f"chance_vs_active {active} is below chance_vs_passive "
                                     f"{passive}; an active submarine is the easier target",
                                     where("chance_vs_active"), cid)
        elif active == passive:
            yield ASW_NO_BONUS(f"chance_vs_active equals chance_vs_passive ({active}); the rules "
                               "make an active submarine the easier target",
                               where("chance_vs_active"), cid)
    rows = action.chance_by_row
    if action.action == "land_air_strike" and rows and any(a < b for a, b in pairwise(rows)):
        yield ROW_CHANCE(f"chance_by_row {list(rows)} grows towards row 3; the rows behind the "
                         "pickets are meant to be harder to hit", where("chance_by_row"), cid)


def _mark_findings(card_set: CardSet) -> Iterator[Finding]:
    """Rule 2: the anchor sorts the base game out of every expansion, so it is the base's alone.
    An expansion reusing the base's own mark is reported by the generic validator already."""
    for pack in card_set.packs:
        manifest = pack.manifest
        if pack is card_set.base and manifest.extends is None and manifest.set_mark != ANCHOR:
            yield BASE_MARK(f"base pack '{manifest.pack}' has set_mark '{manifest.set_mark}'; "
                            f"base cards carry '{ANCHOR}'", manifest.where("set_mark"))
        elif (manifest.extends is not None and manifest.set_mark == ANCHOR
              and (pack is card_set.base or card_set.base.manifest.set_mark != ANCHOR)):
            yield EXPANSION_ANCHOR(f"expansion '{manifest.pack}' uses the '{ANCHOR}' mark of "
                                   "the base game; give it a mark of its own",
                                   manifest.where("set_mark"))


def _is_playing_card(size: CardSize) -> bool:
    return any(abs(size.width_mm - width) <= PLAYING_CARD_TOLERANCE_MM
               and abs(size.height_mm - height) <= PLAYING_CARD_TOLERANCE_MM
               for width, height in (CARD_SIZES_MM[name] for name in PLAYING_CARD_SIZES))


def _size_findings(card_set: CardSet) -> Iterator[Finding]:
    """Seed 000:25: the Russian edition sized every card to be stuck onto an ordinary playing
    card, and 2.1 prints player order cards at the action cards' size; CWNB kinds share the
    pack's size, so the base pack's card_size says it all (an expansion must match the base:
    the generic ``expansion-card-size``)."""
    manifest = card_set.base.manifest
    size = manifest.card_size
    if manifest.extends is None and not _is_playing_card(size):
        yield CARD_SIZE(f"card_size {size.width_mm:g} x {size.height_mm:g} mm is not the size "
                        "of ordinary playing cards (poker 63.5 x 88.9 or bridge 57.2 x 88.9 mm), "
                        "which the printed cards are meant to be stuck onto or sleeved with",
                        manifest.where("card_size"))


def check_cards(card_set: CardSet) -> list[Finding]:
    """Every card-level check over every card of the base and its expansions."""
    findings: list[Finding] = [*_mark_findings(card_set), *_size_findings(card_set)]
    for card in card_set.cards:
        if isinstance(card, Ship):
            findings.extend(_ship_findings(card))
        elif isinstance(card, Action):
            findings.extend(_action_findings(card))
    return findings
