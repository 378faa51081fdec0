"""Lay out every distinct face of a card set once, for one locale.

A card printed N times, and a back shared by a whole deck, is laid out (and later drawn) once:
faces are keyed by template and card, so the renderer can place one PDF form per face.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from generator.core.findings import Finding, error, warning
from generator.core.location import Location
from generator.i18n.localize import Localizer
from generator.layout.engine import FaceContext, FaceLayout, layout_face
from generator.layout.symbols import set_mark_widget
from generator.model.cards import Card, CardSet
from generator.model.game import Game
from generator.model.template import TemplateError
from generator.runtime.forked import Forked, worker_count
from generator.runtime.gcpause import collector_paused

if TYPE_CHECKING:  # a build's cache of faces (generator.layout.facecache), not validate's concern
    from generator.layout.facecache import FaceCache

FaceKey = tuple[str, str]  # (template name, card id or SHARED_FACE for a shared face)
SHARED_FACE = "*"


def face_key(template: str, shared: bool, card: Card) -> FaceKey:
    """Which face a card shows with ``template``: its own, or the one every card shares. Both
    halves of a split layout name faces by this rule, so a shared face is laid out once."""
    return (template, SHARED_FACE if shared else card.id)


class CardFaces(Struct):
    """Which face each card shows on each side, and the laid-out faces themselves (filled in
    place as the faces are laid out, so not frozen)."""

    fronts: dict[str, FaceKey] = {}
    backs: dict[str, FaceKey] = {}
    layouts: dict[FaceKey, FaceLayout] = {}
    findings: list[Finding] = []
    #: overflows already reported -> (index of their finding, how many more cards repeat it)
    reported: dict[tuple[object, ...], list[int]] = {}
    #: with a face cache: each face's digest (what it was laid out from, see
    #: generator.layout.facecache), where it has one
    digests: dict[FaceKey, bytes] = {}
    #: how many faces were laid out rather than taken from the cache
    laid_out: int = 0


def _report(layout: FaceLayout, card: Card, localizer: Localizer, side: str,
            result: CardFaces, allow_overflow: bool, icons_checked: bool = False) -> None:
    """``icons_checked``: a game defined in data has its icons checked on the card fields and
    templates already (pnp validate, without a locale), so they are not reported twice."""
    findings = result.findings
    for problem in layout.problems:
        if problem.kind == "unknown-icon" and icons_checked:
            continue  # no finding here, so nothing to count repeats on
        names = problem.names
        # a label (or a field printed as a translated label, like an action's category) fails
        # alike on every card that shows it: one finding, counting the other cards; so does
        # a text of labels and fields that are not translated (a ship's type code and name)
        once: tuple[object, ...]
        if problem.kind in ("markup", "qr"):
            once = (side, names, problem.kind, problem.detail)
        elif _labels_decide(names, card):
            once = (side, names, problem.kind)
        else:
            once = (side, names, problem.kind, problem.detail,
                    round(problem.overflow_mm, 1), problem.size_pt)
        if once in result.reported:
            result.reported[once][1] += 1
            continue
        result.reported[once] = [len(findings), 0]
        # a translated text that does not fit is fixed in the catalog: the finding points there
        what, translated_at = localizer.printed_from_all(card, names)
        location = translated_at or card.source.of(problem.field)
        if problem.kind == "unknown-icon":
            findings.append(error("unknown-icon", f"'{{{problem.detail}}}' in {what} "
                                  "is not an icon this game draws", location, card.id,
                                  localizer.locale))
            continue
        if problem.kind == "markup":
            findings.append(error("bad-markup", f"{side} {problem.field}: {problem.detail}",
                                  location, card.id, localizer.locale))
            continue
        if problem.kind == "qr":
            findings.append(error("qr-too-long", f"{side} QR code: {problem.detail}",
                                  location, card.id, localizer.locale))
            continue
        # cut-off text must not print unnoticed: an error unless the user allows it
        findings.append((warning if allow_overflow else error)(
            "text-overflow",
            f"{side} {what} does not fit even at {problem.size_pt:g} pt: "
            f"{problem.overflow_mm:.1f} mm too long", location, card.id, localizer.locale))


def _labels_decide(names: tuple[str, ...], card: Card) -> bool:
    """Whether a text printing ``names`` (card fields and label keys) prints alike on every
    card that shows those labels: it prints at least one label, and no translated field."""
    fields = [name for name in names if name in card.source.fields]
    if len(fields) == len(names):
        return False
    return not fields or not {card.yaml_key(a) for a in card.text_fields()} & set(fields)


def card_numbers(cards: Sequence[Card], chosen: Collection[str] | None = None
                 ) -> dict[str, tuple[int, int]]:
    """``{number}`` and ``{total}`` of each card: its 1-based place among the cards of its kind
    in file order (base pack, then each expansion), and how many distinct cards that kind has.
    With ``chosen`` (the cards of a deck) only those are counted, still in file order, so a
    deck numbers its cards the same whatever order its file lists them in; a card left out
    of the deck (laid out, never printed) is number 0."""
    per_kind: dict[str, list[str]] = {}
    for card in cards:
        if chosen is None or card.id in chosen:
            per_kind.setdefault(card.kind, []).append(card.id)
    numbers = {card_id: (index, len(ids)) for ids in per_kind.values()
               for index, card_id in enumerate(ids, start=1)}
    if chosen is not None:
        for card in cards:
            if card.id not in numbers:
                numbers[card.id] = (0, len(per_kind.get(card.kind, ())))
    return numbers


def lay_out_cards(card_set: CardSet, game: Game, localizer: Localizer, bleed_mm: float,
                  ink_saver: bool = False,
                  on_card: Callable[[], None] | None = None,
                  allow_overflow: bool = False, cards: Sequence[Card] | None = None,
                  count_repeats: bool = True,
                  laid_out_elsewhere: Collection[FaceKey] = (),
                  cache: FaceCache | None = None,
                  numbers: Mapping[str, tuple[int, int]] | None = None) -> CardFaces:
    """Lay out the front and back of every card of ``card_set`` (or of ``cards``, a part of it)
    in ``localizer``'s locale; ``on_card`` is called after each card (a progress bar counts
    them). A text that does not fit is an error finding, a warning with ``allow_overflow``.
    Findings repeated on several faces are counted in the first one's message unless
    ``count_repeats`` is False (a part whose counts are added to another's); faces in
    ``laid_out_elsewhere`` (shared faces another part lays out) are only named. With
    ``cache``, a face it keeps under the face's digest is taken from it, not laid out.
    ``numbers``: each card's ``{number}`` and ``{total}`` (default: :func:`card_numbers` of
    the whole set)."""
    with collector_paused():  # thousands of faces, no cycles (see generator.runtime.gcpause)
        result = _lay_out(card_set, game, localizer, bleed_mm, ink_saver, on_card,
                          allow_overflow, card_set.cards if cards is None else cards,
                          laid_out_elsewhere, cache,
                          card_numbers(card_set.cards) if numbers is None else numbers)
    if count_repeats:
        _count_repeats(result)
    return result


def _lay_out(card_set: CardSet, game: Game, localizer: Localizer, bleed_mm: float,
             ink_saver: bool, on_card: Callable[[], None] | None, allow_overflow: bool,
             cards: Sequence[Card], laid_out_elsewhere: Collection[FaceKey],
             cache: FaceCache | None, numbers: Mapping[str, tuple[int, int]]) -> CardFaces:
    assert game.faces is not None
    palette = game.palette("ink_saver" if ink_saver else "normal")
    widgets = {"set_mark": set_mark_widget, **game.faces.widgets}
    icons = game.icon_painters()
    art_root = game.art_folder()
    result = CardFaces()
    memo: dict[object, object] = {}  # what the faces of this run share (see FaceContext.memo)
    templates: dict[str, object] = {}
    pack_index = {id(pack): index for index, pack in enumerate(card_set.packs)}
    default_size = card_set.base.manifest.card_size
    for card in cards:
        values: dict[str, object] | None = None
        printed_from = game.faces.printed_from(card) if game.faces.printed_from else None
        pack = card_set.pack_of(card)
        manifest = pack.manifest
        for side, choose, table in (("front", game.faces.front_template, result.fronts),
                                    ("back", game.faces.back_template, result.backs)):
            name = choose(card)
            template = templates.get(name) or templates.setdefault(name, game.template(name))
            if template is None:
                continue  # a template that did not load: the game's findings say why
            key = face_key(template.name, template.shared, card)
            table[card.id] = key
            if key in result.layouts or key in laid_out_elsewhere:
                continue
            if values is None:
                number, total = numbers.get(card.id, (0, 0))
                values = {"number": number, "total": total,
                          **game.faces.values(card, localizer.field, localizer.label),
                          "set_mark": manifest.set_mark,
                          "set_mark_label": manifest.set_mark_label}
            if cache is not None:
                # conditions written in CEL read the card's own fields
                fields = card.template_fields()
                digest = cache.digest(template.name, pack_index[id(pack)], values,
                                      dict(fields) if fields is not None else None)
                if digest is not None:
                    result.digests[key] = digest
                kept = cache.layout(digest)
                if kept is not None:
                    result.layouts[key] = kept
                    _report(kept, card, localizer, side, result, allow_overflow,
                            game.art_checked_on_load)
                    continue
            result.laid_out += 1
            ctx = FaceContext(palette=palette, manifest=manifest, locale=localizer.locale,
                              label=localizer.label, widgets=widgets,
                              icons=icons, bleed_mm=bleed_mm, art_root=art_root,
                              art_checked=game.art_checked_on_load, memo=memo,
                              printed_from=printed_from)
            game.prepare_face(ctx, card, pack.root)
            try:
                layout = layout_face(template, values, ctx)
            except TemplateError as exc:
                result.findings.append(error("bad-template", str(exc), exc.location
                                             or Location(template.file), card.id,
                                             localizer.locale))
                layout = FaceLayout(template.width_mm, template.height_mm)
                result.digests.pop(key, None)  # (a face that failed is never kept)
            layout.corner_radius_mm = game.size_of(card, default_size).corner_radius_mm
            result.layouts[key] = layout
            _report(layout, card, localizer, side, result, allow_overflow,
                    game.art_checked_on_load)
        if on_card is not None:
            on_card()
    return result


def _count_repeats(result: CardFaces) -> None:
    """Say in a repeated finding's message on how many more faces it recurs."""
    for index, repeats in result.reported.values():
        if repeats:
            first = result.findings[index]
            result.findings[index] = replace(
                first, message=f"{first.message} (the same on {repeats} more card face"
                               f"{'s' if repeats > 1 else ''})")


