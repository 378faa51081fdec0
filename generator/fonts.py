"""The font families pnp prints with, registered from their Python packages.

Fonts come from declared dependencies (fontpkg-pt-sans, fontpkg-pt-sans-narrow): PT Sans was
drawn for Russian and Latin alike, so Cyrillic and Latin texts share one look. ReportLab embeds
TrueType fonts as subsets, so every PDF carries exactly the glyphs it uses.
"""

from __future__ import annotations

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


def font_path(style: str) -> Path:
    package, file, _ = FONT_FILES[style]
    return Path(str(resources.files(package).joinpath("files", file)))


@cache
def font_name(style: str) -> str:
    """Register the style's TrueType font with ReportLab (once) and return its name."""
    _, _, name = FONT_FILES[style]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(font_path(style))))
    return name


@cache
def _charmap(style: str) -> frozenset[int]:
    font = pdfmetrics.getFont(font_name(style))
    return frozenset(font.face.charToGlyph)


def missing_glyphs(text: str, style: str) -> list[str]:
    """Characters of ``text`` the style's font cannot draw (they would print as empty boxes)."""
    charmap = _charmap(style)
    return sorted({ch for ch in text if ord(ch) not in charmap and not ch.isspace()})


def string_width_mm(text: str, style: str, size_pt: float) -> float:
    return pdfmetrics.stringWidth(text, font_name(style), size_pt) * 25.4 / 72.0
