"""A read-only view of a CWNB card set sorted by card kind, shared by the set and cross checks.

Also decides whether a card set is a deck at all: a pack holding only ships (or only action
cards) is a sheet of cards in the making, and an expansion loaded without its base game is half a
deck; composition and cross-checks would only drown such packs in findings about cards that live
elsewhere, so they run on a base game (plus its expansions) that holds both ships and actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property

from msgspec import Struct

from generator.games.cwnb.model import Action, PlayerOrder, Ship
from generator.games.cwnb.playrules import (
    ATTACK_CARD_SIZE,
    ATTACKS,
    PLATFORM_FIELD,
    SIZE_FIELD,
    Attack,
)
from generator.model.cards import Card, CardSet


def copies(cards: Iterable[Card]) -> int:
    """Printed copies, which is what a dealer counts (``count`` per card)."""
    return sum(card.count for card in cards)


class Deck(Struct, frozen=True, dict=True):
    """The cards of a deck by kind, with the indexes the checks look things up in.

    Every check asks questions like "which gun calibers do the ships mount?" or "which action
    cards are torpedoes?" once per card; answering them from indexes built in one pass keeps
    every check linear in the number of cards (50,000-card packs validate in seconds).
    """

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
    def by_action(self) -> Mapping[str, tuple[Action, ...]]:
        """Action cards per action kind, in deck order."""
        index: dict[str, list[Action]] = {}
        for card in self.actions:
            index.setdefault(card.action, []).append(card)
        return {kind: tuple(cards) for kind, cards in index.items()}

    @cached_property
    def action_kinds(self) -> frozenset[str]:
        return frozenset(self.by_action)

    def actions_of(self, kind: str) -> tuple[Action, ...]:
        return self.by_action.get(kind, ())

    def sized_cards(self, kind: str) -> tuple[tuple[Action, str], ...]:
        """(card, size) of every ``kind`` card that has a size (gun caliber, missile class)."""
        return self._sized.get(kind, ())

    @cached_property
    def _sized(self) -> Mapping[str, tuple[tuple[Action, str], ...]]:
        return {kind: tuple((card, getattr(card, field)) for card in self.actions_of(kind)
                            if getattr(card, field))
                for kind, field in SIZE_FIELD.items()}

    @cached_property
    def card_sizes(self) -> Mapping[str, frozenset[str]]:
        """Per sized card kind, the sizes that cards of the deck come in."""
        return {kind: frozenset(size for _, size in self.sized_cards(kind)) for kind in SIZE_FIELD}

    @cached_property
    def platform_sizes(self) -> Mapping[str, frozenset[str]]:
        """Per sized card kind, the platform sizes mounted on the ships of the deck."""
        return {kind: frozenset(p for ship in self.ships for p in getattr(ship, field))
                for kind, field in PLATFORM_FIELD.items()}

    @cached_property
    def submarine_platform_sizes(self) -> Mapping[str, frozenset[str]]:
        """Like :attr:`platform_sizes`, for the submarines of the deck alone."""
        return {kind: frozenset(p for ship in self.submarines for p in getattr(ship, field))
                for kind, field in PLATFORM_FIELD.items()}

    @cached_property
    def surface_platform_sizes(self) -> Mapping[str, frozenset[str]]:
        """Like :attr:`platform_sizes`, for the surface ships of the deck alone."""
        return {kind: frozenset(p for ship in self.surface for p in getattr(ship, field))
                for kind, field in PLATFORM_FIELD.items()}

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
        kind = attack.needs_card or ""
        if kind not in PLATFORM_FIELD:
            return bool(launchers)
        mounted = (self.submarine_platform_sizes if attack.fired_by == "submarine"
                   else self.surface_platform_sizes)[kind]
        return bool(mounted) and (size is None or size in mounted)

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
