"""Template widgets of Путь Командора cards: the stack of stat cells and weapon rows (as many as
a card has, the body text's slot below it computed in ``geometry``) and the release's serial
number (from game.yaml's options). Badges, art windows, the footer and the back are template
data drawing SVG files of the game's template folder (``icons/``, ``art/``).
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.games.commander.faces import StatCell, WeaponRow
from generator.games.commander.geometry import GAP, KEYWORD_LINE_H, KEYWORD_PT, ROW_H, STATS_H
from generator.layout.engine import FaceContext, reads, text_ops
from generator.layout.ops import Line, Op, Rect, Text

Box = tuple[float, float, float, float]
Options = Mapping[str, object]
WHITE = "#ffffff"


def _color(ctx: FaceContext, name: str) -> str:
    return ctx.color(name) or "#000000"


def _fitted(text: str, what: str | tuple[str, ...], box: Box, style: str, size: float,
            min_size: float, ctx: FaceContext, color: str, align: str = "left",
            valign: str = "middle") -> list[Op]:
    """Widget text fitted like a template text; what does not fit is reported as a finding
    naming ``what`` the text prints (a label key or card field), outlined in ``box``."""
    fitted = ctx.fit(text, box, style, size, min_size, what)
    return text_ops(fitted, box, align, valign, style, color, ctx.icons)[0]


# --- stats and weapons --------------------------------------------------------------------------

@reads("stats", "weapons", "keyword_lines")
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


def _stat_cells(stats: list[StatCell], box: Box, ctx: FaceContext) -> list[Op]:
    x, y, w, h = box
    count = len(stats)
    cell_w = min(w / count, 14.0)
    gap = 0.9
    left = x + (w - cell_w * count) / 2
    ink, fill, line = _color(ctx, "ink"), _color(ctx, "cell"), _color(ctx, "rule")
    ops: list[Op] = []
    for index, (label, value, label_key, field) in enumerate(stats):
        cx = left + index * cell_w
        inner = (cx + gap / 2, y, cell_w - gap, h)
        ops.append(Rect(*inner, fill=fill, stroke=line, width_pt=0.4, radius=0.9))
        ops += _fitted(value, field, (inner[0] + 0.4, y + 0.5, inner[2] - 0.8, 5.2), "bold",
                       11.5, 7.0, ctx, ink, "center")
        ops += _fitted(label, label_key, (inner[0] + 0.3, y + 6.0, inner[2] - 0.6, 2.9),
                       "narrow", 6.5, 6.0, ctx, ink, "center")
    return ops


def _weapon_row(row: WeaponRow, box: Box, ctx: FaceContext) -> list[Op]:
    band, letter, name, value, field = row
    x, y, w, h = box
    ink = _color(ctx, "ink")
    ops: list[Op] = []
    tag_w = 4.6
    if band:
        ops.append(Rect(x + 0.3, y + 0.35, tag_w, h - 0.7, fill=_color(ctx, f"band_{band}"),
                        radius=0.6))
        ops += _fitted(letter, f"range:{band}", (x + 0.3, y + 0.35, tag_w, h - 0.7), "bold",
                       7.5, 6.0, ctx, WHITE, "center")
    value_w = 14.0
    ops += _fitted(name, f"weapon:{field}", (x + tag_w + 1.3, y, w - tag_w - value_w - 1.5, h),
                   "narrow", 8.0, 6.0, ctx, ink)
    ops += _fitted(value, field, (x + w - value_w, y, value_w - 0.4, h), "bold", 9.0, 6.5,
                   ctx, ink, "right")
    ops.append(Line(x, y + h, x + w, y + h, _color(ctx, "rule"), 0.3))
    return ops


# --- footer: the serial number of the release (L319) -----------------------------------------

def serial(number: object, options: Mapping[str, object]) -> str:
    """"017/064": the card's number and the size of its release (game.yaml options)."""
    total = options.get("release_size")
    digits = max(3, len(str(total or "")))
    head = str(number).zfill(digits)
    return f"{head}/{str(total).zfill(digits)}" if isinstance(total, int) else head


@reads("number")
def serial_number(values: Mapping[str, object], box: Box, options: Options,
                  ctx: FaceContext) -> list[Op]:
    """The card's number in its release, on the footer's baseline (two thirds down the box)."""
    x, y, _, h = box
    return [Text(x, y + h * 0.66, serial(values.get("number"), ctx.manifest.options),
                 "narrow-bold", 7.5, _color(ctx, str(options.get("color", "ink"))))]


WIDGETS = {
    "stack": stack,
    "serial": serial_number,
}
