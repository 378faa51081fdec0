"""Путь Командора legality checks (seed 002), each with a stable ``commander-`` code and the
seed lines it enforces.

- card (``cards``): a card's fields agree with the rules and use their notations;
- commander (``commanders``): the rules' named commanders print their victory numbers;
- example (``examples``): the ships of the worked example print the example's values;
- release (``release``): serial numbers and card names across a pack;
- deck (``deck``): a player's deck file (size, copies per name, commander, preselected abilities).

``registry.CHECKS`` lists them all; docs/rules-commander.md maps the seed's rules to the codes.
"""

from __future__ import annotations

from generator.games.commander.rules.cards import check_cards
from generator.games.commander.rules.commanders import check_commanders
from generator.games.commander.rules.deck import check_deck
from generator.games.commander.rules.examples import check_examples
from generator.games.commander.rules.registry import CHECKS, Check
from generator.games.commander.rules.release import check_release

RULES = (check_cards, check_commanders, check_examples, check_release)
DECK_RULES = (check_deck,)

__all__ = ["CHECKS", "DECK_RULES", "RULES", "Check"]
