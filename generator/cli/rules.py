"""``pnp rules``: every rule a pack is checked against."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PACK, output_format
from generator.cli.report import stop


@click.command("rules")
@PACK
@output_format("text", "json")
def rules(pack: Path, output_format: str) -> None:
    """List every rule PACK is checked against (code, scope, severity, cites, message)."""
    from generator.pipeline.pack import load_pack
    from generator.rules.table import render_rows

    load = load_pack(pack)
    if load.game is None:
        stop(load.findings)
    rows = load.game.rule_rows()
    if output_format == "json":
        echo(json.dumps({"game": load.game.name, "rules": [r.as_json() for r in rows]},
                        ensure_ascii=False, indent=2))
    else:
        echo(render_rows(rows))
