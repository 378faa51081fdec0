"""``pnp preflight``: the checks a print shop runs on card files, run before sending them.

Per card and side it reports text too close to the cut (outside the safe zone, by default
3 mm inside the trim; inside the cut itself it is an error), art that reaches the trim but not
the bleed (a white sliver after an imprecise cut), strokes thinner than 0.25 pt (lost on
most printers), images under 300 dpi at their printed size, fonts not embedded, and
transparency (``opacity``), which the PDF/X-1a files DriveThruCards asks for forbid.

The geometry checks read the laid-out drawing operations (each knows its text, colour and
place); images and fonts are read from the card PDF pnp itself renders (pdfium), so they hold
for whatever drew them. A face shared by many cards (a common back) is reported once, at the
first card that shows it.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from msgspec import Struct

from generator.core.findings import Finding, Severity, error, has_errors, warning
from generator.layout.engine import FaceLayout
from generator.layout.ops import (
    Arc,
    Circle,
    Ellipse,
    Group,
    Line,
    Op,
    Polygon,
    Rect,
    Text,
    flat_ops,
)
from generator.layout.textfit import PT_TO_MM
from generator.load.fonts import string_width_mm
from generator.model.cards import Card
from generator.pipeline.prepare import Prepared, prepare
from generator.render.cardpdf import card_pdf_bytes, plain_frame

FaceKey = tuple[str, str]
ASCENT, DESCENT = 0.76, 0.24  # PT Sans, share of the font size above and below the baseline
#: an edge this close to the trim counts as reaching it (no cut is more precise)
TOUCH_MM = 0.3
MAX_NAMED = 3  # texts named in one finding
WHITE = {"#fff", "#ffffff"}


class PreflightOptions(Struct, frozen=True, gc=False):
    safe_mm: float = 3.0
    bleed_mm: float = 3.175  # 1/8 in, what print services ask for
    min_stroke_pt: float = 0.25
    min_dpi: int = 300


class Problem(Struct, frozen=True, gc=False):
    severity: Severity
    code: str
    message: str


def _text_box(op: Text) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of a text's glyphs on the card (rotated texts too)."""
    size = op.size_pt * PT_TO_MM
    width = string_width_mm(op.text, op.font, op.size_pt)
    start = {"left": 0.0, "center": -width / 2, "right": -width}.get(op.anchor, 0.0)
    angle = math.radians(op.angle)
    cos, sin = math.cos(angle), math.sin(angle)
    xs, ys = [], []
    for u in (start, start + width):
        for v in (-DESCENT * size, ASCENT * size):
            xs.append(op.x + u * cos - v * sin)
            ys.append(op.y - (u * sin + v * cos))
    return min(xs), min(ys), max(xs), max(ys)


def _shape_box(op: Op) -> tuple[float, float, float, float] | None:
    """Left, top, right, bottom of a filled shape, or None for what is not a filled area."""
    if isinstance(op, Rect | Ellipse) and op.fill:
        return op.x, op.y, op.x + op.w, op.y + op.h
    if isinstance(op, Polygon) and op.fill and op.closed:
        xs = [p[0] for p in op.points]
        ys = [p[1] for p in op.points]
        return min(xs), min(ys), max(xs), max(ys)
    if isinstance(op, Circle) and op.fill:
        return op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r
    if hasattr(op, "path") and hasattr(op, "w"):  # placed art (the image element), clipped
        x, y, w, h = getattr(op, "clip", None) or (op.x, op.y, op.w, op.h)
        return x, y, x + w, y + h
    return None


def _quote(text: str) -> str:
    return f"'{text if len(text) <= 30 else text[:29] + '…'}'"


