"""Gather what the proof page shows: validate, then localize and lay out every card per locale.

Unlike ``pnp build``, the proof never stops at an error: a pack with rule errors, a broken card
file or a missing translation is exactly what a designer needs to see, so every card that loaded
is drawn and every finding is kept, pinned to its card when it names one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from generator.core.errors import UsageError
from generator.core.findings import Finding, Severity, error, sort_key
from generator.core.location import Location
from generator.i18n.localize import Localizer, field_context
from generator.layout.engine import FaceLayout
from generator.layout.facecache import KeptFaces
from generator.layout.faces import lay_out_cards
from generator.model.cards import Card, CardSet
from generator.model.template import TemplateError
from generator.pipeline.localecheck import check_locale, localizer_for, set_locales
from generator.pipeline.validate import validate
from generator.proof.pictures import picture_name

BLEED_MM = 1.5  # the build's default bleed: the picture shows what a sheet prints past the trim
NOT_DRAWN = "not drawn"  # the group of cards that failed their checks before they could be drawn


class Outline(Struct, frozen=True, gc=False):
    """A text box that overflows, in card mm from the trim's top-left corner: a template
    text's box, or the cell a widget fitted the text into. ``field`` says what the text prints
    as its finding does ("action text", "label 'ECM'")."""

    field: str
    x: float
    y: float
    w: float
    h: float
    overflow_mm: float


class FaceView(Struct, frozen=True):
    side: str  # front | back
    picture: str  # file name of its PNG
    width_mm: float
    height_mm: float
    outlines: tuple[Outline, ...] = ()


class Version(Struct, frozen=True):
    """One card in one locale: its printed name and both faces."""

    locale: str
    name: str
    faces: tuple[FaceView, ...]
    missing_translations: tuple[str, ...] = ()  # the fields printed in the source language


class CardView(Struct):
    id: str
    kind: str
    pack: str
    name: str
    count: int
    where: str
    versions: list[Version] = []
    findings: list[Finding] = []
    texts: list[str] = []  # what the search box looks in


class Proof(Struct):
    title: str
    pack: str  # the output name: the base pack, joined with its expansions by '+'
    locales: tuple[str, ...]
    bleed_mm: float
    cards: list[CardView] = []
    pack_findings: list[Finding] = []
    #: picture file name -> the face it shows (what the renderer draws)
    pictures: dict[str, FaceLayout] = {}

    @property
    def findings(self) -> list[Finding]:
        return self.pack_findings + [f for card in self.cards for f in card.findings]

    def kinds(self) -> list[str]:
        """Kinds in order of first appearance (the order the sheets print them)."""
        return list(dict.fromkeys(card.kind for card in self.cards))


def _name(card: Card, localizer: Localizer | None) -> str:
    value = getattr(card, "name", None)
    if not isinstance(value, str) or not value:
        return card.id
    if localizer is not None and "name" in card.TRANSLATABLE:
        return localizer.field(card, "name")
    return value


def _outlines(face: FaceLayout, card: Card, localizer: Localizer) -> tuple[Outline, ...]:
    return tuple(Outline(localizer.printed_from_all(card, p.names)[0], *p.box, p.overflow_mm)
                 for p in face.problems if p.kind == "overflow" and p.box is not None)


def _untranslated(card: Card, localizer: Localizer) -> tuple[str, ...]:
    """The card's fields this locale prints in the source language for want of a translation."""
    if localizer.prints_source(card):
        return ()
    return tuple(card.yaml_key(attr) for attr, source in card.text_fields().items()
                 if not localizer.catalog.get((field_context(card.id, card.yaml_key(attr)),
                                               source)))


def _card_views(card_set: CardSet) -> dict[str, CardView]:
    return {card.id: CardView(card.id, card.kind, card.pack, _name(card, None), card.count,
                              str(card.source.location),
                              texts=[card.id, card.kind, *card.text_fields().values()])
            for card in card_set.cards}


