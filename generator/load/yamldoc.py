"""A loaded YAML document and where each of its parts was written.

Kept apart from :mod:`generator.load.yamlsource` (which reads YAML) so that every module that only
reads documents, and a build whose files all come from the parse cache
(:mod:`generator.load.parsecache`), never imports PyYAML: importing it compiles a dozen regular
expressions, about a twentieth of a small build.
"""

from __future__ import annotations

from array import array
from itertools import chain
from operator import attrgetter

from generator.core.findings import Finding, error
from generator.core.location import Location

PathKey = tuple[str | int, ...]
#: an index of locations as its paths and their line and column numbers, two per path
Packed = tuple[list[PathKey], array]
#: the array typecode of the packed line and column numbers (8-byte signed)
NUMBERS = "q"

_FILE = attrgetter("file")
_LINE_AND_COLUMN = attrgetter("line", "column")


class _PackedIndex:
    """An index of locations kept as :data:`Packed`, in one file: a Location is made for a path
    when it is asked for. A document read in a forked process or from the parse cache is asked
    where a few of its parts are (each card, a value with a finding), not all hundreds of
    thousands: making them all took longer than unpickling the document."""

    __slots__ = ("numbers", "paths", "position")

    def __init__(self, paths: list[PathKey], numbers: array[int]) -> None:
        self.paths = paths
        self.numbers = numbers
        self.position: dict[PathKey, int] | None = None

    def get(self, file: str, path: PathKey) -> Location | None:
        if self.position is None:
            self.position = dict(zip(self.paths, range(0, 2 * len(self.paths), 2),
                                     strict=True))
        at = self.position.get(path)
        if at is None:
            return None
        return Location(file, self.numbers[at], self.numbers[at + 1])

    def locations(self, file: str) -> dict[PathKey, Location]:
        numbers_at = iter(self.numbers)
        return {path: Location(file, line, column)
                for path, line, column in zip(self.paths, numbers_at, numbers_at, strict=False)}


_Index = dict[PathKey, Location] | _PackedIndex


class YamlDocument:
    """A loaded YAML file: plain data plus where each part of it was written (:attr:`values`,
    and :attr:`keys` for the key that introduces each mapping entry)."""

    __slots__ = ("_keys", "_values", "data", "file")

    def __init__(self, file: str, data: object, values: _Index | None = None,
                 keys: _Index | None = None) -> None:
        self.file = file
        self.data = data
        self._values: _Index = {} if values is None else values
        self._keys: _Index = {} if keys is None else keys

    @property
    def values(self) -> dict[PathKey, Location]:
        """Location of each value by its path (all of them made now if they were packed)."""
        if self._values.__class__ is _PackedIndex:
            self._values = self._values.locations(self.file)  # type: ignore[union-attr]
        return self._values  # type: ignore[return-value]

    @property
    def keys(self) -> dict[PathKey, Location]:
        """Location of the key of each mapping entry by the entry's path."""
        if self._keys.__class__ is _PackedIndex:
            self._keys = self._keys.locations(self.file)  # type: ignore[union-attr]
        return self._keys  # type: ignore[return-value]

    def where(self, path: PathKey) -> Location:
        """Location of the value at ``path``, or of its nearest located ancestor."""
        values = self._values
        if values.__class__ is _PackedIndex:
            found = values.get(self.file, path)  # type: ignore[call-arg]
            while found is None and path:
                path = path[:-1]
                found = values.get(self.file, path)  # type: ignore[call-arg]
        else:
            found = values.get(path)  # type: ignore[assignment]
            while found is None and path:
                path = path[:-1]
                found = values.get(path)  # type: ignore[assignment]
        return found if found is not None else Location(self.file, 1, 1)

    def where_key(self, path: PathKey) -> Location:
        """Location of the mapping key that introduces ``path`` (falls back to the value)."""
        keys = self._keys
        found = keys.get(self.file, path) if keys.__class__ is _PackedIndex \
            else keys.get(path)  # type: ignore[call-arg,arg-type]
        return found or self.where(path)  # type: ignore[return-value]

    def packed(self) -> tuple[Packed | None, Packed | None]:
        """The value and key indexes as their paths and one array of line and column numbers;
        None for an index with a location in another file."""
        return _packed(self._values, self.file), _packed(self._keys, self.file)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled compactly (:meth:`packed`), for a document read in a forked process and
        sent back: not as hundreds of thousands of Location objects, which took as long to
        unpickle as the file to read."""
        values, keys = self.packed()
        if values is None or keys is None:  # a location in another file: kept as it is
            return (YamlDocument, (self.file, self.data, self.values, self.keys))
        return (unpacked_document, (self.file, self.data, *values, *keys))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not YamlDocument:
            return NotImplemented
        return (self.file, self.data, self.values, self.keys) \
            == (other.file, other.data, other.values, other.keys)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"YamlDocument(file={self.file!r}, data={self.data!r})"


def _packed(index: _Index, file: str) -> Packed | None:
    """Paths in the order of the index, the names in them as the index holds them (the loader
    makes each key's name one string object, so pickle and marshal write it once)."""
    if index.__class__ is _PackedIndex:
        return index.paths, index.numbers  # type: ignore[union-attr]
    where = index.values()  # type: ignore[union-attr]
    if where and set(map(_FILE, where)) != {file}:
        return None
    return list(index), array(NUMBERS, chain.from_iterable(map(_LINE_AND_COLUMN, where)))


def unpacked_document(file: str, data: object, value_paths: list[PathKey],
                      value_numbers: array[int], key_paths: list[PathKey],
                      key_numbers: array[int]) -> YamlDocument:
    """The document :meth:`YamlDocument.packed` describes, its locations in ``file`` (made
    when asked for)."""
    return YamlDocument(file, data, _PackedIndex(value_paths, value_numbers),
                        _PackedIndex(key_paths, key_numbers))


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


