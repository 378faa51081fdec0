"""Deck rules of a player's deck file (``pnp validate PACK --deck decks/x.yaml``).

A deck file lists ``cards:`` with counts, names the ``commander:`` who leads it (played outside the
deck, L110) and may list ``preselected_abilities:``, the ability cards a player takes from the deck
before the game to play at setup (L114).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.commander.model import OUTSIDE_DECK, Ability, Commander
from generator.games.commander.rules.registry import E, W, check
from generator.games.commander.rules.release import name_key
from generator.model.cards import Card, CardSet
from generator.model.deck import Deck, DeckEntry

MIN_DECK, MAX_DECK = 40, 100
MAX_COPIES = 4
MAX_ABILITIES = 3

SIZE = check("commander-deck-size", "deck", E, "L45", "a deck holds 40 to 100 cards")
COPIES = check("commander-deck-copies", "deck", E, "L45, L323",
               "at most 4 cards of one name in a deck (the proper-name line does not count)")
COMMANDER_INSIDE = check("commander-deck-commander-inside", "deck", E, "L62, L110",
                         "the commander card is never part of the deck")
NO_COMMANDER = check("commander-deck-no-commander", "deck", W, "L21, L110",
                     "a deck file names the commander who leads it")
NOT_COMMANDER = check("commander-deck-not-a-commander", "deck", E, "L110",
                      "the deck's commander is a commander card of a loaded pack")
PRESELECT_SPECIAL = check("commander-preselect-special", "deck", E, "L114",
                          "special ability cards are never chosen before the game")
PRESELECT_MANY = check("commander-preselect-too-many", "deck", E, "L114",
                       "at most 3 ability cards on a commander, so at most 3 preselected")
PRESELECT_KIND = check("commander-preselect-not-ability", "deck", E, "L114",
                       "only ability cards are preselected")
PRESELECT_MISSING = check("commander-preselect-not-in-deck", "deck", E, "L62, L114",
                          "preselected ability cards are taken out of the deck, so the deck "
                          "holds them")

__all__ = ["check_deck"]


def _describe(card: Card | None) -> str:
    return "no loaded card" if card is None else f"a {card.kind.replace('_', ' ')} card"


def _in_deck(deck: Deck) -> list[DeckEntry]:
    return [e for e in deck.entries if e.card.kind not in OUTSIDE_DECK]


def _size(deck: Deck) -> Iterator[Finding]:
    total = sum(e.count for e in _in_deck(deck))
    if not MIN_DECK <= total <= MAX_DECK:
        yield SIZE(f"the deck holds {total} cards; a deck holds {MIN_DECK} to {MAX_DECK}",
                   deck.where("cards"))


def _copies(deck: Deck) -> Iterator[Finding]:
    by_name: dict[str, list[DeckEntry]] = defaultdict(list)
    for entry in _in_deck(deck):
        by_name[name_key(entry.card.name)].append(entry)
    for entries in by_name.values():
        total = sum(e.count for e in entries)
        if total > MAX_COPIES:
            ids = sorted({e.card.id for e in entries})
            which = f"card '{ids[0]}'" if len(ids) == 1 else f"cards {', '.join(ids)}"
            last = entries[-1]
            yield COPIES(f"{total} cards named '{last.card.name}' ({which}); at most "
                         f"{MAX_COPIES} of one name", last.location, last.card.id)


def _commander(deck: Deck, by_id: dict[str, Card]) -> Iterator[Finding]:
    for entry in deck.entries:
        if isinstance(entry.card, Commander):
            yield COMMANDER_INSIDE(f"commander card '{entry.card.id}' is listed among the deck's "
                                   "cards; name it as 'commander:' instead, it starts the game "
                                   "on the table", entry.location, entry.card.id)
    chosen = deck.data.get("commander")
    if chosen is None:
        yield NO_COMMANDER("the deck names no commander: add 'commander: <card id>'",
                           deck.where())
        return
    card = by_id.get(str(chosen))
    if not isinstance(card, Commander):
        yield NOT_COMMANDER(f"commander '{chosen}' is {_describe(card)}, not a commander card",
                            deck.where("commander"), str(chosen))


def _preselected(deck: Deck, by_id: dict[str, Card]) -> Iterator[Finding]:
    chosen = [str(c) for c in deck.data.get("preselected_abilities") or ()]
    if len(chosen) > MAX_ABILITIES:
        yield PRESELECT_MANY(f"{len(chosen)} preselected ability cards; a commander carries at "
                             f"most {MAX_ABILITIES}", deck.where("preselected_abilities"))
    in_deck: dict[str, int] = defaultdict(int)
    for entry in deck.entries:
        in_deck[entry.card.id] += entry.count
    taken: dict[str, int] = defaultdict(int)
    for index, card_id in enumerate(chosen):
        where = deck.where("preselected_abilities", index)
        card = by_id.get(card_id)
        if not isinstance(card, Ability):
            yield PRESELECT_KIND(f"preselected '{card_id}' is {_describe(card)}, not an ability "
                                 "card", where, card_id)
            continue
        if card.special:
            yield PRESELECT_SPECIAL(f"'{card_id}' is a special ability card: it may be played "
                                    "only during the game, never chosen before it", where,
                                    card_id)
        taken[card_id] += 1
        if taken[card_id] > in_deck[card_id]:
            held = in_deck[card_id]
            yield PRESELECT_MISSING(f"'{card_id}' is preselected {taken[card_id]} time(s) but "
                                    f"the deck holds {held} cop{'y' if held == 1 else 'ies'}",
                                    where, card_id)


def check_deck(deck: Deck, card_set: CardSet) -> list[Finding]:
    by_id = {card.id: card for card in card_set.cards}
    return [*_size(deck), *_copies(deck), *_commander(deck, by_id),
            *_preselected(deck, by_id)]
