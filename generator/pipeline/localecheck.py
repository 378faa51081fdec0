"""Checks of one translation of a card set: missing, fuzzy or inconsistent messages, what a
translation must keep of its source (icons, quantities, the names of other cards), glyphs the
font cannot draw, terms used against the glossaries, and texts that do not fit their boxes.

A translator runs ``pnp validate PACK --locale ru`` and sees, per card and field, what is left to
do, before printing a single sheet. A finding caused by a translation points at its entry in the
catalog (the line of its ``msgstr``), where the translator fixes it.

Each pack of a set is checked in the language it is written in: an expansion whose source
language is this locale prints its own texts (glyphs and fitting only), one that lists the locale
in ``locales:`` is translated by its catalog, and one that does not ship the locale prints in its
source language, which one warning says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from generator.core.findings import Finding, error, warning
from generator.core.location import Location, display_path
from generator.i18n.glossary import Terms, folded, load_glossary, read_glossary
from generator.i18n.localize import (
    LABEL_CONTEXT,
    Localizer,
    MessageKey,
    field_context,
    read_pack_catalog,
)
from generator.layout.faces import PendingLayout, layout_findings
from generator.layout.richtext import tags_differ
from generator.load.fonts import missing_glyphs
from generator.model.cards import Card, CardSet, Pack
from generator.model.game import Game
from generator.model.template import data_template_folder

_TOKEN = re.compile(r"\{[a-z0-9_][a-z0-9_-]*\}")

MISSING = "missing-translation"
FUZZY = "fuzzy-translation"


def set_locales(card_set: CardSet) -> tuple[str, ...]:
    """The languages a set can be printed in: every locale some pack of it ships (an expansion
    may ship one its base does not; the base's cards then print in its source language)."""
    return tuple(dict.fromkeys(locale for pack in card_set.packs
                               for locale in pack.manifest.locales))


def localizer_for(card_set: CardSet, game_name: str, locale: str) -> Localizer:
    """A localizer reading the catalogs of every pack in the set for ``locale`` (a pack written
    in that language has none to read); a later pack's catalog wins."""
    manifest = card_set.base.manifest
    catalog: dict[MessageKey, str] = {}
    fuzzy: dict[MessageKey, str] = {}
    places: dict[MessageKey, Location] = {}
    problems: list[Finding] = []
    for pack in card_set.packs:
        if pack.manifest.source_locale == locale:
            continue
        read = read_pack_catalog(pack.root, locale)
        catalog.update(read.translations)
        fuzzy.update(read.fuzzy)
        places.update(read.places)
        problems += read.findings
    return Localizer(game=game_name, locale=locale, source_locale=manifest.source_locale,
                     catalog=catalog, problems=problems, fuzzy=fuzzy, places=places,
                     pack_sources={pack.manifest.pack: pack.manifest.source_locale
                                   for pack in card_set.expansions
                                   if pack.manifest.source_locale != manifest.source_locale})


def missing_summary(findings: list[Finding]) -> dict[str, dict[str, int]]:
    """Missing translations counted per locale and per kind and field ("ship name", "label")."""
    counts: dict[str, dict[str, int]] = {}
    for finding in findings:
        if finding.code != MISSING:
            continue
        what = finding.message.split(" has no ", 1)[0]
        group = "label" if what.startswith("label ") else what
        per_locale = counts.setdefault(finding.locale or "", {})
        per_locale[group] = per_locale.get(group, 0) + 1
    return counts


class _Message:
    """One message of a locale as the checks see it: its source, translation (if it prints),
    fuzzy translation (if one waits for review), where the translator fixes it, and what it is
    ("ship name", "label 'Points'")."""

    __slots__ = ("card", "context", "fuzzy", "source", "translated", "what", "where")

    @classmethod
    def typed(cls, source: str, translated: str | None, where: Location, what: str,
              card: str | None, fuzzy: bool) -> _Message:
        """A message whose translation is given, not looked up (one being typed)."""
        message = cls.__new__(cls)
        message.context, message.source, message.what, message.card = "", source, what, card
        message.translated = None if fuzzy else translated  # a fuzzy entry does not print
        message.fuzzy = translated if fuzzy else None
        message.where = where
        return message

    def __init__(self, context: str, source: str, localizer: Localizer, written: Location,
                 what: str, card: str | None) -> None:
        key = (context, source)
        self.context, self.source, self.what, self.card = context, source, what, card
        self.translated = localizer.catalog.get(key)
        self.fuzzy = localizer.fuzzy.get(key)
        self.where = localizer.places.get(key, written)


class MessageChecks:
    """What the message checks of one locale share: the locale, strictness, and the names of
    the set's cards in the source language and in this locale."""

    def __init__(self, card_set: CardSet, localizer: Localizer, strict: bool) -> None:
        self.card_set = card_set
        self.localizer = localizer
        self.locale = localizer.locale
        self.strict = strict
        self._names: _CardNames | None = None

    @property
    def names(self) -> _CardNames:
        """The set's card names, indexed when a translated text is first checked (a locale
        printed as written never needs them)."""
        if self._names is None:
            self._names = _CardNames(self.card_set, self.localizer)
        return self._names

    def message(self, message: _Message, source_locale: str, glossary: Terms
                ) -> list[Finding]:
        where, card, locale, what = message.where, message.card, self.locale, message.what
        make = error if self.strict else warning
        translated = message.translated
        if not translated:
            if message.fuzzy:
                return [make(FUZZY, f"{what}: the {locale} translation is marked fuzzy (it "
                             "waits for review; printing the source text): check it and "
                             "remove the fuzzy flag", where, card, locale)]
            return [make(MISSING, f"{what} has no {locale} translation; printing the source "
                         "text", where, card, locale)]
        findings: list[Finding] = []
        source = message.source
        tags = tags_differ(source, translated)
        if tags is not None:  # rich text: the same tags, as pofilter's xmltags check asks
            findings.append(error("translation-tags", f"{what}: {tags}", where, card, locale))
        if sorted(_TOKEN.findall(source)) != sorted(_TOKEN.findall(translated)):
            findings.append(error(
                "translation-tokens",
                f"{what}: the translation's icons/placeholders "
                f"{sorted(_TOKEN.findall(translated))} differ from the source's "
                f"{sorted(_TOKEN.findall(source))}", where, card, locale))
        # (imported here: a build in the source language never compares a translation)
        from generator.i18n.meaning import changes

        for change in changes(source, source_locale, translated, locale):
            make_change = warning if change.words_only else error
            findings.append(make_change(
                f"translation-{change.kind}", f"{what}: {change.message}; a translation "
                "states what its source states", where, card, locale))
        for other, name, expected in self.names.mentioned(source, card):
            if not _names(translated, expected):
                findings.append(warning(
                    "translation-card-name",
                    f"{what}: the source names card '{name}' ({other}), but the translation "
                    f"does not name it as the {locale} cards print it ('{expected}')",
                    where, card, locale))
        for term in glossary.used_in(source):
            if not term.rendered_in(translated):
                findings.append(warning(
                    "glossary-term",
                    f"{what}: the source says '{term.source}' but the translation uses none "
                    f"of the glossary's forms ({', '.join(term.accepted)})", where, card,
                    locale))
        return findings


def entry_findings(card_set: CardSet, localizer: Localizer, source: str,
                   translated: str | None, where: Location, card: str | None, what: str,
                   source_locale: str, glossary: Terms, fuzzy: bool = False,
                   strict: bool = False, checks: MessageChecks | None = None) -> list[Finding]:
    """What validate says of one message whose translation is ``translated``, where it stands
    (the studio checks an entry as it is typed, with the checks validate makes). ``checks``:
    those of ``card_set`` and ``localizer`` made for other entries before (their index of the
    cards' names is made once)."""
    message = _Message.typed(source, translated, where, what, card, fuzzy)
    if checks is None:
        checks = MessageChecks(card_set, localizer, strict)
    return checks.message(message, source_locale, glossary)


class _CardNames:
    """The names of the set's cards, to find where a text names another card, and how each
    prints in this locale. Indexed by the first word of the name, so that finding them costs
    a text's length."""

    def __init__(self, card_set: CardSet, localizer: Localizer) -> None:
        self.by_word: dict[str, list[tuple[str, str, str]]] = {}
        for card in card_set.cards:
            name = card.text_fields().get("name")
            if name is None or len(name.strip()) < 3:
                continue
            printed = localizer.field(card, "name")
            if printed == name and not localizer.prints_source(card):
                continue  # no translation of the name: nothing to expect of other texts
            first = _WORD.search(name)
            if first is None:
                continue
            self.by_word.setdefault(first.group(), []).append((card.id, name.strip(), printed))

    def mentioned(self, text: str, card: str | None) -> Iterator[tuple[str, str, str]]:
        """(card id, source name, printed name) of each other card ``text`` names as written
        (case and all: "Damage Control", not "damage control" in a sentence); a name of one
        word that opens a sentence is not taken for a card's."""
        seen: set[str] = set()
        for word in set(_WORD.findall(text)):
            for other, name, printed in self.by_word.get(word, ()):
                if other == card or other in seen:
                    continue
                start = _whole_words_at(text, name)
                if start < 0 or (" " not in name and _opens_sentence(text, start)):
                    continue
                seen.add(other)
                yield other, name, printed


_WORD = re.compile(r"\w+")


def _whole_words_at(text: str, name: str) -> int:
    """Where ``name`` stands in ``text`` as whole words (-1: nowhere)."""
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        if (start == 0 or not text[start - 1].isalnum()) and \
                (end == len(text) or not text[end].isalnum()):
            return start
        start = text.find(name, start + 1)
    return -1


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip(" «\"'“„(")
    return not before or before[-1] in ".!?:;\n"


@lru_cache(maxsize=16_384)
def _name_pattern(name: str) -> re.Pattern[str]:
    """A card's printed name as running text may decline it: each word of five letters or
    more may change its last two ("Ракетная атака" in "ракетной атакой"), quotes and case
    aside."""
    parts = []
    for word in _WORD.findall(folded(name)):
        stem = word[:-2] if len(word) >= 5 else word
        parts.append(re.escape(stem) + (r"\w*" if stem != word else ""))
    return re.compile(r"(?<!\w)" + r"\W+".join(parts) + r"(?!\w)")


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` (see :func:`_name_pattern`)."""
    if not _WORD.search(name):
        return True
    return _name_pattern(name).search(folded(text)) is not None


def glyph_findings(text: str, where: Location, card: str | None, locale: str,
                    what: str, styles: tuple[str, ...] = ("regular", "bold")) -> list[Finding]:
    plain = _TOKEN.sub("", text)
    missing = sorted({ch for style in styles for ch in missing_glyphs(plain, style)})
    return [error("missing-glyph",
                  f"{what}: the font has no glyph for {ch!r} (U+{ord(ch):04X}); it would print "
                  "as an empty box", where, card, locale) for ch in missing]


@lru_cache(maxsize=65_536)
def _lacks_glyphs(text: str, styles: tuple[str, ...]) -> bool:
    """Whether some style's font lacks a glyph of ``text`` (remembered: a class name or trait
    recurs on thousands of cards)."""
    plain = _TOKEN.sub("", text)
    return any(missing_glyphs(plain, style) for style in styles)


def _source_texts(card: Card) -> list[tuple[str, str]]:
    """(yaml key, source text) of a card's translatable fields."""
    return [(card.yaml_key(attr), text) for attr, text in card.text_fields().items()]


def _printed_as_written(pack: Pack, locale: str, styles: tuple[str, ...]) -> list[Finding]:
    """Glyph findings of a pack's own texts (they print as written), located only when a
    glyph is missing."""
    findings: list[Finding] = []
    for card in pack.cards:
        for key, text in _source_texts(card):
            if _lacks_glyphs(text, styles):
                findings += glyph_findings(text, card.source.of(key), card.id, locale,
                                            f"{card.kind} {key}", styles)
    return findings


def _not_shipped(pack: Pack, locale: str, strict: bool, labels: bool) -> Finding:
    manifest = pack.manifest
    texts = sum(len(card.text_fields()) for card in pack.cards)
    what = f"its {texts} card texts" + (" and the game's labels" if labels else "")
    return (error if strict else warning)(
        "locale-not-shipped", f"pack '{manifest.pack}' does not ship {locale} (its locales: "
        f"{', '.join(manifest.locales)}): {what} print in {manifest.source_locale}; add "
        f"{locale} to its locales: and translate them (pnp i18n update "
        f"{display_path(pack.root)} --locale {locale})", manifest.where("locales"), None,
        locale)


def pack_glossary(pack: Pack, base: Pack, locale: str) -> Terms:
    """The glossary terms a pack's translation into ``locale`` keeps: its own, and its base
    game's when it is written in the base's language."""
    terms = load_glossary(pack.root, locale)
    if pack is not base and pack.manifest.source_locale == base.manifest.source_locale:
        terms = terms + load_glossary(base.root, locale)
    return terms


def check_locale(card_set: CardSet, game: Game, locale: str, strict: bool = False,
                 layout: bool = True, localizer: Localizer | None = None,
                 laid_out: PendingLayout | None = None) -> list[Finding]:
    """Every finding of one locale: each pack's texts as they print in it (see the module's
    docstring), the game's labels, and the faces laid out. ``laid_out``: the layout of this
    locale begun earlier (:func:`begin_layout`), whose findings are taken instead of laying
    out again."""
    localizer = localizer or localizer_for(card_set, game.name, locale)
    findings: list[Finding] = list(localizer.problems)
    styles = game.text_styles
    checks = MessageChecks(card_set, localizer, strict)
    base = card_set.base
    labels_translated = not localizer.is_source and locale in base.manifest.locales
    for pack in card_set.packs:
        manifest = pack.manifest
        if manifest.source_locale == locale:
            findings += _printed_as_written(pack, locale, styles)
            continue
        if locale not in manifest.locales:
            findings.append(_not_shipped(pack, locale, strict,
                                         labels=pack is base and not localizer.is_source))
            findings += _printed_as_written(pack, locale, styles)
            continue
        findings += read_glossary(pack.root).findings
        glossary = pack_glossary(pack, base, locale)
        for card in pack.cards:
            for key, source in _source_texts(card):
                message = _Message(field_context(card.id, key), source, localizer,
                                   card.source.of(key), f"{card.kind} {key}", card.id)
                findings += checks.message(message, manifest.source_locale, glossary)
                printed = message.translated or source
                findings += glyph_findings(printed, message.where if message.translated
                                            else card.source.of(key), card.id, locale,
                                            message.what, styles)
    if labels_translated:
        findings += _label_findings(game, checks, base, styles)
    if not localizer.is_source:  # enum values printed without a label in this language
        findings += _enum_findings(card_set, game, locale)
    if laid_out is not None:
        findings += laid_out.result().findings
    elif layout and game.faces is not None:
        findings += layout_findings(card_set, game, localizer)
    return findings


def _label_findings(game: Game, checks: MessageChecks, base: Pack, styles: tuple[str, ...]
                    ) -> list[Finding]:
    """The game's template labels in the locale (the base pack's catalog translates them)."""
    # imported here: the source locale has no catalog (its build never loads polib)
    from generator.i18n.catalogs import label_locations, label_messages

    folder = data_template_folder(game.name)
    labels_file = Location(f"templates/{game.name}/labels.yaml" if folder is None
                           else display_path(folder / "labels.yaml"), 1, 1)
    glossary = pack_glossary(base, base, checks.locale)
    written = label_locations(game.name)
    found: list[Finding] = []
    for label in label_messages(game.name):
        message = _Message(LABEL_CONTEXT, label.source, checks.localizer,
                           written.get(label.source, labels_file), f"label '{label.source}'",
                           None)
        found += checks.message(message, base.manifest.source_locale, glossary)
        if message.translated:
            found += glyph_findings(message.translated, message.where, None, checks.locale,
                                     message.what, styles)
    return found


def _enum_findings(card_set: CardSet, game: Game, locale: str) -> list[Finding]:
    """An enum value printed in a translated build without a label to translate (x-labels)
    prints as the raw value: a warning per field, naming the values the cards have."""
    findings: list[Finding] = []
    for kind, field, unlabelled, where in game.enum_label_gaps():
        shown = sorted({str(fields.get(field)) for card in card_set.cards if card.kind == kind
                        and (fields := card.template_fields()) is not None
                        and str(fields.get(field)) in unlabelled})
        if shown:
            findings.append(warning(
                "enum-without-label", f"kind '{kind}' prints its field '{field}' as the value"
                f"{'s' if len(shown) > 1 else ''} {', '.join(shown)}, untranslated in {locale}: "
                "give the field x-labels ({value: \"Printed text\"}) in its schema, so that "
                "translators see the printed words", where, None, locale))
    return findings


def begin_layout(card_set: CardSet, game: Game, locale: str) -> PendingLayout | None:
    """Begin laying out ``locale``'s faces for their findings (None: the game draws none):
    a large set's forked part starts now, beside whatever this process does next; hand the
    result to :func:`check_locale` as ``laid_out``."""
    if game.faces is None:
        return None
    share = game.layout_child_share
    return PendingLayout(card_set, game, localizer_for(card_set, game.name, locale), 0.0,
                         keep_layouts=False, child_share=share)

