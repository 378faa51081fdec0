"""``pnp preflight``: the checks a print shop makes, per card and side."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PACK, SARIF_ROOT, WITH, locale_printed, output_format
from generator.cli.report import exit_on
from generator.cli.values import FiniteFloat
from generator.core.findings import render_json, render_sarif, render_text


@click.command("preflight")
@PACK
@WITH
@locale_printed("check")
@click.option("--safe", "safe_mm", type=FiniteFloat(0, 20), default=3.0, show_default=True,
              help="mm inside the trim that text must keep clear of")
@click.option("--bleed", "bleed_mm", type=FiniteFloat(0, 10), default=3.175, show_default=True,
              help="mm of bleed art expected past the trim")
@output_format("text", "json", "sarif")
@SARIF_ROOT
def preflight(pack: Path, expansions: tuple[Path, ...], locale: str | None, safe_mm: float,
              bleed_mm: float, output_format: str, sarif_root: Path | None) -> None:
    """Print-shop checks per card and side: safe zone, bleed, thin lines, image dpi, fonts."""
    from generator.pipeline.preflight import PreflightOptions
    from generator.pipeline.preflight import preflight as check

    findings, faces = check(pack, expansions, locale,
                            PreflightOptions(safe_mm=safe_mm, bleed_mm=bleed_mm))
    if output_format == "json":
        echo(render_json(findings, {"faces": faces}))
    elif output_format == "sarif":
        echo(render_sarif(findings, root=sarif_root))
    else:
        echo(render_text(findings))
    exit_on(findings)
