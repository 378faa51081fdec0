"""Deck files (``decks/*.yaml``): which cards of a card set a player brings, and how many.

The generic part checks the file (YAML, the game's deck schema) and resolves every card
reference against the loaded card set; what makes a deck legal is the game module's business.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from generator.core.findings import Finding, error
from generator.core.limits import MAX_PACK_ENTRIES
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.load.packfiles import PackFolder, load_user_yaml
from generator.load.yamldoc import YamlDocument
from generator.model.cards import Card, CardSet
from generator.schema import check as schemacheck

if TYPE_CHECKING:
    from generator.model.game import Game

GENERIC_DECK_SCHEMA = ("generator.schema", "deck.schema.json")


class DeckEntry(Struct, frozen=True):
    card: Card
    count: int
    location: Location


class Deck(PartlyCompared, Struct, frozen=True):
    """A loaded deck; the document it was read from is left out of equality and hash."""

    name: str
    file: str
    entries: tuple[DeckEntry, ...]
    #: the whole validated document, for game-specific fields (e.g. a commander)
    data: Mapping[str, object] = {}
    document: YamlDocument | None = None

    _UNCOMPARED = frozenset({"document"})

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    def where(self, *path: str | int) -> Location:
        if self.document is None:
            return Location(self.file)
        return self.document.where(tuple(path))


def load_deck(path: Path, display: str, card_set: CardSet, schema: tuple[str, str] | None,
              folder: PackFolder | None = None) -> tuple[Deck | None, list[Finding]]:
    """Load a deck file and resolve its card ids; problems become findings. A deck found in a
    pack folder (``folder``) is read under the pack file policy, one the user named as is."""
    doc, findings = _deck_document(path, display, schema, folder)
    if doc is None:
        return None, findings
    by_id = {card.id: card for card in card_set.cards}
    entries: list[DeckEntry] = []
    for index, item in enumerate(doc.data["cards"]):
        card_id = str(item["card"])
        where = doc.where(("cards", index, "card"))
        card = by_id.get(card_id)
        if card is None:
            findings.append(error(
                "deck-unknown-card",
                f"deck names card '{card_id}', which no loaded pack has"
                f"{schemacheck.did_you_mean(card_id, sorted(by_id))}", where, card_id))
            continue
        entries.append(DeckEntry(card, int(item.get("count", 1)),
                                 doc.where(("cards", index))))
    deck = Deck(name=str(doc.data.get("name", path.stem)), file=display,
                entries=tuple(entries), data=doc.data, document=doc)
    return deck, findings


def _deck_document(path: Path, display: str, schema: tuple[str, str] | None,
                   folder: PackFolder | None) -> tuple[YamlDocument | None, list[Finding]]:
    """A deck file read and checked as a file: YAML, a mapping, the deck schema."""
    if folder is not None:
        doc, findings = folder.load_yaml(folder.file_at(path), "deck")
    else:
        doc, findings = load_user_yaml(path, "deck", display)
    if doc is None:
        return None, findings
    if not isinstance(doc.data, Mapping):
        return None, [error("not-a-mapping", "a deck file must be a mapping with a 'cards:' "
                            f"list, not {schemacheck.describe_type(doc.data)}", doc.where(()))]
    package, name = schema or GENERIC_DECK_SCHEMA
    findings = schemacheck.check(doc, package, name)
    return (None, findings) if findings else (doc, [])


def deck_counts(deck: Deck) -> dict[str, int]:
    """How many copies of each card the deck holds (a card listed twice adds up)."""
    counts: dict[str, int] = {}
    for entry in deck.entries:
        counts[entry.card.id] = counts.get(entry.card.id, 0) + entry.count
    return counts


#: deck files a pack folder holds (``decks/*.yaml``), as ``--deck`` reads them
DECK_FOLDER = "decks"
_DECK_SUFFIXES = (".yaml", ".yml")


def pack_deck_findings(root: Path, game: Game) -> list[Finding]:
    """Every deck file of a pack folder, checked as a file: read under the pack file policy, its
    YAML and the game's deck schema (the generic one for a game without). A broken or
    unreadable deck passed validate and build before; a player met it only when naming it with
    ``--deck``, which also checks its cards and the deck rules (those depend on the cards a
    run loads, and a deck short of a card the pack refused would only repeat that finding)."""
    folder = PackFolder(root)
    try:
        names = sorted(entry.name for entry in islice(os.scandir(root / DECK_FOLDER),
                                                      MAX_PACK_ENTRIES)
                       if entry.name.lower().endswith(_DECK_SUFFIXES)
                       and not entry.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        return [error("unreadable", f"the decks folder cannot be read: {exc.strerror or exc}",
                      Location(str(root / DECK_FOLDER)))]
    schema = (game.schema_package, game.deck_schema) if game.deck_schema else None
    findings: list[Finding] = []
    for name in names:
        path = root / DECK_FOLDER / name
        findings += _deck_document(path, folder.file_at(path).display, schema, folder)[1]
    return findings


def load_checked_deck(given: Path, pack: Path, card_set: CardSet, game: Game,
                      need_rules: bool = True) -> tuple[Deck | None, list[Finding]]:
    """Load a deck file named on the command line and check it against the game's deck rules.

    The file is looked up as given, then inside the pack (``--deck decks/x.yaml``). A game
    without deck rules still has decks to print (``need_rules=False``): a plain list of cards
    and counts, checked against the generic deck schema."""
    from generator.core.errors import UsageError
    from generator.core.location import display_path

    in_pack = not (os.path.lexists(given) or given.is_absolute())
    path = pack / given if in_pack else given
    if not os.path.lexists(path):
        raise UsageError(f"{display_path(given)}: no such deck file")
    if need_rules and game.deck_schema is None and not game.deck_rules:
        raise UsageError(f"game '{game.name}' has no decks to check")
    schema = (game.schema_package, game.deck_schema) if game.deck_schema else None
    # a deck found inside the pack is a pack file (its policy applies); one named as it is
    # on the command line is the user's own choice
    deck, findings = load_deck(path, display_path(path), card_set, schema,
                               PackFolder(pack) if in_pack else None)
    if deck is not None:
        findings += game.check_deck(deck, card_set)
    if deck is None and _pack_deck(path, pack):  # the file's own problems: validate has
        findings = []                              # reported them (pack_deck_findings)
    return deck, findings


def _pack_deck(path: Path, pack: Path) -> bool:
    """Is ``path`` one of the deck files :func:`pack_deck_findings` checks?"""
    try:
        return (path.suffix.lower() in _DECK_SUFFIXES and not path.name.startswith(".")
                and path.resolve().parent == (pack / DECK_FOLDER).resolve())
    except OSError:
        return False
