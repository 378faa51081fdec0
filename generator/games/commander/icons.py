"""Путь Командора symbols as vectors, designed for this project (the seed's images are lost:
L51 turn, L132 resource and action chip, L319 the four rarity grades).

Every symbol is drawn into a square box (x, y, size) in card millimetres, so one function serves
a large badge and an inline icon on a text baseline. Shapes differ in outline, not only in
colour, so that they survive a black-and-white printer: a cut gem for a resource, a notched
round chip for an action chip, a curved arrow for a turn; rarity runs circle, diamond, star,
ringed star.
"""

from __future__ import annotations

import math

from generator.layout.ops import Arc, Circle, Line, Op, Polygon, Rect

WHITE = "#ffffff"
PT_PER_MM = 72.0 / 25.4


def _pt(mm: float) -> float:
    return mm * PT_PER_MM


def _star_points(cx: float, cy: float, outer: float, inner: float, tips: int,
                 turn: float = 0.0) -> tuple[tuple[float, float], ...]:
    points = []
    for i in range(tips * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + turn + i * math.pi / tips
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return tuple(points)


def resource(x: float, y: float, s: float, color: str, facets: str | None = WHITE) -> list[Op]:
    """A cut gem: flat table on top, pointed below (a raw resource crystal)."""
    ops: list[Op] = [Polygon(((x + s * 0.24, y + s * 0.08), (x + s * 0.76, y + s * 0.08),
                              (x + s * 0.98, y + s * 0.38), (x + s * 0.5, y + s * 0.98),
                              (x + s * 0.02, y + s * 0.38)), fill=color)]
    if facets:
        width = _pt(s * 0.05)
        ops += [Line(x + s * 0.06, y + s * 0.38, x + s * 0.94, y + s * 0.38, facets, width),
                Line(x + s * 0.36, y + s * 0.38, x + s * 0.5, y + s * 0.9, facets, width),
                Line(x + s * 0.64, y + s * 0.38, x + s * 0.5, y + s * 0.9, facets, width)]
    return ops


def action_chip(x: float, y: float, s: float, color: str, inner: str | None = WHITE,
                bolt: bool = True) -> list[Op]:
    """A round gaming chip with notches on its rim and a lightning bolt (an action)."""
    cx, cy, r = x + s / 2, y + s / 2, s * 0.48
    ops: list[Op] = [Circle(cx, cy, r, fill=color)]
    if inner is None:
        return ops
    notch = s * 0.1
    for i in range(8):
        angle = i * math.pi / 4
        nx, ny = cx + math.cos(angle) * r * 0.82, cy + math.sin(angle) * r * 0.82
        ops.append(Circle(nx, ny, notch / 2, fill=inner))
    ops.append(Circle(cx, cy, r * 0.58, stroke=inner, width_pt=_pt(s * 0.045)))
    if bolt:
        b = s * 0.26
        ops.append(Polygon(((cx + b * 0.25, cy - b), (cx - b * 0.55, cy + b * 0.12),
                            (cx - b * 0.02, cy + b * 0.12), (cx - b * 0.25, cy + b),
                            (cx + b * 0.55, cy - b * 0.12), (cx + b * 0.02, cy - b * 0.12)),
                           fill=inner))
    return ops


def turn(x: float, y: float, s: float, color: str) -> list[Op]:
    """Turning a card 90 degrees (L51): a solid card and a bold clockwise arrow sweeping over
    its top and coming down on its right, where the turned card will lie."""
    card = Rect(x + s * 0.02, y + s * 0.40, s * 0.36, s * 0.58, fill=color, radius=s * 0.05)
    cx, cy, r = x + s * 0.50, y + s * 0.48, s * 0.33
    arc = Arc(cx, cy, r, 170, -160, color, _pt(s * 0.13))
    head = s * 0.36
    ex, ey = cx + r * math.cos(math.radians(10)), cy - r * math.sin(math.radians(10))
    return [card, arc, Polygon(((ex - head * 0.5, ey - head * 0.05),
                                (ex + head * 0.5, ey - head * 0.05),
                                (ex, ey + head * 0.75)), fill=color)]


def die(x: float, y: float, s: float, color: str, pips: int = 6,
        paper: str = WHITE) -> list[Op]:
    """A six-sided die seen from above."""
    ops: list[Op] = [Rect(x + s * 0.04, y + s * 0.04, s * 0.92, s * 0.92, fill=color,
                          radius=s * 0.18)]
    spots = {1: [(0.5, 0.5)], 4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
             6: [(0.28, 0.26), (0.72, 0.26), (0.28, 0.5), (0.72, 0.5), (0.28, 0.74),
                 (0.72, 0.74)]}
    for px, py in spots.get(pips, spots[6]):
        ops.append(Circle(x + s * px, y + s * py, s * 0.075, fill=paper))
    return ops


def rarity(x: float, y: float, s: float, grade: str, color: str) -> list[Op]:
    """The four rarity grades (L319), told apart by outline alone."""
    cx, cy = x + s / 2, y + s / 2
    if grade == "common":
        return [Circle(cx, cy, s * 0.36, fill=color)]
    if grade == "rare":
        return [Polygon(((cx, y + s * 0.02), (x + s * 0.9, cy), (cx, y + s * 0.98),
                         (x + s * 0.1, cy)), fill=color)]
    if grade == "very-rare":
        return [Polygon(_star_points(cx, cy + s * 0.04, s * 0.52, s * 0.22, 5), fill=color)]
    # unique: a solid disc with the star cut out of it (never mistaken for the set emblem,
    # which is an outlined ring)
    return [Circle(cx, cy, s * 0.5, fill=color),
            Polygon(_star_points(cx, cy + s * 0.03, s * 0.38, s * 0.16, 5), fill=WHITE)]


def initiative(x: float, y: float, s: float, color: str) -> list[Op]:
    """A command pennant: a shield shape pointing down."""
    return [Polygon(((x + s * 0.08, y + s * 0.04), (x + s * 0.92, y + s * 0.04),
                     (x + s * 0.92, y + s * 0.58), (x + s * 0.5, y + s * 0.98),
                     (x + s * 0.08, y + s * 0.58)), fill=color)]


def strength(x: float, y: float, s: float, color: str) -> list[Op]:
    """A ground unit's strength: a hexagonal fortification plate."""
    cx, cy, r = x + s / 2, y + s / 2, s * 0.5
    points = tuple((cx + r * math.cos(math.pi / 6 + i * math.pi / 3),
                    cy + r * math.sin(math.pi / 6 + i * math.pi / 3)) for i in range(6))
    return [Polygon(points, fill=color)]


def emblem(x: float, y: float, s: float, color: str) -> list[Op]:
    """The game's emblem for card backs: an eight-point compass star in a double ring."""
    cx, cy = x + s / 2, y + s / 2
    return [Circle(cx, cy, s * 0.48, stroke=color, width_pt=_pt(s * 0.02)),
            Circle(cx, cy, s * 0.42, stroke=color, width_pt=_pt(s * 0.008)),
            Polygon(_star_points(cx, cy, s * 0.40, s * 0.09, 4), fill=color),
            Polygon(_star_points(cx, cy, s * 0.26, s * 0.07, 4, math.pi / 4), fill=color)]
