"""What reaches the user's terminal: pnp's own messages, never raw bytes or library chatter.

A pack's file names and texts are a stranger's: a name holding ESC or BEL bytes, quoted in a
finding, would drive the terminal (colours, a title, worse), and a NUL cuts a line short in many
tools. :func:`printable` writes every control character as an escape (``\\x1b``), as the
messages already quote values. Libraries pnp reads input with (svglib, openpyxl, Pillow, ...)
log their own complaints about that input through :mod:`logging` or :mod:`warnings`, which print
to stderr when nothing else is set up: pnp has already turned each such problem into a finding
(or drawn the input as SVG says), so :func:`quiet_library_logs` keeps those lines out.
"""

from __future__ import annotations

import re
from functools import cache

#: C0 controls but tab and newline, DEL, C1 controls, line and paragraph separators, and the
#: bidirectional overrides that make a terminal show text in another order than it is
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as an escape; tabs and newlines kept."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


@cache
def quiet_library_logs() -> None:
    """Give the root logger a handler that drops records, so that a library's log lines no
    longer reach stderr through :mod:`logging`'s last-resort handler. Called where such a
    library is first used (importing :mod:`logging` at start-up would cost every command)."""
    import logging  # lazy on purpose: most commands never import a library that logs

    logging.getLogger().addHandler(logging.NullHandler())
