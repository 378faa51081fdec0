"""Changed values written into a pack's YAML file, and not one other byte.

A pack's YAML (its card files, its ``game.yaml``) is the designer's: its comments, key order,
quoting, blank lines and line breaks are theirs. Dumping a whole document again, even with
ruamel.yaml's round-trip mode, reflows flow mappings and long lines somewhere in a real pack (13
of the 80 shipped YAML files came back different). So the file is never dumped: ruamel.yaml's
round-trip composer gives every node of the file with its start and end, and only the
characters of a changed value are replaced (a new key becomes one new line, a removed key loses
its lines, a new list item is added after the last one). Each new value is written by
ruamel.yaml's emitter in the style the old value had (plain, single or double quoted, literal
block, flow or block list) when that style can say it; what pnp reads back decides (PyYAML reads
YAML 1.1, where ``yes`` is a boolean), else the text is double-quoted, which can say anything.

This module edits one mapping (:func:`edit_mapping`) or one list (:func:`append_item`) that the
caller found in :func:`compose`'s tree; what the file means is the caller's
(:mod:`generator.studio.yamlcards` finds a card, :mod:`generator.i18n.gamelocales` the pack's
languages). Callers read the result again with pnp's own loader before anything is written.
ruamel.yaml is imported here only: this module is loaded by the commands that write YAML, never
on ``pnp validate``'s path.
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


class Splice(Struct, frozen=True):
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


def scalar_value(node: Node) -> str | None:
    return str(node.value) if isinstance(node, ScalarNode) else None


def mapping_field(mapping: MappingNode, name: str) -> tuple[Node, Node] | None:
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

def newline_of(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def line_end(text: str, index: int) -> int:
    """Index of the line break ending the line that holds ``index`` (or the text's end)."""
    end = text.find("\n", index)
    if end < 0:
        return len(text)
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def content_end(text: str, node: Node) -> int:
    """Where a value's own characters end: a block list at its last item, a block scalar after
    the line break of its last line (the blank lines and comments after them are not its)."""
    if isinstance(node, SequenceNode | MappingNode) and not node.flow_style and node.value:
        last = node.value[-1]
        return value_end(text, *last) if isinstance(node, MappingNode) else content_end(text,
                                                                                      last)
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        end = node.end_mark.index
        while end > node.start_mark.index and text[end - 1] in "\r\n ":
            end -= 1
        newline = text.find("\n", end)
        return len(text) if newline < 0 else newline + 1
    return node.end_mark.index


def value_end(text: str, key: Node, node: Node) -> int:
    """Where the value of ``key`` ends: :func:`content_end`, except that an empty value
    (``name:``) ends at its colon (the composer puts its empty node where the next token is,
    which may be the next field's key)."""
    return _colon_after(text, key) + 1 if _empty(node) else content_end(text, node)


def _empty(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.start_mark.index == node.end_mark.index


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
             in_flow: bool) -> Splice:
    """The splice that writes ``value`` over ``node`` (``in_flow``: inside a flow mapping,
    where plain texts may not hold ``,`` or brackets)."""
    if _empty(node):  # ``name:`` gets its value after the colon
        at = _colon_after(text, key) + 1
        return Splice(at, at, " " + (flow_text(value) if in_flow else value_text(value)))
    start, end = node.start_mark.index, content_end(text, node)
    if isinstance(node, ScalarNode) and node.style in ("|", ">") and isinstance(value, str):
        indent = _block_indent(text, node)
        block = literal_block(value, indent, newline)
        if block is not None:
            ends_line = end > 0 and text[end - 1] == "\n"
            return Splice(start, end, block if ends_line else block.rstrip("\r\n"))
    if isinstance(node, SequenceNode) and _is_block(node) and isinstance(value, list) and value \
            and all(not isinstance(item, list | dict) for item in value):
        column = node.start_mark.column
        items = [f"- {scalar_text(item)}" for item in value]
        return Splice(start, end, (newline + " " * column).join(items))
    if (isinstance(node, ScalarNode) and node.style in ("|", ">")) or _is_block(node):
        # a block value becomes one flow value on the key's own line
        colon = _colon_after(text, key)
        tail = end
        if isinstance(node, ScalarNode) and end > 0 and text[end - 1] == "\n":
            tail = end - (2 if end > 1 and text[end - 2] == "\r" else 1)
        return Splice(colon + 1, tail, " " + value_text(value))
    style = node.style if isinstance(node, ScalarNode) else None
    written = flow_text(value, style) if in_flow else value_text(value, style)
    return Splice(start, end, written)


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


def _remove(text: str, mapping: MappingNode, position: int) -> Splice:
    key, value = mapping.value[position]
    if mapping.flow_style:
        if position > 0:
            return Splice(mapping.value[position - 1][1].end_mark.index, value.end_mark.index,
                           "")
        if len(mapping.value) > 1:
            return Splice(key.start_mark.index, mapping.value[1][0].start_mark.index, "")
        raise EditRefused("cannot remove every field")
    start = line_start(text, key.start_mark.index)
    if text[start:key.start_mark.index].strip():
        raise EditRefused(f"'{key.value}' shares its line with other text")
    end = value_end(text, key, value)
    if not (end > 0 and text[end - 1] == "\n"):
        newline = text.find("\n", end)
        end = len(text) if newline < 0 else newline + 1
    return Splice(start, end, "")


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
            newline: str) -> Splice:
    """New fields, in this order, right after the field at ``anchor``."""
    anchor_key, anchor_value = mapping.value[anchor]
    if mapping.flow_style:
        return Splice(anchor_value.end_mark.index, anchor_value.end_mark.index, "".join(
            f", {scalar_text(name, flow=True)}: {flow_text(value)}" for name, value in fields))
    column = mapping.value[0][0].start_mark.column
    end = value_end(text, anchor_key, anchor_value)
    if end > 0 and text[end - 1] == "\n":  # a block scalar: its line break is its own
        at = end - (2 if end > 1 and text[end - 2] == "\r" else 1)
    else:
        at = line_end(text, end)
    return Splice(at, at, "".join(f"{newline}{' ' * column}{scalar_text(name)}: "
                                   f"{value_text(value)}" for name, value in fields))


