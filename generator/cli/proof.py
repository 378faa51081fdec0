"""``pnp preview`` and ``pnp watch``: the proof page, written once or served and kept fresh."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import LOCALES_SHOWN, OUT, PACK, WITH
from generator.cli.report import exit_on
from generator.cli.values import WholeNumber
from generator.core.findings import render_text
from generator.core.location import display_path


@click.command("preview")
@PACK
@WITH
@LOCALES_SHOWN
@OUT
def preview(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
            out_root: Path) -> None:
    """Write a proof page: every card's faces as printed, with its findings pinned on."""
    from generator.proof.preview import write_preview

    result = write_preview(pack, expansions, locales, out_root)
    findings = result.proof.findings
    if findings:
        echo(render_text(findings), err=True)
    echo(f"wrote {display_path(result.page)} ({len(result.proof.pictures)} pictures, "
         f"{result.rendered} rendered)")
    exit_on(findings)


@click.command("watch")
@PACK
@WITH
@LOCALES_SHOWN
@click.option("--port", type=WholeNumber(0, 65535, unit="", name="PORT"), default=8765,
              show_default=True, help="port on 127.0.0.1 (0: any free port)")
def watch(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
          port: int) -> None:
    """Serve the proof page on localhost and rebuild it on every save (Ctrl-C stops)."""
    from generator.proof.watch import run_watch

    run_watch(pack, expansions, locales, port, echo)
