"""Saving from the studio: the file the card came from, only its changed values, checked before
it is written, and never over a change made on disk since the page loaded."""

from __future__ import annotations

import difflib
import io
import shutil
from pathlib import Path

import pytest
from conftest import ROOT
from openpyxl import load_workbook

from generator.load.yamledit import ABSENT
from generator.schema.check import load_schema
from generator.studio import saving, yamlcards
from generator.studio.schemaform import FormSpec, form_spec
from generator.studio.session import Session


def _copy(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def _form(session: Session, kind: str) -> FormSpec:
    game = session.current().game
    card_kind = game.kinds[kind]
    return form_spec(kind, card_kind.schema_data or load_schema(game.schema_package,
                                                                card_kind.schema))


def _diff(old: str, new: str) -> list[str]:
    return [line for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                  n=0) if line[:1] in "+-"
            and not line.startswith(("+++", "---"))]


@pytest.fixture
def cwnb(tmp_path):
    pack = _copy(tmp_path, ROOT / "cards" / "cwnb")
    return Session(pack, (), ())


def _save(session: Session, card: str, **changes):
    loaded = session.current()
    source = loaded.sources[card]
    values = {**source.data, **changes}
    for name, value in changes.items():
        if value is ABSENT:
            del values[name]
    return saving.save_card(session, card, values, dict(source.data),
                            loaded.versions[source.file.display],
                            _form(session, source.kind).order)


def test_a_save_writes_the_changed_values_and_nothing_else(cwnb):
    ships = cwnb.pack / "ships.yaml"
    before = ships.read_text(encoding="utf-8")
    outcome = _save(cwnb, "uss-nimitz", name="USS Carl Vinson", air_defense="3+3",
                    traits=["quiet"], count=ABSENT)
    assert outcome.status == "saved", outcome.as_json()
    assert _diff(before, ships.read_text(encoding="utf-8")) == [
        "-    count: 1\n", "-    name: USS Nimitz\n", "+    name: USS Carl Vinson\n",
        "-    air_defense: 4\n", "+    air_defense: 3+3\n", "+    traits: [quiet]\n"]
    loaded = cwnb.current()  # the studio reads the pack again
    assert loaded.sources["uss-nimitz"].data["name"] == "USS Carl Vinson"
    assert outcome.version == loaded.versions[loaded.sources["uss-nimitz"].file.display]
    assert _save(cwnb, "uss-nimitz").status == "unchanged"


def test_a_file_changed_on_disk_is_never_overwritten_blindly(cwnb):
    loaded = cwnb.current()
    source = loaded.sources["uss-nimitz"]
    version = loaded.versions[source.file.display]
    order = _form(cwnb, "ship").order
    original = dict(source.data)
    ships = cwnb.pack / "ships.yaml"
    # another editor changes the same card's name and points meanwhile
    ships.write_text(ships.read_text(encoding="utf-8").replace(
        "name: USS Nimitz", "name: USS Theodore Roosevelt").replace(
        "    points: 16\n    hits_to_sink: 10\n    guns: []\n    missiles: []\n"
        "    air_strike: 2\n    air_defense: 4\n  - id: uss-enterprise",
        "    points: 18\n    hits_to_sink: 10\n    guns: []\n    missiles: []\n"
        "    air_strike: 2\n    air_defense: 4\n  - id: uss-enterprise"), encoding="utf-8")
    on_disk = ships.read_text(encoding="utf-8")
    mine = {**original, "name": "USS Carl Vinson"}
    outcome = saving.save_card(cwnb, "uss-nimitz", mine, original, version, order)
    assert outcome.status == "conflict"
    assert outcome.conflicts == [{"field": "name", "disk": "USS Theodore Roosevelt",
                                  "mine": "USS Carl Vinson", "disk_absent": False,
                                  "mine_absent": False}]
    assert ships.read_text(encoding="utf-8") == on_disk  # nothing written
    # a field nobody else touched merges: the change on disk stays
    merged = saving.save_card(cwnb, "uss-nimitz", {**original, "hits_to_sink": 11}, original,
                              version, order)
    assert merged.status == "saved" and merged.merged
    text = ships.read_text(encoding="utf-8")
    assert "USS Theodore Roosevelt" in text and "points: 18" in text and "hits_to_sink: 11" in text
    # the reader chose to keep their value
    forced = saving.save_card(cwnb, "uss-nimitz", mine, original, version, order, force=True)
    assert forced.status == "saved"
    assert "name: USS Carl Vinson" in ships.read_text(encoding="utf-8")


