"""How pnp opens a file it reads as raw bytes with ``os.open`` (pack files, and their hashes).

``os.open`` is used rather than ``open()`` to look at what was opened (``fstat``) before reading
a byte of it. Its flags differ by system, so they are gathered here once:

- ``O_NONBLOCK`` (Unix): opening a named pipe does not wait for a writer that never comes; the
  pack file policy then refuses it as not a regular file;
- ``O_BINARY`` (Windows): without it ``os.open`` reads in text mode there, turning CR LF into LF
  and stopping at the first Ctrl-Z byte, which would cut PNG, font and spreadsheet files short;
- ``O_CLOEXEC``: a program pnp starts does not inherit the descriptor.

A flag the system lacks is left out (``getattr(os, NAME, 0)``), never assumed.
"""

from __future__ import annotations

import os
from types import ModuleType


def read_flags(system: ModuleType = os) -> int:
    """The flags of a raw read-only open on ``system`` (the ``os`` module, or a stand-in for
    another system in a test)."""
    return (system.O_RDONLY | getattr(system, "O_NONBLOCK", 0) | getattr(system, "O_BINARY", 0)
            | getattr(system, "O_CLOEXEC", 0))


READ_FLAGS = read_flags()


def read_at_most(fd: int, limit: int, chunk: int = 1 << 24) -> bytes:
    """The bytes of the open file ``fd``, but never more than ``limit + 1``: a result longer
    than ``limit`` tells a file that is, or grew while it was read, over its limit."""
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0 and (data := os.read(fd, min(left, chunk))):
        chunks.append(data)
        left -= len(data)
    return b"".join(chunks)
