"""The rules' own notations, parsed: hull "8(5)", lasers "2/4", salvos "6-4", shields "С3",
die rolls "D6 4+", and the Cyrillic letter codes ЛК/СК/ТК, Н/В/Э, А/В/С, Д/С/М.

Several of those Cyrillic letters look exactly like Latin ones (А/A, В/B, С/C, Н/H, К/K, М/M,
Е/E), so a card typed on an English keyboard looks right and is wrong: a shield "C3" with a Latin
C matches no mazer type. Each parser returns a value or a :class:`Problem` whose message names
the code point the author typed and the one the rules use.
"""

from __future__ import annotations

import re

from msgspec import Struct

from generator.games.commander.model import ENERGY_TYPES

#: Latin letters that print like a Cyrillic one, and that Cyrillic letter
LATIN_TO_CYRILLIC = {
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р",
    "T": "Т", "X": "Х", "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у",
}
#: the die is written with a Latin D (L56); a Cyrillic Д or a lower-case d is a slip
DIE_SLIPS = {"Д": "D", "д": "D", "d": "D"}

_HULL = re.compile(r"^\s*(\d+)\s*(?:\(\s*(\d+)\s*\))?\s*$")
_LASERS = re.compile(r"^\s*(?:(\d+)\s*/\s*)?(\d+)\s*$")
_SALVO = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")
_ENERGY = re.compile(r"^\s*(\S)\s*(\d+)\s*$")
_D6 = re.compile(r"^\s*(\S)6\s*(\d+)\s*\+\s*$")
#: a die roll quoted inside a card text: "D6 4+", also with a slipped letter or without its
#: "+" ("D6 4"), but not a count of throws ("D6 2 раза", "D6 3 times")
D6_IN_TEXT = re.compile(r"(?<!\w)([DdДд])6[ \t\u00a0]*(\d+)(?!\d)"
                        r"(?![ \t\u00a0]*(?:раз|times?\b))([ \t\u00a0]*\+)?")
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"


class Problem(Struct, frozen=True, gc=False):
    """Why a notation is wrong; ``script`` is True when only the alphabet of a letter is."""

    message: str
    script: bool = False


def _point(ch: str) -> str:
    return f"'{ch}' (U+{ord(ch):04X})"


def _script_name(ch: str) -> str:
    return "Cyrillic" if "\u0400" <= ch <= "\u04ff" else "Latin"


def letter_code(value: str, allowed: tuple[str, ...], what: str) -> Problem | None:
    """None when ``value`` is one of ``allowed``; else a Problem, flagged ``script`` when the
    value is an allowed code typed with Latin look-alike letters."""
    if value in allowed:
        return None
    fixed = "".join(LATIN_TO_CYRILLIC.get(ch, ch) for ch in value.strip())
    if fixed in allowed or fixed.upper() in allowed:
        fixed = fixed if fixed in allowed else fixed.upper()
        latin = next(ch for ch in value if ch in LATIN_TO_CYRILLIC)
        return Problem(f"{what} {value!r}: the letter you wrote is Latin {_point(latin)}; the "
                       f"rules use Cyrillic {_point(LATIN_TO_CYRILLIC[latin])}: write "
                       f"{fixed!r}", script=True)
    return Problem(f"{what} is {value!r}; expected one of {', '.join(allowed)} (Cyrillic)")


class Hull(Struct, frozen=True, gc=False):
    strength: int
    critical: int | None


def hull(value: str) -> Hull | Problem:
    match = _HULL.match(value)
    if not match:
        return Problem(f"hull {value!r} is not written X(Y), e.g. \"8(5)\": strength X, then "
                       "critical damage Y in brackets")
    strength = int(match.group(1))
    if strength < 1:
        return Problem(f"hull {value!r}: a strength of 0 is destroyed before it is hit")
    critical = int(match.group(2)) if match.group(2) is not None else None
    return Hull(strength, critical)


class Lasers(Struct, frozen=True, gc=False):
    targets: int
    power: int


