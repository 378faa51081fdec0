"""CWNB symbols as vectors: gun turrets, missiles, aircraft, air-defense badges, ship profiles.

Every symbol is drawn into a box in card millimetres, so the same function serves a large symbol
on a card face and an inline icon sitting on a text baseline.
"""

from __future__ import annotations

import math

from generator.layout.ops import Line, Op, Polygon, Rect, Text

WHITE = "#ffffff"
PT_PER_MM = 72.0 / 25.4
_BARREL_THICKNESS = {"3in": 0.07, "5in": 0.09, "16in": 0.11}
_BARRELS = {"3in": 1, "5in": 2, "16in": 3}


def gun(x: float, y: float, size: float, caliber: str, color: str) -> list[Op]:
    """A turret seen from the side, barrels to the right: more and thicker for bigger guns."""
    s = size
    ops: list[Op] = [Polygon(((x + s * 0.04, y + s * 0.92), (x + s * 0.10, y + s * 0.50),
                              (x + s * 0.52, y + s * 0.46), (x + s * 0.60, y + s * 0.92)),
                             fill=color)]
    thickness = _BARREL_THICKNESS.get(caliber, 0.08) * s
    count = _BARRELS.get(caliber, 1)
    top = y + s * 0.50
    for i in range(count):
        bar_y = top + i * (thickness + s * 0.045)
        ops.append(Rect(x + s * 0.50, bar_y, s * 0.48, thickness, fill=color))
    return ops


def missile(x: float, y: float, size: float, missile_class: str | None, color: str) -> list[Op]:
    """An upright missile; with a class letter it takes a wider box (letter on the right)."""
    s = size
    cx = x + (s * 0.28 if missile_class else s * 0.5)
    half = s * 0.085
    ops: list[Op] = [
        Rect(cx - half, y + s * 0.24, 2 * half, s * 0.62, fill=color),
        Polygon(((cx - half, y + s * 0.24), (cx + half, y + s * 0.24), (cx, y + s * 0.02)),
                fill=color),
        Polygon(((cx - half, y + s * 0.60), (cx - s * 0.24, y + s * 0.96),
                 (cx - half, y + s * 0.86)), fill=color),
        Polygon(((cx + half, y + s * 0.60), (cx + s * 0.24, y + s * 0.96),
                 (cx + half, y + s * 0.86)), fill=color),
    ]
    if missile_class:
        letter_pt = s * 0.62 * PT_PER_MM
        ops.append(Text(x + s * 0.74, y + s * 0.86, missile_class, "bold", letter_pt, color,
                        "center"))
    return ops


def aircraft(x: float, y: float, size: float, color: str) -> list[Op]:
    """A jet seen from above, nose up."""
    s = size
    cx = x + s / 2
    fuselage = ((cx, y), (cx + s * 0.07, y + s * 0.18), (cx + s * 0.07, y + s * 0.88),
                (cx - s * 0.07, y + s * 0.88), (cx - s * 0.07, y + s * 0.18))
    wings = ((cx, y + s * 0.30), (cx + s * 0.48, y + s * 0.62), (cx + s * 0.48, y + s * 0.70),
             (cx, y + s * 0.55), (cx - s * 0.48, y + s * 0.70), (cx - s * 0.48, y + s * 0.62))
    tail = ((cx, y + s * 0.76), (cx + s * 0.20, y + s * 0.96), (cx - s * 0.20, y + s * 0.96))
    return [Polygon(fuselage, fill=color), Polygon(wings, fill=color), Polygon(tail, fill=color)]


def torpedo(x: float, y: float, size: float, color: str) -> list[Op]:
    s = size
    return [Rect(x + s * 0.05, y + s * 0.40, s * 0.80, s * 0.22, fill=color, radius=s * 0.11),
            Polygon(((x + s * 0.80, y + s * 0.51), (x + s, y + s * 0.30), (x + s, y + s * 0.72)),
                    fill=color)]


def air_defense_badge(x: float, y: float, w: float, h: float, rating: str,
                      color: str) -> list[Op]:
    """The black parallelogram of rule 12.1 with the rating in white."""
    slant = h * 0.35
    size_pt = h / 0.3528 * 0.62
    return [
        Polygon(((x + slant, y), (x + w, y), (x + w - slant, y + h), (x, y + h)), fill=color),
        Text(x + w / 2, y + h * 0.74, rating, "bold", size_pt, WHITE, "center"),
    ]


def shield(x: float, y: float, size: float, color: str) -> list[Op]:
    s = size
    return [Polygon(((x + s * 0.1, y + s * 0.1), (x + s * 0.9, y + s * 0.1),
                     (x + s * 0.9, y + s * 0.5), (x + s * 0.5, y + s * 0.95),
                     (x + s * 0.1, y + s * 0.5)), fill=color)]


def arrow(x: float, y: float, size: float, color: str) -> list[Op]:
    s = size
    return [Polygon(((x + s * 0.5, y), (x + s, y + s * 0.55), (x + s * 0.68, y + s * 0.55),
                     (x + s * 0.68, y + s), (x + s * 0.32, y + s), (x + s * 0.32, y + s * 0.55),
                     (x, y + s * 0.55)), fill=color)]


def star(x: float, y: float, size: float, color: str) -> list[Op]:
    cx, cy, outer, inner = x + size / 2, y + size / 2, size / 2, size / 5
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return [Polygon(tuple(points), fill=color)]


def profile(x: float, y: float, w: float, h: float, shape: str, color: str) -> list[Op]:
    """A side view of the hull: flat-top carrier, gun ship, or submarine with its sail."""
    water = y + h * 0.78
    if shape == "submarine":
        return [Rect(x + w * 0.05, y + h * 0.45, w * 0.90, h * 0.28, fill=color, radius=h * 0.14),
                Rect(x + w * 0.40, y + h * 0.22, w * 0.13, h * 0.28, fill=color, radius=h * 0.03),
                Line(x, water, x + w, water, color, 0.4)]
    hull = ((x + w * 0.02, y + h * 0.52), (x + w * 0.98, y + h * 0.45), (x + w * 0.90, water),
            (x + w * 0.08, water))
    ops: list[Op] = [Polygon(hull, fill=color)]
    if shape == "carrier":
        ops.append(Rect(x, y + h * 0.40, w, h * 0.08, fill=color))
        ops.append(Rect(x + w * 0.62, y + h * 0.12, w * 0.09, h * 0.30, fill=color))
    else:
        ops.append(Rect(x + w * 0.38, y + h * 0.24, w * 0.22, h * 0.26, fill=color))
        ops.append(Rect(x + w * 0.46, y + h * 0.06, w * 0.03, h * 0.20, fill=color))
        for tx in (0.16, 0.74):
            ops.append(Rect(x + w * tx, y + h * 0.38, w * 0.08, h * 0.12, fill=color))
            ops.append(Line(x + w * (tx + 0.04), y + h * 0.42,
                            x + w * (tx + (0.14 if tx < 0.5 else -0.06)), y + h * 0.38, color, 1.2))
    return ops
