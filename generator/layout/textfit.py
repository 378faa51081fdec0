"""Fit a text into a box: shrink to the box's minimum size, then hyphenate, else report overflow.

We break lines ourselves rather than through ReportLab's Paragraph because card text mixes words
with inline vector icons (``{gun-5in}``) that must sit on the baseline at text size, and because
the overflow finding needs an exact figure in millimetres. Widths come from the embedded font's
own metrics, hyphenation points from pyphen's per-language dictionaries.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from msgspec import Struct

from generator.load.fonts import string_width_mm

if TYPE_CHECKING:
    import pyphen

PT_TO_MM = 25.4 / 72.0
LEADING = 1.18  # line height as a multiple of the font size
ICON_WIDTH = 1.15  # an inline icon's advance as a multiple of the font size
SIZE_STEP = 0.25  # points
#: longer "words" are not looked up in the hyphenation dictionary (no language has them; the
#: lookup costs the word's length times the dictionary's longest pattern): they overflow
LONGEST_WORD = 100
#: lines laid out past a box's capacity for an overflowing text; the rest is only measured
OVERFLOW_LINES = 40
#: up to this many sizes are tried one by one, more (a template spanning 1-100 pt) by bisection
LINEAR_SIZES = 24

_TOKEN = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}|(\S+?)(?=\{[a-z0-9][a-z0-9-]*\}|\s|$)|(\s+)")


class Piece(Struct, frozen=True, gc=False):
    """A word fragment or an inline icon, with its width at the line's size."""

    text: str
    icon: str | None
    width_mm: float


class Line(Struct, frozen=True, gc=False):
    pieces: tuple[Piece, ...]
    width_mm: float


class FittedText(Struct, frozen=True, gc=False):
    size_pt: float
    leading_mm: float
    lines: tuple[Line, ...]
    hyphenated: bool
    overflow_mm: float  # 0 when it fits; else how far the text runs past the box (height/width)

    @property
    def fits(self) -> bool:
        return self.overflow_mm <= 0.0


Break = tuple[int, tuple[str, int, int] | None]  # position, pyphen's nonstandard change


class _Breaks(Struct, frozen=True, gc=False):
    """Hyphenation points of a whole word, seen from a tail of it: the points from ``first``
    on, each ``shift`` characters further right than in the tail's text. A tail shares the
    word's points instead of asking the dictionary again (a long word would otherwise cost its
    length squared)."""

    points: tuple[Break, ...]
    first: int = 0
    shift: int = 0

    def __len__(self) -> int:
        return len(self.points) - self.first

    def __getitem__(self, index: int) -> Break:
        position, data = self.points[self.first + index]
        return position - self.shift, data


class _Word(Struct, frozen=True, gc=False):
    """A run of pieces with no space inside (a word, possibly glued to icons or punctuation)."""

    parts: tuple[tuple[str, str | None], ...]  # (text, icon) pairs
    breaks: _Breaks | None = None  # a plain word's hyphenation points, once looked up

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
    # imported at the first word that needs breaking: most cards never hyphenate, and pyphen
    # lists its dictionaries when imported (5 ms of a 178-card build)
    import pyphen

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

    def width(self, word: _Word) -> float:
        return sum(piece.width_mm for piece in self.pieces(word))

    def pieces(self, word: _Word) -> list[Piece]:
        out: list[Piece] = []
        for text, icon in word.parts:
            if icon is not None:
                out.append(Piece("", icon, self.size * ICON_WIDTH * PT_TO_MM))
            else:
                out.append(Piece(text, None, string_width_mm(text, self.style, self.size)))
        return out


def _breaks(word: _Word, lang: str) -> _Breaks:
    """Hyphenation points of a plain word (as pyphen gives them), ascending."""
    if word.breaks is not None:
        return word.breaks
    hyphenator = _hyphenator(lang)
    if hyphenator is None or len(word.parts[0][0]) > LONGEST_WORD:
        return _Breaks(())
    return _Breaks(tuple((int(p), tuple(p.data) if p.data else None)  # type: ignore[misc]
                         for p in hyphenator.positions(word.parts[0][0])))


