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
from pathlib import Path, PurePosixPath

from msgspec import Struct, field

from generator.core.findings import Finding, error, warning
from generator.core.limits import FILE_BYTES, MAX_PACK_ENTRIES
from generator.core.location import Location, display_path
from generator.load.parsecache import load_yaml_text
from generator.load.yamldoc import LoadProblem, YamlDocument, decode_utf8
from generator.runtime.readflags import READ_FLAGS, read_at_most

#: suffixes of the files pnp reads from a pack; a broken entry with another suffix is not ours
READ_SUFFIXES = frozenset({".yaml", ".yml", ".po", ".pot", ".csv", ".xlsx", ".ods", ".png",
                           ".jpg", ".jpeg", ".webp", ".svg", ".ttf", ".otf"})
_READ_CHUNK = 1 << 20


class PackFile(Struct, frozen=True, gc=False):
    """A file of a pack: where it is (a link stays a link), its pack-relative name, its label."""

    path: Path
    relative: PurePosixPath
    display: str

    @property
    def suffix(self) -> str:
        return self.relative.suffix.lower()


class Listing(Struct):
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
                listing.findings.append(_refused(_cannot_read(exc), display_path(folder),
                                                 "folder"))
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
            return _refused(_dangling(path), display), False
        except OSError as exc:
            return (_refused(_cannot_read(exc), display, "entry") if ours else None), False
        if stat.S_ISDIR(info.st_mode):
            if entry.is_symlink() and not self._inside(path):
                return _refused(_OUTSIDE, display, "folder"), False
            return None, True
        if not ours:
            return None, False
        if not stat.S_ISREG(info.st_mode):
            return _refused(_not_regular(info.st_mode), display), False
        if entry.is_symlink() and not self._inside(path):
            return _refused(_OUTSIDE, display), False
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
            refusal = _OUTSIDE if os.path.exists(file.path) else _dangling(file.path)
            return None, [_refused(refusal, file.display)]
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


class Refusal(Struct, frozen=True, gc=False):
    """Why a file a pack names (an art path in a card, a font in game.yaml) is not read: the
    policy's finding code and a clause to follow the file's name ("is a named pipe, ...")."""

    code: str
    reason: str


def named_file_refusal(root: Path, path: Path, kind: str) -> Refusal | None:
    """The pack file policy for a file named by a pack rather than found by the listing: None
    when ``path`` is a regular file inside ``root`` within its kind's size limit; else what it
    is (``missing`` when there is no entry of that name at all). Nothing is opened, so a named
    pipe cannot block; a file that cannot be opened is found when it is read
    (:func:`read_user_file`)."""
    if not os.path.lexists(path):
        return Refusal("missing", "no such file")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return _dangling(path)
    except OSError as exc:
        return _cannot_read(exc)
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(path))
    if real != real_root and not real.is_relative_to(real_root):
        return _OUTSIDE
    if not stat.S_ISREG(info.st_mode):
        return _not_regular(info.st_mode)
    if info.st_size > FILE_BYTES[kind]:
        return _too_large(info.st_size, FILE_BYTES[kind], kind)
    return None


_KIND_WORDS = {"manifest": "game.yaml", "card-file": "a card file", "catalog": "a catalog",
               "glossary": "a glossary", "deck": "a deck", "template": "a template",
               "table": "a table", "image": "an art file", "icon": "an icon", "font": "a font"}


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
    raw, refusal = read_named_file(path, kind)
    if refusal is None:
        return raw, []
    return None, [_refused(refusal, display)]


def read_named_file(path: Path, kind: str) -> tuple[bytes | None, Refusal | None]:
    """Open without blocking (a FIFO must not hang us) and in binary mode everywhere
    (:mod:`generator.runtime.readflags`), check it is a regular file within the size limit of its
    kind, and read at most that many bytes. Containment is the caller's
    (:meth:`PackFolder.read_bytes`, :func:`named_file_refusal`)."""
    limit = FILE_BYTES[kind]
    try:
        fd = os.open(path, READ_FLAGS)
    except FileNotFoundError:
        if os.path.islink(path):
            return None, _dangling(path)
        return None, Refusal("unreadable", "cannot be read: no such file")
    except OSError as exc:
        return None, _cannot_read(exc)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, _not_regular(info.st_mode)
        if info.st_size > limit:
            return None, _too_large(info.st_size, limit, kind)
        data = read_at_most(fd, limit, _READ_CHUNK)
        if len(data) > limit:  # the file grew while we read it
            return None, _too_large(len(data), limit, kind)
        return data, None
    except OSError as exc:
        return None, _cannot_read(exc)
    finally:
        os.close(fd)


def _link_target(path: Path) -> str:
    try:
        return repr(os.readlink(path))
    except OSError:
        return "a missing file"


def _refused(refusal: Refusal, display: str, what: str = "file") -> Finding:
    """The finding on the refused file itself (it was not read: no line to point at)."""
    return error(refusal.code, f"this {what} {refusal.reason}", _whole_file(display))


def _dangling(path: Path) -> Refusal:
    return Refusal("broken-link", f"is a link to {_link_target(path)}, which does not exist")


def _cannot_read(exc: OSError) -> Refusal:
    return Refusal("unreadable", f"cannot be read: {exc.strerror or exc}")


_OUTSIDE = Refusal("path-escape", "links outside the pack folder; copy it into the pack "
                   "instead")


def _not_regular(mode: int) -> Refusal:
    if stat.S_ISFIFO(mode):
        what = "a named pipe"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    elif stat.S_ISDIR(mode):
        what = "a folder"
    else:
        what = "a device"
    return Refusal("not-a-file", f"is {what}, not a regular file; pnp reads only files")


def _too_large(size: int, limit: int, kind: str) -> Refusal:
    return Refusal("file-too-large", f"is {size} bytes; the limit for "
                   f"{_KIND_WORDS.get(kind, kind.replace('-', ' '))} is {limit} bytes")


#: a pack's files that are not card files, and its folders that hold none
MANIFEST_NAME = "game.yaml"
GLOSSARY_NAME = "glossary.yaml"
NOT_CARD_FILES = frozenset({MANIFEST_NAME, GLOSSARY_NAME})
NOT_CARD_DIRS = frozenset({"locales", "decks", "templates"})
#: Excel's lock file of an open workbook (LibreOffice's are hidden: .~lock.*#)
LOCK_PREFIX = "~$"


def card_files(folder: PackFolder, suffixes: frozenset[str] = frozenset({".yaml", ".yml"})
               ) -> tuple[list[PackFile], list[Finding]]:
    """Every ``*.yaml``/``*.yml`` (a data game: also ``*.csv``, ``*.xlsx``) of the pack folder
    except the manifest, the glossary, locales, decks and templates, as the pack file policy
    lists them: what it refuses (links out of the pack, dangling links, pipes, unreadable
    files) comes back as findings, never silently skipped."""
    listing = folder.files()
    found = [file for file in listing.files
             if file.suffix in suffixes and str(file.relative) not in NOT_CARD_FILES
             and file.relative.parts[0] not in NOT_CARD_DIRS
             and not file.relative.name.startswith(LOCK_PREFIX)]
    return found, list(listing.findings)
