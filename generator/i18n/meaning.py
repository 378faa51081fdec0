"""What a translation must keep of its source: the quantities it states.

A translator rewrites a card's words freely, but not its numbers: "D6 5+" that becomes "5+ на
1к6" says the same, "D6 4+" does not, and neither does "more than 2" turned into "2 или больше".
This module reads, from a source text and its translation, each quantity the text states, and
compares the two as multisets (word order is the translator's):

- dice (``D6``, ``2d6``, ``1к6``, ``W6``), with their count;
- thresholds (``5+``) and comparisons bound to a number: "more than 2", "2 or more", "at least
  2", "не менее двух", "mindestens 2", ``≥ 2`` ... each read as >, ≥, < or ≤;
- signed values (``+1``, ``-2``, ``−1``) and rule numbers (``12.9``);
- other numbers, in digits or in words (two to twenty in en, ru and de; digits of any size).

The value one is left out unless it is signed or part of a die roll: "a missile" is "одна
ракета" in one language and "ракета" in another as often as not, so ones written as words or
digits cannot be told from articles. Inline icons and placeholders (``{gun-5in}``) and rich-text
tags are left out here (the token check compares them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

from msgspec import Struct

#: number words per language, two and up (their declined forms as cards use them)
NUMBER_WORDS: Mapping[str, Mapping[str, int]] = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20,
           "twice": 2, "double": 2},
    "ru": {**dict.fromkeys(("два", "две", "двух", "двум", "двумя", "двое", "дважды"), 2),
           **dict.fromkeys(("три", "трех", "трем", "тремя", "трое", "трижды"), 3),
           **dict.fromkeys(("четыре", "четырех", "четырем", "четырьмя", "четверо"), 4),
           **dict.fromkeys(("пять", "пяти", "пятью", "пятеро"), 5),
           **dict.fromkeys(("шесть", "шести", "шестью", "шестеро"), 6),
           **dict.fromkeys(("семь", "семи", "семью"), 7),
           **dict.fromkeys(("восемь", "восьми", "восемью"), 8),
           **dict.fromkeys(("девять", "девяти", "девятью"), 9),
           **dict.fromkeys(("десять", "десяти", "десятью"), 10),
           **dict.fromkeys(("одиннадцать", "одиннадцати"), 11),
           **dict.fromkeys(("двенадцать", "двенадцати"), 12),
           **dict.fromkeys(("двадцать", "двадцати"), 20)},
    "de": {"zwei": 2, "zweimal": 2, "drei": 3, "dreimal": 3, "vier": 4, "fünf": 5,
           "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11,
           "zwölf": 12, "zwanzig": 20, "doppelt": 2},
}

#: phrases that bind a comparison to the number after them, per operator
_BEFORE = {
    ">": ("more than", "greater than", "over", "exceeds", "больше", "более", "свыше",
          "mehr als", "größer als", "über"),
    "≥": ("at least", "no less than", "not less than", "не менее", "не меньше", "как минимум",
          "минимум", "по меньшей мере", "mindestens", "wenigstens", ">=", "≥"),
    "<": ("less than", "fewer than", "under", "below", "меньше", "менее", "weniger als",
          "kleiner als", "unter"),
    "≤": ("at most", "no more than", "not more than", "up to", "не более", "не больше",
          "максимум", "самое большее", "до", "höchstens", "bis zu", "maximal", "<=", "≤"),
}
#: ("до" ends a range as often as it bounds a number, "от 3 до 6": see _after_number)
#: ... and to the number before them
_AFTER = {
    "≥": ("or more", "or higher", "or greater", "or better", "and up", "and more",
          "или больше", "или более", "и больше", "и более", "или выше", "и выше",
          "oder mehr", "oder höher", "oder besser", "und mehr"),
    "≤": ("or less", "or fewer", "or lower", "or below", "или меньше", "или менее",
          "и меньше", "и менее", "или ниже", "и ниже", "oder weniger", "oder niedriger"),
}
_SHORT = {">": ">", "≥": "≥", "<": "<", "≤": "≤"}
_WORDS_SHOWN = {">": "more than", "≥": "or more", "<": "less than", "≤": "or less"}


def _alternatives(phrases: Iterable[str]) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+")
                    for p in sorted(phrases, key=len, reverse=True))


# the longest phrase wins ("не более" before "более")
_PREFIX = re.compile(r"(?:^|(?<=[^\w>=<≤≥]))(" + _alternatives(
    p for ps in _BEFORE.values() for p in ps) + r")\s*$", re.IGNORECASE)
_SUFFIX = re.compile(r"^\s*(" + _alternatives(p for ps in _AFTER.values() for p in ps)
                     + r")(?!\w)", re.IGNORECASE)
_OPERATOR = {phrase.casefold(): op for op, phrases in _BEFORE.items() for phrase in phrases}
_OPERATOR_AFTER = {phrase.casefold(): op for op, phrases in _AFTER.items() for phrase in phrases}

_TOKEN = re.compile(r"\{[^{}\s]*\}|<[^<>]*>|&[a-z]+;")
_MINUS = "\u2212\u2013\\-"  # minus sign, en dash (as a minus sign), hyphen-minus (escaped)
_QUANTITY = re.compile(
    r"(?P<dice>(?<!\w)(?P<count>\d*)[dDкКдДwW](?P<sides>100|20|12|10|8|6|4|3)(?!\w))"
    r"|(?P<ref>(?<![\w.])\d+(?:\.\d+)+(?!\.?\d))"
    rf"|(?P<threshold>(?<![\w.+{_MINUS}])(?P<low>\d+)\s?\+(?!\s?\d))"
    rf"|(?P<signed>(?<![\w)\].+{_MINUS}])(?P<sign>[+{_MINUS}])(?P<size>\d+)(?!\.?\d))"
    r"|(?P<number>(?<![\w.])\d+(?!\d|\.\d))"
    r"|(?P<word>(?<!\w)[^\W\d_]+(?!\w))")
_WINDOW = 24  # characters before a number looked at for a comparison


class Quantity(Struct, frozen=True, order=True):
    """One quantity a text states: ``kind`` dice | signed | rule | number, an operator (= > ≥
    < ≤; a threshold "5+" is a number of ≥ 5), its value, and whether it was written as a
    word."""

    kind: str
    op: str
    value: str
    word: bool = False

    def shown(self) -> str:
        if self.kind == "dice":
            return f"die roll {self.value}"
        if self.kind == "rule":
            return f"rule {self.value}"
        if self.op != "=":
            return f"{_WORDS_SHOWN[self.op]} {self.value}" if self.op in "><" \
                else f"{self.value} {_WORDS_SHOWN[self.op]}"
        return self.value


_ALL_WORDS = frozenset(word for words in NUMBER_WORDS.values() for word in words)


def _words(language: str) -> Mapping[str, int]:
    return NUMBER_WORDS.get(language.split("_")[0].split("-")[0], {})


@lru_cache(maxsize=32_768)
def quantities(text: str, language: str) -> tuple[Quantity, ...]:
    """Every quantity ``text`` (written in ``language``) states, in order."""
    plain = _TOKEN.sub(" ", text)
    words = _words(language)
    found: list[Quantity] = []
    for match in _QUANTITY.finditer(plain):
        kind = match.lastgroup
        if kind == "dice":
            count = match.group("count") or "1"
            found.append(Quantity("dice", "=", f"{int(count)}d{match.group('sides')}"))
            continue
        if kind == "ref":
            found.append(Quantity("rule", "=", match.group(0)))
            continue
        if kind == "threshold":  # "5+" says what "5 or more" says
            found.append(Quantity("number", "≥", str(int(match.group("low")))))
            continue
        if kind == "signed":
            sign = "+" if match.group("sign") == "+" else "-"
            found.append(Quantity("signed", "=", f"{sign}{int(match.group('size'))}"))
            continue
        word = kind == "word"
        if word:
            value = words.get(match.group(0).casefold().replace("ё", "е"))
            if value is None:
                continue
        else:
            value = int(match.group(0))
        if value == 1:
            continue  # an article as often as a number (see the module's docstring)
        found.append(Quantity("number", _operator(plain, match.start(), match.end()),
                              str(value), word))
    return tuple(found)


def _operator(text: str, start: int, end: int) -> str:
    """The comparison bound to the number at ``text[start:end]``, "=" when none is."""
    window = text[max(0, start - _WINDOW):start]
    before = _PREFIX.search(window)
    if before is not None:
        phrase = " ".join(before.group(1).casefold().split())
        if phrase != "до" or not _after_number(window):
            return _OPERATOR[phrase]
    after = _SUFFIX.match(text[end:end + _WINDOW])
    if after is not None:
        return _OPERATOR_AFTER[" ".join(after.group(1).casefold().split())]
    return "="


def _after_number(window: str) -> bool:
    """Whether the "до" that ends ``window`` follows a number (the end of a range)."""
    words = window.split()
    if len(words) < 2:
        return False
    previous = words[-2].strip(",.;:()«»\"")
    return bool(previous) and (previous[0].isdigit() or previous.casefold() in _ALL_WORDS)


class Change(Struct, frozen=True):
    """A difference in what a translation states: ``comparison`` when the same numbers are
    compared otherwise, ``number`` when numbers differ; ``words_only`` when every quantity
    involved was written in words (a reading less sure than digits)."""

    kind: str
    message: str
    words_only: bool


def _listed(items: Iterable[Quantity]) -> str:
    return ", ".join(q.shown() for q in sorted(items, key=lambda q: (q.kind, q.value, q.op)))


def _key(quantity: Quantity) -> tuple[str, str, str]:
    return quantity.kind, quantity.op, quantity.value  # (the spelling, word or digits, aside)


def _unmatched(items: tuple[Quantity, ...], others: tuple[Quantity, ...]) -> list[Quantity]:
    """The quantities of ``items`` that ``others`` does not state as often."""
    left = Counter(map(_key, others))
    unmatched = []
    for item in items:
        if left[_key(item)] > 0:
            left[_key(item)] -= 1
        else:
            unmatched.append(item)
    return unmatched


def changes(source: str, source_language: str, translated: str, language: str
            ) -> list[Change]:
    """What ``translated`` states otherwise than ``source`` (empty: the same quantities)."""
    ours = quantities(source, source_language)
    theirs = quantities(translated, language)
    lost, added = _unmatched(ours, theirs), _unmatched(theirs, ours)
    if not lost and not added:
        return []
    words_only = all(q.word for q in (*lost, *added))
    # the same numbers, compared otherwise ("more than 2" / "2 or more")
    if Counter((q.kind, q.value) for q in lost) == Counter((q.kind, q.value) for q in added):
        return [Change("comparison", f"the source states {_listed(lost)} where the "
                       f"translation states {_listed(added)}", words_only)]
    parts = []
    if lost:
        parts.append(f"the source's {_listed(lost)} {'is' if len(lost) == 1 else 'are'} not "
                     "in the translation")
    if added:
        parts.append(f"the translation states {_listed(added)}, which the source does not")
    return [Change("number", "; ".join(parts), words_only)]
