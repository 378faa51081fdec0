"""``pnp new DIR``: write the starter game (``generator/starter/game/``) into a new folder.

The starter is package data, copied file by file; only the pack id and the game's name are
filled in (``@PACK@`` and ``@NAME@`` in its text files). The folder appears whole or not at all:
everything is written into a scratch folder beside DIR, which is renamed into place at the end.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unicodedata
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from generator.core.errors import UsageError

STARTER = ("generator.starter", "game")
TEXT_SUFFIXES = frozenset({".yaml", ".md", ".po", ".csv"})
DEFAULT_PACK = "my-game"


def pack_id(text: str) -> str:
    """A pack id (lowercase slug) made from a game's name or a folder name."""
    latin = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", latin.lower()).strip("-")
    return slug or DEFAULT_PACK


def _title(folder_name: str) -> str:
    words = re.split(r"[-_\s]+", folder_name.strip())
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or "My Game"


def _fill(text: str, suffix: str, pack: str, name: str) -> str:
    # YAML files and PO catalogs hold the name inside double quotes, where JSON's escapes are valid
    quoted = json.dumps(name, ensure_ascii=False)[1:-1] if suffix in {".yaml", ".po"} else name
    return text.replace("@PACK@", pack).replace("@NAME@", quoted)


def _copy(source: Traversable, target: Path, pack: str, name: str) -> int:
    count = 0
    for item in sorted(source.iterdir(), key=lambda t: t.name):
        if item.name.startswith((".", "__")):
            continue
        destination = target / item.name
        if item.is_dir():
            destination.mkdir()
            count += _copy(item, destination, pack, name)
            continue
        suffix = Path(item.name).suffix
        if suffix in TEXT_SUFFIXES:
            text = _fill(item.read_text(encoding="utf-8"), suffix, pack, name)
            destination.write_text(text, encoding="utf-8")
        else:
            destination.write_bytes(item.read_bytes())
        count += 1
    return count


def _check_target(target: Path) -> None:
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise UsageError(f"{target}: exists and is not a folder; choose a new folder name")
    if target.is_dir() and any(target.iterdir()):
        raise UsageError(f"{target}: folder is not empty; pnp new only writes into a new or "
                         "empty folder, so that nothing of yours is overwritten")


def write_starter(target: Path, name: str | None = None) -> tuple[str, str, int]:
    """Write the starter game into ``target`` (new or empty); returns (pack id, name, files)."""
    _check_target(target)
    title = name.strip() if name and name.strip() else _title(target.resolve().name)
    pack = pack_id(title)
    parent = target.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=parent))
    except OSError as exc:
        raise UsageError(f"{parent}: cannot create a folder here: {exc.strerror}") from None
    try:
        scratch.chmod(0o755)
        count = _copy(resources.files(STARTER[0]).joinpath(STARTER[1]), scratch, pack, title)
        if target.is_dir():
            target.rmdir()  # empty, checked above
        scratch.rename(target)
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise UsageError(f"{target}: cannot write the starter game: {exc.strerror}") from None
    return pack, title, count
