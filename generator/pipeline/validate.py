"""The checking half of the pipeline (load -> schema -> model -> rules), base plus expansions."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from msgspec import Struct, field
from msgspec.structs import replace

from generator.core.findings import Finding, error, warning
from generator.core.limits import MAX_CARDS, MAX_COPIES
from generator.core.location import Location, display_path
from generator.load.packfiles import MANIFEST_NAME
from generator.load.yamldoc import YamlDocument
from generator.model.cards import CardSet, Pack
from generator.model.deck import pack_deck_findings
from generator.model.game import Game
from generator.pipeline import crosspack
from generator.pipeline.cardgeometry import card_geometry_findings
from generator.pipeline.pack import PackLoad, load_pack
from generator.rules import verdicts as rule_verdicts
from generator.rules.basepack import missing_kinds
from generator.runtime.gcpause import collector_paused


class Validation(Struct):
    card_set: CardSet | None
    game: Game | None
    findings: list[Finding] = field(default_factory=list)
    #: every document the packs' files were read into, by file name as findings show it (the
    #: studio edits cards from them, those that failed their schema too)
    documents: dict[str, YamlDocument] = field(default_factory=dict)


def _loaded(load: PackLoad, fallback: Game) -> crosspack.LoadedPack:
    assert load.pack is not None
    return crosspack.LoadedPack(load.pack, load.game or fallback)


def _card_limits(card_set: CardSet) -> list[Finding]:
    """The ceilings on a whole card set (base and expansions): rules and layout run over every
    card and every copy, so their number is bounded like every other dimension of input."""
    cards = card_set.cards
    where = card_set.base.manifest.location
    copies = sum(card.count for card in cards)
    if len(cards) > MAX_CARDS:
        return [error("too-many-cards", f"the card set holds {len(cards)} cards; the limit "
                      f"is {MAX_CARDS}", where)]
    if copies > MAX_COPIES:
        return [error("too-many-copies", f"the card set prints {copies} copies; the limit is "
                      f"{MAX_COPIES}", where)]
    return []


def _distinct_packs(base: Path, expansions: tuple[Path, ...]) -> tuple[list[Path],
                                                                        list[Finding]]:
    """Expansions minus any folder already given (``--with x --with x/``, or the base itself):
    each pack is read once, as a user repeating a folder means it once; the repetition is
    named in a warning, in case another folder was meant."""
    seen = {os.path.realpath(base): base}
    distinct: list[Path] = []
    findings: list[Finding] = []
    for path in expansions:
        real = os.path.realpath(path)
        if real in seen:
            findings.append(warning(
                "pack-given-twice", f"pack folder {display_path(path)} is given twice on the "
                f"command line (also as {display_path(seen[real])}); it is read once",
                Location(display_path(path / MANIFEST_NAME), 1, 1)))
            continue
        seen[real] = path
        distinct.append(path)
    return distinct, findings


def _with_failed(card_set: CardSet, loads: tuple[PackLoad, ...]) -> CardSet:
    """The card set with each pack's cards that failed their schema (see ``PackLoad.failed``)
    added after its own, for the checks that can take them (itself when there are none)."""
    failed = {load.pack.manifest.pack: load.failed for load in loads
              if load.pack is not None and load.failed}
    if not failed:
        return card_set

    def more(pack: Pack) -> Pack:
        return replace(pack, cards=(*pack.cards, *failed.get(pack.manifest.pack, ())))

    return CardSet(base=more(card_set.base), expansions=tuple(map(more, card_set.expansions)))


#: called with the card set and game once they are loaded, before the rule checks
CardSetReady = Callable[[CardSet, Game], None]


def validate(base: Path, expansions: tuple[Path, ...] = (),
             on_card_set: CardSetReady | None = None) -> Validation:
    """Load the base pack and its expansions and run every check that needs no locale.
    ``on_card_set`` is told of the card set as soon as it is loaded, before the rule checks
    run: a caller can start work on it there (``pnp validate`` starts the layout's forked half,
    which then runs beside the checks)."""
    with collector_paused():  # tens of thousands of cards and locations, no cycles
        return _validate(base, expansions, on_card_set)


def _validate(base: Path, expansions: tuple[Path, ...],
              on_card_set: CardSetReady | None) -> Validation:
    base_load = load_pack(base)
    result = Validation(card_set=None, game=base_load.game, findings=list(base_load.findings),
                        documents=dict(base_load.documents))
    expansion_loads: list[PackLoad] = []
    distinct, repeated = _distinct_packs(base, expansions)
    result.findings.extend(repeated)
    for path in distinct:
        load = load_pack(path, base_load.game)
        result.findings.extend(load.findings)
        result.documents.update(load.documents)
        if load.pack is not None and base_load.pack is not None:
            result.findings.extend(crosspack.expansion_fits(base_load.pack.manifest,
                                                            load.pack.manifest))
            expansion_loads.append(load)
    if base_load.pack is None or base_load.game is None:
        return result
    card_set = CardSet(base=base_load.pack,
                       expansions=tuple(load.pack for load in expansion_loads if load.pack))
    result.card_set = card_set
    limits = _card_limits(card_set)
    if limits:
        result.findings.extend(limits)
        return result
    game = base_load.game
    if on_card_set is not None:
        on_card_set(card_set, game)
    checked = _with_failed(card_set, (base_load, *expansion_loads))
    generic = crosspack.check_packs(
        _loaded(base_load, game), tuple(_loaded(load, game) for load in expansion_loads),
        card_set, display_path(base_load.pack.root), ids=checked)
    # a game that checks cards from their sound fields sees those that failed their schema
    # (a set found clean before is not checked again: generator.rules.verdicts)
    own = rule_verdicts.checked(game, checked if checked is not card_set
                                and any(kind.partial for kind in game.kinds.values())
                                else card_set)
    result.findings.extend(crosspack.without_refined(generic, own))
    result.findings.extend(own)
    result.findings.extend(card_geometry_findings(card_set, game))
    if not any(f.severity == "error" for f in result.findings):  # not a missing file's echo
        result.findings.extend(missing_kinds(card_set, game))
    for pack in card_set.packs:  # every decks/*.yaml as a file (issue 24)
        result.findings.extend(pack_deck_findings(pack.root, game))
    return result
