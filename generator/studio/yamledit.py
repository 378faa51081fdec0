"""Changed values written into a YAML card file, and not one other byte.

A card file is the designer's: its comments, key order, quoting, blank lines and line breaks are
theirs. Dumping a whole document again, even with ruamel.yaml's round-trip mode, reflows flow
mappings and long lines somewhere in a real pack (13 of the 80 shipped YAML files came back
different). So the file is never dumped: ruamel.yaml's round-trip composer gives every node of
the file with its start and end, and only the characters of a changed value are replaced (a
new key becomes one new line, a removed key loses its lines). Each new value is written by
ruamel.yaml's emitter in the style the old value had (plain, single or double quoted, literal
block, flow or block list) when that style can say it; what pnp reads back decides (PyYAML reads
YAML 1.1, where ``yes`` is a boolean), else the text is double-quoted, which can say anything.

The caller (:mod:`generator.studio.saving`) reads the result again with pnp's own loader and
compares every card with what was meant before anything is written.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import pairwise
from typing import Any

from msgspec import Struct
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    PlainScalarString,
    SingleQuotedScalarString,
)

from generator.load.parsecache import safe_load


class Absent:
    """The value of a field the edit removes."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = Absent()


class EditRefused(Exception):
    """The change cannot be written into this text without disturbing the rest of it."""


class _Splice(Struct, frozen=True):
    start: int
    end: int
    text: str


@cache
def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.width = 1 << 30  # a value is never folded onto several lines
    return yaml


def compose(text: str) -> Node | None:
    """The file's node tree (ruamel.yaml round-trip), with each node's start and end."""
    try:
        return _yaml().compose(text)
    except (YAMLError, RecursionError, ValueError) as exc:
        raise EditRefused(f"the file cannot be read as YAML ({type(exc).__name__})") from None


def _cards_node(root: Node | None) -> SequenceNode:
    if isinstance(root, MappingNode):
        for key, value in root.value:
            if isinstance(key, ScalarNode) and key.value == "cards" \
                    and isinstance(value, SequenceNode):
                return value
    raise EditRefused("the file has no 'cards:' list")


def card_node(root: Node | None, card_id: str) -> MappingNode:
    for item in _cards_node(root).value:
        if isinstance(item, MappingNode) and _field(item, "id") is not None \
                and _scalar(_field(item, "id")[1]) == card_id:  # type: ignore[index]
            return item
    raise EditRefused(f"card '{card_id}' is not in the file any more")


def _scalar(node: Node) -> str | None:
    return str(node.value) if isinstance(node, ScalarNode) else None


def _field(mapping: MappingNode, name: str) -> tuple[Node, Node] | None:
    for key, value in mapping.value:
        if isinstance(key, ScalarNode) and key.value == name:
            return key, value
    return None


# --- writing one value --------------------------------------------------------------------

def _dumped(data: Any) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def _flow_scalar(value: object, styled: object) -> str:
    """``styled`` as ruamel.yaml writes it inside a flow list (the strictest plain style)."""
    seq = CommentedSeq([styled])
    seq.fa.set_flow_style()
    text = _dumped(seq).rstrip("\n")
    if not (text.startswith("[") and text.endswith("]")):
        raise EditRefused(f"cannot write {value!r}")
    return text[1:-1]


def _block_scalar(value: object, styled: object) -> str:
    """``styled`` as ruamel.yaml writes it as a mapping's value, on one line."""
    text = _dumped(CommentedMap([("k", styled)])).rstrip("\n")
    if not text.startswith("k: ") or "\n" in text:
        raise EditRefused(f"cannot write {value!r}")
    return text[3:]


_STYLES = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString,
           None: PlainScalarString, "": PlainScalarString}


