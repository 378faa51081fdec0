"""Small vector pictures for the art window of unit cards: ship silhouettes by size, planets,
moons, asteroids, stations, buildings, ground units and the commander's insignia.

They identify the card kind at a glance (and a ship's size class by its bulk); they are not
illustrations of particular cards. Shapes are written in a unit box (u, v in 0..1) and mapped
into the window keeping their proportions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from generator.layout.ops import Circle, Line, Op, Polygon, Rect

Shape = Sequence[tuple[float, float]]
Mapper = Callable[[float, float], tuple[float, float]]


def _mapper(x: float, y: float, w: float, h: float, aspect: float) -> tuple[Mapper, float]:
    """Fit a unit box of ``aspect`` (width/height) centred into (x, y, w, h)."""
    height = min(h, w / aspect)
    width = height * aspect
    left, top = x + (w - width) / 2, y + (h - height) / 2

    def at(u: float, v: float) -> tuple[float, float]:
        return left + u * width, top + v * height

    return at, height


def _poly(at: Mapper, shape: Shape, color: str) -> Polygon:
    return Polygon(tuple(at(u, v) for u, v in shape), fill=color)


_FIGHTER = ((0.02, 0.5), (0.3, 0.38), (0.45, 0.05), (0.58, 0.05), (0.62, 0.36), (0.98, 0.46),
            (0.98, 0.54), (0.62, 0.64), (0.58, 0.95), (0.45, 0.95), (0.3, 0.62))
_CRUISER = ((0.0, 0.45), (0.12, 0.3), (0.55, 0.26), (0.62, 0.1), (0.74, 0.1), (0.78, 0.28),
            (1.0, 0.42), (1.0, 0.58), (0.78, 0.72), (0.12, 0.72), (0.0, 0.6))
_BATTLESHIP = ((0.0, 0.42), (0.06, 0.22), (0.3, 0.18), (0.36, 0.02), (0.56, 0.02),
               (0.62, 0.16), (0.9, 0.24), (1.0, 0.4), (1.0, 0.62), (0.9, 0.8), (0.55, 0.9),
               (0.06, 0.84), (0.0, 0.64))


_FREIGHTER = ((0.0, 0.3), (0.08, 0.2), (0.78, 0.2), (0.86, 0.05), (0.94, 0.05), (1.0, 0.3),
              (1.0, 0.7), (0.94, 0.85), (0.08, 0.85), (0.0, 0.75))


def freighter(x: float, y: float, w: float, h: float, size: str, color: str, glow: str,
              shade: str) -> list[Op]:
    """A cargo hauler: a long box of containers behind a small bridge, bow to the right."""
    light = size == "ЛК"
    at, unit = _mapper(x + w * 0.1, y, w * 0.8, h * (0.55 if light else 0.8),
                       2.4 if light else 3.6)
    ops: list[Op] = [_poly(at, _FREIGHTER, color)]
    containers = 3 if light else 6
    for i in range(1, containers):
        gx, top = at(0.08 + i * 0.7 / containers, 0.24)
        _, bottom = at(0.0, 0.8)
        ops.append(Rect(gx - unit * 0.025, top, unit * 0.05, bottom - top, fill=shade))
    ex, ey = at(0.0, 0.52)
    ops.append(Circle(ex, ey, unit * 0.1, fill=glow))
    return ops


def ship(x: float, y: float, w: float, h: float, size: str, color: str,
         glow: str) -> list[Op]:
    """A ship in profile, bow to the right; light ships are darts, heavy ones bulky."""
    if size == "ЛК":
        at, unit = _mapper(x, y, w, h * 0.8, 1.9)
        ops: list[Op] = [_poly(at, _FIGHTER, color)]
        ex, ey = at(0.02, 0.5)
        ops.append(Circle(ex, ey, unit * 0.1, fill=glow))
        return ops
    heavy = size == "ТК"
    at, unit = _mapper(x + w * 0.1, y, w * 0.8, h * (1.0 if heavy else 0.9),
                       3.2 if heavy else 3.4)
    ops = [_poly(at, _BATTLESHIP if heavy else _CRUISER, color)]
    for v in ((0.34, 0.66) if heavy else (0.5,)):
        ex, ey = at(0.0, v)
        ops.append(Circle(ex, ey, unit * 0.09, fill=glow))
    turrets = (0.18, 0.3, 0.72) if heavy else (0.3,)
    for u in turrets:
        tx, ty = at(u, 0.22 if heavy else 0.3)
        ops.append(Line(tx, ty, tx + unit * 0.5, ty - unit * 0.1, color, unit * 0.09 * 2.835))
    return ops


def planet(x: float, y: float, w: float, h: float, color: str, shade: str,
           ringed: bool = True) -> list[Op]:
    cx, cy, r = x + w / 2, y + h / 2, h * 0.4
    ops: list[Op] = [Circle(cx, cy, r, fill=color)]
    rim = tuple((cx + r * math.cos(a) * 0.98, cy + r * math.sin(a) * 0.98)
                for a in [math.pi * (0.1 + i / 20) for i in range(19)])
    ops.append(Polygon((*rim, (cx - r * 0.2, cy + r * 0.2)), fill=shade))
    if ringed:
        ring = tuple((cx + r * 1.9 * math.cos(a), cy + r * 0.42 * math.sin(a) - r * 0.1
                      * math.cos(a)) for a in [i * math.pi / 24 for i in range(49)])
        ops.append(Polygon(ring, stroke=color, width_pt=r * 0.18 * 2.835, closed=False))
    return ops


def moon(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    cx, cy, r = x + w / 2, y + h / 2, h * 0.38
    return [Circle(cx, cy, r, fill=color), Circle(cx - r * 0.35, cy - r * 0.2, r * 0.22,
                                                  fill=shade),
            Circle(cx + r * 0.3, cy + r * 0.35, r * 0.16, fill=shade),
            Circle(cx + r * 0.4, cy - r * 0.4, r * 0.1, fill=shade)]


def asteroid(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    at, _ = _mapper(x, y, w, h * 0.85, 1.6)
    rock = ((0.05, 0.5), (0.15, 0.2), (0.4, 0.05), (0.62, 0.12), (0.85, 0.05), (0.98, 0.4),
            (0.9, 0.75), (0.65, 0.95), (0.35, 0.88), (0.12, 0.8))
    small = ((0.0, 0.1), (0.08, 0.0), (0.12, 0.08), (0.05, 0.16))
    ops: list[Op] = [_poly(at, rock, color)]
    cx, cy = at(0.45, 0.45)
    ops.append(Circle(cx, cy, h * 0.08, fill=shade))
    ops.append(_poly(at, small, color))
    return ops


def station(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    cx, cy, r = x + w / 2, y + h / 2, h * 0.4
    ops: list[Op] = [Circle(cx, cy, r, stroke=color, width_pt=r * 0.22 * 2.835)]
    for i in range(4):
        a = i * math.pi / 2 + math.pi / 4
        ops.append(Line(cx, cy, cx + r * math.cos(a), cy + r * math.sin(a), color,
                        r * 0.1 * 2.835))
    ops.append(Circle(cx, cy, r * 0.28, fill=color))
    ops.append(Rect(cx - r * 2.1, cy - r * 0.12, r * 1.0, r * 0.24, fill=color))
    ops.append(Rect(cx + r * 1.1, cy - r * 0.12, r * 1.0, r * 0.24, fill=color))
    ops.append(Circle(cx, cy, r * 0.1, fill=shade))
    return ops


def military(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    """A domed bunker with a long gun."""
    at, unit = _mapper(x, y, w, h * 0.85, 2.4)
    ground = ((0.0, 0.8), (1.0, 0.8), (1.0, 1.0), (0.0, 1.0))
    bunker = ((0.2, 0.8), (0.25, 0.45), (0.4, 0.3), (0.6, 0.3), (0.75, 0.45), (0.8, 0.8))
    gx, gy = at(0.55, 0.4)
    return [_poly(at, ground, shade), _poly(at, bunker, color),
            Line(gx, gy, gx + unit * 0.9, gy - unit * 0.35, color, unit * 0.1 * 2.835)]


def civil(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    """A settlement of domes and a tower."""
    at, unit = _mapper(x, y, w, h * 0.85, 2.4)
    ops: list[Op] = [_poly(at, ((0.0, 0.8), (1.0, 0.8), (1.0, 1.0), (0.0, 1.0)), shade)]
    for u, r in ((0.3, 0.22), (0.62, 0.16), (0.82, 0.1)):
        cx, cy = at(u, 0.8)
        radius = r * unit * 2.4 / 2.4
        ops.append(Polygon(tuple((cx + radius * math.cos(a), cy - radius * math.sin(a))
                                 for a in [i * math.pi / 16 for i in range(17)]), fill=color))
    tx, ty = at(0.45, 0.15)
    bx, by = at(0.5, 0.8)
    ops.append(Rect(tx, ty, bx - tx, by - ty, fill=color))
    return ops


def ground_unit(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    """A tracked assault vehicle."""
    at, unit = _mapper(x, y, w, h * 0.8, 2.2)
    tracks = ((0.05, 0.65), (0.95, 0.65), (0.88, 0.95), (0.12, 0.95))
    body = ((0.12, 0.65), (0.2, 0.4), (0.75, 0.4), (0.88, 0.65))
    turret = ((0.35, 0.4), (0.4, 0.2), (0.62, 0.2), (0.66, 0.4))
    gx, gy = at(0.6, 0.28)
    ops: list[Op] = [_poly(at, tracks, color), _poly(at, body, color), _poly(at, turret, color),
                     Line(gx, gy, gx + unit * 0.95, gy, color, unit * 0.07 * 2.835)]
    for u in (0.22, 0.4, 0.58, 0.76):
        cx, cy = at(u, 0.8)
        ops.append(Circle(cx, cy, unit * 0.08, fill=shade))
    return ops


def insignia(x: float, y: float, w: float, h: float, color: str, shade: str) -> list[Op]:
    """The commander's insignia: a star between two swept wings."""
    at, unit = _mapper(x, y, w, h * 0.9, 3.0)
    left = ((0.42, 0.45), (0.05, 0.2), (0.12, 0.4), (0.0, 0.45), (0.2, 0.62), (0.42, 0.62))
    right = tuple((1.0 - u, v) for u, v in left)
    cx, cy = at(0.5, 0.5)
    star = []
    for i in range(10):
        radius = unit * (0.48 if i % 2 == 0 else 0.2)
        angle = math.pi / 2 + i * math.pi / 5
        star.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return [_poly(at, left, color), _poly(at, right, color), Polygon(tuple(star), fill=shade),
            Polygon(tuple((cx + (px - cx) * 0.8, cy + (py - cy) * 0.8) for px, py in star),
                    fill=color)]


ART = {
    "planet": lambda x, y, w, h, c, s: planet(x, y, w, h, c, s, True),
    "moon": moon,
    "asteroid": asteroid,
    "station": station,
    "military_building": military,
    "civil_building": civil,
    "ground_unit": ground_unit,
    "commander": insignia,
}
