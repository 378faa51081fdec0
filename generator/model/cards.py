"""Typed, immutable objects that every stage after schema checking works with.

Game modules subclass :class:`Card` for their card kinds; layout and rules code never sees the raw
YAML dictionaries, only these objects, each of which remembers where it was written.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

from msgspec import Struct

from generator.core.location import Location
from generator.core.records import PartlyCompared

CARD_SIZES_MM: Mapping[str, tuple[float, float]] = MappingProxyType({
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "mini": (44.5, 63.5),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
})


#: a card's fields that say where it comes from or how many copies print, not what it says
_NOT_CONTENT = frozenset({"id", "count", "pack", "source"})


class CardSize(Struct, frozen=True, gc=False):
    width_mm: float
    height_mm: float
    name: str = "custom"
    #: rounded corners (``corner_radius_mm`` in game.yaml, or a kind's own); 0: square
    corner_radius_mm: float = 0.0

    @classmethod
    def from_spec(cls, spec: object) -> CardSize:
        if isinstance(spec, str):
            width, height = CARD_SIZES_MM[spec]
            return cls(width, height, spec)
        if isinstance(spec, Mapping):
            return cls(float(spec["width_mm"]), float(spec["height_mm"]))
        width, height = CARD_SIZES_MM["poker"]
        return cls(width, height, "poker")


class SourceRef(PartlyCompared, Struct, frozen=True):
    """Where a card was written, with the location of each of its fields; the fields' places
    (often a view looked up when asked) are left out of equality and hash."""

    location: Location
    fields: Mapping[str, Location] = {}

    _UNCOMPARED = frozenset({"fields"})

    def of(self, field_name: str) -> Location:
        return self.fields.get(field_name, self.location)


class Card(PartlyCompared, Struct, frozen=True):
    """What every card of every game has; games add their own fields in subclasses.

    Two cards are equal when they say the same: where they were written (``source``) is left
    out of their equality and hash, as a kind may leave out more (``_UNCOMPARED``)."""

    id: str
    kind: str
    count: int
    pack: str
    source: SourceRef

    _UNCOMPARED: ClassVar[frozenset[str]] = frozenset({"source"})

    #: names of the fields a translator translates (class attribute, overridden per kind)
    TRANSLATABLE: ClassVar[tuple[str, ...]] = ()
    #: attribute name -> YAML key, where they differ (``class`` is a Python keyword)
    YAML_KEYS: ClassVar[Mapping[str, str]] = MappingProxyType({})

    @classmethod
    def yaml_key(cls, attribute: str) -> str:
        return cls.YAML_KEYS.get(attribute, attribute)

    def template_fields(self) -> Mapping[str, object] | None:
        """The fields a template's CEL conditions read (a kind defined in data); None when the
        card's face values say everything its templates ask."""
        return None

    def content(self) -> tuple[object, ...]:
        """What the card says, without where it comes from and how many copies print: two
        cards with the same content are one card printed twice (a reprint)."""
        return tuple((name, repr(getattr(self, name))) for name in self.__struct_fields__
                     if name not in _NOT_CONTENT)

    def text_fields(self) -> dict[str, str]:
        """The translatable texts of this card, by field name (empty ones left out)."""
        result: dict[str, str] = {}
        for name in self.TRANSLATABLE:
            value = getattr(self, name, None)
            if isinstance(value, str) and value:
                result[name] = value
        return result


class Manifest(PartlyCompared, Struct, frozen=True):
    """A pack's game.yaml as the pipeline reads it. Two manifests are equal when they say the
    same of the pack; the game's options and where each field is written are left out."""

    pack: str
    game: str
    name: str
    version: str
    source_locale: str
    locales: tuple[str, ...]
    set_mark: str
    set_mark_label: str
    card_size: CardSize
    extends: str | None
    location: Location
    sheet_per_kind: bool = True
    options: Mapping[str, object] = {}
    #: where each top-level field of game.yaml is written, so findings can point at it
    fields: Mapping[str, Location] = {}

    _UNCOMPARED = frozenset({"options", "fields"})

    def where(self, name: str) -> Location:
        """Location of game.yaml's ``name`` field (the manifest itself when it is absent)."""
        return self.fields.get(name, self.location)


class Pack(Struct, frozen=True):
    """One loaded pack: its manifest, the folder it came from and its cards in file order."""

    manifest: Manifest
    root: Path
    cards: tuple[Card, ...]

    @property
    def total_copies(self) -> int:
        return sum(card.count for card in self.cards)


class CardSet(Struct, frozen=True):
    """A base pack with the expansions loaded alongside it (``--with``)."""

    base: Pack
    expansions: tuple[Pack, ...] = ()

    @property
    def packs(self) -> tuple[Pack, ...]:
        return (self.base, *self.expansions)

    @property
    def name(self) -> str:
        """The set's name in outputs (a build's folder, a proof's pack): the base pack's id and
        its expansions', joined by '+'."""
        return "+".join(pack.manifest.pack for pack in self.packs)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for pack in self.packs for card in pack.cards)

    def pack_of(self, card: Card) -> Pack:
        for pack in self.packs:
            if pack.manifest.pack == card.pack:
                return pack
        return self.base

    def manifest_of(self, card: Card) -> Manifest:
        return self.pack_of(card).manifest
