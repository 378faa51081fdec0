"""A card field as it prints in every language of its pack, for rules that compare printed
values with a game's own tables.

Translators retype numbers: a reference card's "Ясно +1" becomes "Clear +1" in en.po, and a
slip there ("Clear +2") prints a wrong rule as surely as one in the card file. So such rules read
the field in the source language and in each translation the pack lists, and report a wrong
value with its locale. A catalog that cannot be read is left to the locale checks
(``pnp validate --locale``), which report it with its location.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from generator.i18n.localize import field_context, load_catalog
from generator.model.cards import Card, CardSet

Catalog = dict[tuple[str, str], str]
#: path -> (version, catalog): one entry a file, replaced when the file changes (``pnp watch``)
_CACHE: dict[str, tuple[tuple[int, int], Catalog]] = {}


def _catalog(pack_root: Path, locale: str) -> Catalog:
    """One PO file's translations, read once per version of the file (what cannot be read of
    it is reported by the locale checks, not here)."""
    path = pack_root / "locales" / f"{locale}.po"
    try:
        stat = path.stat()
    except OSError:
        return {}
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(str(path))
    if cached is None or cached[0] != version:
        cached = _CACHE[str(path)] = (version, load_catalog(pack_root, locale)[0])
    return cached[1]


def printed_texts(card_set: CardSet, card: Card, attribute: str
                  ) -> Iterator[tuple[str | None, str]]:
    """(locale, text) of a card field: ``None`` for the card file's own text, then each locale
    the set ships, other than the card's own language, that has a translation of it."""
    source = getattr(card, attribute, "")
    if not isinstance(source, str) or not source:
        return
    yield None, source
    own = card_set.manifest_of(card).source_locale
    context = field_context(card.id, card.yaml_key(attribute))
    for locale in dict.fromkeys(locale for pack in card_set.packs
                                for locale in pack.manifest.locales):
        if locale == own:
            continue
        for pack in card_set.packs:
            translated = _catalog(pack.root, locale).get((context, source))
            if translated:
                yield locale, translated
                break
