"""A large pack's card files are read on two cores; what comes back must be what one process
reads: the same documents (data and every location), cards, findings and their order."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
import yaml
from conftest import CWNB

from generator.core.location import Location
from generator.load.yamlsource import YamlDocument, load_yaml_text
from generator.pipeline import pack as pack_module
from generator.pipeline.pack import load_pack

EXPANSION = """\
pack: parallel-test
game: cwnb
name: Parallel test
version: "1.0"
source_locale: en
locales: [en]
set_mark: parallel
set_mark_label: P
card_size: poker
extends: cwnb
"""


def _pack(root: Path, files: int, ships: int) -> Path:
    """``files`` card files of ``ships`` legal ships each; file 3 has a card with a schema
    error, file 4 is not YAML at all."""
    profiles = yaml.safe_load((CWNB / "ships.yaml").read_text(encoding="utf-8"))["cards"]
    pack = root / "parallel"
    pack.mkdir()
    (pack / "game.yaml").write_text(EXPANSION, encoding="utf-8")
    for number in range(files):
        cards = []
        for n in range(ships):
            card = dict(profiles[n % len(profiles)])
            card.update(id=f"p{number}-{n}", name=f"{card['name']} {number}-{n}", count=1)
            cards.append(card)
        if number == 3:
            cards[7]["points"] = "many"
        text = yaml.safe_dump({"cards": cards}, sort_keys=False)
        if number == 4:
            text = "cards: [\n" + text
        (pack / f"ships-{number:02d}.yaml").write_text(text, encoding="utf-8")
    return pack


BASE_GAME = load_pack(CWNB).game


def _read(pack: Path, monkeypatch, jobs: str):
    monkeypatch.setenv("PNP_JOBS", jobs)
    return load_pack(pack, BASE_GAME)


def test_files_read_on_two_cores_give_what_one_process_reads(tmp_path: Path,
                                                              monkeypatch) -> None:
    pack = _pack(tmp_path, 6, 40)
    monkeypatch.setattr(pack_module, "SPLIT_BYTES", 1)  # split even this small pack
    forks = []
    real_forked = pack_module.Forked

    def counted(there):
        forks.append(1)
        return real_forked(there)

    monkeypatch.setattr(pack_module, "Forked", counted)
    alone, shared = _read(pack, monkeypatch, "1"), _read(pack, monkeypatch, "2")
    assert forks == [1]
    assert shared.findings == alone.findings
    codes = [(f.code, Path(f.location.file).name) for f in shared.findings]
    # both from files the forked reader read (the last three of six)
    assert codes == [("yaml-syntax", "ships-04.yaml"), ("wrong-type", "ships-03.yaml")]
    assert shared.pack.cards == alone.pack.cards
    assert len(shared.pack.cards) == 5 * 40 - 1
    assert list(shared.documents) == list(alone.documents)
    for name, doc in alone.documents.items():
        other = shared.documents[name]
        assert (other.data, other.values, other.keys) == (doc.data, doc.values, doc.keys)


def test_the_card_bound_stops_reading_as_in_one_process(tmp_path: Path, monkeypatch) -> None:
    pack = _pack(tmp_path, 6, 40)
    monkeypatch.setattr(pack_module, "SPLIT_BYTES", 1)
    monkeypatch.setattr(pack_module, "MAX_CARDS", 70)
    alone, shared = _read(pack, monkeypatch, "1"), _read(pack, monkeypatch, "2")
    assert shared.findings == alone.findings
    bound = [f for f in shared.findings if f.code == "too-many-cards"]
    assert [Path(f.location.file).name for f in bound] == ["ships-02.yaml"]
    assert len(shared.pack.cards) == 80


@pytest.mark.parametrize("text", ["cards:\n  - {id: a, name: x}\n  - [1, 2, {b: c}]\n",
                                  "a: &x {b: [1, 2]}\nc: *x\n", "[]\n", "just text\n"])
def test_a_document_pickles_compactly_and_comes_back_whole(text: str) -> None:
    doc, problems = load_yaml_text("cards/x.yaml", text)
    assert doc is not None and not problems
    back = pickle.loads(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    assert (back.file, back.data, back.values, back.keys) == (doc.file, doc.data, doc.values,
                                                              doc.keys)
    assert all(type(where) is Location for where in back.values.values())


def test_a_document_with_a_location_in_another_file_pickles_as_it_is() -> None:
    doc = YamlDocument("a.yaml", {"k": 1}, {("k",): Location("b.yaml", 2, 3)}, {})
    back = pickle.loads(pickle.dumps(doc))
    assert back.values == {("k",): Location("b.yaml", 2, 3)}


def test_a_cards_field_locations_are_found_when_asked_and_travel_as_a_dict() -> None:
    base = load_pack(CWNB)
    ship = next(card for card in base.pack.cards if card.kind == "ship")
    lines = (CWNB / "ships.yaml").read_text(encoding="utf-8").splitlines()
    where = ship.source.of("name")
    assert lines[where.line - 1][where.column - 1:].startswith(ship.name)
    assert ship.source.of("no such field") == ship.source.location
    assert "name" in ship.source.fields and "no such field" not in ship.source.fields
    back = pickle.loads(pickle.dumps(ship))
    assert type(back.source.fields) is dict
    assert back.source.fields == dict(ship.source.fields)


@pytest.mark.parametrize(("sizes", "here"), [
    ([5_190_000, 5_200_000], 1), ([5_200_000, 5_190_000], 1), ([1, 1, 1, 1, 6], 4),
    ([2, 2, 2, 2, 2], 3), ([9], 1), ([], 0), ([1, 100], 1),
    ([2_140_000] * 4 + [1_440_000], 3)])
def test_the_files_split_a_little_past_half_their_bytes(sizes: list[int], here: int) -> None:
    assert pack_module.split_point(sizes) == here
