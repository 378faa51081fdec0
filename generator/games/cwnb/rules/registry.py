"""Every CWNB check, declared once: its stable code, level, severity and the rule it enforces.

Declaring checks as data (rather than as bare strings inside functions) lets the tests hold the
rules table in docs/rules-cwnb.md and the code to the same list of codes, and makes every message
end with the rule it comes from, so a designer can look the rule up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.findings import Finding, Severity, error, warning
from generator.location import Location

Level = Literal["card", "set", "cross"]


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    level: Level
    severity: Severity
    rule: str  # e.g. "7.11", "5.23, 5.24" or "Definitions"
    summary: str  # one line for humans: what the check requires

    @property
    def reference(self) -> str:
        return reference(self.rule)

    def __call__(self, message: str, location: Location, card: str | None = None,
                 rule: str | None = None) -> Finding:
        """A finding of this check; the message ends with the rule it breaks (``rule`` narrows
        the check's own rule list to the one that applies to this finding)."""
        make = error if self.severity is Severity.ERROR else warning
        return make(self.code, f"{message} ({reference(rule or self.rule)})", location, card)


def reference(rule: str) -> str:
    """"7.11" -> "rule 7.11", "5.23, 5.24" -> "rules 5.23, 5.24"; named sections stay as is."""
    if rule[:1].isdigit():
        plural = "s" if ("," in rule or "-" in rule) else ""
        return f"rule{plural} {rule}"
    return rule


CHECKS: dict[str, Check] = {}

E, W = Severity.ERROR, Severity.WARNING


def check(code: str, level: Level, severity: Severity, rule: str, summary: str) -> Check:
    """Declare a check; codes are unique and carry the game prefix."""
    assert code.startswith("cwnb-") and code not in CHECKS, code
    CHECKS[code] = Check(code, level, severity, rule, summary)
    return CHECKS[code]
