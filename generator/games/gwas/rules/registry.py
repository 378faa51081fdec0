"""Every Great War at Sea check, declared once: stable code, level, severity and seed lines.

Checks are data so that the tests can hold docs/rules-gwas.md and the code to one list of codes,
and so that every message ends with the seed file and line it enforces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.findings import Finding, Severity, error, warning
from generator.games.gwas.tables import cite
from generator.location import Location

Level = Literal["card", "set", "cross", "option"]
E, W = Severity.ERROR, Severity.WARNING


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    level: Level
    severity: Severity
    seed: str  # e.g. "003:228" or "003:274, 003:333"
    summary: str  # one line for humans: what the check requires

    def __call__(self, message: str, location: Location, card: str | None = None,
                 severity: Severity | None = None) -> Finding:
        make = error if (severity or self.severity) is Severity.ERROR else warning
        return make(self.code, f"{message} ({cite(self.seed)})", location, card)


CHECKS: dict[str, Check] = {}


def check(code: str, level: Level, severity: Severity, seed: str, summary: str) -> Check:
    """Declare a check; codes are unique and carry the game prefix."""
    assert code.startswith("gwas-") and code not in CHECKS, code
    CHECKS[code] = Check(code, level, severity, seed, summary)
    return CHECKS[code]
