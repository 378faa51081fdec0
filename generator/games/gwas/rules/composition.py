"""Set-level and cross checks: fleet counters per side, leaders and their flagships, ship
names, and the pack's game options."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.gwas.model import FleetCounter, Leader, Ship, name_key
from generator.games.gwas.rules.options import check_options
from generator.games.gwas.rules.registry import E, W, check
from generator.model.cards import CardSet

COUNTER_NUMBER = check("gwas-counter-number", "set", E, "003:194, 003:240",
                       "fleet counter numbers are unique on each side (orders name fleets by "
                       "number)")
NO_COUNTERS = check("gwas-side-without-counters", "set", E, "003:194, 003:232, 003:276",
                    "a side with ship cards has fleet counters: only fleet counters go on the "
                    "operational map, and a side has no more fleets than counters")
FLAGSHIP = check("gwas-leader-flagship", "cross", E, "004:59",
                 "a leader's flagship is a ship card of the set")
FLAGSHIP_SIDE = check("gwas-leader-side", "cross", E, "004:59",
                      "a leader's flagship belongs to the leader's side")
FLAGSHIP_AMBIGUOUS = check("gwas-leader-flagship-ambiguous", "cross", E, "004:59",
                           "a leader's flagship names one ship of his side, not several (a "
                           "name reused across a base pack and an expansion included)")
SHIP_NAME = check("gwas-duplicate-name", "set", W, "004:59",
                  "each ship name is on one card only (leaders name their flagship)")


def _counters(card_set: CardSet) -> Iterator[Finding]:
    first: dict[tuple[str, int], FleetCounter] = {}
    sides_with_ships: dict[str, Ship] = {}
    sides_with_counters: set[str] = set()
    for card in card_set.cards:
        if isinstance(card, FleetCounter):
            sides_with_counters.add(card.side)
            key = (card.side, card.number)
            if key in first or card.count > 1:
                other = first.get(key, card)
                yield COUNTER_NUMBER(f"fleet number {card.number} of side {card.side} is "
                                     f"printed more than once (card '{other.id}'"
                                     f"{', count ' + str(card.count) if card.count > 1 else ''})",
                                     card.source.of("number"), card.id)
            first.setdefault(key, card)
        elif isinstance(card, Ship):
            # submarines and MTBs hold patrol zones and airships fly alone (004:3, 004:77,
            # 004:109): only ships move in fleets
            sides_with_ships.setdefault(card.side, card)
    for side, ship in sides_with_ships.items():
        if side not in sides_with_counters:
            yield NO_COUNTERS(f"side {side} has ship cards (first: '{ship.id}') but no fleet "
                              "counters: its ships cannot go on the operational map",
                              card_set.base.manifest.location)


def _leaders(card_set: CardSet) -> Iterator[Finding]:
    ships: dict[str, list[Ship]] = defaultdict(list)
    for card in card_set.cards:
        if isinstance(card, Ship):
            ships[name_key(card.name)].append(card)
    for card in card_set.cards:
        if not isinstance(card, Leader):
            continue
        where = card.source.of("flagship")
        named = ships.get(name_key(card.flagship), [])
        own = [ship for ship in named if ship.side == card.side]
        if not named:
            yield FLAGSHIP(f"flagship '{card.flagship}' is not the name of any ship card",
                           where, card.id)
        elif not own:
            yield FLAGSHIP_SIDE(f"flagship '{card.flagship}' is a ship of side {named[0].side}; "
                                f"leader '{card.id}' ({card.nation}) is of side {card.side}",
                                where, card.id)
        elif len({ship.content() for ship in own}) > 1:  # a reprint is the same ship
            cards = ", ".join(f"'{ship.id}' ({ship.source.location})" for ship in own)
            yield FLAGSHIP_AMBIGUOUS(f"flagship '{card.flagship}' names {len(own)} ship cards "
                                     f"of side {card.side}: {cards}; a leader sits on one ship",
                                     where, card.id)


def _names(card_set: CardSet) -> Iterator[Finding]:
    """Across a base pack and its expansions, names compared accent-blind (the generic check
    compares them case-blind only, so this finding replaces it); a reprint of the same ship in
    another pack is the same ship, not a second one."""
    first: dict[str, Ship] = {}
    for card in card_set.cards:
        if not isinstance(card, Ship):
            continue
        key = name_key(card.name)
        other = first.setdefault(key, card)
        reprint = other.pack != card.pack and other.content() == card.content()
        if other is not card and not reprint:
            where = "" if other.pack == card.pack else f" of pack '{other.pack}'"
            yield SHIP_NAME(f"'{card.name}' is already the name of card '{other.id}'{where}",
                            card.source.of("name"), card.id)


def check_composition(card_set: CardSet) -> list[Finding]:
    findings: list[Finding] = []
    for pack in card_set.packs:
        findings += check_options(pack)
    return [*findings, *_counters(card_set), *_leaders(card_set), *_names(card_set)]
