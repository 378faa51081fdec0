"""Cards of a game defined in data: the typed card object every later stage sees.

A built-in game declares one Card subclass per kind; a data game's kinds exist only as JSON Schemas,
so its card keeps the validated fields in an immutable mapping and answers attribute access
from it (``card.power``), which is all the localizer and the checks ask of a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from msgspec import field

from generator.model.cards import Card, SourceRef

IMPLIED_FIELDS = ("id", "kind", "count")


class DataCard(Card, frozen=True):
    """One card of a data game; ``fields`` holds every field written for it (id/kind/count
    too), ``translatable`` the names its kind marks ``x-translate: true``."""

    #: (left out of the card's equality and hash, as its source is: _UNCOMPARED)
    fields: Mapping[str, object] = field(default_factory=dict)
    translatable: tuple[str, ...] = ()
    #: a card that failed its schema, built from its sound fields for the checks that read
    #: only those: the fields left out (a wrong value, a required one missing); never printed
    unsound: frozenset[str] = frozenset()

    _UNCOMPARED: ClassVar[frozenset[str]] = frozenset({"source", "fields"})

    def __getattr__(self, name: str) -> object:
        fields = object.__getattribute__(self, "fields")
        if name in fields:
            return fields[name]
        raise AttributeError(name)

    def template_fields(self) -> Mapping[str, object]:
        return self.fields

    def content(self) -> tuple[object, ...]:
        return tuple(sorted((str(k), repr(v)) for k, v in self.fields.items()
                            if k not in ("id", "count", "pack", "source")))

    def text_fields(self) -> dict[str, str]:
        return {name: value for name in self.translatable
                if isinstance(value := self.fields.get(name), str) and value}


def card_builder(translatable: tuple[str, ...]):
    """The ``CardKind.build`` of one data kind."""

    def build(item: Mapping[str, object], pack: str, source: SourceRef) -> DataCard:
        data = dict(item)
        data.setdefault("count", 1)
        return DataCard(id=str(data["id"]), kind=str(data["kind"]), count=int(data["count"]),
                        pack=pack, source=source, fields=MappingProxyType(data),
                        translatable=translatable)

    return build


def partial_builder(translatable: tuple[str, ...]):
    """The ``CardKind.partial`` of one data kind: a card of the fields its schema found sound
    (the unsound ones left out, no value made up for them), for the rules that read no
    other."""

    def build(item: Mapping[str, object], pack: str, source: SourceRef,
              unsound: frozenset[str]) -> DataCard:
        data = {name: value for name, value in item.items() if name not in unsound}
        count = data.get("count", 1)
        return DataCard(id=str(data["id"]), kind=str(data["kind"]),
                        count=count if isinstance(count, int) else 1, pack=pack, source=source,
                        fields=MappingProxyType(data), translatable=translatable,
                        unsound=unsound)

    return build
