"""The one face cache: faces laid out before, kept for the next build, ``pnp watch`` rebuild
or proof, so that an edited card lays out one face.

A face's layout is a function of its template, the values the game gives its card (already
localized: texts, labels, numbers), the card's pack (manifest, folder) and, for a game defined in
data, the card's fields (its ``when:`` conditions read them), and of everything else a build
reads: templates, palette, glossary, catalogs, icons, art, fonts, the options (locale, bleed,
ink saver), pnp's own code and the libraries that measure and break text. The cache names
each face by a digest of all of that, taken coarsely:

- one *inputs key* for everything that is not a card: the content of every file of every pack
  except its card files, the packs' folders, the cache layer's key recipe (Python, pnp's files,
  every installed library: generator.cache.usercache.key_recipe), and the options;
- per face, the inputs key, the template's name, the card's pack and its face values (and a
  data card's fields), written out exactly by ``marshal``. Values that are not plain data
  (str, numbers, bool, None, lists, tuples and dicts of them) cannot be written so: such a
  face gets no digest and is laid out every time.

An edited card changes its own values only, so every other face is taken from the cache; an
edit anywhere else (a template, a catalog, an option, pnp itself) changes the inputs key and
every face is laid out again. The same digest names a face's drawing in a chunk of pages
(generator.render.sheetpdfs.chunk_key), and the proof keeps a kept face's picture name under it
(:attr:`KeptFaces.names`), so neither pickles nor hashes a face's ops again.

A build keeps the faces of one pack set and locale in one entry of the output's cache folder
(:func:`faces_folder`, under generator.cache.usercache.output_cache_folder), holding the faces
of its last build only; the proof keeps them in memory from one rebuild to the next
(:class:`KeptFaces`). An entry is a cache layer entry (checked kind, bounded read, its own
name, a checksum) whose body starts with its inputs key: one for other inputs is ignored. It
is read with an unpickler that builds nothing but the layout's own classes: a planted entry
cannot run code.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import pickle
import zlib
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from generator.cache.buildcache import content_hash, input_files
from generator.cache.usercache import key_recipe, output_cache_folder, read_entry, write_entry
from generator.layout.engine import FaceLayout, TextProblem
from generator.layout.ops import (
    Arc,
    Circle,
    Ellipse,
    Gradient,
    Group,
    Image,
    Line,
    Polygon,
    QrCode,
    Rect,
    Text,
)
from generator.layout.richtext import Style
from generator.load.packfiles import PackFolder, card_files

if TYPE_CHECKING:
    from generator.layout.faces import CardFaces
    from generator.model.cards import CardSet
    from generator.model.game import Game

FACES_FOLDER = "faces"
#: 3: a face's entry holds five values (its corner radius since the card-design vocabulary)
_MAGIC = b"pnp-faces 3\n"
_KEY_BYTES = 32
#: marshal's format 2 writes plain data exactly (types and values, floats in binary) and
#: nothing else: no references between objects (format 3 on), so equal values give equal
#: bytes whatever objects they share; a subclass of str or int, or any other object, raises
_MARSHAL_VERSION = 2

#: what a cache file may build: the layout's op classes and text problems, nothing else
_ALLOWED = {(cls.__module__, cls.__qualname__): cls
            for cls in (Rect, Polygon, Ellipse, Circle, Arc, Line, Text, Image, QrCode, Group,
                        Gradient, Style, TextProblem)}

#: a face as kept: width, height, ops, problems and corner radius (a FaceLayout's fields)
Entry = tuple[float, float, list, list, float]


def inputs_key(packs: Iterable[tuple[Path, Collection[str]]], options: Mapping[str, object],
               exclude: Path | None = None) -> bytes:
    """The digest of everything but the cards: ``packs`` are (folder, its card files' paths
    relative to it, as POSIX paths) pairs in the set's order; every other file of each folder
    counts by its content (``exclude``: an output folder inside a pack, which changes with
    every build). Raises OSError for a file that cannot be read."""
    digest = hashlib.sha256()
    digest.update(_MAGIC)
    digest.update(key_recipe())
    digest.update(repr(sorted(options.items())).encode())
    excluded = exclude.resolve() if exclude is not None else None
    for root, card_files_ in packs:
        digest.update(f"\npack {root.resolve()}\n".encode())
        for path in input_files(root, excluded):
            relative = path.relative_to(root).as_posix()
            if relative in card_files_:
                continue
            digest.update(f"{relative}\n".encode())
            digest.update(content_hash(path))
    return digest.digest()


def set_key(card_set: CardSet, game: Game, locale: str, bleed_mm: float, ink_saver: bool,
            exclude: Path | None = None) -> bytes:
    """The inputs key of laying out ``card_set`` in ``locale`` (:func:`inputs_key`); raises
    OSError for a file that cannot be read (the build then reports it itself)."""
    suffixes = game.card_file_suffixes
    return inputs_key(
        [(pack.root, {str(file.relative) for file in card_files(PackFolder(pack.root),
                                                                  suffixes)[0]})
         for pack in card_set.packs],
        {"game": game.name, "locale": locale, "bleed_mm": bleed_mm, "ink_saver": ink_saver},
        exclude)


def faces_folder(out_root: Path) -> Path | None:
    """Where a build into ``out_root`` keeps its faces; None when caches are off."""
    folder = output_cache_folder(out_root)
    return folder / FACES_FOLDER if folder is not None else None


class FaceCache:
    """The faces a build may take from the last one (``known``) and the digests that name
    faces in this build, under one inputs key."""

    def __init__(self, key: bytes, known: dict[bytes, Entry] | None = None) -> None:
        self.key = key
        self.known: dict[bytes, Entry] = known or {}

    def digest(self, template: str, pack: int, values: Mapping[str, object],
               fields: Mapping[str, object] | None = None) -> bytes | None:
        """The name of the face ``template`` draws from ``values`` (and a data card's
        ``fields``) for a card of the set's ``pack``-th pack; None when a value is not plain
        data."""
        try:
            described = marshal.dumps((template, pack, values, fields), _MARSHAL_VERSION)
        except ValueError:  # not plain data
            return None
        return hashlib.blake2b(self.key + described, digest_size=20).digest()

    def layout(self, digest: bytes | None) -> FaceLayout | None:
        """The kept face named ``digest``, as a FaceLayout of its own (None: not kept)."""
        entry = self.known.get(digest) if digest is not None else None
        if entry is None:
            return None
        width, height, ops, problems, radius = entry
        return FaceLayout(width, height, list(ops), list(problems), radius)


class KeptFaces:
    """Faces kept in memory from one proof to the next in one process (``pnp watch``), per
    pack set and locale: the proof's face cache. An edited card lays out its own faces only;
    any other edit changes the inputs key, and every face is laid out again."""

    def __init__(self) -> None:
        self._caches: dict[tuple[str, str], FaceCache] = {}
        #: what the proof named each kept face's picture (by the face's digest): a face taken
        #: from the cache is not hashed again
        self.names: dict[bytes, str] = {}

    def open(self, card_set: CardSet, game: Game, locale: str, bleed_mm: float
             ) -> FaceCache | None:
        """The faces kept for this pack set and locale under today's inputs (None: an input
        cannot be read; the faces are then laid out, and the checks report the file)."""
        try:
            key = set_key(card_set, game, locale, bleed_mm, False)
        except OSError:
            return None
        old = self._caches.get((card_set.name, locale))
        cache = FaceCache(key, old.known if old is not None and old.key == key else None)
        self._caches[(card_set.name, locale)] = cache
        return cache

    def keep(self, cache: FaceCache, faces: CardFaces) -> None:
        """Keep ``faces`` (laid out with ``cache``), and only them, for the next proof."""
        cache.known = _entries(faces.layouts, faces.digests)
        live = {digest for kept in self._caches.values() for digest in kept.known}
        self.names = {digest: name for digest, name in self.names.items() if digest in live}


def _entries(layouts: Mapping[object, FaceLayout], digests: Mapping[object, bytes]
             ) -> dict[bytes, Entry]:
    return {digest: (layout.width_mm, layout.height_mm, layout.ops, layout.problems,
                     layout.corner_radius_mm)
            for face, digest in digests.items()
            if (layout := layouts.get(face)) is not None}


class _LayoutUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        cls = _ALLOWED.get((module, name))
        if cls is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a face")
        return cls


def load(path: Path, key: bytes) -> FaceCache:
    """The cache kept in ``path`` for inputs ``key``; empty when the entry is missing, bad
    (generator.cache.usercache.read_entry), or was written for other inputs."""
    known: dict[bytes, Entry] = {}
    body = read_entry(path, _MAGIC)
    if body is not None and body[:_KEY_BYTES] == key:
        try:
            value = _LayoutUnpickler(io.BytesIO(zlib.decompress(body[_KEY_BYTES:]))).load()
        except Exception:  # a damaged body that still matched its checksum: not ours
            value = None
        if isinstance(value, dict) and all(
                isinstance(k, bytes) and isinstance(v, tuple) and len(v) == 5
                for k, v in value.items()):
            known = value
    return FaceCache(key, known)


def save(path: Path, cache: FaceCache, layouts: Mapping[object, FaceLayout],
         digests: Mapping[object, bytes]) -> None:
    """Keep this build's faces (those with a digest) in ``path``, replacing what the last
    build kept there; nothing is written when they are exactly the faces already kept. A
    cache that cannot be written is no error: the next build lays its faces out again."""
    entries = _entries(layouts, digests)
    if entries.keys() == cache.known.keys():
        return
    body = zlib.compress(pickle.dumps(entries, protocol=5), 1)
    write_entry(path, _MAGIC, cache.key + body)
