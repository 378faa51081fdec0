"""Great War at Sea symbols as vectors: ship profiles of the era, torpedoes, airships, naval
ensigns and the leader's star.

Every symbol draws into a box in card millimetres, so one function serves a large drawing on a
card and a 12.7 mm counter alike; no raster art, so nothing blurs at any print size.
"""

from __future__ import annotations

import math

from generator.layout.ops import Circle, Line, Op, Polygon, Rect

Box = tuple[float, float, float, float]
WHITE = "#ffffff"


def _hull(x: float, y: float, w: float, h: float, deck: float, color: str) -> Polygon:
    """A low hull with a raked bow on the right and a rounded stern on the left."""
    water = y + h
    return Polygon(((x + w * 0.03, y + deck), (x + w * 0.97, y + deck - h * 0.04),
                    (x + w * 0.92, water), (x + w * 0.07, water), (x, y + deck + h * 0.10)),
                   fill=color)


def _funnels(x: float, y: float, w: float, h: float, top: float, spots: tuple[float, ...],
             color: str) -> list[Op]:
    return [Rect(x + w * s, y + top, w * 0.045, h * 0.42, fill=color) for s in spots]


def _turret(x: float, y: float, w: float, h: float, at: float, deck: float, facing: int,
            color: str) -> list[Op]:
    tw, th = w * 0.075, h * 0.14
    tx = x + w * at
    top = y + deck - th
    barrel_x = tx + tw if facing > 0 else tx - w * 0.07
    return [Rect(tx, top, tw, th, fill=color),
            Rect(barrel_x, top + th * 0.25, w * 0.07, th * 0.22, fill=color)]


def ship_profile(box: Box, shape: str, color: str) -> list[Op]:
    """A side view in the style of a recognition sheet: dreadnought, cruiser, destroyer or
    carrier, bow to the right, on a water line."""
    x, y, w, h = box
    water = Line(x, y + h, x + w, y + h, color, 0.4)
    if shape == "battleship":
        deck = h * 0.62
        ops: list[Op] = [_hull(x, y, w, h * 0.95, deck, color),
                         Rect(x + w * 0.36, y + h * 0.32, w * 0.26, deck - h * 0.32 + 0.01,
                              fill=color),
                         Rect(x + w * 0.30, y + h * 0.02, w * 0.012, h * 0.35, fill=color),
                         Rect(x + w * 0.66, y + h * 0.06, w * 0.012, h * 0.32, fill=color)]
        ops += _funnels(x, y, w, h, h * 0.12, (0.44, 0.53), color)
        for at, facing in ((0.12, -1), (0.22, -1), (0.70, 1), (0.80, 1)):
            ops += _turret(x, y, w, h, at, deck, facing, color)
        return [*ops, water]
    if shape == "cruiser":
        deck = h * 0.64
        ops = [_hull(x + w * 0.03, y, w * 0.94, h * 0.95, deck, color),
               Rect(x + w * 0.40, y + h * 0.38, w * 0.22, deck - h * 0.38 + 0.01, fill=color),
               Rect(x + w * 0.33, y + h * 0.04, w * 0.012, h * 0.36, fill=color)]
        ops += _funnels(x, y, w, h, h * 0.16, (0.43, 0.50, 0.57), color)
        for at, facing in ((0.16, -1), (0.76, 1)):
            ops += _turret(x, y, w, h, at, deck, facing, color)
        return [*ops, water]
    if shape == "carrier":
        deck = h * 0.50
        ops = [_hull(x, y, w, h * 0.95, deck, color),
               Rect(x, y + deck - h * 0.08, w, h * 0.08, fill=color),
               Rect(x + w * 0.66, y + h * 0.16, w * 0.08, deck - h * 0.24, fill=color)]
        return [*ops, water]
    if shape == "submarine":
        return [Rect(x + w * 0.04, y + h * 0.50, w * 0.92, h * 0.30, fill=color,
                     radius=h * 0.15),
                Rect(x + w * 0.42, y + h * 0.26, w * 0.12, h * 0.28, fill=color,
                     radius=h * 0.03),
                Rect(x + w * 0.475, y + h * 0.02, w * 0.012, h * 0.26, fill=color),
                water]
    if shape == "mtb":
        deck = h * 0.62
        return [Polygon(((x + w * 0.08, y + deck), (x + w * 0.96, y + deck - h * 0.18),
                         (x + w * 0.86, y + h), (x + w * 0.10, y + h)), fill=color),
                Rect(x + w * 0.40, y + h * 0.36, w * 0.14, deck - h * 0.36 + 0.01,
                     fill=color),
                Rect(x + w * 0.20, y + deck - h * 0.12, w * 0.16, h * 0.08, fill=color),
                Rect(x + w * 0.58, y + deck - h * 0.14, w * 0.16, h * 0.08, fill=color),
                water]
    if shape == "airship":
        return airship(box, color)
    deck = h * 0.66  # destroyer, torpedo boat and other small craft
    ops = [_hull(x + w * 0.06, y, w * 0.88, h * 0.95, deck, color),
           Rect(x + w * 0.62, y + h * 0.42, w * 0.10, deck - h * 0.42 + 0.01, fill=color),
           Rect(x + w * 0.58, y + h * 0.12, w * 0.010, h * 0.34, fill=color)]
    ops += _funnels(x, y, w, h, h * 0.26, (0.36, 0.44, 0.52), color)
    ops += _turret(x, y, w, h, 0.78, deck, 1, color)
    return [*ops, water]


