"""A loaded document answers where its parts are alike in each form its index takes
(generator/load/yamldoc.py): as the loader left it (positions in the data's shape), packed for
a forked reader or the parse cache, and as Location objects by path (a table, or a caller that
goes through them all)."""

from __future__ import annotations

import pickle

from conftest import ROOT

from generator.core.location import Location
from generator.load.yamldoc import YamlDocument
from generator.load.yamlsource import load_yaml_text

FILES = sorted((ROOT / "cards").rglob("*.yaml")) + sorted((ROOT / "templates").rglob("*.yaml"))
MERGES = ("base: &b {x: [1, 2], y: {z: 3}}\n"
          "d: &d {<<: *b, x: 5, w: [*b]}\n"
          "e: [*d, {<<: [*b, *d], y: 0}]\n")


def _forms(text: str, file: str) -> list[YamlDocument]:
    """The same text as loaded, as sent back by a forked reader, and as Location objects."""
    loaded, findings = load_yaml_text(file, text)
    assert findings == [] and loaded is not None
    fresh, _ = load_yaml_text(file, text)
    located = YamlDocument(file, fresh.data, dict(fresh.values), dict(fresh.keys))  # type: ignore
    return [loaded, pickle.loads(pickle.dumps(load_yaml_text(file, text)[0])), located]


def _questions(document: YamlDocument) -> list[tuple]:
    """Every path of the document, and a path below each that is not there."""
    paths = list(document.values)
    return paths + [(*path, "not there") for path in paths] + [(*path, 10**6) for path in paths]


def test_each_form_answers_alike():
    checked = 0
    texts = [(path.read_text(encoding="utf-8"), path.name) for path in FILES]
    for text, name in [*texts, (MERGES, "merges.yaml")]:
        forms = _forms(text, name)
        questions = _questions(forms[2])
        answers = [[(doc.where(path), doc.where_key(path)) for path in questions]
                   for doc in forms]
        assert answers[0] == answers[1] == answers[2], name
        assert forms[0] == forms[1] == forms[2]
        checked += len(questions)
    assert checked > 30_000


def test_where_goes_down_the_data():
    document, _ = load_yaml_text("m.yaml", MERGES)
    assert document is not None
    assert document.where(("e", 1, "x", 1)) == Location("m.yaml", 1, 18)  # merged from base
    assert document.where(("d", "x")) == Location("m.yaml", 2, 19)  # its own x overrides
    assert document.where_key(("d", "x")) == Location("m.yaml", 2, 16)
    assert document.where(("d", "x", 0)) == document.where(("d", "x"))  # (5 holds nothing)
    assert document.where(("e", -1)) == document.where(("e",))
    assert document.where_key(()) == document.where(())


def test_a_table_writes_its_locations():
    document = YamlDocument("t.csv", None)
    document.values[()] = Location("t.csv", 1, 1)
    document.values[("cards", 0, "id")] = Location("t.csv", 2, 3)
    document.keys[("cards", 0, "id")] = Location("t.csv", 1, 3)
    assert document.where(("cards", 0, "id", 4)) == Location("t.csv", 2, 3)
    assert document.where_key(("cards", 0, "id")) == Location("t.csv", 1, 3)
    assert pickle.loads(pickle.dumps(document)) == document
