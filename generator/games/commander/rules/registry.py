"""The Путь Командора rulebook: every check cites the lines of the seed rules (002) it
enforces, e.g. "(rules L45)" or "(rules L227, L231)"."""

from __future__ import annotations

from generator.rules.rulebook import Check, E, Rulebook, W

__all__ = ["CHECKS", "Check", "E", "W", "check"]

RULEBOOK = Rulebook("commander-", lambda lines: f"rules {lines}")
CHECKS = RULEBOOK.checks
check = RULEBOOK.check
