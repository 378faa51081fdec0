"""Free rules text read for what carries meaning: which number it states for which fact, and
which rule number it cites for which topic.

A card or reference text retells rules in the pack's own words, so its wording is free and is
never parsed as a whole. What it says about numbers is not free: "contact by day on 4, by night
on 6" holds two facts, and the same two numbers swapped ("by day on 6, by night on 4") is a
different rule that a set of numbers cannot tell from the right one. This module cuts a text
into clauses and binds each number (in digits or in words, a lone number or a run such as
"4, 5 or 6" or "5–6") to the fact whose words stand in the same clause, so that a game's check
compares each number with its own fact. A game declares its facts (:class:`Fact`) with the
words that name them per language; the reading is the same for every game.

What is read, and what is left alone:

- digits, and number words from two to twelve and twenty (ru, en); "one" is left out, since
  "one of", "a single", "одна атака" say one more often as an article than as a value;
- dice ("1к6", "2d6", "D6"), rule numbers ("5.41", "12.9") and play steps ("A.5") are not
  values; rule numbers are read separately (:func:`cited_rules`);
- clauses end at ". ; ! ?", a line break, and a comma that is not followed by another number
  (so "4, 5 or 6" stays one run); a colon does not end one ("an ace: contact on 4-6").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache

from msgspec import Struct

#: number words per language (the forms a declension or an article may take), two and up
_WORDS: Mapping[str, Mapping[str, int]] = {
    "ru": {**{w: 2 for w in ("два", "две", "двух", "двум", "двумя", "двое")},
           **{w: 3 for w in ("три", "трёх", "трех", "трём", "трем", "тремя", "трое")},
           **{w: 4 for w in ("четыре", "четырёх", "четырех", "четырём", "четырем",
                             "четырьмя", "четверо")},
           **{w: 5 for w in ("пять", "пяти", "пятью")},
           **{w: 6 for w in ("шесть", "шести", "шестью")},
           **{w: 7 for w in ("семь", "семи")}, **{w: 8 for w in ("восемь", "восьми")},
           **{w: 9 for w in ("девять", "девяти")}, **{w: 10 for w in ("десять", "десяти")},
           **{w: 11 for w in ("одиннадцать", "одиннадцати")},
           **{w: 12 for w in ("двенадцать", "двенадцати")},
           **{w: 20 for w in ("двадцать", "двадцати")}},
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20},
}
_ALL_WORDS = {word: value for words in _WORDS.values() for word, value in words.items()}
_WORD = "|".join(sorted(_ALL_WORDS, key=len, reverse=True))
_NUMBER = re.compile(rf"(?<![\w.])(?:(\d+)|({_WORD}))(?![\w])", re.IGNORECASE)
#: what joins the numbers of one run: "4, 5 or 6", "5–6", "от 3 до 6", "2 and 3"
_JOIN = re.compile(r"\+?\s*(?:[-\u2010-\u2015\u2212,/]|или|и|до|or|and|to|through)\s*$",
                   re.IGNORECASE)
#: dice, rule numbers ("5.41", "12.9", "6.0") and play steps ("A.5", "B.1") are not values
_NOT_VALUES = re.compile(r"(?<![^\W\d])\d*\s?[кКkKdDдД]\s?6(?!\d)|"
                         r"(?<![\w.])\d+(?:\.\d+)+(?!\w|\.\d)|(?<!\w)[A-CА-С]\.\d(?!\w)")
#: a sentence ends at ". " before a capital letter (not in "see 5.41" or "(см. 5.41)")
_SENTENCE = re.compile(r"[;!?\n]|\.(?=\s+[A-ZА-ЯЁ«\"]|\s*$)")
_RULE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+)(?!\w|\.\d)")
_CLAUSE_END = re.compile(rf"[.;!?\n]|,(?!\s*(?:\d|(?:{_WORD})(?!\w)))", re.IGNORECASE)


class Fact(Struct, frozen=True):
    """A number the rules state about one thing, and the words that name that thing.

    ``values``: the runs of numbers a text may print for it, e.g. {(4,), (4, 6), (4, 5, 6)} for
    "a roll of 4 or more"; ``terms``: per language, patterns (regular expressions, matched at
    the start of a word, case aside) naming the fact; ``refines``: the key of a broader fact
    that this one narrows (an ace's contact roll narrows a submarine's), which gives way to it
    when both are named in one clause and the numbers cannot be paired one by one.
    """

    key: str
    what: str
    values: frozenset[tuple[int, ...]]
    rule: str
    terms: Mapping[str, tuple[str, ...]]
    refines: str = ""

    def accepts(self, run: tuple[int, ...]) -> bool:
        return run in self.values

    def shown(self) -> str:
        """The fact's numbers as a rule book writes them: "4-6", "6", "1 or 5-6"."""
        ranges = {v for v in self.values if len(v) == 2}
        singles = {v for v in self.values if len(v) == 1 and not any(r[0] <= v[0] <= r[1]
                                                                   for r in ranges)}
        forms = [str(v[0]) for v in sorted(singles)] + ["-".join(map(str, v))
                                                        for v in sorted(ranges)]
        return " or ".join(forms) or ", ".join(map(str, sorted(self.values)[0]))


