"""The one cache layer: where pnp keeps what it can derive again, how an entry is named, and
how an entry is written and read without trusting it.

Every cache of pnp goes through here: the build's up-to-date records, laid-out faces and
chunks of pages (generator.cache.buildcache, generator.layout.facecache,
generator.render.sheetpdfs), compiled SVG art (generator.render.vectorart), parsed YAML
(generator.load.parsecache) and schema verdicts (generator.schema.memo).

- **One folder.** The platform's cache folder (platformdirs: ``~/.cache/pnp`` on Linux,
  ``~/Library/Caches/pnp`` on macOS, ``%LOCALAPPDATA%\\pnp\\Cache`` on Windows), or
  ``$PNP_CACHE_DIR``. ``PNP_CACHE_DIR=`` (empty) is the one switch: every cache is off, and
  pnp writes nothing outside the folders it is told to write. What belongs to one output
  folder (its records, faces, chunks) lives under ``outputs/<a hash of that folder>``.
- **One key recipe** (:func:`key_recipe`): Python's version, pnp's version and the size and
  time of every file of pnp (code, schemas, templates, fonts: a checkout being edited keeps
  its version number), and every installed distribution by name, version and install time
  (ReportLab, pikepdf, Pillow, svglib, PyYAML, pyphen, the fonts packages... whatever shapes
  what is cached, and more: an upgrade of anything derives everything again, once).
- **Entries checked before use** (:func:`read_entry`): an entry is read only if it is a regular
  file (not a link, a named pipe, a device or a folder: ``lstat``, and no-follow, non-blocking
  opening where the platform has them), no longer than its cap, and only as many bytes as it
  says it holds; it starts with a magic line, its own name (an entry stored under another's
  name is not taken for it), its length and a checksum of its body. A bad entry reads as no
  entry, is removed, and the caller derives the value again and writes it anew.
- An entry is written atomically (a scratch file renamed); a cache that cannot be written is
  no error. A folder holds at most :data:`MAX_ENTRIES` entries and :data:`MAX_BYTES` bytes:
  beyond that its oldest half goes, checked once per process and folder.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import shutil
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from generator import __version__
from generator.core.errors import MissingResource
from generator.runtime.readflags import READ_FLAGS, read_at_most
from generator.runtime.resources import builtin_templates_root

#: the switch: the folder of every cache, or empty for no cache at all
SWITCH = "PNP_CACHE_DIR"
#: entries kept in one folder (one output's art is a few dozen, a pack's files a few dozen)
MAX_ENTRIES = 4096
#: bytes kept in one folder: the parsed form of a 10 MB card file is some tens of MB
MAX_BYTES = 512 * 1024 * 1024
#: output folders whose records, faces and chunks are kept (the least recently built go)
MAX_OUTPUTS = 64
#: the longest entry read back (a 50,000-card build's faces are some hundreds of MB)
MAX_ENTRY_BYTES = 1024 * 1024 * 1024
_CHECKSUM_CHARS = 64
_OUTPUTS = "outputs"
_PACKAGE = Path(__file__).resolve().parent
_FONT_PACKAGES = ("fontpkg_pt_sans", "fontpkg_pt_sans_narrow")
#: pnp's raw read-only open (runtime.readflags), and no following a link where the system
#: has the flag (POSIX): a cache entry is never a link
_OPEN_FLAGS = READ_FLAGS | getattr(os, "O_NOFOLLOW", 0)

#: folders already held to their limits by this process
_pruned: set[Path] = set()


# --- where ----------------------------------------------------------------------------------

def cache_root() -> Path | None:
    """The folder of every cache: ``$PNP_CACHE_DIR``, else the platform's cache folder for
    pnp; None (no cache) for ``PNP_CACHE_DIR=`` and for a home that cannot be found."""
    configured = os.environ.get(SWITCH)
    if configured is not None:
        return Path(configured).absolute() if configured else None
    import platformdirs  # (lazy: a run that finds its answer in no cache never needs it)

    found = platformdirs.user_cache_dir("pnp", appauthor=False)
    return Path(found) if os.path.isabs(found) else None


def user_cache_folder(kind: str) -> Path | None:
    """The folder of one kind of entry (``art``, ``parsed``, ``valid``...); None: no cache."""
    root = cache_root()
    return root / kind if root is not None else None


def output_cache_folder(out_root: Path) -> Path | None:
    """The folder of what belongs to one output folder (its build records, faces, chunks of
    pages), named by a hash of the output folder's absolute path; None: no cache. The least
    recently used of more than :data:`MAX_OUTPUTS` such folders go when a new one is made."""
    root = cache_root()
    if root is None:
        return None
    name = hashlib.sha256(os.fsencode(os.path.abspath(out_root))).hexdigest()[:24]
    folder = root / _OUTPUTS / name
    if not folder.is_dir():
        _prune_outputs(root / _OUTPUTS)
    return folder


# --- the key recipe -------------------------------------------------------------------------

@functools.cache
def key_recipe() -> bytes:
    """What every entry's name covers besides its own inputs: Python, pnp (its version and
    files), and every installed distribution (:func:`installed_versions`)."""
    head = f"python {sys.version} {sys.implementation.cache_tag}\npnp {__version__}\n"
    return (head + "\n".join(installed_versions()) + "\n").encode() + pnp_stamps()


@functools.cache
def key_digest() -> bytes:
    """The key recipe's SHA-256: what an entry's name starts from (the recipe itself holds
    pnp's 300 files, some 25 kB, too long to hash again for every entry)."""
    return hashlib.sha256(key_recipe()).digest()


@functools.cache
def installed_versions() -> tuple[str, ...]:
    """Every distribution on the import path as ``name-version.dist-info`` (or ``.egg-info``)
    with the time its metadata folder was written (a reinstall of the same version changes
    it): one listing per folder, where asking ``importlib.metadata`` costs 2 ms a library.
    The folder a script runs from (``sys.path[0]``, the working folder for ``-m``) is left
    out: it holds the user's files, not libraries."""
    found = []
    for entry in dict.fromkeys(os.path.abspath(p or os.curdir) for p in sys.path[1:]):
        with contextlib.suppress(OSError), os.scandir(entry) as scan:
            for item in scan:
                if item.name.endswith((".dist-info", ".egg-info")):
                    with contextlib.suppress(OSError):
                        found.append(f"{item.name} {item.stat().st_mtime_ns}")
    return tuple(sorted(found))


@functools.cache
def pnp_stamps() -> bytes:
    """pnp's own files that decide what it derives (code, schemas, templates, fonts), by path,
    size and time."""
    roots = [_PACKAGE, *_font_roots()]
    with contextlib.suppress(MissingResource):  # (an incomplete install: the run says so)
        roots.insert(1, builtin_templates_root())
    return b"".join(_stat_lines(root) for root in roots)


def _stat_lines(root: Path) -> bytes:
    """``path NUL size NUL time`` of every file below ``root`` but hidden ones and
    ``__pycache__``: pnp's own 300 files, taken as strings (pathlib objects for each cost a
    build 4 ms)."""
    lines = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if not name.startswith("."):
                path = os.path.join(folder, name)
                info = os.stat(path)
                lines.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n")
    return "".join(lines).encode()


def _font_roots() -> list[Path]:
    roots = []
    for package in _FONT_PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            roots.extend(Path(p) for p in spec.submodule_search_locations)
    return roots


def entry_name(*parts: bytes, suffix: str) -> str:
    """An entry's file name: a hash of the key recipe and of ``parts`` (what the entry is
    derived from), with ``suffix`` (``.art``...)."""
    digest = hashlib.sha256(key_digest())
    for part in parts:
        digest.update(len(part).to_bytes(8, "little") + part)
    return f"{digest.hexdigest()[:40]}{suffix}"


# --- reading without trust ------------------------------------------------------------------

def read_regular(path: Path, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """The bytes of ``path`` and its status, if it is a regular file of at most
    ``max_bytes``: a link, named pipe, device or folder raises OSError without being followed
    or blocked on, and no more than ``max_bytes`` bytes are ever read."""
    before = os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise OSError(f"{path}: not a regular file")
    if before.st_size > max_bytes:
        raise OSError(f"{path}: larger than {max_bytes} bytes")
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes
                or (info.st_dev, info.st_ino) != (before.st_dev, before.st_ino)):
            raise OSError(f"{path}: changed while opened")
        data = read_at_most(fd, max_bytes)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise OSError(f"{path}: larger than {max_bytes} bytes")
    return data, info


def file_digest(path: Path, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """The SHA-256 of a regular file of at most ``max_bytes`` (read as :func:`read_regular`
    reads), with its status as it was opened; raises OSError."""
    data, info = read_regular(path, max_bytes)
    return hashlib.sha256(data).digest(), info


def read_entry(entry: Path, magic: bytes, max_bytes: int = MAX_ENTRY_BYTES) -> bytes | None:
    """The entry's body, or None when it is missing, not a regular file, too long, truncated,
    damaged, not of ``magic``, or another entry's (its name inside is not ``entry``'s). A bad
    entry is removed, so that it is written anew."""
    try:
        raw, _ = read_regular(entry, max_bytes)
    except FileNotFoundError:
        return None
    except OSError:
        discard(entry)
        return None
    body = _checked_body(raw, magic, entry.name)
    if body is None:
        discard(entry)
    return body


def _checked_body(raw: bytes, magic: bytes, name: str) -> bytes | None:
    head = magic + name.encode("utf-8", "surrogateescape") + b"\n"
    if not raw.startswith(head):
        return None
    size, newline, rest = raw[len(head):].partition(b"\n")
    checksum, newline2, body = rest.partition(b"\n")
    if not (newline and newline2 and size.isdigit() and int(size) == len(body)):
        return None
    if hashlib.sha256(body).hexdigest().encode() != checksum:
        return None
    return body


def discard(entry: Path) -> None:
    """Remove a bad entry without following it: a link or pipe is unlinked, a folder planted
    under an entry's name removed with what it holds."""
    with contextlib.suppress(OSError):
        info = os.lstat(entry)
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(entry, ignore_errors=True)
        else:
            os.unlink(entry)


# --- writing --------------------------------------------------------------------------------

def write_entry(entry: Path, magic: bytes, body: bytes) -> None:
    """Write the entry atomically, with its magic, name, length and checksum; a cache that
    cannot be written is no error (the value is derived again next time)."""
    raw = b"".join((magic, entry.name.encode("utf-8", "surrogateescape"), b"\n",
                    str(len(body)).encode(), b"\n", hashlib.sha256(body).hexdigest().encode(),
                    b"\n", body))
    write_file(entry, raw)


def write_file(path: Path, raw: bytes) -> None:
    """Write ``raw`` to ``path`` atomically (a scratch file renamed over whatever is there;
    a folder in the way is removed); failing to is no error."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _prune_once(path.parent)
        scratch.write_bytes(raw)
        try:
            os.replace(scratch, path)
        except OSError:
            if not os.path.isdir(path) or os.path.islink(path):
                raise
            discard(path)
            os.replace(scratch, path)
    except OSError:
        with contextlib.suppress(OSError):  # (no folder to hold a scratch file either)
            scratch.unlink(missing_ok=True)


# --- holding folders to their limits --------------------------------------------------------

def _prune_once(folder: Path) -> None:
    """Prune a folder of entries once per process; an output's folders are never pruned
    (they hold one build's entries, all needed: whole output folders go instead)."""
    if folder in _pruned:
        return
    _pruned.add(folder)
    root = cache_root()
    if root is not None and folder.is_relative_to(root / _OUTPUTS):
        return
    with contextlib.suppress(OSError):
        prune(folder)


def prune(folder: Path, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
    """Hold ``folder`` under its limits: beyond either, keep only the newest half."""
    entries = []
    for item in os.scandir(folder):
        with contextlib.suppress(OSError):  # (gone meanwhile: another pnp pruned it)
            info = item.stat(follow_symlinks=False)
            entries.append((info.st_mtime_ns, info.st_size, item.path))
    if len(entries) < max_entries and sum(size for _, size, _ in entries) <= max_bytes:
        return
    entries.sort()
    kept, kept_bytes, keeping = 0, 0, True
    for _, size, path in reversed(entries):  # the newest, while half of each limit has room
        keeping = keeping and kept < max_entries // 2 and kept_bytes + size <= max_bytes // 2
        if keeping:
            kept, kept_bytes = kept + 1, kept_bytes + size
        else:
            discard(Path(path))


def _prune_outputs(folder: Path) -> None:
    """Keep the :data:`MAX_OUTPUTS` - 1 output folders used last (by their time), making room
    for one more."""
    try:
        found = [(item.stat(follow_symlinks=False).st_mtime_ns, item.path)
                 for item in os.scandir(folder)]
    except OSError:
        return
    found.sort(reverse=True)
    for _, path in found[MAX_OUTPUTS - 1:]:
        discard(Path(path))


def touch(folder: Path) -> None:
    """Mark an output's folder as used now (pruning keeps the folders used last)."""
    with contextlib.suppress(OSError):
        os.utime(folder)


# --- plain files a library reads by path ----------------------------------------------------

class FileDigests:
    """The digests of files kept as they are, for a library that opens them by path (the
    chunks of pages pikepdf joins) or a reader outside pnp (the proof's pictures, which a
    browser shows), kept in one entry (``entry``: by default ``digests`` beside them): a file
    is taken only while it is a regular file with its recorded length and digest; any other is
    made again."""

    NAME = "digests"
    _MAGIC = b"pnp-digests 1\n"

    def __init__(self, folder: Path, entry: Path | None = None) -> None:
        self.entry = entry if entry is not None else folder / self.NAME
        self._known: dict[str, list] = {}
        body = read_entry(self.entry, self._MAGIC)
        with contextlib.suppress(ValueError, TypeError):
            known = json.loads(body) if body is not None else {}
            if isinstance(known, dict):
                self._known = known

    def valid(self, path: Path) -> bool:
        """Whether ``path`` is the file recorded under its name."""
        recorded = self._known.get(path.name)
        if not (isinstance(recorded, list) and len(recorded) == 2
                and isinstance(recorded[0], int)):
            return False
        try:
            digest, _ = file_digest(path, recorded[0])
        except OSError:
            return False
        return digest.hex() == recorded[1]

    def note(self, path: Path) -> None:
        """Record ``path`` as it is now (just written by this process)."""
        try:
            digest, info = file_digest(path, MAX_ENTRY_BYTES)
        except OSError:
            self._known.pop(path.name, None)
            return
        self._known[path.name] = [info.st_size, digest.hex()]

    def record(self, name: str, data: bytes) -> None:
        """Record the file ``name`` as holding ``data`` (just written by this process)."""
        self._known[name] = [len(data), hashlib.sha256(data).hexdigest()]

    def save(self, names: Iterable[str]) -> None:
        """Keep the records of ``names`` only."""
        wanted = set(names)
        self._known = {name: value for name, value in self._known.items() if name in wanted}
        write_entry(self.entry, self._MAGIC, json.dumps(self._known, sort_keys=True).encode())
