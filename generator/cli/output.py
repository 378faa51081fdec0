"""What every command prints with: lines written through at once, and the exit codes.

Kept to the standard library: the root command imports it, and ``pnp --help`` must stay light.
"""

from __future__ import annotations

import sys

from generator.core.terminal import printable

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def echo(text: str, *, err: bool = False) -> None:
    """A line on stdout (``err``: stderr), written through at once: what pnp printed is there
    even if the process is stopped the next moment. A terminal in a legacy encoding gets what
    it cannot show escaped (click.echo would raise UnicodeEncodeError there), and control
    characters that came from a pack (a NUL, an escape sequence) are written as escapes."""
    stream = sys.stderr if err else sys.stdout
    line = f"{printable(text)}\n"
    try:
        stream.write(line)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(line.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()
