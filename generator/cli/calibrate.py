"""``pnp calibrate``: the duplex test page that measures a printer's back-side offset."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import OUT, PAPER
from generator.core.errors import UsageError
from generator.core.location import display_path


@click.command("calibrate")
@PAPER
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="flip edge of your duplex printer")
@OUT
def calibrate(paper: str, duplex: str, out_root: Path) -> None:
    """Print a two-sided page that measures your printer's back-side offset."""
    from generator.impose.sheets import SheetOptions
    from generator.render.calibrate import write_calibration

    target = out_root / "calibrate" / f"{paper}-{duplex}"
    try:
        path = write_calibration(SheetOptions(paper=paper, duplex=duplex), target)
    except OSError as exc:
        raise UsageError(f"{display_path(target)}: cannot write: {exc.strerror or exc}") \
            from None
    echo(f"wrote {display_path(path)}: print it duplex, then read the back against a "
         "light and pass the numbers as --back-offset DX,DY")
