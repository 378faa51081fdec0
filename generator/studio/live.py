"""One edited card, checked and drawn before anything is saved.

An edit is checked as ``pnp validate`` would check the pack holding it: the kind's schema, then
(if the card can be built) the generic cross-pack checks and the game's rules over the whole set
with this card in its place, so a rule that compares cards still sees every card. Only this
card is laid out and drawn: its two faces, on lone card pages of pnp's own PDF rendered by
pdfium, as the proof page renders them (:mod:`generator.proof.pictures`), so the picture shows
exactly what prints. A face that looks as before is not drawn again: pictures are named by a
hash of their drawing.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Collection, Mapping
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from generator.core.findings import Finding, error, sort_key
from generator.core.location import Location
from generator.layout.engine import FaceLayout
from generator.layout.faces import lay_out_cards
from generator.model.cards import Card, CardSet, Pack, SourceRef
from generator.model.template import TemplateError
from generator.pipeline import crosspack
from generator.pipeline.localecheck import check_locale
from generator.proof.collect import BLEED_MM
from generator.proof.pictures import picture_name, picture_size_px, render_pictures
from generator.schema import check as schemacheck
from generator.studio.session import CardSource, Loaded, Session

#: bytes of pictures kept for the pages (the newest first; older ones are drawn again if asked)
PICTURE_BUDGET = 96 * 1024 * 1024
_QUOTED_FIELD = re.compile(r"'([A-Za-z_][A-Za-z0-9_-]*)'")


class Pictures:
    """Rendered faces by name, the most recently used kept within :data:`PICTURE_BUDGET`, and
    the layouts of faces not rendered yet (a list page's thumbnails are drawn when asked)."""

    def __init__(self, budget: int = PICTURE_BUDGET) -> None:
        self.budget = budget
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self._layouts: OrderedDict[str, FaceLayout] = OrderedDict()
        self._bytes = 0

    def has(self, name: str) -> bool:
        return name in self._png

    def put(self, name: str, data: bytes) -> None:
        if name in self._png:
            self._bytes -= len(self._png.pop(name))
        self._png[name] = data
        self._bytes += len(data)
        while self._bytes > self.budget and len(self._png) > 1:
            _, old = self._png.popitem(last=False)
            self._bytes -= len(old)

    def know(self, name: str, layout: FaceLayout) -> None:
        self._layouts[name] = layout
        self._layouts.move_to_end(name)
        while len(self._layouts) > 20_000:
            self._layouts.popitem(last=False)

    def png(self, name: str) -> bytes | None:
        """The picture, rendered now if only its layout is known."""
        data = self._png.get(name)
        if data is None and name in self._layouts:
            render_pictures({name: self._layouts[name]}, BLEED_MM, self, compress=False)
            data = self._png.get(name)
        if data is not None:
            self._png.move_to_end(name)
        return data


class Face(Struct, frozen=True):
    side: str
    picture: str
    width_px: int
    height_px: int
    #: overflowing boxes: field, x, y, w, h (card mm from the trim's corner), mm over
    outlines: tuple[tuple[str, float, float, float, float, float], ...] = ()
    width_mm: float = 0.0
    height_mm: float = 0.0


class Drawn(Struct):
    """What the page shows of an edited card."""

    faces: list[Face] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    fields: dict[int, str] = field(default_factory=dict)  # finding index -> field it concerns


def faces_of(layouts: list[tuple[str, FaceLayout]], pictures: Pictures) -> list[Face]:
    faces = []
    for side, layout in layouts:
        name = picture_name(layout, BLEED_MM)
        pictures.know(name, layout)
        width, height = picture_size_px(layout.width_mm, layout.height_mm, BLEED_MM)
        outlines = tuple((p.field, *p.box, p.overflow_mm) for p in layout.problems
                         if p.kind == "overflow" and p.box is not None)
        faces.append(Face(side, name, width, height, outlines, layout.width_mm,
                          layout.height_mm))
    return faces


def _with_card(card_set: CardSet, card: Card, loaded: Loaded) -> CardSet:
    """The set with ``card`` in its place (file order), instead of the card of its id."""
    def placed(pack: Pack) -> Pack:
        if pack.manifest.pack != card.pack:
            return pack
        cards = [c for c in pack.cards if c.id != card.id]
        rank = loaded.sources[card.id].order if card.id in loaded.sources else len(loaded.sources)
        at = next((i for i, c in enumerate(cards)
                   if c.id in loaded.sources and loaded.sources[c.id].order > rank), len(cards))
        cards.insert(at, card)
        return replace(pack, cards=tuple(cards))

    return CardSet(base=placed(card_set.base),
                   expansions=tuple(placed(pack) for pack in card_set.expansions))


def _only(card_set: CardSet, card: Card) -> CardSet:
    def keep(pack: Pack) -> Pack:
        return replace(pack, cards=tuple(c for c in pack.cards if c.id == card.id))

    return CardSet(base=keep(card_set.base), expansions=tuple(keep(p) for p in
                                                               card_set.expansions))


def build_card(loaded: Loaded, source: CardSource, item: Mapping[str, Any]
               ) -> tuple[Card | None, list[Finding]]:
    """The card the edited fields make, or None and the schema's findings."""
    assert loaded.game is not None
    game = loaded.game
    kind = game.kinds.get(str(item.get("kind")))
    doc = loaded.card_document(source, item)
    base = ("cards", source.index)
    if kind is None:
        return None, [error("unknown-value", f"'kind' is {item.get('kind')!r}; expected one "
                            f"of: {', '.join(sorted(game.kinds))}", source.location, source.id)]
    problems = schemacheck.check(doc, game.schema_package, kind.schema, instance=dict(item),
                                 base=base, card=source.id, schema=kind.schema_data)
    if problems:
        return None, problems
    fields = {name: where for name, where in source.fields.items() if name in item}
    try:
        return kind.build(item, source.pack, SourceRef(source.location, fields)), []
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a game's own builder
        return None, [error("cannot-build", f"the card cannot be made from these fields "
                            f"({type(exc).__name__}: {exc})", source.location, source.id)]


def _rule_findings(loaded: Loaded, card_set: CardSet, card_id: str) -> list[Finding]:
    game = loaded.game
    assert game is not None
    base = crosspack.LoadedPack(card_set.base, game)
    expansions = tuple(crosspack.LoadedPack(pack, game) for pack in card_set.expansions)
    generic = crosspack.check_packs(base, expansions, card_set, str(card_set.base.root))
    own = game.check(card_set)
    return [f for f in crosspack.without_refined(generic, own) + own if f.card == card_id]


def draw_card(session: Session, loaded: Loaded, pictures: Pictures, source: CardSource,
              item: Mapping[str, Any], locale: str, names: Collection[str] = ()) -> Drawn:
    """Check ``item`` (every field of the card as edited) and draw its faces in ``locale``;
    ``names``: the form's fields, which findings are linked to."""
    drawn = Drawn()
    card, problems = build_card(loaded, source, item)
    findings = list(problems)
    game = loaded.game
    if card is not None and loaded.card_set is not None and game is not None:
        card_set = _with_card(loaded.card_set, card, loaded)
        findings += _rule_findings(loaded, card_set, card.id)
        localizer = session.localizer(locale)
        if localizer.is_source:
            findings += [f for f in check_locale(_only(card_set, card), game, locale,
                                                 layout=False, localizer=localizer)
                         if f.card == card.id]
        if game.faces is not None:
            try:
                faces = lay_out_cards(card_set, game, localizer, BLEED_MM, cards=[card])
            except TemplateError as exc:
                findings.append(error("template-error", str(exc), exc.location or
                                      Location(game.name), card.id, locale))
            else:
                findings += faces.findings
                sides = [(side, faces.layouts[table[card.id]])
                         for side, table in (("front", faces.fronts), ("back", faces.backs))
                         if card.id in table]
                drawn.faces = faces_of(sides, pictures)
                render_pictures({f.picture: layout for f, (_, layout)
                                 in zip(drawn.faces, sides, strict=True)}, BLEED_MM, pictures,
                                compress=False)
    drawn.findings = sorted(set(findings), key=lambda f: (*sort_key(f), f.message))
    drawn.fields = link_fields(drawn.findings, source, {*item, *source.data, *names})
    return drawn


def link_fields(findings: list[Finding], source: CardSource, names: Collection[str]
                ) -> dict[int, str]:
    """The field each finding concerns: the one written where it points, else the first field
    of the card its message quotes ('points' is 0 ...)."""
    at = {where: name for name, where in source.fields.items()}
    linked: dict[int, str] = {}
    for index, finding in enumerate(findings):
        name = at.get(finding.location)
        if name is None:
            quoted = [q for q in _QUOTED_FIELD.findall(finding.message) if q in names]
            name = quoted[0] if quoted else None
        if name is not None:
            linked[index] = name
    return linked
