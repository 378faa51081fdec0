"""CWNB legality checks (seed 001) at three levels, each check with a stable code and its rule.

- card (``cards``): a card's fields agree with the rules, alone; (``texts``) what its text
  says where it names an answer, an icon, a number or a rule;
- set (``composition``): the deck can be dealt and played (counts, player order, tournament);
- cross (``cross``): cards against the engine's play rules (platforms, users, defenses, summary).

Every check is a pure function of the card set; ``registry.CHECKS`` lists them all, and
docs/rules-cwnb.md maps each rule of the seed to its code.
"""

from __future__ import annotations

from generator.games.cwnb.rules.cards import check_cards
from generator.games.cwnb.rules.composition import check_composition
from generator.games.cwnb.rules.cross import check_cross
from generator.games.cwnb.rules.registry import CHECKS, Check
from generator.games.cwnb.rules.texts import check_texts

RULES = (check_cards, check_texts, check_composition, check_cross)

__all__ = ["CHECKS", "RULES", "Check", "check_cards", "check_composition", "check_cross",
           "check_texts"]
