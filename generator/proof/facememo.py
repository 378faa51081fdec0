"""Laid-out faces remembered between rebuilds of ``pnp watch``, card by card.

A face is a function of its card (fields and where they were written), the card's pack
manifest, the locale with its catalog, and the templates. When one card file is saved, every
other card's key is unchanged, so only the edited cards are laid out again (and, their drawing
hashed again, only their pictures re-rendered). Templates are not part of the key: the watcher
calls :meth:`FaceMemo.forget` when anything but card files and catalogs changed.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from msgspec.structs import replace

from generator.core.findings import Finding
from generator.i18n.localize import Localizer
from generator.layout.engine import FaceLayout
from generator.layout.faces import lay_out_cards
from generator.model.cards import Card, CardSet
from generator.model.game import Game
from generator.proof.pictures import picture_name


@dataclass(frozen=True, slots=True)
class LaidOutFace:
    layout: FaceLayout
    picture: str  # the picture's file name: a hash of the face's drawing


@dataclass(frozen=True, slots=True)
class LaidOutCard:
    front: LaidOutFace
    back: LaidOutFace
    findings: tuple[Finding, ...]  # what laying it out found (overflows, unknown icons)


class FaceMemo:
    def __init__(self) -> None:
        self._entries: dict[Hashable, LaidOutCard] = {}
        self._used: set[Hashable] = set()

    def forget(self) -> None:
        self._entries.clear()

    def prune(self) -> None:
        """Keep only what the last build used (an edited card's old faces go)."""
        self._entries = {k: v for k, v in self._entries.items() if k in self._used}
        self._used = set()

    def lay_out(self, card_set: CardSet, game: Game, localizer: Localizer,
                bleed_mm: float) -> dict[str, LaidOutCard]:
        """Every card's faces in ``localizer``'s locale, laying out only unknown cards."""
        catalog = _fingerprint(localizer)
        result: dict[str, LaidOutCard] = {}
        todo: dict[str, Hashable | None] = {}
        for card in card_set.cards:
            key = _key(card, card_set, localizer.locale, catalog, bleed_mm)
            entry = self._entries.get(key) if key is not None else None
            if entry is None:
                todo[card.id] = key
            else:
                result[card.id] = entry
                self._used.add(key)
        if todo:
            result.update(self._lay_out_new(card_set, game, localizer, bleed_mm, todo))
        return {card.id: result[card.id] for card in card_set.cards}

    def _lay_out_new(self, card_set: CardSet, game: Game, localizer: Localizer,
                     bleed_mm: float, todo: dict[str, Hashable | None]
                     ) -> dict[str, LaidOutCard]:
        subset = CardSet(base=_only(card_set.base, todo),
                         expansions=tuple(_only(pack, todo) for pack in card_set.expansions))
        faces = lay_out_cards(subset, game, localizer, bleed_mm)
        by_card: dict[str, list[Finding]] = {}
        for finding in faces.findings:
            by_card.setdefault(finding.card or "", []).append(finding)
        named: dict[int, LaidOutFace] = {}  # a shared back is hashed once

        def face(layout: FaceLayout) -> LaidOutFace:
            if id(layout) not in named:
                named[id(layout)] = LaidOutFace(layout, picture_name(layout, bleed_mm))
            return named[id(layout)]

        done = {}
        for card_id, key in todo.items():
            entry = LaidOutCard(face(faces.layouts[faces.fronts[card_id]]),
                                face(faces.layouts[faces.backs[card_id]]),
                                tuple(by_card.get(card_id, ())))
            done[card_id] = entry
            if key is not None:
                self._entries[key] = entry
                self._used.add(key)
        return done


def _only(pack, wanted: dict[str, object]):
    return replace(pack, cards=tuple(card for card in pack.cards if card.id in wanted))


def _fingerprint(localizer: Localizer) -> int:
    return hash((localizer.locale, localizer.source_locale,
                 frozenset(localizer.catalog.items())))


def _key(card: Card, card_set: CardSet, locale: str, catalog: int,
         bleed_mm: float) -> Hashable | None:
    """What a card's faces depend on; None for a card whose fields cannot be hashed (it is
    then simply laid out every time)."""
    manifest = card_set.manifest_of(card)
    try:
        key = (card, card.source.location, tuple(card.source.fields.items()), manifest,
               repr(sorted(manifest.options.items())), locale, catalog, bleed_mm)
        hash(key)
    except TypeError:
        return None
    return key
