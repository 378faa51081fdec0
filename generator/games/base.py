"""What a game module provides to the generic pipeline.

Adding a game means a pack folder, templates and one module under ``generator.games`` exposing a
``GAME`` object of this shape; nothing else in the package knows game names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from generator.findings import Finding
from generator.model import Card, CardSet, CardSize, SourceRef

if TYPE_CHECKING:  # a deck is checked by ``pnp build --deck`` and ``pnp deck`` only
    from generator.deck import Deck

FieldText = Callable[[Card, str], str]
LabelText = Callable[[str], str]
CardBuilder = Callable[[Mapping[str, object], str, SourceRef], Card]
RuleCheck = Callable[[CardSet], list[Finding]]
DeckCheck = Callable[["Deck", CardSet], list[Finding]]


class CardKind(Struct, frozen=True):
    name: str
    schema: str  # file name inside the game's schema package
    build: CardBuilder
    #: physical size of this kind when it differs from the pack's card_size (e.g. counters)
    size: CardSize | None = None
    #: a game defined in data carries the kind's JSON Schema itself, not a package file
    schema_data: Mapping[str, Any] | None = None


class Faces(Struct, frozen=True):
    """How a game's cards are drawn: template names per side, printed values, widgets, icons."""

    front_template: Callable[[Card], str]
    back_template: Callable[[Card], str]
    values: Callable[[Card, FieldText, LabelText], dict[str, object]]
    widgets: Mapping[str, Callable[..., list]]
    #: inline icons drawn by code; a built-in game's ``icons/*.svg`` are added to them
    icons: Mapping[str, Callable[..., list]] = field(default_factory=dict)

    def load(self) -> Faces:
        """These faces (see :class:`LazyFaces`, whose ``load`` imports them)."""
        return self


class LazyFaces:
    """A game's :class:`Faces`, built at first use from its ``faces`` module (front_template,
    back_template, face_values) and ``widgets`` module (WIDGETS, ICONS). Checking a pack needs
    the game's rules, not its drawing code, which imports the layout engine and ReportLab: a
    third of a ``pnp validate`` when loaded eagerly."""

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
                                 icons=getattr(widgets, "ICONS", {}))
        return self._loaded

    def __getattr__(self, name: str) -> object:
        return getattr(self.load(), name)


class Game(Struct, frozen=True):
    name: str
    title: str
    schema_package: str
    kinds: Mapping[str, CardKind]
    rules: tuple[RuleCheck, ...] = field(default=())
    faces: Faces | LazyFaces | None = None
    #: games with constructed decks: schema of a deck file (in schema_package) and its rules
    deck_schema: str | None = None
    deck_rules: tuple[DeckCheck, ...] = field(default=())
    #: a game defined in data (``generator.datagame.DataGame``): templates, art, rules as data
    data: Any = None

    def template(self, name: str):
        """The layout named ``name`` from this game's template folder."""
        if self.data is not None:
            return self.data.template(name)
        from generator.layout.template import load_template

        return load_template(self.name, name)

    def art_folder(self) -> Path:
        """The folder a template's ``image`` paths and ``icons/`` are in: a data game's pack,
        a built-in game's template folder (which the wheel ships with its SVG files)."""
        if self.data is not None:
            return self.data.root
        from generator.resources import builtin_game_templates

        return builtin_game_templates(self.name)

    def icon_painters(self) -> Mapping[str, Callable[..., list]]:
        """Inline icons by token name: a built-in game's ``icons/<name>.svg`` are ``{name}``
        (the tokens its card files have always used), a data game's are ``{icon-<name>}``."""
        assert self.faces is not None
        if self.data is not None:
            return self.faces.icons
        from generator.layout.icons import folder_icons

        return {**folder_icons(self.art_folder()), **self.faces.icons}

    def palette(self, variant: str = "normal") -> Mapping[str, str]:
        if self.data is not None:
            return self.data.palette
        from generator.layout.template import load_palette

        return load_palette(self.name, variant)

    def size_of(self, card: Card, default: CardSize) -> CardSize:
        kind = self.kinds.get(card.kind)
        return kind.size if kind is not None and kind.size is not None else default

    def check_deck(self, deck: Deck, card_set: CardSet) -> list[Finding]:
        findings: list[Finding] = []
        for rule in self.deck_rules:
            findings.extend(rule(deck, card_set))
        return findings

    def check(self, card_set: CardSet) -> list[Finding]:
        findings: list[Finding] = []
        for rule in self.rules:
            findings.extend(rule(card_set))
        return findings