#: cards from which a set is laid out in two halves in two processes (below, forking costs
#: more than it saves)
SPLIT_CARDS = 1_000


def layout_findings(card_set: CardSet, game: Game, localizer: Localizer) -> list[Finding]:
    """The findings of laying out every face (what ``build`` would stop on: texts that do not
    fit, unknown icons, templates that cannot be drawn), without keeping the faces."""
    return lay_out_in_two(card_set, game, localizer, 0.0, keep_layouts=False).findings


def lay_out_in_two(card_set: CardSet, game: Game, localizer: Localizer, bleed_mm: float,
                   keep_layouts: bool = True, ink_saver: bool = False,
                   on_card: Callable[[], None] | None = None,
                   allow_overflow: bool = False, cache: FaceCache | None = None) -> CardFaces:
    """:func:`lay_out_cards` on both cores: a large set's second half is laid out in a forked
    process, and only its findings (and, with ``keep_layouts``, its faces) come back. The
    result is the one run's: same faces in the same order, same findings and repeat counts.
    With ``cache``, faces it keeps are taken from it (see generator.layout.facecache)."""
    with PendingLayout(card_set, game, localizer, bleed_mm, keep_layouts, ink_saver,
                       on_card, allow_overflow, cache=cache) as pending:
        return pending.result()


