"""A built-in game's own base pack is the whole game: it holds cards of every kind.

pnp ships a base pack for each built-in game (``cards/cwnb``: ships, actions, player orders).
A copy of it without one of its card files (``ships.yaml`` lost in a move, a link to it left
dangling and refused) loaded the rest and validated clean, then printed a game that cannot be
played. A pack whose id is its game's name is that game's base pack (expansions have ids of
their own): a kind of card it holds none of is a finding at its ``pack:`` field. A game says
whether this holds for it (``Game.base_pack_has_every_kind``): a data game may leave kinds to
its expansions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.findings import Finding, error
from generator.model.cards import CardSet

if TYPE_CHECKING:
    from generator.model.game import Game


def missing_kinds(card_set: CardSet, game: Game) -> list[Finding]:
    """One finding per kind of card the built-in game's base pack holds none of."""
    manifest = card_set.base.manifest
    if not game.base_pack_has_every_kind or manifest.pack != game.name:
        return []
    held = {card.kind for card in card_set.base.cards}
    return [error("missing-card-kind", f"the base pack of {game.name} holds no {kind} card; "
                  f"a card file of the game is missing (the game has {', '.join(game.kinds)})",
                  manifest.where("pack"))
            for kind in game.kinds if kind not in held]
