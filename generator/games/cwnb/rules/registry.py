"""The CWNB rulebook: every check cites the section of the rules of play (seed 001) it enforces,
e.g. "(rule 7.11)" or "(Definitions: 16" Gun)"."""

from __future__ import annotations

from generator.rules.rulebook import Check, E, Rulebook, W

__all__ = ["CHECKS", "Check", "E", "W", "check", "reference"]


def reference(rule: str) -> str:
    """"7.11" -> "rule 7.11", "5.23, 5.24" -> "rules 5.23, 5.24"; named sections stay as is."""
    if rule[:1].isdigit():
        plural = "s" if ("," in rule or "-" in rule) else ""
        return f"rule{plural} {rule}"
    return rule


RULEBOOK = Rulebook("cwnb-", reference)
CHECKS = RULEBOOK.checks
check = RULEBOOK.check