def same_value(one: object, other: object) -> bool:
    """Equal as YAML data, types included (``1``, ``1.0`` and ``true`` are three values)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, list):
        return len(one) == len(other) and all(  # type: ignore[arg-type]
            same_value(a, b) for a, b in zip(one, other, strict=False))  # type: ignore[call-overload]
    if isinstance(one, dict):
        return one.keys() == other.keys() and all(  # type: ignore[attr-defined]
            same_value(v, other[k]) for k, v in one.items())  # type: ignore[index]
    return one == other


def _reads_back(fragment: str, value: object, flow: bool) -> bool:
    probe = f"k: [{fragment}]\n" if flow else f"k: {fragment}\n"
    try:
        data = safe_load(probe)
    except Exception:  # any parser complaint: this fragment will not do
        return False
    if not isinstance(data, dict) or "k" not in data:
        return False
    read = data["k"][0] if flow and isinstance(data["k"], list) and len(data["k"]) == 1 \
        else (None if flow else data["k"])
    return read is not None and same_value(read, value)


def scalar_text(value: object, style: str | None = None, flow: bool = False) -> str:
    """A scalar as YAML text that pnp reads back as ``value``: in ``style`` (plain ``None``,
    ``'`` or ``"``) if it can say it, else as ruamel.yaml chooses, else double-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if _reads_back(text, value, flow):
            return text
        raise EditRefused(f"cannot write the number {value!r}")
    if not isinstance(value, str):
        raise EditRefused(f"cannot write {type(value).__name__} as a YAML scalar")
    write = _flow_scalar if flow else _block_scalar
    candidates = [_STYLES.get(style, PlainScalarString)(value), value,
                  DoubleQuotedScalarString(value)]
    for styled in candidates:
        try:
            text = write(value, styled)
        except EditRefused:
            continue
        if _reads_back(text, value, flow):
            return text
    raise EditRefused(f"cannot write the text {value[:40]!r}")


def flow_text(value: object, style: str | None = None) -> str:
    """Any value as one line of flow YAML (lists as ``[a, b]``, mappings as ``{k: v}``)."""
    if isinstance(value, list):
        return "[" + ", ".join(flow_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar_text(str(k), flow=True)}: {flow_text(v)}"
                               for k, v in value.items()) + "}"
    return scalar_text(value, style, flow=True)


def value_text(value: object, style: str | None = None) -> str:
    """A mapping value on the key's own line (block context: more plain texts are plain)."""
    if isinstance(value, list | dict):
        return flow_text(value)
    return scalar_text(value, style)


def literal_block(value: str, indent: int, newline: str) -> str | None:
    """``value`` as a literal block scalar (``|``, ``|-``) whose lines start at ``indent``,
    or None when a literal block cannot say it exactly (trailing blank lines, control
    characters, a line that starts with spaces and would need an indentation indicator)."""
    body = value[:-1] if value.endswith("\n") else value
    if not body or body.endswith("\n") or body.startswith((" ", "\t")) or any(
            (not ch.isprintable() and ch not in "\n\t") for ch in body):
        return None
    header = "|" if value.endswith("\n") else "|-"
    lines = [(" " * indent + line) if line else "" for line in body.split("\n")]
    return header + newline + newline.join(lines) + newline


# --- where things are ---------------------------------------------------------------------

def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """Index of the line break ending the line that holds ``index`` (or the text's end)."""
    end = text.find("\n", index)
    if end < 0:
        return len(text)
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _content_end(text: str, node: Node) -> int:
    """Where a value's own characters end: a block list at its last item, a block scalar after
    the line break of its last line (the blank lines and comments after them are not its)."""
    if isinstance(node, SequenceNode | MappingNode) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(text, last[1] if isinstance(node, MappingNode) else last)
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        end = node.end_mark.index
        while end > node.start_mark.index and text[end - 1] in "\r\n ":
            end -= 1
        newline = text.find("\n", end)
        return len(text) if newline < 0 else newline + 1
    return node.end_mark.index


def _colon_after(text: str, key: Node) -> int:
    index = text.find(":", key.end_mark.index)
    if index < 0:
        raise EditRefused("a key without its colon")
    return index


