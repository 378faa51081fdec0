"""The font families pnp prints with, registered from their Python packages.

Fonts come from declared dependencies (fontpkg-pt-sans, fontpkg-pt-sans-narrow): PT Sans was
drawn for Russian and Latin alike, so Cyrillic and Latin texts share one look. ReportLab embeds
TrueType fonts as subsets, so every PDF carries exactly the glyphs it uses.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: style name used in templates -> (package, file, ReportLab font name)
FONT_FILES: dict[str, tuple[str, str, str]] = {
    "regular": ("fontpkg_pt_sans", "PT_Sans-Web-Regular.ttf", "PTSans-Regular"),
    "bold": ("fontpkg_pt_sans", "PT_Sans-Web-Bold.ttf", "PTSans-Bold"),
    "italic": ("fontpkg_pt_sans", "PT_Sans-Web-Italic.ttf", "PTSans-Italic"),
    "bold-italic": ("fontpkg_pt_sans", "PT_Sans-Web-BoldItalic.ttf", "PTSans-BoldItalic"),
    "narrow": ("fontpkg_pt_sans_narrow", "PT_Sans-Narrow-Web-Regular.ttf", "PTSansNarrow-Regular"),
    "narrow-bold": ("fontpkg_pt_sans_narrow", "PT_Sans-Narrow-Web-Bold.ttf", "PTSansNarrow-Bold"),
}

DEFAULT_STYLE = "regular"
#: a pack's own font is the style ``file:<absolute path>`` (see :func:`pack_font_style`)
FILE_STYLE = "file:"


def font_path(style: str) -> Path:
    if style.startswith(FILE_STYLE):
        return Path(style[len(FILE_STYLE):])
    package, file, _ = FONT_FILES[style]
    return Path(str(resources.files(package).joinpath("files", file)))


def pack_font_style(path: Path) -> str:
    """Register a pack's TrueType file and return the style name templates print it with.

    Raises ``ValueError`` with a readable reason when the file is not a usable TrueType font
    (ReportLab embeds TrueType outlines only, as subsets)."""
    style = f"{FILE_STYLE}{path.resolve()}"
    try:
        font_name(style)
    except Exception as exc:  # ReportLab's TTFError and whatever a damaged file provokes
        raise ValueError(str(exc).splitlines()[0][:160] or type(exc).__name__) from None
    return style


@cache
def font_name(style: str) -> str:
    """Register the style's TrueType font with ReportLab (once) and return its name."""
    if style.startswith(FILE_STYLE):
        import hashlib

        path = font_path(style)
        name = "PackFont-" + hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:12]
    else:
        _, _, name = FONT_FILES[style]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, _font_source(style)))
    return name


def _font_source(style: str) -> str | io.BytesIO:
    """A built-in font's path; a pack's font as bytes read under the pack file policy (a
    regular file within the font size limit: a named pipe must not block ReportLab's open)."""
    if not style.startswith(FILE_STYLE):
        return str(font_path(style))
    from generator.load.packfiles import read_named_file

    raw, refusal = read_named_file(font_path(style), "font")
    if refusal is not None or raw is None:
        raise ValueError(f"the file {refusal.reason if refusal else 'cannot be read'}")
    return io.BytesIO(raw)


@cache
def _charmap(style: str) -> frozenset[int]:
    font = pdfmetrics.getFont(font_name(style))
    return frozenset(font.face.charToGlyph)


@cache
def _drawable(style: str) -> frozenset[str]:
    return frozenset(map(chr, _charmap(style)))


def missing_glyphs(text: str, style: str) -> list[str]:
    """Characters of ``text`` the style's font cannot draw (they would print as empty boxes)."""
    drawable = _drawable(style)
    if drawable.issuperset(text):  # nearly every text: one set operation in C
        return []
    return sorted({ch for ch in text if ch not in drawable and not ch.isspace()})


#: widths already measured: card texts repeat the same words (class names, "Hits", numbers)
#: on thousands of cards, and a lookup costs a tenth of a measurement; bounded, then afresh
_WIDTHS: dict[tuple[str, str, float], float] = {}
_WIDTHS_LIMIT = 200_000


def string_width_mm(text: str, style: str, size_pt: float) -> float:
    key = (text, style, size_pt)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) >= _WIDTHS_LIMIT:
            _WIDTHS.clear()
        width = _WIDTHS[key] = \
            pdfmetrics.stringWidth(text, font_name(style), size_pt) * 25.4 / 72.0
    return width