def text_problems(face: FaceLayout, safe_mm: float) -> list[Problem]:
    cut: list[tuple[float, str]] = []
    close: list[tuple[float, str]] = []
    for op in flat_ops(face.ops):
        if not isinstance(op, Text) or not op.text.strip():
            continue
        left, top, right, bottom = _text_box(op)
        gap = min(left, top, face.width_mm - right, face.height_mm - bottom)
        if gap < 0:
            cut.append((gap, op.text))
        elif gap < safe_mm:
            close.append((gap, op.text))
    problems = []
    for found, severity, code, what in (
            (cut, Severity.ERROR, "text-in-cut", "crosses the trim and is cut (mm inside it)"),
            (close, Severity.WARNING, "text-outside-safe-zone",
             f"is closer than {safe_mm:g} mm to the trim (mm inside it)")):
        if not found:
            continue
        found.sort()
        named = ", ".join(f"{_quote(text)} ({gap:.1f} mm)" for gap, text in found[:MAX_NAMED])
        more = f" and {len(found) - MAX_NAMED} more" if len(found) > MAX_NAMED else ""
        problems.append(Problem(severity, code, f"text {what}: {named}{more}"))
    return problems


def bleed_problems(face: FaceLayout, bleed_mm: float) -> list[Problem]:
    """Art reaching a trim edge must go on to the bleed edge, or an imprecise cut leaves a
    white sliver along that side."""
    short: dict[str, float] = {}
    for op in flat_ops(face.ops):
        box = _shape_box(op)
        if box is None or str(getattr(op, "fill", "")).lower() in WHITE:
            continue
        left, top, right, bottom = box
        reach = {"left": -left, "top": -top, "right": right - face.width_mm,
                 "bottom": bottom - face.height_mm}
        for side, past in reach.items():
            if -TOUCH_MM <= past < bleed_mm - 0.01:
                short[side] = min(short.get(side, past), past)
    if not short:
        return []
    sides = ", ".join(f"{side} ({max(past, 0):.1f} of {bleed_mm:g} mm)"
                      for side, past in short.items())
    return [Problem(Severity.ERROR, "art-short-of-bleed",
                    f"art reaches the trim but not the bleed on the {sides}: an imprecise cut "
                    "leaves a white sliver there (mark the element bleed: true)")]


def stroke_problems(face: FaceLayout, min_pt: float) -> list[Problem]:
    thin = sorted({op.width_pt for op in flat_ops(face.ops)
                   if isinstance(op, Rect | Polygon | Ellipse | Circle | Arc | Line) and op.stroke
                   and op.width_pt < min_pt})
    if not thin:
        return []
    widths = ", ".join(f"{w:.2f} pt" for w in thin)
    return [Problem(Severity.WARNING, "thin-stroke",
                    f"lines of {widths}: under {min_pt:g} pt they may not print")]


def _font_name(font: ctypes.c_void_p) -> str:
    """The font's PostScript name (older pdfium builds only have its family name)."""
    getter = getattr(pdfium_raw, "FPDFFont_GetBaseFontName", None) or getattr(
        pdfium_raw, "FPDFFont_GetFamilyName", None)
    if getter is None:
        return "unnamed"
    size = getter(font, None, 0)
    buffer = ctypes.create_string_buffer(size)
    getter(font, buffer, size)
    return buffer.value.decode("utf-8", "replace") or "unnamed"


def pdf_problems(pdf_bytes: bytes, min_dpi: int) -> Iterator[list[Problem]]:
    """Per page of a PDF: fonts not embedded and images under ``min_dpi`` as placed."""
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for page in document:
            problems: list[Problem] = []
            fonts: set[str] = set()
            low: list[str] = []
            for obj in page.get_objects(filter=(pdfium_raw.FPDF_PAGEOBJ_TEXT,
                                                pdfium_raw.FPDF_PAGEOBJ_IMAGE)):
                if obj.type == pdfium_raw.FPDF_PAGEOBJ_TEXT:
                    font = pdfium_raw.FPDFTextObj_GetFont(obj.raw)
                    if font and not pdfium_raw.FPDFFont_GetIsEmbedded(font):
                        fonts.add(_font_name(font))
                    continue
                meta = obj.get_metadata()
                dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
                if 0 < dpi < min_dpi:
                    low.append(f"{meta.width} x {meta.height} px at {dpi:.0f} dpi")
            if fonts:
                problems.append(Problem(Severity.ERROR, "font-not-embedded",
                                        f"font {', '.join(sorted(fonts))} is not embedded: "
                                        "print services reject such files"))
            if low:
                problems.append(Problem(Severity.WARNING, "image-low-dpi",
                                        f"image {'; '.join(low)}: under {min_dpi} dpi as "
                                        "printed, it prints blurred"))
            yield problems
            page.close()
    finally:
        document.close()


