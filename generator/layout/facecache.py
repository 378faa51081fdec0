"""Faces laid out by the last build, kept for the next one: an edited card lays out one face.

A face's layout is a function of its template, the values the game gives its card (already
localized: texts, labels, numbers), the card's pack (manifest, folder) and, for a game defined in
data, the card's fields (its ``when:`` conditions read them), and of everything else a build
reads: templates, palette, glossary, catalogs, icons, art, fonts, the options (locale, bleed,
ink saver), pnp's own code and the libraries that measure and break text. The cache names
each face by a digest of all of that, taken coarsely:

- one *inputs key* for everything that is not a card: the content of every file of every pack
  except its card files, the packs' folders, pnp's files (size and time, as
  generator.cache.buildcache takes them), the versions of Python and of the libraries the layout
  depends on, and the options;
- per face, the inputs key, the template's name, the card's pack and its face values (and a
  data card's fields), written out exactly by ``marshal``. Values that are not plain data
  (str, numbers, bool, None, lists, tuples and dicts of them) cannot be written so: such a
  face gets no digest and is laid out every time.

An edited card changes its own values only, so every other face is taken from the cache; an
edit anywhere else (a template, a catalog, an option, pnp itself) changes the inputs key and
every face is laid out again. The same digest names a face's drawing in a chunk of pages
(generator.render.sheetpdfs.chunk_key), so a chunk's key costs no pickling of its faces' ops.

The cache of one pack and locale is one file in ``<out>/.pnp-cache/faces/``, holding the faces
of the last build only (it never outgrows one output). It is written atomically with a checksum
of its body; a file that is truncated, damaged, made by another version or for other inputs is
ignored. It is read with an unpickler that builds nothing but the layout's own classes: a cache
file planted in an output folder cannot run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import marshal
import os
import pickle
import sys
import zlib
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from generator.cache.usercache import library_stamps
from generator.layout.engine import FaceLayout, TextProblem
from generator.layout.ops import Arc, Circle, Image, Line, Polygon, Rect, Text

FACES_FOLDER = "faces"
_MAGIC = b"pnp-faces 1\n"
#: libraries whose code decides where text breaks and how wide it is, or how big art is
_LIBRARIES = ("reportlab", "pyphen", "uniseg", "PIL", "svglib")
#: marshal's format 2 writes plain data exactly (types and values, floats in binary) and
#: nothing else: no references between objects (format 3 on), so equal values give equal
#: bytes whatever objects they share; a subclass of str or int, or any other object, raises
_MARSHAL_VERSION = 2

#: what a cache file may build: the layout's op classes and text problems, nothing else
_ALLOWED = {(cls.__module__, cls.__qualname__): cls
            for cls in (Rect, Polygon, Circle, Arc, Line, Text, Image, TextProblem)}

#: a face as kept: width, height, ops and problems (a FaceLayout's fields)
Entry = tuple[float, float, list, list]


def inputs_key(packs: Iterable[tuple[Path, Collection[str]]], options: Mapping[str, object],
               exclude: Path | None = None) -> bytes:
    """The digest of everything but the cards: ``packs`` are (folder, its card files' paths
    relative to it, as POSIX paths) pairs in the set's order; every other file of each folder
    counts by its content (``exclude``: an output folder inside a pack, which changes with
    every build). Raises OSError for a file that cannot be read."""
    from generator import __version__
    from generator.cache.buildcache import _content_hash, _files, pnp_stamps

    digest = hashlib.sha256()
    digest.update(_MAGIC)
    digest.update(f"pnp {__version__}\npython {sys.version}\n".encode())
    digest.update("\n".join(library_stamps(*_LIBRARIES)).encode())
    digest.update(repr(sorted(options.items())).encode())
    digest.update(pnp_stamps())
    excluded = exclude.resolve() if exclude is not None else None
    for root, card_files in packs:
        digest.update(f"\npack {root.resolve()}\n".encode())
        for path in _files(root, excluded):
            relative = path.relative_to(root).as_posix()
            if relative in card_files:
                continue
            digest.update(f"{relative}\n".encode())
            digest.update(_content_hash(path))
    return digest.digest()


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
        width, height, ops, problems = entry
        return FaceLayout(width, height, list(ops), list(problems))


def _entries(layouts: Mapping[object, FaceLayout], digests: Mapping[object, bytes]
             ) -> dict[bytes, Entry]:
    return {digest: (layout.width_mm, layout.height_mm, layout.ops, layout.problems)
            for face, digest in digests.items()
            if (layout := layouts.get(face)) is not None}


class _LayoutUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        cls = _ALLOWED.get((module, name))
        if cls is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a face")
        return cls


def load(path: Path, key: bytes) -> FaceCache:
    """The cache kept in ``path`` for inputs ``key``; empty when the file is missing, damaged,
    or was written for other inputs."""
    known: dict[bytes, Entry] = {}
    try:
        raw = path.read_bytes()
    except OSError:
        return FaceCache(key)
    head = _MAGIC + key.hex().encode() + b"\n"
    if raw.startswith(head):
        checksum, _, body = raw[len(head):].partition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() == checksum:
            try:
                value = _LayoutUnpickler(io.BytesIO(zlib.decompress(body))).load()
            except Exception:  # a damaged body that still matched its checksum: not ours
                value = None
            if isinstance(value, dict) and all(
                    isinstance(k, bytes) and isinstance(v, tuple) and len(v) == 4
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
    raw = (_MAGIC + cache.key.hex().encode() + b"\n"
           + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_bytes(raw)
        scratch.replace(path)
    except OSError:
        with contextlib.suppress(OSError):  # (no folder to hold a scratch file either)
            scratch.unlink(missing_ok=True)
