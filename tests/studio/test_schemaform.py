"""Forms from the kinds' JSON Schemas: every kind of every shipped game, built-in or in data."""

from __future__ import annotations

import pytest
from conftest import ROOT

from generator.games import get_game
from generator.schema.check import load_schema
from generator.studio.schemaform import default_value, field_spec, form_spec
from generator.studio.session import Session


def _builtin(game_name: str, kind: str):
    game = get_game(game_name)
    return form_spec(kind, load_schema(game.schema_package, game.kinds[kind].schema))


def test_a_cwnb_ship_gets_a_control_for_each_kind_of_value():
    form = _builtin("cwnb", "ship")
    widgets = {spec.name: spec.widget for spec in form.fields}
    assert widgets == {"id": "fixed", "kind": "fixed", "count": "number", "name": "textarea",
                       "class": "textarea", "type": "choice", "nation": "choice",
                       "points": "number", "hits_to_sink": "number", "guns": "list",
                       "missiles": "list", "air_strike": "number", "air_defense": "choice",
                       "traits": "list", "back": "choice"}
    air = form.get("air_defense")
    assert air.options == (1, 2, 3, 4, 5, 6, "3+3") and not air.required
    points = form.get("points")
    assert points.minimum == 1 and points.maximum is None and points.integer and points.required
    guns = form.get("guns")
    assert guns.item.widget == "choice" and guns.item.options == ("3in", "5in", "16in")
    assert form.get("traits").unique
    assert form.get("name").translatable and not form.get("type").translatable
    assert form.order[:3] == ["id", "kind", "count"]


@pytest.mark.parametrize("game_name", ["cwnb", "commander", "gwas"])
def test_every_builtin_kind_has_a_form(game_name):
    game = get_game(game_name)
    for kind in game.kinds:
        form = _builtin(game_name, kind)
        schema = load_schema(game.schema_package, game.kinds[kind].schema)
        assert set(schema["properties"]) <= set(form.order), kind
        assert all(spec.widget for spec in form.fields)


def test_unusual_schemas_get_a_control_that_can_say_their_values():
    assert field_spec("hull", {"type": ["string", "integer"]}).widget == "scalar"
    host = field_spec("host", {"anyOf": [{"enum": ["ship", "building"]},
                                         {"type": "array", "items": {"enum": ["ship"]}}]})
    assert host.widget == "yaml"
    gunnery = field_spec("g", {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 99},
                                         {"type": "string", "pattern": "^[0-9-]+$"}]})
    assert gunnery.widget == "scalar"
    torpedoes = field_spec("t", {"type": "object", "properties": {
        "deck": {"type": "integer", "minimum": 0}, "hull": {"type": "integer"}}})
    assert torpedoes.widget == "group" and [m.widget for m in torpedoes.fields] == ["number"] * 2
    assert field_spec("swift", {"type": "boolean"}).widget == "checkbox"
    assert field_spec("art", {"type": "string", "format": "image"}).widget == "image"
    assert field_spec("text", {"type": "string", "x-translate": True}).widget == "textarea"
    assert field_spec("x", {"type": "number", "minimum": 0.5}).integer is False


def test_a_game_defined_in_data_gets_its_forms_from_its_own_schemas():
    session = Session(ROOT / "cards" / "rockpool", (), ())
    game = session.current().game
    creature = form_spec("creature", game.kinds["creature"].schema_data)
    widgets = {spec.name: spec.widget for spec in creature.fields}
    assert widgets["art"] == "image" and widgets["habitat"] == "choice"
    assert widgets["flavor"] == "textarea" and widgets["latin"] == "text"
    assert creature.get("cost").maximum == 5
    new = {spec.name: default_value(spec, ["art/a.svg"]) for spec in creature.fields
           if spec.required and spec.widget != "fixed"}
    assert new == {"name": "New name", "habitat": "rocks", "diet": "grazer", "cost": 1,
                   "pearls": 1, "flavor": "New flavor", "art": "art/a.svg"}
