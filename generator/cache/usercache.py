"""Entries pnp keeps between runs: where they live, and how one is written and read safely.

pnp keeps what it derives from an input file and can derive again (SVG art compiled to PDF
operators, YAML files parsed with their source positions) in a folder of the user's own cache,
named by a hash of everything the entry depends on. Any pack, output folder or checkout may
share one, as any ``.pyc`` may be shared: an equal name means an equal input.

An entry is written atomically (a scratch file renamed) and starts with a magic line and a
checksum of its body; a missing, truncated, damaged or foreign file reads as no entry, and the
caller derives the value again. A folder holds at most :data:`MAX_ENTRIES` entries and
:data:`MAX_BYTES` bytes; beyond that its oldest half goes, checked once per process and folder
(an edited file leaves an entry nobody reads again).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

#: entries kept in one folder (one output's art is a few dozen, a pack's files a few dozen)
MAX_ENTRIES = 4096
#: bytes kept in one folder: the parsed form of a 10 MB card file is some tens of MB
MAX_BYTES = 512 * 1024 * 1024
_CHECKSUM_CHARS = 64

#: folders already held to their limits by this process
_pruned: set[Path] = set()


def user_cache_folder(kind: str) -> Path | None:
    """The user's own folder for entries of ``kind``: ``$PNP_CACHE_DIR/<kind>``, else
    ``$XDG_CACHE_HOME/pnp/<kind>``, else ``~/.cache/pnp/<kind>``. ``PNP_CACHE_DIR=`` (empty)
    turns the cache off; so does a home that cannot be found."""
    configured = os.environ.get("PNP_CACHE_DIR")
    if configured is not None:
        return Path(configured) / kind if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "pnp" / kind


def stamps(files: Iterable[Path]) -> list[str]:
    """Each file's name, size and time: what an entry's name covers of the code that made it
    (a checkout being edited keeps its version number)."""
    parts = []
    for file in files:
        try:
            stat = file.stat()
            parts.append(f"{file.name} {stat.st_size} {stat.st_mtime_ns}")
        except OSError:
            parts.append(f"{file.name} missing")
    return parts


def library_stamps(*names: str) -> list[str]:
    """Each library's own file (its ``__init__``, which any install or upgrade rewrites) by
    size and time, found without importing the library; ``name -`` where there is none."""
    import importlib.util

    lines = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            stat = os.stat(origin) if origin else None
        except (ImportError, ValueError, OSError):
            stat = None
        lines.append(f"{name} {stat.st_size} {stat.st_mtime_ns}" if stat else f"{name} -")
    return lines


def read_entry(entry: Path, magic: bytes) -> bytes | None:
    """The entry's body, or None when it is missing, truncated, damaged or not of ``magic``."""
    try:
        raw = entry.read_bytes()
    except OSError:
        return None
    if not raw.startswith(magic):
        return None
    checksum, newline, body = raw[len(magic):].partition(b"\n")
    if not newline or hashlib.sha256(body).hexdigest().encode() != checksum:
        return None
    return body


def write_entry(entry: Path, magic: bytes, body: bytes) -> None:
    """Write the entry atomically; a cache that cannot be written is no error (the value is
    derived again next time)."""
    raw = magic + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    scratch = entry.with_name(f".{entry.name}.{os.getpid()}")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        _prune_once(entry.parent)
        scratch.write_bytes(raw)
        scratch.replace(entry)
    except OSError:
        with contextlib.suppress(OSError):  # (no folder to hold a scratch file either)
            scratch.unlink(missing_ok=True)


def _prune_once(folder: Path) -> None:
    if folder in _pruned:
        return
    _pruned.add(folder)
    prune(folder)


def prune(folder: Path, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
    """Hold ``folder`` under its limits: beyond either, keep only the newest half."""
    entries = []
    for item in os.scandir(folder):
        with contextlib.suppress(OSError):  # (gone meanwhile: another pnp pruned it)
            stat = item.stat()
            entries.append((stat.st_mtime_ns, stat.st_size, item.path))
    if len(entries) < max_entries and sum(size for _, size, _ in entries) <= max_bytes:
        return
    entries.sort()
    kept, kept_bytes, keeping = 0, 0, True
    for _, size, path in reversed(entries):  # the newest, while half of each limit has room
        keeping = keeping and kept < max_entries // 2 and kept_bytes + size <= max_bytes // 2
        if keeping:
            kept, kept_bytes = kept + 1, kept_bytes + size
        else:
            with contextlib.suppress(OSError):
                Path(path).unlink(missing_ok=True)
