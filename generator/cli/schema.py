"""``pnp schema``: the JSON Schemas of a pack's game, for editors."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PACK, PATH
from generator.cli.report import stop
from generator.core.errors import UsageError
from generator.core.location import display_path


@click.command("schema")
@PACK
@click.option("--out", "out_dir", type=PATH, default=None,
              help="folder to write to (default: PACK/schemas)")
def schema(pack: Path, out_dir: Path | None) -> None:
    """Write the JSON Schemas of PACK's game for editors (yaml-language-server)."""
    from generator.pipeline.pack import load_pack
    from generator.pipeline.schemaexport import export_schemas, modelines

    load = load_pack(pack)
    if load.game is None:
        stop(load.findings)
    target = out_dir or pack / "schemas"
    try:
        written = export_schemas(load.game, target)
    except OSError as exc:
        raise UsageError(f"{display_path(target)}: cannot write schemas: "
                         f"{exc.strerror or exc}") from None
    for path in written:
        echo(display_path(path))
    for what, line in modelines(pack, target):
        echo(f"add to the top of {what}:\n  {line}")