def exactly(*runs: int | tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The runs a fact accepts: a number, or a run of numbers written out."""
    return frozenset(run if isinstance(run, tuple) else (run,) for run in runs)


def at_least(low: int, high: int = 6) -> frozenset[tuple[int, ...]]:
    """A die roll of ``low`` or more: "4", "4-6" or "4, 5, 6"."""
    if low >= high:
        return frozenset({(low,)})
    return frozenset({(low,), (low, high), tuple(range(low, high + 1))})


class Run(Struct, frozen=True, gc=False):
    """Numbers written together ("4, 5 or 6"), where the run begins in its clause."""

    start: int
    values: tuple[int, ...]
    text: str


class Binding(Struct, frozen=True):
    """A run of a clause and the facts it may state: one when the clause pairs them, several
    when it names more facts than it has runs; none when the clause names no fact."""

    run: Run
    facts: tuple[Fact, ...]
    clause: str

    @property
    def wrong(self) -> bool:
        return bool(self.facts) and not any(fact.accepts(self.run.values) for fact in self.facts)


def _masked(text: str) -> str:
    """``text`` with dice, rule numbers and steps blanked out (positions kept)."""
    return _NOT_VALUES.sub(lambda m: " " * len(m.group(0)), text)


def clauses(text: str) -> list[tuple[int, str]]:
    """(offset, clause) of a text, dice and rule numbers blanked out."""
    masked = _masked(text)
    parts: list[tuple[int, str]] = []
    start = 0
    for end in _CLAUSE_END.finditer(masked):
        if end.start() > start:
            parts.append((start, masked[start:end.start()]))
        start = end.end()
    if start < len(masked):
        parts.append((start, masked[start:]))
    return [(offset, part) for offset, part in parts if part.strip()]


def runs(clause: str) -> list[Run]:
    """The runs of numbers of one clause, in order."""
    found: list[Run] = []
    last_end = -1
    for match in _NUMBER.finditer(clause):
        value = int(match.group(1)) if match.group(1) else _ALL_WORDS[match.group(2).lower()]
        if found and _JOIN.match(clause[last_end:match.start()]) is not None:
            previous = found[-1]
            found[-1] = Run(previous.start, (*previous.values, value),
                            clause[previous.start:match.end()])
        else:
            found.append(Run(match.start(), (value,), match.group(0)))
        last_end = match.end()
    return found


def numbers(text: str) -> list[int]:
    """Every number a text states, in digits or words, dice and rule numbers left out."""
    return [value for _, clause in clauses(text) for run in runs(clause) for value in run.values]


_WORDS_OF = re.compile(r"\w+")


@lru_cache(maxsize=65_536)
def words_of(text: str) -> str:
    """A name as words, for comparing names the way a reader does: case, hyphens, quotes,
    brackets and ё aside ("Лос-Анджелес" is "лос анджелес", "«Магнум-К»" is "магнум к")."""
    return " ".join(_WORDS_OF.findall(text.casefold().replace("ё", "е")))


def has_words(text: str, name: str) -> bool:
    """Whether ``name`` (already :func:`words_of`) stands in ``text`` as whole words."""
    return f" {name} " in f" {words_of(text)} "


def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + term + ")", re.IGNORECASE)


_COMPILED: dict[str, re.Pattern[str]] = {}


def names(text: str, term: str) -> re.Match[str] | None:
    """Where ``text`` names ``term`` (a pattern matched at the start of a word), if it does."""
    pattern = _COMPILED.get(term)
    if pattern is None:
        pattern = _COMPILED[term] = _pattern(term)
    return pattern.search(text)


def _named(clause: str, facts: tuple[Fact, ...], language: str) -> list[tuple[int, Fact]]:
    found: list[tuple[int, Fact]] = []
    for fact in facts:
        places = [m.start() for term in fact.terms.get(language, ())
                  if (m := names(clause, term)) is not None]
        if places:
            found.append((min(places), fact))
    return sorted(found, key=lambda item: item[0])


def bind(text: str, facts: tuple[Fact, ...], language: str) -> Iterator[Binding]:
    """Each run of numbers of ``text`` with the facts it may state (see :class:`Binding`).

    In a clause that names as many facts as it has runs, they pair in order ("by day on 4, by
    night on 6" and "on 4 by day and 6 by night" alike); otherwise a fact that refines another
    one named there replaces it, and each run may state any fact the clause names."""
    for offset, clause in clauses(text):
        found = runs(clause)
        if not found:
            continue
        shown = " ".join(text[offset:offset + len(clause)].split())
        named = _named(clause, facts, language)
        if len(named) == len(found):
            for run, (_, fact) in zip(found, named, strict=True):
                yield Binding(run, (fact,), shown)
            continue
        keys = {fact.key for _, fact in named}
        refined = {fact.refines for _, fact in named if fact.refines in keys}
        kept = [fact for _, fact in named if fact.key not in refined]
        if len(kept) == len(found) and len(kept) > 1:
            for run, fact in zip(found, kept, strict=True):
                yield Binding(run, (fact,), shown)
            continue
        for run in found:
            yield Binding(run, tuple(kept), shown)


# --- rule numbers ----------------------------------------------------------------------------

class Topic(Struct, frozen=True):
    """A numbered rule and the words (per language) that name what it is about."""

    rule: str
    what: str
    terms: Mapping[str, tuple[str, ...]]


class Citation(Struct, frozen=True, gc=False):
    """A rule number a text cites, and what is wrong with it (None when nothing is)."""

    rule: str
    problem: str | None
    expected: str = ""  # the rule the clause's topic has, when the number is another's


def cited_rules(text: str, known: frozenset[str], topics: tuple[Topic, ...], language: str
                ) -> Iterator[Citation]:
    """The rule numbers ``text`` cites ("see 12.9", "(5.41)"), each checked: a number the
    rules never give is wrong; so is a number cited in a clause that names the topic of
    another numbered rule and not its own ("cruise missiles (12.8)", which is 12.9)."""
    for clause in _SENTENCE.split(text):
        for match in _RULE.finditer(clause):
            rule = match.group(1)
            if rule not in known:
                yield Citation(rule, f"cites rule {rule}, which the rules do not number")
                continue
            own = next((t for t in topics if t.rule == rule), None)
            others = [t for t in topics if t.rule != rule
                      and any(names(clause, term) for term in t.terms.get(language, ()))]
            mine = own is not None and any(names(clause, term)
                                           for term in own.terms.get(language, ()))
            if others and not mine:
                other = others[0]
                yield Citation(rule, f"cites rule {rule} for {other.what}, which is rule "
                                     f"{other.rule}", other.rule)
            else:
                yield Citation(rule, None)
