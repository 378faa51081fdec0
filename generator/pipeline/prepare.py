"""Everything before imposition, shared by ``build``, ``export`` and ``preflight``: validate the
pack, check the locale and lay out every distinct face once.

A pack with rule errors is not printed (the user would cut out an unplayable deck): the steps
stop at the first stage with errors and hand back the findings, warnings included.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, field

from generator.core.errors import UsageError
from generator.core.findings import Finding, has_errors
from generator.i18n.localize import Localizer
from generator.layout.faces import CardFaces, PendingLayout, card_numbers
from generator.model.cards import CardSet
from generator.model.game import Game
from generator.pipeline.localecheck import check_locale, localizer_for, set_locales
from generator.runtime.progress import Progress

if TYPE_CHECKING:
    from generator.layout.facecache import FaceCache
    from generator.pipeline.validate import Validation


class Prepared(Struct):
    card_set: CardSet
    game: Game
    locale: str
    localizer: Localizer
    faces: CardFaces

    @property
    def name(self) -> str:
        """The output folder's name (:attr:`CardSet.name`)."""
        return self.card_set.name


class Preparation(Struct):
    prepared: Prepared | None
    findings: list[Finding] = field(default_factory=list)


def prepare(pack: Path, expansions: tuple[Path, ...], locale: str | None, bleed_mm: float,
            *, ink_saver: bool = False, strict: bool = False,
            progress: Progress | None = None, allow_overflow: bool = False,
            face_cache: FaceCacheFolder | None = None, deck: Path | None = None
            ) -> Preparation:
    """Validate, check ``locale`` (default: the pack's source language) and lay out the faces
    with ``bleed_mm`` of bleed art; ``prepared`` is None when an error stopped the way.
    ``progress`` counts the cards laid out. With ``face_cache``, faces the last build kept
    there are taken from it where their inputs did not change (the caller keeps this build's
    with :meth:`FaceCacheFolder.keep` once it has printed them). With ``deck`` (the file a
    build prints), ``{number}`` and ``{total}`` count the deck's cards only (the caller checks
    the deck itself)."""
    from generator.pipeline.validate import validate

    begun: list[tuple[Localizer, PendingLayout]] = []

    def begin_layout(card_set: CardSet, game: Game) -> None:
        """Begin the layout once the cards are loaded: a large set's forked part lays out
        beside the rule checks (most of it, or all when the face cache holds most faces)."""
        chosen = locale or card_set.base.manifest.source_locale
        if game.faces is None or chosen not in set_locales(card_set):
            return  # (said once the checks are done)
        localizer = localizer_for(card_set, game.name, chosen)  # reads the PO catalogs once
        kept = face_cache.open(card_set, game, chosen, bleed_mm, ink_saver) \
            if face_cache is not None else None
        if progress is not None:
            progress.extend(len(card_set.cards))
        share = game.layout_child_share
        begun.append((localizer, PendingLayout(
            card_set, game, localizer, bleed_mm, ink_saver=ink_saver,
            on_card=progress.advance if progress is not None else None,
            allow_overflow=allow_overflow, child_share=share, cache=kept, begun_early=True,
            numbers=_deck_numbers(deck, pack, card_set, game))))

    checked = validate(pack, expansions, on_card_set=begin_layout)
    try:
        return _checked_and_laid_out(checked, locale, strict, begun[0] if begun else None)
    finally:
        for _, pending in begun:  # (an error on the way: the forked part is stopped)
            pending.cancel()


def _deck_numbers(deck: Path | None, pack: Path, card_set: CardSet, game: Game
                  ) -> dict[str, tuple[int, int]] | None:
    """Each card's number among the deck's cards of its kind (None: no deck, or one that does
    not load, which the build then reports)."""
    if deck is None:
        return None
    from generator.model.deck import load_checked_deck  # a deck build only

    chosen, _ = load_checked_deck(deck, pack, card_set, game, need_rules=False)
    if chosen is None:
        return None
    return card_numbers(card_set.cards, {entry.card.id for entry in chosen.entries})


def _checked_and_laid_out(checked: Validation, locale: str | None, strict: bool,
                          begun: tuple[Localizer, PendingLayout] | None) -> Preparation:
    result = Preparation(None, list(checked.findings))
    if checked.card_set is None or checked.game is None or has_errors(checked.findings):
        return result
    card_set, game = checked.card_set, checked.game
    manifest = card_set.base.manifest
    locale = locale or manifest.source_locale
    if locale not in set_locales(card_set):
        from generator.i18n.catalogs import no_locale_message

        raise UsageError(no_locale_message(card_set.base, locale, card_set.expansions))
    if game.faces is None or begun is None:
        raise UsageError(f"game '{game.name}' has no card templates to print with")
    localizer, pending = begun
    result.findings.extend(check_locale(card_set, game, locale, strict, layout=False,
                                        localizer=localizer))
    if has_errors(result.findings):
        return result
    faces = pending.result()
    result.findings.extend(faces.findings)
    if not has_errors(faces.findings):
        result.prepared = Prepared(card_set, game, locale, localizer, faces)
    return result


class FaceCacheFolder:
    """Where a build keeps its faces (generator.layout.facecache.faces_folder; None: caches are
    off), whether it may take the last build's (``reuse``; ``--force`` lays every face out
    again, and still keeps them), and the output root to leave out of the inputs when it lies
    inside a pack. Once opened, it knows the cache entry and what was read from it."""

    __slots__ = ("_opened", "_path", "exclude", "folder", "reuse")

    def __init__(self, folder: Path | None, reuse: bool = True, exclude: Path | None = None
                 ) -> None:
        self.folder = folder
        self.reuse = reuse
        self.exclude = exclude
        self._path: Path | None = None
        self._opened: FaceCache | None = None

    def open(self, card_set: CardSet, game: Game, locale: str, bleed_mm: float,
             ink_saver: bool) -> FaceCache | None:
        """The faces kept for this pack and locale under this build's inputs (None: the
        inputs cannot all be read; the build then reports them itself)."""
        from generator.layout import facecache

        if self.folder is None:
            return None
        try:
            key = facecache.set_key(card_set, game, locale, bleed_mm, ink_saver, self.exclude)
        except OSError:
            return None
        self._path = self.folder / card_set.name / f"{locale}.faces"
        self._opened = facecache.load(self._path, key) if self.reuse \
            else facecache.FaceCache(key)
        return self._opened

    def keep(self, faces: CardFaces) -> None:
        """Keep ``faces`` (laid out with what :meth:`open` gave) for the next build."""
        from generator.layout import facecache

        if self._path is not None and self._opened is not None:
            facecache.save(self._path, self._opened, faces.layouts, faces.digests)
