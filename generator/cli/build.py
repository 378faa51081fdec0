"""``pnp build``: print-ready PDF sheets, or ``up to date`` when nothing changed.

An unchanged rebuild answers from its record without importing the pipeline at all.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import OUT, PACK, PAPER, PATH, WITH, locale_printed
from generator.cli.report import stop
from generator.cli.values import FiniteFloat, Offset
from generator.core.findings import Severity, render_text
from generator.core.location import display_path


@click.command("build")
@PACK
@WITH
@locale_printed("print")
@PAPER
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long",
              show_default=True, help="flip edge of your duplex printer; none = fronts only")
@click.option("--back-offset", type=Offset(), default=(0.0, 0.0), show_default="0,0",
              help="DX,DY mm to shift back pages (measure with pnp calibrate)")
@OUT
@click.option("--bleed", "bleed_mm", type=FiniteFloat(0, 5), default=1.5, show_default=True,
              help="mm of art past the trim on the sheet's outer edges")
@click.option("--margin", "margin_mm", type=FiniteFloat(0, 20), default=3.0, show_default=True,
              help="your printer's unprintable border in mm")
@click.option("--gutter", "gutter_mm", type=FiniteFloat(0, 20), default=0.0, show_default=True,
              help="mm between cards; 2 x bleed gives each card its own")
@click.option("--deck", type=PATH, default=None,
              help="print only this deck file, in its counts (e.g. decks/x.yaml)")
@click.option("--cut-lines/--no-cut-lines", default=True, show_default=True,
              help="grey hairlines along every card edge on front pages")
@click.option("--ink-saver", is_flag=True, help="white instead of full-bleed backgrounds")
@click.option("--strict", is_flag=True, help="refuse to print a missing translation")
@click.option("--allow-overflow", is_flag=True,
              help="print even when a text does not fit its box (reported as a warning)")
@click.option("-q", "--quiet", is_flag=True,
              help="print errors only: no progress bar, no warnings, no summary line")
@click.option("--force", is_flag=True,
              help="build everything again, even what no changed input touches")
def build(pack: Path, expansions: tuple[Path, ...], locale: str | None, paper: str,
          duplex: str, back_offset: tuple[float, float], out_root: Path, bleed_mm: float,
          margin_mm: float, gutter_mm: float, deck: Path | None, cut_lines: bool,
          ink_saver: bool, strict: bool, allow_overflow: bool, quiet: bool,
          force: bool) -> None:
    """Build print-ready PDF sheets (fronts, backs, duplex) and a layout manifest.

    Inputs and options unchanged since the last build of the same command, and its output as
    it left it: nothing is rebuilt (``up to date``). A large build (over 250 sheets) draws
    again only the chunks of pages that changed."""
    from generator import __version__
    from generator.cache.buildcache import BuildRecord

    record = BuildRecord(out_root, [pack, *expansions], [deck] if deck else [], {
        "version": __version__, "locale": locale, "paper": paper, "duplex": duplex,
        "back_offset": back_offset, "bleed": bleed_mm, "margin": margin_mm,
        "gutter": gutter_mm, "deck": str(deck.resolve()) if deck else None,
        "cut_lines": cut_lines, "ink_saver": ink_saver, "strict": strict,
        "allow_overflow": allow_overflow, "quiet": quiet},
        exclude=out_root)
    last = None if force else record.unchanged()
    if last is not None:
        if last["messages"]:
            echo(last["messages"], err=True)
        if not quiet:
            echo(f"up to date: {display_path(Path(last['out_dir']))}/ ({last['pages']} "
                 "pages; no input changed since the last build)")
        return
    from generator.runtime.gcpause import collector_paused

    with collector_paused():  # the pipeline's modules: 150 ms of objects that all stay alive
        from generator.impose.sheets import SheetOptions
        from generator.pipeline.build import build as build_sheets
        from generator.runtime.progress import Progress

    options = SheetOptions(paper=paper, duplex=duplex, margin_mm=margin_mm, bleed_mm=bleed_mm,
                           gutter_mm=gutter_mm, back_offset_mm=back_offset,
                           cut_lines=cut_lines)
    with Progress("building", 0, enabled=not quiet) as progress:
        result = build_sheets(pack, expansions, locale, options, out_root, ink_saver=ink_saver,
                              strict=strict, deck=deck, progress=progress,
                              allow_overflow=allow_overflow, reuse=not force)
    shown = [f for f in result.findings if not quiet or f.severity is Severity.ERROR]
    if result.out_dir is None:
        stop(shown, "build stopped: fix the errors above first")
    if shown:
        echo(render_text(shown), err=True)
    record.save(result.out_dir, result.pages, render_text(shown) if shown else "")
    if not quiet:
        echo(f"wrote {display_path(result.out_dir)}/ ({result.pages} pages)")
