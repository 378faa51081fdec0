"""The checking half of the pipeline: load -> schema -> model -> rules, over a base and expansions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.findings import Finding, error
from generator.games.base import Game
from generator.location import Location
from generator.model import CardSet
from generator.pack import load_pack


@dataclass(slots=True)
class Validation:
    card_set: CardSet | None
    game: Game | None
    findings: list[Finding] = field(default_factory=list)


def _cross_pack_ids(card_set: CardSet) -> list[Finding]:
    """Ids are unique across a base game and every expansion loaded with it."""
    findings: list[Finding] = []
    seen: dict[str, Location] = {}
    for pack in card_set.packs:
        for card in pack.cards:
            if card.id in seen and seen[card.id].file != card.source.location.file:
                findings.append(error(
                    "duplicate-id",
                    f"card id '{card.id}' is already used at {seen[card.id]}",
                    card.source.of("id"), card.id))
            seen.setdefault(card.id, card.source.of("id"))
    return findings


def _expansion_fits(base_game: str, base_pack: str, expansion_load) -> list[Finding]:
    pack = expansion_load.pack
    manifest = pack.manifest
    findings: list[Finding] = []
    if manifest.extends != base_pack:
        findings.append(error(
            "not-an-expansion",
            f"pack '{manifest.pack}' is loaded with '{base_pack}' but its game.yaml "
            f"{'extends ' + repr(manifest.extends) if manifest.extends else 'has no extends:'}",
            manifest.location))
    if manifest.game != base_game:
        findings.append(error(
            "wrong-game", f"pack '{manifest.pack}' is for game '{manifest.game}', "
            f"not '{base_game}'", manifest.location))
    return findings


def validate(base: Path, expansions: tuple[Path, ...] = ()) -> Validation:
    """Load the base pack and its expansions and run every check that needs no locale."""
    base_load = load_pack(base)
    result = Validation(card_set=None, game=base_load.game, findings=list(base_load.findings))
    expansion_packs = []
    for path in expansions:
        load = load_pack(path)
        result.findings.extend(load.findings)
        if load.pack is not None and base_load.pack is not None:
            result.findings.extend(_expansion_fits(base_load.pack.manifest.game,
                                                   base_load.pack.manifest.pack, load))
            expansion_packs.append(load.pack)
    if base_load.pack is None or base_load.game is None:
        return result
    card_set = CardSet(base=base_load.pack, expansions=tuple(expansion_packs))
    result.card_set = card_set
    result.findings.extend(_cross_pack_ids(card_set))
    result.findings.extend(base_load.game.check(card_set))
    return result
