"""The ``pnp`` root command: the table of commands, their loading, and the exit-code policy.

Exit codes: 0 clean, 1 findings of severity error, 2 usage or I/O error. Bad input never shows a
Python traceback; an unexpected internal error prints one line (set PNP_DEBUG=1 for the trace).

Each command lives in a module of its own, named in :data:`COMMANDS` with its one-line help.
``pnp --help`` lists them from that table alone, so it imports click and this module and
nothing of the pipeline; a command's module is imported only when that command runs, shows its
help or completes a word. A new command is a module and one line of the table.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from generator.cli.groups import LazyGroup
from generator.cli.output import EXIT_FINDINGS, EXIT_USAGE, echo
from generator.core.errors import FindingsError, UsageError

#: every command, in the order ``pnp --help`` lists them: the ``module:attribute`` of its click
#: command, and its one-line help (the first line of the command's own help; a test holds them
#: equal)
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("generator.cli.validate:validate",
                 "Check a pack's files, schemas and game rules; report every problem found."),
    "build": ("generator.cli.build:build",
              "Build print-ready PDF sheets (fronts, backs, duplex) and a layout manifest."),
    "export": ("generator.cli.export:export",
               "Per-card PNG or PDF files for print services, or Tabletop Simulator decks."),
    "preflight": ("generator.cli.preflight:preflight",
                  "Print-shop checks per card and side: safe zone, bleed, thin lines, image "
                  "dpi, fonts."),
    "tuckbox": ("generator.cli.tuckbox:tuckbox",
                "A tuck box that holds the deck (or the pack): tuckbox.pdf and tuckbox.json."),
    "calibrate": ("generator.cli.calibrate:calibrate",
                  "Print a two-sided page that measures your printer's back-side offset."),
    "preview": ("generator.cli.proof:preview",
                "Write a proof page: every card's faces as printed, with its findings pinned "
                "on."),
    "watch": ("generator.cli.proof:watch",
              "Serve the proof page on localhost and rebuild it on every save (Ctrl-C stops)."),
    "i18n": ("generator.cli.i18n:i18n",
             "Translation catalogs (gettext PO files in PACK/locales/)."),
    "schema": ("generator.cli.schema:schema",
               "Write the JSON Schemas of PACK's game for editors (yaml-language-server)."),
    "new": ("generator.cli.new:new",
            "Write a small, complete starter game defined in data into a new FOLDER."),
    "rules": ("generator.cli.rules:rules",
              "List every rule PACK is checked against (code, scope, severity, cites, "
              "message)."),
    "completion": ("generator.cli.completion:completion",
                   "Print the completion script for SHELL: bash, zsh or fish."),
}


class Pnp(LazyGroup):
    """The root group: what a command raises becomes an exit code and a message."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, BrokenPipeError):
            # click's own: a usage error (exit 2), --help, --version; and a reader that went
            # away (pnp rules PACK | head): click ends quietly with status 1
            raise
        except UsageError as exc:
            echo(f"pnp: error: {exc}", err=True)
            sys.exit(EXIT_USAGE)
        except FindingsError as exc:
            # imported here, once a command has run (and loaded it): --help does not pay for it
            from generator.core.findings import render_text

            echo(render_text(exc.findings), err=True)
            sys.exit(EXIT_FINDINGS)
        except KeyboardInterrupt:
            sys.exit(130)
        except Exception as exc:  # an internal bug must still not dump a trace on a user
            if os.environ.get("PNP_DEBUG"):
                raise
            echo(f"pnp: internal error: {type(exc).__name__}: {exc} "
                 "(run with PNP_DEBUG=1 for details and please report it)", err=True)
            sys.exit(EXIT_USAGE)


@click.group(cls=Pnp, table=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-sheets", prog_name="pnp")
def cli() -> None:
    """Print-and-play card sheets from YAML card definitions.

    PACK, wherever a command takes one, is a pack's folder: the one holding game.yaml.
    'pnp COMMAND --help' shows a command's own options."""


def main(words: Sequence[str] | None = None) -> None:
    """The ``pnp`` command: run a command line (default: this process's own). It ends in
    SystemExit with its exit status, 0 when it ran clean, and the process ends as any Python
    program does."""
    try:
        cli.main(args=words, prog_name="pnp")
    finally:
        # what the command built all stays alive until the process ends: frozen, the
        # collector's passes at exit do not walk it again
        gc.freeze()


def dispatch(words: Sequence[str]) -> Any:
    """Run one command line in this process and return when it ran clean. A usage error of the
    command line raises click's UsageError; a command that fails raises SystemExit with its
    exit status."""
    return cli.main(args=list(words), prog_name="pnp", standalone_mode=False)
