"""Template widgets and inline icons of Путь Командора cards (what a plain rect or text cannot
draw): cost badges, the art window, the stack of stats and weapon rows, and the footer with
rarity symbol, serial number and set mark.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

from generator.games.commander import art, icons
from generator.games.commander.geometry import GAP, KEYWORD_LINE_H, KEYWORD_PT, ROW_H, STATS_H
from generator.layout.engine import FaceContext, IconPainter, text_ops
from generator.layout.ops import Circle, Line, Op, Rect, Text
from generator.layout.symbols import lettered_mark
from generator.layout.textfit import PT_TO_MM

Box = tuple[float, float, float, float]
Options = Mapping[str, object]
WHITE = "#ffffff"
BASE_MARK = "commander"


def _color(ctx: FaceContext, name: str) -> str:
    return ctx.color(name) or "#000000"


def _fitted(text: str, box: Box, style: str, size: float, min_size: float, ctx: FaceContext,
            color: str, align: str = "left", valign: str = "middle") -> list[Op]:
    """Widget text fitted like a template text; what does not fit is reported as a finding."""
    fitted = ctx.fit(text, box[2], box[3], style, size, min_size, "widget text")
    return text_ops(fitted, box, align, valign, style, color, ctx.icons)[0]


# --- cost badge (upper-left corner; L98 for the tactical card's action chips) -------------------

def cost_badge(values: Mapping[str, object], box: Box, options: Options,
               ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    s = min(w, h)
    kind = str(values.get("badge", ""))
    number = str(values.get("badge_value", ""))
    if not kind:
        return []
    halo = _color(ctx, "badge_halo")
    ops: list[Op] = []
    if kind == "resource":
        ops += icons.resource(x - 0.5, y - 0.5, s + 1.0, halo, facets=None)
        ops += icons.resource(x, y, s, _color(ctx, "resource"), facets=None)
        ops += _number(number, (x, y + s * 0.1, s, s * 0.5), ctx)
    elif kind == "chip":
        ops.append(Circle(x + s / 2, y + s / 2, s * 0.53, fill=halo))
        ops += icons.action_chip(x, y, s, _color(ctx, "chip"), bolt=False)
        ops += _number(number, (x + s * 0.2, y + s * 0.22, s * 0.6, s * 0.56), ctx)
    elif kind == "d6":
        ops.append(Rect(x - 0.4, y - 0.4, s + 0.8, s + 0.8, fill=halo, radius=s * 0.2))
        ops.append(Rect(x, y, s, s, fill=_color(ctx, "die"), radius=s * 0.18))
        ops.append(Text(x + s / 2, y + s * 0.34, "D6", "bold", 6.0, WHITE, "center"))
        ops += _number(number, (x, y + s * 0.38, s, s * 0.56), ctx)
    elif kind == "initiative":
        ops += icons.initiative(x - 0.5, y - 0.5, s + 1.0, halo)
        ops += icons.initiative(x, y, s, _color(ctx, "initiative"))
        ops += _number(number, (x, y + s * 0.08, s, s * 0.56), ctx)
    return ops


def _number(text: str, box: Box, ctx: FaceContext) -> list[Op]:
    size = box[3] / PT_TO_MM * 0.95
    return _fitted(text, box, "bold", size, 6.0, ctx, WHITE, "center")


def d6_badge(values: Mapping[str, object], box: Box, options: Options,
             ctx: FaceContext) -> list[Op]:
    """A second cost beside the chips: the die roll also needed (L98, "и/или")."""
    text = str(values.get("extra_d6") or "")
    if not text:
        return []
    x, y, w, h = box
    ink = _color(ctx, str(options.get("color", "header_text")))
    ops = icons.die(x, y, h, ink, 6, _color(ctx, str(options.get("pips", "header"))))
    ops += _fitted(text, (x + h + 0.8, y, w - h - 0.8, h), "bold", 11, 7, ctx, ink)
    return ops


# --- art window ---------------------------------------------------------------------------------

@cache
def _stars(w: float, h: float) -> tuple[tuple[float, float, float], ...]:
    """The same scatter of stars on every card (seeded), so that output stays deterministic."""
    rng = random.Random(2077)
    return tuple((rng.random() * w, rng.random() * h, 0.12 + rng.random() * 0.22)
                 for _ in range(int(w * h / 22)))


def art_window(values: Mapping[str, object], box: Box, options: Options,
               ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    ops: list[Op] = [Rect(x, y, w, h, fill=_color(ctx, "space"), radius=1.2)]
    star = _color(ctx, "star")
    for sx, sy, r in _stars(round(w, 1), round(h, 1)):
        if 0.6 < sx < w - 0.6 and 0.6 < sy < h - 0.6:
            ops.append(Circle(x + sx, y + sy, r, fill=star))
    shape = str(values.get("art", ""))
    ink, shade = _color(ctx, "art"), _color(ctx, "space")
    inner = (x + 2.0, y + 1.2, w - 4.0, h - 2.4)
    if shape.startswith("freighter:"):
        ops += art.freighter(*inner, shape.split(":", 1)[1], ink, _color(ctx, "glow"), shade)
    elif shape.startswith("ship:"):
        ops += art.ship(*inner, shape.split(":", 1)[1], ink, _color(ctx, "glow"))
    elif shape in art.ART:
        ops += art.ART[shape](*inner, ink, shade)
    return ops


# --- stats and weapons --------------------------------------------------------------------------

def stack(values: Mapping[str, object], box: Box, options: Options,
          ctx: FaceContext) -> list[Op]:
    """Stat cells, then one row per weapon (range band tag, name, value); the body text of the
    template starts in the slot below (geometry.body_slot)."""
    x, y, w, _ = box
    ops: list[Op] = []
    stats = list(values.get("stats") or ())
    if stats:
        ops += _stat_cells(stats, (x, y, w, STATS_H), ctx)
        y += STATS_H + GAP
    weapons = list(values.get("weapons") or ())
    for row in weapons:
        ops += _weapon_row(row, (x, y, w, ROW_H), ctx)
        y += ROW_H
    y += GAP if weapons else 0.0
    ink = _color(ctx, "ink")
    for line in values.get("keyword_lines") or ():
        ops.append(Text(x + 0.5, y + KEYWORD_LINE_H * 0.8, str(line), "narrow-bold", KEYWORD_PT,
                        ink))
        y += KEYWORD_LINE_H
    return ops


def _stat_cells(stats: list[tuple[str, str]], box: Box, ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    count = len(stats)
    cell_w = min(w / count, 14.0)
    gap = 0.9
    left = x + (w - cell_w * count) / 2
    ink, fill, line = _color(ctx, "ink"), _color(ctx, "cell"), _color(ctx, "rule")
    ops: list[Op] = []
    for index, (label, value) in enumerate(stats):
        cx = left + index * cell_w
        inner = (cx + gap / 2, y, cell_w - gap, h)
        ops.append(Rect(*inner, fill=fill, stroke=line, width_pt=0.4, radius=0.9))
        ops += _fitted(value, (inner[0] + 0.4, y + 0.5, inner[2] - 0.8, 5.2), "bold", 11.5,
                       7.0, ctx, ink, "center")
        ops += _fitted(label, (inner[0] + 0.3, y + 6.0, inner[2] - 0.6, 2.9), "narrow", 6.5,
                       6.0, ctx, ink, "center")
    return ops


def _weapon_row(row: tuple[str, str, str, str], box: Box, ctx: FaceContext) -> list[Op]:
    band, letter, name, value = row
    x, y, w, h = box
    ink = _color(ctx, "ink")
    ops: list[Op] = []
    tag_w = 4.6
    if band:
        ops.append(Rect(x + 0.3, y + 0.35, tag_w, h - 0.7, fill=_color(ctx, f"band_{band}"),
                        radius=0.6))
        ops += _fitted(letter, (x + 0.3, y + 0.35, tag_w, h - 0.7), "bold", 7.5, 6.0, ctx,
                       WHITE, "center")
    value_w = 14.0
    ops += _fitted(name, (x + tag_w + 1.3, y, w - tag_w - value_w - 1.5, h), "narrow", 8.0,
                   6.0, ctx, ink)
    ops += _fitted(value, (x + w - value_w, y, value_w - 0.4, h), "bold", 9.0, 6.5, ctx, ink,
                   "right")
    ops.append(Line(x, y + h, x + w, y + h, _color(ctx, "rule"), 0.3))
    return ops


# --- footer: rarity, serial number, kind, set mark (L319) ---------------------------------------

def serial(number: object, options: Mapping[str, object]) -> str:
    """"017/064": the card's number and the size of its release (game.yaml options)."""
    total = options.get("release_size")
    digits = max(3, len(str(total or "")))
    head = str(number).zfill(digits)
    return f"{head}/{str(total).zfill(digits)}" if isinstance(total, int) else head


