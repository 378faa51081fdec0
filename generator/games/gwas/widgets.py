"""Template widgets of Great War at Sea cards: what depends on how much a card has (torpedo
mountings, hull boxes) or on the engine's tables (the class table and the modifier tables of the
reference cards). Silhouettes, ensigns, the star and the torpedo are SVG files of the game's
template folder (``art/``); gunnery cells and the speed badge are template data."""

from __future__ import annotations

from collections.abc import Mapping

from generator.games.gwas.faces import class_key
from generator.games.gwas.printed import split_modifier
from generator.games.gwas.tables import CLASS_ROWS
from generator.layout.engine import FaceContext, art_image, text_ops
from generator.layout.ops import Op, Rect, Text

Box = tuple[float, float, float, float]
Options = Mapping[str, object]
MIN_PT = 6.0  # nothing on a card below 6 pt


def _ink(ctx: FaceContext, options: Options, default: str = "ink") -> str:
    return ctx.color(options.get("color", default)) or "#000000"


def _text(ctx: FaceContext, text: str, what: str | tuple[str, ...], box: Box, style: str,
          size: float, color: str, align: str = "left", valign: str = "middle") -> list[Op]:
    """Fit one short text into ``box`` (shrinking to 6 pt at most) and draw it; a text that
    does not fit becomes a text-overflow finding naming ``what`` it prints (a label key or
    card field), outlined in ``box``, like a template's own text."""
    fitted = ctx.fit(text, box, style, size, min(size, MIN_PT), what)
    return text_ops(fitted, box, align, valign, style, color, ctx.icons)[0]


def torpedoes(values: Mapping[str, object], box: Box, options: Options,
              ctx: FaceContext) -> list[Op]:
    """One chip per mounting that the card has: a torpedo, the factor, the mounting's name."""
    x, y, w, h = box
    ink = _ink(ctx, options)
    mounts = [(int(values.get("torpedo_deck") or 0), "torpedo:deck"),
              (int(values.get("torpedo_hull") or 0), "torpedo:hull")]
    mounts = [(n, key) for n, key in mounts if n]
    if not mounts:
        return _text(ctx, "\u2014", "torpedoes", box, "bold", 9, ctx.color("rule") or ink)
    chip_w = (w - 1.5 * (len(mounts) - 1)) / len(mounts) if len(mounts) > 1 else min(w, 34.0)
    ops: list[Op] = []
    for index, (count, key) in enumerate(mounts):
        cx = x + index * (chip_w + 1.5)
        ops.append(Rect(cx, y, chip_w, h, stroke=ink, width_pt=0.5, radius=h * 0.25))
        ops.append(art_image(ctx, "art/torpedo.svg", cx + 0.8, y + (h - 6.0) / 2, 6.0, ink))
        ops.append(Text(cx + 7.6, y + h / 2 + 1.3, str(count), "bold", 10.5, ink))
        ops += _text(ctx, ctx.label(key), key, (cx + 11.0, y + 0.4, chip_w - 11.6, h - 0.8),
                     "narrow", 7.0, ink)
    return ops


