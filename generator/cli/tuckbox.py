"""``pnp tuckbox``: a printable tuck box that holds a deck, with its measurements."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import OUT, PACK, PAPER, PATH, WITH, locale_printed
from generator.cli.report import exit_on, stop
from generator.cli.values import FiniteFloat
from generator.core.findings import Severity, render_text
from generator.core.location import display_path


@click.command("tuckbox")
@PACK
@WITH
@click.option("--deck", type=PATH, default=None,
              help="a box for this deck file (e.g. decks/x.yaml); default: every card")
@locale_printed("print the names in")
@PAPER
@click.option("--thickness-mm", "thickness_mm", type=FiniteFloat(0.05, 2.0), default=0.3,
              show_default=True, help="one card's thickness: the box's depth is cards x this "
                                      "+ 2 mm")
@OUT
def tuckbox(pack: Path, expansions: tuple[Path, ...], deck: Path | None, locale: str | None,
            paper: str, thickness_mm: float, out_root: Path) -> None:
    """A tuck box that holds the deck (or the pack): tuckbox.pdf and tuckbox.json."""
    from generator.pipeline.tuckbox import tuckbox as make_box

    result = make_box(pack, expansions, locale, deck, paper, thickness_mm, out_root)
    if result.out_dir is None:
        stop(result.findings, "no tuck box: fix the errors above first")
    warnings = [f for f in result.findings if f.severity is Severity.WARNING]
    if warnings:
        echo(render_text(warnings), err=True)
    inner = result.document["inner_mm"]
    echo(f"wrote {display_path(result.out_dir)}/ (a box of {inner['width']:g} x "  # type: ignore
         f"{inner['height']:g} x {inner['depth']:g} mm for {result.document['cards']} "  # type: ignore
         "cards)")
    exit_on(result.findings)
