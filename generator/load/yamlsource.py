"""Safe YAML loading that remembers where every value came from, within fixed limits.

One loader, on PyYAML. PyYAML composes the document into nodes that carry their start marks
(``get_single_node``: in C with libyaml's parser where PyYAML was built with it, in PyYAML's own
Python parser and composer otherwise), and a walk turns the nodes into plain data and the
position of every value and mapping key (:class:`generator.load.yamldoc.YamlDocument` says where
a path is from them when asked). The walk also refuses what PyYAML accepts in silence (a key
written twice in one mapping) and holds every file to the limits of
:mod:`generator.core.limits`: nesting depth, values as written and after alias expansion
("billion laughs"), recursive aliases, text length and number magnitude. Every problem is a
located finding, never an exception for the user.

Two of PyYAML's Resolver hooks, called for every node as it is composed, count the nodes (and
the depth, where libyaml does not bound it), so that composing stops at a limit: 8 MiB of
``[1,1,1,...`` would otherwise compose into four million nodes (1.2 GB), and the Python composer
recurses once per level of nesting. Nodes do not say where an alias was written, nor how far a
stopped composer got, so a file that is refused has its events read once more
(:func:`_composition_problem`) to name the first problem in the order a composer meets them, and
where: problems of composing (syntax, limits as written, aliases gone wrong) come before those
of the walk (values, keys, expansion), as they always did.
"""

from __future__ import annotations

import math
import re

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from generator.core.findings import Finding, error
from generator.core.limits import (
    MAX_ALIAS_VALUES,
    MAX_DEPTH,
    MAX_INTEGER,
    MAX_STRING_CHARS,
    MAX_VALUES,
)
from generator.core.location import Location
from generator.load.yamldoc import (
    LoadProblem,
    Position,
    YamlDocument,
    located_document,
    text_location,
)
from generator.runtime.gcpause import collector_paused

try:
    from yaml.cyaml import CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml: its own parser reads all
    CParser = None

#: characters YAML forbids in a stream (C0/C1 controls except tab, newline, CR and NEL)
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MAP_TAG = Resolver.DEFAULT_MAPPING_TAG
_SEQ_TAG = Resolver.DEFAULT_SEQUENCE_TAG
#: a "=" key: PyYAML's merge rules read it as text
_VALUE_TAG = "tag:yaml.org,2002:value"
#: scalars whose value depends on their text alone, so one reading serves every repeat
_PURE_TAGS = frozenset({_INT_TAG, _FLOAT_TAG, "tag:yaml.org,2002:bool",
                        "tag:yaml.org,2002:null"})
#: distinct scalar texts remembered per file (a card file repeats a few thousand at most)
_MEMO_LIMIT = 50_000
_MAX_INTEGER_DIGITS = len(str(MAX_INTEGER)) + 4  # room for sign, '_' separators, a 0x prefix


def _mark_location(file: str, mark: yaml.Mark | None) -> Location:
    if mark is None:
        return Location(file, 1, 1)
    return Location(file, mark.line + 1, mark.column + 1)


def _position(node: Node) -> int:
    """Where a node starts, as :data:`generator.load.yamldoc.Position` keeps it: a number, not
    the node's mark (a number is a quarter of the memory and nothing for the collector)."""
    mark = node.start_mark
    return mark.line << 32 | mark.column


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


# --- composing ----------------------------------------------------------------------------------

class _Stopped(Exception):
    """Composing reached a limit; :func:`_composition_problem` says which, and where."""


class _MergedIntoItself(Exception):
    """A mapping merges itself: an alias inside the collection it names."""


