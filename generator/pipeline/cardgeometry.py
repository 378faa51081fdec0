"""Checks that a card's physical size and its templates agree, before anything is drawn.

A template is drawn for one card size (``size_mm``); a kind printed at another size (its own
``size:``, or the pack's ``card_size``) would be clipped (the name, the cost and half the text
cut off) or leave an empty band, and nothing in the drawing itself would say so. The rounded
corners a pack asks for must fit the card too.
"""

from __future__ import annotations

from generator.core.findings import Finding, error
from generator.core.location import Location
from generator.model.cards import CardSet, CardSize
from generator.model.game import Game
from generator.model.template import size_differs


def _size_where(card_set: CardSet, game: Game, kind: str) -> Location:
    """Where the kind's size is set: its own ``size:``, else the pack's ``card_size``."""
    own = game.kinds.get(kind)
    if own is not None and own.size is not None and own.size_location is not None:
        return own.size_location
    return card_set.base.manifest.where("card_size")


def card_geometry_findings(card_set: CardSet, game: Game) -> list[Finding]:
    """A template whose size differs from the card size of a kind it draws, and corners too
    round for the card: one error each, located where the size (or radius) is set."""
    if game.faces is None:
        return []
    default = card_set.base.manifest.card_size
    findings: list[Finding] = []
    seen: set[tuple[str, str, CardSize]] = set()
    for card in card_set.cards:
        size = game.size_of(card, default)
        if (card.kind, "", size) not in seen:
            seen.add((card.kind, "", size))
            findings += _radius_findings(card_set, game, card.kind, size)
        for side, choose in (("front", game.faces.front_template),
                             ("back", game.faces.back_template)):
            name = choose(card)
            if (card.kind, name, size) in seen:
                continue
            seen.add((card.kind, name, size))
            template = game.template(name)
            if template is None or not size_differs(template, size.width_mm, size.height_mm):
                continue
            drawn = template.size_location or Location(template.file)
            findings.append(error(
                "template-size",
                f"kind '{card.kind}' prints {size.width_mm:g} x {size.height_mm:g} mm cards, "
                f"but its {side} template '{name}' is drawn for {template.width_mm:g} x "
                f"{template.height_mm:g} mm ({drawn}): the cards would print clipped or with "
                f"an empty band. Give the template size_mm: [{size.width_mm:g}, "
                f"{size.height_mm:g}] and place its elements for that size, or print the kind "
                "at the template's size", _size_where(card_set, game, card.kind)))
    return findings


def _radius_findings(card_set: CardSet, game: Game, kind: str, size: CardSize
                     ) -> list[Finding]:
    half = min(size.width_mm, size.height_mm) / 2
    if size.corner_radius_mm <= half:
        return []
    own = game.kinds.get(kind)
    where = own.size_location if own is not None and own.corner_radius_mm is not None \
        and own.size_location is not None else \
        card_set.base.manifest.where("corner_radius_mm")
    return [error("corner-radius", f"kind '{kind}': corners of {size.corner_radius_mm:g} mm "
                  f"do not fit a {size.width_mm:g} x {size.height_mm:g} mm card (at most "
                  f"{half:g} mm)", where)]
