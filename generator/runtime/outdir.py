"""Atomic output folders: a build writes into a fresh temporary folder and swaps it in at the end.

An interrupted or failed build therefore leaves the previous output exactly as it was, and never
a half-written PDF where a user expects a finished one. Three more promises:

- the target folder is never missing, not even for a moment: on Linux the new folder and the old
  one trade places in one ``renameat2(RENAME_EXCHANGE)`` call; elsewhere (or on a file system
  without it) the old folder is renamed away just before the new one takes its place;
- builds into the same folder at the same time both succeed (the last to finish wins): the swap
  happens under an exclusive ``flock`` of the parent folder, held for the swap only;
- what killed builds leave behind is removed by the next build: each scratch folder is locked by
  its live build, so a ``.<name>.tmp-*`` or ``.<name>.old-*`` sibling that nobody holds (and that
  is a real folder of ours, not a link) is a leftover.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locks, the swap is still atomic enough
    fcntl = None  # type: ignore[assignment]

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a scratch folder next to ``target``; on success it replaces ``target``."""
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    with _locked(parent):
        scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=parent))
        scratch_lock = _lock_folder(scratch)  # held until we are done: we are alive
        remove_leftovers(target)
    try:
        scratch.chmod(0o755)  # mkdtemp makes it private; an output folder is an ordinary one
        try:
            yield scratch
        except BaseException:
            _remove_tree(scratch)
            raise
        with _locked(parent):
            old = _swap_in(scratch, target)
            # the exchanged-out folder now has the scratch name but not its lock (a flock
            # belongs to the folder, which became the target): lock it before another build
            # may look for leftovers, so that only this build removes it
            old_lock = _lock_folder(old) if old is not None else None
        try:
            if old is not None:
                _remove_tree(old)
        finally:
            if old_lock is not None:
                os.close(old_lock)
    finally:
        if scratch_lock is not None:
            os.close(scratch_lock)


def _swap_in(scratch: Path, target: Path) -> Path | None:
    """Put ``scratch`` at ``target``; returns where the previous target now is, if any."""
    if not os.path.lexists(target):
        scratch.rename(target)
        return None
    if _exchange(scratch, target):
        return scratch
    old = target.parent / f".{target.name}.old-{scratch.name.rsplit('-', 1)[-1]}"
    target.rename(old)
    scratch.rename(target)
    return old


def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    # imported here: only replacing an existing folder needs it. The C library is reached
    # through the interpreter's own symbols (dlopen of NULL): ctypes.util.find_library would
    # import subprocess and run ldconfig, 15 ms of a 0.4 s build
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def _exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths atomically (Linux 3.15+); False where that is not possible."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(os.path.abspath(first)), _AT_FDCWD,
                       os.fsencode(os.path.abspath(second)), _RENAME_EXCHANGE)
    if result == 0:
        return True
    import ctypes

    code = ctypes.get_errno()
    if code in {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP}:
        return False  # the file system cannot exchange: fall back to two renames
    raise OSError(code, os.strerror(code), str(second))


def remove_leftovers(target: Path) -> list[Path]:
    """Remove the ``.<target>.tmp-*`` / ``.<target>.old-*`` siblings that earlier, killed builds
    left: only real folders owned by this user that no live build holds locked."""
    removed: list[Path] = []
    prefixes = (f".{target.name}.tmp-", f".{target.name}.old-")
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefixes):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        lock = _lock_folder(Path(entry.path), wait=False)
        if lock is None and fcntl is not None:
            continue  # a live build holds it
        try:
            _remove_tree(Path(entry.path))
            removed.append(Path(entry.path))
        finally:
            if lock is not None:
                os.close(lock)
    return removed


def _lock_folder(folder: Path, wait: bool = True) -> int | None:
    """An exclusive flock on a folder (its fd, to close to unlock); None if it is taken (or
    locks are not available)."""
    if fcntl is None:
        return None
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        os.close(fd)
        return None
    return fd


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    fd = _lock_folder(folder)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


def _remove_tree(path: Path) -> None:
    """Remove a folder of ours even where it was made read-only (a read-only old output)."""

    def make_writable(function: Callable[..., object], failed: str, *_: object) -> None:
        with suppress(OSError):
            os.chmod(os.path.dirname(failed), 0o700)
            if os.path.isdir(failed) and not os.path.islink(failed):
                os.chmod(failed, 0o700)
            if function in (os.rmdir, os.unlink, os.remove):  # not os.open, os.scandir...
                function(failed)

    if os.path.islink(path) or not os.path.isdir(path):
        with suppress(OSError):
            os.unlink(path)
        return
    with suppress(OSError):
        os.chmod(path, 0o700)
    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=make_writable)
    else:
        shutil.rmtree(path, onerror=make_writable)
    if os.path.lexists(path):  # a folder it could not enter before it was made writable
        shutil.rmtree(path, ignore_errors=True)
