"""Cross-checks between the cards and the engine's own play rules (playrules.py).

They ask whether the deck plays: every weapon has cards to fire, every card has a ship to play it
and something to act on, every attack has an answer, every ship can be sunk, and the printed
Action Card Summary covers every card. All of it is read from the same tables the summary card is
printed from, so the validator and the printed card cannot disagree. Most of these are warnings:
such a deck breaks no rule, it only plays badly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from generator.core.findings import Finding
from generator.core.location import Location
from generator.games.cwnb.model import Action
from generator.games.cwnb.playrules import (
    ACTION_CATEGORY,
    AIR_DEFENSE_RATING,
    ARMOR_REDUCTION,
    ARMORED_TYPES,
    ASW_EVASION,
    ASW_EVASION_TRAITS,
    ATTACK_CARD_SIZE,
    PLATFORM_FIELD,
    SINKS_ON_HIT,
    SIZE_FIELD,
    SIZES,
    Attack,
    can_fire,
    summary_rows,
)
from generator.games.cwnb.rules.deck import Deck, is_deck
from generator.games.cwnb.rules.registry import E, W, check
from generator.model.cards import CardSet

PLATFORM_NO_CARD = check("cwnb-platform-no-card", "cross", W, "7.11, 7.12, 7.13, 12.8",
                         "every weapon platform has attack cards it can fire")
PLATFORM_ONLY_12_8 = check("cwnb-platform-only-12-8", "cross", W, "7.11, 7.12, 12.8",
                           "a platform has cards of its own size, not only smaller ones")
CARD_NO_USER = check("cwnb-card-no-user", "cross", W, "7.11, 7.12, 7.13, 9.4, 12.8",
                     "every attack card (and crew efficiency) has a ship that can play it")
CARD_ONLY_12_8 = check("cwnb-card-only-12-8", "cross", W, "7.11, 7.12, 12.8",
                       "an attack card has a platform of its own size, not only larger ones")
CARD_NO_TARGET = check("cwnb-card-no-target", "cross", W, "7.14, 8.31-8.34, 9.3",
                       "every defense card answers some attack the deck can launch")
NO_DEFENSE = check("cwnb-attack-no-defense", "cross", W, "7.11-7.16, 7.2, 8.31-8.34, 12.1",
                   "every attack the deck can launch has the defense the rules give it")
UNSINKABLE = check("cwnb-unsinkable", "cross", W, "5.24, 7.1, 7.2, 7.13-7.16, 12.6",
                   "every ship can be sunk by some attack of the deck")
DAMAGE_EXCEEDS = check("cwnb-damage-exceeds-hits", "cross", W, "7.1",
                       "no damage value above the largest Hits to Sink in the deck")
DAMAGE_BY_SIZE = check("cwnb-damage-not-by-size", "cross", E, "12.8",
                       "smaller gun calibers and missile classes do no more damage than larger")
SUMMARY = check("cwnb-summary-missing", "cross", E, "6",
                "the printed Action Card Summary lists every attack and defense card kind")
SUMMARY_ANSWERS = check("cwnb-summary-answers", "cross", E, "6, 7.11-7.16, 7.2, 8.31-8.34, 12.9",
                        "the printed summary answers each attack of the deck exactly as the "
                        "engine does")


def _platforms(deck: Deck) -> Iterator[Finding]:
    for ship in deck.ships:
        for kind, field in PLATFORM_FIELD.items():
            sizes = deck.card_sizes[kind]
            for platform in dict.fromkeys(getattr(ship, field)):
                if platform in sizes:
                    continue
                smaller = sorted(s for s in sizes
                                 if can_fire(kind, platform, s, attack_opportunities=True))
                if smaller:
                    yield PLATFORM_ONLY_12_8(
                        f"no {platform} {kind} card in the deck; this platform fires only "
                        f"{', '.join(smaller)} cards, under rule 12.8", ship.source.of(field),
                        ship.id)
                else:
                    yield PLATFORM_NO_CARD(f"no {kind} card in the deck that a {platform} "
                                           "platform can fire", ship.source.of(field), ship.id)
        if ship.is_submarine and not deck.actions_of("torpedo"):
            yield PLATFORM_NO_CARD("a submarine fires torpedo cards, and the deck has none",
                                   ship.source.of("type"), ship.id, rule="7.13")


def _card_users(deck: Deck) -> Iterator[Finding]:
    for kind in PLATFORM_FIELD:
        platforms = deck.platform_sizes[kind]
        for card, size in deck.sized_cards(kind):
            if size in platforms:
                continue
            bigger = sorted(p for p in platforms
                            if can_fire(kind, p, size, attack_opportunities=True))
            where = card.source.of(SIZE_FIELD[kind])
            if bigger:
                yield CARD_ONLY_12_8(f"no ship has a {size} {kind} platform; only "
                                     f"{', '.join(bigger)} platforms fire it, under rule 12.8",
                                     where, card.id)
            else:
                yield CARD_NO_USER(f"no ship has a {kind} platform that can fire a {size} card",
                                   where, card.id)
    needs = (("torpedo", deck.submarines, "no submarine in the deck to fire it", "7.13"),
             ("crew_efficiency", tuple(s for s in deck.ships if s.is_carrier),
              "no carrier in the deck to use it", "9.4"))
    for kind, users, why, rule in needs:
        if not users:
            for card in deck.actions_of(kind):
                yield CARD_NO_USER(why, card.source.of("action"), card.id, rule=rule)


def _label(key: str) -> str:
    return key.replace("_", " ")


def _defense_targets(deck: Deck) -> Iterator[Finding]:
    answered = {kind for attack in deck.attacks for kind in attack.countered_by}
    answering = {kind for attack in summary_rows() for kind in attack.countered_by}
    for card in deck.actions:
        if card.action in answering and card.action not in answered:
            yield CARD_NO_TARGET(f"no attack that a {_label(card.action)} card answers can be "
                                 "launched with this deck", card.source.of("action"), card.id)


def _attack_location(deck: Deck, attack: Attack) -> tuple[Location, str | None]:
    """The card that lets the deck launch ``attack`` (of the size it needs), or its launcher."""
    if attack.needs_card:
        size = ATTACK_CARD_SIZE.get(attack.key)
        cards = deck.actions_of(attack.needs_card)
        card = next((c for c in cards if size in (c.caliber, c.missile_class)), cards[0])
        return card.source.of("action"), card.id
    launchers = deck.strike_carriers if attack.fired_by == "carrier" else deck.submarines
    field = "air_strike" if attack.fired_by == "carrier" else "type"
    return launchers[0].source.of(field), launchers[0].id


def _defenses(deck: Deck) -> Iterator[Finding]:
    present = set(deck.action_kinds) | ({AIR_DEFENSE_RATING} if deck.has_air_defense else set())
    reported: set[tuple[Location, tuple[str, ...]]] = set()
    for attack in deck.attacks:
        specific = tuple(k for k in attack.countered_by if k != "damage_control")
        wanted = specific or attack.countered_by
        if present.intersection(wanted):
            continue
        where, card = _attack_location(deck, attack)
        if (where, wanted) in reported:
            continue
        reported.add((where, wanted))
        yield NO_DEFENSE(f"the deck can launch {_label(attack.key)} attacks but holds nothing "
                         f"of {', '.join(_label(k) for k in wanted)} to answer them", where,
                         card, rule=attack.rule)


def _has_user(deck: Deck, card: Action) -> bool:
    if card.action == "torpedo":
        return bool(deck.submarines)
    if card.action not in PLATFORM_FIELD:
        return True
    size = getattr(card, SIZE_FIELD[card.action])
    return any(can_fire(card.action, p, size, attack_opportunities=True)
               for p in deck.platform_sizes[card.action])


def _best_hull_damage(deck: Deck) -> int:
    """The largest damage value of a card that some ship of the deck can fire at a surface
    ship (0 if none): a surface ship is sinkable by damage if this beats its armour."""
    kinds = {a.needs_card for a in deck.attacks if a.needs_card in ("gun", "missile", "torpedo")
             and any(row > 0 for row in a.target_rows)}
    return max((card.damage or 0 for kind in kinds for card in deck.actions_of(kind)
                if _has_user(deck, card)), default=0)


def _best_asw_chance(deck: Deck) -> int:
    """The best chance of any ASW card against a submarine, before traits and carriers."""
    return max((max(c.chance_vs_active or 0, c.chance_vs_passive or 0)
                for c in deck.actions_of("asw")), default=0)


def _sinkable(deck: Deck) -> Iterator[Finding]:
    """Whether some attack of the deck can ever sink each ship (not how likely that is)."""
    torpedoes = bool(deck.actions_of("torpedo") and deck.submarines)  # 7.13: damage vs active
    asw = _best_asw_chance(deck) if deck.actions_of("asw") else None
    air = any(a.key in SINKS_ON_HIT for a in deck.attacks)
    hull = _best_hull_damage(deck)
    for ship in deck.ships:
        if ship.is_submarine:
            evasion = ASW_EVASION if ASW_EVASION_TRAITS.intersection(ship.traits) else 0
            sinkable = torpedoes or (asw is not None
                                     and asw - evasion + deck.best_carrier_rating >= 1)
        else:
            armor = ARMOR_REDUCTION if ship.type in ARMORED_TYPES else 0
            sinkable = air or hull - armor >= 1
        if not sinkable:
            what = "torpedo or ASW card" if ship.is_submarine else "attack"
            yield UNSINKABLE(f"no {what} in the deck can sink this {ship.type}",
                             ship.source.of("hits_to_sink"), ship.id)


def _damage(deck: Deck) -> Iterator[Finding]:
    most = max((s.hits_to_sink for s in deck.ships), default=0)
    for card in deck.actions:
        if card.damage is not None and card.damage > most:
            yield DAMAGE_EXCEEDS(f"damage {card.damage} exceeds the largest Hits to Sink in the "
                                 f"deck ({most})", card.source.of("damage"), card.id)
    yield from _damage_by_size(deck)


def _damage_by_size(deck: Deck) -> Iterator[Finding]:
    """Rule 12.8: a lesser gun caliber or missile class does less damage than a larger one.
    A pair that breaks it is reported once, on the card of the later pack (an expansion's new
    card, not the base card it contradicts); within one pack, on the smaller card."""
    pack_order = {pack: index for index, pack in enumerate(dict.fromkeys(
        card.pack for card in deck.actions))}
    for kind, order in SIZES.items():
        sized = [(c, s) for c, s in deck.sized_cards(kind) if c.damage is not None]
        # per size, the cards of least and of most damage (the first one in deck order)
        weakest: dict[str, Action] = {}
        strongest: dict[str, Action] = {}
        for card, size in sized:
            if size not in weakest or card.damage < weakest[size].damage:
                weakest[size] = card
            if size not in strongest or card.damage > strongest[size].damage:
                strongest[size] = card
        reported: set[str] = set()
        for card, size in sized:
            at = order.index(size)
            pairs = [(card, weakest[s]) for s in order[at + 1:] if s in weakest
                     and weakest[s].damage < card.damage]
            pairs += [(strongest[s], card) for s in order[:at] if s in strongest
                      and strongest[s].damage > card.damage]
            for smaller, larger in pairs:
                later = (larger if pack_order[larger.pack] > pack_order[smaller.pack]
                         else smaller)
                if later is not card or card.id in reported:
                    continue
                reported.add(card.id)
                other = larger if later is smaller else smaller
                osize = getattr(other, SIZE_FIELD[kind])
                relation = "larger" if later is smaller else "smaller"
                yield DAMAGE_BY_SIZE(f"a {size} {kind} card does {card.damage} damage, but the "
                                     f"{relation} {osize} card '{other.id}' of pack "
                                     f"'{other.pack}' does {other.damage}: lesser sizes do "
                                     "less damage", card.source.of("damage"), card.id)


def summary_gaps(deck: Deck, rows: Sequence[Attack] | None = None) -> Iterator[Finding]:
    """Where the printed Action Card Summary (``rows``, what the summary widget prints) and the
    engine's attack table disagree for this deck: a card kind it leaves out, or an attack the
    deck can launch that it answers otherwise than the engine (rule 6 makes the summary the
    players' reference for which defense counters which attack)."""
    rows = summary_rows() if rows is None else rows
    attacks = {row.needs_card for row in rows}
    answers = {kind for row in rows for kind in row.countered_by}
    for kind in sorted(deck.action_kinds):
        category = ACTION_CATEGORY.get(kind)
        card = deck.actions_of(kind)[0]
        if category in ("attack", "asw") and kind not in attacks:
            yield SUMMARY(f"the Action Card Summary has no row for {_label(kind)} attacks",
                          card.source.of("action"), card.id)
        if category in ("defense", "asw") and kind not in answers:
            yield SUMMARY(f"the Action Card Summary never lists {_label(kind)} as an answer",
                          card.source.of("action"), card.id)
    printed = {(row.needs_card, frozenset(row.countered_by)) for row in rows}
    for attack in deck.attacks:
        if attack.needs_card is not None and attack.needs_card not in attacks:
            continue  # reported above, for the card kind
        if (attack.needs_card, frozenset(attack.countered_by)) in printed:
            continue
        where, card = _attack_location(deck, attack)
        engine = ", ".join(_label(k) for k in attack.countered_by)
        yield SUMMARY_ANSWERS(f"the Action Card Summary prints no row that answers "
                              f"{_label(attack.key)} attacks with exactly {engine}, as the "
                              "engine does", where, card, rule=f"6, {attack.rule}")


def check_cross(card_set: CardSet) -> list[Finding]:
    """Cross-checks of a base game, alone or with its expansions (skipped for fragments)."""
    if not is_deck(card_set):
        return []
    deck = Deck.of(card_set)
    return [*_platforms(deck), *_card_users(deck), *_defense_targets(deck), *_defenses(deck),
            *_sinkable(deck), *_damage(deck), *summary_gaps(deck)]
