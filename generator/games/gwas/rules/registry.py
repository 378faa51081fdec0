"""The Great War at Sea rulebook: every check cites the seed file and line it enforces
(seeds 003 and 004), e.g. "(seed 003_4678bd8159124b2d.txt:228)"."""

from __future__ import annotations

from generator.games.gwas.tables import cite
from generator.rules.rulebook import Check, E, Rulebook, W

__all__ = ["CHECKS", "Check", "E", "W", "check"]

RULEBOOK = Rulebook("gwas-", cite)
CHECKS = RULEBOOK.checks
check = RULEBOOK.check
