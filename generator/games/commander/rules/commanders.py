"""Commander cards held to the rules' named commanders (L29-L41): the Pirate, the Trader and the
Procurator win by an extra condition with one number in it (70 resources, 7 chips, 5 objects).

A card prints that condition in the pack's own words; the number is the rule's. A card is one of
them when it says so (``archetype:``, for any language) or when its source-language name is the
rules' name for it (ru, en); its victory text then prints the rule's number, in the card file and
in every translation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.commander.model import Commander
from generator.games.commander.rules.registry import E, check
from generator.games.commander.rules.release import name_key
from generator.games.commander.tables import ARCHETYPES
from generator.i18n.translations import printed_texts
from generator.model.cards import CardSet

ARCHETYPE = check("commander-archetype", "card", E, "L33, L35, L37",
                  "a commander named as one the rules name (Пират, Торговец, Прокуратор) is "
                  "that commander: its archetype, if written, is that one")
VICTORY = check("commander-victory-value", "card", E, "L33, L35, L37",
                "a named commander's victory text prints the rule's number (Pirate 70, "
                "Trader 7, Procurator 5) and no other, in every language")

__all__ = ["check_commanders"]

_NUMBER = re.compile(r"\d+")


def _named(card: Commander, language: str) -> str | None:
    """The archetype the card's source-language name makes it, if any."""
    for key, archetype in ARCHETYPES.items():
        name = archetype.names.get(language)
        if name is not None and name_key(name) == name_key(card.name):
            return key
    return None


def _victory(card_set: CardSet, card: Commander, key: str) -> Iterator[Finding]:
    archetype = ARCHETYPES[key]
    where = card.source.of("victory")
    for locale, text in printed_texts(card_set, card, "victory"):
        numbers = sorted({int(n) for n in _NUMBER.findall(text)})
        if numbers != [archetype.number]:
            shown = ", ".join(map(str, numbers)) or "no number"
            whose = f"the {locale} translation of " if locale else ""
            yield VICTORY(f"{whose}the {key}'s victory text prints {shown}; the rules' "
                          f"condition is {archetype.what}", where, card.id,
                          rule=archetype.rule, locale=locale)


def check_commanders(card_set: CardSet) -> list[Finding]:
    findings: list[Finding] = []
    for pack in card_set.packs:
        for card in pack.cards:
            if not isinstance(card, Commander):
                continue
            named = _named(card, pack.manifest.source_locale)
            if named is not None and card.archetype not in (None, named):
                findings.append(ARCHETYPE(
                    f"'{card.name}' is the rules' {named}, but the card says archetype: "
                    f"{card.archetype}", card.source.of("archetype"), card.id,
                    rule=ARCHETYPES[named].rule))
            key = card.archetype or named
            if key in ARCHETYPES and card.victory.strip():
                findings.extend(_victory(card_set, card, key))
    return findings
