"""Source positions, so that every finding can point at ``file:line:col``."""

from __future__ import annotations

import os
from pathlib import Path

from msgspec import Struct


class Location(Struct, frozen=True, gc=False):
    """A 1-based line and column in a file; line/column 0 means "the file as a whole"."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


def display_path(path: Path) -> str:
    """Paths in messages are relative to the working directory when that is shorter."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if not relative.startswith("..") else str(path)