def _is_block(node: Node) -> bool:
    return isinstance(node, SequenceNode | MappingNode) and not node.flow_style and bool(
        node.value)


# --- the edit -----------------------------------------------------------------------------

def _replace(text: str, key: Node, node: Node, value: object, newline: str,
             in_flow: bool) -> _Splice:
    """The splice that writes ``value`` over ``node`` (``in_flow``: inside a flow mapping,
    where plain texts may not hold ``,`` or brackets)."""
    start, end = node.start_mark.index, _content_end(text, node)
    if isinstance(node, ScalarNode) and node.style in ("|", ">") and isinstance(value, str):
        indent = _block_indent(text, node)
        block = literal_block(value, indent, newline)
        if block is not None:
            ends_line = end > 0 and text[end - 1] == "\n"
            return _Splice(start, end, block if ends_line else block.rstrip("\r\n"))
    if isinstance(node, SequenceNode) and _is_block(node) and isinstance(value, list) and value \
            and all(not isinstance(item, list | dict) for item in value):
        column = node.start_mark.column
        items = [f"- {scalar_text(item)}" for item in value]
        return _Splice(start, end, (newline + " " * column).join(items))
    if (isinstance(node, ScalarNode) and node.style in ("|", ">")) or _is_block(node):
        # a block value becomes one flow value on the key's own line
        colon = _colon_after(text, key)
        tail = end
        if isinstance(node, ScalarNode) and end > 0 and text[end - 1] == "\n":
            tail = end - (2 if end > 1 and text[end - 2] == "\r" else 1)
        return _Splice(colon + 1, tail, " " + value_text(value))
    style = node.style if isinstance(node, ScalarNode) else None
    written = flow_text(value, style) if in_flow else value_text(value, style)
    return _Splice(start, end, written)


def _block_indent(text: str, node: ScalarNode) -> int:
    """Column of a block scalar's content (its first non-blank line)."""
    index = text.find("\n", node.start_mark.index) + 1
    while index < len(text):
        end = text.find("\n", index)
        line = text[index:len(text) if end < 0 else end].rstrip("\r")
        if line.strip():
            return len(line) - len(line.lstrip(" "))
        if end < 0:
            break
        index = end + 1
    return node.start_mark.column + 2


def _remove(text: str, mapping: MappingNode, position: int) -> _Splice:
    key, value = mapping.value[position]
    if mapping.flow_style:
        if position > 0:
            return _Splice(mapping.value[position - 1][1].end_mark.index, value.end_mark.index,
                           "")
        if len(mapping.value) > 1:
            return _Splice(key.start_mark.index, mapping.value[1][0].start_mark.index, "")
        raise EditRefused("cannot remove the only field of a card")
    start = _line_start(text, key.start_mark.index)
    if text[start:key.start_mark.index].strip():
        raise EditRefused(f"'{key.value}' shares its line with other text")
    end = _content_end(text, value)
    if not (end > 0 and text[end - 1] == "\n"):
        newline = text.find("\n", end)
        end = len(text) if newline < 0 else newline + 1
    return _Splice(start, end, "")


def _anchor(mapping: MappingNode, name: str, order: Sequence[str], kept: set[int]) -> int:
    """The position of the kept field a new field ``name`` goes after: the nearest one before
    it in the schema's ``order``, else the last kept field."""
    present = {i: str(k.value) for i, (k, _) in enumerate(mapping.value) if i in kept}
    anchor = max(present)
    if name in order:
        rank = {field: index for index, field in enumerate(order)}
        before = [i for i, field in present.items() if rank.get(field, len(order)) < rank[name]]
        if before:
            anchor = max(before, key=lambda i: (rank.get(present[i], -1), i))
    return anchor


