"""The model's records compare by what they say, not by where it was written.

A card, a manifest, a template element or a deck read from another file, another line or
another folder is the same one when its values are: sets of cards, reprint checks, the face
memo and the cross-pack checks all rely on that. And loaded cards cross back from the
forked readers by pickling, so they must come back equal and keep their places.
"""

from __future__ import annotations

import pickle
from types import MappingProxyType

import pytest
from conftest import CWNB
from msgspec.structs import replace

from generator.core.location import Location
from generator.model.cards import CardSize, Manifest, SourceRef
from generator.model.deck import Deck, DeckEntry
from generator.model.template import Element
from generator.pipeline.pack import load_pack


def _manifest(**changes: object) -> Manifest:
    manifest = Manifest("p", "cwnb", "P", "1", "en", ("en",), "anchor", "", CardSize(63.5, 88.9),
                        None, Location("game.yaml", 1, 1))
    return replace(manifest, **changes)


def test_a_source_is_its_location_whatever_its_fields_say() -> None:
    here = SourceRef(Location("ships.yaml", 3, 3), {"name": Location("ships.yaml", 4, 5)})
    bare = SourceRef(Location("ships.yaml", 3, 3))
    assert here == bare and hash(here) == hash(bare)
    assert here.of("name") == Location("ships.yaml", 4, 5)
    assert bare.of("name") == Location("ships.yaml", 3, 3)
    assert here != SourceRef(Location("ships.yaml", 9, 3), here.fields)
    assert len({here, bare, SourceRef(Location("other.yaml", 3, 3))}) == 2


def test_a_manifest_leaves_its_options_and_field_places_out_of_equality() -> None:
    plain = _manifest()
    placed = _manifest(options={"allow_speed_1_plus": True},
                       fields={"name": Location("game.yaml", 3, 7)})
    assert plain == placed and hash(plain) == hash(placed)
    assert placed.where("name") == Location("game.yaml", 3, 7)
    assert plain != _manifest(set_mark="star")
    assert plain != _manifest(location=Location("elsewhere/game.yaml", 1, 1))
    assert plain != _manifest(sheet_per_kind=False)
    # each manifest has a mapping of its own (a shared default would leak between packs)
    assert _manifest().fields is not _manifest().fields


def test_an_element_is_what_it_draws_not_where_it_is_written() -> None:
    drawn = Element("text", (1.0, 2.0, 30.0, 5.0), MappingProxyType({"value": "{name}"}),
                    Location("front.yaml", 7, 5), 2)
    again = Element("text", (1.0, 2.0, 30.0, 5.0), {"value": "{name}"})
    assert drawn == again
    assert drawn != replace(again, box=(1.0, 2.0, 30.0, 6.0))
    assert drawn != replace(again, props={"value": "{title}"})
    with pytest.raises(TypeError):  # its properties are a mapping: no hash, as before
        hash(drawn)


def test_a_deck_is_its_cards_not_the_document_it_was_read_from() -> None:
    card_set = load_pack(CWNB).pack
    assert card_set is not None
    card = card_set.cards[0]
    entries = (DeckEntry(card, 2, Location("deck.yaml", 3, 5)),)
    read = Deck("fleet", "deck.yaml", entries, {"name": "fleet"}, document=object())
    made = Deck("fleet", "deck.yaml", entries, {"name": "fleet"})
    assert read == made
    assert read != replace(made, entries=(DeckEntry(card, 3, Location("deck.yaml", 3, 5)),))
    assert made.total == 2


def test_loaded_cards_pickle_as_their_values_with_every_place_kept() -> None:
    """What a forked reader sends back: the cards, each with its source and its fields'
    places (a manifest stays in the process that read it: its mappings are read-only views)."""
    pack = load_pack(CWNB).pack
    assert pack is not None
    again = pickle.loads(pickle.dumps(pack.cards))
    assert again == pack.cards
    for card, copy in zip(pack.cards, again, strict=True):
        assert copy.source.location == card.source.location
        assert {name: copy.source.of(name) for name in card.source.fields} == \
            {name: card.source.of(name) for name in card.source.fields}
