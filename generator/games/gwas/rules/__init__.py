"""Great War at Sea legality checks (seeds 003 and 004), each with a stable ``gwas-`` code.

- card (``cards``): a card's values agree with the seeds on their own;
- set and cross (``composition``): fleet counters, leaders' flagships, names;
- reference (``references``): what reference cards print, against the engine's tables;
- option (``options``): the pack's game options, e.g. the disputed speed 1+.

``registry.CHECKS`` lists them all; docs/rules-gwas.md maps every seed rule to its code.
"""

from __future__ import annotations

from generator.games.gwas.rules.cards import check_cards
from generator.games.gwas.rules.composition import check_composition
from generator.games.gwas.rules.references import check_references
from generator.games.gwas.rules.registry import CHECKS, Check

RULES = (check_cards, check_composition, check_references)

__all__ = ["CHECKS", "RULES", "Check", "check_cards", "check_composition", "check_references"]