def set_mark(mark: str, label: str, x: float, y: float, size: float, color: str) -> list[Op]:
    """The base release's mark is the game emblem; an expansion's is its lettered ring."""
    if mark == BASE_MARK:
        return icons.emblem(x, y, size, color)
    grown = max(size, 6.0)
    return lettered_mark(x - (grown - size), y - (grown - size) / 2, grown,
                         label or mark[:1].upper(), color)


def footer(values: Mapping[str, object], box: Box, options: Options,
           ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    ink = _color(ctx, str(options.get("color", "ink")))
    baseline = y + h * 0.66
    mark = 4.2
    ops: list[Op] = [Line(x + 3.0, y, x + w - 3.0, y, _color(ctx, "rule"), 0.4)]
    ops += icons.rarity(x + 3.0, baseline - 3.1, 3.4, str(values.get("rarity")), ink)
    ops.append(Text(x + 7.4, baseline, serial(values.get("number"), ctx.manifest.options),
                    "narrow-bold", 7.5, ink))
    kind = str(values.get("kind_label", "")).upper()
    ops += _fitted(kind, (x + 20.0, y + 0.6, w - 28.5, h - 1.2), "narrow-bold", 7.0, 6.0,
                   ctx, ink, "center")
    ops += set_mark(ctx.manifest.set_mark, ctx.manifest.set_mark_label,
                    x + w - 3.0 - mark, baseline - mark + 0.6, mark, ink)
    return ops


def back_emblem(values: Mapping[str, object], box: Box, options: Options,
                ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    size = min(w, h)
    return icons.emblem(x + (w - size) / 2, y + (h - size) / 2, size,
                        _color(ctx, str(options.get("color", "back_accent"))))


# --- inline icons: {turn} {resource} {action-chip} {d6} -----------------------------------------

def _inline(draw, lift: float = 0.1) -> IconPainter:
    """An icon one cap-height-and-a-bit tall, standing on the baseline (slightly below it, as
    round shapes do in type)."""

    def paint(x: float, baseline: float, size_mm: float, color: str) -> list[Op]:
        side = size_mm * 0.92
        return draw(x + size_mm * 0.1, baseline - side * (1.0 - lift), side, color)

    return paint


ICONS: Mapping[str, IconPainter] = {
    "turn": _inline(lambda x, y, s, c: icons.turn(x, y, s, c), 0.05),
    "resource": _inline(lambda x, y, s, c: icons.resource(x, y, s, c)),
    "action-chip": _inline(lambda x, y, s, c: icons.action_chip(x, y, s, c)),
    "d6": _inline(lambda x, y, s, c: icons.die(x, y, s, c)),
}

WIDGETS = {
    "cost_badge": cost_badge,
    "d6_badge": d6_badge,
    "art_window": art_window,
    "stack": stack,
    "footer": footer,
    "back_emblem": back_emblem,
}