class _Reading(SafeConstructor, Resolver):
    """PyYAML's safe constructor and resolver, with three of their methods extended.

    - ``descend_resolver`` is called before each node that is not an alias is composed (by
      the C composer too), ``ascend_resolver`` after it: they count the nodes and the depth
      (pnp registers no path resolvers, the only users of these hooks in PyYAML). A node at
      depth MAX_DEPTH + 1 may be a scalar in a collection at the limit; one level more is a
      collection beyond it.
    - ``resolve`` remembers the tag of each plain scalar's text: card files repeat a few
      thousand texts (keys, numbers, names) hundreds of times each, and each costs PyYAML's
      regular expressions. Other nodes take the Resolver's defaults without asking it.
    - ``flatten_mapping`` applies PyYAML's merge-key rules (it rewrites a mapping in place:
      merged pairs first, merge keys gone) and keeps each mapping's pairs as written aside, so
      that a mapping merged or walked twice still knows which of its keys are its own and how
      many values it held; a mapping that merges itself stops it.
    """

    def __init__(self) -> None:
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.nodes = 0  # nodes composed, aliases not counted (they make no node)
        self.depth = 0
        self.plain_tags: dict[str, str] = {}
        self.original_pairs: dict[int, list[tuple[Node, Node]]] = {}
        self.flattening: set[int] = set()

    def descend_resolver(self, current_node: Node | None, current_index: object) -> None:
        self.nodes += 1
        self.depth += 1
        if self.depth > MAX_DEPTH + 1 or self.nodes > MAX_VALUES:
            raise _Stopped

    def ascend_resolver(self) -> None:
        self.depth -= 1

    def resolve(self, kind: type, value: str | None, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return _STR_TAG  # quoted, or a block scalar: text
            tag = self.plain_tags.get(value)  # type: ignore[arg-type]
            if tag is None:
                tag = Resolver.resolve(self, kind, value, implicit)
                if len(self.plain_tags) < _MEMO_LIMIT:
                    self.plain_tags[value] = tag  # type: ignore[index]
            return tag
        return _MAP_TAG if kind is MappingNode else _SEQ_TAG

    def flatten_mapping(self, node: MappingNode) -> None:
        if id(node) in self.flattening:
            raise _MergedIntoItself
        if id(node) not in self.original_pairs:
            self.original_pairs[id(node)] = list(node.value)
        self.flattening.add(id(node))
        try:
            SafeConstructor.flatten_mapping(self, node)
        finally:
            self.flattening.discard(id(node))


class _PythonLoader(Reader, Scanner, Parser, Composer, _Reading):
    """PyYAML's pure-Python parser and composer (PyYAML built without libyaml)."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        _Reading.__init__(self)


if CParser is not None:
    class _CLoader(CParser, _Reading):  # type: ignore[misc,valid-type]
        """libyaml's parser and PyYAML's C composer."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            _Reading.__init__(self)

    class _CLoaderInLibyamlsDepth(_CLoader):  # type: ignore[misc,valid-type]
        """_CLoader where libyaml refuses to nest deeper than 1,000 levels itself (as PyYAML
        6.0.4's wheels build it): the C composer's recursion is bounded, so composing counts
        the nodes only (a tenth less time than counting the depth too), and a file nested
        deeper than MAX_DEPTH is refused by the walk, at the same place."""

        def descend_resolver(self, current_node: Node | None, current_index: object) -> None:
            self.nodes += 1
            if self.nodes > MAX_VALUES:
                raise _Stopped

        #: nothing to do after a node: a C callable, so the composer makes no Python frame
        ascend_resolver = int

    def _libyaml_bounds_depth() -> bool:
        """Whether libyaml stops at 1,000 levels of nesting or fewer (its scanner says
        'exceeded maximum nesting depth')."""
        parser = CParser("[" * 1_001 + "]" * 1_001)
        try:
            while parser.get_event() is not None:
                pass
        except yaml.YAMLError as exc:
            return "nesting depth" in str(exc)
        finally:
            parser.dispose()
        return False

    _Loader: type = _CLoaderInLibyamlsDepth if _libyaml_bounds_depth() else _CLoader
else:  # pragma: no cover - PyYAML without libyaml
    _Loader = _PythonLoader


def _composition_problem(file: str, text: str, loader_class: type) -> Finding | None:
    """The first problem a composer meets in ``text``, in the order it meets them: a syntax
    error, more than MAX_VALUES values as written (aliases counted), nesting deeper than
    MAX_DEPTH, an alias inside the collection it names, an undefined alias, an anchor defined
    twice, a second document. None if composing would succeed.

    Reads the events only (no nodes), asking the parser for them as PyYAML's composer does, so
    that a syntax error after a limit is not reported before it."""
    parser = loader_class(text)
    try:
        parser.get_event()  # the stream's start
        if not parser.check_event(StreamEndEvent):
            parser.get_event()  # the document's start
            problem = _node_problem(file, parser)
            if problem is not None:
                return problem
            parser.get_event()  # the document's end
        if not parser.check_event(StreamEndEvent):
            event = parser.get_event()
            return _syntax_error(file, ComposerError(
                "expected a single document in the stream", None, "but found another document",
                event.start_mark))
        return None
    except yaml.MarkedYAMLError as exc:
        return _syntax_error(file, exc)
    except yaml.YAMLError as exc:
        return error("yaml-syntax", str(exc).splitlines()[0], Location(file, 1, 1))
    finally:
        parser.dispose()


def _node_problem(file: str, parser: Parser) -> Finding | None:
    """The checks of :func:`_composition_problem` over one document's root node, with an
    explicit stack: the anchor of each collection still open."""
    nodes = 0
    anchors: set[str] = set()
    open_anchors: set[str] = set()
    stack: list[str | None] = []
    while True:
        if stack and parser.check_event(SequenceEndEvent, MappingEndEvent):
            parser.get_event()
            open_anchors.discard(stack.pop())  # type: ignore[arg-type]
            if not stack:
                return None
            continue
        nodes += 1
        event = parser.peek_event()
        if nodes > MAX_VALUES:
            return error("yaml-too-large", f"file holds more than {MAX_VALUES} values; split "
                         "it into several card files", _mark_location(file, event.start_mark))
        anchor = event.anchor
        if event.__class__ is AliasEvent:
            if anchor in open_anchors:
                return error("yaml-recursive-alias",
                             f"alias *{anchor} refers to a collection that contains it; such a "
                             "value never ends", _mark_location(file, event.start_mark))
            parser.get_event()
            if anchor not in anchors:
                return _syntax_error(file, ComposerError(
                    None, None, f"found undefined alias {anchor!r}", event.start_mark))
        elif anchor is not None and anchor in anchors:
            return _syntax_error(file, ComposerError(
                f"found duplicate anchor {anchor!r}; first occurrence", None,
                "second occurrence", event.start_mark))
        elif event.__class__ is ScalarEvent:
            parser.get_event()
        else:  # the start of a collection
            if len(stack) >= MAX_DEPTH:
                return _too_deep(_mark_location(file, event.start_mark))
            parser.get_event()
            stack.append(anchor)
            if anchor is not None:
                open_anchors.add(anchor)
        if anchor is not None:
            anchors.add(anchor)
        if not stack:
            return None  # the document is one scalar


# --- walking ------------------------------------------------------------------------------------

def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


class _Walker:
    """Turns a composed node graph into plain data and the :data:`Position` of each value.

    Recursive over collections only, so its depth is the nesting's, which the walk holds to
    MAX_DEPTH (deeper nesting through aliases is a finding); scalars are read in their
    collection's loop, the nodes of a card file being nine in ten scalars. Positions are
    numbers made from the nodes' marks, in the shape of the data: no path and no Location is
    made for a value nobody asks about (that was two thirds of the walk)."""

    def __init__(self, file: str, text: str, loader: _Reading, root: Node) -> None:
        self.file = file
        self.text = text
        self.loader = loader
        self.root = root
        self.walked = 0
        #: values the walk may reach before aliases expanded the file too far: at first the
        #: nodes composed (a lower bound of those written), counted exactly once reached
        self.allowance = loader.nodes + MAX_ALIAS_VALUES
        self.counted = False
        self.constructed: dict[tuple[str, str], object] = {}
        #: each text as one string object, up to _MEMO_LIMIT texts (a card file says "name"
        #: and "ship" thousands of times): the data is smaller, and every later step that
        #: hashes, compares, pickles or marshals a card's texts does it faster
        self.texts: dict[str, str] = {}
        self.composition_checked = False

    def _location(self, node: Node) -> Location:
        mark = node.start_mark
        return Location(self.file, mark.line + 1, mark.column + 1)

    def value(self, node: Node, depth: int) -> tuple[object, Position]:
        """One value at ``depth`` (the root's is 0): the limits of the walk, then its data and
        position."""
        self.walked += 1
        if self.walked > self.allowance:
            self._expanded_too_far(node)
        if depth > MAX_DEPTH:  # nesting built from aliases of nested collections
            raise LoadProblem(error(
                "yaml-too-deep", f"lists and mappings nest more than {MAX_DEPTH} levels deep "
                "here (through aliases); no card needs that", self._location(node)))
        cls = node.__class__
        if cls is ScalarNode:
            return self.scalar(node), _position(node)  # type: ignore[arg-type]
        if depth == MAX_DEPTH:
            self._check_composition()
        if cls is SequenceNode:
            return self._sequence(node, depth)  # type: ignore[arg-type]
        return self._mapping(node, depth)  # type: ignore[arg-type]

    def _scalar_value(self, node: ScalarNode) -> object:
        """:meth:`value`'s data for a scalar within the depth limit, the steps it needs only."""
        self.walked += 1
        if self.walked > self.allowance:
            self._expanded_too_far(node)
        text = node.value
        if node.tag != _STR_TAG or len(text) > MAX_STRING_CHARS:
            return self.scalar(node)
        return self.texts.get(text) or self._text(text)

    def _text(self, text: str) -> str:
        """``text`` as the one string object of its value in this file, made anew: the node's
        own string was made among the composed nodes, which go after the walk, and a card
        whose texts lie there spreads over several times the memory, for every step after
        loading to go through (a data game's checks of 92,000 cards: 2.58 s -> 2.15 s)."""
        known = self.texts.get(text)
        if known is not None:
            return known
        if len(text) > 1:  # (Python keeps one string of each single character: that one)
            text = "".join((text, ""))  # a new string: joining two never returns either
        if len(self.texts) < _MEMO_LIMIT:
            self.texts[text] = text
        return text

    def _sequence(self, node: SequenceNode, depth: int) -> tuple[list[object], Position]:
        data: list[object] = []
        positions: list[Position] = []
        inline = depth < MAX_DEPTH  # (deeper, each item is too deep: value() says so)
        for item in node.value:
            if item.__class__ is ScalarNode and inline:
                data.append(self._scalar_value(item))
                positions.append(_position(item))
            else:
                item_data, position = self.value(item, depth + 1)
                data.append(item_data)
                positions.append(position)
        return data, (_position(node), positions)

    def _mapping(self, node: MappingNode, depth: int) -> tuple[dict[str, object], Position]:
        pairs = node.value
        merged_count = 0
        if self.loader.original_pairs and id(node) in self.loader.original_pairs:
            pairs, merged_count = self._merged(node)  # merged into another mapping before
        else:
            for key_node, _value_node in pairs:
                if key_node.tag == _MERGE_TAG:
                    pairs, merged_count = self._merged(node)
                    break
        name, texts = self._text, self.texts
        inline = depth < MAX_DEPTH
        data: dict[str, object] = {}
        children: dict[str, tuple[int, Position]] = {}
        own_keys: dict[str, Node] | None = {} if merged_count else None
        for index, (key_node, value_node) in enumerate(pairs):
            if key_node.__class__ is not ScalarNode:
                raise LoadProblem(error("yaml-syntax", "mapping keys must be plain scalars",
                                        self._location(key_node)))
            key = key_node.value
            if (key_node.tag != _STR_TAG and key_node.tag != _VALUE_TAG) \
                    or len(key) > MAX_STRING_CHARS:
                key = str(self.scalar(key_node))
            key = texts.get(key) or name(key)
            if own_keys is None:
                if key in data:
                    raise LoadProblem(_duplicate_key(key, children[key][0] >> 32, self.file,
                                                     key_node))
            elif index >= merged_count:
                if key in own_keys:
                    raise LoadProblem(_duplicate_key(key, own_keys[key].start_mark.line,
                                                     self.file, key_node))
                own_keys[key] = key_node
            mark = key_node.start_mark  # (_position, inline: this runs for every entry)
            if value_node.__class__ is ScalarNode and inline:
                data[key] = self._scalar_value(value_node)
                value_mark = value_node.start_mark
                children[key] = (mark.line << 32 | mark.column,
                                 value_mark.line << 32 | value_mark.column)
            else:
                data[key], position = self.value(value_node, depth + 1)
                children[key] = (mark.line << 32 | mark.column, position)
        return data, (_position(node), children)

    def scalar(self, node: ScalarNode) -> object:
        """Construct one scalar within the limits; a value its tag cannot read is a finding."""
        text = node.value
        if len(text) > MAX_STRING_CHARS:
            raise LoadProblem(error(
                "string-too-long", f"this text is {len(text)} characters long; the limit is "
                f"{MAX_STRING_CHARS}", self._location(node)))
        tag = node.tag
        if tag == _STR_TAG:
            return text
        if tag == _INT_TAG and len(text) > _MAX_INTEGER_DIGITS \
                and sum(ch.isdigit() for ch in text) > _MAX_INTEGER_DIGITS:
            raise LoadProblem(_too_large(text, self._location(node)))
        key = (tag, text)
        if key in self.constructed:
            return self.constructed[key]  # checked below when first read
        try:
            value = self.loader.construct_object(node)
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError,
                yaml.YAMLError):
            raise LoadProblem(_unreadable_scalar(node, self._location(node))) from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise LoadProblem(_too_large(text, self._location(node)))
        if isinstance(value, float) and not math.isfinite(value):
            what = "not a number" if math.isnan(value) else "infinite"
            raise LoadProblem(error(
                "number-not-finite", f"{_shown(text)} is {what}; write a finite number",
                self._location(node)))
        if tag in _PURE_TAGS and len(self.constructed) < _MEMO_LIMIT:
            self.constructed[key] = value
        return value

    def _merged(self, node: MappingNode) -> tuple[list[tuple[Node, Node]], int]:
        """The mapping's pairs with its merge keys ("<<") resolved by PyYAML (the merged pairs
        first), and how many were merged: only the others are the mapping's own, which may not
        repeat a key."""
        loader = self.loader
        original = loader.original_pairs.get(id(node))
        if original is None:
            try:
                loader.flatten_mapping(node)
            except yaml.MarkedYAMLError as exc:
                raise LoadProblem(error("yaml-syntax", exc.problem or "bad merge key (<<)",
                                        _mark_location(self.file, exc.problem_mark))) from None
            except (_MergedIntoItself, RecursionError):
                raise LoadProblem(_too_deep(_mark_location(self.file, node.start_mark))) \
                    from None  # (an alias inside the collection it names: composing says so)
            original = loader.original_pairs[id(node)]
        own = sum(1 for key_node, _value in original if key_node.tag != _MERGE_TAG)
        return node.value, len(node.value) - own

    def _expanded_too_far(self, node: Node) -> None:
        """Past the allowance counted from the nodes composed: counted again from the values
        written (aliases too, each once), and refused if the walk is past that as well."""
        if not self.counted:
            self.counted = True
            self.allowance = _written_values(self.root, self.loader.original_pairs) \
                + MAX_ALIAS_VALUES
            if self.walked <= self.allowance:
                return
        raise LoadProblem(error(
            "yaml-too-large",
            f"aliases expand this file by more than {MAX_ALIAS_VALUES} values (an alias "
            "bomb?); this anchored value is repeated too often; refusing to load",
            self._location(node)))

    def _check_composition(self) -> None:
        """A collection at the depth limit: written there, a composer would have refused the
        file; reached through aliases, it is fine. Asked once per file (such files are rare)."""
        if not self.composition_checked:
            self.composition_checked = True
            problem = _composition_problem(self.file, self.text, type(self.loader))
            if problem is not None:
                raise LoadProblem(problem)


