"""Exported schemas work for editors, and the model is typed and immutable."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import CWNB, run_pnp
from jsonschema import Draft202012Validator

from generator.games.cwnb.model import Action, PlayerOrder, Ship
from generator.pipeline.validate import validate


def test_pnp_schema_writes_schemas_that_accept_the_shipped_files(tmp_path):
    result = run_pnp("schema", str(CWNB), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["card-file.schema.json", "cwnb-action.schema.json",
                     "cwnb-player_order.schema.json", "cwnb-ship.schema.json",
                     "deck.schema.json", "game.schema.json", "glossary.schema.json"]
    card_file = json.loads((tmp_path / "card-file.schema.json").read_text())
    Draft202012Validator.check_schema(card_file)
    validator = Draft202012Validator(card_file)
    for path in sorted(CWNB.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.name == "game.yaml" or path.name == "glossary.yaml":
            continue
        assert list(validator.iter_errors(data)) == [], path.name
    game = json.loads((tmp_path / "game.schema.json").read_text())
    Draft202012Validator(game).validate(yaml.safe_load((CWNB / "game.yaml").read_text()))


def test_bundled_schema_rejects_what_pnp_rejects(tmp_path):
    run_pnp("schema", str(CWNB), "--out", str(tmp_path))
    validator = Draft202012Validator(json.loads((tmp_path / "card-file.schema.json")
                                                .read_text()))
    bad = {"cards": [{"id": "x", "kind": "ship", "name": "X", "class": "X", "type": "DD",
                      "nation": "US", "points": 1, "hits_to_sink": 1, "gunz": []}]}
    assert list(validator.iter_errors(bad))


def test_the_model_holds_typed_immutable_cards():
    card_set = validate(CWNB).card_set
    kinds = {type(card) for card in card_set.cards}
    assert kinds == {Ship, Action, PlayerOrder}
    nimitz = next(c for c in card_set.cards if c.id == "uss-nimitz")
    assert isinstance(nimitz, Ship) and nimitz.is_carrier and nimitz.back == "crippled"
    assert isinstance(nimitz.guns, tuple)
    with pytest.raises(AttributeError):  # frozen
        nimitz.points = 99  # type: ignore[misc]
    assert nimitz.source.of("points").line > 0
    ships = [c for c in card_set.cards if isinstance(c, Ship)]
    actions = [c for c in card_set.cards if isinstance(c, Action)]
    orders = [c for c in card_set.cards if isinstance(c, PlayerOrder)]
    assert (len(ships), sum(a.count for a in actions), len(orders)) == (55, 114, 9)


def test_cards_are_equal_when_they_say_the_same_wherever_they_were_written():
    from msgspec.structs import replace

    from generator.core.location import Location
    from generator.model.cards import SourceRef

    card_set = validate(CWNB).card_set
    nimitz = next(c for c in card_set.cards if c.id == "uss-nimitz")
    elsewhere = replace(nimitz, source=SourceRef(Location("other.yaml", 9, 1)))
    assert elsewhere == nimitz and hash(elsewhere) == hash(nimitz)
    assert replace(nimitz, points=nimitz.points + 1) != nimitz
    assert len({nimitz, elsewhere, replace(nimitz, name="USS Other")}) == 2