def hull_boxes(values: Mapping[str, object], box: Box, options: Options,
               ctx: FaceContext) -> list[Op]:
    """Empty squares to tick off damage, in as few rows as fit."""
    x, y, w, h = box
    count = int(values.get("hull") or 0)
    ink = _ink(ctx, options)
    side, gap = 3.2, 0.7
    while side > 1.8:
        per_row = max(1, int((w + gap) // (side + gap)))
        rows = -(-count // per_row)
        if rows * (side + gap) - gap <= h + 1e-6:
            break
        side -= 0.2
    rows = -(-count // max(1, int((w + gap) // (side + gap))))
    per_row = -(-count // rows)  # balanced rows: 11 boxes are 6 + 5, not 10 + 1
    return [Rect(x + (i % per_row) * (side + gap), y + (i // per_row) * (side + gap), side, side,
                 fill=ctx.color("cell"), stroke=ink, width_pt=0.5) for i in range(count)]


ClassRow = tuple[str, str, Box, Box]  # code ("" for a group heading), name, code box, name box


def class_keys() -> list[tuple[str, str]]:
    """(class code, label key of its name) of each row of the class table of 003:228, in
    print order; a group's heading has no code."""
    keys: list[tuple[str, str]] = []
    for group, codes in CLASS_ROWS:
        keys.append(("", f"group:{group}"))
        keys += [(code, class_key(code.split("/")[0])) for code in codes]
    return keys


def class_rows(label, box: Box) -> list[ClassRow]:
    """The rows of the class table of 003:228 with where each text goes; ``label`` translates
    the class and group names. Shared by the widget and the tests that check every name fits."""
    x, y, w, h = box
    texts = [(code, label(key) if code else label(key).upper()) for code, key in class_keys()]
    row_h = h / len(texts)
    code_w = 9.0
    rows: list[ClassRow] = []
    for index, (code, name) in enumerate(texts):
        top = y + index * row_h
        if code:
            rows.append((code, name, (x + 1.0, top, code_w - 1.0, row_h),
                         (x + code_w, top, w - code_w, row_h)))
        else:
            rows.append((code, name, (x, top, w, row_h), (x + 1.0, top, w - 2.0, row_h)))
    return rows


CLASS_STYLE = ("narrow-bold", "narrow", 6.5)  # code font, name font, size in pt


def class_table(values: Mapping[str, object], box: Box, options: Options,
                ctx: FaceContext) -> list[Op]:
    """The class codes of 003:228 by group, printed from the same table the validator uses."""
    ink = _ink(ctx, options)
    code_style, name_style, size = CLASS_STYLE
    ops: list[Op] = []
    for (_, key), (code, name, code_box, name_box) in zip(class_keys(),
                                                          class_rows(ctx.label, box),
                                                          strict=True):
        if not code:
            ops.append(Rect(*code_box, fill=ctx.color("table_band")))
            ops += _text(ctx, name, key, name_box, code_style, size, ink)
            continue
        # a code is the rules' own, in every language: it is named as what it is
        ops += _text(ctx, code, f"class code '{code}'", code_box, code_style, size, ink)
        ops += _text(ctx, name, key, name_box, name_style, size, ink)
    return ops


ModifierRow = tuple[str, str, Box, Box, Box]  # label, value, band, label box, value box
MODIFIER_STYLE = ("regular", "bold", 7.0)  # label font, value font, size in pt


def modifier_rows(text: str, box: Box) -> list[ModifierRow]:
    """A reference card's modifier lines laid out as table rows on the foot of ``box``."""
    x, y, w, h = box
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        return []
    row_h = min(h / len(lines), 4.2)
    value_w = 8.0
    bottom = y + h - row_h * len(lines)  # the table sits on the card's foot, below the text
    rows: list[ModifierRow] = []
    for index, line in enumerate(lines):
        label, value = split_modifier(line)
        top = bottom + index * row_h
        label_w = w - value_w - 1.5 if value else w - 2.0
        rows.append((label, value, (x, top, w, row_h), (x + 1.0, top, label_w, row_h),
                     (x + w - value_w, top, value_w - 1.0, row_h)))
    return rows


def modifiers(values: Mapping[str, object], box: Box, options: Options,
              ctx: FaceContext) -> list[Op]:
    """A reference card's modifier lines as a two-column table: what, then the signed value."""
    ink = _ink(ctx, options)
    label_style, value_style, size = MODIFIER_STYLE
    ops: list[Op] = []
    for index, (label, value, band, label_box, value_box) in enumerate(
            modifier_rows(str(values.get("modifiers") or ""), box)):
        if index % 2 == 0:
            ops.append(Rect(*band, fill=ctx.color("table_band")))
        ops += _text(ctx, label, "modifiers", label_box, label_style if value else value_style,
                     size, ink)
        if value:
            ops += _text(ctx, value, "modifiers", value_box, value_style, size + 0.5, ink,
                         "right")
    return ops


WIDGETS = {
    "torpedoes": torpedoes,
    "hull_boxes": hull_boxes,
    "class_table": class_table,
    "modifiers": modifiers,
}
