"""The Game contract: what every game gives the generic pipeline, whoever defined it.

A game is a built-in Python module (``generator.games.<name>``, registered as an entry point) or a
pack folder that defines it in data (``generator.datagame``); both are a :class:`Game`, and no
stage outside the two asks which. Nothing else in the package knows game names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from generator.core.findings import Finding
from generator.core.location import Location
from generator.model.cards import Card, CardSet, CardSize, SourceRef

if TYPE_CHECKING:  # a deck is checked by ``pnp build --deck`` and ``pnp deck`` only
    from generator.model.deck import Deck
    from generator.model.template import Template

#: card files are YAML in every game; a game may take more (a data game reads tables too)
YAML_SUFFIXES = frozenset({".yaml", ".yml"})

FieldText = Callable[[Card, str], str]
LabelText = Callable[[str], str]
CardBuilder = Callable[[Mapping[str, object], str, SourceRef], Card]
PartialBuilder = Callable[[Mapping[str, object], str, SourceRef, frozenset[str]], Card]
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
    #: this kind's rounded corners when they differ from the pack's ``corner_radius_mm``
    corner_radius_mm: float | None = None
    #: where the kind's size is written (a data game's game.yaml), for findings about it
    size_location: Location | None = None
    #: builds a card that failed its schema from its sound fields (the unsound ones named),
    #: for the rules that read only those; None: the game's rules need whole cards
    partial: PartialBuilder | None = None


class Faces(Struct, frozen=True):
    """How a game's cards are drawn: template names per side, printed values, widgets, icons."""

    front_template: Callable[[Card], str]
    back_template: Callable[[Card], str]
    values: Callable[[Card, FieldText, LabelText], dict[str, object]]
    widgets: Mapping[str, Callable[..., list]]
    #: inline icons drawn by code; a built-in game's ``icons/*.svg`` are added to them
    icons: Mapping[str, Callable[..., list]] = field(default_factory=dict)
    #: a card's face values made of labels -> the label keys (and card fields) each prints,
    #: so that a template text too long names them (FaceContext.printed_from); None: none
    printed_from: Callable[[Card], Mapping[str, tuple[str, ...]]] | None = None

    def load(self) -> Faces:
        """These faces (a built-in game's faces load lazily: ``generator.games.builtin``)."""
        return self


class Game(Struct, frozen=True):
    """One game as the pipeline sees it, whoever defined it.

    A built-in game (a Python module, :class:`generator.games.builtin.BuiltinGame`) and a game
    defined in data (:class:`generator.datagame.definition.DataDefinedGame`) both fill in these
    fields and answer these methods, so no stage ever asks which of the two it has."""

    name: str
    title: str
    schema_package: str
    kinds: Mapping[str, CardKind]
    rules: tuple[RuleCheck, ...] = field(default=())
    faces: Faces | None = None
    #: games with constructed decks: schema of a deck file (in schema_package) and its rules
    deck_schema: str | None = None
    deck_rules: tuple[DeckCheck, ...] = field(default=())
    #: the file suffixes a pack of this game may hold card files in
    card_file_suffixes: frozenset[str] = YAML_SUFFIXES
    #: its base pack (the pack named like the game) holds cards of every kind it has
    base_pack_has_every_kind: bool = False
    #: the font styles its templates print text in (the glyph checks look at each of them)
    text_styles: tuple[str, ...] = ("regular", "bold")
    #: art files and inline icons of its cards are checked when the pack is validated (they
    #: are a pack's input), so laying out a face does not report them again
    art_checked_on_load: bool = False
    #: the share of a large set's faces a forked process lays out when the layout begins
    #: before the rule checks, which this process runs first (with the glyph checks). Measured
    #: by wrapping the stage functions: for a built-in game those checks are Python, about an
    #: eighth of the layout's time (47,000 CWNB ships: 0.8 s against 6.7 s of CPU); for a game
    #: defined in data they are CEL rules and the data checks, near two thirds of it (92,000
    #: data cards: 2.75 s against 4.0 s; 0.75 ended in 8.0-8.6 s, 0.56 in 9.8-10.1 s, 0.84 in
    #: 8.5-9.3 s). A share that adapts as the work goes would fit every game; these fit the
    #: games measured.
    layout_child_share: float = 0.56

    def template(self, name: str) -> Template | None:
        """The layout named ``name``; None when it could not be loaded and the findings of
        loading the game already say why."""
        raise NotImplementedError

    def art_folder(self) -> Path:
        """The folder a template's ``image`` paths and ``icons/`` are in."""
        raise NotImplementedError

    def icon_painters(self) -> Mapping[str, Callable[..., list]]:
        """Inline icons by token name."""
        raise NotImplementedError

    def palette(self, variant: str = "normal") -> Mapping[str, str]:
        raise NotImplementedError

    def rule_rows(self) -> list:
        """Every rule this game checks, as :class:`generator.rules.table.RuleRow` rows."""
        raise NotImplementedError

    def prepare_face(self, ctx: object, card: Card, card_root: Path | None) -> None:
        """Give a face's layout context what this game's templates need beyond face values
        (nothing, unless the game says otherwise)."""

    def enum_label_gaps(self) -> tuple[tuple[str, str, frozenset[str], Location], ...]:
        """(kind, field, values, where) of each enum field a kind prints in text whose values
        have no printed label to translate (a data game's ``x-labels``); a built-in game
        prints its enum values through its own labels."""
        return ()

    def size_of(self, card: Card, default: CardSize) -> CardSize:
        """The card's size and corners: its kind's own, else the pack's (``default``); a kind
        of its own size keeps the pack's corner radius unless it gives one."""
        kind = self.kinds.get(card.kind)
        if kind is None:
            return default
        size = kind.size if kind.size is not None else default
        radius = kind.corner_radius_mm if kind.corner_radius_mm is not None \
            else default.corner_radius_mm
        if size.corner_radius_mm != radius:
            size = CardSize(size.width_mm, size.height_mm, size.name, radius)
        return size

    def check_deck(self, deck: Deck, card_set: CardSet) -> list[Finding]:
        findings: list[Finding] = []
        for rule in self.deck_rules:
            findings.extend(rule(deck, card_set))
        return findings

    def rules_key(self) -> bytes | None:
        """What decides :meth:`check`'s verdict besides the card set, when nothing else does:
        a clean set's verdict is then remembered between runs (generator.rules.verdicts).
        None (the default): the rules read more than the card set, and run every time."""
        return None

    def check(self, card_set: CardSet) -> list[Finding]:
        findings: list[Finding] = []
        for rule in self.rules:
            findings.extend(rule(card_set))
        return findings
