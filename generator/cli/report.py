"""How a command ends on findings: printed, and the exit status they call for."""

from __future__ import annotations

import sys
from typing import NoReturn

from generator.cli.output import EXIT_CLEAN, EXIT_FINDINGS, echo
from generator.core.findings import Finding, has_errors, render_text


def exit_on(findings: list[Finding]) -> NoReturn:
    """End the command: status 1 if any finding is an error, else 0."""
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


def stop(findings: list[Finding], why: str | None = None) -> NoReturn:
    """The command cannot go on: its findings on stderr (then ``why``, if given: alone when
    there are none), status 1."""
    if findings or not why:
        echo(render_text(findings), err=True)
    if why:
        echo(f"pnp: {why}", err=True)
    sys.exit(EXIT_FINDINGS)
