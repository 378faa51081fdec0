"""Validation lays out a large set in two processes; its findings must be those of one run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import CWNB, run_pnp

from generator.impose.sheets import SheetOptions
from generator.layout import faces as cardfaces
from generator.pipeline.build import build
from generator.pipeline.localecheck import localizer_for
from generator.pipeline.validate import validate
from generator.runtime import forked

TOO_LONG = "Admiral of the Fleet Sergey Georgiyevich Gorshkov the Indomitable Reformer"
ALSO_TOO_LONG = ("Almirante Guillermo Brown, Padre de la Armada Argentina y de la Flota del Sur, "
                 "Vencedor de Martín García y de Juncal")
EXPANSION = """\
pack: split-test
game: cwnb
name: Split test
version: "1.0"
source_locale: en
locales: [en]
set_mark: split
set_mark_label: S
card_size: poker
extends: cwnb
"""


def _expansion(root: Path, ships: int, names: dict[int, str]) -> Path:
    """``ships`` legal ships made from the base game's profiles; ``names`` overrides some."""
    profiles = yaml.safe_load((CWNB / "ships.yaml").read_text(encoding="utf-8"))["cards"]
    pack = root / "split"
    pack.mkdir()
    (pack / "game.yaml").write_text(EXPANSION, encoding="utf-8")
    cards = []
    for n in range(ships):
        card = dict(profiles[n % len(profiles)])
        card.update(id=f"split-{n}", name=names.get(n, f"{card['name']} {n}"), count=1)
        cards.append(card)
    (pack / "ships.yaml").write_text(yaml.safe_dump({"cards": cards}, sort_keys=False),
                                     encoding="utf-8")
    return pack


def test_two_halves_find_what_one_run_finds(tmp_path: Path, monkeypatch) -> None:
    # the same overflow on a card of each half (one finding counting the other), and one
    # only in the second half (it must come back from the forked process)
    pack = _expansion(tmp_path, 1200, {3: TOO_LONG, 700: TOO_LONG, 900: TOO_LONG,
                                       1100: ALSO_TOO_LONG})
    result = validate(CWNB, (pack,))
    assert result.card_set is not None and result.game is not None
    assert len(result.card_set.cards) > cardfaces.SPLIT_CARDS
    localizer = localizer_for(result.card_set, result.game.name, "en")
    splits = []

    def counted(there):
        splits.append(1)
        return forked.Forked(there)

    monkeypatch.setattr(cardfaces, "Forked", counted)
    monkeypatch.setenv("PNP_JOBS", "2")
    halves = cardfaces.layout_findings(result.card_set, result.game, localizer)
    whole = cardfaces.lay_out_cards(result.card_set, result.game, localizer, 0.0).findings
    assert splits == [1], "a set this large is laid out in two processes"
    assert halves == whole
    overflows = [f for f in halves if f.code == "text-overflow"]
    lines = (pack / "ships.yaml").read_text(encoding="utf-8").splitlines()
    assert [(f.card, f.message.split()[0], lines[f.location.line - 1].split(":")[0].strip())
            for f in overflows] == [("split-3", "front", "name"), ("split-1100", "front", "name"),
                                    ("split-1100", "back", "name")]
    assert overflows[0].message.endswith("(the same on 2 more card faces)")
    assert not any("more card face" in f.message for f in overflows[1:])

    monkeypatch.setenv("PNP_JOBS", "1")  # one core asked for: one process
    assert cardfaces.layout_findings(result.card_set, result.game, localizer) == whole
    assert splits == [1]


