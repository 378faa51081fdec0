"""Fit a text into a box: shrink to the box's minimum size, then hyphenate, else report overflow.

We break lines ourselves rather than through ReportLab's Paragraph because card text mixes words
with inline vector icons (``{gun-5in}``) that must sit on the baseline at text size, and because
the overflow finding needs an exact figure in millimetres. Widths come from the embedded font's
own metrics, hyphenation points from pyphen's per-language dictionaries.

Rich text (generator.layout.richtext) is measured as it prints: each run in its own font (a
bold word is wider), a word whose style changes in its middle is one word, and it hyphenates
across the change. A text without markup takes the plain path, as before rich text existed.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from msgspec import Struct

from generator.layout.richtext import Markup, Style, has_markup, parse
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


#: the font styles of a text's runs: (regular, bold, italic, bold italic)
Variants = tuple[str, str, str, str]
#: the bold, italic and bold-italic styles of each built-in style; a style without an italic
#: (PT Sans Narrow has none) takes PT Sans Italic, the nearest drawn italic
BUILTIN_VARIANTS: dict[str, Variants] = {
    "regular": ("regular", "bold", "italic", "bold-italic"),
    "bold": ("bold", "bold", "bold-italic", "bold-italic"),
    "italic": ("italic", "bold-italic", "italic", "bold-italic"),
    "bold-italic": ("bold-italic", "bold-italic", "bold-italic", "bold-italic"),
    "narrow": ("narrow", "narrow-bold", "italic", "bold-italic"),
    "narrow-bold": ("narrow-bold", "narrow-bold", "bold-italic", "bold-italic"),
}


def variants_of(style: str) -> Variants:
    """The styles ``<b>`` and ``<i>`` turn ``style`` into (a pack's own font without declared
    variants: PT Sans Bold and Italic)."""
    return BUILTIN_VARIANTS.get(style) or (style, "bold", "italic", "bold-italic")


def run_style(variants: Variants, style: Style | None) -> str:
    """The font style a run prints in."""
    if style is None:
        return variants[0]
    return variants[(1 if style.bold else 0) + (2 if style.italic else 0)]


class Piece(Struct, frozen=True, gc=False):
    """A word fragment or an inline icon, with its width at the line's size (and its rich-text
    style: None where no tag applies)."""

    text: str
    icon: str | None
    width_mm: float
    style: Style | None = None


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


Part = tuple[str, str | None, Style | None]  # (text, icon, style)


class _Word(Struct, frozen=True, gc=False):
    """A run of pieces with no space inside (a word, possibly glued to icons or punctuation,
    possibly changing style in its middle)."""

    parts: tuple[Part, ...]
    breaks: _Breaks | None = None  # a plain word's hyphenation points, once looked up

    @property
    def plain(self) -> str:
        return "".join(text for text, icon, _ in self.parts if icon is None)


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
                    parts.append(("", match.group(1), None))
                elif match.group(2):
                    parts.append((match.group(2), None, None))
            if parts:
                result.append(_Word(tuple(parts)))
    return result


_SPACES = re.compile(r"(\s+)")
_ICON_OR_TEXT = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}|((?:(?!\{[a-z0-9][a-z0-9-]*\}).)+)")


def styled_words(markup: Markup) -> list[_Word | None]:
    """Words and line breaks of a rich text: as :func:`split_words`, where a word may hold
    runs of several styles (``<b>Gun</b>boat`` is one word, in two fonts)."""
    result: list[_Word | None] = []
    parts: list[Part] = []

    def flush() -> None:
        if parts:
            result.append(_Word(tuple(parts)))
            parts.clear()

    for text, style in markup.segments:
        for chunk in _SPACES.split(text):
            if not chunk:
                continue
            if chunk.isspace():
                flush()
                result.extend([None] * chunk.count("\n"))
                continue
            for match in _ICON_OR_TEXT.finditer(chunk):
                if match.group(1):
                    parts.append(("", match.group(1), style))
                elif parts and parts[-1][1] is None and parts[-1][2] == style:
                    parts[-1] = (parts[-1][0] + match.group(2), None, style)
                else:
                    parts.append((match.group(2), None, style))
    flush()
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
    def __init__(self, style: str, size_pt: float, variants: Variants | None = None) -> None:
        self.style = style
        self.size = size_pt
        self.variants = variants or variants_of(style)
        self.space = string_width_mm(" ", style, size_pt)

    def width(self, word: _Word) -> float:
        return sum(piece.width_mm for piece in self.pieces(word))

    def space_in(self, style: Style | None) -> float:
        """A space's width in a run's style (the plain space for a plain run)."""
        if style is None:
            return self.space
        return string_width_mm(" ", run_style(self.variants, style), self.size)

    def pieces(self, word: _Word) -> list[Piece]:
        out: list[Piece] = []
        for text, icon, style in word.parts:
            if icon is not None:
                out.append(Piece("", icon, self.size * ICON_WIDTH * PT_TO_MM, style))
            elif style is None:
                out.append(Piece(text, None, string_width_mm(text, self.style, self.size)))
            else:
                out.append(Piece(text, None, string_width_mm(
                    text, run_style(self.variants, style), self.size), style))
        return out


def _breaks(word: _Word, lang: str) -> _Breaks:
    """Hyphenation points of a plain word (as pyphen gives them), ascending."""
    if word.breaks is not None:
        return word.breaks
    hyphenator = _hyphenator(lang)
    text = word.parts[0][0] if len(word.parts) == 1 else word.plain
    if hyphenator is None or len(text) > LONGEST_WORD:
        return _Breaks(())
    return _Breaks(tuple((int(p), tuple(p.data) if p.data else None)  # type: ignore[misc]
                         for p in hyphenator.positions(text)))


def _cut_points(text: str, point: Break) -> tuple[int, str, str, int]:
    """Where ``text`` breaks at ``point``: the head keeps ``text[:kept]`` and adds ``before``
    (then a hyphen), the tail is ``after`` and ``text[resume:]`` (nonstandard points as
    pyphen's ``iterate`` applies them)."""
    position, data = point
    if data is None:
        return position, "", "", position
    change, offset, cut = data
    at = position + offset
    if text.isupper():
        change = change.upper()
    before, after = change.split("=")
    return at, before, after, at + cut


def _cut(text: str, point: Break) -> tuple[str, str, int]:
    """Head and tail of ``text`` broken at ``point``, and how far the tail starts to the
    right of the text's start."""
    kept, before, after, resume = _cut_points(text, point)
    head = text[:kept] + before
    return (head if head.endswith("-") else head + "-"), after + text[resume:], \
        resume - len(after)


def _split_at(word: _Word, breaks: _Breaks, index: int) -> tuple[_Word, _Word]:
    if len(word.parts) > 1:
        return _split_styled(word, breaks, index)
    head, tail, moved = _cut(word.parts[0][0], breaks[index])
    rest = _Breaks(breaks.points, breaks.first + index + 1, breaks.shift + moved)
    style = word.parts[0][2]
    return _Word(((head, None, style),), _Breaks(())), _Word(((tail, None, style),), rest)


def _split_styled(word: _Word, breaks: _Breaks, index: int) -> tuple[_Word, _Word]:
    """A word of several runs broken at a hyphenation point of its whole text: each letter
    keeps its run's style; the hyphen and any letters the break adds take the style of the
    letter beside them."""
    text = word.plain
    styles = [style for part, _, style in word.parts for _ in part]
    kept, before, after, resume = _cut_points(text, breaks[index])
    head_styles = styles[:kept] + [styles[max(kept - 1, 0)]] * len(before)
    head = text[:kept] + before
    if not head.endswith("-"):
        head += "-"
        head_styles.append(head_styles[-1] if head_styles else styles[0])
    tail = after + text[resume:]
    tail_styles = [styles[min(resume, len(styles) - 1)]] * len(after) + styles[resume:]
    rest = _Breaks(breaks.points, breaks.first + index + 1,
                   breaks.shift + resume - len(after))
    return (_Word(_runs(head, head_styles), _Breaks(())),
            _Word(_runs(tail, tail_styles), rest))


def _runs(text: str, styles: list[Style | None]) -> tuple[Part, ...]:
    """``text`` as parts of one style each."""
    parts: list[Part] = []
    for char, style in zip(text, styles, strict=True):
        if parts and parts[-1][2] == style:
            parts[-1] = (parts[-1][0] + char, None, style)
        else:
            parts.append((char, None, style))
    return tuple(parts)


def _fitting_split(word: _Word, measure: _Measurer, room_mm: float,
                   lang: str | None) -> tuple[_Word, _Word] | None:
    """The longest hyphenated head of ``word`` that fits in ``room_mm``, with its tail.

    Heads grow with the break point, so the longest fitting one is found by bisection: a word
    of n characters costs O(n log n) to break once, not a measurement per hyphenation point."""
    if lang is None or any(icon is not None for _, icon, _ in word.parts):
        return None
    breaks = _breaks(word, lang)
    text = word.parts[0][0]
    style = word.parts[0][2]
    low, high, best = 0, len(breaks) - 1, None
    while low <= high:
        middle = (low + high) // 2
        if len(word.parts) > 1:
            head_word = _split_styled(word, breaks, middle)[0]
        else:
            head_word = _Word(((_cut(text, breaks[middle])[0], None, style),))
        if measure.width(head_word) <= room_mm + 1e-6:
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
        # a space inside a run (between two bold words) is in the run's style: an underline
        # goes on under it, and it is as wide as the run's font draws it
        gap_style = current[-1].style if current and current[-1].style == pieces[0].style \
            else None
        gap = (measure.space if gap_style is None else measure.space_in(gap_style)) \
            if current else 0.0
        if current_width + gap + word_width <= width_mm + 1e-6:
            if current:
                current.append(Piece(" ", None, gap, gap_style))
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
                for _, icon, _ in word.parts if icon is not None)
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
             min_size_pt: float | None = None, lang: str | None = None,
             variants: Variants | None = None) -> FittedText:
    """Largest size (down to ``min_size_pt``) at which ``text`` fits; then try hyphenation.
    ``text`` may hold rich text, whose runs print in ``variants`` of ``style`` (default: its
    built-in bold and italic).

    Trying a size stops as soon as the lines outnumber what the box holds, and a text that
    overflows is laid out only a little past its box (the rest is measured in one go for the
    overflow figure), so fitting costs about the box's capacity per size plus the text's
    length once: a 10,000-character text takes as long as a few lines. A pure function of its
    arguments, so results are cached: the same label on 55 ship cards is fitted once."""
    smallest = min(min_size_pt or size_pt, size_pt)
    sizes = _sizes(size_pt, smallest)
    marked = has_markup(text)
    if "\n" not in text and "{" not in text and not marked and len(sizes) <= LINEAR_SIZES:
        one_line = _on_one_line(text, width_mm, height_mm, style, sizes)
        if one_line is not None:
            return one_line
    words = styled_words(parse(text)) if marked else split_words(text)

    def attempt(size: float, hyphenate_lang: str | None, final: bool) -> FittedText:
        measure = _Measurer(style, size, variants)
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
