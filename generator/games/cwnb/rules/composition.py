"""Set-level checks: what the deck as a whole must hold to be dealt and played (2, 5.1, 6, 14.1).

The component counts of rule 2 describe the base game alone; once expansions are loaded the deck
is bigger by design, and only what the rules need for play (a deal for six, one player order card
per value, a tournament deal) is checked on the combined deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.cwnb.rules.deck import Deck, copies, is_deck
from generator.games.cwnb.rules.registry import E, W, check
from generator.model.cards import CardSet

#: Rule 2: the base game's components.
BASE_COUNTS = {"action": 114, "player_order": 9, "ship": 55}
#: Rule 5.1 and the introduction: two to six players, seven ships and seven action cards each.
MAX_PLAYERS, HAND = 6, 7
#: Rule 6 with 2.1: the player order cards are numbered 1 through 9.
ORDER_VALUES = range(1, 10)
#: Rule 14.1: per player one submarine, two ships of 9+ points and four other ships.
TOURNAMENT_SUBS, TOURNAMENT_BIG, TOURNAMENT_OTHER, TOURNAMENT_BIG_POINTS = 1, 2, 4, 9

COMPONENT_COUNT = check("cwnb-component-count", "set", E, "2",
                        "the base game alone: 114 action, 9 player order and 55 ship cards")
ORDER_REPEATED = check("cwnb-player-order-repeated", "set", E, "6, 2.1",
                       "each player order value is printed once")
ORDER_MISSING = check("cwnb-player-order-missing", "set", E, "6, 2.1",
                      "player order values 1 through 9 are all present")
DEAL = check("cwnb-deal-too-small", "set", E, "5.1",
             "enough ship and action cards to deal seven of each to six players")
TOURNAMENT = check("cwnb-tournament-deal", "set", W, "14.1",
                   "the tournament deal works for six players")
SHIP_NAME = check("cwnb-duplicate-ship-name", "set", W, "sanity check, no rule",
                  "each named ship appears on one card only")


def _component_counts(card_set: CardSet, deck: Deck) -> Iterator[Finding]:
    if card_set.expansions:
        return
    found = {"action": copies(deck.actions), "player_order": copies(deck.orders),
             "ship": copies(deck.ships)}
    for kind, expected in BASE_COUNTS.items():
        if found[kind] != expected:
            yield COMPONENT_COUNT(f"the base game has {found[kind]} {kind} cards, not {expected}; "
                                  "add cards in an expansion pack (--with) instead",
                                  card_set.base.manifest.location)


def _player_orders(card_set: CardSet, deck: Deck) -> Iterator[Finding]:
    seen: set[int] = set()
    for card in deck.orders:
        if card.order in seen or card.count > 1:
            field = "order" if card.order in seen else "count"
            yield ORDER_REPEATED(f"player order {card.order} is printed more than once; every "
                                 "order card shows a different number", card.source.of(field),
                                 card.id)
        seen.add(card.order)
    missing = [n for n in ORDER_VALUES if n not in seen]
    if missing:
        yield ORDER_MISSING(f"no player order card with value(s) "
                            f"{', '.join(map(str, missing))}", card_set.base.manifest.location)


def _deal(card_set: CardSet, deck: Deck) -> Iterator[Finding]:
    need = MAX_PLAYERS * HAND
    for label, count in (("ship", copies(deck.ships)), ("action", copies(deck.actions))):
        if count < need:
            yield DEAL(f"{count} {label} cards deal seven to at most {count // HAND} player(s); "
                       f"six players need {need}", card_set.base.manifest.location)


def _tournament(card_set: CardSet, deck: Deck) -> Iterator[Finding]:
    subs = copies(deck.submarines)
    big = copies(s for s in deck.surface if s.points >= TOURNAMENT_BIG_POINTS)
    other = copies(deck.surface) - big
    players = min(subs // TOURNAMENT_SUBS, big // TOURNAMENT_BIG, other // TOURNAMENT_OTHER)
    if players < MAX_PLAYERS:
        yield TOURNAMENT(f"the tournament deal fits {players} player(s), not six: {subs} "
                         f"submarines (6 needed), {big} surface ships of "
                         f"{TOURNAMENT_BIG_POINTS}+ points (12 needed), {other} other ships "
                         "(24 needed)", card_set.base.manifest.location)


def _ship_names(deck: Deck) -> Iterator[Finding]:
    """A named ship is one vessel: it is on one card, printed once, in the base and in every
    expansion (this refines the generic ``name-reused-across-packs`` for ships)."""
    first: dict[str, str] = {}
    for ship in deck.ships:
        key = " ".join(ship.name.casefold().split())
        if ship.count > 1:
            yield SHIP_NAME(f"'{ship.name}' is printed {ship.count} times", ship.source.of("count"),
                            ship.id)
        if key in first:
            yield SHIP_NAME(f"'{ship.name}' is already the ship of card '{first[key]}'",
                            ship.source.of("name"), ship.id)
        first.setdefault(key, ship.id)


def check_composition(card_set: CardSet) -> list[Finding]:
    """Deck composition of a base game, alone or with its expansions (skipped for fragments)."""
    if not is_deck(card_set):
        return []
    deck = Deck.of(card_set)
    return [*_component_counts(card_set, deck), *_player_orders(card_set, deck),
            *_deal(card_set, deck), *_tournament(card_set, deck), *_ship_names(deck)]
