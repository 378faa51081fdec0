"""Safe YAML loading that remembers where every value came from, within fixed limits.

PyYAML's composed nodes carry start marks; we walk the node graph ourselves (instead of letting
the constructor build plain dicts) so that we can (a) keep a ``path -> Location`` index for every
value and every mapping key, (b) reject duplicate keys, which PyYAML silently overwrites, and
(c) hold every file to the limits of :mod:`generator.core.limits`: nesting depth (libyaml's composer
recurses in C and overflows the interpreter's stack on a few thousand nested brackets), values
after alias expansion ("billion laughs"), recursive aliases, text length and number magnitude.
Nodes are composed in Python from libyaml's events for that reason. Load problems are returned as
located findings, never raised to the user.
"""

from __future__ import annotations

import math
import re

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from generator.core.findings import Finding, error
from generator.core.limits import (
    MAX_ALIAS_VALUES,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_STRING_CHARS,
    MAX_VALUES,
)
from generator.core.location import Location
from generator.load.yamldoc import LoadProblem, PathKey, YamlDocument, text_location
from generator.load.yamlfast import (
    Fallback,
    FoundBadScalar,
    FoundDuplicateKey,
    FoundProblem,
    FoundSyntaxError,
    load_fast,
)

try:
    #: libyaml's event parser when PyYAML was built with it (several times faster); it keeps
    #: its own explicit stack, so it never recurses however deep the input nests
    from yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML without libyaml
    _Parser = None

#: characters YAML forbids in a stream (C0/C1 controls except tab, newline, CR and NEL)
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_STR_TAG = "tag:yaml.org,2002:str"
#: scalars whose value depends on their text alone, so one reading serves every repeat
_PURE_TAGS = frozenset({_INT_TAG, _FLOAT_TAG, "tag:yaml.org,2002:bool",
                        "tag:yaml.org,2002:null"})
#: distinct scalar texts remembered per file (a card file repeats a few thousand at most)
_MEMO_LIMIT = 50_000
_MAX_INTEGER_DIGITS = len(str(MAX_INTEGER)) + 4  # room for sign, '_' separators, a 0x prefix


def safe_load(text: str) -> object:
    """``yaml.safe_load`` with libyaml's parser: several times faster on every file pnp reads
    as plain data (palette, labels, glossary), which the pure-Python loader parsed before."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _mark_location(file: str, mark: yaml.Mark | None) -> Location:
    if mark is None:
        return Location(file, 1, 1)
    return Location(file, mark.line + 1, mark.column + 1)


def _find_tab_indent(file: str, text: str) -> Finding | None:
    """YAML forbids tabs in indentation; PyYAML's message for it is cryptic, so we look first."""
    if "\t" not in text:
        return None  # most files: one scan in C instead of a loop over every line
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        if "\t" in indent and stripped and not stripped.startswith("#"):
            column = indent.index("\t") + 1
            return error("yaml-tab", "tab character used for indentation; YAML allows spaces only",
                         Location(file, number, column))
    return None


def _find_control_character(file: str, text: str) -> Finding | None:
    """libyaml reports a control character by byte offset only; we name it and place it."""
    match = _NOT_PRINTABLE.search(text)
    if match is None:
        return None
    char = match.group()
    return error("yaml-control-character",
                 f"character U+{ord(char):04X} (a control character) is not allowed in a YAML "
                 "file; delete it or write it as an escape inside double quotes",
                 text_location(file, text, match.start()))


class _LimitedComposer(Composer):
    """PyYAML's composer with a ceiling on depth and node count and no recursive aliases."""

    def __init__(self, file: str) -> None:
        Composer.__init__(self)
        self.file = file
        self.depth = 0
        self.nodes = 0
        self.open_anchors: set[str] = set()

    def compose_node(self, parent: Node | None, index: object) -> Node:
        self.nodes += 1
        if self.nodes > MAX_VALUES:
            raise LoadProblem(error(
                "yaml-too-large", f"file holds more than {MAX_VALUES} values; split it into "
                "several card files",
                _mark_location(self.file, self.peek_event().start_mark)))
        if self.check_event(AliasEvent):
            event = self.peek_event()
            if event.anchor in self.open_anchors:
                raise LoadProblem(error(
                    "yaml-recursive-alias",
                    f"alias *{event.anchor} refers to a collection that contains it; "
                    "such a value never ends", _mark_location(self.file, event.start_mark)))
        return super().compose_node(parent, index)

    def _enter(self, anchor: str | None) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LoadProblem(_too_deep(_mark_location(self.file, self.peek_event().start_mark)))
        if anchor is not None:
            self.open_anchors.add(anchor)

    def _leave(self, anchor: str | None) -> None:
        self.depth -= 1
        self.open_anchors.discard(anchor)  # type: ignore[arg-type]

    def compose_sequence_node(self, anchor: str | None) -> Node:
        self._enter(anchor)
        try:
            return super().compose_sequence_node(anchor)
        finally:
            self._leave(anchor)

    def compose_mapping_node(self, anchor: str | None) -> Node:
        self._enter(anchor)
        try:
            return super().compose_mapping_node(anchor)
        finally:
            self._leave(anchor)


