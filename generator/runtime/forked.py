"""Two cores for one job: a forked process does half of it while this one does the other half.

A job may also start early (:class:`Forked`): the child begins as soon as its input exists,
and this process collects its result after other work. Fork rather than a pool of fresh
interpreters: the child starts with everything this process has loaded (the card set, the
game, fonts, templates), so nothing is pickled on the way in and only the child's (small)
result comes back through a pipe.

Where there is no fork (Windows), the same work runs in this one process and gives the same
bytes. A forked child never outlives this process: every child, ours or a fork-context pool's
(its initializer is :func:`watch_parent`), watches a pipe whose only write end this process
holds, and exits when it closes (this process ended, even by SIGKILL), so a killed build leaves
no drawing process behind.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Generic, NoReturn, TypeVar

T = TypeVar("T")
U = TypeVar("U")

#: the exit status of a child whose parent is gone (nobody reads it: the child is init's then)
ORPHANED = 70


def usable_cores() -> int:
    """The cores this process may run on: its affinity where the system tells it (Python 3.13's
    ``os.process_cpu_count``, Linux's ``sched_getaffinity``), else every core."""
    process_cpu_count = getattr(os, "process_cpu_count", None)
    if process_cpu_count is not None:
        return process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_count(jobs: int) -> int:
    """Processes worth running for ``jobs`` independent jobs: one per usable core, at most one
    per job; 1 where there is no fork (every worker of pnp is a forked process). ``PNP_JOBS``
    overrides the cores (1 does everything in this process)."""
    if not hasattr(os, "fork"):
        return 1
    wanted = os.environ.get("PNP_JOBS", "")
    cores = int(wanted) if wanted.isdigit() and int(wanted) > 0 else usable_cores()
    return max(1, min(cores, jobs))


#: (this process's id, read end, write end) of the pipe this process's forked children
#: watch; only this process keeps the write end (it never writes: only its closing matters).
#: Made when this process first forks; a forked child that forks in turn makes its own.
_lifeline: tuple[int, int, int] | None = None


def lifeline() -> None:
    """Make this process's lifeline before it forks (pnp's own children and a fork-context
    pool's workers alike), unless it has one already."""
    global _lifeline
    if _lifeline is None or _lifeline[0] != os.getpid():  # none, or the parent's: inherited
        reader, writer = os.pipe()  # (not inherited by a program pnp runs: close on exec)
        _lifeline = (os.getpid(), reader, writer)


def watch_parent() -> None:
    """In a forked child, first thing: close the parent's write end of its lifeline (so that
    the parent's is the only one left) and end this process as soon as the read end reports
    its end: a build killed with SIGKILL takes its workers with it. Called by pnp's own
    children and as a pool's initializer, never from an at-fork hook (a thread started there
    can wait for ever on what the fork left behind)."""
    assert _lifeline is not None, "lifeline() is made before every fork"
    _, reader, writer = _lifeline
    os.close(writer)
    with contextlib.suppress(RuntimeError):  # no thread to be had: the child works unwatched
        threading.Thread(target=_exit_when_closed, args=(reader,), name="pnp-parent-watch",
                         daemon=True).start()


def _exit_when_closed(reader: int) -> None:
    """Block until the parent's end of the lifeline closes, then end this process at once
    (its work has no one to go to)."""
    try:
        while os.read(reader, 1):
            pass
    except OSError:
        pass
    os._exit(ORPHANED)


class WorkerFailed(RuntimeError):
    """The forked half ended without a result (killed, or a bug it could not report)."""


class Forked(Generic[U]):
    """``there()`` computing in a forked child from the moment this is made, while this process
    goes on with other work; :meth:`result` waits for it. Use it as a context manager: leaving
    the block without the result (an error on this side) stops the child and reaps it. An
    exception in the child is raised here, re-created from its pickle. Without fork,
    ``there()`` runs when its result is asked for."""

    def __init__(self, there: Callable[[], U]) -> None:
        self._there: Callable[[], U] | None = there
        self._pid = 0
        self._reader = -1
        if not hasattr(os, "fork"):
            return
        lifeline()
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: leave without the parent's cleanup, whatever happens
            watch_parent()
            os.close(reader)
            _serve(there, writer)
        os.close(writer)
        self._pid, self._reader, self._there = pid, reader, None

    def result(self) -> U:
        if self._there is not None:  # no fork on this system
            there, self._there = self._there, None
            return there()
        if not self._pid:
            raise WorkerFailed("the result of a forked job was asked for twice")
        pid, self._pid = self._pid, 0
        # read to the end before waiting: a result larger than the pipe's buffer would
        # otherwise keep the child (and so this process) waiting for ever
        with os.fdopen(self._reader, "rb") as pipe:
            payload = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0 or not payload:
            raise WorkerFailed("the second process of a two-process job ended without a result")
        succeeded, theirs = pickle.loads(payload)
        if not succeeded:
            raise theirs
        return theirs

    def cancel(self) -> None:
        """Stop the child if its result was not taken (nothing else would reap it)."""
        self._there = None
        if self._pid:
            pid, self._pid = self._pid, 0
            os.close(self._reader)
            with contextlib.suppress(ProcessLookupError):  # it had ended already
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)

    def __enter__(self) -> Forked[U]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()


def _serve(there: Callable[[], U], writer: int) -> NoReturn:
    code = 1
    try:
        try:
            payload = pickle.dumps((True, there()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # the parent decides what it means
            payload = _pickled_failure(exc)
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(payload)
        code = 0
    finally:
        os._exit(code)


def in_two_processes(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """``here()`` in this process while a forked child computes ``there()``; both results
    (without fork, the two run one after the other)."""
    with Forked(there) as child:
        mine = here()
        return mine, child.result()


def _pickled_failure(exc: BaseException) -> bytes:
    try:
        return pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # one that cannot travel is told as text
        return pickle.dumps((False, WorkerFailed(f"{type(exc).__name__}: {exc}")))
