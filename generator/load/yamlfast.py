"""A single-pass YAML reader for card files, exact where it answers at all.

:mod:`generator.load.yamlsource` composes PyYAML nodes in Python and walks them: it handles every
corner of YAML and every limit with a located finding, but spends some 1.7 s per MB doing it
(Node and Mark objects, the Resolver's path machinery, a second pass over the graph). Card files
of ten thousand cards are ordinary input, so this module reads libyaml's events once, with an
explicit stack (nesting costs no interpreter stack), and builds the plain data and the
``path -> Location`` index in the same pass, several times faster.

It answers only where its answer is the slow path's exactly: plain scalars are resolved by
PyYAML's own implicit-resolver table and built by PyYAML's own constructors, marks come from the
same parser. A file that ends in one of the common findings (a syntax error, a scalar the walker
refuses, a duplicate key) is answered too, by naming the problem (a :class:`FoundProblem`) for
yamlsource to word with its own code, once the rest of the document is known to compose, so
that no finding of the slow path would have come first. Whatever else it does not model
(explicit tags, merge keys, non-scalar or aliased keys, several documents, a limit reached, an
alias gone wrong) raises :class:`Fallback`, and the caller reruns the slow loader.
tests/load/test_yamlfast.py holds the two to the same results on every YAML file of the repository
and thousands of mutations of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NoReturn

from yaml import MarkedYAMLError, YAMLError
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

from generator.core.limits import (
    MAX_ALIAS_VALUES,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_STRING_CHARS,
    MAX_VALUES,
)
from generator.core.location import Location
from generator.runtime.gcpause import collector_paused

try:
    from yaml.cyaml import CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml: the slow path reads everything
    CParser = None

PathKey = tuple[str | int, ...]


class Fallback(Exception):
    """This text needs the slow loader: it uses what we do not model, or what it ends in."""


class FoundProblem(Exception):
    """The slow loader's finding for this text is known: one of the three kinds below."""


class FoundSyntaxError(FoundProblem):
    """libyaml's parser stopped (the slow loader's parser stops at the same event)."""

    def __init__(self, error: MarkedYAMLError) -> None:
        super().__init__(error)
        self.error = error


class FoundBadScalar(FoundProblem):
    """A scalar the walker refuses (too long, a bad date, a huge or non-finite number...);
    the walker itself says how, or that it is fine after all."""

    def __init__(self, tag: str, text: str, location: Location) -> None:
        super().__init__(text)
        self.tag, self.text, self.location = tag, text, location


class FoundDuplicateKey(FoundProblem):
    """A key said twice in one mapping."""

    def __init__(self, key: str, first: Location, location: Location) -> None:
        super().__init__(key)
        self.key, self.first, self.location = key, first, location


class _Unreadable(Exception):
    """A plain scalar the walker would not read; ``tag`` is what it resolved to."""

    def __init__(self, tag: str) -> None:
        super().__init__(tag)
        self.tag = tag


_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_MERGE_TAG = "tag:yaml.org,2002:merge"
#: tags a key may resolve to that the slow path handles before walking: a merge key is merged,
#: a value key ("=") is read as text
_KEY_TAGS = frozenset({_MERGE_TAG, "tag:yaml.org,2002:value"})
#: the implicit tags whose values the slow path reads (merge "<<" and value "=" are not among
#: them: as values they end in a finding, as keys they need the slow path's merge handling)
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


def implicit_tag(text: str) -> str:
    """The tag PyYAML's Resolver gives a plain scalar."""
    resolvers = _RESOLVERS.get(text[0] if text else "", _WILDCARD)
    return next((tag for tag, regexp in resolvers if regexp.match(text)), _STR_TAG)


