"""Reference cards held to the engine's tables: what a card prints about a procedure (its rule
number, its modifier table, the numbers of its text) must be what ``tables.PROCEDURES`` says, in
the card file and in every translation the pack prints.

A reference card retells the seeds in the pack's own words, so its wording is free; its values
are not. A player reads "Ясно +1" off the card, not the rule book: a card that says "+2" changes
the game as surely as a wrong ship factor.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from generator.core.findings import Finding
from generator.core.location import Location
from generator.games.gwas.model import Reference
from generator.games.gwas.printed import (
    condition_problems,
    knows_locale,
    modifier_lines,
    plain_value,
    row_named,
)
from generator.games.gwas.rules.registry import E, W, check
from generator.games.gwas.tables import (
    PROCEDURES,
    RULE_NUMBERS,
    RULE_TOPICS,
    Modifier,
    Procedure,
)
from generator.i18n.translations import printed_texts
from generator.model.cards import CardSet
from generator.rules.textfacts import bind, cited_rules, numbers

REFERENCE = check("gwas-reference-missing", "set", W,
                  "003:228, 003:270, 003:284, 003:329, 004:21, 004:127",
                  "a base pack prints a reference card for every procedure the seeds give in "
                  "full (contact, pursuit, gunnery, submarine, MTB) and for the class table")
RULE = check("gwas-reference-rule", "card", E,
             "003:151, 003:228, 003:270, 003:284, 003:325, 004:21",
             "a reference card prints the rule number the seeds give its procedure, and none "
             "for the class table, which the seeds do not number")
MODIFIER = check("gwas-reference-modifier", "card", E,
                 "003:270, 003:298-311, 003:339, 003:343, 004:29-47, 004:127-135",
                 "a printed modifier table is the procedure's whole table, each value as the "
                 "seeds give it, in every language")
NUMBER = check("gwas-reference-number", "card", E,
               "003:270, 003:284, 003:329, 004:9-47, 004:109-135",
               "a reference text prints only numbers its procedure's rules state, and a "
               "translation prints the same numbers as the source")
FACT = check("gwas-reference-fact", "card", E,
             "003:284, 003:286, 003:329, 003:339, 003:343, 004:9, 004:21, 004:29, 004:41, "
             "004:47, 004:115, 004:121, 004:127, 004:129, 004:135",
             "a number printed beside a fact's words is that fact's number: day 4 and night 6, "
             "sunk before the attack on 5 and after on 6, a hit on 6 and on 5-6 in italics, a "
             "submarine's contact on 5-6 and an ace's on 4-6 (numbers in digits or words)")
CONDITION = check("gwas-reference-condition", "card", E,
                  "003:270, 003:300, 003:307, 003:308, 003:343, 004:29, 004:135",
                  "a printed modifier row keeps the seeds' condition and comparison, not only "
                  "its value (\"more than 20 ships\", not \"20 or more\"; \"storm or squall\"; "
                  "\"a fast transport\")")
CITED = check("gwas-reference-cited-rule", "card", E, "003:13-146, 003:151, 003:153",
              "a rule number cited in a reference text is one the seeds number, cited for its "
              "own topic")

__all__ = ["check_references"]


def _where(locale: str | None) -> str:
    return f"the {locale} translation of " if locale else ""


def _listing(rows: tuple[Modifier, ...]) -> str:
    return "; ".join(f"{row.what} {row.value}" for row in rows)


def _by_words(lines: list[tuple[str, str]], procedure: Procedure, locale: str
              ) -> Iterator[tuple[str, str]]:
    """(problem, seed lines) for lines told apart by their words; then the rows no line
    printed."""
    seen: set[str] = set()
    for label, value in lines:
        row = row_named(label, procedure, locale)
        printed = f"'{label} {value}'" if value else f"'{label}'"
        if row is None:
            yield (f"{printed} is no modifier of this procedure; the seeds give: "
                   f"{_listing(procedure.modifiers)}", procedure.seed)
        elif row.key in seen:
            yield f"{printed} prints the row '{row.what}' a second time", row.seed
        elif plain_value(value) != row.value:
            yield (f"{printed}: the seeds give {row.what} {row.value}, not "
                   f"{value or 'no value'}", row.seed)
        if row is not None:
            seen.add(row.key)
    missing = tuple(row for row in procedure.modifiers if row.key not in seen)
    if missing:
        yield (f"the table lacks {_listing(missing)}; a player reads the card as the whole "
               "table", ", ".join(row.seed for row in missing))


def _by_position(lines: list[tuple[str, str]], procedure: Procedure
                 ) -> Iterator[tuple[str, str]]:
    """For a language the tables have no words for: the seeds' rows in the seeds' order."""
    rows = procedure.modifiers
    if len(lines) != len(rows):
        yield (f"{len(lines)} modifier line(s); the seeds give {len(rows)}: "
               f"{_listing(rows)}", procedure.seed)
    for index, ((label, value), row) in enumerate(zip(lines, rows, strict=False), 1):
        if plain_value(value) != row.value:
            yield (f"'{label} {value}': row {index} of the seeds' table is {row.what} "
                   f"{row.value}", row.seed)


def _modifiers(card: Reference, procedure: Procedure, locale: str | None, text: str,
               where: Location, source_locale: str) -> Iterator[Finding]:
    lines = modifier_lines(text)
    if not lines:
        return  # a card without a table prints nothing to disagree with
    language = locale or source_locale
    known = knows_locale(procedure, language)
    problems = _by_words(lines, procedure, language) if known \
        else _by_position(lines, procedure)
    for problem, seed in problems:
        yield MODIFIER(f"{_where(locale)}{card.procedure} modifiers: {problem}", where, card.id,
                       rule=seed, locale=locale)
    if not known:
        return
    for label, value in lines:
        row = row_named(label, procedure, language)
        if row is None or plain_value(value) != row.value:
            continue  # reported above: the condition of a wrong row says nothing more
        changed = condition_problems(label, row, language)
        if changed:
            yield CONDITION(f"{_where(locale)}{card.procedure} modifiers: '{label} {value}' "
                            f"is not the seeds' row '{row.what} {row.value}': "
                            f"{'; '.join(changed)}", where, card.id, rule=row.seed,
                            locale=locale)


def _facts(card: Reference, procedure: Procedure, locale: str | None, text: str,
           language: str, where: Location) -> Iterator[Finding]:
    """Numbers bound to their facts by the words beside them: the same numbers in swapped
    places ("by day on 6, by night on 4") are as wrong as a number the rules never give."""
    for binding in bind(text, procedure.bound, language):
        if binding.wrong:
            shown = "; ".join(f"{fact.what} {fact.shown()}" for fact in binding.facts)
            yield FACT(f"{_where(locale)}{card.procedure} text: '{binding.clause}' prints "
                       f"{binding.run.text.strip()}; the seeds give {shown}", where, card.id,
                       rule=", ".join(fact.rule for fact in binding.facts), locale=locale)


def _numbers(card: Reference, procedure: Procedure, locale: str | None, text: str,
             source: list[int], where: Location, language: str) -> Iterator[Finding]:
    printed = numbers(text)
    if locale is None:
        bound = {n for b in bind(text, procedure.bound, language) if b.facts
                 for n in b.run.values}
        strays = sorted({n for n in printed if n not in procedure.numbers and n not in bound})
        if strays:
            allowed = ", ".join(map(str, sorted(procedure.numbers)))
            yield NUMBER(f"{card.procedure} text prints {', '.join(map(str, strays))}, which "
                         f"the {card.procedure} rules never state (they state {allowed})",
                         where, card.id, rule=procedure.seed)
        yield from _facts(card, procedure, locale, text, language, where)
    elif Counter(printed) != Counter(source):
        yield NUMBER(f"the {locale} translation of the {card.procedure} text prints the numbers "
                     f"{printed}; the source prints {source}", where, card.id,
                     rule=procedure.seed, locale=locale)
    else:
        yield from _facts(card, procedure, locale, text, language, where)


def _cited(card: Reference, locale: str | None, text: str, language: str,
           where: Location) -> Iterator[Finding]:
    for citation in cited_rules(text, RULE_NUMBERS, RULE_TOPICS, language):
        if citation.problem is not None:
            yield CITED(f"{_where(locale)}{card.procedure} text {citation.problem}", where,
                        card.id, locale=locale,
                        rule="003:13-146" if not citation.expected else "003:151, 003:153")


def _reference(card_set: CardSet, card: Reference) -> Iterator[Finding]:
    procedure = PROCEDURES.get(card.procedure)
    if procedure is None:
        return
    if card.rule and procedure.rule and card.rule != procedure.rule:
        yield RULE(f"rule '{card.rule}' printed for the {card.procedure} procedure, which the "
                   f"seeds number {procedure.rule}", card.source.of("rule"), card.id,
                   rule=procedure.seed)
    elif card.rule and not procedure.rule:
        yield RULE(f"rule '{card.rule}' printed for the {card.procedure} procedure, which the "
                   "seeds give no number (it stands between 4.5 and 5.0 unnumbered): print "
                   "none", card.source.of("rule"), card.id, rule=procedure.seed)
    source_locale = card_set.base.manifest.source_locale
    for locale, text in printed_texts(card_set, card, "modifiers"):
        yield from _modifiers(card, procedure, locale, text, card.source.of("modifiers"),
                              source_locale)
    source = numbers(card.text)
    for locale, text in printed_texts(card_set, card, "text"):
        language = locale or source_locale
        yield from _numbers(card, procedure, locale, text, source, card.source.of("text"),
                            language)
        yield from _cited(card, locale, text, language, card.source.of("text"))


def _missing(card_set: CardSet) -> Iterator[Finding]:
    if card_set.base.manifest.extends is not None:
        return
    printed = {card.procedure for card in card_set.cards if isinstance(card, Reference)}
    missing = [name for name in PROCEDURES if name not in printed]
    if missing:
        yield REFERENCE(f"no reference card for: {', '.join(missing)}",
                        card_set.base.manifest.location)


def check_references(card_set: CardSet) -> list[Finding]:
    findings = list(_missing(card_set))
    for card in card_set.cards:
        if isinstance(card, Reference):
            findings += _reference(card_set, card)
    return findings
