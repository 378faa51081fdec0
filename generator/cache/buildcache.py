"""Skip a build whose inputs have not changed since the last one wrote its output.

A build's result depends on its inputs only: every file of the packs (cards, game.yaml,
catalogs, glossary, decks, templates, art, fonts of a data game), pnp's built-in templates and
fonts, pnp's own code, and the options. Their fingerprint is taken here, before anything heavy
is imported (YAML, schemas, ReportLab: most of a small build's time), and compared with the
record the last successful build of the same command left in ``<out>/.pnp-cache/``. When
nothing changed and the output folder still holds exactly the files that build wrote, the build
is skipped and its messages are shown again.

The fingerprint hashes the content of every pack file (an edit that keeps a file's size and
time is still seen). pnp's own modules, templates and fonts are taken by size and modification
time: they change only when pnp is installed again or edited in a checkout.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

CACHE_FOLDER = ".pnp-cache"
_FONT_PACKAGES = ("fontpkg_pt_sans", "fontpkg_pt_sans_narrow")


def _files(root: Path, exclude: Path | None = None) -> Iterable[Path]:
    """Every regular file below ``root``, in a stable order, hidden entries and caches left
    out (``__pycache__``, editor swap files), and the folder ``exclude`` (an output folder
    inside a pack)."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                         and (exclude is None or Path(folder, d).resolve() != exclude))
        for name in sorted(files):
            if not name.startswith("."):
                yield Path(folder) / name


def _content_hash(path: Path) -> bytes:
    """A pack file's content hash, read as the pack file policy reads it: opened without
    blocking, regular files only, within the largest size a pack file may have. Anything else
    (a named pipe, a link to a device, a 200 MB file) raises OSError: there is then no cache
    and the build itself reports the file."""
    import stat

    from generator.core.limits import FILE_BYTES
    from generator.runtime.readflags import READ_FLAGS

    fd = os.open(path, READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max(FILE_BYTES.values()):
            raise OSError(f"{path}: not a pack file to fingerprint")
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        return digest.digest()
    finally:
        os.close(fd)


def _stat_lines(root: Path) -> bytes:
    """``path NUL size NUL time`` of every file :func:`_files` yields under ``root``, in its
    order: pnp's own 300 files, taken as strings (pathlib objects for each cost a build 4 ms)."""
    lines = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if not name.startswith("."):
                path = os.path.join(folder, name)
                stat = os.stat(path)
                lines.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n")
    return "".join(lines).encode()


def _font_roots() -> list[Path]:
    import importlib.util

    roots = []
    for package in _FONT_PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            roots.extend(Path(p) for p in spec.submodule_search_locations)
    return roots


def fingerprint(packs: Iterable[Path], extra_files: Iterable[Path], options: dict,
                exclude: Path | None = None) -> str:
    """A hash of everything a build reads and every option it was given (``exclude``: the
    output root, when it lies inside a pack)."""
    digest = hashlib.sha256()
    digest.update(json.dumps(options, sort_keys=True, default=str).encode())
    for root in packs:
        digest.update(f"pack {root.resolve()}\n".encode())
        for path in _files(root, exclude):
            digest.update(f"{path.relative_to(root)}\n".encode())
            digest.update(_content_hash(path))
    for path in extra_files:
        digest.update(f"file {path.resolve()}\n".encode())
        digest.update(_content_hash(path))
    digest.update(pnp_stamps())
    return digest.hexdigest()


@functools.cache
def pnp_stamps() -> bytes:
    """pnp's own files that decide what a build draws (code, schemas, templates, fonts), by
    path, size and time."""
    from generator.runtime.resources import PACKAGE_ROOT, builtin_templates_root

    return b"".join(_stat_lines(root)
                    for root in (PACKAGE_ROOT, builtin_templates_root(), *_font_roots()))


def _outputs(folder: Path) -> dict[str, list[int]]:
    """The files of an output folder with their sizes and times: a user who deleted or
    replaced one gets a real build."""
    found = {}
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_file():
            stat = entry.stat()
            found[entry.name] = [stat.st_size, stat.st_mtime_ns]
    return found


class BuildRecord:
    """The record of one build command (its packs, options and output root) in the cache."""

    def __init__(self, out_root: Path, packs: list[Path], extra_files: list[Path],
                 options: dict, exclude: Path | None = None) -> None:
        command = json.dumps([[str(p.resolve()) for p in packs], options], sort_keys=True,
                             default=str)
        self.path = out_root / CACHE_FOLDER / (
            "build-" + hashlib.sha256(command.encode()).hexdigest()[:24] + ".json")
        try:
            self.inputs = fingerprint(packs, extra_files, options,
                                      exclude.resolve() if exclude is not None else None)
        except OSError:  # an unreadable input: let the build report it properly
            self.inputs = None

    def unchanged(self) -> dict | None:
        """The last build's record when its inputs and its output are as they were."""
        if self.inputs is None:
            return None
        try:
            record = json.loads(self.path.read_text(encoding="utf-8"))
            if record.get("inputs") != self.inputs:
                return None
            if _outputs(Path(record["out_dir"])) != record["outputs"]:
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return record

    def save(self, out_dir: Path, pages: int, messages: str) -> None:
        """Remember a successful build (written atomically; a failure to write is no error:
        the next build is simply a full one)."""
        if self.inputs is None:
            return
        record = {"inputs": self.inputs, "out_dir": str(out_dir), "pages": pages,
                  "messages": messages, "outputs": _outputs(out_dir)}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            scratch = self.path.with_suffix(f".tmp-{os.getpid()}")
            scratch.write_text(json.dumps(record), encoding="utf-8")
            scratch.replace(self.path)
        except OSError:
            pass
