"""Checks of a data game that are not rules of the game: art files and decks.

Art problems are findings on the card field that named the file (or on the template element
for a fixed path such as a logo on a shared back); art printed below 300 dpi at the size its
box gives it is a warning there. Decks are checked against ``deck:`` of game.yaml: size, copies
per card, then the deck's CEL rules.
"""

from __future__ import annotations

import re
from typing import Any

from generator.core.findings import Finding, did_you_mean, error, warning
from generator.core.location import Location
from generator.datagame.cards import DataCard
from generator.datagame.rules import eval_failure, involved, named_cards, too_costly
from generator.datagame.templates import color_props, is_color, missing_icon
from generator.layout.engine import PLACEHOLDER, art_roots, substitute, visible
from generator.load import art
from generator.model.cards import CardSet
from generator.model.deck import Deck
from generator.rules.cel import plain

_TOKEN = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}")  # an inline icon in running text


def _art_problem(roots, src: str) -> tuple[art.ArtInfo | None, art.ArtProblem | None]:
    try:
        return art.art_info(art.resolve_first(roots, src)), None
    except art.ArtProblem as problem:
        return None, problem
    except OSError as exc:
        return None, art.ArtProblem("art-unreadable", f"'{src}' cannot be read ({exc})")


def art_findings(definition, card_set: CardSet) -> list[Finding]:
    """Every art file a card names or a template places, and every colour a template takes
    from a card field, checked once per use."""
    findings: dict[tuple[str, Location], Finding] = {}

    def report(code: str, message: str, where: Location, card: str | None,
               warn: bool = False) -> None:
        make = warning if warn else error
        findings.setdefault((code, where), make(code, message, where, card))

    dependent = {name: _card_dependent(t) for name, t in definition.templates.items()}
    for card in card_set.cards:
        if not isinstance(card, DataCard) or card.kind not in definition.kinds:
            continue
        kind = definition.kinds[card.kind]
        card_root = card_set.pack_of(card).root
        for name in kind.images:
            value = card.fields.get(name)
            if isinstance(value, str):
                _, problem = _art_problem((card_root, definition.root), value)
                if problem is not None:
                    report(problem.code, problem.message, card.source.of(name), card.id)
        _icon_findings(definition, card, kind, report)
        values: dict[str, object] = {name: None for name in kind.fields}
        values.update(card.fields)
        condition = None
        for template_name in (kind.front, kind.back):
            template = definition.templates.get(template_name)
            if template is None:
                continue
            for element in dependent[template_name]:
                if card.unsound and _reads_unsound(element, card.unsound):
                    continue  # (the card failed its schema in a field this element prints)
                condition = condition or definition.condition_for(card)
                if not visible(element, values, condition):
                    continue
                _element_colors(definition, template, element, card, values, report)
                if element.type == "image":
                    _element_art(definition, template, element, card, values, report,
                                 card_root)
    return list(findings.values())


def _icon_findings(definition, card: DataCard, kind, report) -> None:
    """``{icon-fire}`` in a card's text needs ``icons/fire.svg``; found here rather than when a
    sheet is drawn, so ``pnp validate`` reports it on the card's field."""
    icons = sorted(f"{{icon-{name}}}" for name in definition.icons)
    for name, value in card.fields.items():
        if name in kind.images or not isinstance(value, str) or "{" not in value:
            continue
        for token in _TOKEN.findall(value):
            if token.startswith("icon-") and token[5:] in definition.icons:
                continue
            if token.startswith("icon-"):
                why, hint = missing_icon(token[5:], definition.root, definition.icons)
                report("unknown-icon", f"'{{{token}}}' in {name} is not an icon of this game "
                       f"({why}){hint}", card.source.of(name), card.id)
                continue
            report("unknown-icon", f"'{{{token}}}' in {name} is not an icon of this game"
                   f"{did_you_mean(f'{{{token}}}', icons)}", card.source.of(name), card.id)


def _reads_unsound(element, unsound: frozenset[str]) -> bool:
    """Whether a template element reads, in a placeholder or a condition, one of ``unsound``
    (fields that failed the card's schema: nothing it prints from them can be checked)."""
    text = " ".join(str(value) for value in element.props.values())
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in unsound)


def _card_dependent(template) -> tuple:
    """Elements whose check depends on the card: images and colours with placeholders."""
    return tuple(e for e in template.elements
                 if e.type == "image" or any("{" in str(c) for _, c in color_props(e)))


