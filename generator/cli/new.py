"""``pnp new``: a small, complete starter game defined in data."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PATH
from generator.core.location import display_path


@click.command("new")
@click.argument("folder", type=PATH)
@click.option("--name", default=None, help="the game's name (default: made from FOLDER's name)")
def new(folder: Path, name: str | None) -> None:
    """Write a small, complete starter game defined in data into a new FOLDER.

    FOLDER must not exist yet, or be empty."""
    from generator.starter.newgame import write_starter

    pack, title, count = write_starter(folder, name)
    shown = display_path(folder)
    echo(f"wrote {shown}/ ({count} files): '{title}', pack id '{pack}'\n"
         f"next: read {shown}/README.md, then run  pnp validate {shlex.quote(shown)}")
