"""Localization: resolve each translatable card field and template label for one locale.

The source locale prints the card files' own text. Other locales read the pack's gettext
catalog ``locales/<lang>.po``; a message missing there falls back to the source text and is
recorded, so that validate and build can report it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from msgspec import Struct
from msgspec import field as struct_field

from generator.core.findings import Finding
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.load.parsecache import safe_load
from generator.model.cards import Card
from generator.model.template import data_template_folder, enum_labels
from generator.runtime.resources import builtin_template_file

LABEL_CONTEXT = "label"
#: the msgctxt of a pack's name and of a deck's name (printed on a tuck box)
PACK_CONTEXT = "pack"
DECK_CONTEXT = "deck"


def field_context(card_id: str, field_name: str) -> str:
    """The msgctxt of a card field's message: card id + field, as DESIGN.md fixes."""
    return f"{card_id}.{field_name}"


def source_labels(game: str) -> Mapping[str, str]:
    """Label key -> source-language text (``labels.yaml`` of the game's template folder; a
    game defined in data may have none: its labels are the templates' own words, and the
    ``x-labels`` of its enum fields)."""
    folder = data_template_folder(game)
    if folder is not None:
        enums = enum_labels(game)  # the printed texts of enum values (x-labels)
        if not enums:
            return _pack_labels(folder)
        return {**{key: text for key, (text, _) in enums.items()}, **_pack_labels(folder)}
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


MessageKey = tuple[str, str]  # (msgctxt, msgid)


class Localizer(PartlyCompared, Struct):
    """Texts for one locale; ``catalog`` maps (msgctxt, msgid) -> translation. Filled in place
    as it is used (the messages found missing, the labels looked up once), so not frozen and
    not hashable; the labels, a lookup, are left out of its equality.

    A card prints its own text when its pack is written in this locale: the base pack's source
    language (``source_locale``), or an expansion's own (``pack_sources``: an expansion written
    in Russian beside an English base prints its Russian texts in a Russian build, and needs
    its catalog in an English one)."""

    game: str
    locale: str
    source_locale: str
    catalog: Mapping[MessageKey, str] = {}
    missing: set[MessageKey] = set()
    #: what reading the catalogs found (a broken or refused PO file), reported by the checks
    problems: list[Finding] = []
    #: the game's source labels, looked up once (a face asks for dozens)
    labels: Mapping[str, str] | None = None
    #: pack id -> its source language, for the packs written in another than the base's
    pack_sources: Mapping[str, str] = {}
    #: messages whose translation is marked fuzzy (not printed: it waits for review)
    fuzzy: Mapping[MessageKey, str] = {}
    #: where each message of the catalogs is translated (the line of its ``msgstr``)
    places: Mapping[MessageKey, Location] = {}

    _UNCOMPARED = frozenset({"labels"})
    __hash__ = None  # type: ignore[assignment]

    @property
    def is_source(self) -> bool:
        """Whether this is the base pack's source language (its labels and cards print as
        written)."""
        return self.locale == self.source_locale

    def prints_source(self, card: Card) -> bool:
        """Whether ``card`` prints its texts as written: its pack is written in this locale."""
        return self.pack_sources.get(card.pack, self.source_locale) == self.locale

    def _translate(self, context: str, source: str) -> str:
        translated = self.catalog.get((context, source))
        if translated:
            return translated
        self.missing.add((context, source))
        return source

    def field(self, card: Card, field_name: str) -> str:
        source = getattr(card, field_name, None)
        if not isinstance(source, str):
            return "" if source is None else str(source)
        if not source or self.prints_source(card):
            return source
        return self._translate(field_context(card.id, card.yaml_key(field_name)), source)

    def printed_from(self, card: Card, name: str) -> tuple[str, Location | None]:
        """What a face's text named ``name`` prints on ``card`` ("ship name", "label
        'Points'"), and where its translation is written when it printed one (the line of
        its ``msgstr``: a translator fixes it there); None for a text as written."""
        for attribute, source in card.text_fields().items():
            key = card.yaml_key(attribute)
            if key == name:
                message = (field_context(card.id, key), source)
                translated = not self.prints_source(card) and message in self.catalog
                return f"{card.kind} {key}", self.places.get(message) if translated else None
        if name in card.source.fields:
            return name, None
        if self.labels is None:
            self.labels = source_labels(self.game)
        text = self.labels.get(name, name)
        message = (LABEL_CONTEXT, text)
        if name not in self.labels and message not in self.places:
            return name, None  # a text a widget names itself ("summary table")
        translated = not self.is_source and message in self.catalog
        return f"label '{text}'", self.places.get(message) if translated else None

    def printed_from_all(self, card: Card, names: tuple[str, ...]
                         ) -> tuple[str, Location | None]:
        """:meth:`printed_from` for a text that prints one or several ``names`` (a table cell
        that joins the labels of an attack's answers: "text of labels 'Evasive Maneuvers',
        'ECM'"). Of several, the place is that of the longest translation: the likeliest one
        to shorten, and the others are named beside it."""
        if len(names) == 1:
            return self.printed_from(card, names[0])
        found = [(*self.printed_from(card, name), len(self._printed(card, name)))
                 for name in names]
        whats = [what for what, _, _ in found]
        labels = [what.removeprefix("label ") for what in whats if what.startswith("label '")]
        named = " and ".join(part for part in (
            ", ".join(what for what in whats if not what.startswith("label '")),
            "" if not labels else f"label {labels[0]}" if len(labels) == 1 else
            "labels " + ", ".join(labels)) if part)
        located = [(length, place) for _, place, length in found if place is not None]
        return f"text of {named}", max(located, key=lambda pair: pair[0])[1] if located \
            else None

    def _printed(self, card: Card, name: str) -> str:
        """What ``name`` (a card field's YAML key or a label key) prints on ``card``."""
        for attribute in card.text_fields():
            if card.yaml_key(attribute) == name:
                return self.field(card, attribute)
        return self.label(name)

    def text(self, context: str, source: str) -> str:
        """A message other than a card field or label (a pack's or a deck's name) in this
        locale; the source text, recorded as missing, when the catalog has none."""
        return source if self.is_source or not source else self._translate(context, source)

    def label(self, key: str) -> str:
        if self.labels is None:
            self.labels = source_labels(self.game)
        source = self.labels.get(key, key)
        return source if self.is_source or not source else self._translate(LABEL_CONTEXT,
                                                                            source)


