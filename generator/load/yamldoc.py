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
#: where the loader found a value: for a scalar, its line and column counted from 0, as one
#: number (``line << 32 | column``); for a sequence, ``(that number, [item positions])``; for
#: a mapping, ``(that number, {key: (the key's number, value position)})``
Position = object
_COLUMN = (1 << 32) - 1

_FILE = attrgetter("file")
_LINE_AND_COLUMN = attrgetter("line", "column")


class YamlDocument:
    """A loaded YAML file: plain data plus where each part of it was written.

    Not a record (generator/core's rule for records): a document keeps its index of where
    things are in the form it came in, and a Location is made for a path when it is asked for:
    a pipeline asks where a few parts are (each card, a value with a finding), and making one
    for each of a large file's hundreds of thousands of values cost more than reading them.
    :attr:`values` and :attr:`keys` make them all, for the few callers that go through every
    location (or that write them: a table read as a document)."""

    __slots__ = ("_index", "data", "file")

    def __init__(self, file: str, data: object, values: dict[PathKey, Location] | None = None,
                 keys: dict[PathKey, Location] | None = None) -> None:
        self.file = file
        self.data = data
        self._index: _Index = _Locations({} if values is None else values,
                                         {} if keys is None else keys)

    @property
    def values(self) -> dict[PathKey, Location]:
        """Location of each value by its path."""
        return self._locations().values

    @property
    def keys(self) -> dict[PathKey, Location]:
        """Location of the key of each mapping entry, by the entry's path."""
        return self._locations().keys

    def _locations(self) -> _Locations:
        if self._index.__class__ is not _Locations:
            self._index = _Locations(*self._index.locations(self.file))
        return self._index  # type: ignore[return-value]

    def where(self, path: PathKey) -> Location:
        """Location of the value at ``path``, or of its nearest located ancestor."""
        return self._index.value_at(self.file, path) or Location(self.file, 1, 1)

    def where_key(self, path: PathKey) -> Location:
        """Location of the mapping key that introduces ``path`` (falls back to the value)."""
        return self._index.key_at(self.file, path) or self.where(path)

    def packed(self) -> tuple[Packed | None, Packed | None]:
        """The value and key indexes as their paths and one array of line and column numbers;
        None for an index with a location in another file."""
        return self._index.packed(self.file)

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


def located_document(file: str, data: object, root: Position) -> YamlDocument:
    """The document the loader read: its data, and the position of its root value."""
    document = YamlDocument(file, data)
    document._index = _Positions(root)
    return document


def unpacked_document(file: str, data: object, value_paths: list[PathKey],
                      value_numbers: array[int], key_paths: list[PathKey],
                      key_numbers: array[int]) -> YamlDocument:
    """The document :meth:`YamlDocument.packed` describes, its locations in ``file``."""
    document = YamlDocument(file, data)
    document._index = _Packed(value_paths, value_numbers, key_paths, key_numbers)
    return document


class _Locations:
    """An index as Location objects by path (any file's)."""

    __slots__ = ("keys", "values")

    def __init__(self, values: dict[PathKey, Location], keys: dict[PathKey, Location]) -> None:
        self.values = values
        self.keys = keys

    def value_at(self, file: str, path: PathKey) -> Location | None:
        values = self.values
        found = values.get(path)
        while found is None and path:
            path = path[:-1]
            found = values.get(path)
        return found

    def key_at(self, file: str, path: PathKey) -> Location | None:
        return self.keys.get(path)

    def packed(self, file: str) -> tuple[Packed | None, Packed | None]:
        return _packed(self.values, file), _packed(self.keys, file)


def _packed(index: dict[PathKey, Location], file: str) -> Packed | None:
    """Paths in the order of the index, the names in them as the index holds them (the loader
    makes each key's name one string object, so pickle and marshal write it once)."""
    where = index.values()
    if where and set(map(_FILE, where)) != {file}:
        return None
    return list(index), array(NUMBERS, chain.from_iterable(map(_LINE_AND_COLUMN, where)))


class _Packed:
    """An index kept as :data:`Packed` (from a forked reader or the parse cache)."""

    __slots__ = ("key_at_path", "key_numbers", "key_paths", "value_at_path", "value_numbers",
                 "value_paths")

    def __init__(self, value_paths: list[PathKey], value_numbers: array[int],
                 key_paths: list[PathKey], key_numbers: array[int]) -> None:
        self.value_paths, self.value_numbers = value_paths, value_numbers
        self.key_paths, self.key_numbers = key_paths, key_numbers
        self.value_at_path: dict[PathKey, int] | None = None
        self.key_at_path: dict[PathKey, int] | None = None

    def value_at(self, file: str, path: PathKey) -> Location | None:
        if self.value_at_path is None:
            self.value_at_path = _numbered(self.value_paths)
        at = self.value_at_path.get(path)
        while at is None and path:
            path = path[:-1]
            at = self.value_at_path.get(path)
        return None if at is None \
            else Location(file, self.value_numbers[at], self.value_numbers[at + 1])

    def key_at(self, file: str, path: PathKey) -> Location | None:
        if self.key_at_path is None:
            self.key_at_path = _numbered(self.key_paths)
        at = self.key_at_path.get(path)
        return None if at is None \
            else Location(file, self.key_numbers[at], self.key_numbers[at + 1])

    def locations(self, file: str) -> tuple[dict[PathKey, Location], dict[PathKey, Location]]:
        return (_unpacked(file, self.value_paths, self.value_numbers),
                _unpacked(file, self.key_paths, self.key_numbers))

    def packed(self, file: str) -> tuple[Packed | None, Packed | None]:
        return (self.value_paths, self.value_numbers), (self.key_paths, self.key_numbers)


