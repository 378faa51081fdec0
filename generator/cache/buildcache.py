"""Skip a build whose inputs have not changed since the last one wrote its output, and never
skip one whose output would be stale.

A build's result depends on its inputs only: every file of the packs (cards, game.yaml,
catalogs, glossary, decks, templates, art, fonts of a data game), every other file a card
names (a hidden ``art/.wip.svg`` too), pnp itself and the libraries it runs on (the cache
layer's key recipe, generator.cache.usercache), and the options. Their fingerprint is taken here,
before anything heavy is imported (YAML, schemas, ReportLab: most of a small build's time),
and compared with the record the last successful build of the same command left in the
output's cache folder. When nothing changed and the output folder still holds exactly the
files that build wrote, byte for byte (their digests are kept), the build is skipped and its
messages are shown again.

The fingerprint hashes the content of every pack file (an edit that keeps a file's size and
time is still seen). A build is recorded only if its inputs are as they were when it began:
the fingerprint is taken again at the end, and every file's size and time compared with the
first reading, so an edit saved during the build, even one undone before it ends, leaves no
record, and the next build is a real one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path

from generator.cache.usercache import (
    discard,
    file_digest,
    key_recipe,
    output_cache_folder,
    read_entry,
    touch,
    write_entry,
)
from generator.core.limits import FILE_BYTES

_MAGIC = b"pnp-build 2\n"
#: the largest input file hashed: the largest a pack file may be (a larger one leaves no
#: record, and the build reports it)
_INPUT_BYTES = max(FILE_BYTES.values())
#: files other than the packs' own that the faces of this process's builds drew
_named: set[str] = set()

#: a file's path, size and modification time as it was hashed
Seen = tuple[str, int, int]


def input_files(root: Path, exclude: Path | None = None) -> Iterable[Path]:
    """Every regular file below ``root``, in a stable order, hidden entries and caches left
    out (``__pycache__``, editor swap files), and the folder ``exclude`` (an output folder
    inside a pack). A hidden file that a card names is fingerprinted as a named file."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                         and (exclude is None or Path(folder, d).resolve() != exclude))
        for name in sorted(files):
            if not name.startswith("."):
                yield Path(folder) / name


def content_hash(path: Path, seen: list[Seen] | None = None) -> bytes:
    """A file's content hash, read without following a link, blocking on a named pipe or
    reading without bound (generator.cache.usercache.read_regular), its size and time appended to
    ``seen`` as they were when it was opened. Anything that is not a regular file raises
    OSError: there is then no record, and the build itself reports the file."""
    digest, info = file_digest(path, _INPUT_BYTES)
    if seen is not None:
        seen.append((str(path), info.st_size, info.st_mtime_ns))
    return digest


def _fingerprint(packs: Iterable[Path], extra_files: Iterable[Path], options: dict,
                 exclude: Path | None = None) -> tuple[str, list[Seen]]:
    """A hash of everything a build reads and every option it was given (``exclude``: the
    output root, when it lies inside a pack), and what was read: each file's size and time."""
    seen: list[Seen] = []
    digest = hashlib.sha256()
    digest.update(json.dumps(options, sort_keys=True, default=str).encode())
    for root in packs:
        digest.update(f"pack {root.resolve()}\n".encode())
        for path in input_files(root, exclude):
            digest.update(f"{path.relative_to(root)}\n".encode())
            digest.update(content_hash(path, seen))
    for path in extra_files:
        digest.update(f"file {path.resolve()}\n".encode())
        digest.update(content_hash(path, seen))
    digest.update(key_recipe())
    return digest.hexdigest(), seen


def note_named(paths: Iterable[str]) -> None:
    """The files a build's faces drew: those the packs' walk leaves out (hidden ones) join
    the fingerprint of the build's record."""
    _named.update(paths)


def _named_digest(paths: Iterable[str]) -> tuple[str, list[Seen]]:
    seen: list[Seen] = []
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(f"{path}\n".encode())
        try:
            digest.update(content_hash(Path(path), seen))
        except OSError:
            digest.update(b"unreadable")
    return digest.hexdigest(), seen


def _outputs(folder: Path) -> dict[str, list[int | str]]:
    """The files of an output folder with their sizes, times and digests: a user who
    deleted, replaced or damaged one (even keeping its size and time) gets a real build."""
    found: dict[str, list[int | str]] = {}
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_file(follow_symlinks=False):
            info = entry.stat(follow_symlinks=False)
            with open(entry.path, "rb") as file:
                digest = hashlib.file_digest(file, "sha256").hexdigest()
            found[entry.name] = [info.st_size, info.st_mtime_ns, digest]
    return found


class BuildRecord:
    """The record of one build command (its packs, options and output root) in the output's
    cache folder (generator.cache.usercache.output_cache_folder; none when caches are off)."""

    def __init__(self, out_root: Path, packs: list[Path], extra_files: list[Path],
                 options: dict, exclude: Path | None = None) -> None:
        self._started = time.time_ns()
        self._args = (packs, extra_files, options,
                      exclude.resolve() if exclude is not None else None)
        self.inputs: str | None = None
        self._seen: list[Seen] = []
        self._packs = [root.resolve() for root in packs]
        folder = output_cache_folder(out_root)
        self.path: Path | None = None
        if folder is None:
            return
        command = json.dumps([[str(p) for p in self._packs], options], sort_keys=True,
                             default=str)
        self.path = folder / ("build-" + hashlib.sha256(command.encode()).hexdigest()[:24]
                              + ".record")
        try:
            self.inputs, self._seen = _fingerprint(*self._args)
        except OSError:  # an unreadable input: let the build report it properly
            self.inputs = None

    def unchanged(self) -> dict | None:
        """The last build's record when its inputs and its output are as they were."""
        if self.inputs is None or self.path is None:
            return None
        body = read_entry(self.path, _MAGIC)
        if body is None:
            return None
        try:
            record = json.loads(body)
            if record["inputs"] != self.inputs:
                return None
            if _named_digest(record["named"])[0] != record["named_inputs"]:
                return None
            if _outputs(Path(record["out_dir"])) != record["outputs"]:
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        touch(self.path.parent)
        return record

    def save(self, out_dir: Path, pages: int, messages: str) -> None:
        """Remember a successful build, if its inputs did not change while it ran (else the
        last record goes too: the next build is a real one). A failure to write is no error."""
        if self.inputs is None or self.path is None:
            return
        named = self._named()
        try:
            again, seen = _fingerprint(*self._args)
            named_inputs, named_seen = _named_digest(named)
        except OSError:
            again = None
        if (again != self.inputs or seen != self._seen
                or any(mtime >= self._started for _, _, mtime in named_seen)):
            discard(self.path)  # an input changed during the build: its output may mix both
            return
        with contextlib.suppress(OSError):
            record = {"inputs": self.inputs, "out_dir": str(out_dir), "pages": pages,
                      "messages": messages, "outputs": _outputs(out_dir),
                      "named": sorted(named), "named_inputs": named_inputs}
            write_entry(self.path, _MAGIC, json.dumps(record).encode())

    def _named(self) -> set[str]:
        """The noted files inside the packs that the walk left out (hidden ones)."""
        walked = {os.path.realpath(path) for path, _, _ in self._seen}
        return {path for path in _named if path not in walked
                and any(Path(path).is_relative_to(root) for root in self._packs)}
