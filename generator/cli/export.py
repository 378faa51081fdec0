"""``pnp export``: one file per card side for print services, or Tabletop Simulator decks."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import OUT, PACK, WITH, locale_printed
from generator.cli.report import stop
from generator.cli.values import FiniteFloat, WholeNumber
from generator.core.findings import Severity, render_text
from generator.core.location import display_path


@click.command("export")
@PACK
@WITH
@locale_printed("export")
@click.option("--to", type=click.Choice(["png", "card-pdf", "tts"]), default=None,
              help="one PNG or one PDF per card side, or Tabletop Simulator decks")
@click.option("--preset", type=click.Choice(["thegamecrafter", "makeplayingcards",
                                             "drivethrucards"]), default=None,
              help="a print service's sizes, bleed and resolution (docs/exports.md)")
@click.option("--dpi", type=WholeNumber(36, 1200, "dpi"), default=None,
              help="PNG resolution (default 300; TTS: a 10 x 7 sheet within 4096 px)")
@click.option("--bleed", "bleed_mm", type=FiniteFloat(0, 10), default=None,
              help="mm of bleed on every side (default 3.175 = 1/8 in)")
@click.option("--kind", "kinds", multiple=True,
              help="export only cards of this kind (repeatable)")
@click.option("--per-copy", is_flag=True, help="a file for every copy, not one per face")
@click.option("--base-url", default=None, help="TTS: URL the sheets will be uploaded to")
@OUT
@click.option("--ink-saver", is_flag=True, help="white instead of full-bleed backgrounds")
@click.option("--strict", is_flag=True, help="refuse to export a missing translation")
@click.option("-q", "--quiet", is_flag=True, help="print errors only")
def export(pack: Path, expansions: tuple[Path, ...], locale: str | None, out_root: Path,
           quiet: bool, **choices) -> None:
    """Per-card PNG or PDF files for print services, or Tabletop Simulator decks."""
    from generator.export import ExportOptions
    from generator.export import export as export_cards
    from generator.runtime.progress import Progress

    with Progress("exporting", 0, enabled=not quiet) as progress:
        result = export_cards(pack, expansions, locale, ExportOptions(**choices), out_root,
                              progress)
    shown = [f for f in result.findings if not quiet or f.severity is Severity.ERROR]
    if result.out_dir is None:
        stop(shown, "export stopped: fix the errors above first")
    if shown:
        echo(render_text(shown), err=True)
    if not quiet:
        echo(f"wrote {display_path(result.out_dir)}/ ({result.files} files)")
