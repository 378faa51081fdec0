"""Every Путь Командора check, declared once: its stable code, level, severity and the lines of
the seed rules (002) it enforces.

Declaring checks as data lets docs/rules-commander.md and the tests hold the same list of codes,
and ends every message with the rule lines it comes from ("(rules L45)"), so that a designer can
look the rule up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.findings import Finding, Severity, error, warning
from generator.location import Location

Level = Literal["card", "release", "deck"]
PREFIX = "commander-"


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    level: Level
    severity: Severity
    lines: str  # seed lines, e.g. "L45" or "L227, L231"
    summary: str  # one line for humans: what the check requires

    def __call__(self, message: str, location: Location, card: str | None = None,
                 lines: str | None = None) -> Finding:
        """A finding of this check; ``lines`` narrows the check's own line list to the rule
        that applies to this finding."""
        make = error if self.severity is Severity.ERROR else warning
        return make(self.code, f"{message} (rules {lines or self.lines})", location, card)


CHECKS: dict[str, Check] = {}

E, W = Severity.ERROR, Severity.WARNING


def check(code: str, level: Level, severity: Severity, lines: str, summary: str) -> Check:
    """Declare a check; codes are unique and carry the game prefix."""
    assert code.startswith(PREFIX) and code not in CHECKS, code
    CHECKS[code] = Check(code, level, severity, lines, summary)
    return CHECKS[code]
