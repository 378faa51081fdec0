"""Fit a text into a box: shrink to the box's minimum size, then hyphenate, else report overflow.

We break lines ourselves rather than through ReportLab's Paragraph because card text mixes words
with inline vector icons (``{gun-5in}``) that must sit on the baseline at text size, and because
the overflow finding needs an exact figure in millimetres. Widths come from the embedded font's
own metrics, hyphenation points from pyphen's per-language dictionaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

import pyphen

from generator.fonts import string_width_mm

PT_TO_MM = 25.4 / 72.0
LEADING = 1.18  # line height as a multiple of the font size
ICON_WIDTH = 1.15  # an inline icon's advance as a multiple of the font size
SIZE_STEP = 0.25  # points

_TOKEN = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}|(\S+?)(?=\{[a-z0-9][a-z0-9-]*\}|\s|$)|(\s+)")


@dataclass(frozen=True, slots=True)
class Piece:
    """A word fragment or an inline icon, with its width at the line's size."""

    text: str
    icon: str | None
    width_mm: float


@dataclass(frozen=True, slots=True)
class Line:
    pieces: tuple[Piece, ...]
    width_mm: float


@dataclass(frozen=True, slots=True)
class FittedText:
    size_pt: float
    leading_mm: float
    lines: tuple[Line, ...]
    hyphenated: bool
    overflow_mm: float  # 0 when it fits; else how far the text runs past the box (height/width)

    @property
    def fits(self) -> bool:
        return self.overflow_mm <= 0.0


@dataclass(frozen=True, slots=True)
class _Word:
    """A run of pieces with no space inside (a word, possibly glued to icons or punctuation)."""

    parts: tuple[tuple[str, str | None], ...]  # (text, icon) pairs

    @property
    def plain(self) -> str:
        return "".join(text for text, icon in self.parts if icon is None)


def split_words(text: str) -> list[_Word | None]:
    """Words and line breaks (``None``); spaces separate words, icons are glued to neighbours."""
    result: list[_Word | None] = []
    for paragraph_index, paragraph in enumerate(text.split("\n")):
        if paragraph_index:
            result.append(None)
        for chunk in paragraph.split():
            parts: list[tuple[str, str | None]] = []
            for match in _TOKEN.finditer(chunk):
                if match.group(1):
                    parts.append(("", match.group(1)))
                elif match.group(2):
                    parts.append((match.group(2), None))
            if parts:
                result.append(_Word(tuple(parts)))
    return result


@cache
def _hyphenator(lang: str) -> pyphen.Pyphen | None:
    base = lang.split("_")[0]
    for candidate in (lang, base):
        if candidate in pyphen.LANGUAGES or pyphen.language_fallback(candidate):
            return pyphen.Pyphen(lang=pyphen.language_fallback(candidate) or candidate)
    return None


class _Measurer:
    def __init__(self, style: str, size_pt: float) -> None:
        self.style = style
        self.size = size_pt
        self.space = string_width_mm(" ", style, size_pt)

    def pieces(self, word: _Word) -> list[Piece]:
        out: list[Piece] = []
        for text, icon in word.parts:
            if icon is not None:
                out.append(Piece("", icon, self.size * ICON_WIDTH * PT_TO_MM))
            else:
                out.append(Piece(text, None, string_width_mm(text, self.style, self.size)))
        return out


def _hyphen_splits(word: _Word, lang: str) -> list[tuple[_Word, _Word]]:
    """Ways to split a plain word at dictionary hyphenation points, longest head first."""
    if len(word.parts) != 1 or word.parts[0][1] is not None:
        return []
    text = word.parts[0][0]
    hyphenator = _hyphenator(lang)
    if hyphenator is None:
        return []
    splits = []
    for head, tail in hyphenator.iterate(text):
        head_text = head if head.endswith("-") else head + "-"
        splits.append((_Word(((head_text, None),)), _Word(((tail, None),))))
    return splits


def _fitting_split(word: _Word, measure: _Measurer, room_mm: float,
                   lang: str | None) -> tuple[_Word, _Word] | None:
    """The longest hyphenated head of ``word`` that fits in ``room_mm``, with its tail."""
    if lang is None:
        return None
    for head, tail in _hyphen_splits(word, lang):
        if sum(p.width_mm for p in measure.pieces(head)) <= room_mm + 1e-6:
            return head, tail
    return None


def _break_lines(words: list[_Word | None], measure: _Measurer, width_mm: float,
                 lang: str | None) -> tuple[list[Line], bool, float]:
    """Greedy line breaking; returns lines, whether any word was hyphenated, widest excess."""
    lines: list[Line] = []
    current: list[Piece] = []
    current_width = 0.0
    hyphenated = False
    too_wide = 0.0
    queue = list(words)

    def flush() -> None:
        nonlocal current, current_width
        lines.append(Line(tuple(current), current_width))
        current, current_width = [], 0.0

    while queue:
        word = queue.pop(0)
        if word is None:
            flush()
            continue
        pieces = measure.pieces(word)
        word_width = sum(p.width_mm for p in pieces)
        gap = measure.space if current else 0.0
        if current_width + gap + word_width <= width_mm + 1e-6:
            if current:
                current.append(Piece(" ", None, gap))
            current.extend(pieces)
            current_width += gap + word_width
            continue
        split = _fitting_split(word, measure, width_mm - current_width - gap, lang)
        if split is not None:
            queue[:0] = split
            hyphenated = True
            continue
        if current:
            flush()
            queue.insert(0, word)
            continue
        # a single word wider than the line: it stays on its own line and overflows sideways
        current.extend(pieces)
        current_width = word_width
        too_wide = max(too_wide, word_width - width_mm)
        flush()
    if current:
        flush()
    return lines, hyphenated, too_wide


@lru_cache(maxsize=4096)
def fit_text(text: str, width_mm: float, height_mm: float, style: str, size_pt: float,
             min_size_pt: float | None = None, lang: str | None = None) -> FittedText:
    """Largest size (down to ``min_size_pt``) at which ``text`` fits; then try hyphenation.

    A pure function of its arguments, so results are cached: the same label on 55 ship cards
    is fitted once."""
    words = split_words(text)
    smallest = min(min_size_pt or size_pt, size_pt)

    def attempt(size: float, hyphenate_lang: str | None) -> FittedText:
        measure = _Measurer(style, size)
        lines, hyphenated, too_wide = _break_lines(words, measure, width_mm, hyphenate_lang)
        leading = size * LEADING * PT_TO_MM
        height = len(lines) * leading - (leading - size * PT_TO_MM) if lines else 0.0
        overflow = max(height - height_mm, too_wide, 0.0)
        return FittedText(size, leading, tuple(lines), hyphenated, round(overflow, 2))

    size = size_pt
    while True:
        result = attempt(size, None)
        if result.fits:
            return result
        if size - SIZE_STEP < smallest - 1e-9:
            break
        size -= SIZE_STEP
    if lang is not None:
        hyphenated = attempt(smallest, lang)
        if hyphenated.fits or hyphenated.overflow_mm < result.overflow_mm:
            return hyphenated
    return result
