"""``pnp rules``: every rule a pack is checked against, as rows a designer can publish.

A game defined in data lists its ``rules:`` and ``deck:`` from game.yaml; a built-in game lists
the checks of its Rulebook (``generator/rules/rulebook.py``) the same way, so one table format
serves both (each game answers ``Game.rule_rows``).
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import asdict


class RuleRow(Struct, frozen=True, gc=False):
    code: str
    level: str  # card | set | deck (data games); the game's own levels for built-in games
    kind: str | None
    severity: str
    cites: str | None
    message: str
    check: str | None = None  # the CEL expression of a data rule

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def render_rows(rows: list[RuleRow]) -> str:
    """A plain table: code, level, kind, severity, then the message with its citation."""
    if not rows:
        return "no rules"
    width = max(len(r.code) for r in rows)
    lines = []
    for r in rows:
        scope = r.level if r.kind is None else f"{r.level}:{r.kind}"
        cites = f" ({r.cites})" if r.cites else ""
        lines.append(f"{r.code:<{width}}  {scope:<16} {r.severity:<8} {r.message}{cites}")
    return "\n".join(lines)