def test_a_save_that_would_break_the_file_is_refused_with_the_finding(cwnb, monkeypatch):
    ships = cwnb.pack / "ships.yaml"
    before = ships.read_bytes()
    monkeypatch.setattr(yamlcards, "edit_card", lambda text, *a, **k: text + "  - [broken\n")
    outcome = _save(cwnb, "uss-nimitz", name="x")
    assert outcome.status == "refused"
    assert "unreadable" in outcome.message
    assert outcome.findings and outcome.findings[0].code.startswith("yaml")
    assert ships.read_bytes() == before
    # a text that reads, but not as meant, is refused too
    monkeypatch.setattr(yamlcards, "edit_card",
                        lambda text, *a, **k: text.replace("USS Enterprise", "USS Nimitz"))
    outcome = _save(cwnb, "uss-nimitz", points=3)
    assert outcome.status == "refused" and "read back differently" in outcome.message
    assert ships.read_bytes() == before


def test_copies_and_new_cards_land_where_a_designer_puts_them(cwnb):
    ships = cwnb.pack / "ships.yaml"
    form = _form(cwnb, "ship")
    before = ships.read_text(encoding="utf-8")
    source = cwnb.current().sources["uss-nimitz"]
    edited = {**source.data, "name": "USS Nimitz II"}
    copy = saving.add_card(cwnb, form, "ship", "uss-nimitz-2", copy_of="uss-nimitz",
                           values=edited, original=dict(source.data))
    assert copy.status == "saved", copy.as_json()
    ids = list(cwnb.current().sources)
    assert ids[ids.index("uss-nimitz") + 1] == "uss-nimitz-2"
    assert cwnb.current().sources["uss-nimitz-2"].data["name"] == "USS Nimitz II"
    assert cwnb.current().sources["uss-nimitz"].data["name"] == "USS Nimitz"  # unchanged
    new = saving.add_card(cwnb, form, "ship", "new-ship", near="uss-enterprise")
    assert new.status == "saved"
    loaded = cwnb.current()
    ships_ids = [s.id for s in loaded.sources.values() if s.kind == "ship"]
    assert ships_ids[-1] == "new-ship"  # after the file's last ship
    assert loaded.sources["new-ship"].file.path == ships
    lines = _diff(before, ships.read_text(encoding="utf-8"))
    assert all(line.startswith("+") for line in lines)  # nothing else changed
    assert not [f for f in loaded.findings_of("new-ship") if f.code.startswith("missing")]
    # from the list (no card to stand near): after the last card of its kind
    assert saving.add_card(cwnb, _form(cwnb, "action"), "action", "new-action").status == "saved"
    actions = [s.id for s in cwnb.current().sources.values() if s.kind == "action"]
    assert actions[-1] == "new-action"
    for wrong, why in (("uss-nimitz", "taken"), ("Bad Id", "not a card id")):
        refused = saving.add_card(cwnb, form, "ship", wrong, near="uss-nimitz")
        assert refused.status == "refused" and why in refused.message


def test_the_first_card_of_a_kind_gets_a_file_of_its_own(tmp_path):
    pack = _copy(tmp_path, ROOT / "cards" / "cwnb")
    (pack / "player_orders.yaml").unlink()
    session = Session(pack, (), ())
    outcome = saving.add_card(session, _form(session, "player_order"), "player_order",
                              "order-1")
    assert outcome.status == "saved", outcome.as_json()
    assert session.current().sources["order-1"].file.path == pack / "player_order.yaml"


