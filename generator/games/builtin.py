"""A game written in Python: rules as code, templates and icons shipped in ``templates/<name>/``.

Each built-in module (``generator.games.cwnb`` ...) exposes ``GAME = BuiltinGame(...)``. Its
drawing code (faces and widgets) is imported at first use: checking a pack needs the game's
rules, not its drawing code, which imports the layout engine and ReportLab.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.model.game import Faces, Game
from generator.runtime.resources import builtin_game_templates

if TYPE_CHECKING:
    from generator.model.template import Template
    from generator.rules.table import RuleRow

# The template reader and the icon painters are imported where they are first needed: a
# `pnp validate` of a built-in game never lays out a face, and its start-up is budgeted.


class LazyFaces:
    """A game's :class:`Faces`, built at first use from its ``faces`` module (front_template,
    back_template, face_values) and ``widgets`` module (WIDGETS, ICONS). Loaded eagerly they
    would cost a third of a ``pnp validate``."""

    __slots__ = ("_faces_module", "_loaded", "_widgets_module")

    def __init__(self, faces_module: str, widgets_module: str) -> None:
        self._faces_module = faces_module
        self._widgets_module = widgets_module
        self._loaded: Faces | None = None

    def load(self) -> Faces:
        if self._loaded is None:
            faces = importlib.import_module(self._faces_module)
            widgets = importlib.import_module(self._widgets_module)
            self._loaded = Faces(front_template=faces.front_template,
                                 back_template=faces.back_template, values=faces.face_values,
                                 widgets=widgets.WIDGETS,
                                 icons=getattr(widgets, "ICONS", {}),
                                 printed_from=getattr(faces, "printed_from", None))
        return self._loaded

    def __getattr__(self, name: str) -> object:
        return getattr(self.load(), name)


class LazyRules(Sequence[Callable[..., list]]):
    """A game's rule checks (or deck checks), imported from its ``rules`` package at first use:
    a warm build of an unchanged pack takes their verdict from the rule memo
    (generator.rules.verdicts) and so never imports them, nor compiles their patterns."""

    __slots__ = ("_loaded", "_module", "_name")

    def __init__(self, module: str, name: str = "RULES") -> None:
        self._module = module
        self._name = name
        self._loaded: tuple[Callable[..., list], ...] | None = None

    def load(self) -> tuple[Callable[..., list], ...]:
        if self._loaded is None:
            self._loaded = tuple(getattr(importlib.import_module(self._module), self._name))
        return self._loaded

    def __iter__(self) -> Iterator[Callable[..., list]]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        return self.load()[index]


class BuiltinGame(Game, frozen=True):
    """A built-in game: its templates are pnp's own, so one that does not load is pnp's bug
    (TemplateError propagates), never a finding about the user's pack."""

    #: pnp ships each built-in game's base pack whole (cards/<game>/)
    base_pack_has_every_kind: bool = True

    def rules_key(self) -> bytes:
        """A built-in game's rules read the card set only, and are pnp's own code (which the
        cache layer's key recipe covers)."""
        return f"built-in game {self.name}".encode()

    def template(self, name: str) -> Template:
        from generator.model.template import load_template

        return load_template(self.name, name)

    def art_folder(self) -> Path:
        """The game's template folder, which the wheel ships with its SVG files."""
        return builtin_game_templates(self.name)

    def icon_painters(self) -> Mapping[str, Callable[..., list]]:
        """``icons/<name>.svg`` are ``{name}`` (the tokens its card files have always used),
        beside the icons its widgets draw in code."""
        from generator.layout.icons import folder_icons

        assert self.faces is not None
        return {**folder_icons(self.art_folder()), **self.faces.icons}

    def palette(self, variant: str = "normal") -> Mapping[str, str]:
        from generator.model.template import load_palette

        return load_palette(self.name, variant)

    def rule_rows(self) -> list[RuleRow]:
        """The checks of the game's Rulebook (``generator.games.<name>.rules.registry``)."""
        from generator.rules.table import RuleRow

        try:
            registry = importlib.import_module(f"generator.games.{self.name}.rules.registry")
        except ImportError:
            return []
        book = getattr(registry, "RULEBOOK", None)
        if book is None:
            return []
        return [RuleRow(c.code, c.level, None, str(c.severity), c.reference, c.summary)
                for c in book.checks.values()]