def edit_mapping(text: str, mapping: MappingNode, changes: Mapping[str, object],
                 order: Sequence[str] = ()) -> str:
    """``text`` with ``mapping``'s fields set to ``changes`` (``ABSENT`` removes one); new fields
    go after the field before them in ``order`` (e.g. the schema's), else after the last one.
    ``mapping`` is a node of :func:`compose`'s tree of this very ``text``."""
    newline = newline_of(text)
    positions = {str(k.value): i for i, (k, _) in enumerate(mapping.value)
                 if isinstance(k, ScalarNode)}
    removed = {positions[name] for name, value in changes.items()
               if value is ABSENT and name in positions}
    kept = set(range(len(mapping.value))) - removed
    if not kept:
        raise EditRefused("cannot remove every field")
    splices = [_remove(text, mapping, position) for position in sorted(removed)]
    added: dict[int, list[tuple[str, object]]] = {}
    rank = {name: index for index, name in enumerate(order)}
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
    return applied(text, splices)


def append_item(text: str, sequence: SequenceNode, value: object) -> str:
    """``text`` with ``value`` added after the last item of ``sequence`` (a node of
    :func:`compose`'s tree of this ``text``), written as that item is: ``[a, b]`` becomes
    ``[a, b, c]``, a block list gets one ``- c`` line under its last one (whose comment stays
    where it was). The other items keep every character."""
    if not sequence.value:
        raise EditRefused("the list is empty: there is no item to write the new one like")
    last = sequence.value[-1]
    style = last.style if isinstance(last, ScalarNode) else None
    if sequence.flow_style:
        end = last.end_mark.index
        return text[:end] + ", " + flow_text(value, style) + text[end:]
    if not isinstance(last, ScalarNode) or last.style in ("|", ">"):
        raise EditRefused("the list's last item is not a one-line value")
    dash = sequence.start_mark.column
    start = line_start(text, last.start_mark.index)
    if text[start:last.start_mark.index].strip() != "-" or \
            text.find("-", start) - start != dash:
        raise EditRefused("the list's last item does not stand on a '- ' line of its own")
    at = line_end(text, last.end_mark.index)
    return text[:at] + newline_of(text) + " " * dash + "- " + value_text(value, style) + text[at:]


def applied(text: str, splices: list[Splice]) -> str:
    """``text`` with the ``splices`` made (they must not overlap)."""
    ordered = sorted(splices, key=lambda s: (s.start, s.end))
    for one, other in pairwise(ordered):
        if other.start < one.end:
            raise EditRefused("two changes overlap")
    for splice in reversed(ordered):
        text = text[:splice.start] + splice.text + text[splice.end:]
    return text


