"""Card-level checks: each card's fields agree with the rules and are written in their notation.

A notation that does not parse is reported once, at the field, and the checks that need its
value (critical damage below strength, mazer type against shield type) quietly skip it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.commander import notation
from generator.games.commander.model import (
    ARMED,
    CREW_QUALITIES,
    NAMED_SIZES,
    RANGES,
    SIZES,
    Ability,
    Combat,
    Commander,
    CommanderCard,
    Ship,
    Situation,
    SpaceObject,
    Tactical,
)
from generator.games.commander.rules.registry import Check, E, W, check
from generator.model.cards import CardSet

WRONG_SCRIPT = check("commander-wrong-script", "card", E, "L56, L86, L227, L231, L241",
                     "letter codes are Cyrillic (ЛК СК ТК, Н В Э, А В С, Д С М); the die is "
                     "a Latin D6")
SIZE = check("commander-size", "card", E, "L86", "a ship's size is ЛК, СК or ТК")
CREW_QUALITY = check("commander-crew-quality", "card", E, "L86, L257",
                     "crew quality is Н, В or Э")
CREW_MISSING = check("commander-crew-quality-missing", "card", E, "L86, L257",
                     "a card with a crew states its quality (Н, В or Э)")
ENERGY = check("commander-energy-notation", "card", E, "L227, L231",
               "shields and mazers are written type А/В/С and power, e.g. \"С3\"")
HULL = check("commander-hull-notation", "card", E, "L86, L189",
             "hull is written X(Y): strength, critical damage in brackets (ships need both)")
CRITICAL = check("commander-critical-damage", "card", E, "L86, L189",
                 "critical damage Y is below strength X in a hull X(Y)")
LASERS = check("commander-lasers-notation", "card", E, "L235",
               "laser batteries are written targets/power, e.g. \"2/4\" (or power alone)")
SALVO = check("commander-salvo-notation", "card", E, "L241, L245",
              "rockets and torpedoes are written count-power, e.g. \"6-4\", \"4-8\"")
ROCKET_RANGE = check("commander-rocket-range", "card", E, "L241",
                     "rockets have a range Д, С or М, and a range needs rockets")
D6 = check("commander-d6-notation", "card", E, "L56",
           "a die roll is written \"D6 N+\" with N from 2 to 6, in fields and in card texts")
MAZER_SHIELD = check("commander-mazer-without-shield", "card", E, "L231",
                     "a mazer uses the energy type of the card's own shield, so it needs one")
MAZER_TYPE = check("commander-mazer-type", "card", E, "L231",
                   "a mazer written with a type has its shield's type")
SPEED = check("commander-speed-not-zero", "card", E, "L197, L213",
              "stations, other space objects and buildings have speed 0")
STATION_HULL = check("commander-station-hull", "card", E, "L213",
                     "a station has a hull, like a ship")
OBJECT_HULL = check("commander-hull-not-station", "card", W, "L209, L213",
                    "only stations among space objects are destroyed by damage (others are "
                    "captured), so only they need a hull")
PROPER_NAME = check("commander-proper-name-not-allowed", "card", E, "L323",
                    "the proper-name line is printed on СК/ТК ships and space objects only")
PROPER_NAME_MISSING = check("commander-proper-name-missing", "card", E, "L323",
                            "СК/ТК ships and space objects carry the proper-name line")
VARIANTS = check("commander-ability-variants", "card", E, "L114",
                 "an ability card has exactly two variants, neither of them blank")
VARIANTS_SAME = check("commander-ability-variants-same", "card", E, "L114",
                      "the two variants of an ability card say different things (the player "
                      "chooses one)")
COST_ZERO = check("commander-cost-zero", "card", E, "L86, L90, L94, L98, L102, L133, L138",
                  "a cost is a real cost: production costs at least 1 resource, and a chips or "
                  "resources cost written on a tactical or situation card is at least 1")
TEXT_MISSING = check("commander-text-missing", "card", E, "L98, L106, L110",
                     "a text the rules rely on is not blank: a tactical card's (when it is "
                     "played), an upgrade's (the properties it gives), a commander's (its "
                     "abilities)")
PROPERTY_REQUIRES = check("commander-property-requires", "card", E, "L285, L289",
                          "a smuggling run is a commercial run to a hostile object: a ship with "
                          "smuggling_run also has commercial_run")
CREW_NO_SIZE = check("commander-crew-quality-no-crew", "card", W, "L86, L257",
                     "a crew quality belongs to a crew: not on a card of crew size 0 (no crew)")
RUN_YIELD = check("commander-commercial-run-yield", "card", W, "L132, L285",
                  "a ship with commercial_run says in its text what a run brings, with the "
                  "resource or action-chip icon")
AMOUNT_IN_WORDS = check("commander-amount-in-words", "card", W, "L132",
                        "card texts write amounts of resources and action chips with their "
                        "icons ({resource}, {action-chip}), not in words")
TACTICAL_COST = check("commander-tactical-cost", "card", E, "L98",
                      "a tactical card costs action chips and/or a D6 roll")
SITUATION_COST = check("commander-situation-cost", "card", E, "L102",
                       "a situation card costs resources, action chips or a D6 roll")
TACTICAL_MOMENT = check("commander-tactical-moment", "card", E, "L98",
                        "a tactical card's text says when it may be played")
CREW_SIZE_MISSING = check("commander-crew-size-missing", "card", E, "L86, L257",
                          "a crew quality goes with a crew size (boarding adds or subtracts "
                          "by quality from the size)")
CRITICAL_NOT_SHIP = check("commander-critical-damage-not-ship", "card", E,
                          "L189, L197, L205, L213",
                          "critical damage sends ships to the losses; buildings shed their "
                          "damage after a battle and stations 5 a turn, so their hull is "
                          "written X alone")
FIELD_UNUSED = check("commander-field-unused", "card", E, "L209, L213, L257, L265",
                     "a card carries no field its kind never uses: a landing party (десант) "
                     "only on ships, a crew only on ships and stations (only they are boarded)")
SITUATION_CHOICE = check("commander-situation-cost-choice", "card", W, "L102",
                         "a situation card names one way to pay (resources, chips or D6)")

__all__ = ["check_cards"]

#: an amount of resources or action chips written in words, per source language (L132: card
#: texts show them as symbols); production and damage chips have no symbol and are left alone
AMOUNT_WORDS = {
    "ru": re.compile(r"\b\d+\s+(?:ресурс\w*|фиш\w*\s+действи\w*)", re.IGNORECASE),
    "en": re.compile(r"\b\d+\s+(?:resources?\b|action[\s-]+chips?\b)", re.IGNORECASE),
}


#: the rule line of each field written in letter codes, for wrong-script findings
FIELD_LINES = {"size": "L86", "crew": "L86", "shield": "L227", "mazer": "L231",
               "rocket_range": "L241", "d6": "L56"}


def _report(card: CommanderCard, key: str, problem: notation.Problem | None,
            kind: Check) -> Iterator[Finding]:
    if problem is None:
        return
    if problem.script:
        yield WRONG_SCRIPT(problem.message, card.source.of(key), card.id,
                           FIELD_LINES.get(key, "L56"))
    else:
        yield kind(problem.message, card.source.of(key), card.id)


def _letter(card: CommanderCard, key: str, value: str | None, allowed: tuple[str, ...],
            what: str, kind: Check) -> Iterator[Finding]:
    if value is not None:
        yield from _report(card, key, notation.letter_code(value, allowed, what), kind)


def _hull(card: CommanderCard, combat: Combat) -> Iterator[Finding]:
    if combat.hull is None:
        return
    parsed = notation.hull(combat.hull)
    where = card.source.of("hull")
    if isinstance(parsed, notation.Problem):
        yield HULL(parsed.message, where, card.id)
        return
    if parsed.critical is None:
        if isinstance(card, Ship):
            yield HULL(f"hull {combat.hull!r}: a ship's hull is written with its critical "
                       f"damage, e.g. \"{parsed.strength}({max(parsed.strength // 2, 1)})\"",
                       where, card.id)
        return
    if not isinstance(card, Ship):
        what = "station" if isinstance(card, SpaceObject) else card.kind.replace("_", " ")
        why = ("its damage chips stay and 5 come off each production phase (L213)"
               if isinstance(card, SpaceObject) else
               "its damage chips come off after every battle, however many (L197, L205)")
        yield CRITICAL_NOT_SHIP(f"hull {combat.hull!r}: critical damage sends a ship to the "
                                f"losses after a battle, never a {what}: {why}; write the "
                                f"strength alone, \"{parsed.strength}\"", where, card.id)
        return
    if parsed.critical < 1:
        yield CRITICAL(f"hull {combat.hull!r}: critical damage 0 sends the card to the losses "
                       "after every battle, even undamaged; it is at least 1", where, card.id)
    elif parsed.critical >= parsed.strength:
        yield CRITICAL(f"hull {combat.hull!r}: critical damage {parsed.critical} is not below "
                       f"strength {parsed.strength}", where, card.id)


def _energy(card: CommanderCard, combat: Combat) -> Iterator[Finding]:
    shield = None
    if combat.shield is not None:
        parsed = notation.energy(combat.shield, "shield")
        if isinstance(parsed, notation.Problem):
            yield from _report(card, "shield", parsed, ENERGY)
        else:
            shield = parsed
    mazer = combat.weapons.mazer
    if mazer is None:
        return
    where = card.source.of("mazer")
    if combat.shield is None:
        yield MAZER_SHIELD(f"mazer {mazer!r} on a card without an energy shield: a mazer fires "
                           "the energy type of its own shield generator", where, card.id)
    if mazer.strip().isdigit():
        return
    typed = notation.energy(mazer, "mazer")
    if isinstance(typed, notation.Problem):
        yield from _report(card, "mazer", typed, ENERGY)
    elif shield is not None and typed.type != shield.type:
        yield MAZER_TYPE(f"mazer {mazer!r} is of type {typed.type} but the shield "
                         f"{combat.shield!r} is of type {shield.type}", where, card.id)


def _weapons(card: CommanderCard, combat: Combat) -> Iterator[Finding]:
    weapons = combat.weapons
    for key, value, what in (("rockets", weapons.rockets, "rockets"),
                             ("torpedoes", weapons.torpedoes, "torpedoes")):
        if value is not None:
            parsed = notation.salvo(value, what)
            if isinstance(parsed, notation.Problem):
                yield SALVO(parsed.message, card.source.of(key), card.id)
    if weapons.lasers is not None:
        parsed = notation.lasers(weapons.lasers)
        if isinstance(parsed, notation.Problem):
            yield LASERS(parsed.message, card.source.of("lasers"), card.id)
    yield from _letter(card, "rocket_range", weapons.rocket_range, RANGES, "rocket_range",
                       ROCKET_RANGE)
    if weapons.rockets is not None and weapons.rocket_range is None:
        yield ROCKET_RANGE(f"rockets {weapons.rockets!r} without a rocket_range (Д long, С "
                           "medium, М short): the range decides when they fire and their "
                           "chance to hit", card.source.of("rockets"), card.id)
    if weapons.rocket_range is not None and weapons.rockets is None:
        yield ROCKET_RANGE("rocket_range is set but the card has no rockets",
                           card.source.of("rocket_range"), card.id)


def _unused(card: CommanderCard, combat: Combat) -> Iterator[Finding]:
    """Fields the card's kind never uses: a landing party lands from a ship in orbit (L265),
    and a crew only counts when the card is boarded, which only ships and stations are (L213,
    L257; a planet is captured, L209)."""
    if combat.weapons.landing is not None and not isinstance(card, Ship):
        yield FIELD_UNUSED(f"landing {combat.weapons.landing} on a "
                           f"{card.kind.replace('_', ' ')}: only ships land a party, from "
                           "orbit at the end of a battle", card.source.of("landing"), card.id,
                           rule="L265")
    if isinstance(card, SpaceObject) and not card.is_station:
        for key, value in (("crew", combat.crew), ("crew_size", combat.crew_size)):
            if value is not None:
                yield FIELD_UNUSED(f"{key} {value} on a {card.object_type}: only ships and "
                                   "stations are boarded, where a crew counts; a planet or "
                                   "asteroid is captured", card.source.of(key), card.id,
                                   rule="L209, L213, L257")


def _combat(card: CommanderCard, combat: Combat) -> Iterator[Finding]:
    yield from _unused(card, combat)
    yield from _hull(card, combat)
    yield from _energy(card, combat)
    yield from _weapons(card, combat)
    yield from _letter(card, "crew", combat.crew, CREW_QUALITIES, "crew", CREW_QUALITY)
    if combat.crew is None and combat.crew_size:
        yield CREW_MISSING(f"crew_size {combat.crew_size} without a crew quality (Н "
                           "inexperienced, В veterans, Э elite); boarding needs it",
                           card.source.of("crew_size"), card.id)
    if combat.crew is not None and combat.crew_size is None:
        yield CREW_SIZE_MISSING(f"crew quality {combat.crew!r} without a crew_size: a crew "
                                "has a quality and a size, and boarding adds the size "
                                "(elite +2, inexperienced -2)", card.source.of("crew"), card.id)
    elif combat.crew is not None and not combat.crew_size:
        yield CREW_NO_SIZE(f"crew quality {combat.crew!r} on a card with crew size "
                           f"{combat.crew_size or 0}: no crew, so no quality (and it cannot be "
                           "boarded)", card.source.of("crew"), card.id)
    if not isinstance(card, Ship) and combat.speed not in (None, 0):
        yield SPEED(f"speed {combat.speed}: a {card.kind.replace('_', ' ')} does not move and "
                    "fights with speed 0", card.source.of("speed"), card.id)


def _ship(ship: Ship) -> Iterator[Finding]:
    yield from _letter(ship, "size", ship.size, SIZES, "size", SIZE)
    if "smuggling_run" in ship.properties and "commercial_run" not in ship.properties:
        yield PROPERTY_REQUIRES("properties has smuggling_run without commercial_run: only a "
                                "ship able to make commercial runs makes a smuggling one",
                                ship.source.of("properties"), ship.id)
    if "commercial_run" in ship.properties and not any(
            icon in ship.text for icon in ("{resource}", "{action-chip}")):
        yield RUN_YIELD("commercial_run, but the text names no {resource} or {action-chip} "
                        "that a run brings: the rules leave the yield to the ship's properties",
                        ship.source.of("text") if ship.text else ship.source.of("properties"),
                        ship.id)
    if ship.proper_name_line and ship.size not in NAMED_SIZES:
        yield PROPER_NAME(f"proper_name_line on a {ship.size} ship; only medium (СК) and heavy "
                          "(ТК) ships carry it", ship.source.of("proper_name_line"), ship.id)
    if ship.proper_name_line is False and ship.size in NAMED_SIZES:
        yield PROPER_NAME_MISSING(f"proper_name_line: false on a {ship.size} ship, which the "
                                  "rules give a proper-name line",
                                  ship.source.of("proper_name_line"), ship.id)


def _space_object(item: SpaceObject) -> Iterator[Finding]:
    if item.is_station and item.combat.hull is None:
        yield STATION_HULL("a station without a hull: it fights by the rules of a ship and can "
                           "be destroyed", item.source.of("object_type"), item.id)
    if not item.is_station and item.combat.hull is not None:
        yield OBJECT_HULL(f"a {item.object_type} with a hull: only stations are destroyed by "
                          "damage; other objects change hands", item.source.of("hull"), item.id)
    if item.proper_name_line is False:
        yield PROPER_NAME_MISSING("proper_name_line: false on a space object, which the rules "
                                  "give a proper-name line", item.source.of("proper_name_line"),
                                  item.id)


def _d6_field(card: CommanderCard, value: str | None) -> Iterator[Finding]:
    if value is not None:
        parsed = notation.d6(value)
        if isinstance(parsed, notation.Problem):
            yield from _report(card, "d6", parsed, D6)


#: kinds brought into play by production (resources spent, L133) and the line that says so
PRODUCED = {"ship": "L86, L133", "space_object": "L90, L133", "ground_unit": "L94, L133",
            "military_building": "L94, L133", "civil_building": "L94, L133",
            "upgrade": "L106, L133"}


def _zero_costs(card: CommanderCard) -> Iterator[Finding]:
    """A cost field that is present but costs nothing: presence is not a price."""
    if card.kind in PRODUCED and getattr(card, "cost", 1) == 0:
        yield COST_ZERO("cost 0: a card built in the production phase is paid for in resources "
                        "(at least one production chip goes on it, L138); the lowest cost is 1",
                        card.source.of("cost"), card.id, rule=PRODUCED[card.kind] + ", L138")
    line = "L98" if isinstance(card, Tactical) else "L102"
    for name in ("chips", "resources"):
        if isinstance(card, Tactical | Situation) and getattr(card, name, None) == 0:
            yield COST_ZERO(f"{name}: 0 is no cost; give an amount of at least 1, or leave "
                            "the field out and let the card cost its other price",
                            card.source.of(name), card.id, rule=line)


def _payment(card: CommanderCard) -> Iterator[Finding]:
    yield from _zero_costs(card)
    if isinstance(card, Tactical):
        yield from _d6_field(card, card.d6)
        if card.chips is None and card.d6 is None:
            yield TACTICAL_COST("a tactical card needs an action-chip cost (chips, printed in "
                                "the upper-left corner) and/or a die roll (d6: \"D6 N+\")",
                                card.source.location, card.id)
    elif isinstance(card, Situation):
        yield from _d6_field(card, card.d6)
        ways = [name for name in ("resources", "chips", "d6") if getattr(card, name) is not None]
        if not ways:
            yield SITUATION_COST("a situation card needs a cost: resources, chips or d6",
                                 card.source.location, card.id)
        elif len(ways) > 1:
            yield SITUATION_CHOICE(f"the card sets {' and '.join(ways)}; the rules name one "
                                   "way to pay for a situation card", card.source.of(ways[1]),
                                   card.id)


def _texts(card: CommanderCard) -> Iterator[Finding]:
    """Die rolls quoted in card texts follow the same notation as the d6 fields."""
    for attribute, text in card.text_fields().items():
        key = card.yaml_key(attribute)
        for match in notation.D6_IN_TEXT.finditer(text):
            parsed = notation.d6_in_text(match.group(0))
            if isinstance(parsed, notation.Problem):
                yield from _report(card, key, notation.Problem(
                    f"{key} quotes {parsed.message}", parsed.script), D6)


def _same_words(text: str) -> str:
    """A variant as a reader compares it: case, spacing, ё/е and end punctuation aside."""
    return " ".join(text.casefold().replace("ё", "е").split()).rstrip(".!;")


def _ability(card: Ability) -> Iterator[Finding]:
    written = [v for v in card.variants if v.strip()]
    where = card.source.of("variants")
    if len(card.variants) != 2 or len(written) != 2:
        blank = len(card.variants) - len(written)
        why = f", {blank} of them blank" if blank else ""
        yield VARIANTS(f"{len(card.variants)} variant(s){why}; an ability card offers exactly "
                       "two, of which the player names one when playing it", where, card.id)
    elif _same_words(written[0]) == _same_words(written[1]):
        yield VARIANTS_SAME("the two variants say the same thing; the player's choice between "
                            "them would be no choice", where, card.id)


#: kinds whose text the rules rely on, the line that says what it holds, and what it holds
NEEDS_TEXT = {"tactical": ("L98", "when the card is played and what it does"),
              "upgrade": ("L106", "the properties the upgraded card gains")}


#: words that say when a tactical card is played (L98), per source language
MOMENT_WORDS = {
    "ru": re.compile(r"(?<!\w)(?:когда|если|перед|после|пока|в\s+начал|в\s+конц|во\s+время|"
                     r"в\s+течени|в\s+(?:\w+\s+)?фаз|в\s+(?:\w+\s+)?раунд|в\s+(?:\w+\s+)?ход|"
                     r"в\s+любой\s+момент|в\s+любое\s+время|в\s+ответ|до\s+(?:начала|броска|"
                     r"проверки))", re.IGNORECASE),
    "en": re.compile(r"(?<!\w)(?:when|whenever|if|before|after|while|during|at\s+the\s+"
                     r"(?:start|beginning|end)|at\s+any\s+time|in\s+response|in\s+(?:\w+\s+)"
                     r"{0,2}(?:phase|round|turn))(?!\w)", re.IGNORECASE),
}


def _required_text(card: CommanderCard, language: str) -> Iterator[Finding]:
    moment = MOMENT_WORDS.get(language)
    if (isinstance(card, Tactical) and card.text.strip() and moment is not None
            and moment.search(card.text) is None):
        yield TACTICAL_MOMENT("the text does not say when the card may be played (a phase, "
                              "a round, 'when ...', 'at any time'); the rules leave that to "
                              "the card's text", card.source.of("text"), card.id)
    if card.kind in NEEDS_TEXT and not card.text.strip():
        line, holds = NEEDS_TEXT[card.kind]
        yield TEXT_MISSING(f"the text of this {card.kind} card is blank; it says {holds}",
                           card.source.of("text"), card.id, rule=line)
    if isinstance(card, Commander) and not card.text.strip() and not card.victory.strip():
        yield TEXT_MISSING("a commander card with neither abilities (text) nor a victory "
                           "condition: every commander has abilities of its own",
                           card.source.of("text"), card.id, rule="L21, L110")


def _amounts_in_words(card: CommanderCard, language: str) -> Iterator[Finding]:
    pattern = AMOUNT_WORDS.get(language)
    if pattern is None:
        return
    for attribute, text in card.text_fields().items():
        match = pattern.search(text)
        if match:
            yield AMOUNT_IN_WORDS(f"{card.yaml_key(attribute)} writes '{match.group(0)}' in "
                                  "words; print the amount with its icon, e.g. '2 {resource}' "
                                  "or '1 {action-chip}'", card.source.of(card.yaml_key(attribute)),
                                  card.id)


def _card(card: CommanderCard, language: str) -> Iterator[Finding]:
    if isinstance(card, ARMED):
        yield from _combat(card, card.combat)
    if isinstance(card, Ship):
        yield from _ship(card)
    elif isinstance(card, SpaceObject):
        yield from _space_object(card)
    elif isinstance(card, Ability):
        yield from _ability(card)
    yield from _payment(card)
    yield from _required_text(card, language)
    yield from _texts(card)
    yield from _amounts_in_words(card, language)


def check_cards(card_set: CardSet) -> list[Finding]:
    findings: list[Finding] = []
    for pack in card_set.packs:
        language = pack.manifest.source_locale
        for card in pack.cards:
            if isinstance(card, CommanderCard):
                findings.extend(_card(card, language))
    return findings
