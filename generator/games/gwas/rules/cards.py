"""Card-level checks: each card's printed values agree with seeds 003/004, whatever else is in
the pack (class codes and groups, gunnery factors, speeds, torpedo factors, airship movement)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.gwas.model import Airship, Mtb, Ship, Submarine, name_key
from generator.games.gwas.rules.options import ALLOW_SPEED_1_PLUS, Options, options_of
from generator.games.gwas.rules.registry import E, W, check
from generator.games.gwas.tables import (
    ALLIANCE,
    CAPITAL,
    CLASS_GROUPS,
    ENTENTE,
    LARGE,
    MTB_DECK_TORPEDOES,
    NONCOMBAT,
    SEED_SHIPS,
    SMALL,
    SPEED_1_PLUS,
    SPEEDS,
    SUBMARINE_HULL_TORPEDOES,
)
from generator.model.cards import CardSet

CLASS_UNKNOWN = check("gwas-class-unknown", "card", E, "003:228",
                      "a combat ship's class code is one of the class table")
CLASS_GROUP = check("gwas-class-group", "card", E, "003:228",
                    "the group (capital, light, noncombat) is the one the class table gives "
                    "the code")
SMALL_GUNNERY = check("gwas-gunnery-small", "card", E, "003:176",
                      "a small-ship counter has a tertiary gunnery factor only")
LARGE_GUNNERY = check("gwas-gunnery-pst", "card", E, "003:176, 004:137",
                      "a large-ship counter has primary, secondary and tertiary factors (P-S-T)")
GROUP_OF_LARGE = check("gwas-group-not-small", "card", E, "003:176",
                       "only small ships share one counter (ships > 1)")
SPEED = check("gwas-speed", "card", E, "003:238, 003:333",
              "speed is one of 2+, 2, 1, 1s")
SPEED_1_PLUS_CHECK = check("gwas-speed-1-plus", "card", E, "003:274, 003:333",
                           "speed 1+ (named at 003:274, missing from the list at 003:333) "
                           "only with options.allow_speed_1_plus; reported either way")
SUB_TORPEDOES = check("gwas-submarine-torpedoes", "card", E, "004:15",
                      "a submarine has exactly one hull-mounted torpedo factor")
MTB_TORPEDOES = check("gwas-mtb-torpedoes", "card", E, "004:121",
                      "a motor torpedo boat has exactly two deck-mounted torpedo factors")
AIRSHIP_MOVE = check("gwas-airship-movement", "card", E, "004:77",
                     "an airship's card gives its movement in zones a turn (1 or more)")
CAPITAL_SMALL = check("gwas-counter-capital-small", "card", E, "003:176, 003:228",
                      "a capital ship (основной боевой корабль) is a large ship: never on a "
                      "small-ship counter")
SEED_SHIP = check("gwas-seed-ship", "card", E, "003:240, 004:137",
                  "a ship the seeds give values for (Tegetthoff 8-3-1 not italic, Szent István "
                  "a dreadnought, both Austro-Hungarian; Rostock and Frankfurt speed 2, Triple "
                  "Alliance; Canada and Superb speed 1, Entente) prints those values")
SIDE_NAMES = {ALLIANCE: "Triple Alliance", ENTENTE: "Entente"}


def _class_findings(ship: Ship) -> Iterator[Finding]:
    where, cid, code = ship.source.of, ship.id, ship.ship_class
    table_group = CLASS_GROUPS.get(code)
    if table_group is None:
        if ship.group != NONCOMBAT:
            close = difflib.get_close_matches(code, list(CLASS_GROUPS), n=1, cutoff=0.5)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            yield CLASS_UNKNOWN(f"class code '{code}' is not in the class table{hint} (a "
                                "non-combat vessel takes group: noncombat)", where("class"), cid)
        return
    if ship.group != table_group:
        yield CLASS_GROUP(f"class {code} is a {table_group} class in the class table, but the "
                          f"card says group '{ship.group}'", where("group"), cid)


def _gunnery_findings(ship: Ship) -> Iterator[Finding]:
    """Factor counts by counter size; a code outside the class table gives no size unless the
    card names one (the unknown code is reported on its own, not twice)."""
    where, cid = ship.source.of, ship.id
    written = "-".join(map(str, ship.gunnery))
    how = "its card says so" if ship.counter_given else f"class {ship.ship_class}"
    if not ship.counter_given and ship.ship_class not in CLASS_GROUPS:
        return
    if ship.counter == SMALL and len(ship.gunnery) != 1:
        yield SMALL_GUNNERY(f"gunnery '{written}' on a small-ship counter ({how}); a small "
                            "ship has one tertiary factor, e.g. gunnery: 2", where("gunnery"), cid)
    elif ship.counter == LARGE and len(ship.gunnery) != 3:
        yield LARGE_GUNNERY(f"gunnery '{written}' on a large-ship counter ({how}) gives "
                            f"{len(ship.gunnery)} factor(s); write primary-secondary-tertiary, "
                            "e.g. 8-3-1", where("gunnery"), cid)
    if ship.counter == SMALL and CLASS_GROUPS.get(ship.ship_class) == CAPITAL:
        yield CAPITAL_SMALL(f"counter: small on a {ship.ship_class}, a capital class in the "
                            "class table; a capital ship has primary, secondary and tertiary "
                            "guns on a large counter", where("counter"), cid)
    if ship.ships > 1 and ship.counter == LARGE:
        yield GROUP_OF_LARGE(f"ships: {ship.ships} on a large-ship counter; only groups of "
                             "small ships share a counter", where("ships"), cid)


def _seed_ship_findings(ship: Ship) -> Iterator[Finding]:
    facts = SEED_SHIPS.get(name_key(ship.name))
    if facts is None:
        return
    cid = ship.id
    printed = {"class": (facts.ship_class, ship.ship_class),
               "gunnery": (facts.gunnery, ship.gunnery),
               "speed": (facts.speed, ship.speed), "italic": (facts.italic, ship.italic),
               "nation": (facts.nation, ship.nation)}
    if facts.side is not None and facts.side != ship.side and facts.nation is None:
        yield SEED_SHIP(f"{ship.name}: nation {ship.nation} is of side {ship.side}; in the "
                        f"seeds {ship.name} sails for the {SIDE_NAMES[facts.side]}",
                        ship.source.of("nation"), cid, rule=facts.seed)
    for key, (given, card) in printed.items():
        if given is not None and given != card:
            shown = "-".join(map(str, given)) if isinstance(given, tuple) else given
            written = "-".join(map(str, card)) if isinstance(card, tuple) else card
            yield SEED_SHIP(f"{ship.name}: {key} {written!s}; the seeds give {ship.name} "
                            f"{key} {shown!s}", ship.source.of(key), cid, rule=facts.seed)


def _speed_findings(ship: Ship, options: Options) -> Iterator[Finding]:
    where, cid = ship.source.of("speed"), ship.id
    if ship.speed == SPEED_1_PLUS:
        if options.allow_speed_1_plus:
            yield SPEED_1_PLUS_CHECK(
                "speed '1+' is allowed by options.allow_speed_1_plus, but the seed's list of "
                "speeds has only 2+, 2, 1 and 1s: check the scenario book", where, cid,
                severity=W)
        else:
            yield SPEED_1_PLUS_CHECK(
                "speed '1+' is named once in the seed but is not among its four speeds 2+, 2, "
                f"1, 1s; set options.{ALLOW_SPEED_1_PLUS}: true in game.yaml to accept it",
                where, cid)
    elif ship.speed not in SPEEDS:
        yield SPEED(f"speed '{ship.speed}' is not one of {', '.join(SPEEDS)}", where, cid)


def _torpedo_findings(card: Submarine | Mtb) -> Iterator[Finding]:
    where, cid = card.source.of("torpedoes"), card.id
    deck, hull = card.torpedo_deck, card.torpedo_hull
    if isinstance(card, Submarine) and (hull, deck) != (SUBMARINE_HULL_TORPEDOES, 0):
        yield SUB_TORPEDOES(f"torpedoes deck {deck}, hull {hull}; a submarine has exactly "
                            "torpedoes: {hull: 1}", where, cid)
    if isinstance(card, Mtb) and (deck, hull) != (MTB_DECK_TORPEDOES, 0):
        yield MTB_TORPEDOES(f"torpedoes deck {deck}, hull {hull}; a motor torpedo boat has "
                            "exactly torpedoes: {deck: 2}", where, cid)


def check_cards(card_set: CardSet) -> list[Finding]:
    """Every card-level check over the base pack and its expansions."""
    findings: list[Finding] = []
    for pack in card_set.packs:
        options = options_of(card_set.base.manifest)
        for card in pack.cards:
            if isinstance(card, Ship):
                findings += [*_class_findings(card), *_gunnery_findings(card),
                             *_speed_findings(card, options), *_seed_ship_findings(card)]
            elif isinstance(card, Submarine | Mtb):
                findings += _torpedo_findings(card)
            elif isinstance(card, Airship) and (card.movement is None or card.movement < 1):
                findings.append(AIRSHIP_MOVE(
                    f"movement {card.movement if card.movement is not None else 'missing'}; an "
                    "airship moves the number of zones printed on it, at least 1",
                    card.source.of("movement"), card.id))
    return findings
