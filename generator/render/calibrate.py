"""``pnp calibrate``: a two-sided test page from which a user reads his printer's back offset.

The front carries target lines; the back carries scales centred exactly where those lines land
after the flip. Held against a light and read from the back, the front's line crosses each scale
at the number to pass as ``--back-offset DX,DY`` (0.5 mm steps).
"""

from __future__ import annotations

from pathlib import Path

from generator.impose.sheets import MARK_WIDTH_PT, Page, SheetOptions, mirror
from generator.layout.ops import Line, Op, Text
from generator.render.pdf import SheetRenderer
from generator.runtime.outdir import atomic_folder

SCALE_HALF_MM = 5.0
STEP_MM = 0.5
SCALE_GAP_MM = 8.0  # scales sit this far from the target, so they never overlap
INK = "#000000"


def _targets(options: SheetOptions) -> list[tuple[float, float]]:
    """Four targets near the corners (a printer may skew) and one in the middle."""
    width, height = options.paper_size
    inset = 40.0
    return [(inset, inset), (width - inset, inset), (width / 2, height / 2),
            (inset, height - inset), (width - inset, height - inset)]


def _front_target(x: float, y: float, name: str) -> list[Op]:
    return [Line(x, y - 14, x, y + 14, INK, MARK_WIDTH_PT),
            Line(x - 14, y, x + 14, y, INK, MARK_WIDTH_PT),
            Text(x + 2, y - 2, name, "bold", 9, INK)]


def _scale(x: float, y: float, name: str) -> list[Op]:
    """Two scales the front's lines cross: a horizontal one above the target (reads DX) and a
    vertical one to its right (reads DY). Ticks every 0.5 mm, numbers every 2 mm."""
    hx, hy = x, y - SCALE_GAP_MM  # centre of the DX scale; ticks rise from its baseline
    vx, vy = x + SCALE_GAP_MM, y  # centre of the DY scale; ticks run right from its spine
    ops: list[Op] = [
        Text(x + SCALE_GAP_MM + 5, y - SCALE_GAP_MM - 3, f"{name}", "bold", 9, INK),
        Line(hx - SCALE_HALF_MM, hy, hx + SCALE_HALF_MM, hy, INK, 0.3),
        Line(vx, vy - SCALE_HALF_MM, vx, vy + SCALE_HALF_MM, INK, 0.3),
    ]
    steps = int(SCALE_HALF_MM / STEP_MM)
    for i in range(-steps, steps + 1):
        offset = i * STEP_MM
        tick = 3.0 if i % 4 == 0 else 2.0 if i % 2 == 0 else 1.2
        # the number is the correction: a front line seen at +1 means "shift backs by +1"
        ops.append(Line(hx + offset, hy, hx + offset, hy - tick, INK, 0.3))
        ops.append(Line(vx, vy + offset, vx + tick, vy + offset, INK, 0.3))
        if i % 4 == 0:
            ops.append(Text(hx + offset, hy - tick - 0.8, f"{offset:+g}" if i else "0",
                            "regular", 5, INK, "center"))
            ops.append(Text(vx + tick + 0.8, vy + offset + 0.6, f"{offset:+g}" if i else "0",
                            "regular", 5, INK))
    return ops


def calibration_pages(options: SheetOptions) -> tuple[Page, Page]:
    width, height = options.paper_size
    front = Page("front", 1)
    back = Page("back", 1)
    front.marks.append(Text(20, 20, f"pnp duplex calibration \u00b7 {options.paper} \u00b7 "
                            f"{options.duplex}-edge flip \u00b7 front", "bold", 9, INK))
    front.marks.append(Text(20, 25, "Print both pages duplex at 100 % (no fit-to-page). Hold "
                            "the sheet against a light and read the back.", "regular", 7, INK))
    back.marks.append(Text(20, 20, "back: where each front line crosses a scale is the "
                           "offset; pass DX,DY to pnp build --back-offset", "bold", 8, INK))
    for index, (x, y) in enumerate(_targets(options)):
        name = "ABCDE"[index]
        front.marks += _front_target(x, y, name)
        bx, by = mirror(x, y, 0.0, 0.0, (width, height), options.duplex)
        back.marks += _scale(bx, by, name)
    return front, back


def write_calibration(options: SheetOptions, out_dir: Path) -> Path:
    front, back = calibration_pages(options)
    with atomic_folder(out_dir) as scratch:
        renderer = SheetRenderer(scratch / "calibrate.pdf", options.paper_size,
                                 f"pnp duplex calibration ({options.paper})", {}, 0)
        renderer.add_page(front)
        renderer.add_page(back)
        renderer.save()
    return out_dir / "calibrate.pdf"
