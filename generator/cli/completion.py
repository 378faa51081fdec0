"""``pnp completion SHELL``: click's own shell completion script for pnp.

The script calls ``pnp`` back with ``_PNP_COMPLETE`` set in its environment at each TAB, and
click answers from the command tree (commands, options, choices, paths): nothing here knows
pnp's commands.
"""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

from generator.cli.output import echo

SHELLS = ("bash", "zsh", "fish")
#: the variable click's main looks for to answer a TAB, for a program named pnp
COMPLETE_VAR = "_PNP_COMPLETE"


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS), metavar="SHELL")
def completion(shell: str) -> None:
    """Print the completion script for SHELL: bash, zsh or fish.

    Load it from your shell's start-up file: for bash, add  eval "$(pnp completion bash)"  to
    ~/.bashrc; for zsh, the same with zsh in ~/.zshrc; for fish, run  pnp completion fish >
    ~/.config/fish/completions/pnp.fish  once."""
    root = click.get_current_context().find_root().command
    echo(get_completion_class(shell)(root, {}, "pnp", COMPLETE_VAR).source())
