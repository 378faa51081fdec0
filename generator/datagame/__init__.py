"""Games defined in data: a pack whose game.yaml has ``kinds:`` is a game by itself."""

from generator.datagame.definition import DataGame, load_data_game

__all__ = ["DataGame", "load_data_game"]
