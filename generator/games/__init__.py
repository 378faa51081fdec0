"""Registry of game modules: ``generator.games.<name>`` exposes ``GAME``."""

from __future__ import annotations

import importlib
import pkgutil

from generator.games.base import Game


def known_games() -> list[str]:
    import generator.games as package

    return sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg)


def get_game(name: str) -> Game | None:
    if name not in known_games():
        return None
    module = importlib.import_module(f"generator.games.{name}")
    return module.GAME
