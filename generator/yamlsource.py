"""Safe YAML loading that remembers where every value came from.

PyYAML's composed nodes carry start marks; we walk the node graph ourselves (instead of letting
the constructor build plain dicts) so that we can (a) keep a ``path -> Location`` index for every
value and every mapping key, (b) reject duplicate keys, which PyYAML silently overwrites, and
(c) cap alias expansion, so that a "billion laughs" file ends in a finding, not in exhausted
memory. Load problems are returned as findings, never raised to the user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.findings import Finding, error
from generator.location import Location

PathKey = tuple[str | int, ...]

#: libyaml's parser when PyYAML was built with it (several times faster); marks are the same
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NODES = 200_000


@dataclass(slots=True)
class YamlDocument:
    """A loaded YAML file: plain data plus where each part of it was written."""

    file: str
    data: object
    values: dict[PathKey, Location] = field(default_factory=dict)
    keys: dict[PathKey, Location] = field(default_factory=dict)

    def where(self, path: PathKey) -> Location:
        """Location of the value at ``path``, or of its nearest located ancestor."""
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, Location(self.file))

    def where_key(self, path: PathKey) -> Location:
        """Location of the mapping key that introduces ``path`` (falls back to the value)."""
        return self.keys.get(path) or self.where(path)


class _LoadProblem(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def _mark_location(file: str, mark: yaml.Mark | None) -> Location:
    if mark is None:
        return Location(file)
    return Location(file, mark.line + 1, mark.column + 1)


def _find_tab_indent(file: str, text: str) -> Finding | None:
    """YAML forbids tabs in indentation; PyYAML's message for it is cryptic, so we look first."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        if "\t" in indent and stripped and not stripped.startswith("#"):
            column = indent.index("\t") + 1
            return error("yaml-tab", "tab character used for indentation; YAML allows spaces only",
                         Location(file, number, column))
    return None


def _decode(file: str, raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise _LoadProblem(error(
            "not-utf8",
            f"file is not UTF-8 (byte 0x{raw[exc.start]:02x} cannot be decoded); "
            "save it as UTF-8",
            Location(file, line, column))) from None


class _Walker:
    """Turns a composed node graph into plain data and fills the location index."""

    def __init__(self, doc: YamlDocument, loader: yaml.SafeLoader) -> None:  # or CSafeLoader
        self.doc = doc
        self.loader = loader
        self.nodes_seen = 0

    def walk(self, node: Node, path: PathKey) -> object:
        self.nodes_seen += 1
        if self.nodes_seen > MAX_NODES:
            raise _LoadProblem(error(
                "yaml-too-large",
                f"file expands to more than {MAX_NODES} values (alias expansion?); "
                "refusing to load",
                _mark_location(self.doc.file, node.start_mark)))
        self.doc.values[path] = _mark_location(self.doc.file, node.start_mark)
        if isinstance(node, ScalarNode):
            return self.loader.construct_object(node)
        if isinstance(node, SequenceNode):
            return [self.walk(item, (*path, i)) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self._walk_mapping(node, path)
        raise _LoadProblem(error("yaml-syntax", "unsupported YAML node",
                                 _mark_location(self.doc.file, node.start_mark)))

    def _walk_mapping(self, node: MappingNode, path: PathKey) -> dict[str, object]:
        own_pairs = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
        self.loader.flatten_mapping(node)  # resolves "<<" merge keys in place
        merged_count = len(node.value) - len(own_pairs)
        result: dict[str, object] = {}
        own_seen: dict[str, Location] = {}
        for index, (key_node, value_node) in enumerate(node.value):
            key_location = _mark_location(self.doc.file, key_node.start_mark)
            if not isinstance(key_node, ScalarNode):
                raise _LoadProblem(error("yaml-syntax", "mapping keys must be plain scalars",
                                         key_location))
            key = str(self.loader.construct_object(key_node))
            is_own = index >= merged_count
            if is_own and key in own_seen:
                first = own_seen[key]
                raise _LoadProblem(error(
                    "duplicate-key",
                    f"key '{key}' appears twice in this mapping (first at line {first.line})",
                    key_location))
            if is_own:
                own_seen[key] = key_location
            child = (*path, key)
            self.doc.keys[child] = key_location
            result[key] = self.walk(value_node, child)
        return result


def load_yaml_text(file: str, text: str) -> tuple[YamlDocument | None, list[Finding]]:
    """Parse YAML text; returns the document or the finding that stopped it."""
    tab = _find_tab_indent(file, text)
    if tab is not None:
        return None, [tab]
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            problem = exc.problem or "invalid YAML"
            context = f" ({exc.context})" if exc.context else ""
            return None, [error("yaml-syntax", f"{problem}{context}",
                                _mark_location(file, mark))]
        except yaml.YAMLError as exc:
            return None, [error("yaml-syntax", str(exc), Location(file))]
        if node is None:
            return None, [error("empty-file", "file is empty; expected a YAML mapping",
                                Location(file, 1, 1))]
        doc = YamlDocument(file=file, data=None)
        try:
            doc.data = _Walker(doc, loader).walk(node, ())
        except _LoadProblem as problem:
            return None, [problem.finding]
        except yaml.YAMLError as exc:  # e.g. a bad !!tag or timestamp during construction
            mark = getattr(exc, "problem_mark", None)
            return None, [error("yaml-syntax", getattr(exc, "problem", None) or str(exc),
                                _mark_location(file, mark))]
        return doc, []
    finally:
        loader.dispose()


def load_yaml_file(path: Path, display: str | None = None) -> tuple[YamlDocument | None,
                                                                    list[Finding]]:
    """Read and parse a YAML file; I/O, size and encoding problems become findings."""
    file = display or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [error("file-too-large",
                                f"file is {size} bytes; the limit is {MAX_FILE_BYTES}",
                                Location(file))]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [error("io-error", f"cannot read file: {exc.strerror or exc}",
                            Location(file))]
    try:
        text = _decode(file, raw)
    except _LoadProblem as problem:
        return None, [problem.finding]
    return load_yaml_text(file, text)