if _Parser is not None:
    class _Loader(_LimitedComposer, _Parser, SafeConstructor, Resolver):  # type: ignore[misc]
        def __init__(self, text: str, file: str) -> None:
            _Parser.__init__(self, text)
            _LimitedComposer.__init__(self, file)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
else:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Loader(Reader, Scanner, Parser, _LimitedComposer,  # type: ignore[no-redef]
                  SafeConstructor, Resolver):
        def __init__(self, text: str, file: str) -> None:
            Reader.__init__(self, text)
            Scanner.__init__(self)
            Parser.__init__(self)
            _LimitedComposer.__init__(self, file)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


class _Walker:
    """Turns a composed node graph into plain data and fills the location index."""

    def __init__(self, doc: YamlDocument, loader: _Loader) -> None:
        self.doc = doc
        self.loader = loader
        self.values_seen = 0
        self.constructed: dict[tuple[str, str], object] = {}

    def walk(self, node: Node, path: PathKey) -> object:
        self.values_seen += 1
        location = _mark_location(self.doc.file, node.start_mark)
        # the composer counted the values as written; what the walk finds beyond them, aliases
        # repeated
        if self.values_seen > self.loader.nodes + MAX_ALIAS_VALUES:
            raise LoadProblem(error(
                "yaml-too-large",
                f"aliases expand this file by more than {MAX_ALIAS_VALUES} values (an alias "
                "bomb?); this anchored value is repeated too often; refusing to load",
                location))
        if len(path) > MAX_DEPTH:  # nesting built from aliases of nested collections
            raise LoadProblem(error(
                "yaml-too-deep", f"lists and mappings nest more than {MAX_DEPTH} levels deep "
                "here (through aliases); no card needs that", location))
        self.doc.values[path] = location
        if isinstance(node, ScalarNode):
            return self.scalar(node, location)
        if isinstance(node, SequenceNode):
            return [self.walk(item, (*path, i)) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self._walk_mapping(node, path)
        raise LoadProblem(error("yaml-syntax", "unsupported YAML node", location))

    def scalar(self, node: ScalarNode, location: Location) -> object:
        """Construct one scalar within the limits; a value its tag cannot read is a finding."""
        text = node.value
        if len(text) > MAX_STRING_CHARS:
            raise LoadProblem(error(
                "string-too-long", f"this text is {len(text)} characters long; the limit is "
                f"{MAX_STRING_CHARS}", location))
        if node.tag == _STR_TAG:
            return text  # what PyYAML's string constructor gives, without its dispatch
        if node.tag == _INT_TAG and len(text) > _MAX_INTEGER_DIGITS \
                and sum(ch.isdigit() for ch in text) > _MAX_INTEGER_DIGITS:
            raise LoadProblem(_too_large(text, location))
        key = (node.tag, text)
        if key in self.constructed:
            return self.constructed[key]  # checked below when first read
        try:
            value = self.loader.construct_object(node)
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError,
                yaml.YAMLError):
            raise LoadProblem(_unreadable_scalar(node, location)) from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise LoadProblem(_too_large(text, location))
        if isinstance(value, float) and not math.isfinite(value):
            what = "not a number" if math.isnan(value) else "infinite"
            raise LoadProblem(error(
                "number-not-finite", f"{_shown(text)} is {what}; write a finite number",
                location))
        if node.tag in _PURE_TAGS and len(self.constructed) < _MEMO_LIMIT:
            self.constructed[key] = value
        return value

    def _walk_mapping(self, node: MappingNode, path: PathKey) -> dict[str, object]:
        own_pairs = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
        try:
            self.loader.flatten_mapping(node)  # resolves "<<" merge keys in place
        except yaml.MarkedYAMLError as exc:
            raise LoadProblem(error("yaml-syntax", exc.problem or "bad merge key (<<)",
                                    _mark_location(self.doc.file, exc.problem_mark))) from None
        merged_count = len(node.value) - len(own_pairs)
        result: dict[str, object] = {}
        own_seen: dict[str, Location] = {}
        for index, (key_node, value_node) in enumerate(node.value):
            key_location = _mark_location(self.doc.file, key_node.start_mark)
            if not isinstance(key_node, ScalarNode):
                raise LoadProblem(error("yaml-syntax", "mapping keys must be plain scalars",
                                        key_location))
            key = str(self.scalar(key_node, key_location))
            is_own = index >= merged_count
            if is_own and key in own_seen:
                raise LoadProblem(_duplicate_key(key, own_seen[key], key_location))
            if is_own:
                own_seen[key] = key_location
            child = (*path, key)
            self.doc.keys[child] = key_location
            result[key] = self.walk(value_node, child)
        return result


