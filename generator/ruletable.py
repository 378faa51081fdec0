"""``pnp rules``: every rule a pack is checked against, as rows a designer can publish.

A game defined in data lists its ``rules:`` and ``deck:`` from game.yaml; a built-in game lists
the checks of its Rulebook (``generator/rulebook.py``) the same way, so one table format serves
both.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass

from generator.games.base import Game


@dataclass(frozen=True, slots=True)
class RuleRow:
    code: str
    level: str  # card | set | deck (data games); the game's own levels for built-in games
    kind: str | None
    severity: str
    cites: str | None
    message: str
    check: str | None = None  # the CEL expression of a data rule

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def _data_rows(game: Game) -> list[RuleRow]:
    definition = game.data
    rows = [RuleRow(r.code, r.level, r.kind, str(r.severity), r.cites, r.message, r.check)
            for r in definition.rules]
    deck = definition.deck
    if deck is None:
        return rows
    if deck.min_size is not None or deck.max_size is not None:
        low = deck.min_size if deck.min_size is not None else 0
        high = deck.max_size if deck.max_size is not None else "any number of"
        size = f"exactly {low}" if low == high else f"{low} to {high}"
        rows.append(RuleRow("deck-size", "deck", None, "error", None,
                            f"a deck holds {size} cards"))
    if deck.max_copies is not None:
        rows.append(RuleRow("deck-max-copies", "deck", None, "error", None,
                            f"at most {deck.max_copies} copies of a card in a deck"))
    rows += [RuleRow(r.code, "deck", None, str(r.severity), r.cites, r.message, r.check)
             for r in deck.rules]
    return rows


def _rulebook_rows(game: Game) -> list[RuleRow]:
    try:
        registry = importlib.import_module(f"generator.games.{game.name}.rules.registry")
    except ImportError:
        return []
    book = getattr(registry, "RULEBOOK", None)
    if book is None:
        return []
    return [RuleRow(c.code, c.level, None, str(c.severity), c.reference, c.summary)
            for c in book.checks.values()]


def rule_rows(game: Game) -> list[RuleRow]:
    return _data_rows(game) if game.data is not None else _rulebook_rows(game)


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
