"""Two cores for one job: a forked process does half of it while this one does the other half.

A job may also start early (:class:`Forked`): the child begins as soon as its input exists,
and this process collects its result after other work. Fork rather than a pool of fresh
interpreters: the child starts with everything this process has loaded (the card set, the
game, fonts, templates), so nothing is pickled on the way in and only the child's (small)
result comes back through a pipe.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable
from typing import Generic, NoReturn, TypeVar

T = TypeVar("T")
U = TypeVar("U")


def worker_count(jobs: int) -> int:
    """Processes worth running for ``jobs`` independent jobs: one per usable core, at most one
    per job. ``PNP_JOBS`` overrides it (1 does everything in this process)."""
    wanted = os.environ.get("PNP_JOBS", "")
    cores = int(wanted) if wanted.isdigit() and int(wanted) > 0 else len(os.sched_getaffinity(0))
    return max(1, min(cores, jobs))


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
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: leave without the parent's cleanup, whatever happens
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
