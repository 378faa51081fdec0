"""Writing changed values into YAML card files: only those values change, byte for byte.

Every card file shipped (and every fixture's) is edited card by card: the new text must read
back, through pnp's own loader, as the old data with that one value changed, and the diff must
be that value's line and nothing else.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import ROOT

from generator.load.yamledit import ABSENT, EditRefused, same_value
from generator.load.yamlsource import load_yaml_text
from generator.studio.yamlcards import edit_card, insert_card

SHIP_ORDER = ["id", "kind", "count", "name", "class", "type", "nation", "points",
              "hits_to_sink", "guns", "missiles", "air_strike", "air_defense", "traits", "back"]


def _card_files() -> list[Path]:
    found = []
    for folder in (ROOT / "cards", ROOT / "tests" / "fixtures"):
        for path in sorted(folder.rglob("*.yaml")):
            if path.name in ("game.yaml", "glossary.yaml") or {"templates", "decks",
                                                               "locales"} & set(path.parts):
                continue
            doc, findings = load_yaml_text(path.name, path.read_text(encoding="utf-8"))
            if doc is not None and not findings and isinstance(doc.data, dict) \
                    and isinstance(doc.data.get("cards"), list):
                found.append(path)
    return found


def _read(text: str) -> list[dict]:
    doc, findings = load_yaml_text("x.yaml", text)
    assert doc is not None and not findings, findings
    return doc.data["cards"]


def _changed_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    removed, added = [], []
    for line in difflib.ndiff(old.splitlines(True), new.splitlines(True)):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


CARD_FILES = _card_files()


def test_there_are_card_files_to_edit():
    assert len(CARD_FILES) >= 20
    assert ROOT / "cards" / "cwnb" / "ships.yaml" in CARD_FILES


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_card_of_every_file_takes_a_new_text_on_its_own_line_only(path):
    text = path.read_text(encoding="utf-8")
    cards = _read(text)
    edited = 0
    ids = [card.get("id") for card in cards if isinstance(card, dict)]
    for index, card in enumerate(cards):
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            continue
        if ids.count(card["id"]) > 1:  # a fixture's duplicate id (a finding): not one card
            continue
        field = next((k for k, v in card.items() if k not in ("id", "kind")
                      and isinstance(v, str) and "\n" not in v), None)
        if field is None:
            continue
        value = card[field] + " (2nd: ed., 'x')"
        new = edit_card(text, card["id"], {field: value})
        wanted = [dict(c) for c in cards]
        wanted[index] = {**card, field: value}
        assert all(same_value(a, b) for a, b in zip(_read(new), wanted, strict=True)), card["id"]
        removed, added = _changed_lines(text, new)
        assert len(removed) == 1 and len(added) == 1, (card["id"], removed, added)
        assert removed[0].split(":", 1)[0] == added[0].split(":", 1)[0]  # the same key
        edited += 1
    assert edited > 0


def test_a_ship_edited_added_and_removed_fields_in_place(tmp_path):
    text = (ROOT / "cards" / "cwnb" / "ships.yaml").read_text(encoding="utf-8")
    new = edit_card(text, "uss-nimitz", {"name": "USS Carl Vinson", "points": 17,
                                         "guns": ["3in", "5in"], "air_defense": ABSENT,
                                         "traits": ["quiet"], "back": "crippled",
                                         "count": ABSENT}, SHIP_ORDER)
    removed, added = _changed_lines(text, new)
    assert removed == ["    count: 1\n", "    name: USS Nimitz\n", "    points: 16\n",
                       "    guns: []\n", "    air_defense: 4\n"]
    assert added == ["    name: USS Carl Vinson\n", "    points: 17\n",
                     "    guns: [3in, 5in]\n", "    traits: [quiet]\n", "    back: crippled\n"]
    # the new fields sit in the schema's order, after the field before them
    assert new.index("air_strike: 2", new.index("uss-nimitz")) < new.index("traits: [quiet]")


SAMPLE = """\
# a comment before the cards
cards:
  # the first card
  - id: x   # trailing comment
    kind: ship
    guns:
      - 3in
      - 5in   # the second gun
    missiles: [A, B]
    text: |
      hello
      world

    name: "Quoted"   # a comment
    other: 'single'
    plain: it is
  - {id: y, kind: ship, name: Flow}