def _cut(text: str, point: Break) -> tuple[str, str, int]:
    """Head and tail of ``text`` broken at ``point`` (nonstandard points as pyphen's
    ``iterate`` applies them), and how far the tail starts to the right of the text's start."""
    position, data = point
    if data is None:
        head = text[:position]
        return (head if head.endswith("-") else head + "-"), text[position:], position
    change, offset, cut = data
    at = position + offset
    if text.isupper():
        change = change.upper()
    before, after = change.split("=")
    head = text[:at] + before
    return (head if head.endswith("-") else head + "-"), after + text[at + cut:], \
        at + cut - len(after)


def _split_at(word: _Word, breaks: _Breaks, index: int) -> tuple[_Word, _Word]:
    head, tail, moved = _cut(word.parts[0][0], breaks[index])
    rest = _Breaks(breaks.points, breaks.first + index + 1, breaks.shift + moved)
    return _Word(((head, None),), _Breaks(())), _Word(((tail, None),), rest)


def _fitting_split(word: _Word, measure: _Measurer, room_mm: float,
                   lang: str | None) -> tuple[_Word, _Word] | None:
    """The longest hyphenated head of ``word`` that fits in ``room_mm``, with its tail.

    Heads grow with the break point, so the longest fitting one is found by bisection: a word
    of n characters costs O(n log n) to break once, not a measurement per hyphenation point."""
    if lang is None or len(word.parts) != 1 or word.parts[0][1] is not None:
        return None
    breaks = _breaks(word, lang)
    text = word.parts[0][0]
    low, high, best = 0, len(breaks) - 1, None
    while low <= high:
        middle = (low + high) // 2
        head = _cut(text, breaks[middle])[0]
        if measure.width(_Word(((head, None),))) <= room_mm + 1e-6:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return None if best is None else _split_at(word, breaks, best)


def _break_lines(words: list[_Word | None], measure: _Measurer, width_mm: float,
                 lang: str | None, max_lines: int
                 ) -> tuple[list[Line], bool, float, list[_Word | None]]:
    """Greedy line breaking; returns lines, whether any word was hyphenated, widest excess, and
    the words left over once more than ``max_lines`` lines are made (the caller knows by then
    that the text cannot fit, so the work per box stays bounded by the box, not the text)."""
    lines: list[Line] = []
    current: list[Piece] = []
    current_width = 0.0
    hyphenated = False
    too_wide = 0.0
    queue = deque(words)

    def flush() -> None:
        nonlocal current, current_width
        lines.append(Line(tuple(current), current_width))
        current, current_width = [], 0.0

    while queue:
        if len(lines) > max_lines:
            return lines, hyphenated, too_wide, list(queue)
        word = queue.popleft()
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
            queue.extendleft(reversed(split))
            hyphenated = True
            continue
        if current:
            flush()
            queue.appendleft(word)
            continue
        # a single word wider than the line: it stays on its own line and overflows sideways
        current.extend(pieces)
        current_width = word_width
        too_wide = max(too_wide, word_width - width_mm)
        flush()
    if current:
        flush()
    return lines, hyphenated, too_wide, []


def _lines_for(rest: list[_Word | None], measure: _Measurer, width_mm: float) -> int:
    """About how many more lines the words left over would take (one measurement in C)."""
    plain = " ".join(word.plain for word in rest if word is not None)
    icons = sum(1 for word in rest if word is not None
                for _, icon in word.parts if icon is not None)
    width = string_width_mm(plain, measure.style, measure.size) + icons * measure.size * \
        ICON_WIDTH * PT_TO_MM
    breaks = sum(1 for word in rest if word is None)
    return math.ceil(width / max(width_mm, 0.1)) + breaks


def _capacity(height_mm: float, size_pt: float) -> int:
    """Lines of ``size_pt`` text that fit in ``height_mm``."""
    leading = size_pt * LEADING * PT_TO_MM
    return max(0, math.floor((height_mm + leading - size_pt * PT_TO_MM) / leading + 1e-9))


def _sizes(size_pt: float, smallest: float) -> list[float]:
    sizes = [size_pt]
    while sizes[-1] - SIZE_STEP >= smallest - 1e-9:
        sizes.append(sizes[-1] - SIZE_STEP)
    return sizes


