"""The flat net of a tuck box that holds a deck: panels, flaps, cut and fold lines, in mm.

A reverse tuck end box, the kind card games ship in, in one piece:

```
            [tuck ]
            [ lid ]                      lid and its tuck flap on the back,
  [dust ]           [dust ]              dust flaps on the sides
  [side ][ back    ][side ][front   ][glue]
  [dust ]           [dust ]
                             [ lid  ]    the bottom lid and its tuck flap on the front
                             [tuck  ]
```

The inside is the deck's size: the card's trim plus 1 mm each way, as deep as the stack
(cards x thickness, plus 2 mm). Panels meet on fold lines (dashed); every other edge is cut
(solid), the front's top edge with a thumb notch to pull the deck out. The net is laid on the
paper upright, or turned a quarter when only that fits; a box too big for the paper is an error
naming a paper it fits on.
"""

from __future__ import annotations

import math

from msgspec import Struct

from generator.core.errors import UsageError
from generator.impose.sheets import PAPERS
from generator.layout.ops import Line, Op, Polygon

Box = tuple[float, float, float, float]  # x, y, width, height in mm from the top-left corner

#: the room a home printer leaves unprinted at each edge of the paper
MARGIN_MM = 5.0
TUCK_MM = 15.0  # how far a lid's tuck flap reaches into the box
GLUE_MM = 10.0  # the glue flap's width
CUT_COLOR = "#000000"
FOLD_COLOR = "#6e6e6e"
CUT_WIDTH_PT = 0.5
FOLD_WIDTH_PT = 0.5
FOLD_DASH_PT = (4.0, 3.0)
#: inner size over the card's trim, and depth over the stack's thickness (DESIGN.md)
ROOM_MM = 1.0
DEPTH_ROOM_MM = 2.0
DEFAULT_THICKNESS_MM = 0.3


class TuckBox(Struct, frozen=True):
    """A tuck box's net placed on a page: panels by name, and its cut and fold lines."""

    width: float  # inner width, height and depth
    height: float
    depth: float
    paper: str
    page_w: float
    page_h: float
    turned: bool  # the page is landscape: the net did not fit upright
    panels: dict[str, Box]
    cut: tuple[Op, ...]
    fold: tuple[Op, ...]


def inner_size(card_w: float, card_h: float, cards: int, thickness_mm: float
               ) -> tuple[float, float, float]:
    """The inside of a box for ``cards`` cards of ``card_w`` x ``card_h`` mm."""
    return (round(card_w + ROOM_MM, 3), round(card_h + ROOM_MM, 3),
            round(cards * thickness_mm + DEPTH_ROOM_MM, 3))


def net_size(width: float, height: float, depth: float) -> tuple[float, float]:
    """Width and height of the flat net of a box with that inside."""
    return 2 * width + 2 * depth + _glue(width), height + 2 * (depth + _tuck(depth))


def _glue(width: float) -> float:
    return min(GLUE_MM, width / 3)


def _tuck(depth: float) -> float:
    """A lid's tuck flap: as deep as the box, between 10 and 15 mm."""
    return max(10.0, min(depth, TUCK_MM))


def notch_radius(width: float) -> float:
    """The thumb notch in the front's top edge: a half circle this wide each way."""
    return min(10.0, width / 4)


def _fits(net: tuple[float, float], page: tuple[float, float]) -> bool:
    return net[0] <= page[0] - 2 * MARGIN_MM and net[1] <= page[1] - 2 * MARGIN_MM


def place(width: float, height: float, depth: float, paper: str) -> TuckBox:
    """The net on ``paper`` (upright, else turned); UsageError naming a paper that holds it."""
    net = net_size(width, height, depth)
    paper_w, paper_h = PAPERS[paper]
    for page in ((paper_w, paper_h), (paper_h, paper_w)):
        if _fits(net, page):
            return _net(width, height, depth, paper, page, page != (paper_w, paper_h))
    fitting = [name for name, (w, h) in sorted(PAPERS.items(), key=lambda p: p[1][0] * p[1][1])
               if _fits(net, (w, h)) or _fits(net, (h, w))]
    size = f"{net[0]:.0f} x {net[1]:.0f} mm"
    if fitting:
        raise UsageError(f"the box's net ({size}, {depth:g} mm deep) does not fit on {paper}; "
                         f"it fits on {' or '.join(fitting)} (--paper {fitting[0]})")
    raise UsageError(f"the box's net ({size}, {depth:g} mm deep) fits on none of the papers "
                     f"pnp knows ({', '.join(PAPERS)}); make a box for fewer cards (--deck) "
                     "or thinner ones (--thickness-mm)")


