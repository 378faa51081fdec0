"""Errors that stop a command before any finding can be made (exit code 2)."""

from __future__ import annotations


class UsageError(Exception):
    """Bad command-line use or an unreadable input/output path; printed as one line, exit 2.
    Its text has its control characters escaped: it quotes paths and values of the input."""

    def __str__(self) -> str:
        from generator.core.terminal import printable

        return printable(super().__str__())


class MissingResource(UsageError):
    """A file pnp itself ships is not there: a broken installation, not a user's mistake."""


class FindingsError(Exception):
    """Findings that stop a command which has no report of its own to put them in (e.g. a
    broken catalog met by ``pnp i18n update``); printed as findings, exit 1."""

    def __init__(self, findings: list) -> None:
        super().__init__(f"{len(findings)} finding(s)")
        self.findings = findings
