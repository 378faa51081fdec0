"""Generate the raster picture of `pnp new`'s starter game: ``generator/starter/game/art/hero.png``.

A dawn landscape (sky, sun, three ridges of hills and a tower) made with Pillow alone and
seeded, so running the script again gives the same pixels:

    .venv/bin/python tools/make_starter_art.py

900 x 470 px: the hero card's art window (63.5 x 36 mm plus 3 mm bleed at each side) prints it
at about 330 dpi, above the 300 dpi pnp asks of raster art.
"""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageDraw
from ridgeline import ridge  # tools/ridgeline.py (scripts run as tools/<name>.py)

SIZE = (900, 470)
SCALE = 2  # drawn at twice the size, then reduced: smooth edges
TARGET = Path(__file__).resolve().parents[1] / "generator" / "starter" / "game" / "art" / "hero.png"


def landscape() -> Image.Image:
    w, h = SIZE[0] * SCALE, SIZE[1] * SCALE
    image = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(image)
    top, bottom = (70, 52, 110), (246, 178, 107)
    for y in range(h):
        t = y / (h - 1)
        draw.line([(0, y), (w, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom,
                                                                                   strict=True)))
    draw.ellipse([w * 0.62, h * 0.30, w * 0.78, h * 0.30 + w * 0.16], fill=(255, 226, 150))
    rng = random.Random(3)
    hills = [(0.58, 0.10, (150, 92, 110)), (0.70, 0.08, (102, 62, 88)), (0.82, 0.06, (54, 38, 60))]
    for base, rough, colour in hills:
        line = ridge(rng, w, h * base, h * rough)
        draw.polygon([*line, (w, h), (0, h)], fill=colour)
    tower = (54, 38, 60)
    x0, y0 = w * 0.22, h * 0.42
    draw.rectangle([x0, y0, x0 + w * 0.05, h * 0.85], fill=tower)
    for i in range(3):
        bx = x0 + i * w * 0.02
        draw.rectangle([bx, y0 - h * 0.04, bx + w * 0.012, y0], fill=tower)
    draw.polygon([(x0 + w * 0.025, y0 - h * 0.20), (x0 + w * 0.025, y0 - h * 0.05),
                  (x0 + w * 0.065, y0 - h * 0.12)], fill=(226, 87, 43))
    return image.resize(SIZE, Image.Resampling.LANCZOS)


def main() -> None:
    image = landscape().quantize(colors=160, dither=Image.Dither.FLOYDSTEINBERG)
    image.save(TARGET, optimize=True, dpi=(330, 330))
    print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