def transparency_problems(face: FaceLayout) -> list[Problem]:
    """Elements drawn with ``opacity`` are real PDF transparency, which PDF/X-1a (what
    DriveThruCards asks for, docs/exports.md) forbids: say so before the upload does."""
    groups = [op for op in face.ops if isinstance(op, Group) and op.opacity < 1]
    if not groups:
        return []
    lowest = min(op.opacity for op in groups)
    return [Problem(Severity.WARNING, "transparency",
                    f"{len(groups)} element{'s' if len(groups) > 1 else ''} drawn with opacity "
                    f"(down to {lowest:g}): DriveThruCards takes PDF/X-1a, which allows no "
                    "transparency; flatten it (a prepress tool's PDF/X-1a conversion) before "
                    "uploading there. The Game Crafter and MakePlayingCards take pictures "
                    "(pnp export --to png), where it is already flattened")]


def face_problems(ready: Prepared, options: PreflightOptions
                  ) -> dict[FaceKey, list[Problem]]:
    layouts = ready.faces.layouts
    keys = list(layouts)
    result = {key: [*text_problems(layouts[key], options.safe_mm),
                    *bleed_problems(layouts[key], options.bleed_mm),
                    *stroke_problems(layouts[key], options.min_stroke_pt),
                    *transparency_problems(layouts[key])] for key in keys}
    pages = ((layouts[key], plain_frame(layouts[key].width_mm, layouts[key].height_mm,
                                        options.bleed_mm)) for key in keys)
    data = card_pdf_bytes(pages, "pnp preflight")
    for key, problems in zip(keys, pdf_problems(data, options.min_dpi), strict=True):
        result[key].extend(problems)
    return result


def findings_of(ready: Prepared, problems: dict[FaceKey, list[Problem]],
                known: list[Finding] = ()) -> list[Finding]:
    """Each face's problems once, at the first card showing it, naming the side. A card whose
    art the validator already found too coarse (``art-low-dpi``, at the card's field) is not
    reported a second time from the PDF."""
    coarse = {f.card for f in known if f.code == "art-low-dpi"}
    users: dict[tuple[FaceKey, str], list[Card]] = {}
    for card in ready.card_set.cards:
        for side, table in (("front", ready.faces.fronts), ("back", ready.faces.backs)):
            users.setdefault((table[card.id], side), []).append(card)
    findings: list[Finding] = []
    for (key, side), cards in users.items():
        shared = f" (the {side} of {len(cards)} cards)" if len(cards) > 1 else ""
        for problem in problems.get(key, []):
            if problem.code == "image-low-dpi" and coarse & {c.id for c in cards}:
                continue
            make = error if problem.severity is Severity.ERROR else warning
            findings.append(make(problem.code, f"{side}{shared}: {problem.message}",
                                 cards[0].source.location, cards[0].id, ready.locale))
    return findings


def preflight(pack: Path, expansions: tuple[Path, ...], locale: str | None,
              options: PreflightOptions) -> tuple[list[Finding], int]:
    """Every print-shop finding of the pack in ``locale``, and how many faces were checked."""
    preparation = prepare(pack, expansions, locale, options.bleed_mm)
    ready = preparation.prepared
    if ready is None or has_errors(preparation.findings):
        return preparation.findings, 0
    problems = face_problems(ready, options)
    return (preparation.findings + findings_of(ready, problems, preparation.findings),
            len(problems))