def test_csv_cells_and_rows(tmp_path):
    pack = _copy(tmp_path, ROOT / "cards" / "rockpool")
    session = Session(pack, (), ())
    tides = pack / "tides.csv"
    before = tides.read_text(encoding="utf-8")
    outcome = _save(session, "gulls", text='Gulls, everywhere "loud".', shift=1,
                    habitat="rocks")
    assert outcome.status == "saved", outcome.as_json()
    after = tides.read_text(encoding="utf-8")
    assert _diff(before, after) == [
        "-gulls,tide,Gulls on the Rocks,low,neap,last-quarter,,,\"Before the first turn, "
        "discard every {icon-rocks} creature from the Shore, then refill it.\","
        "art/moon-last-quarter.svg\n",
        '+gulls,tide,Gulls on the Rocks,low,neap,last-quarter,rocks,1,"Gulls, everywhere '
        '""loud"".",art/moon-last-quarter.svg\n']
    refused = _save(session, "gulls", latin="Larus")
    assert refused.status == "refused" and "no column 'latin'" in refused.message
    source = session.current().sources["gulls"]
    form = _form(session, "tide")
    copy = saving.add_card(session, form, "tide", "gulls-2", copy_of="gulls",
                           values={**source.data, "name": "More Gulls"},
                           original=dict(source.data))
    assert copy.status == "saved"
    rows = tides.read_text(encoding="utf-8").splitlines()
    at = next(i for i, row in enumerate(rows) if row.startswith("gulls,"))
    assert rows[at + 1].startswith("gulls-2,tide,More Gulls,")


def test_a_semicolon_table_is_edited_in_its_own_delimiter(tmp_path):
    """pnp reads a CSV separated by semicolons (as a spreadsheet saves it where the comma is
    the decimal mark); a save writes its cells with semicolons too (it was refused: the whole
    row read as one cell, with "no column")."""
    import csv

    pack = _copy(tmp_path, ROOT / "cards" / "rockpool")
    tides = pack / "tides.csv"
    rows = list(csv.reader(io.StringIO(tides.read_text(encoding="utf-8"))))
    written = io.StringIO()
    csv.writer(written, delimiter=";", lineterminator="\n").writerows(rows)
    tides.write_text(written.getvalue(), encoding="utf-8")
    session = Session(pack, (), ())
    before = tides.read_text(encoding="utf-8")
    outcome = _save(session, "gulls", text="Gulls; everywhere.", shift=1, habitat="rocks")
    assert outcome.status == "saved", outcome.as_json()
    assert _diff(before, tides.read_text(encoding="utf-8")) == [
        "-gulls;tide;Gulls on the Rocks;low;neap;last-quarter;;;Before the first turn, "
        "discard every {icon-rocks} creature from the Shore, then refill it.;"
        "art/moon-last-quarter.svg\n",
        '+gulls;tide;Gulls on the Rocks;low;neap;last-quarter;rocks;1;"Gulls; everywhere.";'
        "art/moon-last-quarter.svg\n"]
    source = session.current().sources["gulls"]
    assert (source.data["text"], source.data["shift"]) == ("Gulls; everywhere.", 1)
    copy = saving.add_card(session, _form(session, "tide"), "tide", "gulls-2",
                           copy_of="gulls", values={**source.data, "name": "More Gulls"},
                           original=dict(source.data))
    assert copy.status == "saved", copy.as_json()
    assert session.current().sources["gulls-2"].data["name"] == "More Gulls"


def test_xlsx_cells(tmp_path):
    pack = _copy(tmp_path, ROOT / "tests" / "fixtures" / "emberfall")
    session = Session(pack, (), ())
    outcome = _save(session, "vorn", power=5, title="the Unbending")
    assert outcome.status == "saved", outcome.as_json()
    book = load_workbook(io.BytesIO((pack / "legends.xlsx").read_bytes()))
    rows = [[c.value for c in row] for row in book["Legends"].iter_rows()]
    assert rows[2][:6] == ["vorn", "legend", "Vorn", "the Unbending", 6, 5]
    assert rows[1][0] == "pyra" and rows[3][0] == "ysolde"
    assert next(book["Creatures"].iter_rows())[0].value == "id"
    assert session.current().sources["vorn"].data["power"] == 5