def airship(box: Box, color: str) -> list[Op]:
    """A rigid airship seen from the side: envelope, fins and a gondola."""
    x, y, w, h = box
    cy = y + h * 0.40
    rx, ry = w * 0.44, h * 0.26
    points = []
    for i in range(36):
        angle = 2 * math.pi * i / 36
        px = math.cos(angle)
        # a blunt nose (right) and a tapered tail (left)
        stretch = 1.0 if px >= 0 else 1.0 + 0.15 * abs(px)
        points.append((x + w * 0.5 + rx * px * stretch, cy - ry * math.sin(angle)
                       * (1.0 if px >= 0 else 1.0 - 0.35 * abs(px))))
    tail = x + w * 0.5 - rx * 1.1
    return [Polygon(tuple(points), fill=color),
            Polygon(((tail + w * 0.02, cy), (tail - w * 0.02, cy - h * 0.30),
                     (tail + w * 0.12, cy)), fill=color),
            Polygon(((tail + w * 0.02, cy), (tail - w * 0.02, cy + h * 0.30),
                     (tail + w * 0.12, cy)), fill=color),
            Rect(x + w * 0.44, cy + ry * 0.95, w * 0.14, h * 0.12, fill=color, radius=h * 0.03)]


def torpedo(x: float, y: float, size: float, color: str) -> list[Op]:
    """A torpedo pointing right, ``size`` long."""
    s = size
    return [Rect(x + s * 0.10, y + s * 0.40, s * 0.78, s * 0.20, fill=color, radius=s * 0.10),
            Polygon(((x, y + s * 0.28), (x + s * 0.14, y + s * 0.50), (x, y + s * 0.72)),
                    fill=color)]


def star(x: float, y: float, size: float, color: str) -> list[Op]:
    cx, cy, outer, inner = x + size / 2, y + size / 2, size / 2, size / 5
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return [Polygon(tuple(points), fill=color)]


# --- naval ensigns, simplified to what still reads at 12.7 mm ---

def _bands(box: Box, colors: tuple[str, ...], vertical: bool) -> list[Op]:
    x, y, w, h = box
    n = len(colors)
    if vertical:
        return [Rect(x + i * w / n, y, w / n + 0.01, h, fill=c) for i, c in enumerate(colors)]
    return [Rect(x, y + i * h / n, w, h / n + 0.01, fill=c) for i, c in enumerate(colors)]


def _cross(box: Box, color: str, bar: float) -> list[Op]:
    x, y, w, h = box
    return [Rect(x, y + (h - bar) / 2, w, bar, fill=color),
            Rect(x + w * 0.36 - bar / 2, y, bar, h, fill=color)]


def _saltire(box: Box, color: str, bar: float) -> list[Op]:
    x, y, w, h = box
    width_pt = bar * 72 / 25.4
    return [Line(x, y, x + w, y + h, color, width_pt), Line(x, y + h, x + w, y, color, width_pt)]


def _crescent(box: Box) -> list[Op]:
    x, y, w, h = box
    r = min(w, h) * 0.26
    cx, cy = x + w * 0.44, y + h / 2
    return [Circle(cx, cy, r, fill=WHITE), Circle(cx + r * 0.28, cy, r * 0.80, fill="#c8102e"),
            *star(cx + r * 0.55, cy - r * 0.40, r * 0.80, WHITE)]


def _rising_sun(box: Box) -> list[Op]:
    x, y, w, h = box
    cx, cy = x + w * 0.42, y + h / 2
    reach = max(w, h) * 1.5
    ops: list[Op] = [Rect(x, y, w, h, fill=WHITE)]
    for i in range(16):
        if i % 2:
            continue
        a1, a2 = 2 * math.pi * i / 16, 2 * math.pi * (i + 1) / 16
        ops.append(Polygon(((cx, cy), (cx + reach * math.cos(a1), cy + reach * math.sin(a1)),
                            (cx + reach * math.cos(a2), cy + reach * math.sin(a2))),
                           fill="#bc002d"))
    ops.append(Circle(cx, cy, min(w, h) * 0.22, fill="#bc002d"))
    return ops


def ensign(box: Box, nation: str) -> list[Op]:
    """The nation's naval ensign filling ``box`` (drawn by the caller's clip, so it may spill
    into the bleed)."""
    x, y, w, h = box
    bar = min(w, h) * 0.16
    if nation == "AH":
        return _bands(box, ("#c8102e", WHITE, "#c8102e"), vertical=False)
    if nation == "IT":
        return _bands(box, ("#008c45", WHITE, "#cd212a"), vertical=True)
    if nation == "FR":
        return _bands(box, ("#002395", WHITE, "#ed2939"), vertical=True)
    if nation == "DE":
        return [Rect(x, y, w, h, fill=WHITE), *_cross(box, "#111111", bar),
                *_bands((x, y, w * 0.36 - bar / 2, (h - bar) / 2),
                        ("#111111", WHITE, "#c8102e"), vertical=False)]
    if nation == "GB":
        return [Rect(x, y, w, h, fill=WHITE),
                Rect(x, y + (h - bar) / 2, w, bar, fill="#c8102e"),
                Rect(x + (w - bar) / 2, y, bar, h, fill="#c8102e")]
    if nation == "RU":
        return [Rect(x, y, w, h, fill=WHITE), *_saltire(box, "#0039a6", bar)]
    if nation == "OT":
        return [Rect(x, y, w, h, fill="#c8102e"), *_crescent(box)]
    if nation == "JP":
        return _rising_sun(box)
    return _bands(box, ("#b22234", WHITE, "#3c3b6e"), vertical=False)  # US, simplified