def lasers(value: str) -> Lasers | Problem:
    match = _LASERS.match(value)
    if not match:
        return Problem(f"lasers {value!r} is not written targets/power, e.g. \"2/4\" (or the "
                       "power alone, e.g. \"4\", for one target)")
    targets = int(match.group(1)) if match.group(1) is not None else 1
    power = int(match.group(2))
    if targets < 1 or power < 1:
        return Problem(f"lasers {value!r}: targets and power are both at least 1")
    return Lasers(targets, power)


class Salvo(Struct, frozen=True, gc=False):
    count: int
    power: int


def salvo(value: str, what: str) -> Salvo | Problem:
    """Rockets and torpedoes: "count-power" ("6-4": six missiles of power 4)."""
    match = _SALVO.match(value)
    if not match:
        hint = ""
        if any(d in value for d in _DASHES):
            dash = next(d for d in value if d in _DASHES)
            hint = f"; {_point(dash)} is not the plain hyphen '-' (U+002D) the notation uses"
        return Problem(f"{what} {value!r} is not written count-power, e.g. \"6-4\"{hint}")
    count, power = int(match.group(1)), int(match.group(2))
    if count < 1 or power < 1:
        return Problem(f"{what} {value!r}: count and power are both at least 1")
    return Salvo(count, power)


class Energy(Struct, frozen=True, gc=False):
    """An energy shield or mazer: generator type А/В/С and power, e.g. "С3"."""

    type: str
    power: int


def energy(value: str, what: str) -> Energy | Problem:
    match = _ENERGY.match(value)
    if not match:
        return Problem(f"{what} {value!r} is not written type and power, e.g. \"С3\" "
                       "(type А, В or С in Cyrillic)")
    letter = letter_code(match.group(1), ENERGY_TYPES, f"{what} type")
    if letter is not None:
        if letter.script:
            typed = match.group(1)
            fixed = LATIN_TO_CYRILLIC[typed] + match.group(2)
            return Problem(f"{what} {value!r}: the type letter you wrote is Latin "
                           f"{_point(typed)}; the rules use Cyrillic "
                           f"{_point(LATIN_TO_CYRILLIC[typed])}: write {fixed!r}", script=True)
        return Problem(f"{what} {value!r}: the type is {match.group(1)!r}; expected А, В or С "
                       "(Cyrillic)")
    return Energy(match.group(1), int(match.group(2)))


def d6_in_text(quoted: str) -> int | Problem:
    """A die roll quoted in a card text: "D6 4+" as in a d6 field; "D6 4", without the "+"
    that says "or more" (L56), reads as a roll of exactly 4."""
    if not quoted.rstrip().endswith("+"):
        return Problem(f"{quoted.strip()!r} has no '+': a roll is written \"D6 N+\" (\"D6 "
                       f"{quoted.split('6', 1)[1].strip()}+\" for that number or more)")
    return d6(quoted)


def d6(value: str) -> int | Problem:
    """"D6 N+": the roll needed on a six-sided die, N from 2 to 6 (L56)."""
    match = _D6.match(value)
    if not match:
        return Problem(f"d6 {value!r} is not written \"D6 N+\", e.g. \"D6 4+\"")
    letter = match.group(1)
    if letter != "D":
        if letter in DIE_SLIPS:
            return Problem(f"d6 {value!r}: the letter you wrote is {_script_name(letter)} "
                           f"{_point(letter)}; the rules write the die with a Latin capital "
                           f"{_point('D')}: \"D6\"", script=letter in "Дд")
        return Problem(f"d6 {value!r} is not written \"D6 N+\", e.g. \"D6 4+\"")
    return threshold(int(match.group(2)), value)


def threshold(needed: int, written: str) -> int | Problem:
    if not 2 <= needed <= 6:
        why = "always succeeds" if needed <= 1 else "can never be rolled on a six-sided die"
        return Problem(f"{written!r}: a roll of {needed}+ {why}; use D6 2+ to D6 6+")
    return needed
