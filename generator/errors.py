"""Errors that stop a command before any finding can be made (exit code 2)."""

from __future__ import annotations


class UsageError(Exception):
    """Bad command-line use or an unreadable input/output path; printed as one line, exit 2."""


class MissingResource(UsageError):
    """A file pnp itself ships is not there: a broken installation, not a user's mistake."""
