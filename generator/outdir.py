"""Atomic output folders: a build writes into a fresh temporary folder and swaps it in at the end.

An interrupted or failed build therefore leaves the previous output exactly as it was, and never
a half-written PDF where a user expects a finished one.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a scratch folder next to ``target``; on success it replaces ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    scratch.chmod(0o755)  # mkdtemp makes it private; an output folder is an ordinary one
    try:
        yield scratch
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    old = None
    if target.exists():
        old = target.parent / f".{target.name}.old-{scratch.name.rsplit('-', 1)[-1]}"
        target.rename(old)
    scratch.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