def _net(width: float, height: float, depth: float, paper: str, page: tuple[float, float],
         turned: bool) -> TuckBox:
    net_w, net_h = net_size(width, height, depth)
    x0 = round((page[0] - net_w) / 2, 3)
    y0 = round((page[1] - net_h) / 2, 3)
    tuck, glue = _tuck(depth), _glue(width)
    top = y0 + depth + tuck  # the body's top edge
    bottom = top + height
    left_side = x0
    back = x0 + depth
    right_side = back + width
    front = right_side + depth
    glue_x = front + width
    panels = {
        "side_left": (left_side, top, depth, height),
        "back": (back, top, width, height),
        "side_right": (right_side, top, depth, height),
        "front": (front, top, width, height),
        "glue": (glue_x, top, glue, height),
        "lid": (back, top - depth, width, depth),
        "lid_tuck": (back, top - depth - tuck, width, tuck),
        "bottom": (front, bottom, width, depth),
        "bottom_tuck": (front, bottom + depth, width, tuck),
        "dust_left_top": (left_side, top - depth, depth, depth),
        "dust_right_top": (right_side, top - depth, depth, depth),
        "dust_left_bottom": (left_side, bottom, depth, depth),
        "dust_right_bottom": (right_side, bottom, depth, depth),
    }
    fold: list[Op] = [
        *(_fold(x, top, x, bottom) for x in (back, right_side, front, glue_x)),
        _fold(back, top, right_side, top), _fold(back, top - depth, right_side, top - depth),
        _fold(front, bottom, glue_x, bottom),
        _fold(front, bottom + depth, glue_x, bottom + depth),
        _fold(left_side, top, back, top), _fold(right_side, top, front, top),
        _fold(left_side, bottom, back, bottom), _fold(right_side, bottom, front, bottom),
    ]
    cut = _outline(panels, depth, tuck, glue)
    return TuckBox(width, height, depth, paper, page[0], page[1], turned, panels, tuple(cut),
                   tuple(fold))


def _fold(x1: float, y1: float, x2: float, y2: float) -> Line:
    return Line(x1, y1, x2, y2, FOLD_COLOR, FOLD_WIDTH_PT, FOLD_DASH_PT)


def _cut(x1: float, y1: float, x2: float, y2: float) -> Line:
    return Line(x1, y1, x2, y2, CUT_COLOR, CUT_WIDTH_PT)


def _outline(panels: dict[str, Box], depth: float, tuck: float, glue: float) -> list[Op]:
    """The cut lines: every outer edge of the net, flaps shaped to slide in, a thumb notch."""
    ops: list[Op] = []
    lx, top, _, height = panels["side_left"]
    bx, _, width, _ = panels["back"]
    rx = panels["side_right"][0]
    fx = panels["front"][0]
    gx = panels["glue"][0]
    bottom = top + height
    # the body's outer edges: the left side's left edge, the back's top and bottom beside the
    # lid, the front's top (with its notch) and bottom, the glue flap's slanted outline
    ops.append(_cut(lx, top, lx, bottom))
    ops.append(_cut(bx, bottom, rx, bottom))
    notch = notch_radius(width)
    middle = fx + width / 2
    ops.append(_cut(fx, top, middle - notch, top))
    ops.append(_cut(middle + notch, top, gx, top))
    ops.append(_arc(middle, top, notch))
    slant = min(glue * 0.8, height / 4)
    ops.append(Polygon(((gx, top), (gx + glue, top + slant), (gx + glue, bottom - slant),
                        (gx, bottom)), stroke=CUT_COLOR, width_pt=CUT_WIDTH_PT, closed=False))
    # lids: the sides of the lid, the tuck flap with rounded-off corners
    for name, tuck_name, upward in (("lid", "lid_tuck", True), ("bottom", "bottom_tuck", False)):
        x, y, w, h = panels[name]
        ops.append(_cut(x, y, x, y + h))
        ops.append(_cut(x + w, y, x + w, y + h))
        tx, ty, tw, th = panels[tuck_name]
        edge = ty + th if upward else ty  # where the flap meets its lid
        far = ty if upward else ty + th
        corner = min(th * 0.6, tw / 4)
        ops.append(Polygon(_rounded_flap(tx, tw, edge, far, corner), stroke=CUT_COLOR,
                           width_pt=CUT_WIDTH_PT, closed=False))
    # dust flaps: trapezoids that narrow away from the side they fold from
    for name, upward in (("dust_left_top", True), ("dust_right_top", True),
                         ("dust_left_bottom", False), ("dust_right_bottom", False)):
        x, y, w, h = panels[name]
        edge = y + h if upward else y
        inset = min(w * 0.15, h * 0.3)
        reach = h * 0.85
        tip = edge - reach if upward else edge + reach
        ops.append(Polygon(((x, edge), (x + inset, tip), (x + w - inset, tip), (x + w, edge)),
                           stroke=CUT_COLOR, width_pt=CUT_WIDTH_PT, closed=False))
    return ops


def _rounded_flap(x: float, w: float, edge: float, far: float, corner: float
                  ) -> tuple[tuple[float, float], ...]:
    """A tuck flap's outline from its lid edge round to the far edge and back, its two far
    corners rounded (as quarter circles of ``corner`` mm, in short straight steps)."""
    sign = -1 if far < edge else 1
    points = [(x, edge)]
    steps = 8
    for index in range(steps + 1):  # left corner: from the side up to the far edge
        angle = math.pi / 2 * index / steps
        points.append((x + corner - corner * math.cos(angle),
                       far - sign * (corner - corner * math.sin(angle))))
    for index in range(steps + 1):  # right corner
        angle = math.pi / 2 * index / steps
        points.append((x + w - corner + corner * math.sin(angle),
                       far - sign * (corner - corner * math.cos(angle))))
    points.append((x + w, edge))
    return tuple((round(px, 3), round(py, 3)) for px, py in points)


def _arc(cx: float, cy: float, r: float) -> Polygon:
    """The thumb notch: a half circle cut down into the front from its top edge."""
    steps = 16
    return Polygon(tuple((round(cx - r * math.cos(math.pi * i / steps), 3),
                          round(cy + r * math.sin(math.pi * i / steps), 3))
                         for i in range(steps + 1)),
                   stroke=CUT_COLOR, width_pt=CUT_WIDTH_PT, closed=False)