def test_a_shared_face_is_reported_once_as_in_one_run(tmp_path: Path, monkeypatch) -> None:
    """A back every card shares is laid out by the first half only: its overflow is one
    finding with no repeat count, as when one process lays out the whole set."""
    game = tmp_path / "game"
    assert run_pnp("new", str(game)).returncode == 0
    back = game / "templates" / "back.yaml"
    written = back.read_text(encoding="utf-8")
    longer = re.sub(r'label: "[^"]*"', 'label: "' + " ".join(["Interminable"] * 40) + '"',
                    written)
    assert longer != written
    back.write_text(longer, encoding="utf-8")
    rows = [f"s{n},spell,Spell {n},1,Deal {n % 7} damage.,art/spell.svg" for n in range(1200)]
    spells = game / "spells.csv"
    spells.write_text(spells.read_text(encoding="utf-8") + "\n".join(rows) + "\n",
                      encoding="utf-8")
    result = validate(game, ())
    assert result.card_set is not None and result.game is not None
    localizer = localizer_for(result.card_set, result.game.name, "en")
    monkeypatch.setenv("PNP_JOBS", "2")
    halves = cardfaces.layout_findings(result.card_set, result.game, localizer)
    whole = cardfaces.lay_out_cards(result.card_set, result.game, localizer, 0.0).findings
    assert halves == whole
    backs = [f for f in halves if f.code == "text-overflow" and f.message.startswith("back")]
    assert len(backs) == 1 and "more card face" not in backs[0].message


def test_a_build_laid_out_in_two_prints_the_same_bytes(tmp_path: Path, monkeypatch) -> None:
    pack = _expansion(tmp_path, 1100, {})
    built = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("PNP_JOBS", jobs)
        built[jobs] = build(CWNB, (pack,), None, SheetOptions(), tmp_path / jobs).out_dir
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf", "manifest.json"):
        assert (built["1"] / name).read_bytes() == (built["2"] / name).read_bytes(), name


def test_the_forked_half_returns_large_results_and_raises_its_errors() -> None:
    big = "x" * 3_000_000  # far more than a pipe holds
    mine, theirs = forked.in_two_processes(lambda: 1, lambda: big)
    assert (mine, theirs) == (1, big)

    def fails() -> str:
        raise ValueError("no such ship")

    with pytest.raises(ValueError, match="no such ship"):
        forked.in_two_processes(lambda: 1, fails)


def test_validate_begins_the_layout_before_the_rule_checks_and_finds_the_same(
        tmp_path: Path, monkeypatch) -> None:
    """``pnp validate`` forks the layout's larger part as soon as the cards are loaded; its
    report is the one process's, finding for finding, in the same order."""
    pack = _expansion(tmp_path, 1200, {5: TOO_LONG, 1150: ALSO_TOO_LONG})
    seen = []
    result = validate(CWNB, (pack,), lambda card_set, game: seen.append(len(card_set.cards)))
    assert seen == [len(result.card_set.cards)]
    reports = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("PNP_JOBS", jobs)
        completed = run_pnp("validate", str(CWNB), "--with", str(pack), "--format", "json")
        assert completed.returncode == 1
        reports[jobs] = completed.stdout
    assert reports["1"] == reports["2"]
    # one from the part this process lays out, one from the forked part
    assert [(f["code"], f["card"]) for f in json.loads(reports["2"])["findings"]] == [
        ("text-overflow", "split-5"), ("text-overflow", "split-1150")]


def test_an_early_child_is_stopped_when_its_result_is_not_wanted(tmp_path: Path) -> None:
    import os
    import time

    marker = tmp_path / "pid"

    def slow() -> int:
        written = marker.with_suffix(".tmp")
        written.write_text(str(os.getpid()))
        written.replace(marker)
        time.sleep(60)
        return 1

    started = time.monotonic()
    with pytest.raises(KeyError), forked.Forked(slow):
        while not marker.exists():
            time.sleep(0.01)
        raise KeyError("the caller failed on its side")
    assert time.monotonic() - started < 30
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left running
        os.kill(int(marker.read_text()), 0)


def test_the_collector_is_paused_for_a_stage_and_resumed_however_it_ends() -> None:
    import gc

    from generator.runtime.gcpause import collector_paused

    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


def test_a_stage_leaves_its_objects_frozen_until_a_long_running_process_collects() -> None:
    import gc

    from generator.runtime.gcpause import collect_frozen, collector_paused

    collect_frozen()
    with collector_paused():
        ring: list[object] = []
        ring.append(ring)  # a cycle made in the stage, dropped after it
    del ring
    assert gc.get_freeze_count() > 0
    collect_frozen()  # pnp watch between two rebuilds
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()
