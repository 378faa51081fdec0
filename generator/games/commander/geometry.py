"""Where the body text of a unit card starts: shared by the faces (which pick a text slot) and
the ``stack`` widget (which draws the stats and weapon rows above it).

Templates place elements in fixed boxes, but a transport has no weapon rows and a battleship six;
so the stack's height is computed here and the body text takes the first of a few fixed slots
below it (templates declare one text element per slot, switched on by ``body_<top>``).
"""

from __future__ import annotations

STACK_TOP = 33.8  # mm: below the art window
STACK_W = 57.5
STATS_H = 9.6  # the row of stat cells
ROW_H = 4.3  # one weapon row
KEYWORD_PT = 8.0  # the keyword line (ship properties) prints at this size, bold
KEYWORD_LINE_H = KEYWORD_PT * 1.18 * 25.4 / 72.0
GAP = 0.8
BODY_SLOTS = tuple(range(34, 75, 4))  # mm: tops the templates offer for the body text


def stack_height(stats: int, weapons: int, keyword_lines: int = 0) -> float:
    height = (STATS_H + GAP if stats else 0.0) + weapons * ROW_H
    height += GAP if weapons else 0.0
    return height + (keyword_lines * KEYWORD_LINE_H + GAP if keyword_lines else 0.0)


def body_slot(stats: int, weapons: int, keyword_lines: int = 0) -> int:
    """The first slot at or below the end of the stack."""
    bottom = STACK_TOP + stack_height(stats, weapons, keyword_lines)
    for top in BODY_SLOTS:
        if top >= bottom - 0.01:
            return top
    return BODY_SLOTS[-1]
