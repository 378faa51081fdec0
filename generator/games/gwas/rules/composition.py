"""Set-level and cross checks: fleet counters per side, leaders and their flagships, the
reference cards a pack prints, ship names, and the pack's game options."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from generator.findings import Finding
from generator.games.gwas.model import FleetCounter, Leader, Reference, Ship, Unit
from generator.games.gwas.rules.options import check_options
from generator.games.gwas.rules.registry import E, W, check
from generator.games.gwas.tables import PROCEDURES
from generator.model import CardSet

COUNTER_NUMBER = check("gwas-counter-number", "set", E, "003:194, 003:240",
                       "fleet counter numbers are unique on each side (orders name fleets by "
                       "number)")
NO_COUNTERS = check("gwas-side-without-counters", "set", W, "003:194, 003:276",
                    "a side with units has fleet counters (no more fleets than counters)")
FLAGSHIP = check("gwas-leader-flagship", "cross", E, "004:59",
                 "a leader's flagship is a ship card of the set")
FLAGSHIP_SIDE = check("gwas-leader-side", "cross", E, "004:59",
                      "a leader's flagship belongs to the leader's side")
REFERENCE = check("gwas-reference-missing", "set", W,
                  "003:228, 003:270, 003:284, 003:329, 004:21, 004:127",
                  "a base pack prints a reference card for every procedure the seeds give in "
                  "full (contact, pursuit, gunnery, submarine, MTB) and for the class table")
SHIP_NAME = check("gwas-duplicate-name", "set", W, "004:59",
                  "each ship name is on one card only (leaders name their flagship)")


def _counters(card_set: CardSet) -> Iterator[Finding]:
    first: dict[tuple[str, int], FleetCounter] = {}
    sides_with_units: dict[str, Unit] = {}
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
        elif isinstance(card, Unit) and not isinstance(card, Leader):
            sides_with_units.setdefault(card.side, card)
    for side, unit in sides_with_units.items():
        if side not in sides_with_counters:
            yield NO_COUNTERS(f"side {side} has units (first: '{unit.id}') but no fleet "
                              "counters to move them on the operational map",
                              card_set.base.manifest.location)


def _leaders(card_set: CardSet) -> Iterator[Finding]:
    ships: dict[str, list[Ship]] = defaultdict(list)
    for card in card_set.cards:
        if isinstance(card, Ship):
            ships[card.name.casefold()].append(card)
    for card in card_set.cards:
        if not isinstance(card, Leader):
            continue
        where = card.source.of("flagship")
        named = ships.get(card.flagship.casefold(), [])
        if not named:
            yield FLAGSHIP(f"flagship '{card.flagship}' is not the name of any ship card",
                           where, card.id)
        elif not any(ship.side == card.side for ship in named):
            yield FLAGSHIP_SIDE(f"flagship '{card.flagship}' is a ship of side {named[0].side}; "
                                f"leader '{card.id}' ({card.nation}) is of side {card.side}",
                                where, card.id)


def _references(card_set: CardSet) -> Iterator[Finding]:
    if card_set.base.manifest.extends is not None:
        return
    printed = {card.procedure for card in card_set.cards if isinstance(card, Reference)}
    missing = [name for name in PROCEDURES if name not in printed]
    if missing:
        yield REFERENCE(f"no reference card for: {', '.join(missing)}",
                        card_set.base.manifest.location)


def _names(card_set: CardSet) -> Iterator[Finding]:
    first: dict[str, Ship] = {}
    for card in card_set.cards:
        if not isinstance(card, Ship):
            continue
        key = " ".join(card.name.casefold().split())
        if key in first:
            yield SHIP_NAME(f"'{card.name}' is already the name of card '{first[key].id}'",
                            card.source.of("name"), card.id)
        first.setdefault(key, card)


def check_composition(card_set: CardSet) -> list[Finding]:
    findings: list[Finding] = []
    for pack in card_set.packs:
        findings += check_options(pack)
    return [*findings, *_counters(card_set), *_leaders(card_set), *_references(card_set),
            *_names(card_set)]
