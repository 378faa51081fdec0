"""Where the built-in games' templates are, in a wheel and in a checkout alike.

The templates are data at the top of the repository (``templates/<game>/``). A wheel carries a
copy as ``generator/builtin_templates`` (see setup.py); an editable install or a plain checkout
reads the repository's folder. Everything that reads a built-in template asks this module, so
an installed pnp and a developer's checkout print the same cards.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from generator.core.errors import MissingResource

#: the ``generator`` package folder (this module is ``generator/runtime/resources.py``)
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_IN_WHEEL = PACKAGE_ROOT / "builtin_templates"
_IN_CHECKOUT = PACKAGE_ROOT.parent / "templates"


def module_file(dotted: str) -> Path:
    """The source file of a pnp module, found without importing it (cache keys stamp the
    modules that decide what they keep): ``generator.load.yamlsource`` ->
    ``.../generator/load/yamlsource.py``."""
    parts = dotted.split(".")
    assert parts[0] == "generator", dotted
    return PACKAGE_ROOT.joinpath(*parts[1:]).with_suffix(".py")


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