def _numbered(paths: list[PathKey]) -> dict[PathKey, int]:
    """Each path's offset in the array of numbers (two numbers a path)."""
    return dict(zip(paths, range(0, 2 * len(paths), 2), strict=True))


def _unpacked(file: str, paths: list[PathKey], numbers: array[int]) -> dict[PathKey, Location]:
    numbers_at = iter(numbers)
    return {path: Location(file, line, column)
            for path, line, column in zip(paths, numbers_at, numbers_at, strict=False)}


class _Positions:
    """The index as the loader left it: the root's :data:`Position`, the document's shape. A
    path is looked up by going down it, as the data is."""

    __slots__ = ("root",)

    def __init__(self, root: Position) -> None:
        self.root = root

    def value_at(self, file: str, path: PathKey) -> Location | None:
        position = self.root
        for part in path:  # (_child, inline: each card asks where it is)
            if position.__class__ is not tuple:
                break
            children = position[1]  # type: ignore[index]
            if children.__class__ is list:
                if part.__class__ is not int or not 0 <= part < len(children):  # type: ignore
                    break
                position = children[part]
            else:
                entry = children.get(part)
                if entry is None:
                    break
                position = entry[1]
        at = position[0] if position.__class__ is tuple else position  # type: ignore[index]
        return Location(file, (at >> 32) + 1, (at & _COLUMN) + 1)  # type: ignore[operator]

    def key_at(self, file: str, path: PathKey) -> Location | None:
        if not path:
            return None
        position = self.root
        for part in path[:-1]:
            position = _child(position, part)
            if position is None:
                return None
        if position.__class__ is not tuple or position[1].__class__ is not dict:  # type: ignore
            return None
        entry = position[1].get(path[-1])  # type: ignore[index]
        if entry is None:
            return None
        at = entry[0]
        return Location(file, (at >> 32) + 1, (at & _COLUMN) + 1)

    def locations(self, file: str) -> tuple[dict[PathKey, Location], dict[PathKey, Location]]:
        value_paths, value_numbers, key_paths, key_numbers = self._flattened()
        return (_unpacked(file, value_paths, value_numbers),
                _unpacked(file, key_paths, key_numbers))

    def packed(self, file: str) -> tuple[Packed | None, Packed | None]:
        value_paths, value_numbers, key_paths, key_numbers = self._flattened()
        return (value_paths, value_numbers), (key_paths, key_numbers)

    def _flattened(self) -> tuple[list[PathKey], array[int], list[PathKey], array[int]]:
        """Every value's and key's path and 1-based line and column, values in the order the
        loader read them (each value before what it holds)."""
        value_paths: list[PathKey] = []
        value_numbers: list[int] = []
        key_paths: list[PathKey] = []
        key_numbers: list[int] = []

        def add(path: PathKey, position: Position) -> None:
            if position.__class__ is not tuple:
                value_paths.append(path)
                value_numbers.extend(((position >> 32) + 1, (position & _COLUMN) + 1))  # type: ignore
                return
            at, children = position  # type: ignore[misc]
            value_paths.append(path)
            value_numbers.extend(((at >> 32) + 1, (at & _COLUMN) + 1))
            if children.__class__ is list:
                for index, child in enumerate(children):
                    add((*path, index), child)
                return
            for key, (key_at, child) in children.items():
                child_path = (*path, key)
                key_paths.append(child_path)
                key_numbers.extend(((key_at >> 32) + 1, (key_at & _COLUMN) + 1))
                add(child_path, child)

        add((), self.root)  # (recursive as deep as the data nests: MAX_DEPTH at most)
        return value_paths, array(NUMBERS, value_numbers), key_paths, array(NUMBERS, key_numbers)


def _child(position: Position, part: str | int) -> Position | None:
    """The position of ``part`` of a collection's, or None."""
    if position.__class__ is not tuple:
        return None
    children = position[1]  # type: ignore[index]
    if children.__class__ is list:
        if part.__class__ is int and 0 <= part < len(children):  # type: ignore[operator]
            return children[part]
        return None
    entry = children.get(part)
    return None if entry is None else entry[1]


_Index = _Locations | _Packed | _Positions


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


