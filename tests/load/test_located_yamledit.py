"""The load stage's located YAML editor: a value, a field or a list item written into the text
of a YAML file, and every other byte kept.

Its users' own files are tested where they are used (card files in tests/studio/test_yamledit.py,
game.yaml in tests/i18n/test_gamelocales.py); here is what holds for any mapping and list.
"""

from __future__ import annotations

import pytest
from conftest import changed_lines

from generator.load.yamledit import (
    ABSENT,
    EditRefused,
    append_item,
    compose,
    edit_mapping,
    mapping_field,
    scalar_text,
)
from generator.load.yamlsource import load_yaml_text


def _read(text: str) -> object:
    doc, findings = load_yaml_text("x.yaml", text)
    assert doc is not None and not findings, findings
    return doc.data


@pytest.mark.parametrize("value", ["", " lead", "#x", "{gun-5in} fires", "3+3", "Орудие",
                                   "null", "~", "1e3", "0x1F", "- a", "a\tb", "é\u0007",
                                   "line\nnext", "x" * 300, 'say "hi"', "@at", "`tick"])
def test_any_text_reads_back_as_itself(value):
    for flow in (False, True):
        text = scalar_text(value, flow=flow)
        probe = f"k: [{text}]\n" if flow else f"k: {text}\n"
        doc, findings = load_yaml_text("p.yaml", probe)
        assert not findings
        read = doc.data["k"][0] if flow else doc.data["k"]
        assert read == value, (value, text)


EMPTY = "top: 1\nname:\nkind: ship  # the kind\nnote:   # to write\ncount: 1\n"


@pytest.mark.parametrize(("changes", "removed", "added"), [
    ({"name": "Bob"}, ["name:\n"], ["name: Bob\n"]),
    ({"note": "x, y"}, ["note:   # to write\n"], ["note: x, y   # to write\n"]),
    ({"name": ABSENT}, ["name:\n"], []),
    ({"note": ABSENT}, ["note:   # to write\n"], []),
    ({"extra": [1, 2]}, [], ["extra: [1, 2]\n"]),
])
def test_an_empty_value_is_written_after_its_colon_and_removed_alone(changes, removed, added):
    """The composer puts an empty value's node where the next token starts (the next key):
    writing there would glue the value to that key, and removing the field took that key's
    line too."""
    root = compose(EMPTY)
    new = edit_mapping(EMPTY, root, changes, ["top", "name", "extra"])
    assert changed_lines(EMPTY, new) == (removed, added)
    data = _read(new)
    wanted = {**_read(EMPTY), **changes}
    assert data == {k: v for k, v in wanted.items() if v is not ABSENT}
    if "extra" in changes:
        assert new.splitlines()[2] == "extra: [1, 2]"  # after name, not after kind's line


def test_an_empty_value_in_a_flow_mapping():
    text = "card: {id: x, name: , kind: ship}\n"
    root = compose(text)
    card = mapping_field(root, "card")[1]
    assert _read(edit_mapping(text, card, {"name": "a, b"}))["card"] == {
        "id": "x", "name": "a, b", "kind": "ship"}


@pytest.mark.parametrize(("text", "wanted"), [
    ("k: [a, b]\n", "k: [a, b, c]\n"),
    ("k: [a, b,]  # x\n", "k: [a, b, c,]  # x\n"),
    ("k: ['a']\n", "k: ['a', 'c']\n"),
    ("k:\n  - a\n  - b  # last\nz: 1\n", "k:\n  - a\n  - b  # last\n  - c\nz: 1\n"),
    ("k:\n- a\n\n# later\n", "k:\n- a\n- c\n\n# later\n"),
    ("k:\r\n  - \"a\"", "k:\r\n  - \"a\"\r\n  - \"c\""),
])
def test_an_item_is_appended_as_the_last_one_is_written(text, wanted):
    root = compose(text)
    assert append_item(text, mapping_field(root, "k")[1], "c") == wanted


@pytest.mark.parametrize("text", ["k: []\n", "k:\n  - a\n  - [b]\n", "k:\n  - a\n  - - b\n"])
def test_an_item_that_cannot_be_written_like_the_last_is_refused(text):
    root = compose(text)
    with pytest.raises(EditRefused):
        append_item(text, mapping_field(root, "k")[1], "c")
