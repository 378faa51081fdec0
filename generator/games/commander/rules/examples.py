"""Cards held to the rules' worked example (L277-L279): a ship the example names (the cruiser
"Экзорцист", the assault ship "Магнум-К", the battleship "Химера") is of the example's type
and costs what the example says it costs.

The example is the only place the rules give a named card values; a card of that name in a pack
is that ship, as a card naming another counts every card whose full name holds the name (L309).
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.commander.model import Ship
from generator.games.commander.rules.registry import E, check
from generator.games.commander.tables import EXAMPLE_SHIPS
from generator.model.cards import CardSet
from generator.rules.textfacts import has_words, words_of

EXAMPLE_SHIP = check("commander-example-ship", "card", E, "L277, L279",
                     "a ship of the worked example keeps its type and cost: cruiser Экзорцист "
                     "5, assault ship Магнум-К 2, battleship Химера 10")

__all__ = ["check_examples"]

def _ship(ship: Ship) -> Iterator[Finding]:
    example = next((example for example in EXAMPLE_SHIPS
                    if any(has_words(ship.name, alias) for alias in example.names)), None)
    if example is None:
        return
    written = words_of(ship.type)
    if not any(kind in written for kind in example.types):
        yield EXAMPLE_SHIP(f"'{ship.name}' is the worked example's {example.types[0]} "
                           f"({example.types[1]}), not '{ship.type}'", ship.source.of("type"),
                           ship.id, rule="L277")
    if ship.cost != example.cost:
        yield EXAMPLE_SHIP(f"'{ship.name}' costs {ship.cost}; the worked example's "
                           f"{example.types[0]} costs {example.cost}", ship.source.of("cost"),
                           ship.id, rule="L279")


def check_examples(card_set: CardSet) -> list[Finding]:
    return [finding for card in card_set.cards if isinstance(card, Ship)
            for finding in _ship(card)]
