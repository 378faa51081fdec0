"""Where the built-in games' templates are, in a wheel and in a checkout alike.

The templates are data at the top of the repository (``templates/<game>/``). A wheel carries a
copy as ``generator/builtin_templates`` (see setup.py); an editable install or a plain checkout
reads the repository's folder. Everything that reads a built-in template asks this module, so
an installed pnp and a developer's checkout print the same cards.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from generator.errors import MissingResource

_PACKAGE = Path(__file__).resolve().parent
_IN_WHEEL = _PACKAGE / "builtin_templates"
_IN_CHECKOUT = _PACKAGE.parent / "templates"


@cache
def builtin_templates_root() -> Path:
    """The folder holding ``<game>/`` template folders of the built-in games."""
    for candidate in (_IN_WHEEL, _IN_CHECKOUT):
        if candidate.is_dir():
            return candidate
    raise MissingResource(
        f"the built-in templates are missing (looked in {_IN_WHEEL} and {_IN_CHECKOUT}); "
        "this pnp installation is incomplete: reinstall it")


def builtin_template_file(game: str, name: str) -> Path:
    """One file of a built-in game's templates (palette, labels...); missing is an error."""
    path = builtin_game_templates(game) / name
    if not path.is_file():
        raise MissingResource(f"{path} is missing; this pnp installation is incomplete: "
                              "reinstall it")
    return path


def builtin_game_templates(game: str) -> Path:
    """The template folder of one built-in game; a missing folder is an error, never empty."""
    folder = builtin_templates_root() / game
    if not folder.is_dir():
        raise MissingResource(
            f"no templates for game '{game}' in {builtin_templates_root()}; "
            "this pnp installation is incomplete: reinstall it")
    return folder