def _insert(text: str, mapping: MappingNode, anchor: int, fields: list[tuple[str, object]],
            newline: str) -> _Splice:
    """New fields, in this order, right after the field at ``anchor``."""
    _, anchor_value = mapping.value[anchor]
    if mapping.flow_style:
        return _Splice(anchor_value.end_mark.index, anchor_value.end_mark.index, "".join(
            f", {scalar_text(name, flow=True)}: {flow_text(value)}" for name, value in fields))
    column = mapping.value[0][0].start_mark.column
    end = _content_end(text, anchor_value)
    if end > 0 and text[end - 1] == "\n":  # a block scalar: its line break is its own
        at = end - (2 if end > 1 and text[end - 2] == "\r" else 1)
    else:
        at = _line_end(text, end)
    return _Splice(at, at, "".join(f"{newline}{' ' * column}{scalar_text(name)}: "
                                   f"{value_text(value)}" for name, value in fields))


def edit_card(text: str, card_id: str, changes: Mapping[str, object],
              order: Sequence[str] = ()) -> str:
    """``text`` with card ``card_id``'s fields set to ``changes`` (``ABSENT`` removes one);
    new fields go after the field before them in ``order`` (the schema's)."""
    root = compose(text)
    mapping = card_node(root, card_id)
    newline = _newline(text)
    positions = {str(k.value): i for i, (k, _) in enumerate(mapping.value)
                 if isinstance(k, ScalarNode)}
    removed = {positions[name] for name, value in changes.items()
               if value is ABSENT and name in positions}
    kept = set(range(len(mapping.value))) - removed
    if not kept:
        raise EditRefused("cannot remove every field of a card")
    splices = [_remove(text, mapping, position) for position in sorted(removed)]
    added: dict[int, list[tuple[str, object]]] = {}
    rank = {field: index for index, field in enumerate(order)}
    for name, value in sorted(changes.items(), key=lambda item: rank.get(item[0], len(rank))):
        if value is ABSENT:
            continue
        if name in positions:
            key, node = mapping.value[positions[name]]
            splices.append(_replace(text, key, node, value, newline,
                                    bool(mapping.flow_style)))
        else:
            added.setdefault(_anchor(mapping, name, order, kept), []).append((name, value))
    splices += [_insert(text, mapping, anchor, fields, newline)
                for anchor, fields in added.items()]
    return _applied(text, splices)


def _applied(text: str, splices: list[_Splice]) -> str:
    ordered = sorted(splices, key=lambda s: (s.start, s.end))
    for one, other in pairwise(ordered):
        if other.start < one.end:
            raise EditRefused("two changes overlap")
    for splice in reversed(ordered):
        text = text[:splice.start] + splice.text + text[splice.end:]
    return text


# --- new cards ------------------------------------------------------------------------------

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
    newline = _newline(text)
    if not cards.value and not cards.flow_style:
        raise EditRefused("the file's cards: list is empty")
    if cards.flow_style:
        raise EditRefused("the file writes its cards: list in flow style [...]")
    anchor = card_node(root, after) if after is not None else cards.value[-1]
    if not isinstance(anchor, MappingNode):
        raise EditRefused("the last entry of cards: is not a card")
    dash = _dash_column(text, anchor)
    at = _line_end(text, _content_end_of(text, anchor))
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
    end = _content_end(text, mapping.value[-1][1])
    if end > 0 and text[end - 1] == "\n":
        end -= 2 if end > 1 and text[end - 2] == "\r" else 1
    return end


def _dash_column(text: str, mapping: MappingNode) -> int:
    start = _line_start(text, mapping.start_mark.index)
    line = text[start:mapping.start_mark.index]
    dash = line.rfind("-")
    if dash < 0 or line[:dash].strip():
        raise EditRefused("a card that does not start its own '- ' line")
    return dash


def _card_copy(text: str, source: MappingNode, new_id: str, dash: int) -> str:
    """The source card's lines, its id replaced, its first line starting at ``dash``."""
    first = _line_start(text, source.start_mark.index)
    end = _line_end(text, _content_end_of(text, source))
    id_node = _field(source, "id")
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

