"""Groups of commands as pnp lists them: in the order they were declared, each with its whole
first sentence, and (the root) imported only when used.

click's Group lists commands sorted by name, with their help cut to fit a line, and asks
``get_command`` for every command to do so. pnp lists its most used commands first, and its
root lists them from a table, so that ``pnp --help`` imports no command at all.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any

import click
from click.shell_completion import CompletionItem


class Listed(click.Group):
    """A group whose help lists its commands in the order they were added, each with the first
    sentence of its help, whole."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def summary(self, ctx: click.Context, name: str) -> str:
        """The line the group's help shows for command ``name``."""
        command = self.get_command(ctx, name)
        return command.get_short_help_str(limit=sys.maxsize) if command is not None else ""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.summary(ctx, name)) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class LazyGroup(Listed):
    """A group whose commands are named in a table and imported one at a time.

    ``table`` maps a command's name to the ``module:attribute`` of its click command and its
    one-line help. click asks ``get_command`` for a command when it runs, when its help is
    shown and when a word after it is completed: its module is imported then. The group's help
    and the completion of a command's name are answered from the table alone."""

    def __init__(self, *args: Any, table: Mapping[str, tuple[str, str]],
                 **settings: Any) -> None:
        super().__init__(*args, **settings)
        self.table = dict(table)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.table)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.table:
            return None
        module, _, attribute = self.table[cmd_name][0].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def summary(self, ctx: click.Context, name: str) -> str:
        return self.table[name][1]

    def resolve_command(self, ctx: click.Context, args: list[str],
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            # click offers the nearest of the commands registered on the group, which here
            # are none: the table's names are offered instead
            raise click.exceptions.NoSuchCommand(error.command_name, possibilities=self.table,
                                                 ctx=ctx) from None

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        named = [CompletionItem(name, help=summary) for name, (_, summary) in self.table.items()
                 if name.startswith(incomplete)]
        # then the group's own options (--help, --version), completed as any command's
        return named + click.Command.shell_complete(self, ctx, incomplete)