def _written_values(root: Node, original_pairs: dict[int, list[tuple[Node, Node]]]) -> int:
    """Values as written, keys and aliases included: each node once, and each reference to a
    node (an alias) once more; a merged mapping as it was written."""
    count = 1
    seen = {id(root)}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.__class__ is ScalarNode:
            continue
        children = node.value if node.__class__ is SequenceNode else [
            child for pair in original_pairs.get(id(node), node.value) for child in pair]
        count += len(children)
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return count


def _duplicate_key(key: str, first_line: int, file: str, again: Node) -> Finding:
    """``first_line`` counted from 0, as PyYAML's marks count."""
    return error("duplicate-key", f"key {_shown(key)} appears twice in this mapping (first at "
                 f"line {first_line + 1})", _mark_location(file, again.start_mark))


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


# --- loading ------------------------------------------------------------------------------------

def load_yaml_text(file: str, text: str) -> tuple[YamlDocument | None, list[Finding]]:
    """Parse YAML text; returns the document or the finding that stopped it."""
    problem = _find_control_character(file, text) or _find_tab_indent(file, text)
    if problem is not None:
        return None, [problem]
    # The cyclic garbage collector is paused while we read: the nodes and data hold no cycles
    # worth collecting, yet their many young objects made the collector run full passes over
    # everything read so far, three quarters of the time of composing a 2 MB card file.
    with collector_paused():
        try:
            return _load(file, text, _Loader)
        except LoadProblem as stopped:
            return None, [_composition_problem(file, text, _Loader) or stopped.finding]
        except (_Stopped, yaml.YAMLError):
            problem = _composition_problem(file, text, _Loader)
        return None, [problem or error("yaml-syntax", "this file cannot be read as YAML",
                                       Location(file, 1, 1))]


def _load(file: str, text: str, loader_class: type) -> tuple[YamlDocument | None,
                                                              list[Finding]]:
    """Compose, then walk; raises LoadProblem, _Stopped or PyYAML's errors."""
    loader = loader_class(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    if root is None:
        return None, [error("empty-file", "file is empty; expected a YAML mapping",
                            Location(file, 1, 1))]
    if loader.nodes + text.count("*") > MAX_VALUES \
            and _written_values(root, loader.original_pairs) > MAX_VALUES:
        # (aliases are not composed: with them, the values written may pass the limit)
        raise LoadProblem(error("yaml-too-large", f"file holds more than {MAX_VALUES} values",
                                Location(file, 1, 1)))
    data, position = _Walker(file, text, loader, root).value(root, 0)
    return located_document(file, data, position), []
