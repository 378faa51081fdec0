"""Atomic output folders: a build writes into a fresh temporary folder and swaps it in at the end.

An interrupted or failed build therefore leaves the previous output exactly as it was, and never
a half-written PDF where a user expects a finished one. Three more promises:

- the target folder is never missing, not even for a moment, where the system can exchange two
  folders in one call (Linux's ``renameat2(RENAME_EXCHANGE)``); elsewhere (macOS, Windows, a
  file system without it) the old folder is renamed away just before the new one takes its
  place;
- builds into the same folder at the same time both succeed (the last to finish wins): making
  a scratch folder and the swap happen under a lock of the target's name
  (``.<name>.lock`` beside it, held for those moments only);
- what killed builds leave behind is removed by the next build: each build holds a lock
  (``.<name>.lock-<token>``) for its scratch folder ``.<name>.tmp-<token>`` and the old folder
  it swaps out, ``.<name>.old-<token>``, so such a folder whose lock nobody holds (and that is
  a real folder of this user's, not a link) is a leftover.

Locks are the ``filelock`` library's: ``flock`` on Linux and macOS, the C runtime's file locks
on Windows, all released by the system when their process dies. Their files are removed once
released: a finished build leaves nothing but its output.
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from filelock import BaseFileLock

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
#: how long a build waits for another one to make its scratch folder or swap its output in
#: (moments, unless a build removes a large leftover meanwhile)
WAIT_SECONDS = 300.0


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a scratch folder next to ``target``; on success it replaces ``target``."""
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{target.name}.tmp-"
    with _guarded(target):
        scratch = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        token = scratch.name[len(prefix):]
        alive = _hold(_live_lock(target, token))  # ours until we are done: we are alive
        try:
            remove_leftovers(target, keep=token)
        except BaseException:
            _remove_tree(scratch)
            _let_go(alive)
            raise
    try:
        scratch.chmod(0o755)  # mkdtemp makes it private; an output folder is an ordinary one
        try:
            yield scratch
        except BaseException:
            _remove_tree(scratch)
            raise
        with _guarded(target):
            old = _swap_in(scratch, target, token)
        if old is not None:  # named with our token: no other build takes it for a leftover
            _remove_tree(old)
    finally:
        _let_go(alive)


def _swap_in(scratch: Path, target: Path, token: str) -> Path | None:
    """Put ``scratch`` at ``target``; returns where the previous target now is, if any."""
    if not os.path.lexists(target):
        scratch.rename(target)
        return None
    if _exchange(scratch, target):
        return scratch
    old = target.parent / f".{target.name}.old-{token}"
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


def remove_leftovers(target: Path, keep: str | None = None) -> list[Path]:
    """Remove the ``.<target>.tmp-*`` / ``.<target>.old-*`` siblings that earlier, killed builds
    left (only real folders owned by this user whose build's lock nobody holds), and lock files
    of such builds; ``keep`` is the token of the caller's own build. The caller holds the
    target's lock (:func:`atomic_folder`): no build makes its scratch folder meanwhile."""
    name = target.name
    folders: dict[str, list[Path]] = {}
    locks: set[str] = set()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    for entry in entries:
        kind, _, token = entry.name[len(name) + 2:].partition("-")
        if not entry.name.startswith(f".{name}.") or not token or token == keep:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not _ours(info):
            continue
        if kind in ("tmp", "old") and stat.S_ISDIR(info.st_mode):
            folders.setdefault(token, []).append(Path(entry.path))
        elif kind == "lock" and stat.S_ISREG(info.st_mode):
            locks.add(token)
    removed: list[Path] = []
    for token in sorted(folders.keys() | locks):
        lock = _hold(_live_lock(target, token), wait=False)
        if lock is None:
            continue  # a live build holds it
        try:
            for folder in folders.get(token, ()):
                _remove_tree(folder)
                removed.append(folder)
        finally:
            _let_go(lock)
    return sorted(removed)


def _ours(info: os.stat_result) -> bool:
    """Made by this user (where the system has user ids: not on Windows)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def _live_lock(target: Path, token: str) -> Path:
    return target.parent / f".{target.name}.lock-{token}"


def _hold(path: Path, wait: bool = True) -> BaseFileLock | None:
    """The lock of ``path`` (its file made if missing), waited for up to
    :data:`WAIT_SECONDS`; None if another holds it and ``wait`` is false."""
    # imported when a folder is written, not with the build: an unchanged rebuild, which
    # writes nothing, does not pay filelock's import (7 ms of a 0.2 s budget)
    import filelock

    lock = filelock.FileLock(str(path))
    try:
        lock.acquire(timeout=WAIT_SECONDS if wait else 0)
    except filelock.Timeout:
        if wait:
            raise
        return None
    return lock


def _let_go(lock: BaseFileLock) -> None:
    """Release a lock and remove its file. An ``flock``'s file is removed while it is still
    held: a build waiting for it then finds that the file it locked has no name any more and
    takes a new one (filelock checks for this), so two builds never hold two files of one
    name. Windows' locks and soft locks remove their files themselves on release."""
    import filelock  # (imported already: the lock is one)

    if isinstance(lock, filelock.UnixFileLock):
        with suppress(OSError):
            os.unlink(lock.lock_file)
    lock.release()


@contextmanager
def _guarded(target: Path) -> Iterator[None]:
    """Hold the lock of ``target``'s name: one build at a time makes its scratch folder there
    (and looks for leftovers) or swaps its output in."""
    lock = _hold(target.parent / f".{target.name}.lock")
    assert lock is not None
    try:
        yield
    finally:
        _let_go(lock)


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
