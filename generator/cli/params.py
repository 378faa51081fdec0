"""Arguments and options that several commands share, declared once so that they read alike
everywhere (same name, same help, same default)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

#: what click.option returns: a decorator that declares the option on a command's function
Declaration = Callable[[Callable[..., Any]], Callable[..., Any]]

PATH = click.Path(path_type=Path)
PAPERS = ["a4", "letter", "a3", "legal", "tabloid"]

PACK = click.argument("pack", type=PATH)
WITH = click.option("--with", "expansions", multiple=True, type=PATH,
                    help="an expansion pack to load together with PACK (repeatable)")
PAPER = click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True,
                     help="paper size of the sheets")
OUT = click.option("--out", "out_root", type=PATH, default=Path("output"), show_default=True,
                   help="folder the outputs are written under")
LOCALES_SHOWN = click.option("--locale", "locales", multiple=True,
                             help="a language to show; several stand side by side (default: "
                                  "the source)")


def output_format(*formats: str) -> Declaration:
    """``--format``: how a command prints its report (text for people, the others for tools)."""
    return click.option("--format", "output_format", type=click.Choice(formats), default="text",
                        show_default=True,
                        help="text for people; " + ", ".join(formats[1:]) + " for tools")


SARIF_ROOT = click.option("--sarif-root", "sarif_root", type=PATH, default=None,
                          help="SARIF file paths are relative to this folder (default: the "
                               "working folder)")


def locale_printed(verb: str) -> Declaration:
    """``--locale`` of a command that prints one language."""
    return click.option("--locale", default=None,
                        help=f"language to {verb} (default: the pack's source)")