class PendingLayout:
    """A layout begun now and collected later: a large set's last ``child_share`` of cards is
    laid out at once in a forked process, the rest by this process in :meth:`result`. Begun
    before the rule checks, the child lays out while this process checks (validate gives it
    more than half for that reason). Below :data:`SPLIT_CARDS` cards, on one core, or with a
    cache that holds most faces, all of it happens in :meth:`result`, unless it is
    ``begun_early`` (before other work, like the rule checks): then the child takes every card
    of a warm cache. Use it as a context manager, so that an error on the way stops the
    child."""

    def __init__(self, card_set: CardSet, game: Game, localizer: Localizer, bleed_mm: float,
                 keep_layouts: bool = True, ink_saver: bool = False,
                 on_card: Callable[[], None] | None = None, allow_overflow: bool = False,
                 child_share: float = 0.5, cache: FaceCache | None = None,
                 begun_early: bool = False,
                 numbers: Mapping[str, tuple[int, int]] | None = None) -> None:
        cards = card_set.cards
        numbers = card_numbers(cards) if numbers is None else numbers

        def part(chosen: Sequence[Card], elsewhere: Collection[FaceKey] = (),
                 advance: Callable[[], None] | None = None) -> CardFaces:
            faces = lay_out_cards(card_set, game, localizer, bleed_mm, ink_saver, advance,
                                  allow_overflow, chosen, count_repeats=False,
                                  laid_out_elsewhere=elsewhere, cache=cache, numbers=numbers)
            if not keep_layouts:
                faces.layouts.clear()  # nothing but the findings travels back
                faces.digests.clear()
            return faces

        def child_part(chosen: Sequence[Card], elsewhere: Collection[FaceKey]) -> CardFaces:
            faces = part(chosen, elsewhere)
            if cache is not None:  # the parent has the cached faces: only their names travel
                for face, digest in faces.digests.items():
                    if digest in cache.known and face in faces.layouts:
                        faces.layouts[face] = None  # type: ignore[assignment]
            return faces

        self._part = part
        self._cache = cache
        self._on_card = on_card
        self._cards = cards
        self._cut = len(cards)
        self._child: Forked[CardFaces] | None = None
        if len(cards) < SPLIT_CARDS or worker_count(2) < 2:
            return
        if cache is not None and len(cache.known) > len(cards) / 2:
            if not begun_early:  # faces taken from a cache cost less than a fork and the
                return  # way back of its result, unless the fork runs beside other work
            child_share = 1.0
        self._cut = round(len(cards) * (1 - child_share))
        # a face every card shares (a deck's back) is laid out and reported by the first part
        shared = _shared_faces(game, cards[:self._cut])
        later = cards[self._cut:]
        self._child = Forked(lambda: child_part(later, shared))

    def result(self) -> CardFaces:
        if self._child is None:
            whole = self._part(self._cards, advance=self._on_card)
            _count_repeats(whole)
            return whole
        first = self._part(self._cards[:self._cut], advance=self._on_card)
        second = self._child.result()
        self._child = None
        first.fronts.update(second.fronts)
        first.backs.update(second.backs)
        first.laid_out += second.laid_out
        for key, digest in second.digests.items():
            first.digests.setdefault(key, digest)
        for key, layout in second.layouts.items():
            if layout is None and self._cache is not None:  # a cached face, named only
                layout = self._cache.layout(second.digests[key])  # type: ignore[assignment]
            first.layouts.setdefault(key, layout)
        _append_part(first, second)
        _count_repeats(first)
        if self._on_card is not None:
            for _ in self._cards[self._cut:]:
                self._on_card()
        return first

    def cancel(self) -> None:
        if self._child is not None:
            self._child.cancel()
            self._child = None

    def __enter__(self) -> PendingLayout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()


