"""Checks of one translation of a card set: missing or inconsistent messages, glyphs the font
cannot draw, terms used against the pack's glossary, and texts that do not fit their boxes.

A translator runs ``pnp validate PACK --locale ru`` and sees, per card and field, what is left to
do, before printing a single sheet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from generator.cardfaces import lay_out_cards
from generator.findings import Finding, error, warning
from generator.fonts import missing_glyphs
from generator.games.base import Game
from generator.i18n import label_messages
from generator.layout.template import data_template_folder
from generator.localize import LABEL_CONTEXT, Localizer, field_context, load_catalog
from generator.location import Location
from generator.model import Card, CardSet
from generator.pack import GLOSSARY_NAME, display_path

_TOKEN = re.compile(r"\{[a-z0-9_][a-z0-9_-]*\}")
TEXT_STYLES = ("regular", "bold")


@dataclass(frozen=True, slots=True)
class GlossaryTerm:
    source: str
    accepted: tuple[str, ...]
    pattern: re.Pattern[str]


@cache
def load_glossary(pack_root: Path, locale: str) -> tuple[GlossaryTerm, ...]:
    """Terms of ``glossary.yaml`` that name forms for ``locale`` (absent file: no terms)."""
    path = pack_root / GLOSSARY_NAME
    if not path.is_file():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    terms = []
    for entry in data.get("terms", []):
        forms = entry.get(locale)
        if not forms:
            continue
        # "source" names the source-language term when the pack is not written in English
        source = str(entry["source"] if "source" in entry else entry["en"])
        pattern = re.compile(rf"(?<!\w){re.escape(source)}(?!\w)", re.IGNORECASE)
        terms.append(GlossaryTerm(source, tuple(str(f) for f in forms), pattern))
    return tuple(terms)


def localizer_for(card_set: CardSet, game_name: str, locale: str) -> Localizer:
    """A localizer reading the catalogs of every pack in the set for ``locale``."""
    manifest = card_set.base.manifest
    catalog: dict[tuple[str, str], str] = {}
    if locale != manifest.source_locale:
        for pack in card_set.packs:
            po = pack.root / "locales" / f"{locale}.po"
            if po.is_file():
                catalog.update(load_catalog(po))
    return Localizer(game=game_name, locale=locale, source_locale=manifest.source_locale,
                     catalog=catalog)


def _message_findings(source: str, translated: str | None, where: Location, card: str | None,
                      locale: str, what: str, strict: bool, glossary: tuple[GlossaryTerm, ...]
                      ) -> list[Finding]:
    findings: list[Finding] = []
    if not translated:
        make = error if strict else warning
        findings.append(make("missing-translation",
                             f"{what} has no {locale} translation; printing the source text",
                             where, card, locale))
        return findings
    if sorted(_TOKEN.findall(source)) != sorted(_TOKEN.findall(translated)):
        findings.append(error(
            "translation-tokens",
            f"{what}: the translation's icons/placeholders {sorted(_TOKEN.findall(translated))} "
            f"differ from the source's {sorted(_TOKEN.findall(source))}", where, card, locale))
    lowered = translated.lower()
    for term in glossary:
        if term.pattern.search(source) and not any(f.lower() in lowered for f in term.accepted):
            findings.append(warning(
                "glossary-term",
                f"{what}: the source says '{term.source}' but the translation uses none of the "
                f"glossary's forms ({', '.join(term.accepted)})", where, card, locale))
    return findings


def _glyph_findings(text: str, where: Location, card: str | None, locale: str,
                    what: str, styles: tuple[str, ...] = TEXT_STYLES) -> list[Finding]:
    plain = _TOKEN.sub("", text)
    missing = sorted({ch for style in styles for ch in missing_glyphs(plain, style)})
    return [error("missing-glyph",
                  f"{what}: the font has no glyph for {ch!r} (U+{ord(ch):04X}); it would print "
                  "as an empty box", where, card, locale) for ch in missing]


def _card_texts(card: Card) -> list[tuple[str, str, str]]:
    """(yaml key, context, source text) of a card's translatable fields."""
    return [(card.yaml_key(attr), field_context(card.id, card.yaml_key(attr)), text)
            for attr, text in card.text_fields().items()]


def check_locale(card_set: CardSet, game: Game, locale: str, strict: bool = False,
                 layout: bool = True, localizer: Localizer | None = None) -> list[Finding]:
    """Every finding of one locale; the source locale gets the glyph and fitting checks only."""
    localizer = localizer or localizer_for(card_set, game.name, locale)
    findings: list[Finding] = []
    translating = not localizer.is_source
    styles = game.data.text_styles if game.data is not None else TEXT_STYLES
    for pack in card_set.packs:
        glossary = load_glossary(pack.root, locale) if translating else ()
        for card in pack.cards:
            for key, context, source in _card_texts(card):
                where = card.source.of(key)
                translated = localizer.catalog.get((context, source)) if translating else source
                what = f"{card.kind} {key}"
                if translating:
                    findings += _message_findings(source, translated, where, card.id, locale,
                                                  what, strict, glossary)
                findings += _glyph_findings(translated or source, where, card.id, locale, what,
                                            styles)
    folder = data_template_folder(game.name)
    labels_file = Location(f"templates/{game.name}/labels.yaml" if folder is None
                           else display_path(folder / "labels.yaml"))
    if translating:
        base_glossary = load_glossary(card_set.base.root, locale)
        for message in label_messages(game.name):
            text = message.source
            translated = localizer.catalog.get((LABEL_CONTEXT, text))
            findings += _message_findings(text, translated, labels_file, None, locale,
                                          f"label '{text}'", strict, base_glossary)
            if translated:
                findings += _glyph_findings(translated, labels_file, None, locale,
                                            f"label '{text}'", styles)
    if layout and game.faces is not None:
        faces = lay_out_cards(card_set, game, localizer, bleed_mm=0.0)
        findings += faces.findings
    return findings