"""


@pytest.mark.parametrize(("changes", "removed", "added"), [
    ({"name": "It's"}, ['    name: "Quoted"   # a comment\n'],
     ['    name: "It\'s"   # a comment\n']),
    ({"other": "it's"}, ["    other: 'single'\n"], ["    other: 'it''s'\n"]),
    ({"plain": "yes"}, ["    plain: it is\n"], ['    plain: "yes"\n']),  # not YAML 1.1's true
    ({"plain": "a: b # c"}, ["    plain: it is\n"], ["    plain: 'a: b # c'\n"]),
    ({"plain": "017"}, ["    plain: it is\n"], ["    plain: '017'\n"]),
    ({"guns": ["16in"]}, ["      - 3in\n", "      - 5in   # the second gun\n"],
     ["      - 16in   # the second gun\n"]),
    ({"guns": []}, ["    guns:\n", "      - 3in\n", "      - 5in   # the second gun\n"],
     ["    guns: []   # the second gun\n"]),
    ({"missiles": ["C"]}, ["    missiles: [A, B]\n"], ["    missiles: [C]\n"]),
    ({"text": "one\ntwo\n"}, ["      hello\n", "      world\n"], ["      one\n", "      two\n"]),
    ({"text": "flat"}, ["    text: |\n", "      hello\n", "      world\n"],
     ["    text: |-\n", "      flat\n"]),
    ({"name": ABSENT}, ['    name: "Quoted"   # a comment\n'], []),
    ({"guns": ABSENT}, ["    guns:\n", "      - 3in\n", "      - 5in   # the second gun\n"],
     []),
    ({"count": 2}, [], ["    count: 2\n"]),
])
def test_styles_comments_and_neighbours_are_kept(changes, removed, added):
    new = edit_card(SAMPLE, "x", changes, ["id", "kind", "count", "guns"])
    assert _changed_lines(SAMPLE, new) == (removed, added)
    data = _read(new)[0]
    for name, value in changes.items():
        assert (name not in data) if value is ABSENT else same_value(data[name], value)


def test_a_new_field_goes_after_the_field_before_it_in_the_schema():
    new = edit_card(SAMPLE, "x", {"count": 2, "zeta": "last"}, ["id", "kind", "count", "guns"])
    lines = new.splitlines()
    assert lines[3:6] == ["  - id: x   # trailing comment", "    kind: ship", "    count: 2"]
    assert lines[lines.index("    plain: it is") + 1] == "    zeta: last"  # not in the schema


def test_a_card_written_as_a_flow_mapping_is_edited_in_its_flow():
    new = edit_card(SAMPLE, "y", {"name": "a, b", "count": 2})
    assert _changed_lines(SAMPLE, new) == (["  - {id: y, kind: ship, name: Flow}\n"],
                                           ["  - {id: y, kind: ship, name: 'a, b', "
                                            "count: 2}\n"])


def test_line_endings_and_the_file_end_are_kept():
    crlf = SAMPLE.replace("\n", "\r\n").rstrip("\r\n")
    new = edit_card(crlf, "x", {"count": 3, "other": "z"}, ["id", "kind", "count"])
    assert "\r\n    count: 3\r\n" in new and "\n    count" not in new.replace("\r\n", "")
    assert new.count("\r\n") == crlf.count("\r\n") + 1 and not new.endswith("\n")
    assert _read(new)[0]["count"] == 3


def test_copies_and_new_cards_go_after_their_neighbour():
    copied = insert_card(SAMPLE, {"id": "x-copy"}, after="x", copy_of="x")
    cards = _read(copied)
    assert [c["id"] for c in cards] == ["x", "x-copy", "y"]
    assert {**cards[1], "id": "x"} == cards[0]
    assert copied.count("# the second gun") == 2  # the copy is the card's own text
    new = insert_card(SAMPLE, {"id": "z", "kind": "ship", "name": "New ship", "guns": []},
                      after="y")
    assert new.endswith("  - {id: z, kind: ship, name: New ship, guns: []}\n")
    text = (ROOT / "cards" / "cwnb" / "ships.yaml").read_text(encoding="utf-8")
    added = insert_card(text, {"id": "new-ship", "kind": "ship", "name": "New ship"},
                        after="uss-enterprise")
    assert _changed_lines(text, added) == ([], ["  - id: new-ship\n", "    kind: ship\n",
                                                "    name: New ship\n"])


def test_what_cannot_be_written_in_place_is_refused():
    with pytest.raises(EditRefused, match="not in the file"):
        edit_card(SAMPLE, "nobody", {"name": "x"})
    with pytest.raises(EditRefused, match="cards"):
        edit_card("name: x\n", "x", {"name": "y"})
    with pytest.raises(EditRefused, match="cannot be read"):
        edit_card("cards: [\n", "x", {"name": "y"})
