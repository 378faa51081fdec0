"""Where a line may break, as GNU gettext decides it when it wraps a PO file.

gettext wraps with libunistring's line breaking, which follows the Unicode line breaking
algorithm (UAX #14) in its classic form: a table of "may a line break between a character of
class A and one of class B, directly or across spaces". We classify characters with uniseg's
Unicode data and apply those pair rules, including libunistring's own choices where it differs
from today's UAX #14: a break is allowed after a full stop or comma that is followed by a
letter ("т.|е.", "U.|S."), and the pre-15.1 quotation rules (no break between a quotation mark
and an opening bracket even across spaces, no break next to a quotation mark otherwise).
Matching gettext here is what makes our catalogs survive a round trip through msgcat,
msgmerge, Poedit or Weblate unchanged.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from uniseg.linebreak import line_break


class _Pair(Enum):
    DIRECT = "break allowed, with or without spaces between"
    INDIRECT = "break allowed only across spaces"
    PROHIBITED = "no break, even across spaces"


#: classes that resolve to alphabetic (UAX #14 LB1, and the scripts libunistring treats alike)
_ALPHABETIC = frozenset({"AI", "SG", "XX", "SA", "AK", "AP", "AS", "VI", "VF"})
_HANGUL = frozenset({"JL", "JV", "JT", "H2", "H3"})
_NEWLINES = frozenset({"BK", "CR", "LF", "NL"})
#: LB25 (the classic pairs around numbers)
_NUMERIC_PAIRS = frozenset({
    ("CL", "PO"), ("CP", "PO"), ("CL", "PR"), ("CP", "PR"), ("NU", "PO"), ("NU", "PR"),
    ("PO", "OP"), ("PO", "NU"), ("PR", "OP"), ("PR", "NU"), ("HY", "NU"), ("IS", "NU"),
    ("NU", "NU"), ("SY", "NU"),
})
_HANGUL_PAIRS = frozenset({
    ("JL", "JL"), ("JL", "JV"), ("JL", "H2"), ("JL", "H3"), ("JV", "JV"), ("JV", "JT"),
    ("H2", "JV"), ("H2", "JT"), ("JT", "JT"), ("H3", "JT"),
})
_LETTERS = frozenset({"AL", "HL"})


@cache
def _class(char: str) -> str:
    name = line_break(char).name
    if name in _ALPHABETIC:
        return "AL"
    if name == "CJ":
        return "NS"
    return name


@cache
def _pair(before: str, after: str) -> _Pair:
    """May a line break between ``before`` and ``after`` (their classes), UAX #14 rules 11-31
    as a pair table."""
    if after in ("CL", "CP", "EX", "IS", "SY", "WJ"):  # LB11, LB13
        return _Pair.PROHIBITED
    if (before == "OP" or (before == "QU" and after == "OP")  # LB14, LB15
            or (before in ("CL", "CP") and after == "NS")  # LB16
            or (before == "B2" and after == "B2")):  # LB17
        return _Pair.PROHIBITED
    if (before in ("WJ", "GL") or (after == "GL" and before not in ("BA", "HY"))  # LB11-12a
            or "QU" in (before, after)):  # LB19
        return _Pair.INDIRECT
    if "CB" in (before, after):  # LB20
        return _Pair.DIRECT
    if (after in ("BA", "HY", "NS", "IN") or before == "BB"  # LB21, LB22
            or (before == "SY" and after == "HL")  # LB21b
            or (before in _LETTERS and after == "NU") or (before == "NU" and after in _LETTERS)
            or (before == "PR" and after in ("ID", "EB", "EM"))  # LB23a
            or (before in ("ID", "EB", "EM") and after == "PO")
            or (before in ("PR", "PO") and after in _LETTERS)  # LB24
            or (before in _LETTERS and after in ("PR", "PO"))
            or (before, after) in _NUMERIC_PAIRS  # LB25
            or (before, after) in _HANGUL_PAIRS  # LB26
            or (before in _HANGUL and after == "PO") or (before == "PR" and after in _HANGUL)
            or (before in _LETTERS and after in _LETTERS)  # LB28 (LB29 not applied)
            or (before in ("AL", "HL", "NU") and after == "OP")  # LB30
            or (before == "CP" and after in ("AL", "HL", "NU"))
            or (before == "RI" and after == "RI") or (before == "EB" and after == "EM")):
        return _Pair.INDIRECT
    return _Pair.DIRECT  # LB31


def break_opportunities(text: str) -> list[bool]:
    """Per character: may a line break go just before it (never before the first)?"""
    result = [False] * len(text)
    previous: str | None = None  # class of the last character that is not a space
    spaces = False
    after_newline = False
    for index, char in enumerate(text):
        current = _class(char)
        if current in ("CM", "ZWJ"):
            if previous is None or spaces or previous in _NEWLINES or previous == "ZW":
                current = "AL"  # LB10: a mark with nothing to combine with is a letter
            else:
                continue  # LB9: a mark belongs to the character before it
        if after_newline:
            result[index] = True  # LB4, LB5
            after_newline = False
        elif current in _NEWLINES or current in ("SP", "ZW"):
            pass  # LB6, LB7: never break before a space or a newline
        elif previous is None:
            pass  # LB2: nothing to break from at the start (or after leading spaces)
        elif previous == "ZW":
            result[index] = True  # LB8
        else:
            pair = _pair(previous, current)
            result[index] = pair is _Pair.DIRECT or (pair is _Pair.INDIRECT and spaces)
        if current in _NEWLINES:
            after_newline = current != "CR" or text[index + 1:index + 2] != "\n"
            previous, spaces = None, False
        elif current == "SP":
            spaces = True
        else:
            previous, spaces = current, False
    return result
