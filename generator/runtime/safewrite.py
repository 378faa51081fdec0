"""Atomic file writes: a file is either its old self or its complete new self, never a part.

The new content goes to a hidden sibling (``.<name>.tmp-XXXX``) that is flushed to disk and then
renamed over the target; a rename within one folder is atomic on POSIX and Windows. A full disk,
a missing permission or a killed process leaves the old file untouched (and at worst a hidden
temporary sibling, which pnp never reads: the pack file policy skips hidden entries).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

TMP_MARK = ".tmp-"


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``; raises OSError (with the old file intact) on failure."""
    path = Path(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, scratch = tempfile.mkstemp(prefix=f".{path.name}{TMP_MARK}", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(scratch, mode)
        os.replace(scratch, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))
