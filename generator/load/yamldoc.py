"""A loaded YAML document and where each of its parts was written.

Kept apart from :mod:`generator.load.yamlsource` (which reads YAML) so that every module that only
reads documents, and a build whose files all come from the parse cache
(:mod:`generator.load.parsecache`), never imports PyYAML: importing it compiles a dozen regular
expressions, about a twentieth of a small build.
"""

from __future__ import annotations

from array import array

from msgspec import Struct

from generator.core.findings import Finding, error
from generator.core.location import Location

PathKey = tuple[str | int, ...]
#: an index of locations as its paths and their line and column numbers, two per path
Packed = tuple[list[PathKey], array]


class YamlDocument(Struct):
    """A loaded YAML file: plain data plus where each part of it was written (filled in place
    by the loader that makes it, so not frozen)."""

    file: str
    data: object
    values: dict[PathKey, Location] = {}
    keys: dict[PathKey, Location] = {}

    def where(self, path: PathKey) -> Location:
        """Location of the value at ``path``, or of its nearest located ancestor."""
        values = self.values
        found = values.get(path)
        while found is None and path:
            path = path[:-1]
            found = values.get(path)
        return found if found is not None else Location(self.file, 1, 1)

    def where_key(self, path: PathKey) -> Location:
        """Location of the mapping key that introduces ``path`` (falls back to the value)."""
        return self.keys.get(path) or self.where(path)

    def packed(self) -> tuple[Packed | None, Packed | None]:
        """The value and key indexes as their paths (each distinct name once) and one array
        of line and column numbers; None for an index with a location in another file."""
        return _packed(self.values, self.file), _packed(self.keys, self.file)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled compactly (:meth:`packed`), for a document read in a forked process and
        sent back: not as hundreds of thousands of Location objects, which took as long to
        unpickle as the file to read."""
        values, keys = self.packed()
        if values is None or keys is None:  # a location in another file: kept as it is
            return (YamlDocument, (self.file, self.data, self.values, self.keys))
        return (unpacked_document, (self.file, self.data, *values, *keys))


def _packed(index: dict[PathKey, Location], file: str) -> Packed | None:
    names: dict[object, object] = {}
    paths = [tuple([names.setdefault(part, part) for part in path]) for path in index]
    numbers = array("q")
    for where in index.values():
        if where.file != file:
            return None
        numbers.append(where.line)
        numbers.append(where.column)
    return paths, numbers


def unpacked_document(file: str, data: object, value_paths: list[PathKey],
                      value_numbers: array[int], key_paths: list[PathKey],
                      key_numbers: array[int]) -> YamlDocument:
    """The document :meth:`YamlDocument.packed` describes, its locations in ``file``."""
    return YamlDocument(file, data, _unpacked(file, value_paths, value_numbers),
                        _unpacked(file, key_paths, key_numbers))


def _unpacked(file: str, paths: list[PathKey], numbers: array[int]) -> dict[PathKey, Location]:
    numbers_at = iter(numbers)
    return {path: Location(file, line, column)
            for path, line, column in zip(paths, numbers_at, numbers_at, strict=False)}


class LoadProblem(Exception):
    """A finding that stops loading a file (raised inside the loader, returned to callers)."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding



def text_location(file: str, text: str, index: int) -> Location:
    """1-based line and column of character ``index`` of ``text``."""
    line_start = text.rfind("\n", 0, index) + 1
    return Location(file, text.count("\n", 0, index) + 1, index - line_start + 1)


def decode_utf8(file: str, raw: bytes) -> str:
    """Bytes to text, or a LoadProblem naming the first byte that is not UTF-8 and its place."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise LoadProblem(error(
            "not-utf8",
            f"file is not UTF-8 (byte 0x{raw[exc.start]:02x} cannot be decoded); "
            "save it as UTF-8",
            Location(file, line, column))) from None