def _element_colors(definition, template, element, card: DataCard,
                    values: dict[str, object], report) -> None:
    """A colour read from a card field (``fill: "{school}"``) must name a palette colour."""
    for _, color in color_props(element):
        raw = str(color)
        if "{" not in raw:
            continue
        filled = substitute(raw, values)
        if filled == "" or is_color(filled, definition.palette):
            continue
        single = PLACEHOLDER.fullmatch(raw)
        where = card.source.of(single.group(1)) if single else card.source.location
        line = f" (line {element.location.line})" if element.location else ""
        report("unknown-colour", f"colour '{raw}' of {template.file}{line} is '{filled}' on "
               f"this card, which is not in the palette; the palette has: "
               f"{', '.join(sorted(definition.palette))}", where, card.id)


def _element_art(definition, template, element, card: DataCard, values: dict[str, object],
                 report, card_root) -> None:
    raw = str(element.get("src", ""))
    single = PLACEHOLDER.fullmatch(raw)
    if single is None and "{" not in raw:
        where, owner = element.location or Location(template.file), None
    else:
        where = card.source.of(single.group(1)) if single else card.source.location
        owner = card.id
    if single and values.get(single.group(1)) is None:
        return  # an optional art field left out: nothing to draw
    src = substitute(raw, values)
    info, problem = _art_problem(art_roots(raw, definition.root, card_root), src)
    if problem is not None:
        report(problem.code, problem.message, where, owner)
        return
    assert info is not None
    _, _, w, h = art.placement(info, element.box, str(element.get("fit", "cover")))
    dpi = art.printed_dpi(info, w, h)
    if dpi is not None and dpi < art.MIN_DPI:
        report("art-low-dpi", f"'{src}' prints at {dpi:.0f} dpi in its "
               f"{element.box[2]:g} x {element.box[3]:g} mm box; "
               f"{art.MIN_DPI:.0f} dpi or more prints sharp", where, owner, warn=True)


def deck_findings(definition, deck: Deck, card_set: CardSet) -> list[Finding]:
    rules = definition.deck
    findings: list[Finding] = []
    document = deck.document
    cards_key = document.where_key(("cards",)) if document is not None else Location(deck.file)
    total = deck.total
    if (rules.min_size is not None and total < rules.min_size) or \
            (rules.max_size is not None and total > rules.max_size):
        wanted = (f"exactly {rules.min_size}" if rules.min_size == rules.max_size else
                  f"{rules.min_size if rules.min_size is not None else 0} to "
                  f"{rules.max_size if rules.max_size is not None else 'any number of'}")
        findings.append(error("deck-size", f"the deck holds {total} cards; the game allows "
                              f"{wanted}", cards_key))
    if rules.max_copies is not None:
        copies: dict[str, int] = {}
        for entry in deck.entries:
            copies[entry.card.id] = copies.get(entry.card.id, 0) + entry.count
            if copies[entry.card.id] > rules.max_copies:
                findings.append(error("deck-max-copies", f"{copies[entry.card.id]} copies of "
                                      f"'{entry.card.id}'; at most {rules.max_copies} of a "
                                      "card per deck", entry.location, entry.card.id))
    if rules.rules:
        findings += _deck_rules(rules.rules, deck, card_set, cards_key)
    return findings


def _deck_rules(rules, deck: Deck, card_set: CardSet, where: Location) -> list[Finding]:
    entries = [(e.card.id, {"card": plain(getattr(e.card, "fields", {})), "count": e.count})
               for e in deck.entries]
    bindings: dict[str, Any] = {"deck": [value for _, value in entries]}
    findings: list[Finding] = []
    for rule in rules:
        sizes = {"deck": len(entries), "cards": len(card_set.cards)}
        costly = too_costly(rule, sizes)
        if costly is not None:
            findings.append(costly)
            continue
        if "cards" in rule.reads.names and "cards" not in bindings:
            bindings["cards"] = [plain(getattr(c, "fields", {})) for c in card_set.cards]
        value = rule.expression.evaluate(bindings)
        if value is True:
            continue
        if not isinstance(value, bool):
            findings.append(eval_failure(rule, [("", value)]))
            continue
        ids = involved(rule, "deck", entries, bindings)
        text = f"{rule.text()}; {named_cards(ids)}" if ids else rule.text()
        findings.append(rule.finding(text, where))
    return findings
