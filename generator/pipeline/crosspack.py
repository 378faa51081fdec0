"""Checks every game gets for free: a base pack and the expansions loaded with it (``--with``).

An expansion's cards are shuffled, dealt and drawn together with the base game's, so besides
naming the right game they must be physically the same cards: the same size, and, on the side
that a face-down pile shows, the same design; otherwise a player can tell a drawn card from the
back, and blind draws are broken (Cold War Naval Battles' Russian edition insists that backs be
"strictly identical", seed 000:25). They also need ids and marks of their own, and a card name
should denote one card, since deck rules count cards by name.

Everything here works on the generic :class:`~generator.model.cards.CardSet` and
:class:`~generator.model.game.Game` (card kinds, their sizes and their face templates), so games
defined in data get the same checks as the built-in ones. ``CHECKS`` lists every code, and
docs/rules-generic.md documents each one (a test keeps the two equal).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from msgspec import Struct
from msgspec.structs import replace

from generator.core.findings import Finding
from generator.core.location import Location
from generator.model.cards import Card, CardSet, CardSize, Manifest, Pack
from generator.model.game import Game
from generator.rules.rulebook import E, Rulebook, W

#: sizes closer than this are the same card size (a named size against its millimetres)
SIZE_TOLERANCE_MM = 0.05

RULEBOOK = Rulebook("", lambda rule: "")
CHECKS = RULEBOOK.checks
check = RULEBOOK.check

DUPLICATE_ID = check("duplicate-id", "cross-pack", E, "DESIGN: card data contract",
                     "card ids are unique across the base pack and every expansion")
NOT_AN_EXPANSION = check("not-an-expansion", "cross-pack", E, "DESIGN: card data contract",
                         "a pack loaded with --with names the base pack in `extends:`")
WRONG_GAME = check("wrong-game", "cross-pack", E, "DESIGN: card data contract",
                   "an expansion is for the same game as its base")
SET_MARK = check("expansion-set-mark", "cross-pack", E, "DESIGN: card data contract",
                 "each expansion has a set mark of its own, not the base's nor another's, "
                 "compared by what it prints (drawing, or the letters in its ring)")
WITHOUT_BASE = check("expansion-without-base", "pack", W, "DESIGN: rules engine",
                     "an expansion validated alone: deck and cross-checks need its base game")
CARD_SIZE = check("expansion-card-size", "cross-pack", E, "physical: shuffled together",
                  "an expansion's cards of a kind have the size of the base's cards of that "
                  "kind")
COMMON_FACE = check("expansion-back-differs", "cross-pack", E, "physical: drawn blind",
                    "the side every base card of a kind shares (its back) looks the same on "
                    "the expansion's cards of that kind")
NAME_REUSED = check("name-reused-across-packs", "cross-pack", W, "decks count by name",
                    "a card name of one pack names no different card of the same kind in "
                    "another loaded pack")


class LoadedPack(Struct, frozen=True):
    """One pack as the cross-pack checks see it: the pack and the game its cards were built by
    (an expansion of a game defined in data may bring kinds of its own)."""

    pack: Pack
    game: Game

    @property
    def manifest(self) -> Manifest:
        return self.pack.manifest


# --- ids, games and marks ---------------------------------------------------------------------

def expansion_fits(base: Manifest, expansion: Manifest) -> Iterator[Finding]:
    """A pack given with --with extends this base and is for the same game."""
    if expansion.extends != base.pack:
        extends = (f"extends {expansion.extends!r}" if expansion.extends
                   else "has no extends:")
        yield NOT_AN_EXPANSION(f"pack '{expansion.pack}' is loaded with '{base.pack}' but its "
                               f"game.yaml {extends}", expansion.location)
    if expansion.game != base.game:
        yield WRONG_GAME(f"pack '{expansion.pack}' is for game '{expansion.game}', not "
                         f"'{base.game}'", expansion.location)


def lone_expansion(base: LoadedPack, base_path: str) -> Iterator[Finding]:
    """An expansion validated on its own: its cards are checked, but not the deck they join."""
    manifest = base.manifest
    if manifest.extends is not None:
        yield WITHOUT_BASE(
            f"pack '{manifest.pack}' extends '{manifest.extends}'; deck composition and "
            f"cross-checks need the base game: pnp validate <{manifest.extends} pack> --with "
            f"{base_path}", manifest.where("extends"))


def set_marks(base: LoadedPack, expansions: tuple[LoadedPack, ...]) -> Iterator[Finding]:
    """Each expansion has a set mark of its own, so that its cards can be sorted back out of the
    combined deck; in particular it never reuses the base game's mark (the CWNB anchor). Marks
    are compared by what they print (rule 2 of CWNB sorts cards by the symbol a player sees):
    two marks of different names print alike when they name the same drawing, or when both are
    lettered rings with the same letters (the label, else the name's first letter)."""
    if not expansions:
        return
    # the layout package is imported only when an expansion is loaded: a lone pack never
    # compares marks, and ``pnp validate PACK`` keeps its start-up time
    from generator.layout.symbols import shown_mark

    art_root = base.game.art_folder()

    def shown(manifest: Manifest) -> tuple[str, str]:
        return shown_mark(art_root, manifest.set_mark, manifest.set_mark_label)

    owners = {base.manifest.set_mark: base.manifest.pack}
    printed = {shown(base.manifest): base.manifest}
    for loaded in expansions:
        manifest = loaded.manifest
        owner = owners.setdefault(manifest.set_mark, manifest.pack)
        if owner != manifest.pack:
            yield SET_MARK(f"expansion '{manifest.pack}' uses set_mark '{manifest.set_mark}', "
                           f"which is the mark of pack '{owner}'; an expansion needs a mark of "
                           "its own so that its cards can be told apart",
                           manifest.where("set_mark"))
            continue
        look = shown(manifest)
        other = printed.setdefault(look, manifest)
        if other is not manifest:
            what = ("the same drawing" if look[0] == "drawing"
                    else f"a ring with the letters '{look[1]}'")
            labelled = look[0] == "ring" and manifest.set_mark_label
            yield SET_MARK(f"expansion '{manifest.pack}' (set_mark '{manifest.set_mark}') "
                           f"prints {what}, as pack '{other.pack}' (set_mark "
                           f"'{other.set_mark}') does: the two sets cannot be sorted apart by "
                           "the mark on their cards; give it a mark that prints otherwise",
                           manifest.where("set_mark_label" if labelled else "set_mark"))


def unique_ids(card_set: CardSet) -> Iterator[Finding]:
    """Ids are unique across a base game and every expansion loaded with it (the loader
    reports a repeat inside one pack)."""
    seen: dict[str, Location] = {}
    for pack in card_set.packs:
        for card in pack.cards:
            first = seen.setdefault(card.id, card.source.of("id"))
            if first.file != card.source.location.file:
                yield DUPLICATE_ID(f"card id '{card.id}' is already used at {first}",
                                   card.source.of("id"), card.id)


# --- physical consistency: size ---------------------------------------------------------------

def _size_text(size: CardSize) -> str:
    named = f"{size.name} " if size.name != "custom" else ""
    return f"{named}{size.width_mm:g} x {size.height_mm:g} mm"


def _same_size(one: CardSize, other: CardSize) -> bool:
    return (abs(one.width_mm - other.width_mm) <= SIZE_TOLERANCE_MM
            and abs(one.height_mm - other.height_mm) <= SIZE_TOLERANCE_MM)


def kind_size(game: Game, kind: str, pack_size: CardSize) -> CardSize:
    """The printed size of a ``kind`` card of a pack whose game.yaml says ``pack_size``."""
    card_kind = game.kinds.get(kind)
    return card_kind.size if card_kind is not None and card_kind.size is not None else pack_size


def card_sizes(base: LoadedPack, expansions: tuple[LoadedPack, ...]) -> Iterator[Finding]:
    """An expansion's cards of each kind have the size the base gives that kind: they are
    shuffled into the same decks (a kind the base lacks is compared with the base's card_size,
    since the build prints the whole set at the base's sizes). One finding per expansion and
    size mismatch, naming the kinds it concerns."""
    for loaded in expansions:
        wrong: dict[tuple[CardSize, CardSize], list[str]] = {}
        seen: set[str] = set()
        for card in loaded.pack.cards:
            if card.kind in seen:
                continue
            seen.add(card.kind)
            mine = kind_size(loaded.game, card.kind, loaded.manifest.card_size)
            theirs = kind_size(base.game, card.kind, base.manifest.card_size)
            if not _same_size(mine, theirs):
                wrong.setdefault((mine, theirs), []).append(card.kind)
        for (mine, theirs), kinds in wrong.items():
            what = ", ".join(kinds)
            yield CARD_SIZE(f"the {what} cards of expansion '{loaded.manifest.pack}' are "
                            f"{_size_text(mine)}, but the {what} cards of "
                            f"'{base.manifest.pack}' they are shuffled with are "
                            f"{_size_text(theirs)}; give card_size as the base does",
                            loaded.manifest.where("card_size"))


# --- physical consistency: the shared side ----------------------------------------------------

Design = tuple[float, float, tuple[object, ...]]


class Face(Struct, frozen=True):
    """One side of one card as printed: its template, whether the template is the same drawing
    for every card (``shared: true``), and the laid-out drawing itself."""

    template: str
    shared: bool
    design: Design


Sides = Mapping[str, Face]  # card id -> the face it prints on one side


class FaceDesigns(Struct, frozen=True):
    """What each card prints on each side, laid out in one locale: (template, design)."""

    front: Sides
    back: Sides

    def side(self, name: str) -> Sides:
        return self.front if name == "front" else self.back


def lay_out_designs(card_set: CardSet, game: Game) -> FaceDesigns | None:
    """Lay out both sides of every card of ``card_set`` as the build would (the base's source
    locale, no bleed); None when the game draws no faces or a template cannot be laid out
    (the build reports that)."""
    if game.faces is None:
        return None
    from generator.i18n.localize import source_localizer
    from generator.layout.faces import SHARED_FACE, lay_out_cards
    from generator.model.template import TemplateError

    localizer = source_localizer(game.name, card_set.base.manifest.source_locale)
    try:
        faces = lay_out_cards(card_set, game, localizer, bleed_mm=0.0)
    except TemplateError:
        return None
    laid_out = {key: Face(key[0], key[1] == SHARED_FACE,
                          (layout.width_mm, layout.height_mm, tuple(layout.ops)))
                for key, layout in faces.layouts.items()}
    return FaceDesigns(front={cid: laid_out[key] for cid, key in faces.fronts.items()},
                       back={cid: laid_out[key] for cid, key in faces.backs.items()})


def _common_side(cards: list[Card], designs: FaceDesigns, side: str) -> Face | None:
    """The face ``side`` shows on every one of ``cards``, if that side is the kind's common
    side: the same on all of them while the other side tells them apart (or a template that
    declares itself shared by every card). A kind whose cards differ on both sides (CWNB
    ships: passive, crippled and logo backs) is played face up and has no common side."""
    shown = {designs.side(side)[card.id].design for card in cards}
    if len(shown) != 1:
        return None
    face = designs.side(side)[cards[0].id]
    other = "back" if side == "front" else "front"
    others = {designs.side(other)[card.id].design for card in cards}
    return face if face.shared or len(others) > 1 else None


def common_faces(card_set: CardSet, game: Game) -> Iterator[Finding]:
    """On the side that every base card of a kind shares (a face-down pile's back; for CWNB
    player order cards, the summary side others see), the expansion's cards of that kind
    print exactly the same design, so nobody can tell a card from that side."""
    kinds = {card.kind for pack in card_set.expansions for card in pack.cards}
    kinds &= {card.kind for card in card_set.base.cards}
    if not kinds:
        return
    # the base game alone tells which kinds have a common side; the expansions' cards (maybe
    # tens of thousands) are laid out only for those kinds (none for CWNB ships)
    base_designs = lay_out_designs(CardSet(base=_only(card_set.base, kinds)), game)
    if base_designs is None:
        return
    commons: dict[tuple[str, str], Face] = {}
    for kind in sorted(kinds):
        base_cards = [card for card in card_set.base.cards if card.kind == kind]
        for side in ("back", "front"):
            common = _common_side(base_cards, base_designs, side)
            if common is not None:
                commons[(kind, side)] = common
    needed = {kind for kind, _ in commons}
    if not needed:
        return
    subset = CardSet(base=_only(card_set.base, needed),
                     expansions=tuple(_only(pack, needed) for pack in card_set.expansions))
    designs = lay_out_designs(subset, game)
    if designs is None:
        return
    for (kind, side), common in commons.items():
        yield from _differing(subset, kind, side, common, designs)


def _only(pack: Pack, kinds: set[str]) -> Pack:
    return replace(pack, cards=tuple(card for card in pack.cards if card.kind in kinds))


def _differing(card_set: CardSet, kind: str, side: str, common: Face,
               designs: FaceDesigns) -> Iterator[Finding]:
    for pack in card_set.expansions:
        odd = [card for card in pack.cards if card.kind == kind
               and designs.side(side)[card.id].design != common.design]
        if not odd:
            continue
        first = odd[0]
        theirs = designs.side(side)[first.id].template
        template = common.template
        why = (f"it prints template '{theirs}' where the base's cards print '{template}'"
               if theirs != template else
               f"template '{template}' prints something of the card or of its pack there, "
               "such as its set mark")
        more = f" (and {len(odd) - 1} more {kind} card(s) of this pack)" if len(odd) > 1 else ""
        yield COMMON_FACE(f"the {side} of this {kind} card differs from the {side} that every "
                          f"{kind} card of '{card_set.base.manifest.pack}' shares: {why}; "
                          f"cards drawn blind must look alike from that side{more}",
                          first.source.location, first.id)


# --- names ------------------------------------------------------------------------------------

def card_name(card: Card) -> str | None:
    """The card's name field, if its kind has one (a data kind answers from its fields), case
    and spacing aside."""
    name = getattr(card, "name", None)
    return " ".join(name.casefold().split()) if isinstance(name, str) and name.strip() else None


def reused_names(card_set: CardSet) -> Iterator[Finding]:
    """A name that one pack gives to one card and another loaded pack to a different card of
    the same kind: players, and deck rules that count copies by name, cannot tell them apart.
    A reprint (the same card again, more copies) is not reported: counting it together with
    the original is right."""
    first: dict[tuple[str, str], Card] = {}
    for pack in card_set.packs:
        for card in pack.cards:
            name = card_name(card)
            if name is None:
                continue
            owner = first.setdefault((card.kind, name), card)
            if reported_as_reused(card, owner):
                shown = getattr(card, "name", None) or name
                yield NAME_REUSED(f"{card.kind} name '{shown}' is already "
                                  f"card '{owner.id}' of pack '{owner.pack}', a different card; "
                                  "decks that count copies by name count both together: give "
                                  "this card a name of its own", card.source.of("name"), card.id)


def reported_as_reused(card: Card, owner: Card) -> bool:
    """True when ``card`` reuses ``owner``'s name in another pack for a different card."""
    return owner.pack != card.pack and owner.content() != card.content()


#: generic checks that a game's own finding on the same card and field replaces: a game that
#: counts names its own way (CWNB ships, Путь Командора's copy limit, Great War at Sea's
#: flagships) says more about a reused name than the generic check can
REFINED_BY_GAMES = frozenset({NAME_REUSED.code})


def without_refined(generic: list[Finding], games: list[Finding]) -> list[Finding]:
    """``generic`` less the findings a game's own finding on the same card and place refines."""
    places = {(f.card, f.location) for f in games}
    return [f for f in generic
            if f.code not in REFINED_BY_GAMES or (f.card, f.location) not in places]


def check_packs(base: LoadedPack, expansions: tuple[LoadedPack, ...], card_set: CardSet,
                base_path: str, ids: CardSet | None = None) -> list[Finding]:
    """Every generic check of a base pack with its expansions (and of a lone expansion);
    ``ids``: the set whose ids are compared, when it holds more cards (those that failed their
    schema, which keep their ids)."""
    findings = [*set_marks(base, expansions), *lone_expansion(base, base_path),
                *unique_ids(ids or card_set), *card_sizes(base, expansions),
                *reused_names(card_set)]
    if card_set.expansions:
        findings.extend(common_faces(card_set, base.game))
    return findings
