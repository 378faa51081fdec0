"""What a reference card prints, read back so that it can be held to the engine's tables.

A reference card retells a procedure in the pack's own words, with a table of modifiers ("Ясно
+1") that the ``modifiers`` widget prints as two columns. The words are free; the values are not:
the validator compares every printed value with ``tables.PROCEDURES``. Both the widget and the
checks split a line here, so a value is read the same way it is printed.
"""

from __future__ import annotations

import re

from generator.games.gwas.tables import CLASS_GROUPS, Modifier, Procedure
from generator.rules.textfacts import names

#: "label value": the value is a signed number, a "6+" threshold, a "4–6" range or a number
_LINE = re.compile(r"^(.*\S)\s+([+\-\u2212\u00b1]?\d+(?:[+\u2013\-]\d*)?)$")
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-"})
#: the negations that turn a row's condition around ("не ясно", "not a capital ship")
_NEGATION = {"ru": re.compile(r"(?<!\w)(?:не|нет|без|кроме|ни)(?!\w)", re.IGNORECASE),
             "en": re.compile(r"(?<!\w)(?:not|no|non|without|except|cannot|can't|never)"
                              r"(?!\w)", re.IGNORECASE)}
#: how a label compares a count with the row's number, most specific first
_COMPARISONS = {
    "ru": ((">=", r"(?:или|и)\s+(?:больше|более)|не\s+(?:менее|меньше)|(?<!\w)от\s+\d|"
                  r"\d\s*\+|≥"),
           (">", r"больше|более|свыше|>"),
           ("<=", r"(?:или|и)\s+(?:меньше|менее)|не\s+(?:более|больше)|(?<!\w)до\s+\d|≤"),
           ("<", r"меньше|менее|<")),
    "en": ((">=", r"or\s+more|at\s+least|\d\s*\+|≥"),
           (">", r"more\s+than|over|above|>"),
           ("<=", r"or\s+(?:less|fewer)|at\s+most|up\s+to|≤"),
           ("<", r"less|fewer|under|below|<")),
}
_CODE = re.compile(r"(?<![A-Za-z])[A-Z]{1,3}(?![A-Za-z])")
CLASS_CODES = frozenset(CLASS_GROUPS)
_SAYS = {">": "more than", ">=": "or more", "<": "fewer than", "<=": "or fewer",
         "": "no comparison"}


def _word(pattern: str) -> str:
    """The first word a pattern accepts, for a message: "быстр|скоростн" -> "быстр"."""
    first = pattern.split("|")[0]
    return re.sub(r"\\s[+*]", " ", re.sub(r"\(\?:|[()?]|\\w\*|\\b", "", first))


def split_modifier(line: str) -> tuple[str, str]:
    """``"Ясно +1"`` -> ("Ясно", "+1"); a line without a value at its end is a heading."""
    match = _LINE.match(line.strip())
    return (match.group(1), match.group(2)) if match else (line.strip(), "")


def modifier_lines(text: str) -> list[tuple[str, str]]:
    """The (label, value) rows of a printed modifier table, blank lines left out."""
    return [split_modifier(line) for line in text.split("\n") if line.strip()]


def plain_value(value: str) -> str:
    """A printed value in the tables' ASCII form: "−2" -> "-2", "4–6" -> "4-6"."""
    return value.translate(_DASHES).replace(" ", "")


def _names(label: str, term: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(term), label.casefold()) is not None


def comparison_in(label: str, locale: str) -> str:
    """How a label compares ("больше 20": ">", "20 или больше": ">="), "" when it does not."""
    for sign, pattern in _COMPARISONS.get(locale, ()):
        if re.search(pattern, label, re.IGNORECASE):
            return sign
    return ""


def condition_problems(label: str, row: Modifier, locale: str) -> list[str]:
    """How a printed label changes the condition of the row it names (its value aside): a
    word of the condition left out, a quantifier or negation that turns it, a comparison
    other than the seeds' ("20 or more" for "more than 20")."""
    problems = [f"it leaves out '{_word(pattern)}'" for pattern in row.requires.get(locale, ())
                if not names(label, pattern)]
    problems += [f"'{found.group(0)}' changes it" for pattern in row.forbids.get(locale, ())
                 if (found := names(label, pattern)) is not None]
    negation = _NEGATION.get(locale)
    if negation is not None:
        plain = label
        for allowed in row.negations.get(locale, ()):
            plain = re.sub(r"(?<!\w)(?:" + allowed + ")", " ", plain, flags=re.IGNORECASE)
        found = negation.search(plain)
        if found is not None:
            problems.append(f"'{found.group(0)}' turns it around")
    codes = set(_CODE.findall(label)) & CLASS_CODES
    if row.codes and codes and codes != row.codes:
        problems.append(f"it names the classes {', '.join(sorted(codes))}, the seeds "
                        f"{', '.join(sorted(row.codes))}")
    if row.comparison and locale in _COMPARISONS:
        printed = comparison_in(label, locale)
        if printed != row.comparison:
            problems.append(f"it says '{_SAYS[printed]}' where the seeds say "
                            f"'{_SAYS[row.comparison]}'")
    return problems


def row_named(label: str, procedure: Procedure, locale: str) -> Modifier | None:
    """The first row of ``procedure`` whose terms in ``locale`` the label uses, if any."""
    for row in procedure.modifiers:
        if any(_names(label, term) for term in row.terms.get(locale, ())):
            return row
    return None


def knows_locale(procedure: Procedure, locale: str) -> bool:
    """Whether rows can be told apart by their words in ``locale`` (else only by position)."""
    return any(locale in row.terms for row in procedure.modifiers)