def source_localizer(game: str, locale: str) -> Localizer:
    return Localizer(game=game, locale=locale, source_locale=locale)


class PackCatalog(Struct):
    """One pack's catalog of one locale, as the checks need it: the translations that print,
    the fuzzy ones (which do not), where each message's ``msgstr`` is written (a translator
    fixes a translation there, not in the card file), and what was wrong with the file."""

    translations: dict[MessageKey, str] = struct_field(default_factory=dict)
    fuzzy: dict[MessageKey, str] = struct_field(default_factory=dict)
    places: dict[MessageKey, Location] = struct_field(default_factory=dict)
    findings: list[Finding] = struct_field(default_factory=list)


def read_pack_catalog(pack_root: Path, locale: str) -> PackCatalog:
    """``locales/<locale>.po`` of a pack, read under the pack file policy; a missing catalog is
    empty, a broken one a finding."""
    from generator.i18n.pofiles import read_catalog
    from generator.load.packfiles import PackFolder

    folder = PackFolder(pack_root)
    file = folder.entry(f"locales/{locale}.po")
    if file is None:
        return PackCatalog()
    entries, findings, text = read_catalog(folder, file)
    result = PackCatalog(findings=findings)
    if entries is None:
        return result
    msgstr_lines = _msgstr_lines(text)
    for entry in entries:
        if entry.obsolete:
            continue
        key = (entry.msgctxt or "", entry.msgid)
        # the first msgstr line at or after the entry's first line
        at = bisect_left(msgstr_lines, max(entry.linenum, 1))
        line = msgstr_lines[at] if at < len(msgstr_lines) else max(entry.linenum, 1)
        result.places[key] = Location(file.display, line, 1)
        if not entry.msgstr:
            continue
        if "fuzzy" in entry.flags:
            result.fuzzy[key] = entry.msgstr
        else:
            result.translations[key] = entry.msgstr
    return result


def _msgstr_lines(text: str) -> list[int]:
    """The numbers of the lines of a catalog's text that begin a ``msgstr``."""
    return [number for number, line in enumerate(text.split("\n"), 1)
            if line.startswith("msgstr")]


def load_catalog(pack_root: Path, locale: str) -> tuple[dict[MessageKey, str], list[Finding]]:
    """Translated, non-fuzzy entries of ``locales/<locale>.po`` as (msgctxt, msgid) -> msgstr,
    read under the pack file policy; a missing catalog is empty, a broken one a finding."""
    read = read_pack_catalog(pack_root, locale)
    return read.translations, read.findings
