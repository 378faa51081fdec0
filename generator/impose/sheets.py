"""Imposition: place card faces on sheets, mirror backs for duplex, and draw sheet marks.

All geometry is in millimetres from the page's top-left corner (x right, y down), the same frame
as the build manifest. A back is placed where its front's mirror image lands after the flip:
long-edge flips mirror x, short-edge flips mirror y; the back art stays upright in both.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from msgspec import Struct, field
from msgspec.structs import replace

from generator.core.errors import UsageError
from generator.layout.ops import Circle, Line, Op, Rect, Text
from generator.load.fonts import string_width_mm
from generator.model.cards import CardSize

Box = tuple[float, float, float, float]  # x, y, width, height in mm

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0),
    "legal": (215.9, 355.6), "tabloid": (279.4, 431.8)}
MARK_WIDTH_PT = 0.5  # >= 0.25 pt so that marks survive a home printer
CUT_LINE_WIDTH_PT = 0.25
MARK_COLOR = "#000000"
CUT_COLOR = "#8c8c8c"
MARK_GAP_MM = 0.5  # between the bleed edge and a crop mark
MARK_LENGTH_MM = 5.0
REGISTRATION_DIAMETER_MM = 3.5


class SheetOptions(Struct, frozen=True):
    paper: str = "a4"
    duplex: str = "long"  # long | short | none
    margin_mm: float = 3.0  # printer's unprintable border
    bleed_mm: float = 1.5
    gutter_mm: float = 0.0
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = True
    new_sheet_per_kind: bool = True

    @property
    def paper_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


class Grid(Struct, frozen=True, gc=False):
    cols: int
    rows: int
    card_w: float
    card_h: float
    gutter: float
    x0: float  # left edge of the first column's trim
    y0: float  # top edge of the first row's trim
    #: the cards' rounded corners (mm; 0: square): their cut lines follow them
    corner_radius_mm: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> float:
        return self.cols * self.card_w + (self.cols - 1) * self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gutter

    def cell(self, index: int) -> tuple[float, float]:
        col, row = index % self.cols, index // self.cols
        return (self.x0 + col * (self.card_w + self.gutter),
                self.y0 + row * (self.card_h + self.gutter))


#: an axis gives up at most this share of its pieces to make room for full-length crop marks
MARK_ROOM_COST = 0.10


def _fit(length: float, piece: float, gutter: float) -> int:
    return math.floor((length + gutter) / (piece + gutter) + 1e-9)


def _count(paper: float, piece: float, options: SheetOptions) -> int:
    """Pieces along one axis: as many as fit inside the margins and the outer bleed, or one or
    two fewer when that leaves room for full crop marks at no more than 10 % of them (small
    pieces such as 12.7 mm counters; a poker-card grid never loses a row for its marks)."""
    g = options.gutter_mm
    tight = _fit(paper - 2 * (options.margin_mm + options.bleed_mm), piece, g)
    room = 2 * (options.margin_mm + options.bleed_mm + MARK_GAP_MM + MARK_LENGTH_MM)
    roomy = _fit(paper - room, piece, g)
    return roomy if roomy >= 1 and tight - roomy <= MARK_ROOM_COST * tight else tight


def compute_grid(options: SheetOptions, card: CardSize) -> Grid:
    """As many cards as fit inside the printable area with room for the outer bleed."""
    width, height = options.paper_size
    g = options.gutter_mm
    cols = _count(width, card.width_mm, options)
    rows = _count(height, card.height_mm, options)
    if cols < 1 or rows < 1:
        raise UsageError(f"a {card.width_mm} x {card.height_mm} mm card does not fit on "
                         f"{options.paper} with {options.margin_mm} mm margins")
    grid_w = cols * card.width_mm + (cols - 1) * g
    grid_h = rows * card.height_mm + (rows - 1) * g
    return Grid(cols, rows, card.width_mm, card.height_mm, g,
                round((width - grid_w) / 2, 4), round((height - grid_h) / 2, 4),
                card.corner_radius_mm)


class Slot(Struct, frozen=True, gc=False):
    card_id: str
    copy: int  # 1-based copy number of that card
    kind: str
    size: CardSize  # kinds may differ in size (cards and counters in one pack)


class Placement(Struct, frozen=True, gc=False):
    card_id: str
    copy: int
    face: tuple[str, str]
    x: float
    y: float
    w: float
    h: float
    #: mm of the face's bleed shown past each side (top, right, bottom, left): the full bleed
    #: towards the sheet's edges, half the gutter at most between two cards
    bleed_sides: tuple[float, float, float, float]
    rotation: int = 0


class Page(Struct):
    side: str  # front | back
    sheet: int  # 1-based
    grid: Grid | None = None
    placements: list[Placement] = field(default_factory=list)
    marks: list[Op] = field(default_factory=list)

    @property
    def trim_box(self) -> Box | None:
        """The rectangle around every card's trim on the page: what is left once the outer
        edges are cut (the PDF TrimBox of a sheet)."""
        if not self.placements:
            return None
        left = min(p.x for p in self.placements)
        top = min(p.y for p in self.placements)
        right = max(p.x + p.w for p in self.placements)
        bottom = max(p.y + p.h for p in self.placements)
        return left, top, right - left, bottom - top

    def bleed_box(self, paper: tuple[float, float]) -> Box | None:
        """The trim box grown by the bleed the cards show past it, within the paper."""
        trim = self.trim_box
        if trim is None:
            return None
        x, y, w, h = trim
        left = min(p.x - p.bleed_sides[3] for p in self.placements)
        top = min(p.y - p.bleed_sides[0] for p in self.placements)
        right = max(p.x + p.w + p.bleed_sides[1] for p in self.placements)
        bottom = max(p.y + p.h + p.bleed_sides[2] for p in self.placements)
        left, top = max(0.0, min(left, x)), max(0.0, min(top, y))
        right, bottom = min(paper[0], max(right, x + w)), min(paper[1], max(bottom, y + h))
        return left, top, right - left, bottom - top


def paginate(slots: list[Slot], per_sheet: Callable[[CardSize], int],
             new_sheet_per_kind: bool) -> list[list[Slot]]:
    """Split the copies into sheets; a new size, or a new kind when asked, starts a new sheet."""
    sheets: list[list[Slot]] = []
    for slot in slots:
        previous = sheets[-1][-1] if sheets else None
        starts_new = (previous is None or len(sheets[-1]) == per_sheet(slot.size)
                      or previous.size != slot.size
                      or (new_sheet_per_kind and previous.kind != slot.kind))
        if starts_new:
            sheets.append([])
        sheets[-1].append(slot)
    return sheets


def mirror(x: float, y: float, w: float, h: float, paper: tuple[float, float],
           duplex: str) -> tuple[float, float]:
    """Where the back of the rectangle (x, y, w, h) must be drawn on the back page."""
    width, height = paper
    if duplex == "short":
        return x, height - y - h
    return width - x - w, y


def _bleed_sides(grid: Grid, index: int, bleed: float) -> tuple[float, float, float, float]:
    """Bleed past each side of cell ``index``: all of it on the grid's outer edges, and between
    two cards as much as half the gutter holds (a gutter of twice the bleed gives every card its
    full bleed on all four sides, for a guillotine or a print shop)."""
    col, row = index % grid.cols, index // grid.cols
    inner = min(bleed, grid.gutter / 2)
    return (bleed if row == 0 else inner, bleed if col == grid.cols - 1 else inner,
            bleed if row == grid.rows - 1 else inner, bleed if col == 0 else inner)


def _crop_marks(grid: Grid, options: SheetOptions, avoid: tuple[Box, ...] = ()) -> list[Op]:
    """The crop marks of one page (see :func:`_page_crop_marks`): pages of one grid whose
    labels take the same room share them, so a 10,000-card build works them out a few times,
    not once per page."""
    return list(_page_crop_marks(grid, options, avoid))


@lru_cache(maxsize=256)
def _page_crop_marks(grid: Grid, options: SheetOptions, avoid: tuple[Box, ...]
                     ) -> tuple[Op, ...]:
    """Short lines outside the grid, continuing every cut line, stopping at the printer margin.

    A mark that would run through the sheet label or a registration target (``avoid``) is left
    out: with small pieces (12.7 mm counters) a mark falls on every few millimetres of the side
    margins, where the label and the targets sit; the cut lines of the front still show that
    edge."""
    width, height = options.paper_size
    start = options.bleed_mm + MARK_GAP_MM
    ops: list[Op] = []
    xs = sorted({grid.x0 + c * (grid.card_w + grid.gutter) for c in range(grid.cols)}
                | {grid.x0 + c * (grid.card_w + grid.gutter) + grid.card_w
                   for c in range(grid.cols)})
    ys = sorted({grid.y0 + r * (grid.card_h + grid.gutter) for r in range(grid.rows)}
                | {grid.y0 + r * (grid.card_h + grid.gutter) + grid.card_h
                   for r in range(grid.rows)})
    top_from, top_to = grid.y0 - start, max(options.margin_mm, grid.y0 - start - MARK_LENGTH_MM)
    bottom_from = grid.y0 + grid.height + start
    bottom_to = min(height - options.margin_mm, bottom_from + MARK_LENGTH_MM)
    left_from, left_to = grid.x0 - start, max(options.margin_mm, grid.x0 - start - MARK_LENGTH_MM)
    right_from = grid.x0 + grid.width + start
    right_to = min(width - options.margin_mm, right_from + MARK_LENGTH_MM)
    for x in xs:
        if top_from > top_to:
            ops.append(Line(x, top_from, x, top_to, MARK_COLOR, MARK_WIDTH_PT))
        if bottom_to > bottom_from:
            ops.append(Line(x, bottom_from, x, bottom_to, MARK_COLOR, MARK_WIDTH_PT))
    for y in ys:
        if left_from > left_to:
            ops.append(Line(left_from, y, left_to, y, MARK_COLOR, MARK_WIDTH_PT))
        if right_to > right_from:
            ops.append(Line(right_from, y, right_to, y, MARK_COLOR, MARK_WIDTH_PT))
    return tuple(op for op in ops if not any(_crosses(op, box) for box in avoid))


def _crosses(line: Op, box: Box, clearance: float = 0.5) -> bool:
    """Whether an axis-parallel mark passes within ``clearance`` mm of ``box``."""
    assert isinstance(line, Line)
    x, y, w, h = box
    left, right = min(line.x1, line.x2), max(line.x1, line.x2)
    top, bottom = min(line.y1, line.y2), max(line.y1, line.y2)
    return (left <= x + w + clearance and right >= x - clearance
            and top <= y + h + clearance and bottom >= y - clearance)


def _text_box(text: Text) -> Box:
    """The area a sheet label covers (horizontal, or turned 90 degrees up the margin)."""
    size = text.size_pt * 25.4 / 72.0
    length = string_width_mm(text.text, text.font, text.size_pt)
    if text.angle == 90:
        return (text.x - size * 0.8, text.y - length, size, length)
    return (text.x, text.y - size * 0.8, length, size)


def _registration_boxes(options: SheetOptions) -> tuple[Box, ...]:
    r = REGISTRATION_DIAMETER_MM / 2
    return tuple((cx - r, cy - r, 2 * r, 2 * r) for cx, cy in registration_centers(options))


def _cut_lines(grid: Grid, used: int | None = None) -> list[Op]:
    """Hairlines along every card edge of a front page (the original's grey cut lines, 2.1),
    over the rows that hold pieces: a sheet of 20 counters in a 14 x 21 grid is not ruled
    like graph paper. Cards with rounded corners get their own outline each, corners and
    all, around every card on the sheet."""
    if grid.corner_radius_mm > 0:
        count = grid.per_sheet if used is None else min(used, grid.per_sheet)
        return [Rect(*grid.cell(index), grid.card_w, grid.card_h, stroke=CUT_COLOR,
                     width_pt=CUT_LINE_WIDTH_PT, radius=grid.corner_radius_mm)
                for index in range(count)]
    rows = grid.rows if used is None else max(1, min(grid.rows, -(-used // grid.cols)))
    height = rows * grid.card_h + (rows - 1) * grid.gutter
    ops: list[Op] = []
    for c in range(grid.cols):
        for edge in (0.0, grid.card_w):
            x = grid.x0 + c * (grid.card_w + grid.gutter) + edge
            ops.append(Line(x, grid.y0, x, grid.y0 + height, CUT_COLOR, CUT_LINE_WIDTH_PT))
    for r in range(rows):
        for edge in (0.0, grid.card_h):
            y = grid.y0 + r * (grid.card_h + grid.gutter) + edge
            ops.append(Line(grid.x0, y, grid.x0 + grid.width, y, CUT_COLOR, CUT_LINE_WIDTH_PT))
    return ops


def registration_centers(options: SheetOptions) -> list[tuple[float, float]]:
    """Centres of the two registration targets, mid-height in the side margins."""
    width, height = options.paper_size
    return [(options.margin_mm + REGISTRATION_DIAMETER_MM / 2 + 0.3, height / 2),
            (width - options.margin_mm - REGISTRATION_DIAMETER_MM / 2 - 0.3, height / 2)]


def _registration(options: SheetOptions) -> list[Op]:
    r = REGISTRATION_DIAMETER_MM / 2
    ops: list[Op] = []
    for cx, cy in registration_centers(options):
        ops.append(Circle(cx, cy, r * 0.6, stroke=MARK_COLOR, width_pt=MARK_WIDTH_PT))
        ops.append(Line(cx - r, cy, cx + r, cy, MARK_COLOR, MARK_WIDTH_PT))
        ops.append(Line(cx, cy - r, cx, cy + r, MARK_COLOR, MARK_WIDTH_PT))
    return ops


def _label(grid: Grid, options: SheetOptions, text: str) -> Op:
    """The sheet label: above the first column if there is room, else up the left margin."""
    room_top = grid.y0 - options.bleed_mm - options.margin_mm
    if room_top >= 6.0:
        return Text(grid.x0 + 2.0, grid.y0 - options.bleed_mm - 1.2, text, "regular", 6.0,
                    MARK_COLOR)
    x = options.margin_mm + 2.4
    return Text(x, grid.y0 + grid.height - 4.0, text, "regular", 6.0, MARK_COLOR, angle=90)


def _shift(op: Op, dx: float, dy: float) -> Op:
    if not dx and not dy:  # no --back-offset (nearly every build): the op itself
        return op
    if isinstance(op, Line):
        return replace(op, x1=op.x1 + dx, y1=op.y1 + dy, x2=op.x2 + dx, y2=op.y2 + dy)
    if isinstance(op, Circle):
        return replace(op, cx=op.cx + dx, cy=op.cy + dy)
    if isinstance(op, Text):
        return replace(op, x=op.x + dx, y=op.y + dy)
    return op


class Imposition(Struct):
    grid: Grid  # the first sheet's grid (every sheet's own is on its pages)
    fronts: list[Page]
    backs: list[Page]


def impose(slots: list[Slot], fronts: dict[str, tuple[str, str]],
           backs: dict[str, tuple[str, str]], options: SheetOptions,
           label: str) -> Imposition:
    """Lay the copies out on front pages and, unless simplex, their mirrored back pages."""
    grids: dict[CardSize, Grid] = {}

    def grid_for(size: CardSize) -> Grid:
        if size not in grids:
            grids[size] = compute_grid(options, size)
        return grids[size]

    sheets = paginate(slots, lambda size: grid_for(size).per_sheet,
                      options.new_sheet_per_kind)
    paper = options.paper_size
    dx, dy = options.back_offset_mm
    result = Imposition(grid_for(slots[0].size) if slots else
                        compute_grid(options, CardSize(63.5, 88.9)), [], [])
    for number, sheet in enumerate(sheets, start=1):
        grid = grid_for(sheet[0].size)
        tag = f"{label} \u00b7 sheet {number}/{len(sheets)}"
        front_label = _label(grid, options, f"{tag} \u00b7 front")
        back_label = _label(grid, options, f"{tag} \u00b7 back")
        targets = _registration_boxes(options)
        front = Page("front", number, grid)
        front.marks += (_crop_marks(grid, options, (_text_box(front_label), *targets))
                        + _registration(options))
        if options.cut_lines:
            front.marks += _cut_lines(grid, len(sheet))
        front.marks.append(front_label)
        back = Page("back", number, grid)
        back.marks += [_shift(op, dx, dy) for op in
                       _crop_marks(grid, options, (_text_box(back_label), *targets))
                       + _registration(options)]
        back.marks.append(_shift(back_label, dx, dy))
        for index, slot in enumerate(sheet):
            x, y = grid.cell(index)
            top, right, bottom, left = _bleed_sides(grid, index, options.bleed_mm)
            front.placements.append(Placement(slot.card_id, slot.copy, fronts[slot.card_id],
                                              x, y, grid.card_w, grid.card_h,
                                              (top, right, bottom, left)))
            bx, by = mirror(x, y, grid.card_w, grid.card_h, paper, options.duplex)
            back_sides = ((top, left, bottom, right) if options.duplex != "short"
                          else (bottom, right, top, left))
            back.placements.append(Placement(slot.card_id, slot.copy, backs[slot.card_id],
                                             round(bx + dx, 4), round(by + dy, 4), grid.card_w,
                                             grid.card_h, back_sides))
        result.fronts.append(front)
        if options.duplex != "none":
            result.backs.append(back)
    return result