def _shared_faces(game: Game, cards: Sequence[Card]) -> set[FaceKey]:
    """The shared faces (a deck's back) that ``cards`` show: each template the cards choose is
    looked up once, not once per card (a second of a 47,000-card validate was spent here)."""
    assert game.faces is not None
    chosen: dict[str, Card] = {}  # template name -> the first card that chose it
    for card in cards:
        for choose in (game.faces.front_template, game.faces.back_template):
            chosen.setdefault(choose(card), card)
    shared: set[FaceKey] = set()
    for name, card in chosen.items():
        template = game.template(name)
        if template is not None and template.shared:
            shared.add(face_key(template.name, True, card))
    return shared


def _append_part(first: CardFaces, second: CardFaces) -> None:
    """``second``'s findings after ``first``'s, as if one run had laid out both parts: a
    finding ``first`` already reported is one more repeat of it."""
    again = {index: once for once, (index, _) in second.reported.items()
             if once in first.reported}
    moved = {index: once for once, (index, _) in second.reported.items()
             if once not in first.reported}
    for once, (_, repeats) in second.reported.items():
        if once in first.reported:
            first.reported[once][1] += repeats + 1
    for index, finding in enumerate(second.findings):
        if index in again:
            continue
        if index in moved:
            first.reported[moved[index]] = [len(first.findings),
                                            second.reported[moved[index]][1]]
        first.findings.append(finding)
