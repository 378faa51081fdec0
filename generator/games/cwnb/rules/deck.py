"""A read-only view of a CWNB card set sorted by card kind, shared by the set and cross checks.

Also decides whether a card set is a deck at all: a pack holding only ships (or only action
cards) is a sheet of cards in the making, and an expansion loaded without its base game is half a
deck; composition and cross-checks would only drown such packs in findings about cards that live
elsewhere, so they run on a base game (plus its expansions) that holds both ships and actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from generator.games.cwnb.model import Action, PlayerOrder, Ship
from generator.games.cwnb.playrules import ATTACK_CARD_SIZE, ATTACKS, PLATFORM_FIELD, Attack
from generator.model import Card, CardSet


def copies(cards: Iterable[Card]) -> int:
    """Printed copies, which is what a dealer counts (``count`` per card)."""
    return sum(card.count for card in cards)


@dataclass(frozen=True)
class Deck:
    ships: tuple[Ship, ...]
    actions: tuple[Action, ...]
    orders: tuple[PlayerOrder, ...]

    @classmethod
    def of(cls, card_set: CardSet) -> Deck:
        cards = card_set.cards
        return cls(
            ships=tuple(c for c in cards if isinstance(c, Ship)),
            actions=tuple(c for c in cards if isinstance(c, Action)),
            orders=tuple(c for c in cards if isinstance(c, PlayerOrder)),
        )

    @cached_property
    def action_kinds(self) -> frozenset[str]:
        return frozenset(a.action for a in self.actions)

    def actions_of(self, kind: str) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.action == kind)

    @cached_property
    def submarines(self) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.is_submarine)

    @cached_property
    def surface(self) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if not s.is_submarine)

    @cached_property
    def strike_carriers(self) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.is_carrier and s.air_strike >= 1)

    @cached_property
    def has_air_defense(self) -> bool:
        return any(s.air_defense is not None for s in self.surface)

    @cached_property
    def best_carrier_rating(self) -> int:
        return max((s.air_strike for s in self.strike_carriers), default=0)

    def attack_occurs(self, attack: Attack) -> bool:
        """Whether this deck can ever launch ``attack``: its card is in the deck and some ship
        (or the task force itself) is able to launch it."""
        size = ATTACK_CARD_SIZE.get(attack.key)
        if attack.needs_card is not None:
            cards = self.actions_of(attack.needs_card)
            if size is not None:
                cards = tuple(c for c in cards if size in (c.caliber, c.missile_class))
            if not cards:
                return False
        if attack.fired_by == "task-force":
            return True
        if attack.fired_by == "carrier":
            return bool(self.strike_carriers)
        launchers = self.submarines if attack.fired_by == "submarine" else self.surface
        field = PLATFORM_FIELD.get(attack.needs_card or "")
        if field is None:
            return bool(launchers)
        return any(getattr(s, field) and (size is None or size in getattr(s, field))
                   for s in launchers)

    @cached_property
    def attacks(self) -> tuple[Attack, ...]:
        """The attacks of the engine's table that this deck can launch."""
        return tuple(a for a in ATTACKS if self.attack_occurs(a))


def is_deck(card_set: CardSet) -> bool:
    """Whether composition and cross-checks apply (see the module docstring)."""
    if card_set.base.manifest.extends is not None:
        return False
    kinds = {card.kind for card in card_set.cards}
    return {"ship", "action"} <= kinds