@lru_cache(maxsize=4096)
def fit_text(text: str, width_mm: float, height_mm: float, style: str, size_pt: float,
             min_size_pt: float | None = None, lang: str | None = None) -> FittedText:
    """Largest size (down to ``min_size_pt``) at which ``text`` fits; then try hyphenation.

    Trying a size stops as soon as the lines outnumber what the box holds, and a text that
    overflows is laid out only a little past its box (the rest is measured in one go for the
    overflow figure), so fitting costs about the box's capacity per size plus the text's
    length once: a 10,000-character text takes as long as a few lines. A pure function of its
    arguments, so results are cached: the same label on 55 ship cards is fitted once."""
    smallest = min(min_size_pt or size_pt, size_pt)
    sizes = _sizes(size_pt, smallest)
    if "\n" not in text and "{" not in text and len(sizes) <= LINEAR_SIZES:
        one_line = _on_one_line(text, width_mm, height_mm, style, sizes)
        if one_line is not None:
            return one_line
    words = split_words(text)

    def attempt(size: float, hyphenate_lang: str | None, final: bool) -> FittedText:
        measure = _Measurer(style, size)
        capacity = _capacity(height_mm, size)
        limit = capacity + (OVERFLOW_LINES if final else 0)
        lines, hyphenated, too_wide, rest = _break_lines(words, measure, width_mm,
                                                         hyphenate_lang, limit)
        count = len(lines) + (_lines_for(rest, measure, width_mm) if rest and final else 0)
        leading = size * LEADING * PT_TO_MM
        height = count * leading - (leading - size * PT_TO_MM) if count else 0.0
        overflow = max(height - height_mm, too_wide, 0.0)
        return FittedText(size, leading, tuple(lines), hyphenated, round(overflow, 2))

    tried: dict[float, FittedText] = {}

    def fits(size: float) -> bool:
        tried[size] = attempt(size, None, False)  # a text that fits was laid out in full
        return tried[size].fits

    first_fit = _first_fitting(sizes, fits)
    if first_fit is not None:
        return tried[sizes[first_fit]]
    result = attempt(sizes[-1], None, True)
    if lang is not None:
        hyphenated = attempt(smallest, lang, True)
        if hyphenated.fits or hyphenated.overflow_mm < result.overflow_mm:
            return hyphenated
    return result


def _on_one_line(text: str, width_mm: float, height_mm: float, style: str,
                 sizes: list[float]) -> FittedText | None:
    """The fitted text when a plain text (no icons, no line breaks) fits on one line at one of
    ``sizes``, where the box holds one line: the same result as the general line breaker's,
    without its work. Most card texts are such (names, classes, costs), and a name too long at
    the template's size is measured once per smaller size instead of laid out. None: let the
    general breaker decide (a box of several lines, a word wider than the box, no fit)."""
    words = text.split()
    if not words:
        return None
    for size in sizes:
        capacity = _capacity(height_mm, size)
        if capacity != 1:
            return None  # two lines or more might fit (or none does): the general breaker
        space = string_width_mm(" ", style, size)
        pieces: list[Piece] = []
        total = 0.0
        for word in words:
            width = string_width_mm(word, style, size)
            if pieces:
                pieces.append(Piece(" ", None, space))
                total += space + width
            else:
                if width > width_mm + 1e-6:
                    return None  # overflows sideways: the general breaker measures it
                total = width
            pieces.append(Piece(word, None, width))
        if total <= width_mm + 1e-6:
            leading = size * LEADING * PT_TO_MM
            return FittedText(size, leading, (Line(tuple(pieces), total),), False, 0.0)
    return None


def _first_fitting(sizes: list[float], fits: Callable[[float], bool]) -> int | None:
    """Index of the largest size that fits: tried in turn from the largest when there are few
    sizes (as a typesetter would), by bisection when a template spans many sizes."""
    if len(sizes) <= LINEAR_SIZES:
        return next((index for index, size in enumerate(sizes) if fits(size)), None)
    if not fits(sizes[-1]):
        return None
    low, high = 0, len(sizes) - 1  # sizes[high] fits
    while low < high:
        middle = (low + high) // 2
        if fits(sizes[middle]):
            high = middle
        else:
            low = middle + 1
    return high