def _duplicate_key(key: str, first: Location, location: Location) -> Finding:
    return error("duplicate-key", f"key {_shown(key)} appears twice in this mapping (first at "
                 f"line {first.line})", location)


def _syntax_error(file: str, exc: yaml.MarkedYAMLError) -> Finding:
    mark = exc.problem_mark or exc.context_mark
    problem_text = exc.problem or "invalid YAML"
    if "nesting depth" in problem_text:
        # libyaml 0.2.5+ (PyYAML 6.0.4's wheels) refuses deep flow nesting in its own scanner,
        # before our composer counts levels: the same finding as ours, at libyaml's position
        return _too_deep(_mark_location(file, mark))
    context = f" ({exc.context})" if exc.context else ""
    return error("yaml-syntax", f"{problem_text}{context}", _mark_location(file, mark))


def _too_deep(location: Location) -> Finding:
    return error("yaml-too-deep", f"lists and mappings nest more than {MAX_DEPTH} levels deep "
                 "here; no card needs that", location)


def _too_large(text: str, location: Location) -> Finding:
    return error("number-too-large", f"the number {_shown(text)} is too large; whole numbers "
                 f"must lie within ±{MAX_INTEGER}", location)


_TAG_WORDS = {
    _INT_TAG: "a whole number",
    _FLOAT_TAG: "a number",
    _TIMESTAMP_TAG: "a date (YYYY-MM-DD) or a date and time",
    "tag:yaml.org,2002:bool": "true or false",
    "tag:yaml.org,2002:binary": "base64 data",
    "tag:yaml.org,2002:null": "null",
}


def _unreadable_scalar(node: ScalarNode, location: Location) -> Finding:
    tag = node.tag
    shown_tag = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") \
        else tag
    if tag not in SafeConstructor.yaml_constructors:
        return error("yaml-bad-value", f"the tag {shown_tag} is not one pnp reads (plain YAML "
                     "values only); remove it", location)
    what = _TAG_WORDS.get(tag, f"a {shown_tag} value")
    return error("yaml-bad-value", f"{_shown(node.value)} is not valid as {what}; quote it to "
                 "keep it as text", location)


def load_yaml_text(file: str, text: str) -> tuple[YamlDocument | None, list[Finding]]:
    """Parse YAML text; returns the document or the finding that stopped it.

    Most files, good or bad, are read by :func:`generator.load.yamlfast.load_fast` in one pass: it
    gives the document, or says which of the findings below comes first (a syntax error, an
    unreadable scalar, a duplicate key). What it does not answer exactly (tags, merge keys,
    limits, aliases gone wrong, several documents...) is read again by the composing loader."""
    problem = _find_control_character(file, text) or _find_tab_indent(file, text)
    if problem is not None:
        return None, [problem]
    try:
        data, values, keys = load_fast(file, text)
    except Fallback:
        return load_composed(file, text)
    except FoundProblem as found:
        finding = _found_finding(file, found)
        return (None, [finding]) if finding is not None else load_composed(file, text)
    return YamlDocument(file, data, values, keys), []


def _found_finding(file: str, found: FoundProblem) -> Finding | None:
    """The finding for what the fast path found, worded by the code the composing loader uses:
    a scalar goes through the walker's own checks (None if they find nothing wrong with it)."""
    if isinstance(found, FoundSyntaxError):
        return _syntax_error(file, found.error)
    if isinstance(found, FoundDuplicateKey):
        return _duplicate_key(found.key, found.first, found.location)
    if isinstance(found, FoundBadScalar):
        loader = _Loader("", file)
        try:
            _Walker(YamlDocument(file, None), loader).scalar(
                ScalarNode(found.tag, found.text), found.location)
        except LoadProblem as stopped:
            return stopped.finding
        finally:
            loader.dispose()
    return None


def load_composed(file: str, text: str) -> tuple[YamlDocument | None, list[Finding]]:
    """The composing loader on text that passed the character checks: PyYAML nodes composed
    from libyaml's events within the limits, then walked into data and locations."""
    loader = _Loader(text, file)
    try:
        try:
            node = loader.get_single_node()
        except LoadProblem as stopped:
            return None, [stopped.finding]
        except yaml.MarkedYAMLError as exc:
            return None, [_syntax_error(file, exc)]
        except yaml.YAMLError as exc:
            return None, [error("yaml-syntax", str(exc).splitlines()[0], Location(file, 1, 1))]
        if node is None:
            return None, [error("empty-file", "file is empty; expected a YAML mapping",
                                Location(file, 1, 1))]
        doc = YamlDocument(file=file, data=None)
        try:
            doc.data = _Walker(doc, loader).walk(node, ())
        except LoadProblem as stopped:
            return None, [stopped.finding]
        return doc, []
    finally:
        loader.dispose()
