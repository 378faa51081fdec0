"""Set marks: the game's own drawing of a set's mark, else a ring with the set's letters.

A mark that names one of the game's icons (``icons/<mark>.svg``: CWNB's anchor, Путь Командора's
emblem) is that drawing; any other set (an expansion, say) gets a lettered ring, drawn here
because its letters come from the pack. Both are vectors: sharp at any size, no glyph needed
for the drawing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from generator.layout.engine import remember
from generator.layout.icons import icon_files, icon_mark
from generator.layout.ops import Circle, Op, Text


def lettered_mark(x: float, y: float, size: float, label: str, color: str) -> list[Op]:
    """An expansion's mark: a ring with up to three letters, never mistaken for a drawn one."""
    cx, cy, r = x + size / 2, y + size / 2, size / 2
    text_size_pt = size / 0.3528 * (0.55 if len(label) <= 1 else 0.40)
    return [
        Circle(cx, cy, r * 0.95, stroke=color, width_pt=max(0.5, size * 0.25)),
        Text(cx, cy + text_size_pt * 0.3528 * 0.36, label, "bold", text_size_pt, color,
             anchor="center"),
    ]


def shown_mark(art_root: Path | None, mark: str, label: str) -> tuple[str, str]:
    """What a set mark prints, as ("drawing", icon file) or ("ring", letters): two sets whose
    marks print alike cannot be sorted apart, whatever their names (the cross-pack checks
    compare this, the widget draws it)."""
    path = icon_files(art_root).get(mark) if art_root is not None else None
    if path is not None:
        try:  # two icon files of one drawing print alike too
            return "drawing", hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return "drawing", str(path)
    return "ring", label or mark[:1].upper()


def set_mark_widget(values: Mapping[str, object], box: tuple[float, float, float, float],
                    options: Mapping[str, object], ctx) -> list[Op]:
    """Template widget ``set_mark``: the mark of the card's own set, in the box's corner."""
    color = ctx.color(options.get("color", "ink"), values) or "#000000"
    mark = str(values.get("set_mark", ctx.manifest.set_mark))
    label = str(values.get("set_mark_label", ctx.manifest.set_mark_label))
    key = ("set_mark", box, mark, label, color, ctx.art_root, options.get("lettered_min"))
    memo = getattr(ctx, "memo", None)
    if memo is not None and key in memo:
        return list(memo[key])  # the same mark on every card of a set, placed once
    ops = _set_mark_ops(box, options, ctx, mark, label, color)
    remember(memo, key, tuple(ops))
    return ops


def _set_mark_ops(box: tuple[float, float, float, float], options: Mapping[str, object], ctx,
                  mark: str, label: str, color: str) -> list[Op]:
    x, y, w, h = box
    size = min(w, h)
    square = (x + w - size, y, size, size)
    drawn = icon_mark(ctx.art_root, mark, square, color)
    if drawn is not None:
        return drawn
    _, letters = shown_mark(None, mark, label)
    # ``lettered_min``: letters need more room than a small drawn mark; the ring grows to the
    # left and both ways vertically, keeping the box's right edge
    grown = max(size, float(options.get("lettered_min", 0)))  # type: ignore[arg-type]
    return lettered_mark(square[0] - (grown - size), y - (grown - size) / 2, grown,
                         letters, color)
