"""What a reference card prints, read back so that it can be held to the engine's tables.

A reference card retells a procedure in the pack's own words, with a table of modifiers ("Ясно
+1") that the ``modifiers`` widget prints as two columns. The words are free; the values are not:
the validator compares every printed value with ``tables.PROCEDURES``. Both the widget and the
checks split a line here, so a value is read the same way it is printed.
"""

from __future__ import annotations

import re

from generator.games.gwas.tables import Modifier, Procedure

#: "label value": the value is a signed number, a "6+" threshold, a "4–6" range or a number
_LINE = re.compile(r"^(.*\S)\s+([+\-\u2212\u00b1]?\d+(?:[+\u2013\-]\d*)?)$")
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-"})
#: dice ("1к6", "2d6") and rule numbers ("5.46") are not values of a procedure
_NOT_VALUES = re.compile(r"\d+\s*[кКkKdDдД]\s*\d+|\d+(?:\.\d+)+")
_NUMBER = re.compile(r"\d+")


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


def numbers_in(text: str) -> list[int]:
    """The numbers a text states, dice notations and rule numbers left out, in order."""
    return [int(n) for n in _NUMBER.findall(_NOT_VALUES.sub(" ", text))]


def _names(label: str, term: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(term), label.casefold()) is not None


def row_named(label: str, procedure: Procedure, locale: str) -> Modifier | None:
    """The first row of ``procedure`` whose terms in ``locale`` the label uses, if any."""
    for row in procedure.modifiers:
        if any(_names(label, term) for term in row.terms.get(locale, ())):
            return row
    return None


def knows_locale(procedure: Procedure, locale: str) -> bool:
    """Whether rows can be told apart by their words in ``locale`` (else only by position)."""
    return any(locale in row.terms for row in procedure.modifiers)
