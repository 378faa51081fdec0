"""Template widgets of CWNB cards: what depends on how many things a card has (weapon
platforms, rows of chances) or on the engine's own tables (the Action Card Summary). Symbols are
SVG files of the game's template folder (``icons/``, ``art/``); the rest of a face is template
data."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from generator.games.cwnb.faces import chance_range
from generator.games.cwnb.playrules import AIR_DEFENSE_RATING, summary_rows
from generator.layout.engine import FaceContext, art_image, reads, text_ops
from generator.layout.ops import Line, Op, Rect, Text
from generator.layout.textfit import PT_TO_MM
from generator.load.fonts import string_width_mm

Box = tuple[float, float, float, float]
Options = Mapping[str, object]


def _ink(ctx: FaceContext, options: Options, default: str = "ink") -> str:
    return ctx.color(options.get("color", default)) or "#000000"


def _chip(ctx: FaceContext, x: float, y: float, h: float, kind: str, detail: str, ink: str,
          caption: str) -> tuple[list[Op], float]:
    """One weapon platform: an outlined tag with its symbol and (localized) caliber or class."""
    icon = h * 0.78
    pad = h * 0.11
    if kind == "gun":
        ops: list[Op] = [art_image(ctx, f"icons/gun-{detail}.svg", x + pad, y + pad, icon, ink)]
        label_pt = h * 0.46 / PT_TO_MM
        ops.append(Text(x + pad + icon + 0.6, y + h * 0.68, caption, "narrow-bold", label_pt,
                        ink))
        width = pad + icon + 0.6 + string_width_mm(caption, "narrow-bold", label_pt) + pad
    else:
        ops = [art_image(ctx, f"icons/missile-{detail.lower()}.svg", x + pad, y + pad, icon,
                         ink)]
        width = pad + icon + pad
    ops.insert(0, Rect(x, y, width, h, stroke=ink, width_pt=0.5, radius=h * 0.2))
    return ops, width


@reads("guns", "missiles", "air_strike", "is_submarine")
def platforms(values: Mapping[str, object], box: Box, options: Options,
              ctx: FaceContext) -> list[Op]:
    """One row per weapon kind the ship has: label, then one symbol per platform (rule 7.2:
    a carrier's air strike rating is its number of aircraft symbols)."""
    x, y, w, h = box
    ink = _ink(ctx, options)
    rows: list[tuple[str, str, list[str]]] = []
    guns = [str(g) for g in values.get("guns") or ()]
    missiles = [str(m) for m in values.get("missiles") or ()]
    strikes = int(values.get("air_strike") or 0)
    if guns:
        rows.append(("Guns", "gun", guns))
    if missiles:
        rows.append(("Missiles", "missile", missiles))
    if strikes:
        rows.append(("Air Strike", "air", [""] * strikes))
    if values.get("is_submarine"):
        rows.append(("Torpedoes", "torpedo", [""]))
    if not rows:
        return []
    row_h = min(h / len(rows), 7.5)
    chip_h = row_h * 0.8
    label_w = w * 0.34
    ops: list[Op] = []
    for index, (label, kind, details) in enumerate(rows):
        top = y + index * row_h
        label_box = (x, top, label_w - 1.0, chip_h)
        label_fit = ctx.fit(ctx.label(label), label_box, "bold", 7.5, 6.0, label)
        ops += text_ops(label_fit, label_box, "left", "middle", "bold", ink, ctx.icons)[0]
        cursor = x + label_w
        for detail in details:
            if kind in {"gun", "missile"}:
                caption = ctx.label(f"caliber:{detail}") if kind == "gun" else detail
                chip, width = _chip(ctx, cursor, top, chip_h, kind, detail, ink, caption)
                ops += chip
                cursor += width + 1.2
            elif kind == "air":
                ops.append(art_image(ctx, "icons/air-strike.svg", cursor, top, chip_h, ink))
                cursor += chip_h + 1.0
            else:
                ops.append(art_image(ctx, "art/torpedo.svg", cursor, top, chip_h * 1.4, ink))
                cursor += chip_h * 1.4 + 1.0
    return ops


def _rows(rows: list[tuple[str, str, str]], box: Box, ink: str, ctx: FaceContext) -> list[Op]:
    """(label key, printed label, value) rows: the label on the left, fitted to its cell, the
    value right-aligned on a rule."""
    x, y, w, h = box
    row_h = min(h / max(len(rows), 1), 5.0)
    value_w = 9.0
    ops: list[Op] = []
    for index, (key, label, value) in enumerate(rows):
        base = y + (index + 0.75) * row_h
        fitted = ctx.fit(label, (x, y + index * row_h, w - value_w - 1.0, row_h), "regular",
                         7.5, 6.0, key)
        ops.append(Text(x, base, label, "regular", fitted.size_pt, ink))
        ops.append(Text(x + w, base, value, "bold", 8.5, ink, "right"))
        ops.append(Line(x, base + 1.1, x + w, base + 1.1, ink, 0.3))
    return ops


@reads("chance_vs_active", "chance_vs_passive", "chance_by_row", "chance_to_hit")
def chance_table(values: Mapping[str, object], box: Box, options: Options,
                 ctx: FaceContext) -> list[Op]:
    """Chance to hit on a d6: one line, or one per target state or row."""
    ink = _ink(ctx, options)
    rows: list[tuple[str, str, str]] = []

    def row(key: str, value: object) -> None:
        rows.append((key, ctx.label(key), str(value)))

    if values.get("chance_vs_active"):
        row("vs active submarine", values["chance_vs_active"])
        row("vs passive submarine", values["chance_vs_passive"])
    elif values.get("chance_vs_passive"):
        row("vs passive submarine", values["chance_vs_passive"])
    elif values.get("chance_by_row"):
        for number, top in enumerate(values.get("chance_by_row") or (), start=1):
            rows.append(("Row {row}", substitute_row(ctx.label("Row {row}"), number),
                         chance_range(int(top))))
    elif values.get("chance_to_hit"):
        row("Chance to hit", values["chance_to_hit"])
    return _rows(rows, box, ink, ctx)


def substitute_row(template: str, row: int) -> str:
    return template.replace("{row}", str(row))


def summary_keys() -> list[tuple[str, tuple[str, ...]]]:
    """The label keys of the Action Card Summary's rows: each attack of the engine's own table
    (``summary_rows``) and its answers."""
    return [(f"attack:{attack.key}",
             tuple(f"counter:{c}" if c == AIR_DEFENSE_RATING else f"action:{c}"
                   for c in attack.countered_by))
            for attack in summary_rows()]


def summary_lines(label: Callable[[str], str]) -> list[tuple[str, tuple[str, ...]]]:
    """The rows of the Action Card Summary as printed, in the language of ``label``."""
    return [(label(attack), tuple(label(answer) for answer in answers))
            for attack, answers in summary_keys()]


@reads()
def summary_table(values: Mapping[str, object], box: Box, options: Options,
                  ctx: FaceContext) -> list[Op]:
    """The Action Card Summary (rule 6), printed from the engine's own attack table."""
    x, y, w, h = box
    ink = _ink(ctx, options)
    keys = summary_keys()
    row_h = h / len(keys)
    left_w = w * 0.42
    ops: list[Op] = []
    for index, (attack, answers) in enumerate(keys):
        top = y + index * row_h
        if index % 2 == 0:
            ops.append(Rect(x, top, w, row_h, fill=ctx.color("table_band")))
        printed = ", ".join(ctx.label(answer) for answer in answers)
        for text, what, style, box_x, box_w in (
                (ctx.label(attack), attack, "bold", x + 1.0, left_w - 2.4),
                (printed, answers, "regular", x + left_w, w - left_w - 1.0)):
            text_box = (box_x, top + 0.3, box_w, row_h - 0.6)
            fitted = ctx.fit(text, text_box, style, 7.0, 6.0, what)
            drawn, _ = text_ops(fitted, text_box, "left", "middle", style, ink, ctx.icons)
            ops += drawn
    ops.append(Line(x + left_w - 0.8, y, x + left_w - 0.8, y + h, ink, 0.3))
    return ops


WIDGETS = {
    "platforms": platforms,
    "chance_table": chance_table,
    "summary_table": summary_table,
}