def _locale_pass(proof: Proof, card_set: CardSet, game, locale: str,
                 views: dict[str, CardView], kept: KeptFaces) -> list[Finding]:
    """Check and lay out every card in one locale (faces ``kept`` from the last proof are
    taken from it); adds each card's version to its view."""
    localizer = localizer_for(card_set, game.name, locale)
    findings = check_locale(card_set, game, locale, layout=False, localizer=localizer)
    cache = kept.open(card_set, game, locale, proof.bleed_mm)
    try:
        faces = lay_out_cards(card_set, game, localizer, proof.bleed_mm, cache=cache)
    except TemplateError as exc:
        return [*findings, error("template-error", str(exc), Location(game.name), None, locale)]
    if cache is not None:
        kept.keep(cache, faces)
    findings += faces.findings
    names: dict[object, str] = {}  # a shared back is named once
    files: dict[str, str] = {}  # the art files' digests, each file read once
    for card in card_set.cards:
        sides = []
        for side, key in (("front", faces.fronts[card.id]), ("back", faces.backs[card.id])):
            layout = faces.layouts[key]
            picture = names.get(key)
            if picture is None:
                digest = faces.digests.get(key)
                picture = kept.names.get(digest) if digest is not None else None
                if picture is None:
                    picture = picture_name(layout, proof.bleed_mm, files)
                    if digest is not None:
                        kept.names[digest] = picture
                names[key] = picture
            proof.pictures[picture] = layout
            sides.append(FaceView(side, picture, layout.width_mm, layout.height_mm,
                                  _outlines(layout, card, localizer)))
        printed_name = _name(card, localizer)
        view = views[card.id]
        view.versions.append(Version(locale, printed_name, tuple(sides),
                                     _untranslated(card, localizer)))
        view.texts.extend([printed_name, *(localizer.field(card, attr)
                                           for attr in card.text_fields())])
    return findings


def collect(pack: Path, expansions: Sequence[Path], locales: Sequence[str],
            bleed_mm: float = BLEED_MM, kept: KeptFaces | None = None) -> Proof:
    """Everything the proof of ``pack`` shows in ``locales`` (default: the source locale).

    ``kept`` keeps the faces of earlier proofs (``pnp watch``: the face cache in memory), so
    unchanged cards are not laid out again.

    Raises UsageError for what the user must fix on the command line (no such pack or
    locale); everything wrong inside the pack becomes a finding."""
    checked = validate(pack, tuple(expansions))
    findings = list(checked.findings)
    card_set, game = checked.card_set, checked.game
    if card_set is None or game is None:
        proof = Proof(title=pack.name, pack=pack.name, locales=tuple(locales), bleed_mm=bleed_mm)
        _pin(proof, findings, {})
        return proof
    manifest = card_set.base.manifest
    chosen = tuple(dict.fromkeys(locales)) or (manifest.source_locale,)
    for locale in chosen:
        if locale not in set_locales(card_set):
            from generator.i18n.catalogs import no_locale_message

            raise UsageError(no_locale_message(card_set.base, locale, card_set.expansions))
    proof = Proof(title=manifest.name, pack=card_set.name,
                  locales=chosen, bleed_mm=bleed_mm)
    views = _card_views(card_set)
    if game.faces is None:
        findings.append(error("no-templates", f"game '{game.name}' has no card templates to "
                              "draw with", manifest.location))
    else:
        kept = kept if kept is not None else KeptFaces()
        for locale in chosen:
            findings += _locale_pass(proof, card_set, game, locale, views, kept)
    _pin(proof, findings, views)
    return proof


def _pin(proof: Proof, findings: list[Finding], views: dict[str, CardView]) -> None:
    """Findings go to their card; a card id with no drawn card (it failed its schema, or its
    file broke) gets a view of its own, so its findings still sit under its id."""
    for finding in sorted(set(findings), key=lambda f: (*sort_key(f), f.locale or "",
                                                        f.message)):
        if finding.card is None:
            proof.pack_findings.append(finding)
            continue
        view = views.get(finding.card)
        if view is None:
            view = views[finding.card] = CardView(
                finding.card, NOT_DRAWN, "", finding.card, 0, str(finding.location),
                texts=[finding.card])
        view.findings.append(finding)
        view.texts.append(finding.code)
    proof.cards = list(views.values())


def error_count(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return errors, len(findings) - errors
