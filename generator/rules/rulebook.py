"""A game's checks, each declared once: stable code, level, severity, and where in the game's
rules it comes from.

Declaring checks as data (rather than as bare strings inside functions) lets each game's tests
hold its docs/rules-<game>.md table and its code to one list of codes, and ends every message
with the rule it enforces, written the way that game's rule book is cited ("rule 7.11",
"rules L45", "seed 003:228"), so a designer can look the rule up.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from generator.core.findings import Finding, Severity, error, warning
from generator.core.location import Location

E, W = Severity.ERROR, Severity.WARNING


class Check(Struct, frozen=True):
    code: str
    level: str  # the game's own levels, e.g. card / set / cross / deck
    severity: Severity
    rule: str  # where the rule stands, in the game's notation ("7.11", "L45", "003:228")
    summary: str  # one line for humans: what the check requires
    cite: Callable[[str], str]  # how a message names a rule ("" for none)

    @property
    def reference(self) -> str:
        return self.cite(self.rule)

    def __call__(self, message: str, location: Location, card: str | None = None,
                 rule: str | None = None, severity: Severity | None = None,
                 locale: str | None = None) -> Finding:
        """A finding of this check. ``rule`` narrows the check's own rule list to the one that
        applies to this finding; ``severity`` overrides it where a game option demands;
        ``locale`` names the translation that prints the value, when it is not the source."""
        make = error if (severity or self.severity) is Severity.ERROR else warning
        reference = self.cite(rule or self.rule)
        return make(self.code, f"{message} ({reference})" if reference else message, location,
                    card, locale)


class Rulebook:
    """The registry of one game's checks; codes are unique and carry the game's prefix."""

    def __init__(self, prefix: str, cite: Callable[[str], str]) -> None:
        self.prefix = prefix
        self.cite = cite
        self.checks: dict[str, Check] = {}

    def check(self, code: str, level: str, severity: Severity, rule: str,
              summary: str) -> Check:
        if not code.startswith(self.prefix) or code in self.checks:
            raise ValueError(f"check code {code!r} is taken or lacks the prefix {self.prefix!r}")
        self.checks[code] = Check(code, level, severity, rule, summary, self.cite)
        return self.checks[code]
