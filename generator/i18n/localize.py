"""Localization: resolve each translatable card field and template label for one locale.

The source locale prints the card files' own text. Other locales read the pack's gettext
catalog ``locales/<lang>.po``; a message missing there falls back to the source text and is
recorded, so that validate and build can report it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from msgspec import Struct

from generator.core.findings import Finding
from generator.core.records import PartlyCompared
from generator.load.parsecache import safe_load
from generator.model.cards import Card
from generator.model.template import data_template_folder
from generator.runtime.resources import builtin_template_file

LABEL_CONTEXT = "label"


def field_context(card_id: str, field_name: str) -> str:
    """The msgctxt of a card field's message: card id + field, as DESIGN.md fixes."""
    return f"{card_id}.{field_name}"


def source_labels(game: str) -> Mapping[str, str]:
    """Label key -> source-language text (``labels.yaml`` of the game's template folder; a
    game defined in data may have none: its labels are the templates' own words)."""
    folder = data_template_folder(game)
    if folder is not None:
        return _pack_labels(folder)
    return _labels_in(builtin_template_file(game, "labels.yaml"))


@cache
def _labels_in(path: Path) -> Mapping[str, str]:
    data = safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in data.items()}


@cache
def _pack_labels(folder: Path) -> Mapping[str, str]:
    """A data game's ``templates/labels.yaml``, read under the pack file policy; a file that
    is not ``key: text`` gives what it can (validation reports the rest)."""
    from generator.load.packfiles import PackFolder

    pack = PackFolder(folder.parent)
    file = pack.entry(f"{folder.name}/labels.yaml")
    if file is None:
        return {}
    doc, _ = pack.load_yaml(file, "template")
    if doc is None or not isinstance(doc.data, Mapping):
        return {}
    return {str(k): v for k, v in doc.data.items() if isinstance(v, str)}


class Localizer(PartlyCompared, Struct):
    """Texts for one locale; ``catalog`` maps (msgctxt, msgid) -> translation. Filled in place
    as it is used (the messages found missing, the labels looked up once), so not frozen and
    not hashable; the labels, a lookup, are left out of its equality."""

    game: str
    locale: str
    source_locale: str
    catalog: Mapping[tuple[str, str], str] = {}
    missing: set[tuple[str, str]] = set()
    #: what reading the catalogs found (a broken or refused PO file), reported by the checks
    problems: list[Finding] = []
    #: the game's source labels, looked up once (a face asks for dozens)
    labels: Mapping[str, str] | None = None

    _UNCOMPARED = frozenset({"labels"})
    __hash__ = None  # type: ignore[assignment]

    @property
    def is_source(self) -> bool:
        return self.locale == self.source_locale

    def _lookup(self, context: str, source: str) -> str:
        if self.is_source or not source:
            return source
        translated = self.catalog.get((context, source))
        if translated:
            return translated
        self.missing.add((context, source))
        return source

    def field(self, card: Card, field_name: str) -> str:
        source = getattr(card, field_name, None)
        if not isinstance(source, str):
            return "" if source is None else str(source)
        return self._lookup(field_context(card.id, card.yaml_key(field_name)), source)

    def label(self, key: str) -> str:
        if self.labels is None:
            self.labels = source_labels(self.game)
        source = self.labels.get(key, key)
        return self._lookup(LABEL_CONTEXT, source)


def source_localizer(game: str, locale: str) -> Localizer:
    return Localizer(game=game, locale=locale, source_locale=locale)


def load_catalog(pack_root: Path, locale: str) -> tuple[dict[tuple[str, str], str],
                                                       list[Finding]]:
    """Translated, non-fuzzy entries of ``locales/<locale>.po`` as (msgctxt, msgid) -> msgstr,
    read under the pack file policy; a missing catalog is empty, a broken one a finding."""
    from generator.i18n.pofiles import read_catalog
    from generator.load.packfiles import PackFolder

    folder = PackFolder(pack_root)
    file = folder.entry(f"locales/{locale}.po")
    if file is None:
        return {}, []
    entries, findings = read_catalog(folder, file)
    catalog: dict[tuple[str, str], str] = {}
    for entry in entries or ():
        if entry.obsolete or "fuzzy" in entry.flags or not entry.msgstr:
            continue
        catalog[(entry.msgctxt or "", entry.msgid)] = entry.msgstr
    return catalog, findings
