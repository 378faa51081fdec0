"""The checking half of the pipeline (load -> schema -> model -> rules), base plus expansions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.findings import Finding, error, warning
from generator.games.base import Game
from generator.location import Location
from generator.model import CardSet
from generator.pack import PackLoad, display_path, load_pack


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


def _manifest_field(load: PackLoad, name: str) -> Location:
    """Where ``name`` is written in a loaded pack's game.yaml (the manifest itself if absent)."""
    assert load.pack is not None
    manifest = load.pack.manifest
    doc = load.documents.get(manifest.location.file)
    return doc.where((name,)) if doc is not None else manifest.location


def _set_marks(base: PackLoad, expansions: list[PackLoad]) -> list[Finding]:
    """Each expansion has a set mark of its own, so that its cards can be sorted back out of the
    combined deck; in particular it never reuses the base game's mark (the CWNB anchor)."""
    findings: list[Finding] = []
    assert base.pack is not None
    owners = {base.pack.manifest.set_mark: base.pack.manifest.pack}
    for load in expansions:
        assert load.pack is not None
        manifest = load.pack.manifest
        owner = owners.setdefault(manifest.set_mark, manifest.pack)
        if owner != manifest.pack:
            findings.append(error(
                "expansion-set-mark",
                f"expansion '{manifest.pack}' uses set_mark '{manifest.set_mark}', which is the "
                f"mark of pack '{owner}'; an expansion needs a mark of its own so that its cards "
                "can be told apart", _manifest_field(load, "set_mark")))
    return findings


def _lone_expansion(base: PackLoad) -> list[Finding]:
    """An expansion validated on its own: its cards are checked, but not the deck they join."""
    assert base.pack is not None
    manifest = base.pack.manifest
    if manifest.extends is None:
        return []
    return [warning(
        "expansion-without-base",
        f"pack '{manifest.pack}' extends '{manifest.extends}'; deck composition and "
        f"cross-checks need the base game: pnp validate <{manifest.extends} pack> --with "
        f"{display_path(base.pack.root)}", _manifest_field(base, "extends"))]


def _expansion_fits(base_game: str, base_pack: str, expansion_load: PackLoad) -> list[Finding]:
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
    expansion_loads: list[PackLoad] = []
    for path in expansions:
        load = load_pack(path, base_load.game)
        result.findings.extend(load.findings)
        if load.pack is not None and base_load.pack is not None:
            result.findings.extend(_expansion_fits(base_load.pack.manifest.game,
                                                   base_load.pack.manifest.pack, load))
            expansion_loads.append(load)
    if base_load.pack is None or base_load.game is None:
        return result
    card_set = CardSet(base=base_load.pack,
                       expansions=tuple(load.pack for load in expansion_loads if load.pack))
    result.card_set = card_set
    result.findings.extend(_set_marks(base_load, expansion_loads))
    result.findings.extend(_lone_expansion(base_load))
    result.findings.extend(_cross_pack_ids(card_set))
    result.findings.extend(base_load.game.check(card_set))
    return result