def resolve_plain(text: str) -> object:
    """The value of a plain (unquoted, untagged) scalar as the slow path reads it; _Unreadable
    where the walker reports a finding (bad date, huge or non-finite number, "<<", "="...)."""
    if Resolver.yaml_path_resolvers:  # pragma: no cover - nobody in pnp registers one
        raise Fallback
    tag = implicit_tag(text)
    if tag == _STR_TAG:
        return text
    if tag not in _READ_TAGS:
        raise _Unreadable(tag)
    if tag == _INT_TAG and len(text) > _MAX_INTEGER_DIGITS \
            and sum(ch.isdigit() for ch in text) > _MAX_INTEGER_DIGITS:
        raise _Unreadable(tag)
    try:
        value = _CONSTRUCTORS[tag](_CONSTRUCTOR, ScalarNode(tag, text))
    except Exception:  # whatever it is, the walker words it
        raise _Unreadable(tag) from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
        raise _Unreadable(tag)
    if isinstance(value, float) and not math.isfinite(value):
        raise _Unreadable(tag)
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
    """(data, values, keys) of one YAML document, a FoundProblem, or Fallback."""
    if CParser is None:  # pragma: no cover - PyYAML without libyaml
        raise Fallback
    parser = CParser(text)
    # The cyclic garbage collector is paused while we read: the data we build holds no cycles,
    # yet its many young objects made the collector run full passes over everything read so
    # far, some 30 % of the time on a 2 MB file.
    try:
        with collector_paused():
            return _read(file, parser.get_event)
    except MarkedYAMLError as stopped:
        raise FoundSyntaxError(stopped) from None
    except YAMLError:
        raise Fallback from None
    finally:
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
    while True:
        event = get_event()
        cls = event.__class__
        anchored: _Anchored | None = None
        if cls is ScalarEvent:
            nodes += 1
            text = event.value  # type: ignore[attr-defined]
            if event.tag is not None or nodes > MAX_VALUES:  # type: ignore[attr-defined]
                raise Fallback  # an explicit tag, too many values
            try:
                if len(text) > MAX_STRING_CHARS:
                    raise _Unreadable(_STR_TAG)
                if event.implicit[0]:  # type: ignore[attr-defined] - plain: typed by its text
                    value = memo.get(text, memo)
                    if value is memo:
                        value = resolve_plain(text)
                        if len(memo) < _MEMO_LIMIT:
                            memo[text] = value
                else:
                    value = text
            except _Unreadable as unreadable:
                is_key = is_map and key_path is None
                if event.anchor is not None \
                        or (is_key and unreadable.tag in _KEY_TAGS):  # type: ignore[attr-defined]
                    raise Fallback from None  # an anchored problem, a merge key
                mark = event.start_mark  # type: ignore[attr-defined]
                _stop(FoundBadScalar(unreadable.tag, text,
                                     Location(file, mark.line + 1, mark.column + 1)),
                      get_event, _levels(stack, is_map, not is_key, container), seen_anchors,
                      set(anchors), open_anchors, nodes, len(values) + (not is_key))
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
            if anchored is None or nodes > MAX_VALUES \
                    or len(values) + len(anchored.values) > _MAX_WALKED:
                raise Fallback  # an undefined or recursive alias, too many values
            value = _copy(anchored.value)
        else:  # pragma: no cover - no other event comes inside a document
            raise Fallback
        if anchored is None:
            mark = event.start_mark  # type: ignore[attr-defined]
            where = Location(file, mark.line + 1, mark.column + 1)
        if is_map and key_path is None:  # this node is a key
            if cls is not ScalarEvent or event.anchor is not None:  # type: ignore[attr-defined]
                raise Fallback  # a collection, an alias or an anchored node as a key
            key = value if value.__class__ is str else str(value)
            if key in container:  # type: ignore[operator]
                _stop(FoundDuplicateKey(key, keys[(*path, key)], where), get_event,
                      _levels(stack, is_map, False, container), seen_anchors, set(anchors),
                      open_anchors, nodes, len(values))
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
            if len(value_path) + anchored.depth > MAX_DEPTH:
                raise Fallback  # nested too deep through aliases
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


def _levels(stack: list[tuple[object, PathKey, bool]], is_map: bool, expect_key: bool,
            container: object) -> list[list[bool]]:
    """[is a mapping, a key comes next] for each open collection, outermost first (the stack
    holds each one's parent; after an inner collection, a mapping expects a key)."""
    if container is None:
        return []
    return [[entry[2], True] for entry in stack[1:]] + [[is_map, expect_key]]


def _stop(found: FoundProblem, get_event: Callable[[], object], levels: list[list[bool]],
          seen: set[str], complete: set[str], open_anchors: list[str | None], nodes: int,
          walked: int) -> NoReturn:
    """Raise ``found`` if it is the slow path's first finding. It is, unless composing the rest
    of the document fails (the slow path composes all before it walks): so the rest is read
    for what the composer checks (the parser, node count, depth, anchors and aliases, a single
    document), and for merge keys, which could reorder the walk. ``walked`` values come before
    ``found`` in the walk; beyond the alias allowance, the walk stopped earlier."""
    while levels:
        event = get_event()
        cls = event.__class__
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            levels.pop()
            anchor = open_anchors.pop()
            if anchor is not None:
                complete.add(anchor)
            continue
        if cls is not ScalarEvent and cls is not AliasEvent and cls is not MappingStartEvent \
                and cls is not SequenceStartEvent:
            raise Fallback  # pragma: no cover - no other event comes inside a document
        nodes += 1
        level = levels[-1]
        is_key = level[0] and level[1]
        if level[0]:
            level[1] = not level[1]
        if nodes > MAX_VALUES:
            raise Fallback
        if cls is AliasEvent:
            if event.anchor not in complete:  # type: ignore[attr-defined]
                raise Fallback  # an undefined or recursive alias
            continue
        if is_key and (event.tag == _MERGE_TAG or (  # type: ignore[attr-defined]
                cls is ScalarEvent and event.tag is None and event.implicit[0]  # type: ignore
                and implicit_tag(event.value) == _MERGE_TAG)):  # type: ignore[attr-defined]
            raise Fallback
        anchor = event.anchor  # type: ignore[attr-defined]
        if anchor is not None:
            if anchor in seen:
                raise Fallback  # a duplicate anchor
            seen.add(anchor)
        if cls is ScalarEvent:
            if anchor is not None:
                complete.add(anchor)
            continue
        levels.append([cls is MappingStartEvent, True])
        open_anchors.append(anchor)
        if len(levels) > MAX_DEPTH:
            raise Fallback
    if get_event().__class__ is not DocumentEndEvent \
            or get_event().__class__ is not StreamEndEvent:
        raise Fallback
    if walked > nodes + MAX_ALIAS_VALUES:
        raise Fallback
    raise found
