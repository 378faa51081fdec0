"""Two cores for one job: a forked process does half of it while this one does the other half.

Fork rather than a pool of fresh interpreters: the child starts with everything this process
has loaded (the card set, the game, fonts, templates), so nothing is pickled on the way in and
only the child's (small) result comes back through a pipe.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import TypeVar

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


def in_two_processes(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """``here()`` in this process while a forked child computes ``there()``; both results.

    An exception in the child is raised here (re-created from its pickle); without fork, the
    two run one after the other."""
    if not hasattr(os, "fork"):
        return here(), there()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: leave without the parent's cleanup, whatever happens
        os.close(reader)
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
    os.close(writer)
    try:
        mine = here()
    finally:
        # read to the end before waiting: a result larger than the pipe's buffer would
        # otherwise keep the child (and so this process) waiting for ever
        with os.fdopen(reader, "rb") as pipe:
            payload = pipe.read()
        _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not payload:
        raise WorkerFailed("the second process of a two-process job ended without a result")
    succeeded, theirs = pickle.loads(payload)
    if not succeeded:
        raise theirs
    return mine, theirs


def _pickled_failure(exc: BaseException) -> bytes:
    try:
        return pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # one that cannot travel is told as text
        return pickle.dumps((False, WorkerFailed(f"{type(exc).__name__}: {exc}")))
