"""The checking half of the pipeline (load -> schema -> model -> rules), base plus expansions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator import crosspack
from generator.findings import Finding
from generator.games.base import Game
from generator.model import CardSet
from generator.pack import PackLoad, display_path, load_pack


@dataclass(slots=True)
class Validation:
    card_set: CardSet | None
    game: Game | None
    findings: list[Finding] = field(default_factory=list)


def _loaded(load: PackLoad, fallback: Game) -> crosspack.LoadedPack:
    assert load.pack is not None
    return crosspack.LoadedPack(load.pack, load.game or fallback)


def validate(base: Path, expansions: tuple[Path, ...] = ()) -> Validation:
    """Load the base pack and its expansions and run every check that needs no locale."""
    base_load = load_pack(base)
    result = Validation(card_set=None, game=base_load.game, findings=list(base_load.findings))
    expansion_loads: list[PackLoad] = []
    for path in expansions:
        load = load_pack(path, base_load.game)
        result.findings.extend(load.findings)
        if load.pack is not None and base_load.pack is not None:
            result.findings.extend(crosspack.expansion_fits(base_load.pack.manifest,
                                                            load.pack.manifest))
            expansion_loads.append(load)
    if base_load.pack is None or base_load.game is None:
        return result
    card_set = CardSet(base=base_load.pack,
                       expansions=tuple(load.pack for load in expansion_loads if load.pack))
    result.card_set = card_set
    game = base_load.game
    generic = crosspack.check_packs(
        _loaded(base_load, game), tuple(_loaded(load, game) for load in expansion_loads),
        card_set, display_path(base_load.pack.root))
    own = game.check(card_set)
    result.findings.extend(crosspack.without_refined(generic, own))
    result.findings.extend(own)
    return result
