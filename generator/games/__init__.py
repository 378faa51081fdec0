"""Registry of games: the entry point group ``pnp.games`` names each game's ``GAME`` object.

The three shipped games register themselves in pyproject.toml exactly as an installed
third-party package registers its own, so a game whose rules need code can live outside this
repository. Built-in modules are also found directly (a source checkout that was never
installed has no entry points). A game defined in data needs neither: its pack is the game.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from generator.model.game import Game

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "pnp.games"


@cache
def _entry_points() -> dict[str, EntryPoint]:
    from importlib.metadata import entry_points  # reads every installed package: only if asked

    return {ep.name: ep for ep in entry_points(group=GROUP)}


@cache
def _builtin_names() -> list[str]:
    import generator.games as package

    return [m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg]


def known_games() -> list[str]:
    return sorted(set(_entry_points()) | set(_builtin_names()))


@cache
def get_game(name: str) -> Game | None:
    """The game registered as ``name``; None when no game has that name (or it fails to
    load, which the caller reports as an unknown game). A built-in game is imported directly,
    without reading every installed package's metadata for entry points (a cost paid by every
    ``pnp validate``)."""
    if name in _builtin_names():
        return importlib.import_module(f"generator.games.{name}").GAME
    entry = _entry_points().get(name)
    if entry is None:
        return None
    try:
        game = entry.load()
    except Exception:  # a broken third-party package must not take pnp down with it
        return None
    return game if isinstance(game, Game) else None
