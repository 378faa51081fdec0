"""Checks of one translation of a card set: missing or inconsistent messages, glyphs the font
cannot draw, terms used against the pack's glossary, and texts that do not fit their boxes.

A translator runs ``pnp validate PACK --locale ru`` and sees, per card and field, what is left to
do, before printing a single sheet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from pathlib import Path

from msgspec import Struct

from generator.core.findings import Finding, error, warning
from generator.core.limits import MAX_GLOSSARY_TERMS
from generator.core.location import Location, display_path
from generator.i18n.localize import LABEL_CONTEXT, Localizer, field_context, load_catalog
from generator.layout.faces import PendingLayout, layout_findings
from generator.load.fonts import missing_glyphs
from generator.load.packfiles import GLOSSARY_NAME, PackFolder
from generator.model.cards import Card, CardSet
from generator.model.game import Game
from generator.model.template import data_template_folder
from generator.schema import check as schemacheck

_TOKEN = re.compile(r"\{[a-z0-9_][a-z0-9_-]*\}")


class GlossaryTerm(Struct, frozen=True):
    source: str
    accepted: tuple[str, ...]
    pattern: re.Pattern[str]


_WORD = re.compile(r"\w+")


class Terms:
    """The glossary terms of one locale, indexed by their first word, so that checking a text
    costs its length, not the number of terms times the number of texts."""

    def __init__(self, terms: tuple[GlossaryTerm, ...] = ()) -> None:
        self.terms = terms
        self.by_word: dict[str, list[GlossaryTerm]] = {}
        self.wordless: list[GlossaryTerm] = []
        for term in terms:
            first = _WORD.search(term.source.lower())
            if first is None:
                self.wordless.append(term)
            else:
                self.by_word.setdefault(first.group(), []).append(term)

    def __iter__(self) -> Iterator[GlossaryTerm]:
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def used_in(self, text: str) -> list[GlossaryTerm]:
        """Terms that occur in ``text`` as whole words (case-blind)."""
        words = set(_WORD.findall(text.lower()))
        candidates = [*self.wordless,
                      *(term for word in words for term in self.by_word.get(word, ()))]
        return [term for term in candidates if term.pattern.search(text)]


class Glossary(Struct, frozen=True):
    """A pack's ``glossary.yaml``: its checked entries and what was wrong with the file."""

    entries: tuple[Mapping[str, object], ...] = ()
    findings: tuple[Finding, ...] = ()

    def terms(self, locale: str) -> Terms:
        """Terms that name forms for ``locale``."""
        terms = []
        for entry in self.entries:
            forms = entry.get(locale)
            # "source" names the source-language term when the pack is not written in English
            source = entry.get("source", entry.get("en"))
            if not forms or not isinstance(source, str):
                continue
            accepted = (forms,) if isinstance(forms, str) else tuple(map(str, forms))
            pattern = re.compile(rf"(?<!\w){re.escape(source)}(?!\w)", re.IGNORECASE)
            terms.append(GlossaryTerm(source, accepted, pattern))
        return Terms(tuple(terms))


@cache
def read_glossary(pack_root: Path) -> Glossary:
    """The pack's glossary, read under the pack file policy and checked against its schema;
    an absent file is an empty glossary, a broken one a finding."""
    folder = PackFolder(pack_root)
    file = folder.entry(GLOSSARY_NAME)
    if file is None:
        return Glossary()
    doc, findings = folder.load_yaml(file, "glossary")
    if doc is None:
        return Glossary(findings=tuple(findings))
    if not isinstance(doc.data, Mapping):
        return Glossary(findings=(error(
            "not-a-mapping", "a glossary is a mapping with a 'terms:' list, not "
            f"{schemacheck.describe_type(doc.data)}", doc.where(())),))
    problems = schemacheck.check(doc, "generator.schema", "glossary.schema.json")
    if problems:
        return Glossary(findings=tuple(problems))
    entries = tuple(doc.data["terms"])
    if len(entries) > MAX_GLOSSARY_TERMS:
        return Glossary(findings=(error(
            "too-many-terms", f"the glossary lists {len(entries)} terms; the limit is "
            f"{MAX_GLOSSARY_TERMS}", doc.where(("terms",))),))
    for index, entry in enumerate(entries):
        if not isinstance(entry.get("source", entry.get("en")), str):
            findings.append(error(
                "missing-field", "a glossary entry names its source-language term as "
                "'source:' (or 'en:' in an English pack)", doc.where(("terms", index))))
    return Glossary(entries, tuple(findings))


def load_glossary(pack_root: Path, locale: str) -> Terms:
    """Terms of ``glossary.yaml`` that name forms for ``locale`` (absent file: no terms)."""
    return read_glossary(pack_root).terms(locale)


def localizer_for(card_set: CardSet, game_name: str, locale: str) -> Localizer:
    """A localizer reading the catalogs of every pack in the set for ``locale``."""
    manifest = card_set.base.manifest
    catalog: dict[tuple[str, str], str] = {}
    problems: list[Finding] = []
    if locale != manifest.source_locale:
        for pack in card_set.packs:
            entries, found = load_catalog(pack.root, locale)
            catalog.update(entries)
            problems += found
    return Localizer(game=game_name, locale=locale, source_locale=manifest.source_locale,
                     catalog=catalog, problems=problems)


