"""Card-level checks of what an action card's text says: a text is free, but where it names an
answer, an icon, a number or a rule, that is compared with the card's own fields and the engine.

- a counter card named: an attack card's text names as an answer only a card the engine lets
  answer one of its attacks; a defense card's text names only attacks it answers (8.31-8.34);
- an inline icon: a {gun-…} or {missile-…} icon on a gun or missile card is a platform that
  may fire the card (its own size, or a larger one under 12.8); on any other kind, none;
- a number: bound by the words beside it (:mod:`generator.rules.textfacts`) to what the rules state
  for the card's kind (Air Cover cancels 2 bomber dice, a retreat repairs 3 Damage cards, ...)
  or to the card's own damage;
- a rule number or step: one the rules of play number, for its own topic; and the step a
  special card is played in is its own (additional ship A.5, retreat A.6, crew efficiency
  B.1).

Only the pack's source text is read, in its language (en, ru); translations are the locale
checks' business.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from msgspec import Struct

from generator.core.findings import Finding
from generator.games.cwnb.model import Action
from generator.games.cwnb.playrules import (
    ACTION_CATEGORY,
    ATTACK_CARD_SIZE,
    ATTACKS,
    SIZE_FIELD,
    can_fire,
)
from generator.games.cwnb.rules.registry import Check, E, check
from generator.games.cwnb.wording import (
    ACTION_FACTS,
    ANSWER_NAMES,
    ATTACK_NAMES,
    C_MISSILE_ROWS,
    DAMAGE_WORDS,
    NEGATIONS,
    PLAY_WORDS,
    PLAYED_IN,
    RULE_NUMBERS,
    RULE_TOPICS,
    STEPS,
)
from generator.model.cards import CardSet
from generator.rules.textfacts import Fact, bind, cited_rules, exactly, names

COUNTER_NAMED = check("cwnb-text-counter", "card", E, "6, 7.11-7.16, 8.31-8.34, 12.9",
                      "an action card's text names as answers only the cards that answer its "
                      "attacks, and a defense card's only the attacks it answers")
TEXT_ICON = check("cwnb-text-icon", "card", E, "7.11, 7.12, 12.8",
                  "a gun or missile icon in a card's text is a platform that may fire the card "
                  "(its size, or a larger one under 12.8); other kinds print none")
TEXT_NUMBER = check("cwnb-text-number", "card", E,
                    "5.22, 7.1, 7.13, 7.14, 7.15, 7.16, 8.33, 9.2, 9.4, 12.7, 12.9",
                    "a number in a card's text (digits or words) is the one the rules give "
                    "for what the words beside it name, or the card's own damage")
TEXT_RULE = check("cwnb-text-rule", "card", E, "6.1, 9.1, 9.2, 9.4",
                  "a rule number or turn step cited in a card's text is one the rules number, "
                  "for its own topic, and a special card names the step it is played in")

__all__ = ["check_texts"]

#: a finding to be: the check, its message and the rule it narrows to (None: the check's own)
Problem = tuple[Check, str, str | None]


class _Read(Struct, frozen=True, gc=False):
    """What the text checks read of an action card: equal for every card of one face."""

    action: str
    caliber: str | None
    missile_class: str | None
    damage: int | None
    text: str

_ICON = re.compile(r"\{(gun|missile)-(3in|5in|16in|[abc])\}")
_STEP = re.compile(r"(?<!\w)([ABCАВС])\.(\d)(?!\w)")
_CYRILLIC_STEP = str.maketrans("АВС", "ABC")
_SENTENCE = re.compile(r"[.;!?\n](?!\d)")


def _clauses(text: str) -> list[str]:
    return [part for part in re.split(r"[.;:!?\n](?!\d)|,", text) if part.strip()]


def _negated(clause: str, language: str) -> bool:
    return any(names(clause, term) for term in NEGATIONS.get(language, ()))


@lru_cache(maxsize=64)
def _answered_by(action: str, size: str | None) -> frozenset[str]:
    """What answers the attacks a card of this kind and size launches (a C missile's include
    the cruise missile's)."""
    return frozenset(kind for attack in ATTACKS if attack.needs_card == action
                     and ATTACK_CARD_SIZE.get(attack.key) in (None, size)
                     for kind in attack.countered_by)


def _answers(card: _Read, language: str) -> Iterator[Problem]:
    category = ACTION_CATEGORY.get(card.action)
    if category in ("attack", "asw"):
        allowed = _answered_by(card.action, card.caliber or card.missile_class)
        for clause in _clauses(card.text):
            if _negated(clause, language):
                continue
            for kind, terms in ANSWER_NAMES.items():
                if kind == card.action or kind in allowed:
                    continue
                found = next((m for t in terms.get(language, ()) if (m := names(clause, t))),
                             None)
                if found is not None:
                    answers = ", ".join(sorted(k.replace("_", " ") for k in allowed))
                    yield (COUNTER_NAMED, f"the text names '{found.group(0)}' as if it "
                           f"answered this {card.action.replace('_', ' ')} card; the rules "
                           f"answer it with {answers}", _rule_of(card))
    if category in ("defense", "asw"):
        answered = {attack.key for attack in ATTACKS if card.action in attack.countered_by}
        for clause in _clauses(card.text):
            if _negated(clause, language):
                continue
            rest = clause
            for keys, terms in ATTACK_NAMES.items():
                for term in terms.get(language, ()):
                    found = names(rest, term)
                    if found is None:
                        continue
                    rest = rest[:found.start()] + " " * len(found.group(0)) + rest[found.end():]
                    if not answered.intersection(keys):
                        yield (COUNTER_NAMED, f"the text names '{found.group(0)}', which "
                               f"{card.action.replace('_', ' ')} cards do not answer",
                               _rule_of(card))


def _rule_of(card: _Read) -> str:
    return {"gun": "7.11", "missile": "7.12, 12.9", "torpedo": "7.13", "asw": "7.14, 8.34",
            "land_air_strike": "7.15", "bomber_strike": "7.16", "evasive": "8.31",
            "ecm": "8.32", "air_cover": "8.33"}.get(card.action, "6")


def _icons(card: _Read) -> Iterator[Problem]:
    for match in _ICON.finditer(card.text):
        kind, size = match.group(1), match.group(2).upper() if match.group(1) == "missile" \
            else match.group(2)
        if card.action != kind:
            yield (TEXT_ICON, f"the text prints {match.group(0)} on a "
                   f"{card.action.replace('_', ' ')} card, which no {kind} platform fires",
                   "7.11" if kind == "gun" else "7.12")
            continue
        own = getattr(card, SIZE_FIELD[kind])
        if own is not None and not can_fire(kind, size, own, attack_opportunities=True):
            yield (TEXT_ICON, f"the text prints {match.group(0)} on a {own} {kind} card: a "
                   f"{size} platform never fires a {own} card (only its own size and smaller, "
                   "12.8)", None)


def _facts(card: _Read) -> tuple[Fact, ...]:
    facts = list(ACTION_FACTS.get(card.action, ()))
    if card.action == "missile" and card.missile_class == "C":
        facts = [C_MISSILE_ROWS if fact.key == "row" else fact for fact in facts]
    if card.damage is not None:
        facts.append(Fact("damage", "this card's damage", exactly(card.damage), "7.1",
                          DAMAGE_WORDS))
    return tuple(facts)


def _numbers(card: _Read, language: str) -> Iterator[Problem]:
    for binding in bind(card.text, _facts(card), language):
        if binding.wrong:
            said = "; ".join(f"{fact.what} is {fact.shown()}" for fact in binding.facts)
            yield (TEXT_NUMBER, f"the text says '{binding.clause}': {said}",
                   ", ".join(dict.fromkeys(f.rule for f in binding.facts)))


def _rules(card: _Read, language: str) -> Iterator[Problem]:
    for citation in cited_rules(card.text, RULE_NUMBERS, RULE_TOPICS, language):
        if citation.problem is not None:
            yield TEXT_RULE, f"the text {citation.problem}", citation.expected or "Contents"
    own = PLAYED_IN.get(card.action)
    for sentence in _SENTENCE.split(card.text):
        plays = [m.end() for term in PLAY_WORDS.get(language, ())
                 if (m := names(sentence, term)) is not None]
        first_after_play = True
        for match in _STEP.finditer(sentence):
            step = f"{match.group(1).translate(_CYRILLIC_STEP)}.{match.group(2)}"
            if step not in STEPS:
                yield (TEXT_RULE, f"the text cites step {step}, which the turn (6.1) does not "
                       "have", "6.1")
                continue
            # the step that follows "play ..." is when the card is played; later steps of the
            # sentence say something else ("until your next step A.1")
            if (own is not None and plays and match.start() > min(plays) and first_after_play
                    and step != own[0]):
                yield (TEXT_RULE, f"the text plays this {card.action.replace('_', ' ')} card "
                       f"in step {step}; it is played in step {own[0]}", own[1])
            if plays and match.start() > min(plays):
                first_after_play = False


@lru_cache(maxsize=1024)  # the faces of a pack recur (counts, reprints, generated decks)
def _problems(card: _Read, language: str) -> tuple[Problem, ...]:
    return (*_answers(card, language), *_icons(card), *_numbers(card, language),
            *_rules(card, language))


def check_texts(card_set: CardSet) -> list[Finding]:
    """The text checks over every action card of the base and its expansions, each in the
    source language of its own pack."""
    findings: list[Finding] = []
    for pack in card_set.packs:
        language = pack.manifest.source_locale
        for card in pack.cards:
            if not isinstance(card, Action) or not card.text:
                continue
            read = _Read(card.action, card.caliber, card.missile_class, card.damage, card.text)
            findings += [check(message, card.source.of("text"), card.id, rule=rule)
                         for check, message, rule in _problems(read, language)]
    return findings
