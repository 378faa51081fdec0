"""Changed cards written into a YAML card file, and not one other byte.

Which mapping of the file is card ``x`` (an item of its ``cards:`` list with ``id: x``), and
how a new card or a copy of one is laid out next to its neighbours, is the studio's; writing a
value into the file without disturbing anything else is the load stage's
(:mod:`generator.load.yamledit`, on ruamel.yaml's round-trip composer).

The caller (:mod:`generator.studio.saving`) reads the result again with pnp's own loader and
compares every card with what was meant before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.load.yamledit import (
    EditRefused,
    compose,
    edit_mapping,
    flow_text,
    line_end,
    line_start,
    mapping_field,
    newline_of,
    scalar_text,
    scalar_value,
    value_end,
    value_text,
)


def _cards_node(root: Node | None) -> SequenceNode:
    if isinstance(root, MappingNode):
        for key, value in root.value:
            if isinstance(key, ScalarNode) and key.value == "cards" \
                    and isinstance(value, SequenceNode):
                return value
    raise EditRefused("the file has no 'cards:' list")


def card_node(root: Node | None, card_id: str) -> MappingNode:
    for item in _cards_node(root).value:
        if isinstance(item, MappingNode) and mapping_field(item, "id") is not None \
                and scalar_value(mapping_field(item, "id")[1]) == card_id:  # type: ignore[index]
            return item
    raise EditRefused(f"card '{card_id}' is not in the file any more")


def edit_card(text: str, card_id: str, changes: Mapping[str, object],
              order: Sequence[str] = ()) -> str:
    """``text`` with card ``card_id``'s fields set to ``changes`` (``ABSENT`` removes one);
    new fields go after the field before them in ``order`` (the schema's)."""
    return edit_mapping(text, card_node(compose(text), card_id), changes, order)


def card_block(item: Mapping[str, object], dash_column: int, key_column: int,
               newline: str) -> str:
    """A new card as block YAML lines: ``- id: ...`` then one line a field."""
    gap = " " * max(key_column - dash_column - 2, 0)
    lines = []
    for index, (name, value) in enumerate(item.items()):
        head = (" " * dash_column + "- " + gap) if index == 0 else " " * key_column
        lines.append(f"{head}{scalar_text(str(name))}: {value_text(value)}")
    return newline.join(lines)


def insert_card(text: str, item: Mapping[str, object], after: str | None,
                copy_of: str | None = None) -> str:
    """``text`` with a new card right after card ``after`` (None: after the last card). With
    ``copy_of``, the new card is that card's own text (comments and quoting kept) with the
    id of ``item``; otherwise it is written from ``item``'s fields."""
    root = compose(text)
    cards = _cards_node(root)
    newline = newline_of(text)
    if not cards.value and not cards.flow_style:
        raise EditRefused("the file's cards: list is empty")
    if cards.flow_style:
        raise EditRefused("the file writes its cards: list in flow style [...]")
    anchor = card_node(root, after) if after is not None else cards.value[-1]
    if not isinstance(anchor, MappingNode):
        raise EditRefused("the last entry of cards: is not a card")
    dash = _dash_column(text, anchor)
    at = line_end(text, _content_end_of(text, anchor))
    if copy_of is not None:
        source = card_node(root, copy_of)
        block = _card_copy(text, source, str(item["id"]), dash)
    elif anchor.flow_style:
        block = " " * dash + "- " + flow_text(dict(item))
    else:
        block = card_block(item, dash, anchor.value[0][0].start_mark.column, newline)
    return text[:at] + newline + block + text[at:]


def _content_end_of(text: str, mapping: MappingNode) -> int:
    if mapping.flow_style or not mapping.value:
        return mapping.end_mark.index
    end = value_end(text, *mapping.value[-1])
    if end > 0 and text[end - 1] == "\n":
        end -= 2 if end > 1 and text[end - 2] == "\r" else 1
    return end


def _dash_column(text: str, mapping: MappingNode) -> int:
    start = line_start(text, mapping.start_mark.index)
    line = text[start:mapping.start_mark.index]
    dash = line.rfind("-")
    if dash < 0 or line[:dash].strip():
        raise EditRefused("a card that does not start its own '- ' line")
    return dash


def _card_copy(text: str, source: MappingNode, new_id: str, dash: int) -> str:
    """The source card's lines, its id replaced, its first line starting at ``dash``."""
    first = line_start(text, source.start_mark.index)
    end = line_end(text, _content_end_of(text, source))
    id_node = mapping_field(source, "id")
    assert id_node is not None
    value = id_node[1]
    style = value.style if isinstance(value, ScalarNode) else None
    own = text[first:value.start_mark.index] + value_text(new_id, style) + \
        text[value.end_mark.index:end]
    shift = dash - _dash_column(text, source)
    if shift == 0:
        return own
    raise EditRefused("the copied card is indented differently from its neighbours")


def new_file(item: Mapping[str, object], comment: str) -> str:
    """A card file holding one card."""
    return f"# {comment}\ncards:\n" + card_block(item, 2, 4, "\n") + "\n"