def msgstr_locations(pack_root: Path, locale: str) -> dict[tuple[str, str], Location]:
    """(msgctxt, msgid) -> the line of its ``msgstr`` in the pack's catalog for ``locale``, for
    every current entry: a translator fixes a translation there, not in the card file. A
    catalog that cannot be read gives nothing here (the localizer reports it)."""
    from generator.i18n.pofiles import read_catalog
    from generator.load.packfiles import PackFolder

    folder = PackFolder(pack_root)
    file = folder.entry(f"locales/{locale}.po")
    if file is None:
        return {}
    catalog, _ = read_catalog(folder, file)
    if catalog is None:
        return {}
    lines = file.path.read_text(encoding="utf-8", errors="replace").split("\n")
    found: dict[tuple[str, str], Location] = {}
    for entry in catalog:
        if entry.obsolete:
            continue
        number = max(entry.linenum, 1)
        while number <= len(lines) and not lines[number - 1].startswith("msgstr"):
            number += 1
        found[(entry.msgctxt or "", entry.msgid)] = Location(file.display,
                                                             min(number, len(lines)), 1)
    return found


def _catalog_locations(card_set: CardSet, locale: str) -> dict[tuple[str, str], Location]:
    """Where each message of ``locale`` is translated; a later pack's catalog wins, as in the
    localizer."""
    found: dict[tuple[str, str], Location] = {}
    for pack in card_set.packs:
        found.update(msgstr_locations(pack.root, locale))
    return found


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


MISSING = "missing-translation"


def _message_findings(source: str, translated: str | None, where: Location, card: str | None,
                      locale: str, what: str, strict: bool, glossary: Terms
                      ) -> list[Finding]:
    findings: list[Finding] = []
    if not translated:
        make = error if strict else warning
        findings.append(make(MISSING,
                             f"{what} has no {locale} translation; printing the source text",
                             where, card, locale))
        return findings
    if sorted(_TOKEN.findall(source)) != sorted(_TOKEN.findall(translated)):
        findings.append(error(
            "translation-tokens",
            f"{what}: the translation's icons/placeholders {sorted(_TOKEN.findall(translated))} "
            f"differ from the source's {sorted(_TOKEN.findall(source))}", where, card, locale))
    lowered = translated.lower()
    for term in glossary.used_in(source):
        if not any(f.lower() in lowered for f in term.accepted):
            findings.append(warning(
                "glossary-term",
                f"{what}: the source says '{term.source}' but the translation uses none of the "
                f"glossary's forms ({', '.join(term.accepted)})", where, card, locale))
    return findings


def _glyph_findings(text: str, where: Location, card: str | None, locale: str,
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


def _card_texts(card: Card) -> list[tuple[str, str, str]]:
    """(yaml key, context, source text) of a card's translatable fields."""
    return [(key, field_context(card.id, key), text) for key, text in _source_texts(card)]


def check_locale(card_set: CardSet, game: Game, locale: str, strict: bool = False,
                 layout: bool = True, localizer: Localizer | None = None,
                 laid_out: PendingLayout | None = None) -> list[Finding]:
    """Every finding of one locale; the source locale gets the glyph and fitting checks only.
    ``laid_out``: the layout of this locale begun earlier (:func:`begin_layout`), whose
    findings are taken instead of laying out again."""
    localizer = localizer or localizer_for(card_set, game.name, locale)
    findings: list[Finding] = []
    translating = not localizer.is_source
    in_catalog = _catalog_locations(card_set, locale) if translating else {}
    styles = game.text_styles
    if translating:
        findings += localizer.problems
    for pack in card_set.packs:
        glossary = Terms()
        if translating:
            read = read_glossary(pack.root)
            findings += read.findings
            glossary = read.terms(locale)
        for card in pack.cards:
            if not translating:  # the source texts: their glyphs, located only when missing
                for key, text in _source_texts(card):
                    if _lacks_glyphs(text, styles):
                        findings += _glyph_findings(text, card.source.of(key), card.id, locale,
                                                    f"{card.kind} {key}", styles)
                continue
            for key, context, source in _card_texts(card):
                where = card.source.of(key)
                translated = localizer.catalog.get((context, source)) if translating else source
                what = f"{card.kind} {key}"
                po_where = in_catalog.get((context, source), where)
                if translating:
                    findings += _message_findings(source, translated, po_where, card.id, locale,
                                                  what, strict, glossary)
                findings += _glyph_findings(translated or source,
                                            po_where if translated else where, card.id, locale,
                                            what, styles)
    folder = data_template_folder(game.name)
    labels_file = Location(f"templates/{game.name}/labels.yaml" if folder is None
                           else display_path(folder / "labels.yaml"), 1, 1)
    if translating:
        # imported here: the source locale has no catalog (its build never loads polib)
        from generator.i18n.catalogs import label_locations, label_messages

        base_glossary = load_glossary(card_set.base.root, locale)
        written = label_locations(game.name)
        for message in label_messages(game.name):
            text = message.source
            where = written.get(text, labels_file)
            translated = localizer.catalog.get((LABEL_CONTEXT, text))
            where = in_catalog.get((LABEL_CONTEXT, text), where)
            findings += _message_findings(text, translated, where, None, locale,
                                          f"label '{text}'", strict, base_glossary)
            if translated:
                findings += _glyph_findings(translated, where, None, locale,
                                            f"label '{text}'", styles)
    if laid_out is not None:
        findings += laid_out.result().findings
    elif layout and game.faces is not None:
        findings += layout_findings(card_set, game, localizer)
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

