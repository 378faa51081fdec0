"""``pnp studio``: edit a pack's cards and translations in the browser."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PACK, WITH
from generator.cli.values import WholeNumber


@click.command("studio")
@PACK
@WITH
@click.option("--locale", "locales", multiple=True,
              help="a language to show and translate (repeatable; default: every language of "
                   "the pack)")
@click.option("--port", type=WholeNumber(0, 65535, unit="", name="PORT"), default=8766,
              show_default=True, help="port on 127.0.0.1 (0: any free port)")
def studio(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
           port: int) -> None:
    """Edit PACK's cards and translations in the browser, each card redrawn as you type.

    Serves http://127.0.0.1:PORT/ until Ctrl-C: the card list, a form per card made from its
    kind's schema, and a translator's view per language. Saving writes only the changed values
    into the file each card came from."""
    # the studio is imported when it runs, as every command's pipeline is: --help stays quick
    from generator.studio.app import run_studio

    run_studio(pack, expansions, locales, port, echo)
