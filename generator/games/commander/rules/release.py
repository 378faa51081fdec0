"""Release-level checks: the serial numbers of a pack's cards and the names the deck limit counts.

Every card shows its number in the release as "017/064" (L319). The total is declared once, in
game.yaml (``options: {release_size: 64}``), so that adding a card is one edit; these checks keep
the declaration, the numbers and the cards in agreement.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.games.commander.model import CommanderCard
from generator.games.commander.rules.registry import E, W, check
from generator.model.cards import CardSet, Pack

SERIAL_DUPLICATE = check("commander-serial-duplicate", "release", E, "L319",
                         "each card of a release has a number of its own")
SERIAL_TOTAL = check("commander-serial-total", "release", E, "L319",
                     "a release_size declared in game.yaml is the number of cards in the "
                     "release, and every card number lies within it (without one, cards "
                     "print their number alone)")
SERIAL_GAP = check("commander-serial-gap", "release", W, "L319",
                   "the numbers of a release run from 1 to its size without gaps")
NAME_SHARED = check("commander-name-shared", "release", W, "L45, L309",
                    "distinct cards have distinct names, in a pack and across a base pack and "
                    "its expansions (the 4-copy limit counts cards by name, ё as е, quote "
                    "marks and dashes aside)")

RELEASE_SIZE = "release_size"


#: typography that prints one name two ways: quotes of every kind, apostrophes, dashes
_TYPOGRAPHY = str.maketrans({**dict.fromkeys("\"'«»„“”‟‚‘’‛‹›`´", ""),
                             **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212",
                                             "-")})


def name_key(name: str) -> str:
    """Names compare case- and spacing-blind, ё as е, and whatever their quote marks and
    dashes, as a player reads them: «Экзорцист» and "Экзорцист" are one name (L45)."""
    folded = unicodedata.normalize("NFKC", name).casefold().replace("ё", "е")
    return " ".join(folded.translate(_TYPOGRAPHY).split())


def release_size(pack: Pack) -> int | None:
    value = pack.manifest.options.get(RELEASE_SIZE)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _numbers(pack: Pack) -> Iterator[Finding]:
    cards = [c for c in pack.cards if isinstance(c, CommanderCard)]
    total = release_size(pack)
    where = pack.manifest.location
    # a pack without release_size prints each number alone ("017"): the rules ask only that a
    # card shows its number in the release (L319), not the release's size (a booster)
    if total is not None and total != len(cards):
        yield SERIAL_TOTAL(f"{RELEASE_SIZE} is {total} but the pack holds {len(cards)} "
                           "distinct cards", where)
    seen: dict[int, CommanderCard] = {}
    for card in cards:
        first = seen.setdefault(card.number, card)
        if first is not card:
            yield SERIAL_DUPLICATE(f"number {card.number} is already card '{first.id}' "
                                   f"({first.source.of('number')})", card.source.of("number"),
                                   card.id)
        if total is not None and card.number > total:
            yield SERIAL_TOTAL(f"number {card.number} is beyond the release size {total}",
                               card.source.of("number"), card.id)
    if total is not None and total == len(cards):  # so the range below is as long as the pack
        missing = [n for n in range(1, total + 1) if n not in seen]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            yield SERIAL_GAP(f"no card has number(s) {shown}", where)


def _names(card_set: CardSet) -> Iterator[Finding]:
    """Across the base pack and its expansions too: a deck mixes them, and the 4-copy limit
    counts an expansion's card together with a base card of the same name."""
    first: dict[str, CommanderCard] = {}
    for card in card_set.cards:
        if not isinstance(card, CommanderCard):
            continue
        other = first.setdefault(name_key(card.name), card)
        if other is card:
            continue
        where = "" if other.pack == card.pack else f" of pack '{other.pack}'"
        yield NAME_SHARED(f"'{card.name}' is also the name of card '{other.id}'{where}; a deck "
                          "may hold 4 cards of one name in all, so the two count together",
                          card.source.of("name"), card.id)


def check_release(card_set: CardSet) -> list[Finding]:
    findings: list[Finding] = []
    for pack in card_set.packs:
        findings.extend(_numbers(pack))
    findings.extend(_names(card_set))
    return findings
