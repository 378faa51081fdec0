"""Bad input of any shape ends in findings, never in an exception (a seeded, repeatable fuzz)."""

from __future__ import annotations

import random
from pathlib import Path

import fuzzing
from conftest import CWNB, write_pack
from fuzzing import mutate_bytes

from generator.pipeline.validate import validate


def test_mutated_card_files_never_raise(tmp_path):
    rng = random.Random(20261122)
    source = (CWNB / "ships.yaml").read_bytes()[:6000]
    game = (CWNB / "game.yaml").read_text(encoding="utf-8")
    outcomes = set()
    for attempt in range(120):
        pack = write_pack(tmp_path / f"p{attempt}", {"ships.yaml": mutate_bytes(source, rng)},
                          game)
        result = validate(pack)
        outcomes.update(f.code for f in result.findings)
        for finding in result.findings:
            assert finding.location.file.endswith("ships.yaml") or \
                finding.location.file.endswith("game.yaml")
            assert finding.location.line > 0, finding.as_text()
    assert {"yaml-syntax"} <= outcomes  # the fuzz really produced broken files


def test_mutated_manifests_never_raise(tmp_path):
    rng = random.Random(7)
    game = (CWNB / "game.yaml").read_bytes()
    for attempt in range(60):
        pack = write_pack(tmp_path / f"g{attempt}", {})
        (pack / "game.yaml").write_bytes(mutate_bytes(game, rng))
        for finding in validate(pack).findings:
            assert finding.location.line > 0, finding.as_text()


def test_whole_runs_on_attacked_packs_end_cleanly():
    """A small budget of the ``make fuzz`` campaign: forked pnp runs on attacked copies of the
    shipped packs; no crash, hang, memory blow-up, internal error, unlocated finding or odd
    exit code."""
    outcomes = fuzzing.campaign(seed=7, numbers=list(range(24)), jobs=1)
    failures = [(o.case.number, o.classes, o.case.attack, o.case.command, o.detail)
                for o in outcomes if o.classes]
    assert not failures, fuzzing.table(outcomes, 0)
    assert len({o.case.kind for o in outcomes}) >= 4  # the cases really attack varied files
    assert {o.exit_code for o in outcomes} >= {0, 1}


NEW_CLASSES = ("svg-outside", "svg-raster", "xlsx-xml", "cel", "po-charset")


def _first_cases(seed: int, attacks: tuple[str, ...], each: int) -> list[int]:
    """The first ``each`` case numbers of the campaign that make each of ``attacks``."""
    sources = fuzzing.shipped_sources()
    found: dict[str, list[int]] = {attack: [] for attack in attacks}
    for number in range(3000):
        attack = fuzzing.make_case(seed, number, sources)[0].attack
        if attack in found and len(found[attack]) < each:
            found[attack].append(number)
        if all(len(numbers) == each for numbers in found.values()):
            break
    return sorted(n for numbers in found.values() for n in numbers)


def test_the_attack_classes_of_issue_24_end_cleanly():
    """Outside references, embedded pictures, workbook XML, CEL nesting, charsets: two cases
    of each from the ``make fuzz`` campaign (seed 13)."""
    outcomes = fuzzing.campaign(seed=13, numbers=_first_cases(13, NEW_CLASSES, 2), jobs=1)
    failures = [(o.case.number, o.classes, o.case.attack, o.case.command, o.detail)
                for o in outcomes if o.classes]
    assert not failures, fuzzing.table(outcomes, 0)
    assert {o.case.attack.split(":")[0] for o in outcomes} == set(NEW_CLASSES)


def test_the_campaign_sees_a_leak(monkeypatch):
    """With pnp's reference check and svglib's reference root both taken away, the campaign's
    case 183 (seed 13: a build of an SVG naming the files beside the pack) prints their bytes,
    and the leak class says so."""
    from generator.load import art

    monkeypatch.setattr(art, "_follow", lambda *_: None)
    monkeypatch.setattr(art, "pack_folder", lambda path: Path("/"))  # all is inside
    [outcome] = fuzzing.campaign(seed=13, numbers=[183], jobs=1)
    assert outcome.case.attack == "svg-outside" and outcome.classes == ["leak"], outcome
