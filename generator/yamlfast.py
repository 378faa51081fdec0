"""A single-pass YAML reader for ordinary card files, exact where it answers at all.

:mod:`generator.yamlsource` composes PyYAML nodes in Python and walks them: it handles every
corner of YAML and every limit with a located finding, but spends some 1.7 s per MB doing it
(Node and Mark objects, the Resolver's path machinery, a second pass over the graph). Card files
of ten thousand cards are ordinary input, so this module reads libyaml's events once, with an
explicit stack (nesting costs no interpreter stack), and builds the plain data and the
``path -> Location`` index in the same pass, several times faster.

It answers only where its answer is the slow path's byte for byte: plain scalars are resolved by
PyYAML's own implicit-resolver table and built by PyYAML's own constructors, marks come from the
same parser. Whatever would end in a finding, or that it does not model (explicit tags, merge
keys, non-scalar or aliased keys, several documents, any limit reached, any parser error), raises
:class:`Fallback`, and the caller reruns the slow loader, which is the single source of every
finding. tests/test_yamlfast.py holds the two to the same results on every YAML file of the
repository and thousands of mutations of them.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable

from yaml import YAMLError
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from generator.limits import MAX_ALIAS_VALUES, MAX_DEPTH, MAX_INTEGER, MAX_STRING_CHARS, MAX_VALUES
from generator.location import Location

try:
    from yaml.cyaml import CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml: the slow path reads everything
    CParser = None

PathKey = tuple[str | int, ...]


class Fallback(Exception):
    """This text needs the slow loader: it ends in a finding or uses what we do not model."""


_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
#: the implicit tags whose values the slow path reads without a finding (merge "<<" and value
#: "=" are not among them: they end in a finding or need the slow path's merge handling)
_READ_TAGS = frozenset({_INT_TAG, _FLOAT_TAG, _TIMESTAMP_TAG, "tag:yaml.org,2002:bool",
                        "tag:yaml.org,2002:null"})
#: as in yamlsource: room for a sign, '_' separators and a 0x prefix
_MAX_INTEGER_DIGITS = len(str(MAX_INTEGER)) + 4
#: distinct plain scalars remembered per file (ids and names are distinct; keys and numbers
#: repeat), so memory stays bounded whatever the file holds
_MEMO_LIMIT = 50_000
#: values an alias may bring in before we stop expanding: the slow path refuses beyond it
_MAX_WALKED = MAX_VALUES + MAX_ALIAS_VALUES


def _resolver_table() -> tuple[dict[str, list], list]:
    """PyYAML's implicit resolvers by first character, the wildcard ones appended, exactly as
    ``Resolver.resolve`` tries them; plain scalars starting with any other character are text."""
    table = Resolver.yaml_implicit_resolvers
    wildcard = list(table.get(None, []))
    return {first: list(resolvers) + wildcard for first, resolvers in table.items()
            if first is not None}, wildcard


_RESOLVERS, _WILDCARD = _resolver_table()
_CONSTRUCTOR = SafeConstructor()
_CONSTRUCTORS = SafeConstructor.yaml_constructors


def resolve_plain(text: str) -> object:
    """The value of a plain (unquoted, untagged) scalar, as the slow path reads it, or Fallback
    where the slow path reports a finding (bad date, huge or non-finite number, merge key...)."""
    if Resolver.yaml_path_resolvers:  # pragma: no cover - nobody in pnp registers one
        raise Fallback
    resolvers = _RESOLVERS.get(text[0] if text else "", _WILDCARD)
    tag = next((tag for tag, regexp in resolvers if regexp.match(text)), None)
    if tag is None:
        return text
    if tag not in _READ_TAGS:
        raise Fallback
    if tag == _INT_TAG and len(text) > _MAX_INTEGER_DIGITS \
            and sum(ch.isdigit() for ch in text) > _MAX_INTEGER_DIGITS:
        raise Fallback
    try:
        value = _CONSTRUCTORS[tag](_CONSTRUCTOR, ScalarNode(tag, text))
    except Exception:  # whatever it is, the slow path words it
        raise Fallback from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
        raise Fallback
    if isinstance(value, float) and not math.isfinite(value):
        raise Fallback
    return value


def _copy(value: object) -> object:
    """A fresh copy of an anchored collection for each alias, as the slow path's re-walk gives
    (a caller that edits one place must not edit the other); nesting is at most MAX_DEPTH."""
    if value.__class__ is list:
        return [_copy(item) for item in value]  # type: ignore[attr-defined]
    if value.__class__ is dict:
        return {key: _copy(item) for key, item in value.items()}  # type: ignore[attr-defined]
    return value


class _Anchored:
    """What an alias repeats: the value, and the index entries below it relative to it."""

    __slots__ = ("depth", "keys", "value", "values")

    def __init__(self, value: object, values: list, keys: list, depth: int) -> None:
        self.value = value
        self.values = values  # [(relative path, Location)], the anchored node's own first
        self.keys = keys
        self.depth = depth  # longest relative path below the anchored node


class _Recorder:
    """Collects the index entries written while an anchored collection is open."""

    __slots__ = ("anchor", "base", "keys", "values")

    def __init__(self, anchor: str, base: int) -> None:
        self.anchor = anchor
        self.base = base  # length of the anchored collection's own path
        self.values: list[tuple[PathKey, Location]] = []
        self.keys: list[tuple[PathKey, Location]] = []

    def anchored(self, value: object) -> _Anchored:
        base = self.base
        values = [(path[base:], where) for path, where in self.values]
        keys = [(path[base:], where) for path, where in self.keys]
        return _Anchored(value, values, keys, max(len(path) for path, _ in values))


def load_fast(file: str, text: str) -> tuple[object, dict[PathKey, Location],
                                              dict[PathKey, Location]]:
    """(data, values, keys) of one YAML document, or Fallback; see the module docstring."""
    if CParser is None:  # pragma: no cover - PyYAML without libyaml
        raise Fallback
    parser = CParser(text)
    # The cyclic garbage collector is paused while we read: the data we build holds no cycles,
    # yet its many young objects made the collector run full passes over everything read so
    # far, some 30 % of the time on a 2 MB file. It is restored however we leave.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _read(file, parser.get_event)
    except YAMLError:
        raise Fallback from None
    finally:
        if collecting:
            gc.enable()
        parser.dispose()


def _read(file: str, get_event: Callable[[], object]) -> tuple[object, dict, dict]:
    """The event loop. One function with local names on purpose: it runs once per event, and
    attribute and call overhead is most of what it costs."""
    if get_event().__class__ is not StreamStartEvent \
            or get_event().__class__ is not DocumentStartEvent:
        raise Fallback  # an empty stream: the slow path's empty-file finding
    values: dict[PathKey, Location] = {}
    keys: dict[PathKey, Location] = {}
    memo: dict[str, object] = {}  # plain scalar text -> its value
    anchors: dict[str, _Anchored] = {}  # complete anchored nodes
    seen_anchors: set[str] = set()  # complete or still open
    recorders: list[_Recorder] = []  # one per open anchored collection
    open_anchors: list[str | None] = []  # the anchor of each open collection
    stack: list[tuple[object, PathKey, bool]] = []  # the collections that hold the open one
    nodes = 0  # nodes as written (keys, values, aliases), as the slow path's composer counts
    root: object = None
    # the collection being filled, its path, whether it is a mapping, and in a mapping the key
    # just read and the path of its value (key_path is None while a key is expected)
    container: object = None
    path: PathKey = ()
    is_map = False
    key = ""
    key_path: PathKey | None = None
    # Location(file, line, column) without the frozen dataclass's __init__ (its three
    # object.__setattr__ calls were a sixth of the time): the same object, set through its slots
    new_location = object.__new__
    set_file = Location.file.__set__  # type: ignore[attr-defined]
    set_line = Location.line.__set__  # type: ignore[attr-defined]
    set_column = Location.column.__set__  # type: ignore[attr-defined]
    while True:
        event = get_event()
        cls = event.__class__
        anchored: _Anchored | None = None
        if cls is ScalarEvent:
            nodes += 1
            text = event.value  # type: ignore[attr-defined]
            if event.tag is not None or len(text) > MAX_STRING_CHARS \
                    or nodes > MAX_VALUES:  # type: ignore[attr-defined]
                raise Fallback  # an explicit tag, a text or a file too long
            if event.implicit[0]:  # type: ignore[attr-defined] - plain: typed by its text
                value = memo.get(text, memo)
                if value is memo:
                    value = resolve_plain(text)
                    if len(memo) < _MEMO_LIMIT:
                        memo[text] = value
            else:
                value = text
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            nodes += 1
            if event.tag is not None or nodes > MAX_VALUES:  # type: ignore[attr-defined]
                raise Fallback
            value = {} if cls is MappingStartEvent else []
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            if open_anchors.pop() is not None:
                recorder = recorders.pop()
                anchors[recorder.anchor] = recorder.anchored(container)
            container, path, is_map = stack.pop()
            key_path = None
            if not stack:
                break  # the document's collection is complete
            continue
        elif cls is AliasEvent:
            nodes += 1
            anchored = anchors.get(event.anchor)  # type: ignore[attr-defined]
            if anchored is None or nodes > MAX_VALUES:
                raise Fallback  # an undefined or recursive alias, too many values
            value = _copy(anchored.value)
        else:  # pragma: no cover - no other event comes inside a document
            raise Fallback
        if anchored is None:
            mark = event.start_mark  # type: ignore[attr-defined]
            where = new_location(Location)
            set_file(where, file)
            set_line(where, mark.line + 1)
            set_column(where, mark.column + 1)
        if is_map and key_path is None:  # this node is a key
            if cls is not ScalarEvent or event.anchor is not None:  # type: ignore[attr-defined]
                raise Fallback  # a collection, an alias or an anchored node as a key
            key = value if value.__class__ is str else str(value)
            if key in container:  # type: ignore[operator]
                raise Fallback  # a duplicate key: the slow path's finding
            key_path = (*path, key)
            keys[key_path] = where
            if recorders:
                for recorder in recorders:
                    recorder.keys.append((key_path, where))
            continue
        if is_map:
            value_path = key_path
            container[key] = value  # type: ignore[index]
            key_path = None
        elif container is None:
            value_path = ()
            root = value
        else:
            value_path = (*path, len(container))  # type: ignore[arg-type]
            container.append(value)  # type: ignore[attr-defined]
        if anchored is not None:  # an alias: the anchored node's entries again, at this path
            if len(value_path) + anchored.depth > MAX_DEPTH \
                    or len(values) + len(anchored.values) > _MAX_WALKED:
                raise Fallback  # nesting or expansion beyond the limits
            for relative, where in anchored.values:
                full = value_path + relative
                values[full] = where
                for recorder in recorders:
                    recorder.values.append((full, where))
            for relative, where in anchored.keys:
                full = value_path + relative
                keys[full] = where
                for recorder in recorders:
                    recorder.keys.append((full, where))
            continue
        values[value_path] = where
        if recorders:
            for recorder in recorders:
                recorder.values.append((value_path, where))
        anchor = event.anchor  # type: ignore[attr-defined]
        if anchor is not None:
            if anchor in seen_anchors:
                raise Fallback  # a duplicate anchor: the slow path's finding
            seen_anchors.add(anchor)
        if cls is ScalarEvent:
            if anchor is not None:
                anchors[anchor] = _Anchored(value, [((), where)], [], 0)
            if container is None:
                break  # the document is one scalar
            continue
        stack.append((container, path, is_map))
        if len(stack) > MAX_DEPTH:
            raise Fallback  # nested too deep: the slow path's finding
        open_anchors.append(anchor)
        if anchor is not None:
            recorder = _Recorder(anchor, len(value_path))
            recorder.values.append((value_path, where))
            recorders.append(recorder)
        container, path, is_map = value, value_path, cls is MappingStartEvent
    # after the root node: the end of this document, and no other
    if get_event().__class__ is not DocumentEndEvent \
            or get_event().__class__ is not StreamEndEvent:
        raise Fallback
    if len(values) > nodes + MAX_ALIAS_VALUES:
        raise Fallback  # the slow path's alias-expansion finding
    return root, values, keys
