"""Every file of a pack folder is listed and read here, under one policy.

A pack is shared and built by people who did not write it, so what pnp reads of it obeys one
set of rules, whatever the file (card YAML, game.yaml, PO catalogs, the glossary, decks, and a
data game's tables, templates, art, icons and fonts):

- nothing is read from outside the pack folder: a link that resolves outside is refused
  (``path-escape``); links that stay inside are ordinary files;
- only regular files are read: a named pipe, socket or device is refused (``not-a-file``)
  without ever being opened for a blocking read;
- every file has a size ceiling for its kind (``file-too-large``, :data:`limits.FILE_BYTES`);
- nothing that pnp would read is skipped without a finding: a dangling link (``broken-link``),
  an unreadable file or folder (``unreadable``), a folder reached twice through links
  (``link-loop``), too many entries (``too-many-files``).

The API is small: ``PackFolder(root)``, then ``files()`` (the listing and its findings),
``entry(relative)`` for a file at a fixed place, and ``read_bytes``/``read_text``/``load_yaml``.
A file named by the user on the command line (``--deck FILE``) is read with :func:`read_user_file`
under the same rules except containment.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from generator.findings import Finding, error, warning
from generator.limits import FILE_BYTES, MAX_PACK_ENTRIES
from generator.location import Location, display_path
from generator.yamlsource import LoadProblem, YamlDocument, decode_utf8, load_yaml_text

#: suffixes of the files pnp reads from a pack; a broken entry with another suffix is not ours
READ_SUFFIXES = frozenset({".yaml", ".yml", ".po", ".pot", ".csv", ".xlsx", ".png", ".jpg",
                           ".jpeg", ".webp", ".svg", ".ttf", ".otf"})
_READ_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class PackFile:
    """A file of a pack: where it is (a link stays a link), its pack-relative name, its label."""

    path: Path
    relative: PurePosixPath
    display: str

    @property
    def suffix(self) -> str:
        return self.relative.suffix.lower()


@dataclass(slots=True)
class Listing:
    """The readable files of a pack folder, in a stable order, and what was refused on the way."""

    files: list[PackFile] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _whole_file(display: str) -> Location:
    return Location(display)


def _is_ours(name: str) -> bool:
    """Would pnp read an entry of this name? (folders and suffix-less links might hold cards)"""
    suffix = PurePosixPath(name).suffix.lower()
    return suffix in READ_SUFFIXES or suffix == ""


class PackFolder:
    """One pack folder: lists its files and reads them under the pack file policy."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.real_root = Path(os.path.realpath(self.root))
        self._listing: Listing | None = None

    # --- naming --------------------------------------------------------------------------

    def _file(self, path: Path) -> PackFile:
        relative = PurePosixPath(path.relative_to(self.root).as_posix())
        return PackFile(path, relative, display_path(path))

    def contains(self, path: Path) -> bool:
        """Does ``path`` (links resolved) lie inside the pack folder?"""
        return self._inside(path)

    def _inside(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return real == self.real_root or real.is_relative_to(self.real_root)

    # --- listing -------------------------------------------------------------------------

    def files(self) -> Listing:
        """Every readable regular file below the folder (hidden entries left out), walked once.

        Folders are entered in name order; links to folders inside the pack are followed once
        (a folder reached a second time is a ``link-loop`` warning, so a link to ``..`` cannot
        make the walk endless)."""
        if self._listing is None:
            self._listing = self._walk()
        return self._listing

    def _walk(self) -> Listing:
        listing = Listing()
        visited = {self.real_root}
        pending: list[Path] = [self.root]
        linked: list[Path] = []  # folder links, entered after every real folder
        seen = 0
        while pending or linked:
            folder = pending.pop() if pending else linked.pop(0)
            if folder != self.root:
                real = Path(os.path.realpath(folder))
                if real in visited:
                    listing.findings.append(warning(
                        "link-loop", f"this folder is a link to {display_path(real)}, whose "
                        "files are read already; skipped", _whole_file(display_path(folder))))
                    continue
                visited.add(real)
            try:
                with os.scandir(folder) as scan:
                    entries = sorted(scan, key=lambda e: e.name)
            except OSError as exc:
                listing.findings.append(_unreadable(display_path(folder), exc, "folder"))
                continue
            subfolders: list[Path] = []
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                seen += 1
                if seen > MAX_PACK_ENTRIES:
                    listing.findings.append(error(
                        "too-many-files", f"the pack folder holds more than {MAX_PACK_ENTRIES} "
                        "files and folders; the rest were not looked at",
                        _whole_file(display_path(self.root))))
                    return listing
                path = Path(entry.path)
                problem, is_dir = self._classify(entry, path)
                if problem is not None:
                    listing.findings.append(problem)
                elif is_dir:
                    (linked if entry.is_symlink() else subfolders).append(path)
                else:
                    listing.files.append(self._file(path))
            pending.extend(reversed(subfolders))
        listing.files.sort(key=lambda f: f.relative.parts)
        return listing

    def _classify(self, entry: os.DirEntry[str], path: Path) -> tuple[Finding | None, bool]:
        """(the finding that refuses the entry, or None; whether it is a folder to enter)."""
        display = display_path(path)
        ours = _is_ours(entry.name)
        try:
            info = entry.stat(follow_symlinks=True)
        except FileNotFoundError:
            if not ours:
                return None, False
            target = _link_target(path)
            return error("broken-link", f"this is a link to {target}, which does not exist",
                         _whole_file(display)), False
        except OSError as exc:
            return (_unreadable(display, exc, "entry") if ours else None), False
        if stat.S_ISDIR(info.st_mode):
            if entry.is_symlink() and not self._inside(path):
                return _escape(display, "folder"), False
            return None, True
        if not ours:
            return None, False
        if not stat.S_ISREG(info.st_mode):
            return _not_a_file(display, info.st_mode), False
        if entry.is_symlink() and not self._inside(path):
            return _escape(display, "file"), False
        return None, False

    # --- fixed places --------------------------------------------------------------------

    def entry(self, relative: str) -> PackFile | None:
        """The file at ``relative`` (e.g. ``game.yaml``, ``locales/ru.po``); None when there
        is no entry of that name at all (a dangling link is an entry: reading it says so)."""
        path = self.root / relative
        if not os.path.lexists(path):
            return None
        return self._file(path)

    def file_at(self, path: Path) -> PackFile:
        """A path below the folder (as the user gave it) as a pack file."""
        return self._file(path)

    # --- reading -------------------------------------------------------------------------

    def read_bytes(self, file: PackFile, kind: str) -> tuple[bytes | None, list[Finding]]:
        """The file's bytes, or None and the finding that refused it."""
        if not self._inside(file.path):
            exists = os.path.exists(file.path)
            return None, [_escape(file.display, "file") if exists else
                          error("broken-link", f"this is a link to {_link_target(file.path)}, "
                                "which does not exist", _whole_file(file.display))]
        return _read_regular(file.path, file.display, kind)

    def read_text(self, file: PackFile, kind: str) -> tuple[str | None, list[Finding]]:
        """The file as UTF-8 text (a byte-order mark is dropped), or None and a finding."""
        raw, findings = self.read_bytes(file, kind)
        if raw is None:
            return None, findings
        try:
            return decode_utf8(file.display, raw), []
        except LoadProblem as problem:
            return None, [problem.finding]

    def load_yaml(self, file: PackFile, kind: str) -> tuple[YamlDocument | None, list[Finding]]:
        text, findings = self.read_text(file, kind)
        if text is None:
            return None, findings
        return load_yaml_text(file.display, text)


def read_user_file(path: Path, kind: str, display: str | None = None
                   ) -> tuple[bytes | None, list[Finding]]:
    """A file the user named on the command line: the pack policy except containment."""
    return _read_regular(path, display or display_path(path), kind)


def load_user_yaml(path: Path, kind: str, display: str | None = None
                   ) -> tuple[YamlDocument | None, list[Finding]]:
    shown = display or display_path(path)
    raw, findings = read_user_file(path, kind, shown)
    if raw is None:
        return None, findings
    try:
        text = decode_utf8(shown, raw)
    except LoadProblem as problem:
        return None, [problem.finding]
    return load_yaml_text(shown, text)


def _read_regular(path: Path, display: str, kind: str) -> tuple[bytes | None, list[Finding]]:
    """Open without blocking (a FIFO must not hang us), check it is a regular file within the
    size limit of its kind, and read at most that many bytes."""
    limit = FILE_BYTES[kind]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            return None, [error("broken-link", f"this is a link to {_link_target(path)}, "
                                "which does not exist", _whole_file(display))]
        return None, [error("unreadable", "cannot read: no such file", _whole_file(display))]
    except OSError as exc:
        return None, [_unreadable(display, exc, "file")]
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, [_not_a_file(display, info.st_mode)]
        if info.st_size > limit:
            return None, [_too_large(display, info.st_size, limit, kind)]
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_READ_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # the file grew while we read it
                return None, [_too_large(display, total, limit, kind)]
        return b"".join(chunks), []
    except OSError as exc:
        return None, [_unreadable(display, exc, "file")]
    finally:
        os.close(fd)


def _link_target(path: Path) -> str:
    try:
        return repr(os.readlink(path))
    except OSError:
        return "a missing file"


def _unreadable(display: str, exc: OSError, what: str) -> Finding:
    reason = exc.strerror or str(exc)
    return error("unreadable", f"cannot read this {what}: {reason}", _whole_file(display))


def _escape(display: str, what: str) -> Finding:
    return error("path-escape", f"this {what} links outside the pack folder; copy it into the "
                 "pack instead", _whole_file(display))


def _not_a_file(display: str, mode: int) -> Finding:
    if stat.S_ISFIFO(mode):
        what = "a named pipe"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    elif stat.S_ISDIR(mode):
        what = "a folder"
    else:
        what = "a device"
    return error("not-a-file", f"this is {what}, not a regular file; pnp reads only files",
                 _whole_file(display))


def _too_large(display: str, size: int, limit: int, kind: str) -> Finding:
    return error("file-too-large", f"this {kind.replace('-', ' ')} is {size} bytes; the limit "
                 f"for it is {limit} bytes", _whole_file(display))
